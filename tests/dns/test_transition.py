"""Transitional aliases (issue 34, item 2): `options.dns_transition: 30d` in renamer.yaml (or
`transition:` on a host of its site file) keeps each old name as a CNAME to its new FQDN until the
cutover's 00:00 UTC plus the window; then `dns apply` retires it as any retired name. The clock
is RENAMER_NOW (renamer/clock.py). Every assertion about what is served asks a real dnsmasq on
loopback over DNS; the other backends are proved by tests/dns/test_backend_conformance.py."""

from __future__ import annotations

import datetime as dt
import json
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from dns import message as dns_message
from dns import query as dns_query
from dns import rcode as dns_rcode
from dns import rdatatype as dns_rdatatype
from renamer.dns.inventory import Inventory
from renamer.dns.transition import with_transitions
from renamer.errors import ConfigError
from tests.conftest import Result
from tests.testing.resolvers import Lab, dns, stray
from tests.testing.unbound import Forwarder, ask, reverse_zone, start_forwarder

CONFIG = ("version: 1\nname: ml move\ncutover: 2026-10-05\nrenames:\n  hosts:\n    ana-ml2: fv-ml1\n"
          "    ana-ml2-bmc: fv-ml1-bmc\n    ana-ml2.ana.lan: fv-ml1.fv.lan\noptions:\n  dns_transition: 30d\n"
          "dns: dns/\n")
BEFORE, ON_THE_DAY, AFTER = "2026-11-03T23:59:59Z", "2026-11-04", "2026-11-20"  # it expires 2026-11-04 00:00 UTC
ALIAS = ("NOERROR", ("CNAME fv-ml1.fv.lan.", "A 10.251.50.54"))


def asked(lab: Lab, resolver: str, name: str, rdtype: str = "A") -> tuple[str, tuple[str, ...]]:
    """(rcode, each answer record as `TYPE value`) that `resolver` answers, straight over DNS."""
    instance = lab.instances[resolver]
    response = dns_query.udp(dns_message.make_query(name, rdtype), instance.address, port=instance.port,
                             timeout=2.0)
    return (dns_rcode.to_text(response.rcode()),
            tuple(f"{dns_rdatatype.to_text(rrset.rdtype)} {item}" for rrset in response.answer for item in rrset))


def everywhere(lab: Lab, name: str) -> set[tuple[str, tuple[str, ...]]]:
    return {asked(lab, resolver, name) for resolver in lab.instances}


@pytest.fixture
def moved(lab: Lab) -> Lab:
    """The lab with a renamer.yaml: ana-ml2 became fv-ml1 on 2026-10-05, old names kept 30 days."""
    (lab.root / "renamer.yaml").write_text(CONFIG)
    return lab


def at(monkeypatch: pytest.MonkeyPatch, now: str) -> None:
    monkeypatch.setenv("RENAMER_NOW", now)


def test_an_alias_is_served_until_its_date_and_retired_after(  # type: ignore[no-untyped-def]
        run, moved: Lab, monkeypatch: pytest.MonkeyPatch) -> None:
    at(monkeypatch, BEFORE)
    applied = dns(run, moved, "apply", "--use-renamer-now", "--resolvers", "all")
    assert applied.exit_code == 0, applied.stdout + applied.stderr
    for name in ("ana-ml2.ana.lan.", "ana-ml2."):  # the FQDN in the domain it lived in, and the short name
        assert everywhere(moved, name) == {ALIAS}, name
    assert everywhere(moved, "ana-ml2-bmc.ana.lan.") == {("NOERROR", ("CNAME fv-ml1-bmc.fv.lan.",
                                                                      "A 10.251.50.55"))}
    assert everywhere(moved, "ana-ml2.fv.lan.") == {("NXDOMAIN", ())}  # never a name: not made one
    verified = dns(run, moved, "verify", "--resolvers", "all")
    assert verified.exit_code == 0, verified.stdout
    assert "ana-ml2.ana.lan CNAME (transitional until 2026-11-04)" in verified.stdout
    plan = dns(run, moved, "plan", "--resolvers", "all", "--expect-no-changes")
    assert plan.exit_code == 0, plan.stdout
    assert plan.stdout.startswith(
        "transitional aliases: 2 (an old name kept as a CNAME to its new FQDN until its date, then retired)\n"
        "  ana-ml2-bmc.ana.lan -> fv-ml1-bmc.fv.lan: served until 2026-11-04 (options.dns_transition 30d)\n"
        "  ana-ml2.ana.lan -> fv-ml1.fv.lan: served until 2026-11-04 (options.dns_transition 30d)\n"), plan.stdout
    reviewed = dns(run, moved, "plan", "--resolvers", "all", "--format", "json").stdout
    (moved.root / "reviewed.json").write_text(reviewed)
    document = json.loads(reviewed)
    assert document["transitional"][1] == {
        "name": "ana-ml2.ana.lan", "short": "ana-ml2", "target": "fv-ml1.fv.lan", "host": "fv-ml1",
        "expires": "2026-11-04T00:00:00Z", "state": "served", "from": "options.dns_transition 30d"}

    at(monkeypatch, ON_THE_DAY)  # the window is over: the plan retires it, verify wants it gone
    plan = dns(run, moved, "plan", "--resolvers", "all", "--expect-no-changes")
    assert plan.exit_code == 1, plan.stdout
    assert "  ana-ml2.ana.lan -> fv-ml1.fv.lan: retired since 2026-11-04 (options.dns_transition 30d)\n" \
        in plan.stdout
    assert "-cname=ana-ml2,ana-ml2.ana.lan,fv-ml1.fv.lan\n" in plan.stdout
    assert "records: 0 added, 0 changed, 4 removed\n  - ana-ml2\n" in plan.stdout
    document = json.loads(dns(run, moved, "plan", "--resolvers", "all", "--format", "json").stdout)
    assert {t["state"] for t in document["transitional"]} == {"retired"}
    failed = dns(run, moved, "verify", "--resolvers", "ns-ana")
    assert failed.exit_code == 1, failed.stdout
    port = moved.instances["ns-ana"].port
    assert (f"ns-ana 127.0.0.1:{port}: ana-ml2.ana.lan A gone: expected NXDOMAIN, got fv-ml1.fv.lan. -> "
            "10.251.50.54\n") in failed.stdout
    assert everywhere(moved, "ana-ml2.ana.lan.") == {ALIAS}  # nothing changes until an apply
    stale_plan = dns(run, moved, "apply", "--use-renamer-now", "--plan", str(moved.root / "reviewed.json"))
    assert stale_plan.exit_code == 3, stale_plan.stdout  # a plan reviewed before the date is no plan after it
    assert "differs from the reviewed plan" in stale_plan.stderr
    assert everywhere(moved, "ana-ml2.ana.lan.") == {ALIAS}

    retired = dns(run, moved, "apply", "--use-renamer-now", "--resolvers", "all")
    assert retired.exit_code == 0, retired.stdout + retired.stderr
    for resolver in moved.instances:  # backed up as any apply
        assert list((moved.root / "backups" / resolver).glob(f"{resolver}-*")), resolver
    for name in ("ana-ml2.ana.lan.", "ana-ml2-bmc.ana.lan.", "ana-ml2."):
        assert everywhere(moved, name) in ({("NXDOMAIN", ())}, {("REFUSED", ())}), name
    assert everywhere(moved, "ana-ml2.ana.lan.") == {("NXDOMAIN", ())}  # ana.lan is authoritative
    assert dns(run, moved, "verify", "--resolvers", "all").exit_code == 0


