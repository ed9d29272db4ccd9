"""The backend conformance suite: every backend of dns/backend.py BACKENDS, against its real daemon.

Each scenario drives `renamer dns apply` through the CLI and asserts what the resolvers answer
over DNS: apply -> verify by queries -> a second apply is a no-op -> a failing test rolls back
-> an unreachable server is refused before any write -> kill -9, then --resume or --rollback
-> two applies at once are refused. A new backend is done when it passes this suite: add its
lab to LABS (real daemons of that backend on loopback ports, and an inventory that names
them, with the methods of tests/testing/resolvers.py's Lab, its fault hooks included:
failing_test, hanging_test and unreachable; a backend with no test command or ssh target, as
PowerDNS, brings its own there).
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from renamer.dns.answers import NoAnswer
from renamer.dns.backend import BACKENDS
from renamer.dns.bind import render
from renamer.dns.inventory import BACKEND_NAMES, Inventory
from renamer.dns.plan import plan_resolvers
from renamer.dns.query import dnspython_querier
from renamer.dns.run import connected
from renamer.sites import locate_inventory
from tests.testing.resolvers import (
    DHCP,
    Lab,
    move_gateway,
    start_bind_lab,
    start_lab,
    start_powerdns_lab,
    start_unbound_lab,
    stray,
)

LABS: dict[str, Callable[[Path], Lab]] = {"dnsmasq": start_lab, "unbound": start_unbound_lab,
                                          "bind": start_bind_lab, "powerdns": start_powerdns_lab}
OLD, NEW = "10.251.0.1", "10.251.0.2"  # fv-gw before and after move_gateway


def test_the_registry_is_what_the_inventory_accepts() -> None:
    assert sorted(BACKENDS) == sorted(BACKEND_NAMES)
    assert sorted(LABS) == sorted(BACKENDS)  # each backend brings its lab


@pytest.fixture(params=sorted(BACKENDS))
def daemons(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Lab]:
    """Three real resolvers of one backend on loopback; stopped after the test."""
    started = LABS[request.param](tmp_path / "lab")
    try:
        yield started
    finally:
        started.stop()


def dns(run: Callable[..., Any], lab: Lab, *args: str) -> Any:
    return run(lab.root, "dns", *args, "--inventory", str(lab.inventory))


def inventory(lab: Lab) -> Inventory:
    """The inventory as `renamer dns` in lab.root reads it (a site's source shows as there)."""
    return locate_inventory(None, None, lab.root, lab.inventory)


def addresses(lab: Lab, resolver: str, name: str = "fv-gw.fv.lan.") -> list[str]:
    """The A records `resolver` answers for `name`, asked over DNS."""
    chosen = inventory(lab).select(resolver)[0]
    try:
        answer = dnspython_querier(chosen)(name, "A")
    except NoAnswer:
        return ["no answer"]
    return [value for kind, value in answer.records if kind == "A"]


def serving_everywhere(lab: Lab, address: str) -> bool:
    return all(addresses(lab, name) == [address] for name in lab.instances)


def test_apply_then_every_resolver_answers_the_inventory(run, daemons: Lab) -> None:  # type: ignore[no-untyped-def]
    assert all(addresses(daemons, name) == [] for name in daemons.instances)  # nothing served yet
    applied = dns(run, daemons, "apply", "--resolvers", "all")
    assert applied.exit_code == 0, applied.stdout
    assert serving_everywhere(daemons, OLD)
    loaded = inventory(daemons)
    for resolver in loaded.resolvers:  # the canary the backend promises is what the resolver serves
        backend = BACKENDS[resolver.backend]
        for site in (s for s in loaded.sites if s.name in resolver.sites):
            name, value = backend.canary(site, resolver)
            answer = dnspython_querier(resolver)(f"{name}.", "TXT")
            assert ("TXT", f'"{value}"') in answer.records
    verified = dns(run, daemons, "verify", "--resolvers", "all")
    assert verified.exit_code == 0, verified.stdout


def test_a_second_apply_is_a_no_op(run, daemons: Lab) -> None:  # type: ignore[no-untyped-def]
    assert dns(run, daemons, "apply", "--resolvers", "all").exit_code == 0
    files, pids = daemons.snippets(), daemons.pids()
    again = dns(run, daemons, "apply", "--resolvers", "all")
    assert again.exit_code == 0, again.stdout
    assert again.stdout.count("unchanged") == len(daemons.instances)
    assert daemons.snippets() == files and daemons.pids() == pids  # nothing written, nothing restarted
    assert serving_everywhere(daemons, OLD)


def test_a_failing_test_rolls_every_resolver_back(run, daemons: Lab) -> None:  # type: ignore[no-untyped-def]
    assert dns(run, daemons, "apply", "--resolvers", "all").exit_code == 0
    before = daemons.snippets()
    move_gateway(daemons)
    daemons.write_resolvers(ns_fv=daemons.failing_test("ns-fv"))
    failed = dns(run, daemons, "apply", "--resolvers", "all")
    assert failed.exit_code == 1
    assert "ns-fv: test failed" in failed.stdout
    after = daemons.snippets()
    assert _unserialled(after) == _unserialled(before)
    for key, data in after.items():  # BIND: a zone named served at a new serial goes back at a newer one
        if data != before[key] and key.endswith(".zone"):
            assert not key.startswith("ns-fv/")
            assert render.serial_of(data.decode()) == (render.serial_of(before[key].decode()) or 0) + 2, key
        elif key.endswith(render.SERIALS):  # and it keeps the serials the failed apply wrote (and served)
            marks, had = render.marks_of(data), render.marks_of(before[key])
            assert all(marks[zone] >= serial for zone, serial in had.items()), key
            folder = key.split("/")[0] + "/"
            for path, text in after.items():
                if path.startswith(folder) and path.endswith(".zone") and text != before[path]:
                    zone = path[len(folder) + len("renamer-"):-len(".zone")]
                    assert marks[zone] == (render.serial_of(text.decode()) or 0) - 1, (key, zone)
        else:
            assert data == before[key], key
    assert serving_everywhere(daemons, OLD)


def test_the_exported_activation_serves_what_is_written(run, daemons: Lab) -> None:  # type: ignore[no-untyped-def]
    """What the Ansible export runs in place of `activate` (Backend.activation's commands, then
    `loaded`) makes each daemon serve the files written, as `activate` does."""
    assert dns(run, daemons, "apply", "--resolvers", "all").exit_code == 0
    move_gateway(daemons)
    loaded = inventory(daemons)
    with connected(loaded, loaded.resolvers) as transports:
        for plan in plan_resolvers(loaded, loaded.resolvers, transports):
            resolver, transport = plan.resolver, transports[plan.resolver.name]
            backend = BACKENDS[resolver.backend]
            assert plan.changed, resolver.name
            for name in plan.changed:
                text = plan.desired[name]
                assert text is not None
                transport.write(plan.path(name), text.encode())
            commands = backend.activation(resolver, plan.changed, plan.changed)
            assert all(transport.run(argv).ok for argv in commands)
            assert backend.loaded(resolver, transport) is None
    assert serving_everywhere(daemons, NEW)


def _failures(result: Any) -> list[tuple[str, str]]:
    """verify's failed rows (check, got) of its JSON report."""
    import json

    data = json.loads(result.stdout)
    return sorted((c["check"], c["got"]) for r in data["resolvers"] for c in r["checks"] if not c["ok"])


def test_a_retired_name_that_answers_any_type_is_not_gone(run, daemons: Lab) -> None:  # type: ignore[no-untyped-def]
    """DNS break-it round 2, finding 13: `gone` asked A only, and for a site that is not
    authoritative took "no A" (NODATA) for gone. A retired name that keeps an AAAA, or a CNAME,
    hand-written beside renamer's records, fails verify, the row naming the type."""
    site = daemons.inventory / "sites" / "ana.yaml"
    site.write_text(site.read_text().replace("authoritative: true", "authoritative: false"))
    assert dns(run, daemons, "apply", "--resolvers", "all").exit_code == 0
    assert dns(run, daemons, "verify", "--resolvers", "all").exit_code == 0
    stray(daemons, "ns-ana", "ana-ml2.ana.lan.", "AAAA", "fd00::5")
    stray(daemons, "ns-ana", "ana-ml2-bmc.ana.lan.", "CNAME", "ana-nas.ana.lan.")
    verified = dns(run, daemons, "verify", "--resolvers", "all", "--format", "json")
    assert verified.exit_code == 1, verified.stdout
    # (Unbound answers a local-data CNAME without following it to the target's A; the others do.)
    assert [(check, got.split(" -> ")[0]) for check, got in _failures(verified)] == [
        ("ana-ml2-bmc.ana.lan A gone", "ana-nas.ana.lan."), ("ana-ml2-bmc.ana.lan AAAA gone", "ana-nas.ana.lan."),
        ("ana-ml2.ana.lan AAAA gone", "fd00::5")]


def test_an_alias_answers_exactly_its_host_s_addresses_of_both_families(  # type: ignore[no-untyped-def]
        run, daemons: Lab) -> None:
    """DNS break-it round 2, finding 03: an alias's AAAA was asked only of a dual-stack host. Every
    alias is asked A and AAAA, each compared as exactly as its host's: an AAAA hand-written for
    the v4-only host fv-ml1 answers under its alias scriberr too (through the CNAME where the
    backend writes one); where the backend writes the alias as the host's own records (Unbound),
    an AAAA and a second A hand-written for the alias itself fail too."""
    assert dns(run, daemons, "apply", "--resolvers", "all").exit_code == 0
    stray(daemons, "ns-fv", "fv-ml1.fv.lan.", "AAAA", "fd00::98")
    backend = BACKENDS[inventory(daemons).resolvers[0].backend]
    cname = backend.cname_aliases
    if not cname:
        stray(daemons, "ns-fv", "scriberr.fv.lan.", "AAAA", "fd00::99")
        stray(daemons, "ns-fv", "scriberr.fv.lan.", "A", "10.9.9.9")
    verified = dns(run, daemons, "verify", "--resolvers", "all", "--format", "json")
    assert verified.exit_code == 1, verified.stdout
    # each failure's values in any order; the one-label names (where the backend serves them)
    # are left out: the inventory's alias is the FQDN's
    found = {k: sorted(v.split(" -> ")) for k, v in _failures(verified) if "." in k.split()[0]}
    assert found.pop("fv-ml1.fv.lan AAAA") == ["fd00::98"]
    if cname:
        assert found == {"scriberr.fv.lan CNAME AAAA": ["fd00::98", "fv-ml1.fv.lan."]}
    else:
        assert found == {"scriberr.fv.lan AAAA (alias)": ["fd00::99"],
                         "scriberr.fv.lan A (alias)": ["10.251.50.54", "10.9.9.9"]}


# What each backend lets a hand-written record add beside renamer's that verify then fails on:
# dnsmasq and Unbound a second A of an alias and a second PTR of a current address; PowerDNS
# (whose REPLACE of renamer's RRsets overwrites a same-type one) an AAAA of a v4-only host.
# (BIND: renamer's zones hold these names; the operator's own zones are scanned alike, by reading.)
STRAYS = {"dnsmasq": [("scriberr.fv.lan.", "A", "10.9.9.9"), ("1.0.251.10.in-addr.arpa.", "PTR", "legacy-router.example.")],
          "unbound": [("scriberr.fv.lan.", "A", "10.9.9.9"), ("1.0.251.10.in-addr.arpa.", "PTR", "legacy-router.example.")],
          "powerdns": [("fv-ml1.fv.lan.", "AAAA", "fd00::98")]}


@pytest.mark.parametrize("backend", sorted(STRAYS))
def test_a_hand_written_record_verify_would_fail_on_is_listed_and_retired(  # type: ignore[no-untyped-def]
        run, tmp_path: Path, backend: str) -> None:
    """DNS break-it round 2, finding 05: a second address for an alias, a second PTR for a current
    address, were in no stale list: plan exit 0, every apply failed verify and rolled back, and
    --retire-stale could not clear them. Now plan lists them (exit 1), and --retire-stale clears
    them: apply and verify OK, the resolver answers the inventory's records alone."""
    lab = LABS[backend](tmp_path / "lab")
    try:
        for owner, rdtype, value in STRAYS[backend]:
            stray(lab, "ns-fv", owner, rdtype, value)
        planned = dns(run, lab, "plan", "--resolvers", "ns-fv")
        assert planned.exit_code == 1, planned.stdout
        listed = planned.stdout[planned.stdout.index("hand-written"):]
        assert all(value.rstrip(".") in listed for _, _, value in STRAYS[backend]), planned.stdout
        applied = dns(run, lab, "apply", "--resolvers", "ns-fv", "--retire-stale")
        assert applied.exit_code == 0, applied.stdout + applied.stderr
        for owner, rdtype, _ in STRAYS[backend]:
            want = {"A": ["10.251.50.54"], "PTR": ["fv-gw.fv.lan."], "AAAA": []}[rdtype]
            answer = dnspython_querier(inventory(lab).select("ns-fv")[0])(owner, rdtype)
            assert [v for kind, v in answer.records if kind == rdtype] == want
        assert dns(run, lab, "verify", "--resolvers", "ns-fv").exit_code == 0
    finally:
        lab.stop()


# renamer.yaml of a move whose old names stay CNAMEs for 30 days after the cutover: until 2026-11-04
TRANSITION = ("version: 1\ncutover: 2026-10-05\nrenames:\n  hosts: {ana-ml2: fv-ml1, ana-ml2.ana.lan: fv-ml1.fv.lan}\n"
              "options:\n  dns_transition: 30d\ndns: dns/\n")


def _asked(lab: Lab, resolver: str, name: str) -> tuple[str, tuple[tuple[str, str], ...]]:
    """(rcode, records) `resolver` answers for `name` A, straight over DNS."""
    answer = dnspython_querier(inventory(lab).select(resolver)[0])(name, "A")
    return answer.rcode, tuple(answer.records)


def test_a_transitional_alias_is_served_until_its_date_then_retired(  # type: ignore[no-untyped-def]
        run, daemons: Lab, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 34, item 2: the old name ana-ml2.ana.lan is a CNAME to fv-ml1.fv.lan (where the
    backend writes aliases as CNAMEs; Unbound: the host's address under the old name) until the
    cutover plus the transition, by the clock (RENAMER_NOW); after it, an apply retires it and
    every daemon answers NXDOMAIN (ana.lan is authoritative), verify proving each side."""
    (daemons.root / "renamer.yaml").write_text(TRANSITION)
    monkeypatch.setenv("RENAMER_NOW", "2026-11-03T12:00:00Z")
    applied = dns(run, daemons, "apply", "--use-renamer-now", "--resolvers", "all")
    assert applied.exit_code == 0, applied.stdout + applied.stderr
    backend = BACKENDS[inventory(daemons).resolvers[0].backend]
    cname = backend.cname_aliases
    # BIND, authoritative with recursion off, answers a CNAME into another zone alone (a client's
    # recursive resolver follows it to fv.lan, where the target's A is checked on its own)
    served = ((("CNAME", "fv-ml1.fv.lan."),) if cname else ()) + \
        ((("A", "10.251.50.54"),) if backend.follows_other_zones else ())
    for name in daemons.instances:
        assert _asked(daemons, name, "ana-ml2.ana.lan.") == ("NOERROR", served), name
    verified = dns(run, daemons, "verify", "--resolvers", "all")
    assert verified.exit_code == 0, verified.stdout
    assert "ana-ml2.ana.lan " + ("CNAME" if cname else "A (alias)") + " (transitional until 2026-11-04)" \
        in verified.stdout

    monkeypatch.setenv("RENAMER_NOW", "2026-11-04")
    stale = dns(run, daemons, "verify", "--resolvers", "all", "--format", "json")
    assert stale.exit_code == 1  # still served, no longer wanted
    assert ("ana-ml2.ana.lan A gone", "fv-ml1.fv.lan." if cname else "10.251.50.54") in \
        [(check, got.split(" -> ")[0]) for check, got in _failures(stale)]
    retired = dns(run, daemons, "apply", "--use-renamer-now", "--resolvers", "all")
    assert retired.exit_code == 0, retired.stdout + retired.stderr
    for name in daemons.instances:
        assert _asked(daemons, name, "ana-ml2.ana.lan.") == ("NXDOMAIN", ()), name
        assert _asked(daemons, name, "fv-ml1.fv.lan.") == ("NOERROR", (("A", "10.251.50.54"),)), name
    assert dns(run, daemons, "verify", "--resolvers", "all").exit_code == 0


def _alias_answer(lab: Lab, target: str, address: str) -> tuple[str, tuple[tuple[str, str], ...]]:
    """What a transitional alias to `target` (at `address`) answers on this backend: its CNAME
    where aliases are CNAMEs, then the address where the backend follows it into the other zone."""
    backend = BACKENDS[inventory(lab).resolvers[0].backend]
    return "NOERROR", ((("CNAME", f"{target}."),) if backend.cname_aliases else ()) + \
        ((("A", address),) if backend.follows_other_zones else ())


def test_an_old_name_renamed_to_an_alias_or_through_derived_names_gets_its_window(  # type: ignore[no-untyped-def]
        run, daemons: Lab, monkeypatch: pytest.MonkeyPatch) -> None:
    """t24-alias finding 3: `ana-ml2: scriberr` (an alias of fv-ml1) keeps ana-ml2.ana.lan as the
    alias of fv-ml1 (its host's FQDN: no CNAME chain through the alias); with `derived_names: true`
    the retired ana-ml2-bmc, which the sweep renames to fv-ml1-bmc, is kept too; an old name a
    window was asked for that gets none (renamed to no host) is said in the plan, never silently
    retired. Asked over DNS on every backend."""
    monkeypatch.setenv("RENAMER_NOW", "2026-10-10")
    (daemons.root / "renamer.yaml").write_text(
        "version: 1\ncutover: 2026-10-05\nrenames:\n  hosts: {ana-ml2: scriberr}\n"
        "options:\n  dns_transition: 30d\n  derived_names: true\ndns: dns/\n")
    planned = dns(run, daemons, "plan", "--resolvers", "all")
    assert "  ana-ml2.ana.lan -> fv-ml1.fv.lan: served until 2026-11-04 (options.dns_transition 30d)\n" \
        in planned.stdout, planned.stdout
    assert ("no transitional alias: 1 (old names options.dns_transition asks a window for that get none: "
            "retired at once)\n  ana-ml2-bmc -> scriberr-bmc (options.derived_names: ana-ml2-bmc of ana-ml2): "
            "no window: scriberr-bmc is no host or alias of the DNS inventory") in planned.stdout, planned.stdout
    applied = dns(run, daemons, "apply", "--use-renamer-now", "--resolvers", "all")
    assert applied.exit_code == 0, applied.stdout + applied.stderr
    for name in daemons.instances:
        assert _asked(daemons, name, "ana-ml2.ana.lan.") == _alias_answer(daemons, "fv-ml1.fv.lan",
                                                                          "10.251.50.54"), name
        assert _asked(daemons, name, "ana-ml2-bmc.ana.lan.") == ("NXDOMAIN", ()), name  # said: no window
    assert dns(run, daemons, "verify", "--resolvers", "all").exit_code == 0

    (daemons.root / "renamer.yaml").write_text(
        "version: 1\ncutover: 2026-10-05\nrenames:\n  hosts: {ana-ml2: fv-ml1}\n"
        "options:\n  dns_transition: 30d\n  derived_names: true\ndns: dns/\n")
    applied = dns(run, daemons, "apply", "--use-renamer-now", "--resolvers", "all")
    assert applied.exit_code == 0, applied.stdout + applied.stderr
    for name in daemons.instances:
        assert _asked(daemons, name, "ana-ml2-bmc.ana.lan.") == _alias_answer(daemons, "fv-ml1-bmc.fv.lan",
                                                                              "10.251.50.55"), name
        assert _asked(daemons, name, "ana-ml2.ana.lan.") == _alias_answer(daemons, "fv-ml1.fv.lan",
                                                                          "10.251.50.54"), name
    verified = dns(run, daemons, "verify", "--resolvers", "all")
    assert verified.exit_code == 0, verified.stdout
    assert "ana-ml2-bmc.ana.lan " in verified.stdout and "(transitional until 2026-11-04)" in verified.stdout


def test_an_old_label_that_is_another_sites_name_is_refused_only_where_one_label_names_clash(  # type: ignore[no-untyped-def]
        run, daemons: Lab, monkeypatch: pytest.MonkeyPatch) -> None:
    """t24-alias finding 5: the old nas.ana.lan (now fv-gw) while fv has a host nas. Its FQDN is no name of
    the inventory; the clash is the one-label name `nas`, which only a backend serving one-label
    names (dnsmasq, Unbound) on a resolver holding both sites would serve twice: there the refusal
    says so; BIND and PowerDNS (FQDNs only) serve the alias. The same for one label kept in two
    sites' domains."""
    monkeypatch.setenv("RENAMER_NOW", "2026-10-10")
    backend = BACKENDS[inventory(daemons).resolvers[0].backend]  # (the inventory as renamer.yaml refuses it)
    fv = daemons.inventory / "sites" / "fv.yaml"
    fv.write_text(fv.read_text().replace("  - name: fv-gw\n", "  - name: nas\n    address: 10.251.9.9\n"
                                                              "  - name: fv-gw\n", 1))
    (daemons.root / "renamer.yaml").write_text(
        "version: 1\ncutover: 2026-10-05\nrenames:\n  hosts: {nas.ana.lan: fv-gw.fv.lan, ana-ml2.ana.lan: "
        "fv-ml1.fv.lan, ana-ml2.fv.lan: fv-ml1-bmc.fv.lan}\noptions:\n  dns_transition: 30d\ndns: dns/\n")
    applied = dns(run, daemons, "apply", "--use-renamer-now", "--resolvers", "all")
    if backend.short_names:
        assert applied.exit_code == 2, applied.stdout + applied.stderr
        assert applied.stderr.startswith(
            "renamer: error: renamer.yaml:4: renames.hosts.nas.ana.lan: a DNS transition would serve its "
            "one-label name nas as a CNAME to fv-gw.fv.lan, but nas is also the one-label name of nas.fv.lan, "
            "and ns-ana, ns-ana2, ns-fv serve both sites' one-label names"), applied.stderr
        assert "still a name of the inventory" not in applied.stderr
        assert "ana-ml2 in the domains of sites ana and fv, and ns-ana, ns-ana2, ns-fv serve both" in applied.stderr
        return
    assert applied.exit_code == 0, applied.stdout + applied.stderr
    for name in daemons.instances:
        assert _asked(daemons, name, "nas.ana.lan.") == _alias_answer(daemons, "fv-gw.fv.lan", "10.251.0.1")
        assert _asked(daemons, name, "nas.fv.lan.") == ("NOERROR", (("A", "10.251.9.9"),)), name
        assert _asked(daemons, name, "ana-ml2.fv.lan.") == ("NOERROR", (("CNAME", "fv-ml1-bmc.fv.lan."),
                                                                         ("A", "10.251.50.55"))), name
    assert dns(run, daemons, "verify", "--resolvers", "all").exit_code == 0


def _unserialled(snippets: dict[str, bytes]) -> dict[str, bytes]:
    """The files with each BIND zone's SOA serial left out (finding 01 of DNS break-it round 2: a
    rollback restores the records with a serial past the failed apply's)."""
    return {key: render.with_serial(data.decode(), 0).encode() if key.endswith(".zone") else data
            for key, data in snippets.items() if not key.endswith(render.SERIALS)}


def test_an_unreachable_server_is_refused_before_any_write(run, daemons: Lab) -> None:  # type: ignore[no-untyped-def]
    before = daemons.snippets()  # empty but for what the daemon needs to start (named: the zones file)
    keys, said = daemons.unreachable("ns-fv")
    daemons.write_resolvers(ns_fv=keys)
    refused = dns(run, daemons, "apply", "--resolvers", "all")
    assert refused.exit_code == 1
    assert said in refused.stdout, refused.stdout
    assert daemons.snippets() == before
    assert all(addresses(daemons, name) == [] for name in ("ns-ana", "ns-ana2"))


def _apply_command(lab: Lab) -> list[str]:
    return [sys.executable, "-m", "renamer", "dns", "apply", "--resolvers", "all", "--inventory",
            str(lab.inventory)]


def _without_ana(lab: Lab) -> dict[str, dict[str, object]]:
    """write_resolvers' keys once the site ana is out of the inventory: no DHCP for it (dnsmasq)."""
    return {name.replace("-", "_"): {"dhcp": [s for s in DHCP.get(name, []) if s != "ana"]}
            for name, instance in lab.instances.items() if getattr(instance, "backend", "") == "dnsmasq"}


def _hanging_apply(lab: Lab, remove_ana: bool = False) -> subprocess.Popen[bytes]:
    """Apply the old inventory, then start an apply of the new one that hangs at ns-fv (the last
    resolver) once it wrote there (the lab's hanging_test): every resolver is locked, and
    written, when this returns. `remove_ana`: the site ana is removed from the inventory too (the
    resolvers before ns-fv are done deleting its records)."""
    assert subprocess.run(_apply_command(lab), cwd=lab.root, capture_output=True).returncode == 0
    before = lab.written("ns-fv")
    move_gateway(lab)
    extra = _without_ana(lab) if remove_ana else {}
    if remove_ana:
        (lab.inventory / "sites" / "ana.yaml").unlink()
    lab.write_resolvers((), **{**extra, "ns_fv": {**extra.get("ns_fv", {}), **lab.hanging_test("ns-fv")}})
    apply = subprocess.Popen(_apply_command(lab), cwd=lab.root, stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 30
        now = lab.written("ns-fv")
        while now == before and time.monotonic() < deadline:
            time.sleep(0.05)
            now = lab.written("ns-fv")
        assert now != before, "the apply wrote at ns-fv"
        while True:  # and is done writing there (BIND: more than one file)
            time.sleep(0.2)
            now, then = lab.written("ns-fv"), now
            if now == then:
                return apply
    except BaseException:  # never left running past the lab (its reload would start a daemon again)
        apply.kill()
        apply.wait()
        raise


def _killed_midway(lab: Lab, remove_ana: bool = False) -> None:
    apply = _hanging_apply(lab, remove_ana)
    apply.kill()
    apply.wait()
    lab.write_resolvers((), **(_without_ana(lab) if remove_ana else {}))


def test_killed_then_rollback_serves_the_old_records(run, daemons: Lab) -> None:  # type: ignore[no-untyped-def]
    _killed_midway(daemons)
    refused = dns(run, daemons, "apply", "--resolvers", "all")
    assert refused.exit_code == 3 and "an earlier dns apply was interrupted" in refused.stderr
    rolled = dns(run, daemons, "apply", "--resolvers", "all", "--rollback")
    assert rolled.exit_code == 0, rolled.stdout
    assert serving_everywhere(daemons, OLD)


def test_killed_then_resume_serves_the_new_records(run, daemons: Lab) -> None:  # type: ignore[no-untyped-def]
    _killed_midway(daemons)
    resumed = dns(run, daemons, "apply", "--resolvers", "all", "--resume")
    assert resumed.exit_code == 0, resumed.stdout
    assert serving_everywhere(daemons, NEW)
    assert dns(run, daemons, "apply", "--resolvers", "all").stdout.count("unchanged") == len(daemons.instances)


@pytest.mark.parametrize("after", ["rollback", "resume"])
def test_killed_while_removing_a_site_then_rollback_puts_it_back_and_resume_removes_it(  # type: ignore[no-untyped-def]
        run, daemons: Lab, after: str) -> None:
    """The site ana removed from the inventory and the apply killed at ns-fv: ns-ana and ns-ana2
    no longer hold ana's records (its snippet gone, or its RRsets deleted), so no plan of theirs
    names it: only their backups do. --rollback puts ana back on every resolver; --resume too,
    then removes it again."""
    _killed_midway(daemons, remove_ana=True)
    assert addresses(daemons, "ns-ana", "ana-gw.ana.lan.") != ["10.250.0.1"]  # deleted there
    done = dns(run, daemons, "apply", "--resolvers", "all", f"--{after}")
    assert done.exit_code == 0, done.stdout + done.stderr
    if after == "rollback":
        assert serving_everywhere(daemons, OLD)
        assert all(addresses(daemons, name, "ana-gw.ana.lan.") == ["10.250.0.1"] for name in daemons.instances)
        assert "renamer-ana" in dns(run, daemons, "plan", "--resolvers", "all").stdout  # the next apply removes it
    else:
        assert serving_everywhere(daemons, NEW)
        assert all(addresses(daemons, name, "ana-gw.ana.lan.") != ["10.250.0.1"] for name in daemons.instances)
        assert dns(run, daemons, "apply", "--resolvers", "all").stdout.count("unchanged") == len(daemons.instances)


def test_two_applies_at_once_are_refused(run, daemons: Lab) -> None:  # type: ignore[no-untyped-def]
    first = _hanging_apply(daemons)
    try:
        during = daemons.snippets()
        second = dns(run, daemons, "apply", "--resolvers", "all")
        assert second.exit_code == 3
        assert "another dns apply holds the lock" in second.stderr
        assert daemons.snippets() == during  # the second wrote nothing
    finally:
        first.send_signal(signal.SIGTERM)  # the first rolls back what it changed
        assert first.wait(timeout=60) == 130
    daemons.write_resolvers()
    assert serving_everywhere(daemons, OLD)


def _canaries(lab: Lab) -> dict[tuple[str, str], tuple[str, ...]]:
    """(resolver, canary TXT name) -> the TXT values it serves, for every site it serves now."""
    loaded = inventory(lab)
    return _asked_again(lab, [(r.name, BACKENDS[r.backend].canary(site, r)[0]) for r in loaded.resolvers
                              for site in loaded.sites if site.name in r.sites])


def _asked_again(lab: Lab, names: list[tuple[str, str]]) -> dict[tuple[str, str], tuple[str, ...]]:
    """What each (resolver, TXT name) answers now, asked over DNS."""
    by_name = {r.name: r for r in inventory(lab).resolvers}
    out = {}
    for owner, name in names:
        try:
            answer = dnspython_querier(by_name[owner])(f"{name}.", "TXT")
        except NoAnswer:
            out[(owner, name)] = ("no answer",)
            continue
        out[(owner, name)] = tuple(sorted(v for kind, v in answer.records if kind == "TXT"))
    return out


@pytest.mark.parametrize("remove_ana", [False, True], ids=["moved", "site-removed"])
def test_a_commit_confirmed_apply_not_confirmed_reverts_on_the_resolver_itself(  # type: ignore[no-untyped-def]
        run, daemons: Lab, remove_ana: bool) -> None:
    """`--confirm-within 10s` (counted from each resolver's arm, before its first write) and no
    `dns confirm`: the revert left on each resolver's machine restores the backup (a removed site's files or zones too), reactivates the daemon and releases
    the lock; each resolver then serves the old records and the old canaries. An API backend
    (PowerDNS) has no machine to leave it on: refused, exit 3, nothing written."""
    assert dns(run, daemons, "apply", "--resolvers", "all").exit_code == 0
    before = _canaries(daemons)
    move_gateway(daemons)
    if remove_ana:
        (daemons.inventory / "sites" / "ana.yaml").unlink()
        daemons.write_resolvers((), **_without_ana(daemons))
    result = dns(run, daemons, "apply", "--resolvers", "all", "--force", "--confirm-within", "10s")
    if inventory(daemons).resolvers[0].backend == "powerdns":
        assert result.exit_code == 3, result.stdout + result.stderr
        assert "--confirm-within needs a revert that runs on the resolver's own machine" in result.stderr
        assert serving_everywhere(daemons, OLD) and _asked_again(daemons, list(before)) == before
        status = dns(run, daemons, "status", "--format", "json")  # its lock is on the server: said, not read
        assert status.exit_code == 0, status.stdout
        assert {r["state"] for r in json.loads(status.stdout)["resolvers"]} == {"not read"}
        assert "X-RENAMER-LOCK" in dns(run, daemons, "status").stdout
        return
    assert result.exit_code == 0, result.stdout + result.stderr
    assert serving_everywhere(daemons, NEW)
    assert _asked_again(daemons, list(before)) != before
    locks = daemons.root / "backups"
    end = time.monotonic() + 60
    while list(locks.glob("*/renamer-apply.lock")) and time.monotonic() < end:
        time.sleep(0.2)
    assert not list(locks.glob("*/renamer-apply.lock")), "each revert released its lock"
    if inventory(daemons).resolvers[0].backend == "bind":  # its zones went back with the serial moved past
        assert list(locks.glob("*/*/renamer-*.zone.revert")), sorted(locks.rglob("*"))
    end = time.monotonic() + 15  # named loads a reloaded zone after rndc returns
    while not (serving_everywhere(daemons, OLD) and _asked_again(daemons, list(before)) == before) \
            and time.monotonic() < end:
        time.sleep(0.2)
    assert serving_everywhere(daemons, OLD)
    assert _asked_again(daemons, list(before)) == before  # the old canaries: the backups are served
    if remove_ana:
        assert all(addresses(daemons, name, "ana-gw.ana.lan.") == ["10.250.0.1"] for name in daemons.instances)
    again = dns(run, daemons, "apply", "--resolvers", "all", "--force")  # nothing left half-done
    assert again.exit_code == 0, again.stdout + again.stderr
    assert serving_everywhere(daemons, NEW)
