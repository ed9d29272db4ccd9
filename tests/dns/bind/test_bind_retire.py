"""`dns apply --retire-stale` on the operator's own zone files, on a real named (DNS break-it round 3,
finding 02; DNS trial on public configs, findings 01 and 08): the edited zone's SOA serial moves on,
so a named with `ixfr-from-differences` loads it; a zone's NS records, its name servers' addresses
and the records of a dynamic zone are listed and left to the operator, never commented out; a
rollback of such an edit reads no operator's zone with renamer's own parser."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.testing import bind
from tests.testing.repos import ALLOWLIST, make_repo
from tests.testing.resolvers import Lab, answers, dns, fails_once_written, reload_until, start_bind_lab


@pytest.fixture
def ns(tmp_path: Path) -> Iterator[Lab]:
    started = start_bind_lab(tmp_path / "lab", ("ns-fv",))
    try:
        yield started
    finally:
        started.stop()


def _zone(lab: Lab, records: str, options: str = "", zone_options: str = "") -> Path:
    """The operator's zone other.lan on ns-fv (written with `@` and relative names), served."""
    instance = lab.instances["ns-fv"]
    assert isinstance(instance, bind.Resolver)
    path = lab.root / "other.zone"
    path.write_text("$TTL 300\n@ IN SOA localhost. hostmaster 7 3600 600 604800 300\n  IN NS localhost.\n"
                    + records)
    conf = instance.conf.read_text().replace("options {\n", f"options {{\n{options}", 1)
    instance.conf.write_text(conf + f'zone "other.lan" {{ type master; file "{path}"; {zone_options}}};\n')
    reload_until(lab, "ns-fv", "other.lan.")
    return path


def _serial(lab: Lab) -> int:
    return int(answers(lab, "other.lan.", "SOA", "ns-fv")["ns-fv"][0].split()[2])


def test_a_retired_record_goes_live_under_ixfr_from_differences(run: Callable[..., Any], ns: Lab) -> None:
    path = _zone(ns, "old IN CNAME ana-ml2.ana.lan.\nkept IN A 10.9.0.8\n", options="  ixfr-from-differences yes;\n")
    assert answers(ns, "old.other.lan.", "CNAME", "ns-fv")["ns-fv"] == ("ana-ml2.ana.lan.",)
    applied = dns(run, ns, "apply", "--resolvers", "all", "--retire-stale")
    assert applied.exit_code == 0, applied.stdout + applied.stderr
    served = _serial(ns)
    assert served > 7  # moved on: named loads the edited zone (it refused it at the same serial)
    assert answers(ns, "old.other.lan.", "CNAME", "ns-fv")["ns-fv"] == ()
    assert answers(ns, "kept.other.lan.", "A", "ns-fv")["ns-fv"] == ("10.9.0.8",)
    text = path.read_text()
    assert "; retired by `renamer dns apply --retire-stale`" in text and f" {served} 3600 " in text
    planned = dns(run, ns, "plan", "--resolvers", "all")
    assert planned.exit_code == 0 and "hand-written" not in planned.stdout, planned.stdout


def test_a_zones_name_server_and_its_address_are_left_to_the_operator(run: Callable[..., Any], ns: Lab) -> None:
    """renamer.yaml renames ns1.other.lan, the name server of the operator's other.lan (its NS
    record, relative, and its glue A): commented out, the zone would not load. Both listed with
    why, never commented out; a CNAME naming the old server is retired."""
    make_repo(ns.root, {}, config="version: 1\nrenames:\n  hosts: {ns1.other.lan: ns9.other.lan}\n"
                                  "allowlist: allow.yaml\ndns: dns\n", allowlist=ALLOWLIST)
    path = _zone(ns, "@ IN NS ns1\nns1 IN A 10.9.0.9\nwww IN CNAME ns1.other.lan.\n")
    listed = run(ns.root, "dns", "plan", "--resolvers", "all", "--retire-stale")
    shown = [line for line in listed.stdout.splitlines() if "--retire-stale leaves it: the zone's NS record" in line]
    assert [line.split(": ", 1)[1].split(" (")[0] for line in shown] == ["@ IN NS ns1", "ns1 IN A 10.9.0.9"], \
        listed.stdout
    before = path.read_text()
    refused = run(ns.root, "dns", "apply", "--resolvers", "all", "--retire-stale")
    # ns1.other.lan still answers: the apply's verify fails on it and rolls back: the records as
    # they were, the serial past the one the retired copy was served at (finding 01 of round 4)
    assert refused.exit_code != 0 and "ns1.other.lan A gone" in refused.stdout + refused.stderr, refused.stdout
    served = _serial(ns)
    assert served > 7 and path.read_text() == before.replace(" 7 3600 ", f" {served} 3600 ")
    assert answers(ns, "other.lan.", "NS", "ns-fv")["ns-fv"] == ("localhost.", "ns1.other.lan.")
    # the operator moves the name server by hand; the CNAME naming the old one is then retired
    path.write_text(path.read_text().replace(f" {served} 3600 ", f" {served + 1} 3600 ").replace("ns1 IN A", "ns9 IN A")
                    .replace("@ IN NS ns1", "@ IN NS ns9"))
    reload_until(ns, "ns-fv", "other.lan.", "NS", "ns9.other.lan.")
    applied = run(ns.root, "dns", "apply", "--resolvers", "all", "--retire-stale")
    assert applied.exit_code == 0, applied.stdout + applied.stderr
    after = path.read_text().splitlines()
    assert any(line.startswith("; retired by") and line.endswith("www IN CNAME ns1.other.lan.") for line in after)
    assert answers(ns, "www.other.lan.", "CNAME", "ns-fv")["ns-fv"] == ()


