"""BIND's SOA serials as named serves them (DNS break-it round 2, findings 01 and 04): a rollback
never lowers a served serial and the next apply never reuses one; the live serial is read from
an SOA in any legal form, and refused (exit 3, file:line) when it cannot be; RFC 1982 wraps."""

from __future__ import annotations

import datetime as dt
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from renamer.dns.bind import render
from renamer.errors import UnsafeError
from tests.testing import bind
from tests.testing.resolvers import Lab, answers, dns, fails_once_written, move_gateway, start_bind_lab


def serial(lab: Lab, zone: str, name: str = "ns-fv") -> int:
    return int(answers(lab, f"{zone}.", "SOA")[name][0].split()[2])


def gateway(lab: Lab, name: str = "ns-fv") -> tuple[str, ...]:
    return answers(lab, "fv-gw.fv.lan.", "A")[name]


def test_a_rollback_never_lowers_a_served_serial_nor_lets_the_next_apply_reuse_it(
        run: Callable[..., Any], pair: Lab) -> None:
    """Finding 01: ns-fv is written, reloaded and verified (named serves the new zone at S+1),
    then ns-fv2's test fails: ns-fv is rolled back. A secondary that took S+1 must see the
    restored records as newer, and the next apply newer still."""
    assert dns(run, pair, "apply", "--resolvers", "all").exit_code == 0
    today = int(dt.date.today().strftime("%Y%m%d")) * 100
    first = serial(pair, "fv.lan")
    assert first == today and gateway(pair) == ("10.251.0.1",)
    move_gateway(pair)
    pair.write_resolvers(ns_fv2={"test": fails_once_written(pair, "ns-fv2")})
    failed = dns(run, pair, "apply", "--resolvers", "all")
    assert failed.exit_code == 1, failed.stdout
    assert "restored, reloaded, old records served" in failed.stdout, failed.stdout
    assert gateway(pair) == ("10.251.0.1",)
    restored = serial(pair, "fv.lan")
    assert restored > first + 1, restored  # above the rolled-back apply's first + 1
    assert serial(pair, "251.10.in-addr.arpa") > first + 1
    assert serial(pair, "ana.lan") == first  # a zone the failed apply never changed keeps its serial
    pair.write_resolvers()
    path = pair.inventory / "sites" / "fv.yaml"
    path.write_text(path.read_text().replace("address: 10.251.0.2", "address: 10.251.0.3"))
    moved = dns(run, pair, "apply", "--resolvers", "all")
    assert moved.exit_code == 0, moved.stdout
    assert gateway(pair) == ("10.251.0.3",) and serial(pair, "fv.lan") > restored
    assert dns(run, pair, "verify", "--resolvers", "all").exit_code == 0