def test_a_retirement_that_fails_rolls_back_and_the_alias_is_still_served(  # type: ignore[no-untyped-def]
        run, moved: Lab, monkeypatch: pytest.MonkeyPatch) -> None:
    at(monkeypatch, BEFORE)
    assert dns(run, moved, "apply", "--use-renamer-now", "--resolvers", "all").exit_code == 0
    at(monkeypatch, AFTER)
    moved.write_resolvers(ns_fv=moved.failing_test("ns-fv"))
    failed = dns(run, moved, "apply", "--use-renamer-now", "--resolvers", "all")
    assert failed.exit_code == 1, failed.stdout
    assert "ns-fv: test failed" in failed.stdout
    assert everywhere(moved, "ana-ml2.ana.lan.") == {ALIAS}  # every resolver restored to the alias
    moved.write_resolvers()
    assert dns(run, moved, "apply", "--use-renamer-now", "--resolvers", "all").exit_code == 0
    assert everywhere(moved, "ana-ml2.ana.lan.") == {("NXDOMAIN", ())}


def test_a_resolver_that_does_not_serve_the_new_site_answers_the_cname_alone(  # type: ignore[no-untyped-def]
        run, moved: Lab, monkeypatch: pytest.MonkeyPatch) -> None:
    """ns-ana2 serves ana only: it holds the alias (ana.lan is its domain) but no address of
    fv-ml1.fv.lan, which its clients resolve elsewhere; dnsmasq answers the CNAME alone there and
    verify takes it (the target's address is checked where fv is served), the CNAME's target
    still exactly the new FQDN."""
    moved.write_resolvers(ns_ana2={"sites": ["ana"], "dhcp": []})
    at(monkeypatch, BEFORE)
    applied = dns(run, moved, "apply", "--use-renamer-now", "--resolvers", "all")
    assert applied.exit_code == 0, applied.stdout + applied.stderr
    assert asked(moved, "ns-ana2", "ana-ml2.ana.lan.") == ("NOERROR", ("CNAME fv-ml1.fv.lan.",))
    assert asked(moved, "ns-ana", "ana-ml2.ana.lan.") == ALIAS
    verified = dns(run, moved, "verify", "--resolvers", "all", "--format", "json")
    assert verified.exit_code == 0, verified.stdout
    rows = {(r["name"], c["check"]): c["expected"] for r in json.loads(verified.stdout)["resolvers"]
            for c in r["checks"]}
    assert rows[("ns-ana2", "ana-ml2.ana.lan CNAME (transitional until 2026-11-04)")] == ["10.251.50.54"]
    assert ("ns-ana2", "fv-ml1.fv.lan A") not in rows  # fv is not its site: asked where it is served


def test_a_host_s_own_transition_comes_before_the_option(  # type: ignore[no-untyped-def]
        run, moved: Lab, monkeypatch: pytest.MonkeyPatch) -> None:
    """`transition: 2w` on fv-ml1 in fv.yaml: its old names expire 2026-10-19; fv-ml1-bmc's keep
    the option's 30 days."""
    site = moved.inventory / "sites" / "fv.yaml"
    site.write_text(site.read_text().replace("    aliases: [scriberr]\n", "    aliases: [scriberr]\n"
                                             "    transition: 2w\n"))
    at(monkeypatch, "2026-10-25")
    plan = dns(run, moved, "plan", "--resolvers", "ns-ana")
    assert ("  ana-ml2.ana.lan -> fv-ml1.fv.lan: retired since 2026-10-19 (dns/sites/fv.yaml: transition 2w)\n"
            "  ana-ml2-bmc.ana.lan -> fv-ml1-bmc.fv.lan: served until 2026-11-04 (options.dns_transition 30d)\n"
            ) in plan.stdout, plan.stdout
    assert dns(run, moved, "apply", "--use-renamer-now", "--resolvers", "all").exit_code == 0
    assert everywhere(moved, "ana-ml2.ana.lan.") == {("NXDOMAIN", ())}
    assert everywhere(moved, "ana-ml2-bmc.ana.lan.") == {("NOERROR", ("CNAME fv-ml1-bmc.fv.lan.",
                                                                      "A 10.251.50.55"))}
    assert dns(run, moved, "verify", "--resolvers", "all").exit_code == 0


def test_a_hand_removed_alias_or_one_pointing_elsewhere_fails_verify(  # type: ignore[no-untyped-def]
        run, moved: Lab, monkeypatch: pytest.MonkeyPatch) -> None:
    """During the window verify expects the CNAME: a resolver that lost it (its snippet written
    without it, the canary made to match) or points it at another name fails, naming the check."""
    at(monkeypatch, BEFORE)
    assert dns(run, moved, "apply", "--use-renamer-now", "--resolvers", "all").exit_code == 0
    from renamer.dns.dnsmasq import render, sandbox
    from renamer.sites import locate_inventory

    site = locate_inventory(None, None, moved.root, moved.inventory).site("ana")
    for name, change in (("ns-ana", ("cname=ana-ml2,ana-ml2.ana.lan,fv-ml1.fv.lan\n", "")),
                         ("ns-ana2", (",fv-ml1.fv.lan\n", ",ana-nas.ana.lan\n"))):
        path = moved.instances[name].snippet_dir / "renamer-ana.conf"
        body = path.read_text().split("# The canary")[0].replace(*change)
        path.write_text(body + 'txt-record={},"{}"\n'.format(*render.canary(site, body)))
        sandbox.restart(moved.instances[name].folder)
    assert asked(moved, "ns-ana", "ana-ml2.ana.lan.") == ("NXDOMAIN", ())
    assert asked(moved, "ns-ana2", "ana-ml2.ana.lan.") == ("NOERROR", ("CNAME ana-nas.ana.lan.", "A 10.250.20.10"))
    verified = dns(run, moved, "verify", "--resolvers", "ns-ana,ns-ana2", "--format", "json")
    assert verified.exit_code == 1
    failures = {(r["name"], c["check"], c["got"]) for r in json.loads(verified.stdout)["resolvers"]
                for c in r["checks"] if not c["ok"]}
    assert ("ns-ana", "ana-ml2.ana.lan CNAME (transitional until 2026-11-04)", "NXDOMAIN") in failures
    assert ("ns-ana2", "ana-ml2.ana.lan CNAME (transitional until 2026-11-04)",
            "ana-nas.ana.lan. -> 10.250.20.10") in failures
    assert {r for r, _, _ in failures} == {"ns-ana", "ns-ana2"}