def test_a_dynamic_zone_is_listed_never_edited(run: Callable[..., Any], ns: Lab) -> None:
    path = _zone(ns, "old IN CNAME ana-ml2.ana.lan.\n", zone_options="allow-update { 127.0.0.1; }; ")
    before = path.read_bytes()
    listed = dns(run, ns, "plan", "--resolvers", "all", "--retire-stale")
    assert "zone other.lan is dynamic" in listed.stdout and "nsupdate" in listed.stdout, listed.stdout
    # what updates added since named last wrote the file is not read: said, with what to run
    assert "zone other.lan is dynamic: records updates added since named last wrote its file are in its " \
        "journal, which renamer does not read" in listed.stdout and "rndc sync other.lan" in listed.stdout
    dns(run, ns, "apply", "--resolvers", "all", "--retire-stale")
    assert path.read_bytes() == before


def test_a_rollback_of_a_retired_record_in_a_zone_written_with_at_and_relative_names(
        run: Callable[..., Any], ns: Lab) -> None:
    """Trial finding 01: the rollback asked named for the operator's restored zone through
    renamer's own parser (`@` read as the root): an internal error, a resolver left half-done."""
    path = _zone(ns, "old IN CNAME ana-ml2.ana.lan.\n@ IN A 10.9.0.1\nrel IN A 10.9.0.2\n")
    before = path.read_bytes()
    assert dns(run, ns, "apply", "--resolvers", "all").exit_code == 0
    copy = ns.root / "other.zone.as-it-was"
    copy.write_bytes(before)
    ns.write_resolvers(ns_fv={"test": ["sh", "-c", 'cmp -s "$1" "$2" && exit 0; echo broken >&2; exit 1', "sh",
                                       str(path), str(copy)]})
    failed = dns(run, ns, "apply", "--resolvers", "all", "--retire-stale")
    assert failed.exit_code == 1, failed.stdout + failed.stderr
    assert "internal error" not in failed.stderr and "rollback FAILED" not in failed.stdout, failed.stdout
    assert "rolled back" in failed.stdout
    assert path.read_bytes() == before
    ns.write_resolvers()
    assert dns(run, ns, "plan", "--resolvers", "all").exit_code == 0


@pytest.mark.parametrize("dynamic", [False, True], ids=["left-without-retire-stale", "dynamic-zone"])
def test_an_old_name_left_answering_in_the_operators_zone_fails_the_apply(run: Callable[..., Any], ns: Lab,
                                                                          dynamic: bool) -> None:
    """Trial finding 08/09's class: renamer.yaml's old host `srv-old` still answers in the
    operator's zone other.lan (a domain verify does not ask), by a record the apply leaves in
    place (no --retire-stale, or a dynamic zone it never edits): the plan says the apply would
    fail on it, and the apply's verify asks it and rolls back; never `dns apply: OK`."""
    make_repo(ns.root, {}, config="version: 1\nrenames:\n  hosts: {srv-old: srv-new}\n"
                                  "allowlist: allow.yaml\ndns: dns\n", allowlist=ALLOWLIST)
    _zone(ns, "srv-old IN A 10.9.0.5\n", zone_options="allow-update { 127.0.0.1; }; " if dynamic else "")
    args = ["--retire-stale"] if dynamic else []
    planned = run(ns.root, "dns", "plan", "--resolvers", "all", *args)
    assert planned.exit_code == 1 and "would fail: ns-fv: its verify after the write would fail: " \
        "srv-old.other.lan A gone: expected none, got 10.9.0.5" in planned.stdout, planned.stdout
    applied = run(ns.root, "dns", "apply", "--resolvers", "all", *args)
    assert applied.exit_code != 0, applied.stdout
    assert "srv-old.other.lan A gone" in applied.stdout + applied.stderr
    assert "dns apply: OK" not in applied.stdout


