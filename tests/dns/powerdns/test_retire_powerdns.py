"""`--retire-stale` and a removed site on PowerDNS, as on the file backends, against a real
pdns_server on loopback: hand-written RRsets naming an old or retired name or address are listed by
`dns plan` (they stay served), deleted by `dns apply --retire-stale` (their backup kept, a rollback
puts them back whole: records, TTL, comments), and the RRsets of a site removed from the inventory
are deleted by the next apply (found by their comment), a rollback putting them back too. Each
assertion on what the server answers over DNS and what its API holds; both engines."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.dns.powerdns.test_ansible_powerdns import ask, comments, copy_zones, owned
from tests.dns.powerdns.test_cli_powerdns import Fleet, dns
from tests.testing import powerdns
from tests.testing.resolvers import move_gateway

NOTE = [{"content": "old gateway, keep until the VPN moves (ticket 7)", "account": "bob"}]
HAND = [
    # a retired name, an old address, a PTR from an old address, a CNAME at a retired name
    {"name": "fv-oldgw.fv.lan.", "type": "A", "ttl": 600, "changetype": "REPLACE", "comments": NOTE,
     "records": [{"content": "10.251.9.1", "disabled": False}, {"content": "10.251.9.2", "disabled": True}]},
    {"name": "vpn.fv.lan.", "type": "A", "ttl": 300, "changetype": "REPLACE",
     "records": [{"content": "10.251.0.1", "disabled": False}]},
    {"name": "legacy.fv.lan.", "type": "CNAME", "ttl": 300, "changetype": "REPLACE",
     "records": [{"content": "fv-oldgw.fv.lan.", "disabled": False}]},
]
KEPT = {"name": "printer.fv.lan.", "type": "A", "ttl": 300, "changetype": "REPLACE",
        "records": [{"content": "10.251.7.7", "disabled": False}]}  # names nothing old: never touched
PTR = {"name": "9.9.251.10.in-addr.arpa.", "type": "PTR", "ttl": 300, "changetype": "REPLACE",
       "records": [{"content": "fv-oldgw.fv.lan.", "disabled": False}]}  # a PTR naming the retired name


@pytest.fixture
def fleet(tmp_path: Path) -> Iterator[Fleet]:
    started = Fleet(tmp_path / "lab")
    try:
        for zone in powerdns.lab_zones():
            started.server.create_zone(zone)
        (started.inventory / "resolvers.yaml").write_text(f"resolvers:\n  - {json.dumps(started.pdns_entry())}\n")
        yield started
    finally:
        started.stop()


def _old_values(fleet: Fleet) -> None:
    """fv retires fv-oldgw; the gateway moves from 10.251.0.1 (renamer.yaml's old address)."""
    site = fleet.inventory / "sites" / "fv.yaml"
    site.write_text(site.read_text() + "retired: [fv-oldgw]\n")
    (fleet.root / "renamer.yaml").write_text("version: 1\nrenames:\n  hosts: {}\n"
                                             "  addresses: {10.251.0.1: 10.251.0.2}\ndns: dns/\n")


@pytest.mark.parametrize("engine", ["builtin", "ansible"])
def test_hand_written_rrsets_naming_old_values_are_listed_retired_and_put_back(
        run: Callable[..., Any], fleet: Fleet, tmp_path: Path, engine: str) -> None:
    assert dns(run, fleet, "apply", "--resolvers", "all").exit_code == 0
    client = fleet.server.client()
    client.patch("fv.lan", [*HAND, KEPT])
    client.patch("251.10.in-addr.arpa", [PTR])
    _old_values(fleet)
    move_gateway(fleet)  # type: ignore[arg-type]
    hand = {k: v for k, v in comments(fleet.server).items() if k.startswith(("fv-oldgw", "vpn", "legacy"))}
    planned = dns(run, fleet, "plan", "--resolvers", "all")
    assert planned.exit_code == 1, planned.stdout + planned.stderr
    assert "fv.lan.: fv-oldgw.fv.lan. A 10.251.9.1, 10.251.9.2 (disabled) (hand-written RRset)" in planned.stdout
    assert "fv.lan.: vpn.fv.lan. A 10.251.0.1 (hand-written RRset)" in planned.stdout
    assert "fv.lan.: legacy.fv.lan. CNAME fv-oldgw.fv.lan. (hand-written RRset)" in planned.stdout
    assert "251.10.in-addr.arpa.: 9.9.251.10.in-addr.arpa. PTR fv-oldgw.fv.lan. (hand-written RRset)" in planned.stdout
    assert "printer" not in planned.stdout and "--retire-stale` deletes them" in planned.stdout

    # retired, and the apply rolled back (its verify asks another server, which serves the old
    # records): every hand-written RRset back as it was, comment and disabled record included
    other = powerdns.start(tmp_path / "other")
    try:
        for zone in powerdns.lab_zones():
            other.create_zone(zone)
        copy_zones(fleet.server, other)
        before = owned(fleet)
        (fleet.inventory / "resolvers.yaml").write_text(
            f"resolvers:\n  - {json.dumps(fleet.pdns_entry(port=other.port))}\n")
        failed = dns(run, fleet, "apply", "--resolvers", "all", "--retire-stale", "--engine", engine)
        assert failed.exit_code == 1 and "rolled back" in failed.stdout, failed.stdout + failed.stderr
        assert owned(fleet) == before
        assert {k: v for k, v in comments(fleet.server).items() if k in hand} == hand
        assert ask(fleet.server, "fv-oldgw.fv.lan.") == ("10.251.9.1",)
    finally:
        other.stop()

    (fleet.inventory / "resolvers.yaml").write_text(f"resolvers:\n  - {json.dumps(fleet.pdns_entry())}\n")
    retired = dns(run, fleet, "apply", "--resolvers", "all", "--retire-stale", "--engine", engine)
    assert retired.exit_code == 0, retired.stdout + retired.stderr
    assert ask(fleet.server, "fv-oldgw.fv.lan.") == () and ask(fleet.server, "vpn.fv.lan.") == ()
    assert ask(fleet.server, "legacy.fv.lan.", "CNAME") == () and ask(fleet.server, "9.9.251.10.in-addr.arpa.", "PTR") == ()
    assert ask(fleet.server, "printer.fv.lan.") == ("10.251.7.7",)  # names nothing old: untouched
    assert ask(fleet.server, "fv-gw.fv.lan.") == ("10.251.0.2",)
    assert dns(run, fleet, "plan", "--resolvers", "all", "--expect-no-changes").exit_code == 0
    folder = max((fleet.root / "backups" / "ns-pdns").glob("ns-pdns-*"))
    assert (folder / "RETIRED").read_text().split() == ["/renamer-powerdns/hand-written.rrsets"]
    assert "fv-oldgw.fv.lan." in (folder / "retired%renamer-powerdns%hand-written.rrsets").read_text()


@pytest.mark.parametrize("engine", ["builtin", "ansible"])
def test_a_site_removed_from_the_inventory_has_its_rrsets_deleted_and_a_rollback_puts_them_back(
        run: Callable[..., Any], fleet: Fleet, tmp_path: Path, engine: str) -> None:
    assert dns(run, fleet, "apply", "--resolvers", "all").exit_code == 0
    assert ask(fleet.server, "ana-nas.ana.lan.") == ("10.250.20.10",)
    applied = owned(fleet)
    (fleet.inventory / "sites" / "ana.yaml").unlink()
    planned = dns(run, fleet, "plan", "--resolvers", "all")
    assert planned.exit_code == 0 and "+++ /dev/null" in planned.stdout, planned.stdout + planned.stderr
    assert "renamer-ana.rrsets" in planned.stdout and "ana-nas.ana.lan. 300 IN A 10.250.20.10" in planned.stdout

    # verify asks a server that serves ana as before, and fv's gateway wrong: rolled back
    other = powerdns.start(tmp_path / "other")
    try:
        for zone in powerdns.lab_zones():
            other.create_zone(zone)
        copy_zones(fleet.server, other)
        other.client().patch("fv.lan", [{"name": "fv-gw.fv.lan.", "type": "A", "ttl": 300, "changetype": "REPLACE",
                                         "records": [{"content": "10.251.0.99", "disabled": False}]}])
        (fleet.inventory / "resolvers.yaml").write_text(
            f"resolvers:\n  - {json.dumps(fleet.pdns_entry(port=other.port))}\n")
        failed = dns(run, fleet, "apply", "--resolvers", "all", "--engine", engine)
        assert failed.exit_code == 1 and "rolled back" in failed.stdout, failed.stdout + failed.stderr
        assert owned(fleet) == applied and ask(fleet.server, "ana-nas.ana.lan.") == ("10.250.20.10",)
    finally:
        other.stop()

    (fleet.inventory / "resolvers.yaml").write_text(f"resolvers:\n  - {json.dumps(fleet.pdns_entry())}\n")
    removed = dns(run, fleet, "apply", "--resolvers", "all", "--engine", engine)
    assert removed.exit_code == 0, removed.stdout + removed.stderr
    assert ask(fleet.server, "ana-nas.ana.lan.") == () and ask(fleet.server, "10.20.250.10.in-addr.arpa.", "PTR") == ()
    assert ask(fleet.server, "fv-gw.fv.lan.") == ("10.251.0.1",)
    assert not any(k.startswith(("ana", "_renamer.ana")) for k in owned(fleet))
    assert dns(run, fleet, "plan", "--resolvers", "all", "--expect-no-changes").exit_code == 0


TRANSITION = ("version: 1\ncutover: 2026-10-05\nrenames:\n  hosts: {ana-ml2: fv-ml1, ana-ml2.ana.lan: fv-ml1.fv.lan}\n"
              "options:\n  dns_transition: 30d\ndns: dns/\n")  # the alias ana-ml2.ana.lan until 2026-11-04
TWIN = {"name": "ana-ml2.ana.lan.", "type": "CNAME", "ttl": 3600, "changetype": "REPLACE",
        "records": [{"content": "fv-ml1.fv.lan.", "disabled": False}]}  # the alias, made by hand


def test_a_hand_made_twin_of_a_transitional_alias_is_never_taken_over_nor_deleted(
        run: Callable[..., Any], fleet: Fleet, monkeypatch: pytest.MonkeyPatch) -> None:
    """t24-alias finding 13: an operator's own RRset, exactly the CNAME the window would write,
    no comment. In the window it serves the alias: the apply leaves it the operator's (TTL 3600, no
    renamer comment), as the plan says (hand-written, stays served). After the date the apply
    never deletes it: the plan says the verify would fail on it, the apply does and rolls back; only
    `--retire-stale` deletes it. Asked over DNS and read from the API."""
    (fleet.root / "renamer.yaml").write_text(TRANSITION)
    ana = fleet.inventory / "sites" / "ana.yaml"
    ana.write_text(ana.read_text().replace("retired: [ana-ml2, ana-ml2-bmc]", "retired: [ana-ml2]"))
    monkeypatch.setenv("RENAMER_NOW", "2026-12-01")
    assert dns(run, fleet, "apply", "--use-renamer-now", "--resolvers", "ns-pdns").exit_code == 0
    fleet.server.client().patch("ana.lan", [TWIN])
    hand = [[], [("fv-ml1.fv.lan.", False)], 3600]
    assert comments(fleet.server, "ana.lan")["ana-ml2.ana.lan. CNAME"] == hand

    monkeypatch.setenv("RENAMER_NOW", "2026-10-10")
    planned = dns(run, fleet, "plan", "--resolvers", "ns-pdns")
    assert "ana.lan.: ana-ml2.ana.lan. CNAME fv-ml1.fv.lan. (hand-written RRset)" in planned.stdout, planned.stdout
    applied = dns(run, fleet, "apply", "--use-renamer-now", "--resolvers", "ns-pdns")
    assert applied.exit_code == 0, applied.stdout + applied.stderr
    assert comments(fleet.server, "ana.lan")["ana-ml2.ana.lan. CNAME"] == hand  # still the operator's
    assert ask(fleet.server, "ana-ml2.ana.lan.", "CNAME") == ("fv-ml1.fv.lan.",)
    assert ask(fleet.server, "ana-ml2.ana.lan.") == ("10.251.50.54",)
    assert dns(run, fleet, "verify", "--resolvers", "ns-pdns").exit_code == 0

    monkeypatch.setenv("RENAMER_NOW", "2026-11-10")  # the window is over
    planned = dns(run, fleet, "plan", "--resolvers", "ns-pdns")
    assert planned.exit_code == 1 and "would fail: ns-pdns: its verify after the write would fail: " \
        "ana-ml2.ana.lan CNAME gone: expected none, got fv-ml1.fv.lan" in planned.stdout, planned.stdout
    failed = dns(run, fleet, "apply", "--use-renamer-now", "--resolvers", "ns-pdns")
    assert failed.exit_code == 1, failed.stdout + failed.stderr
    assert comments(fleet.server, "ana.lan")["ana-ml2.ana.lan. CNAME"] == hand  # never deleted by renamer
    retired = dns(run, fleet, "apply", "--use-renamer-now", "--resolvers", "ns-pdns", "--retire-stale")
    assert retired.exit_code == 0, retired.stdout + retired.stderr
    assert "ana-ml2.ana.lan. CNAME" not in comments(fleet.server, "ana.lan")
    assert ask(fleet.server, "ana-ml2.ana.lan.", "CNAME") == () == ask(fleet.server, "ana-ml2.ana.lan.")


OLD_A = {"name": "ana-ml2.ana.lan.", "type": "A", "ttl": 600, "changetype": "REPLACE",
         "records": [{"content": "10.250.50.54", "disabled": False}]}  # left from before the move, by hand


def test_retire_stale_clears_a_hand_record_where_the_windows_cname_goes(
        run: Callable[..., Any], fleet: Fleet, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """t24-alias finding 19: a hand A at the old name (the old address) where the window's CNAME
    goes. Without `--retire-stale` the apply refuses, exit 3, naming it; with it, the A is deleted
    in the same apply, before the CNAME is written (backed up); a rollback (its verify failing)
    takes the CNAME away first and puts the A back as it was. Asked over DNS, read from the API."""
    (fleet.root / "renamer.yaml").write_text(TRANSITION)
    ana = fleet.inventory / "sites" / "ana.yaml"
    ana.write_text(ana.read_text().replace("retired: [ana-ml2, ana-ml2-bmc]", "retired: [ana-ml2]"))
    monkeypatch.setenv("RENAMER_NOW", "2026-12-01")
    assert dns(run, fleet, "apply", "--use-renamer-now", "--resolvers", "ns-pdns").exit_code == 0
    fleet.server.client().patch("ana.lan", [OLD_A])
    hand = comments(fleet.server, "ana.lan")["ana-ml2.ana.lan. A"]
    monkeypatch.setenv("RENAMER_NOW", "2026-10-10")
    planned = dns(run, fleet, "plan", "--resolvers", "ns-pdns")
    assert planned.exit_code == 1, planned.stdout + planned.stderr
    assert ("ns-pdns: ana.lan.: ana-ml2.ana.lan. has A beside the CNAME renamer would write (a CNAME stands alone, "
            "RFC 1034 3.6.2): it is a hand-written record naming an old value: `dns apply --retire-stale` deletes "
            "it in the same apply") in planned.stdout, planned.stdout
    assert dns(run, fleet, "plan", "--resolvers", "ns-pdns", "--retire-stale").stdout.count("stands alone") == 0
    before = owned(fleet)
    refused = dns(run, fleet, "apply", "--use-renamer-now", "--resolvers", "ns-pdns")
    assert refused.exit_code == 3, refused.stdout + refused.stderr
    assert "--retire-stale` deletes it" in refused.stdout + refused.stderr
    assert owned(fleet) == before and ask(fleet.server, "ana-ml2.ana.lan.") == ("10.250.50.54",)

    other = powerdns.start(tmp_path / "other")  # its verify asks a server holding the old records: rolled back
    try:
        for zone in powerdns.lab_zones():
            other.create_zone(zone)
        copy_zones(fleet.server, other)
        (fleet.inventory / "resolvers.yaml").write_text(
            f"resolvers:\n  - {json.dumps(fleet.pdns_entry(port=other.port))}\n")
        failed = dns(run, fleet, "apply", "--use-renamer-now", "--resolvers", "all", "--retire-stale")
        assert failed.exit_code == 1 and "rolled back" in failed.stdout, failed.stdout + failed.stderr
        assert owned(fleet) == before
        assert comments(fleet.server, "ana.lan")["ana-ml2.ana.lan. A"] == hand
        assert ask(fleet.server, "ana-ml2.ana.lan.") == ("10.250.50.54",)
    finally:
        other.stop()
    (fleet.inventory / "resolvers.yaml").write_text(f"resolvers:\n  - {json.dumps(fleet.pdns_entry())}\n")
    retired = dns(run, fleet, "apply", "--use-renamer-now", "--resolvers", "all", "--retire-stale")
    assert retired.exit_code == 0, retired.stdout + retired.stderr
    assert ask(fleet.server, "ana-ml2.ana.lan.", "CNAME") == ("fv-ml1.fv.lan.",)
    assert ask(fleet.server, "ana-ml2.ana.lan.") == ("10.251.50.54",)
    assert "ana-ml2.ana.lan. A" not in comments(fleet.server, "ana.lan")
    folder = max((fleet.root / "backups" / "ns-pdns").glob("ns-pdns-*"))
    assert "10.250.50.54" in (folder / "retired%renamer-powerdns%hand-written.rrsets").read_text()
    assert dns(run, fleet, "verify", "--resolvers", "all").exit_code == 0


def test_an_alias_in_its_window_is_not_retired_early_without_force(
        run: Callable[..., Any], fleet: Fleet, monkeypatch: pytest.MonkeyPatch) -> None:
    """t24-alias finding 4 on PowerDNS, which had no dated comment to read: the alias's RRset
    carries its promise as a second renamer comment; the next move's renamer.yaml no longer keeps
    it, so the plan names the early retirement, the apply refuses (exit 3, nothing written, the
    alias still answered) and retires it only with --force. Asked over DNS, read from the API."""
    (fleet.root / "renamer.yaml").write_text(TRANSITION)
    ana = fleet.inventory / "sites" / "ana.yaml"
    ana.write_text(ana.read_text().replace("retired: [ana-ml2, ana-ml2-bmc]", "retired: [ana-ml2]"))
    monkeypatch.setenv("RENAMER_NOW", "2026-10-10")
    assert dns(run, fleet, "apply", "--use-renamer-now", "--resolvers", "ns-pdns").exit_code == 0
    promise = "transitional until 2026-11-04: ana-ml2, renamed fv-ml1"
    assert comments(fleet.server, "ana.lan")["ana-ml2.ana.lan. CNAME"][0] == [
        ("renamer", "renamer site ana"), ("renamer", promise)]
    assert ask(fleet.server, "ana-ml2.ana.lan.", "CNAME") == ("fv-ml1.fv.lan.",)
    again = dns(run, fleet, "plan", "--resolvers", "ns-pdns", "--expect-no-changes")
    assert again.exit_code == 0, again.stdout  # the promise reads back as it was written

    (fleet.root / "renamer.yaml").write_text(TRANSITION.replace(
        "{ana-ml2: fv-ml1, ana-ml2.ana.lan: fv-ml1.fv.lan}", "{printer-old: printer-new}"))
    monkeypatch.setenv("RENAMER_NOW", "2026-10-12")
    early = ("ns-pdns: renamer-ana.rrsets: the apply would retire the transitional alias ana-ml2, served until "
             "2026-11-04, before its date (renamer.yaml no longer keeps it: its renames, cutover or target host "
             "changed)")
    planned = dns(run, fleet, "plan", "--resolvers", "ns-pdns")
    assert f"  {early}\n" in planned.stdout, planned.stdout
    before = comments(fleet.server, "ana.lan")
    refused = dns(run, fleet, "apply", "--use-renamer-now", "--resolvers", "ns-pdns")
    assert refused.exit_code == 3, refused.stdout + refused.stderr
    assert f"renamer: error: {early}" in refused.stderr, refused.stderr
    assert comments(fleet.server, "ana.lan") == before
    assert ask(fleet.server, "ana-ml2.ana.lan.", "CNAME") == ("fv-ml1.fv.lan.",)
    forced = dns(run, fleet, "apply", "--use-renamer-now", "--resolvers", "ns-pdns", "--force")
    assert forced.exit_code == 0, forced.stdout + forced.stderr
    assert ask(fleet.server, "ana-ml2.ana.lan.", "CNAME") == () == ask(fleet.server, "ana-ml2.ana.lan.")