ZONES = ("ana.lan", reverse_zone("10.250.0.0/16"))


@pytest.fixture
def edge(moved: Lab) -> Iterator[Callable[[tuple[str, ...]], Forwarder]]:
    """An Unbound forwarder (manage: false) in front of ns-ana, forwarding the zones given."""
    started: list[Forwarder] = []

    def start(zones: tuple[str, ...]) -> Forwarder:
        servers = [(moved.instances["ns-ana"].address, moved.instances["ns-ana"].port)]
        forwarder = start_forwarder(moved.root / f"edge{len(started)}", {zone: servers for zone in zones})
        started.append(forwarder)
        moved.write_resolvers(({"name": "ana-edge", "address": forwarder.address, "port": forwarder.port,
                                "manage": False, "timeout": 1.0},))
        return forwarder

    try:
        yield start
    finally:
        for forwarder in started:
            forwarder.stop()


def test_behind_a_forwarder_the_alias_resolves_only_where_its_target_does(  # type: ignore[no-untyped-def]
        run, moved: Lab, edge: Callable[[tuple[str, ...]], Forwarder], monkeypatch: pytest.MonkeyPatch) -> None:
    """The alias crosses domains (ana.lan -> fv.lan): a forwarder that sends both on serves it
    (Unbound drops dnsmasq's out-of-zone A and asks fv.lan itself); one that forwards ana.lan
    alone cannot follow the CNAME (SERVFAIL), and verify says so at the forwarder."""
    at(monkeypatch, BEFORE)
    both = edge((*ZONES, "fv.lan", reverse_zone("10.251.0.0/16")))
    assert dns(run, moved, "apply", "--use-renamer-now", "--resolvers", "all").exit_code == 0
    assert ask(both, "ana-ml2.ana.lan.") == ALIAS
    assert dns(run, moved, "verify", "--resolvers", "ana-edge").exit_code == 0
    both.stop()
    old_only = edge(ZONES)
    assert ask(old_only, "ana-ml2.ana.lan.") == ("SERVFAIL", ())  # it cannot follow the CNAME to fv.lan
    verified = dns(run, moved, "verify", "--resolvers", "ana-edge")
    assert verified.exit_code == 1, verified.stdout
    port = old_only.port
    assert (f"ana-edge 127.0.0.1:{port}: ana-ml2.ana.lan CNAME (transitional until 2026-11-04): expected "
            "fv-ml1.fv.lan. -> 10.251.50.54, got SERVFAIL\n") in verified.stdout, verified.stdout
    assert "dns verify: FAILED on ana-edge (manage: false)\n" in verified.stdout