def test_in_a_transition_window_the_old_label_in_the_operators_dynamic_zone_still_fails(
        run: Callable[..., Any], ns: Lab, monkeypatch: pytest.MonkeyPatch) -> None:
    """t24-alias finding 1 (BIND): ana-ml2 is kept as a transitional alias, ana-ml2.ana.lan only; the
    operator's dynamic zone other.lan still answering ana-ml2.other.lan is an old name left, in the
    window as after it: the plan says so, the apply is never OK, named still answers it."""
    make_repo(ns.root, {}, config="version: 1\ncutover: 2026-10-05\nrenames:\n  hosts: {ana-ml2: fv-ml1, "
                                  "ana-ml2.ana.lan: fv-ml1.fv.lan}\noptions:\n  dns_transition: 30d\n"
                                  "allowlist: allow.yaml\ndns: dns\n", allowlist=ALLOWLIST)
    _zone(ns, "ana-ml2 IN A 10.9.0.5\n", zone_options="allow-update { 127.0.0.1; }; ")
    monkeypatch.setenv("RENAMER_NOW", "2026-10-10")
    planned = run(ns.root, "dns", "plan", "--resolvers", "all", "--retire-stale")
    assert planned.exit_code == 1 and "would fail: ns-fv: its verify after the write would fail: " \
        "ana-ml2.other.lan A gone: expected none, got 10.9.0.5" in planned.stdout, planned.stdout
    applied = run(ns.root, "dns", "apply", "--use-renamer-now", "--resolvers", "all", "--retire-stale")
    assert applied.exit_code == 1, applied.stdout
    assert "ana-ml2.other.lan A gone" in applied.stdout and "dns apply: OK" not in applied.stdout
    assert answers(ns, "ana-ml2.other.lan.", "A", "ns-fv") == {"ns-fv": ("10.9.0.5",)}


def test_a_zone_file_in_latin_1_is_never_rewritten_for_its_serial(run: Callable[..., Any], ns: Lab) -> None:
    """The stale record sits in a file the zone's $INCLUDE reads; the zone's own file, whose
    serial would move, is Latin-1: renamer writes back only what it can byte for byte, so it is
    left as it is (the included file is UTF-8: its line is retired)."""
    fragment = ns.root / "frag.zone"
    fragment.write_text("old IN CNAME ana-ml2.ana.lan.\n")
    path = _zone(ns, f"; Zone gérée à la main\n$INCLUDE {fragment}\n")
    path.write_bytes(path.read_bytes().replace("gérée à".encode(), "gérée à".encode("latin-1")))
    reload_until(ns, "ns-fv", "old.other.lan.", "CNAME")
    before = path.read_bytes()
    applied = dns(run, ns, "apply", "--resolvers", "all", "--retire-stale")
    assert applied.exit_code == 0, applied.stdout + applied.stderr
    assert path.read_bytes() == before
    assert fragment.read_text().startswith("; retired by")


def test_a_rollback_after_the_operators_zone_was_served_moves_its_serial_on(run: Callable[..., Any],
                                                                           pair: Lab) -> None:
    """DNS break-it round 4, finding 01: --retire-stale moved other.lan's serial and named served
    it; ns-fv2 then failed and the rollback wrote the operator's file back at its old serial (named:
    "gone backwards"; under ixfr-from-differences refused). The records go back, the serial past."""
    path = _zone(pair, "old IN CNAME ana-ml2.ana.lan.\n", options="  ixfr-from-differences yes;\n")
    before = path.read_text()
    pair.write_resolvers(ns_fv2={"test": fails_once_written(pair, "ns-fv2")})
    failed = dns(run, pair, "apply", "--resolvers", "all", "--retire-stale")
    assert failed.exit_code == 1 and "rollback FAILED" not in failed.stdout, failed.stdout
    served = _serial(pair)
    assert served > int(dt.date.today().strftime("%Y%m%d")) * 100  # past the retired copy's
    assert answers(pair, "old.other.lan.", "CNAME", "ns-fv")["ns-fv"] == ("ana-ml2.ana.lan.",)
    assert path.read_text() == before.replace(" 7 3600 ", f" {served} 3600 ")