def test_rollback_after_a_kill_bumps_the_restored_serial_too(run: Callable[..., Any], pair: Lab) -> None:
    """Finding 01's variant: the apply is killed once ns-fv serves the new zone; `--rollback`
    restores it with a serial above the one served, and the next apply goes above that."""
    assert dns(run, pair, "apply", "--resolvers", "all").exit_code == 0
    first = serial(pair, "fv.lan")
    move_gateway(pair)
    mark = pair.root / "in-test"
    pair.write_resolvers(ns_fv2={"test": fails_once_written(pair, "ns-fv2", f"touch {mark}; sleep 30")})
    apply = subprocess.Popen([sys.executable, "-m", "renamer", "dns", "apply", "--resolvers", "all",
                              "--inventory", str(pair.inventory)], cwd=pair.root, stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        end = time.monotonic() + 60
        while not mark.exists() and time.monotonic() < end:
            time.sleep(0.05)
        assert mark.exists(), "the apply reached ns-fv2's test"
    finally:
        os.killpg(apply.pid, signal.SIGKILL)
        apply.wait()
    assert gateway(pair) == ("10.251.0.2",) and serial(pair, "fv.lan") == first + 1
    pair.write_resolvers()
    back = dns(run, pair, "apply", "--resolvers", "all", "--rollback")
    assert back.exit_code == 0, back.stdout + back.stderr
    assert gateway(pair) == ("10.251.0.1",) and serial(pair, "fv.lan") > first + 1
    restored = serial(pair, "fv.lan")
    again = dns(run, pair, "apply", "--resolvers", "all")
    assert again.exit_code == 0, again.stdout
    assert gateway(pair) == ("10.251.0.2",) and serial(pair, "fv.lan") > restored


MULTI = """$TTL 300
; restored by the operator's own tooling
fv.lan.   300 in SOA localhost. hostmaster.fv.lan. (
              2030010100 ; serial
              3600 600 604800 300 )
fv.lan. IN NS localhost.
fv-gw.fv.lan. IN A 10.251.0.1
"""


@pytest.mark.parametrize(("text", "serial"), [
    pytest.param(MULTI, 2030010100, id="multi-line-ttl-lower-case-class"),
    pytest.param("@ IN SOA ns. host. 7 1 1 1 1\n", 7, id="one-line"),
    pytest.param("$ORIGIN x.\n@ 1h SOA ns. host. (\n 12 1 1 1 1 )\n", 12, id="ttl-unit-no-class"),
    pytest.param("@ SOA ( ns. host. 13\n 1 1 1 1 )\n", 13, id="paren-before-mname"),
    pytest.param("@ IN SOA ns. host. ( ; a ( in a comment\n 14 1 1 1 1 )\n", 14, id="paren-in-comment"),
    pytest.param("x. IN A 10.0.0.1\n", None, id="no-soa"),
])
def test_the_live_serial_is_read_from_an_soa_in_any_legal_form(text: str, serial: int | None) -> None:
    assert render.serial_of(text) == serial
    if serial is not None:
        assert render.serial_of(render.with_serial(text, 42)) == 42
        assert render.with_serial(text, 42).replace("42", str(serial), 1) == text


@pytest.mark.parametrize(("text", "line"), [
    pytest.param("$TTL 300\n@ IN SOA ns. host. (\n  2030O10100 1 1 1 1 )\n", 3, id="letter-o"),
    pytest.param("@ IN SOA ns. host. 4294967296 1 1 1 1\n", 1, id="past-2^32"),
    pytest.param("@ IN SOA ns. host.\n", 1, id="cut-short"),
])
def test_a_serial_that_cannot_be_read_is_refused_with_its_line(text: str, line: int) -> None:
    desired = "x. IN SOA localhost. hostmaster.x. 2026120500 3600 600 604800 300\na.x. IN A 10.0.0.2\n"
    with pytest.raises(UnsafeError, match=rf"^renamer-x\.zone:{line}: SOA serial: cannot read the live serial"):
        render.settle({"renamer-x.zone": desired}, {"renamer-x.zone": text.encode()}, dt.date(2026, 12, 5))


def test_rfc_1982_order_and_the_restored_serial() -> None:
    assert render.newer(0, 4294967295) and render.newer(2026120600, 4294967295)
    assert not render.newer(2026120600, 2030010100) and render.newer(2030010101, 2030010100)
    assert render.next_serial(2030010100, dt.date(2026, 12, 6)) == 2030010101
    assert render.next_serial(7, dt.date(2026, 12, 6)) == 2026120600
    saved = "x. IN SOA localhost. hostmaster.x. 2026120600 3600 600 604800 300\na.x. IN A 10.0.0.1\n"
    failed = saved.replace("2026120600", "2026120601").replace("10.0.0.1", "10.0.0.2")
    back = render.restored(saved, failed)
    assert render.serial_of(back) == 2026120602 and back.replace("2026120602", "2026120600") == saved
    assert render.restored(saved, saved) == saved and render.restored(saved, None) == saved
    wrapped = render.restored(saved.replace("2026120600", "4294967290"), failed.replace("2026120601", "4294967295"))
    assert render.serial_of(wrapped) == 0  # RFC 1982: 0 follows 4294967295
    # 4294967295 is older than 2026120600 by RFC 1982 (more than 2^31 behind): the saved one is the highest
    assert render.serial_of(render.restored(saved, failed.replace("2026120601", "4294967295"))) == 2026120601


@pytest.fixture
def one(tmp_path: Path) -> Iterator[Lab]:
    started = start_bind_lab(tmp_path / "lab", ("ns-fv",))
    try:
        yield started
    finally:
        started.stop()


def _rewrite_soa(lab: Lab, soa: str) -> Path:
    """The operator rewrites the SOA of renamer's fv.lan zone file by hand, and reloads named."""
    zone = lab.instances["ns-fv"].snippet_dir / "renamer-fv.lan.zone"
    lines = [line for line in zone.read_text().splitlines() if " IN SOA " not in line and not line.startswith("$TTL")]
    zone.write_text(soa + "\n".join(lines) + "\n")
    instance = lab.instances["ns-fv"]
    assert isinstance(instance, bind.Resolver)
    subprocess.run(instance.reload_command(), check=True, capture_output=True)
    return zone


def test_a_multi_line_live_serial_is_built_on_never_lowered(run: Callable[..., Any], one: Lab) -> None:
    """Finding 04: named serves 2030010100 from an SOA written over several lines; the next apply
    serves 2030010101 (not today's ..00, which secondaries would never take)."""
    assert dns(run, one, "apply", "--resolvers", "all").exit_code == 0
    _rewrite_soa(one, MULTI.split("fv.lan. IN NS")[0])
    deadline = time.monotonic() + 10
    while serial(one, "fv.lan") != 2030010100 and time.monotonic() < deadline:
        time.sleep(0.1)
    assert serial(one, "fv.lan") == 2030010100
    move_gateway(one)
    moved = dns(run, one, "apply", "--resolvers", "all")
    assert moved.exit_code == 0, moved.stdout
    assert gateway(one) == ("10.251.0.2",) and serial(one, "fv.lan") == 2030010101


@pytest.mark.parametrize("soa", [
    pytest.param("$TTL 300\nfv.lan. IN SOA localhost. hostmaster.fv.lan. (\n  2030O10100 3600 600 604800 300 )\n",
                 id="letter-o"),
    pytest.param("$TTL 300\n$INCLUDE soa.inc\n", id="soa-elsewhere"),
])
def test_a_live_serial_that_cannot_be_read_is_refused_naming_file_and_line(
        run: Callable[..., Any], one: Lab, soa: str) -> None:
    assert dns(run, one, "apply", "--resolvers", "all").exit_code == 0
    zone = one.instances["ns-fv"].snippet_dir / "renamer-fv.lan.zone"
    lines = [line for line in zone.read_text().splitlines() if " IN SOA " not in line and not line.startswith("$TTL")]
    zone.write_text(soa + "\n".join(lines) + "\n")
    move_gateway(one)
    before = one.snippets()
    refused = dns(run, one, "apply", "--resolvers", "all")
    assert refused.exit_code == 3, refused.stdout + refused.stderr
    line = 3 if "2030O" in soa else 1
    assert refused.stderr.startswith(f"renamer: error: ns-fv: {zone}:{line}: SOA serial: cannot read the live "
                                     "serial ("), refused.stderr
    assert refused.stderr.endswith("; nothing written\n") and one.snippets() == before
    plan = dns(run, one, "plan", "--resolvers", "all")
    assert plan.exit_code == 1 and f"{zone}:{line}: SOA serial" in plan.stdout + plan.stderr


def test_a_zone_written_afresh_goes_past_every_serial_renamer_wrote_for_it(
        run: Callable[..., Any], one: Lab) -> None:
    """DNS break-it round 3, finding 01 (b): fv.lan served at S, S+1, S+2; the site taken off the
    resolver (its zone dropped), then given back: the zone written afresh is served past S+2, not
    at today's ..00 again (a secondary holding S+2 would never take it)."""
    assert dns(run, one, "apply", "--resolvers", "all").exit_code == 0
    first = serial(one, "fv.lan")
    path = one.inventory / "sites" / "fv.yaml"
    for address in ("10.251.0.2", "10.251.0.3"):
        path.write_text(re.sub(r"address: 10\.251\.0\.\d+", f"address: {address}", path.read_text(), count=1))
        assert dns(run, one, "apply", "--resolvers", "all").exit_code == 0
    assert serial(one, "fv.lan") == first + 2
    one.write_resolvers(ns_fv={"sites": ["ana"]})
    dropped = dns(run, one, "apply", "--resolvers", "all")
    assert dropped.exit_code == 0, dropped.stdout
    assert answers(one, "fv.lan.", "SOA")["ns-fv"] == ()  # the zone is gone from named
    marks = render.marks_of((one.instances["ns-fv"].snippet_dir / render.SERIALS).read_bytes())
    assert marks["fv.lan"] == first + 2
    one.write_resolvers()
    path.write_text(re.sub(r"address: 10\.251\.0\.\d+", "address: 10.251.0.9", path.read_text(), count=1))
    back = dns(run, one, "apply", "--resolvers", "all")
    assert back.exit_code == 0, back.stdout
    assert serial(one, "fv.lan") == first + 3 and gateway(one) == ("10.251.0.9",)
    assert dns(run, one, "verify", "--resolvers", "all").exit_code == 0


def test_a_zone_a_rollback_removed_comes_back_past_the_serial_it_was_served_at(
        run: Callable[..., Any], pair: Lab) -> None:
    """Finding 01 (a): an apply gives both resolvers a new site; ns-fv serves its zone at today's
    ..00, then ns-fv2's test fails and the rollback removes the zone from ns-fv. The next apply
    writes it afresh past ..00 there (ns-fv2, never reloaded with it, starts at ..00)."""
    (pair.inventory / "sites" / "lab.yaml").write_text(
        "site: lab\ndomain: lab.lan\nnetwork: 10.252.0.0/16\nhosts:\n  - name: lab-nas\n    address: 10.252.0.10\n"
        "authoritative: true\n")
    pair.write_resolvers(ns_fv={"sites": ["ana", "fv"]}, ns_fv2={"sites": ["ana", "fv"]})
    assert dns(run, pair, "apply", "--resolvers", "all").exit_code == 0
    pair.write_resolvers(ns_fv2={"test": fails_once_written(pair, "ns-fv2")})
    failed = dns(run, pair, "apply", "--resolvers", "all")
    assert failed.exit_code == 1, failed.stdout
    assert answers(pair, "lab.lan.", "SOA")["ns-fv"] == ()  # rolled back: the zone is gone again
    served = render.marks_of((pair.instances["ns-fv"].snippet_dir / render.SERIALS).read_bytes())["lab.lan"]
    assert served == int(dt.date.today().strftime("%Y%m%d")) * 100
    pair.write_resolvers()
    again = dns(run, pair, "apply", "--resolvers", "all")
    assert again.exit_code == 0, again.stdout
    assert serial(pair, "lab.lan") == served + 1
    assert serial(pair, "lab.lan", "ns-fv2") == served  # its named never loaded the zone: ..00 is its first


def test_renamer_serials_is_read_in_every_form_and_an_unreadable_line_refused() -> None:
    """DNS break-it round 4, finding 02: a line renamer-serials could not read was dropped, and a
    zone written afresh reused a served serial. A comment, a final dot, upper case are read; any
    other line refuses the plan (FILE:LINE), as an unreadable live SOA serial does."""
    text = "\ufeff; header\nserial ANA.LAN. 2026120601 ; note\nserial fv.lan 7\n\n"
    assert render.marks_of(text, strict=True) == {"ana.lan": 2026120601, "fv.lan": 7}
    desired = {"renamer-ana.lan.zone": "ana.lan. IN SOA ns. h. 2026120600 1 1 1 1\n", render.SERIALS: ""}
    settled = render.settle(desired, {render.SERIALS: text.encode()}, dt.date(2026, 12, 6))
    assert render.serial_of(settled["renamer-ana.lan.zone"] or "") == 2026120602
    with pytest.raises(UnsafeError, match=r"^renamer-serials:3: cannot read it \(expected `serial ZONE NUMBER`"):
        render.settle(desired, {render.SERIALS: b"; x\nserial fv.lan 7\nserial ana.lan 12x\n"}, dt.date(2026, 12, 6))