def test_the_ansible_export_carries_the_alias_until_its_date(  # type: ignore[no-untyped-def]
        run, moved: Lab, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The playbook writes the files the plan renders: the CNAME in the window, none after."""
    for now, present in ((BEFORE, True), (AFTER, False)):
        at(monkeypatch, now)
        folder = tmp_path / f"export-{present}"
        exported = dns(run, moved, "export", "ansible", "--use-renamer-now", "--resolvers", "all", "--out", str(folder))
        assert exported.exit_code == 0, exported.stdout + exported.stderr
        written = [p for p in folder.rglob("renamer-ana.conf")]
        assert len(written) == len(moved.instances), written
        for path in written:
            assert ("cname=ana-ml2,ana-ml2.ana.lan,fv-ml1.fv.lan\n" in path.read_text()) is present, path



# --- an alias keeps alive its own FQDN where it is served, and nothing else (t24 findings 1, 6, 7) --

OLD_ADDRESS = "10.250.50.54"  # ana-ml2's before the move


def renumbered(lab: Lab) -> None:
    """renamer.yaml renames ana-ml2's address too (a hand record naming it is then a stale one)."""
    config = lab.root / "renamer.yaml"
    config.write_text(config.read_text().replace("options:\n", f"  addresses: {{{OLD_ADDRESS}: 10.251.50.54}}\n"
                                                 "options:\n"))


def test_an_old_name_under_another_domain_still_fails_the_apply_in_the_window(  # type: ignore[no-untyped-def]
        run, moved: Lab, monkeypatch: pytest.MonkeyPatch) -> None:
    """Finding 1: the alias is ana-ml2.ana.lan (and ana-ml2 where it is served); a hand record
    ana-ml2.home.example left answering the old address is an old name left, in the window as
    after it: the plan says the apply would fail, the apply rolls back, never OK."""
    renumbered(moved)
    for resolver in moved.instances:
        stray(moved, resolver, "ana-ml2.home.example.", "A", OLD_ADDRESS)
    at(monkeypatch, BEFORE)
    planned = dns(run, moved, "plan", "--resolvers", "all")
    assert planned.exit_code == 1, planned.stdout
    assert "would fail: ns-ana: its verify after the write would fail: ana-ml2.home.example A gone: expected " \
        f"none, got {OLD_ADDRESS}" in planned.stdout, planned.stdout
    applied = dns(run, moved, "apply", "--use-renamer-now", "--resolvers", "all")
    assert applied.exit_code == 1, applied.stdout
    assert f"ana-ml2.home.example A gone: expected none, got {OLD_ADDRESS}" in applied.stdout
    assert "dns apply: OK" not in applied.stdout
    assert everywhere(moved, "ana-ml2.home.example.") == {("NOERROR", (f"A {OLD_ADDRESS}",))}
    assert ALIAS not in everywhere(moved, "ana-ml2.ana.lan.")  # rolled back: not served


def test_a_resolver_that_does_not_hold_the_alias_must_not_answer_the_old_name(  # type: ignore[no-untyped-def]
        run, moved: Lab, monkeypatch: pytest.MonkeyPatch) -> None:
    """Finding 6: ns-fv serves fv only, so it does not hold ana-ml2.ana.lan's alias; a hand record
    there answering the old name with the old address fails verify in the window too."""
    moved.write_resolvers(ns_fv={"sites": ["fv"], "dhcp": ["fv"]})
    at(monkeypatch, BEFORE)
    assert dns(run, moved, "apply", "--use-renamer-now", "--resolvers", "all").exit_code == 0
    assert dns(run, moved, "verify", "--resolvers", "all").exit_code == 0  # nothing there: fine
    stray(moved, "ns-fv", "ana-ml2.ana.lan.", "A", OLD_ADDRESS)
    assert asked(moved, "ns-fv", "ana-ml2.ana.lan.") == ("NOERROR", (f"A {OLD_ADDRESS}",))
    assert asked(moved, "ns-ana", "ana-ml2.ana.lan.") == ALIAS
    verified = dns(run, moved, "verify", "--resolvers", "all")
    assert verified.exit_code == 1, verified.stdout
    port = moved.instances["ns-fv"].port
    assert (f"ns-fv 127.0.0.1:{port}: ana-ml2.ana.lan A gone (or its transitional alias): expected none or "
            f"fv-ml1.fv.lan. -> 10.251.50.54, got {OLD_ADDRESS}\n") in verified.stdout, verified.stdout
    assert "dns verify: FAILED on ns-fv\n" in verified.stdout


def test_a_forwarder_not_serving_the_old_site_may_relay_the_alias_never_the_old_address(  # type: ignore[no-untyped-def]
        run, moved: Lab, monkeypatch: pytest.MonkeyPatch) -> None:
    """Finding 6 behind a forwarder (manage: false, sites: [fv]): relaying ana.lan to ns-ana, its
    clients get exactly the alias, which passes; relaying it to a server that still answers the
    old address fails, in the window as after it."""
    fv_only = {"sites": ["fv"], "dhcp": ["fv"]}
    moved.write_resolvers(ns_fv=fv_only)
    at(monkeypatch, BEFORE)
    assert dns(run, moved, "apply", "--use-renamer-now", "--resolvers", "all").exit_code == 0
    stray(moved, "ns-fv", "ana-ml2.ana.lan.", "A", OLD_ADDRESS)  # a server that never dropped the old name
    started: list[Forwarder] = []
    try:
        for upstream in ("ns-ana", "ns-fv"):
            ana = [(moved.instances[upstream].address, moved.instances[upstream].port)]
            fv = [(moved.instances["ns-ana"].address, moved.instances["ns-ana"].port)]
            forwarder = start_forwarder(moved.root / f"edge-{upstream}", {
                "ana.lan": ana, reverse_zone("10.250.0.0/16"): ana, "fv.lan": fv, reverse_zone("10.251.0.0/16"): fv})
            started.append(forwarder)
            moved.write_resolvers(({"name": "edge", "address": forwarder.address, "port": forwarder.port,
                                    "manage": False, "timeout": 1.0, "sites": ["fv"]},), ns_fv=fv_only)
            verified = dns(run, moved, "verify", "--resolvers", "edge")
            if upstream == "ns-ana":
                assert ask(forwarder, "ana-ml2.ana.lan.") == ALIAS
                assert verified.exit_code == 0, verified.stdout
            else:
                assert ask(forwarder, "ana-ml2.ana.lan.") == ("NOERROR", (f"A {OLD_ADDRESS}",))
                assert verified.exit_code == 1, verified.stdout
                assert (f"edge 127.0.0.1:{forwarder.port}: ana-ml2.ana.lan A gone (or its transitional alias): "
                        f"expected none or fv-ml1.fv.lan. -> 10.251.50.54, got {OLD_ADDRESS}\n") in verified.stdout
    finally:
        for forwarder in started:
            forwarder.stop()


def test_the_old_address_s_pointer_naming_the_old_name_fails_in_the_window(  # type: ignore[no-untyped-def]
        run, moved: Lab, monkeypatch: pytest.MonkeyPatch) -> None:
    """Finding 7: the alias keeps the NAME, at the new address; a PTR of the old address that
    still names it is stale reverse data (the address may be another machine's now)."""
    renumbered(moved)
    pointer = "54.50.250.10.in-addr.arpa."
    for resolver in moved.instances:
        stray(moved, resolver, pointer, "PTR", "ana-ml2.ana.lan.")
    at(monkeypatch, BEFORE)
    applied = dns(run, moved, "apply", "--use-renamer-now", "--resolvers", "all")
    assert applied.exit_code == 1, applied.stdout
    assert f"{OLD_ADDRESS} PTR (old): expected none, got ana-ml2.ana.lan." in applied.stdout, applied.stdout
    assert "dns apply: OK" not in applied.stdout
    assert {asked(moved, r, pointer, "PTR") for r in moved.instances} == {("NOERROR", ("PTR ana-ml2.ana.lan.",))}
    verified = dns(run, moved, "verify", "--resolvers", "ns-ana")
    assert verified.exit_code == 1
    port = moved.instances["ns-ana"].port
    assert f"ns-ana 127.0.0.1:{port}: {OLD_ADDRESS} PTR (old): expected none, got ana-ml2.ana.lan.\n" \
        in verified.stdout, verified.stdout


@pytest.mark.parametrize("swapped", [False, True], ids=["short-first", "fqdn-first"])
def test_one_old_name_in_two_forms_renamed_to_two_hosts_is_refused(  # type: ignore[no-untyped-def]
        run, moved: Lab, monkeypatch: pytest.MonkeyPatch, swapped: bool) -> None:
    """Finding 18: `ana-ml2` (retired in ana) and `ana-ml2.ana.lan` are one old name there; renamed
    to two hosts, one CNAME could be served: refused at load, naming the line and the key, nothing
    written, whichever comes first."""
    keys = ["    ana-ml2: fv-ml1\n", "    ana-ml2.ana.lan: fv-ml1-bmc.fv.lan\n"]
    if swapped:
        keys.reverse()
    (moved.root / "renamer.yaml").write_text("version: 1\nname: m\ncutover: 2026-10-05\nrenames:\n  hosts:\n"
                                             + "".join(keys) + "options:\n  dns_transition: 30d\ndns: dns/\n")
    at(monkeypatch, BEFORE)
    before = moved.snippets()
    for command in ("plan", "apply"):
        done = dns(run, moved, command, "--resolvers", "all")
        assert done.exit_code == 2, done.stdout
        second, first = ("ana-ml2", "ana-ml2.ana.lan") if swapped else ("ana-ml2.ana.lan", "ana-ml2")
        targets = ("fv-ml1.fv.lan", "fv-ml1-bmc.fv.lan") if swapped else ("fv-ml1-bmc.fv.lan", "fv-ml1.fv.lan")
        assert done.stderr == (f"renamer: error: renamer.yaml:7: renames.hosts.{second}: it and {first} are one "
                               f"old name, ana-ml2.ana.lan, but become {targets[0]} and {targets[1]}: a DNS "
                               "transition serves one CNAME there; give them one new host, or drop one\n")
    assert moved.snippets() == before
    for resolver in moved.instances:
        rcode, records = asked(moved, resolver, "ana-ml2.ana.lan.")
        assert records == () and rcode in ("NXDOMAIN", "REFUSED"), (resolver, rcode)


def test_a_real_apply_on_a_faked_clock_is_refused_unless_meant(  # type: ignore[no-untyped-def]
        run, moved: Lab, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Finding 16: RENAMER_NOW left exported after a rehearsal. A real apply (either engine) and the
    Ansible export refuse, exit 3, before anything is written, naming the variable and how far it is
    from the real clock; `--use-renamer-now` says it is meant: then it obeys it and says so first on
    stderr. The plan and a dry run, rehearsals, are not refused; with the real clock nothing is said."""
    real = dt.datetime.now(dt.UTC)
    at(monkeypatch, BEFORE)
    planned = dns(run, moved, "plan", "--resolvers", "all")
    assert planned.exit_code == 0 and "RENAMER_NOW" not in planned.stderr, planned.stderr
    assert dns(run, moved, "apply", "--resolvers", "all", "--dry-run").exit_code == 0
    days = abs((dt.datetime(2026, 11, 3, 23, 59, 59, tzinfo=dt.UTC) - real).total_seconds()) / 86400
    side = "before" if real > dt.datetime(2026, 11, 4, tzinfo=dt.UTC) else "after"
    before = moved.snippets()
    for args in (("apply", "--resolvers", "all"), ("apply", "--resolvers", "all", "--engine", "ansible"),
                 ("export", "ansible", "--resolvers", "all", "--out", str(tmp_path / "refused"))):
        refused = dns(run, moved, *args)
        assert refused.exit_code == 3, (args, refused.stdout, refused.stderr)
        assert refused.stderr.startswith(f"renamer: error: RENAMER_NOW={BEFORE} sets the clock ("), refused.stderr
        assert f"{days:.0f} days {side} the real clock" in refused.stderr or "hours" in refused.stderr
        assert refused.stderr.endswith("): a real write would serve or retire transitional aliases by it, not by "
                                       "today; unset RENAMER_NOW, or pass --use-renamer-now if this is meant; "
                                       "nothing written\n"), refused.stderr
        assert len(refused.stderr.splitlines()) == 1
    assert moved.snippets() == before and not (tmp_path / "refused").exists()
    assert ALIAS not in everywhere(moved, "ana-ml2.ana.lan.")  # nothing written: no alias served anywhere
    applied = dns(run, moved, "apply", "--use-renamer-now", "--resolvers", "all")
    assert applied.exit_code == 0, applied.stdout + applied.stderr
    first = applied.stderr.splitlines()[0]
    assert first.startswith(f"renamer: warning: RENAMER_NOW={BEFORE} sets the clock ("), applied.stderr
    assert first.endswith(": transitional aliases are served or retired by it, not by today; unset it unless "
                          "this is meant"), first
    assert everywhere(moved, "ana-ml2.ana.lan.") == {ALIAS}  # it obeyed the clock it named
    exported = dns(run, moved, "export", "ansible", "--use-renamer-now", "--resolvers", "all", "--out",
                   str(tmp_path / "export"))
    assert exported.exit_code == 0, exported.stderr
    assert exported.stderr.startswith(f"renamer: warning: RENAMER_NOW={BEFORE} sets the clock ("), exported.stderr
    monkeypatch.delenv("RENAMER_NOW")
    again = dns(run, moved, "apply", "--resolvers", "all")
    assert "RENAMER_NOW" not in again.stderr, again.stderr


def test_an_expired_alias_constrains_nothing_and_its_name_may_be_reused(  # type: ignore[no-untyped-def]
        run, moved: Lab, monkeypatch: pytest.MonkeyPatch) -> None:
    """Finding 17: months after the window, a new machine takes the name ana-ml2 (no longer under
    `retired:`): served as without the option; in the window the same inventory is refused."""
    site = moved.inventory / "sites" / "ana.yaml"
    site.write_text(site.read_text().replace("retired: [ana-ml2, ana-ml2-bmc]", "retired: [ana-ml2-bmc]")
                    .replace("  - name: ana-gw\n", "  - name: ana-ml2\n    address: 10.250.50.99\n  - name: ana-gw\n"))
    at(monkeypatch, BEFORE)
    refused = dns(run, moved, "apply", "--use-renamer-now", "--resolvers", "all")
    assert refused.exit_code == 2, refused.stdout
    assert "renames.hosts.ana-ml2: a DNS transition would keep it as a CNAME to fv-ml1.fv.lan" in refused.stderr
    at(monkeypatch, "2027-03-01")
    plan = dns(run, moved, "plan", "--resolvers", "all")
    assert plan.exit_code == 0, plan.stdout + plan.stderr
    assert "  ana-ml2-bmc.ana.lan -> fv-ml1-bmc.fv.lan: retired since 2026-11-04" in plan.stdout
    applied = dns(run, moved, "apply", "--use-renamer-now", "--resolvers", "all")
    assert applied.exit_code == 0, applied.stdout + applied.stderr
    assert everywhere(moved, "ana-ml2.ana.lan.") == {("NOERROR", ("A 10.250.50.99",))}
    assert everywhere(moved, "ana-ml2-bmc.ana.lan.") == {("NXDOMAIN", ())}
    assert dns(run, moved, "verify", "--resolvers", "all").exit_code == 0


def test_an_upper_case_old_short_name_gets_its_alias(  # type: ignore[no-untyped-def]
        run, moved: Lab, monkeypatch: pytest.MonkeyPatch) -> None:
    """Finding 2: `ANA-ML2: fv-ml1` is the retired ana-ml2 (DNS names match in any case)."""
    (moved.root / "renamer.yaml").write_text(CONFIG.replace("    ana-ml2: fv-ml1\n", "    ANA-ML2: fv-ml1\n")
                                             .replace("    ana-ml2.ana.lan: fv-ml1.fv.lan\n", ""))
    at(monkeypatch, BEFORE)
    applied = dns(run, moved, "apply", "--use-renamer-now", "--resolvers", "all")
    assert applied.exit_code == 0, applied.stdout + applied.stderr
    assert everywhere(moved, "ana-ml2.ana.lan.") == {ALIAS}


def test_an_alias_in_its_window_is_not_retired_early_without_force(  # type: ignore[no-untyped-def]
        run, moved: Lab, monkeypatch: pytest.MonkeyPatch) -> None:
    """Finding 4: the next move's renamer.yaml no longer holds ana-ml2's renames, so nothing keeps
    its alias: the plan names it among what the apply refuses, the apply refuses (exit 3, nothing
    written, the alias still answered) and retires it only with --force."""
    at(monkeypatch, "2026-10-10")
    assert dns(run, moved, "apply", "--use-renamer-now", "--resolvers", "all").exit_code == 0
    assert everywhere(moved, "ana-ml2.ana.lan.") == {ALIAS}
    (moved.root / "renamer.yaml").write_text(CONFIG.replace("    ana-ml2: fv-ml1\n", "")
                                             .replace("    ana-ml2.ana.lan: fv-ml1.fv.lan\n", ""))
    at(monkeypatch, "2026-10-12")
    early = ("ns-ana: renamer-ana.conf: the apply would retire the transitional alias ana-ml2, served until "
             "2026-11-04, before its date (renamer.yaml no longer keeps it: its renames, cutover or target host "
             "changed)")
    planned = dns(run, moved, "plan", "--resolvers", "all")
    assert f"  {early}\n" in planned.stdout, planned.stdout
    refused = dns(run, moved, "apply", "--use-renamer-now", "--resolvers", "all")
    assert refused.exit_code == 3, refused.stdout + refused.stderr
    assert refused.stderr.splitlines()[-1].startswith(f"renamer: error: {early} (and 2 more): refused, nothing "
                                                      "written"), refused.stderr
    assert everywhere(moved, "ana-ml2.ana.lan.") == {ALIAS}
    forced = dns(run, moved, "apply", "--use-renamer-now", "--resolvers", "all", "--force")
    assert forced.exit_code == 0, forced.stdout + forced.stderr
    assert everywhere(moved, "ana-ml2.ana.lan.") == {("NXDOMAIN", ())}
    assert everywhere(moved, "ana-ml2-bmc.ana.lan.") == {("NOERROR", ("CNAME fv-ml1-bmc.fv.lan.", "A 10.251.50.55"))}

# --- what is refused (exit 2, one line naming the file, the line and the key) ---------------------

def _render(run: Callable[..., Result], root: Path) -> Result:
    return run(root, "dns", "render")


@pytest.fixture
def inventory(tmp_path: Path) -> Path:
    """A folder holding renamer.yaml and the shipped inventory (no resolver started: dns render)."""
    from renamer.shipped import shipped

    root = tmp_path / "repo"
    shutil.copytree(shipped("dns"), root / "dns")
    (root / "renamer.yaml").write_text(CONFIG)
    return root


def test_dns_render_writes_the_alias_in_the_site_of_its_domain(  # type: ignore[no-untyped-def]
        run, inventory: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    at(monkeypatch, BEFORE)
    done = _render(run, inventory)
    assert done.exit_code == 0, done.stdout + done.stderr
    ana = done.stdout.split("renamer-fv.conf")[0]
    assert ("# transitional until 2026-11-04: ana-ml2, renamed fv-ml1\n"
            "cname=ana-ml2,ana-ml2.ana.lan,fv-ml1.fv.lan\n") in ana, done.stdout
    at(monkeypatch, ON_THE_DAY)
    assert "ana-ml2.ana.lan" not in _render(run, inventory).stdout


@pytest.mark.parametrize(("edit", "message"), [
    (("dns_transition: 30d", "dns_transition: 30 days"),
     "renamer.yaml:10: options.dns_transition: expected a duration like 30d, 12h or 2w (a whole number, then h, "
     "d or w), got '30 days'"),
    (("dns_transition: 30d", "dns_transition: 30"), "renamer.yaml:10: options.dns_transition: expected a duration "
     "like 30d, 12h or 2w (a whole number, then h, d or w), got 30"),
    (("dns_transition: 30d", "dns_transition: 1.5d"), "renamer.yaml:10: options.dns_transition: expected a "
     "duration like 30d, 12h or 2w (a whole number, then h, d or w), got '1.5d'"),
    (("cutover: 2026-10-05\n", ""), "renamer.yaml:9: options.dns_transition: needs `cutover:` (the day of the "
     "move, where the window starts)"),
    (("ana-ml2.ana.lan: fv-ml1.fv.lan", "ana-ml2.old.lan: fv-ml1.fv.lan"),
     "renamer.yaml:8: renames.hosts.ana-ml2.old.lan: a DNS transition would keep it as a CNAME to fv-ml1.fv.lan, "
     "but old.lan is the domain of no site of the DNS inventory: renamer cannot serve it (add that site, or "
     "leave this host without a transition)"),
    (("ana-ml2-bmc: fv-ml1-bmc", "ana-bmc: fv-ml1-bmc"),
     "renamer.yaml:7: renames.hosts.ana-bmc: a DNS transition would keep it as a CNAME to fv-ml1-bmc.fv.lan, but "
     "no site lists it under `retired:`: list it in the site whose domain it lived in, so that renamer knows "
     "where to serve it"),
])
def test_a_transition_renamer_cannot_take_is_refused(  # type: ignore[no-untyped-def]
        run, inventory: Path, edit: tuple[str, str], message: str, monkeypatch: pytest.MonkeyPatch) -> None:
    at(monkeypatch, BEFORE)  # in the window: an expired alias constrains nothing (finding 17)
    config = inventory / "renamer.yaml"
    config.write_text(config.read_text().replace(*edit))
    done = _render(run, inventory)
    assert done.exit_code == 2, done.stdout
    assert done.stderr == f"renamer: error: {message}\n"
    assert done.stdout == ""


@pytest.mark.parametrize(("value", "shown"), [("30D", "'30D'"), ("0d", "'0d'"), ("-3d", "'-3d'"),
                                               ("3 d", "'3 d'"), ("yes", "'yes'"), ("[30d]", "a list")])
def test_a_host_s_transition_is_read_strictly(  # type: ignore[no-untyped-def]
        run, inventory: Path, value: str, shown: str) -> None:
    site = inventory / "dns" / "sites" / "fv.yaml"
    site.write_text(site.read_text().replace("    aliases: [scriberr]\n", f"    aliases: [scriberr]\n"
                                             f"    transition: {value}\n"))
    done = _render(run, inventory)
    assert done.exit_code == 2, done.stdout
    assert done.stderr == ("renamer: error: dns/sites/fv.yaml:9: hosts[0].transition: expected a duration like "
                           f"30d, 12h or 2w (a whole number, then h, d or w), got {shown}\n")


def test_a_host_s_transition_that_no_old_name_reaches_is_refused(run, inventory: Path) -> None:  # type: ignore[no-untyped-def]
    site = inventory / "dns" / "sites" / "fv.yaml"
    site.write_text(site.read_text().replace("  - name: fv-gw\n", "  - name: fv-gw\n    transition: 2w\n"))
    done = _render(run, inventory)
    assert done.exit_code == 2
    assert done.stderr == ("renamer: error: dns/sites/fv.yaml: hosts fv-gw: transition: no old name of "
                           "renamer.yaml's renames.hosts is renamed to fv-gw or fv-gw.fv.lan: nothing to keep\n")


def test_a_bad_clock_is_refused(run, inventory: Path, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    at(monkeypatch, "next tuesday")
    done = _render(run, inventory)
    assert done.exit_code == 2
    assert done.stderr == ("renamer: error: RENAMER_NOW: expected a date like 2026-11-05 or a UTC time like "
                           "2026-11-05T12:00:00Z, got 'next tuesday'\n")


def test_audit_lists_each_alias_and_its_date(  # type: ignore[no-untyped-def]
        run, repo: Callable[..., Path], monkeypatch: pytest.MonkeyPatch) -> None:
    """`renamer audit` (text and JSON) names each transitional alias, its target and when it
    expires, or that it is retired; no resolver is asked (the site files are read)."""
    from renamer.shipped import shipped

    sites = {f"dns/sites/{p.name}": p.read_text() for p in sorted((shipped("dns") / "sites").glob("*.yaml"))}
    root = repo({**sites, "notes.md": "fv-ml1 is the box\n"},
                config=CONFIG + "allowlist: allow.yaml\n", allowlist="version: 1\ncurrent: ['**']\n")
    at(monkeypatch, BEFORE)
    table = run(root, "audit")
    assert table.exit_code == 0, table.stdout + table.stderr
    assert ("DNS transitional aliases: 2 (an old name kept as a CNAME to its new FQDN until its date, then retired; "
            "from the site files, no resolver asked)\n"
            "  ana-ml2-bmc.ana.lan -> fv-ml1-bmc.fv.lan: window open until 2026-11-04 (options.dns_transition 30d)\n"
            "  ana-ml2.ana.lan -> fv-ml1.fv.lan: window open until 2026-11-04 (options.dns_transition 30d)\n"
            ) in table.stdout, table.stdout
    at(monkeypatch, AFTER)
    document = json.loads(run(root, "audit", "--format", "json").stdout)
    assert document["dns_transitional"] == [
        {"name": "ana-ml2-bmc.ana.lan", "short": "ana-ml2-bmc", "target": "fv-ml1-bmc.fv.lan", "host": "fv-ml1-bmc",
         "expires": "2026-11-04T00:00:00Z", "state": "expired", "from": "options.dns_transition 30d"},
        {"name": "ana-ml2.ana.lan", "short": "ana-ml2", "target": "fv-ml1.fv.lan", "host": "fv-ml1",
         "expires": "2026-11-04T00:00:00Z", "state": "expired", "from": "options.dns_transition 30d"}]
    assert "window over since 2026-11-04: `dns apply` retires it where served" in run(root, "audit").stdout
    (root / "renamer.yaml").write_text(CONFIG.replace("options:\n  dns_transition: 30d\n", "")
                                       + "allowlist: allow.yaml\n")
    plain = run(root, "audit")
    assert plain.exit_code == 0 and "transitional" not in plain.stdout
    assert json.loads(run(root, "audit", "--format", "json").stdout)["dns_transitional"] == []


# --- the placing of each alias, pure (renamer/dns/transition.py) ----------------------------------

def _shipped_inventory() -> Inventory:
    from renamer.dns.load import load_inventory
    from renamer.shipped import shipped

    return load_inventory(shipped("dns"), str)


NOW = dt.datetime(2026, 10, 20, tzinfo=dt.UTC)
DAY = dt.date(2026, 10, 5)


def test_each_old_name_is_placed_once_in_the_domain_it_lived_in() -> None:
    pairs = (("ana-ml2", "fv-ml1"), ("ana-ml2.ana.lan", "fv-ml1.fv.lan"), ("old-gw.fv.lan", "fv-gw"),
             ("web01", "app01"))  # app01 is no host of the inventory: nothing to point at
    done = with_transitions(_shipped_inventory(), pairs, DAY, dt.timedelta(days=30), NOW)
    assert [(t.fqdn, t.target, t.expires.isoformat(), t.served) for t in done.transitions] == [
        ("ana-ml2.ana.lan", "fv-ml1.fv.lan", "2026-11-04T00:00:00+00:00", True),
        ("old-gw.fv.lan", "fv-gw.fv.lan", "2026-11-04T00:00:00+00:00", True)]
    assert [t.name for t in done.site("ana").transitional] == ["ana-ml2"]
    assert [t.name for t in done.site("fv").transitional] == ["old-gw"]  # the same domain as its host
    later = with_transitions(_shipped_inventory(), pairs, DAY, dt.timedelta(days=30),
                             dt.datetime(2026, 11, 4, tzinfo=dt.UTC))
    assert [t.served for t in later.transitions] == [False, False]  # at the instant it expires
    assert not any(site.transitional for site in later.sites)


def test_without_a_window_nothing_is_kept() -> None:
    done = with_transitions(_shipped_inventory(), (("ana-ml2", "fv-ml1"),), DAY, None, NOW)
    assert done.transitions == () and not any(site.transitional for site in done.sites)


def test_an_old_name_that_is_still_a_name_of_the_inventory_is_refused() -> None:
    with pytest.raises(ConfigError) as raised:
        with_transitions(_shipped_inventory(), (("ana-nas.ana.lan", "fv-ml1.fv.lan"),), DAY, dt.timedelta(days=30),
                         NOW)
    assert raised.value.lines == [
        "renamer.yaml: renames.hosts.ana-nas.ana.lan: a DNS transition would keep it as a CNAME to fv-ml1.fv.lan, "
        "but ana-nas.ana.lan is still a name of the inventory"]


def test_a_short_old_name_retired_in_two_sites_is_refused() -> None:
    """Served in both domains, its one-label name would be two `cname=` lines on a resolver serving
    both sites: dnsmasq refuses to start then."""
    from dataclasses import replace

    shipped = _shipped_inventory()
    both = replace(shipped, sites=tuple(replace(s, retired=(*s.retired, "ana-ml2")) if s.name == "fv" else s
                                        for s in shipped.sites))
    with pytest.raises(ConfigError) as raised:
        with_transitions(both, (("ana-ml2", "fv-ml1"),), DAY, dt.timedelta(days=30), NOW)
    assert raised.value.lines == [
        "renamer.yaml: renames.hosts: a DNS transition would serve the old name ana-ml2 in the domains of sites ana "
        "and fv, and ns-ana, ns-ana2, ns-ana3 serve both sites' one-label names: its one-label name would be two "
        "CNAMEs there (dnsmasq refuses to start); keep it in one of them only, or serve the two sites on separate "
        "resolvers"]
    # (finding 5) where no resolver serves one-label names of both sites (BIND, PowerDNS), no clash
    served = with_transitions(both, (("ana-ml2", "fv-ml1"),), DAY, dt.timedelta(days=30), NOW,
                              short_names=lambda resolver: False)
    assert sorted(t.fqdn for t in served.transitions) == ["ana-ml2.ana.lan", "ana-ml2.fv.lan"]


def test_an_expired_alias_is_refused_nothing() -> None:
    """Finding 17, pure: the same inputs one day after the window raise nothing; the alias stays
    listed where it can be placed, as retired."""
    done = with_transitions(_shipped_inventory(), (("ana-nas.ana.lan", "fv-ml1.fv.lan"), ("ana-ml2", "fv-ml1")),
                            DAY, dt.timedelta(days=1), NOW)
    assert [(t.fqdn, t.served) for t in done.transitions] == [("ana-ml2.ana.lan", False)]


def test_an_old_label_that_is_another_sites_name_is_served_where_no_resolver_holds_both(  # type: ignore[no-untyped-def]
        run, moved: Lab, monkeypatch: pytest.MonkeyPatch) -> None:
    """t24-alias finding 5, dnsmasq: the old nas.ana.lan (now fv-gw) while fv has a host nas. The
    one-label name `nas` clashes only on a resolver serving both sites; with ns-ana and ns-ana2
    serving ana and ns-fv serving fv, none does: the alias is served (short name included), fv's
    nas keeps its address."""
    at(monkeypatch, "2026-10-10")
    moved.write_resolvers(ns_ana={"sites": ["ana"], "dhcp": ["ana"]}, ns_ana2={"sites": ["ana"]},
                          ns_fv={"sites": ["fv"], "dhcp": ["fv"]})
    fv = moved.inventory / "sites" / "fv.yaml"
    fv.write_text(fv.read_text().replace("  - name: fv-gw\n", "  - name: nas\n    address: 10.251.9.9\n"
                                                              "  - name: fv-gw\n", 1))
    (moved.root / "renamer.yaml").write_text(CONFIG.replace(
        "    ana-ml2.ana.lan: fv-ml1.fv.lan\n", "    ana-ml2.ana.lan: fv-ml1.fv.lan\n    nas.ana.lan: fv-gw.fv.lan\n"))
    applied = dns(run, moved, "apply", "--use-renamer-now", "--resolvers", "all")
    assert applied.exit_code == 0, applied.stdout + applied.stderr
    gateway = ("NOERROR", ("CNAME fv-gw.fv.lan.",))  # (fv is not served there: the CNAME alone)
    for resolver in ("ns-ana", "ns-ana2"):
        assert asked(moved, resolver, "nas.ana.lan.") == gateway, resolver
        assert asked(moved, resolver, "nas.") == gateway, resolver
    assert asked(moved, "ns-fv", "nas.fv.lan.") == ("NOERROR", ("A 10.251.9.9",))
    assert asked(moved, "ns-fv", "nas.") == ("NOERROR", ("A 10.251.9.9",))
    assert dns(run, moved, "verify", "--resolvers", "all").exit_code == 0
    moved.write_resolvers()  # ns-ana2 serves both sites again: the one-label name is refused, with why
    refused = dns(run, moved, "plan", "--resolvers", "all")
    assert refused.exit_code == 2, refused.stdout + refused.stderr
    assert ("renames.hosts.nas.ana.lan: a DNS transition would serve its one-label name nas as a CNAME to fv-gw.fv.lan, "
            "but nas is also the one-label name of nas.fv.lan, and ns-ana, ns-ana2, ns-fv serve both sites' "
            "one-label names") in refused.stderr, refused.stderr


def test_an_ansible_run_spanning_the_expiry_verifies_by_the_clock_it_rendered_with(  # type: ignore[no-untyped-def]
        lab: Lab, monkeypatch: pytest.MonkeyPatch) -> None:
    """t24-alias finding 9: `dns apply --engine ansible` renders the files by the clock it read at
    the start; the playbook's verify is a renamer run of its own. Here the window ends between
    the two (renamer's clock a few minutes behind, tests/testing/skewed.py): the verify judges by
    the plan's instant (RENAMER_NOW handed to the playbook), so the run keeps what it wrote (the
    alias), OK, as the built-in engine does, instead of a canary mismatch and a rollback."""
    import subprocess
    import sys

    monkeypatch.delenv("RENAMER_NOW", raising=False)
    real = dt.datetime.now(dt.UTC)
    hours = 24 + real.hour  # from yesterday's 00:00: the window ended at this hour's :00, minutes ago
    (lab.root / "renamer.yaml").write_text(CONFIG.replace("cutover: 2026-10-05", f"cutover: "
                                                          f"{(real - dt.timedelta(days=1)).date().isoformat()}")
                                           .replace("dns_transition: 30d", f"dns_transition: {hours}h"))
    behind = -(real.minute + 5)  # renamer's clock: 5 minutes before the window ended
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run([sys.executable, "-m", "tests.testing.skewed", str(behind), "dns", "apply", "--use-renamer-now", "--resolvers",
                           "all", "--engine", "ansible", "--inventory", str(lab.inventory)],
                          cwd=lab.root, env={**__import__("os").environ, "PYTHONPATH": str(root), "NO_COLOR": "1"},
                          capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "canary" not in done.stdout, done.stdout
    for name in ("ana-ml2.ana.lan.", "ana-ml2."):  # what it rendered (in the window, by its clock) is served
        assert everywhere(lab, name) == {ALIAS}, name


def test_a_hand_made_cname_at_the_old_name_is_predicted_to_fail_and_retire_stale_clears_it(  # type: ignore[no-untyped-def]
        run, moved: Lab, monkeypatch: pytest.MonkeyPatch) -> None:
    """t24-alias finding 11: an operator kept the old name alive by hand (`cname=ana-ml2.ana.lan,
    fv-ml1.fv.lan` in dnsmasq.conf), then turns the window on: renamer's own cname= for it makes
    two, which dnsmasq refuses (duplicate CNAME). The plan says so (would fail, exit 1) before the
    apply finds it; `--retire-stale` comments the hand line out and the alias is served."""
    from renamer.dns.dnsmasq import sandbox

    at(monkeypatch, AFTER)  # as served after the window: no alias of renamer's
    assert dns(run, moved, "apply", "--use-renamer-now", "--resolvers", "all").exit_code == 0
    for instance in moved.instances.values():
        with instance.conf.open("a") as conf:
            conf.write("cname=ana-ml2.ana.lan,fv-ml1.fv.lan\n")
        sandbox.restart(instance.folder)
    at(monkeypatch, "2026-10-10")
    planned = dns(run, moved, "plan", "--resolvers", "all")
    assert planned.exit_code == 1, planned.stdout + planned.stderr
    assert ("would fail: ns-ana: its test after the write would fail: ana-ml2.ana.lan would be a CNAME twice, "
            "renamer's (ana-ml2.ana.lan CNAME (transitional until 2026-11-04) to fv-ml1.fv.lan.) and a "
            "hand-written one to fv-ml1.fv.lan. (hand-written records, below): dnsmasq refuses that (duplicate "
            "CNAME) and the apply rolls back; `dns apply --retire-stale` comments it out") in planned.stdout, \
        planned.stdout
    document = json.loads(dns(run, moved, "plan", "--resolvers", "all", "--format", "json").stdout)
    assert all(any("would be a CNAME twice" in line for line in r["would_fail"]) for r in document["resolvers"])
    failed = dns(run, moved, "apply", "--use-renamer-now", "--resolvers", "all")  # what the plan said
    assert failed.exit_code == 1 and "duplicate CNAME" in failed.stdout, failed.stdout
    retired = dns(run, moved, "plan", "--resolvers", "all", "--retire-stale")
    assert "would be a CNAME twice" not in retired.stdout, retired.stdout
    applied = dns(run, moved, "apply", "--use-renamer-now", "--resolvers", "all", "--retire-stale")
    assert applied.exit_code == 0, applied.stdout + applied.stderr
    assert everywhere(moved, "ana-ml2.ana.lan.") == {ALIAS}
    for instance in moved.instances.values():
        assert "# retired by `renamer dns apply --retire-stale`" in instance.conf.read_text()
