"""The Ansible path for PowerDNS: `dns apply --engine ansible` and `dns export ansible` with a
PowerDNS resolver, real ansible-playbook against a real pdns_server on loopback (and a real
dnsmasq beside it: one mixed fleet). The playbook talks to the API from the control node; each
assertion on what the servers ANSWER over DNS, and on the RRsets the API holds."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from renamer.dns.dnsmasq import sandbox
from renamer.dns.load import load_sites
from renamer.dns.powerdns import rrsets
from renamer.dns.powerdns.ansible import site_entry, state
from renamer.dns.powerdns.transport import snippet_name
from renamer.shipped import shipped
from tests.dns.powerdns.test_cli_powerdns import Fleet, both, dns
from tests.testing import powerdns
from tests.testing.resolvers import answers, move_gateway

PLUGIN = Path(__file__).resolve().parents[3] / "renamer/dns/playbook/filter_plugins/renamer_powerdns.py"


def _plugin() -> Any:
    spec = importlib.util.spec_from_file_location("renamer_powerdns_filters", PLUGIN)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def fleet(tmp_path: Path) -> Iterator[Fleet]:
    started = Fleet(tmp_path / "lab")
    try:
        for zone in powerdns.lab_zones():
            started.server.create_zone(zone)
        started.write_resolvers()
        sandbox.start(started.dnsmasq.folder)
        yield started
    finally:
        started.stop()


def owned(fleet: Fleet) -> dict[str, list[str]]:
    """The RRsets on the server but the SOA and NS (what renamer writes, and hand-written ones)."""
    return {key: value for key, value in fleet.rrsets().items() if not key.endswith(" NS")}


def comments(server: powerdns.Server, zone: str = "fv.lan") -> dict[str, list[Any]]:
    """Each RRset's comments (not their modified_at: a PATCH that puts one back stamps it anew), and
    its records with their disabled flag."""
    return {f"{rr['name']} {rr['type']}": [[(c["account"], c["content"]) for c in rr.get("comments", [])],
                                            sorted((r["content"], r["disabled"]) for r in rr["records"]), rr["ttl"]]
            for rr in server.client().zone(zone)["rrsets"] if rr["type"] not in ("SOA", "NS")}


def ask(server: powerdns.Server, name: str, rdtype: str = "A") -> tuple[str, ...]:
    """What one PowerDNS server answers over DNS (its own port), sorted."""
    return answers(_One(server), name, rdtype)["one"]  # type: ignore[arg-type]


class _One:
    def __init__(self, server: powerdns.Server) -> None:
        self.instances = {"one": server}


def copy_zones(source: powerdns.Server, target: powerdns.Server) -> None:
    """The RRsets (but SOA and NS) of every lab zone, from one server to another, comments too."""
    for zone in powerdns.lab_zones():
        body = [{"name": rr["name"], "type": rr["type"], "ttl": rr["ttl"], "changetype": "REPLACE",
                 "records": rr["records"], "comments": rr.get("comments", [])}
                for rr in source.client().zone(zone)["rrsets"] if rr["type"] not in ("SOA", "NS")]
        target.client().patch(zone, body)


@pytest.fixture
def elsewhere(tmp_path: Path) -> Iterator[powerdns.Server]:
    """A second pdns_server holding the lab's zones: where the resolver's DNS `port` is pointed to
    make the verify after an apply fail (the API writes one server, DNS asks another)."""
    server = powerdns.start(tmp_path / "elsewhere")
    try:
        for zone in powerdns.lab_zones():
            server.create_zone(zone)
        yield server
    finally:
        server.stop()


def test_the_ansible_engine_applies_and_a_failed_verify_rolls_back_what_it_wrote(
        run: Callable[..., Any], fleet: Fleet, elsewhere: powerdns.Server) -> None:
    """A mixed fleet (a real dnsmasq, a real pdns_server) through `dns apply --engine ansible`: the
    records are served by both, the zone locks given back; a verify that fails (DNS asked at
    another server) rolls the PowerDNS resolver back: a first apply leaves none of its RRsets
    (the outside pass's "rolled back" that still served the new records), a later one puts the
    old RRsets back, comments and all, and the server answers the old address again."""
    before = owned(fleet)
    fleet.write_resolvers(port=elsewhere.port)  # verify asks an empty server: the first apply fails
    first = dns(run, fleet, "apply", "--resolvers", "ns-pdns", "--engine", "ansible")
    assert first.exit_code == 1, first.stdout + first.stderr
    assert "rolled back" in first.stdout, first.stdout
    assert owned(fleet) == before  # nothing of the apply's is left on the server
    assert ask(fleet.server, "fv-gw.fv.lan.") == () and ask(fleet.server, "_renamer.fv.fv.lan.", "TXT") == ()
    assert fleet.server.client().metadata("fv.lan") == []  # the zone locks given back

    fleet.write_resolvers()
    applied = dns(run, fleet, "apply", "--resolvers", "all", "--engine", "ansible")
    assert applied.exit_code == 0, applied.stdout + applied.stderr
    assert both(fleet, "fv-gw.fv.lan.") == {"ns-ana": ("10.251.0.1",), "ns-pdns": ("10.251.0.1",)}
    assert both(fleet, "54.50.251.10.in-addr.arpa.", "PTR")["ns-pdns"] == ("fv-ml1.fv.lan.",)
    assert both(fleet, "scriberr.fv.lan.", "CNAME")["ns-pdns"] == ("fv-ml1.fv.lan.",)
    assert comments(fleet.server)["fv-gw.fv.lan. A"][0] == [("renamer", "renamer site fv")]
    assert dns(run, fleet, "verify", "--resolvers", "all").exit_code == 0
    assert dns(run, fleet, "plan", "--resolvers", "all", "--expect-no-changes").exit_code == 0
    assert all(fleet.server.client().metadata(zone) == [] for zone in powerdns.lab_zones())
    folder = next((fleet.root / "backups" / "ns-pdns").glob("ns-pdns-*"))
    assert {p.name for p in folder.iterdir()} == {"ABSENT", "powerdns-zones.json"}  # a first apply's

    again = dns(run, fleet, "apply", "--resolvers", "all", "--engine", "ansible")
    assert again.exit_code == 0, again.stdout + again.stderr
    assert "unchanged" in again.stdout or "not touched" in again.stdout, again.stdout

    # The gateway moves; DNS is asked at a server that still serves the old records: the verify
    # fails there, and the PATCH is undone on the server the API wrote.
    copy_zones(fleet.server, elsewhere)
    applied_state = owned(fleet)
    move_gateway(fleet)  # type: ignore[arg-type]
    fleet.write_resolvers(port=elsewhere.port)
    failed = dns(run, fleet, "apply", "--resolvers", "ns-pdns", "--engine", "ansible")
    assert failed.exit_code == 1, failed.stdout + failed.stderr
    assert "rolled back" in failed.stdout and "Verify | check the resolver serves the records" in failed.stdout, failed.stdout
    assert owned(fleet) == applied_state  # every RRset as it was, the canary included
    assert comments(fleet.server)["fv-gw.fv.lan. A"][0] == [("renamer", "renamer site fv")]
    assert ask(fleet.server, "fv-gw.fv.lan.") == ("10.251.0.1",)
    assert ask(fleet.server, "2.0.251.10.in-addr.arpa.", "PTR") == ()
    assert all(fleet.server.client().metadata(zone) == [] for zone in powerdns.lab_zones())
    assert not (fleet.root / "backups" / "ns-pdns" / "renamer-apply-pending").exists()
    assert not (fleet.root / "backups" / "ns-pdns" / "renamer-apply.lock").exists()
    assert any(p.name == "renamer-fv.rrsets" for f in (fleet.root / "backups" / "ns-pdns").glob("ns-pdns-*")
               for p in f.iterdir())  # the built-in engine's backup: `--resume` reads it

    # A PATCH the server never takes (the read-back, the backend's test, fails): rolled back too.
    fleet.proxy = powerdns.Proxy(fleet.server.url, "swallow")
    fleet.write_resolvers(api=fleet.proxy.url)
    swallowed = dns(run, fleet, "apply", "--resolvers", "ns-pdns", "--engine", "ansible")
    assert swallowed.exit_code == 1, swallowed.stdout + swallowed.stderr
    assert "does not hold what was written" in swallowed.stdout, swallowed.stdout
    assert owned(fleet) == applied_state and ask(fleet.server, "fv-gw.fv.lan.") == ("10.251.0.1",)
    assert powerdns.KEY not in swallowed.stdout + swallowed.stderr

    fleet.write_resolvers()
    moved = dns(run, fleet, "apply", "--resolvers", "all", "--engine", "ansible")
    assert moved.exit_code == 0, moved.stdout + moved.stderr
    assert both(fleet, "fv-gw.fv.lan.") == {"ns-ana": ("10.251.0.2",), "ns-pdns": ("10.251.0.2",)}
    assert ask(fleet.server, "2.0.251.10.in-addr.arpa.", "PTR") == ("fv-gw.fv.lan.",)
    assert ask(fleet.server, "1.0.251.10.in-addr.arpa.", "PTR") == ()


FOREIGN = json.dumps({"host": "ops-laptop", "pid": 4242, "user": "alice", "started": "2026-12-05T20:00:00Z"})


def test_a_hand_run_of_the_export_reads_the_key_from_its_variable_and_stops_at_a_zone_lock(
        run: Callable[..., Any], fleet: Fleet, tmp_path: Path) -> None:
    """`dns export ansible` then `ansible-playbook playbook.yml` by hand, the key in an environment
    variable (never in the export): a zone locked by another operator stops the run, naming the
    holder, nothing written, the other's entry kept and none of this run's left; once it is gone,
    the run applies; an export older than the server (applied since) is refused."""
    fleet.write_resolvers(api_key_env="PDNS_TEST_KEY", api_key_file=None)
    entry = json.loads((fleet.inventory / "resolvers.yaml").read_text().splitlines()[-1][4:])
    entry.pop("api_key_file")
    lines = (fleet.inventory / "resolvers.yaml").read_text().splitlines()
    (fleet.inventory / "resolvers.yaml").write_text("\n".join([*lines[:-1], f"  - {json.dumps(entry)}"]) + "\n")
    os.environ["PDNS_TEST_KEY"] = powerdns.KEY
    try:
        folder = tmp_path / "export"
        exported = dns(run, fleet, "export", "ansible", "--out", str(folder), "--resolvers", "ns-pdns")
        assert exported.exit_code == 0, exported.stdout + exported.stderr
        text = "".join(p.read_text() for p in folder.rglob("*") if p.is_file() and p.suffix in (".yml", ".cfg"))
        assert powerdns.KEY not in text and "PDNS_TEST_KEY" in text
        before = owned(fleet)
        fleet.server.client().add_metadata("fv.lan", FOREIGN)
        held = playbook(folder)
        assert held.returncode != 0, held.stdout[-3000:]
        assert "fv.lan. on http" in held.stdout and "is locked (metadata X-RENAMER-LOCK) by alice@ops-laptop pid 4242" \
            in held.stdout, held.stdout[-3000:]
        assert owned(fleet) == before and fleet.server.client().metadata("fv.lan") == [FOREIGN]
        assert all(fleet.server.client().metadata(z) == [] for z in powerdns.lab_zones() if z != "fv.lan.")
        assert powerdns.KEY not in held.stdout + held.stderr
        fleet.server.client().set_metadata("fv.lan", [])

        done = playbook(folder)
        assert done.returncode == 0, done.stdout[-3000:]
        assert ask(fleet.server, "fv-gw.fv.lan.") == ("10.251.0.1",)
        assert powerdns.KEY not in done.stdout + done.stderr

        # The same export again: the server holds what it writes: unchanged. An export older than a
        # change made since (the gateway moved by the built-in engine) is refused, nothing written.
        assert playbook(folder).returncode == 0
        move_gateway(fleet)  # type: ignore[arg-type]
        assert dns(run, fleet, "apply", "--resolvers", "ns-pdns").exit_code == 0
        moved = owned(fleet)
        site = fleet.inventory / "sites" / "fv.yaml"
        site.write_text(site.read_text().replace("address: 10.251.0.2", "address: 10.251.0.1"))
        outdated = playbook(folder)  # exported when the gateway was 10.251.0.1, and no record yet
        assert outdated.returncode != 0 and "this export is outdated" in outdated.stdout, outdated.stdout[-3000:]
        assert owned(fleet) == moved
        assert all(fleet.server.client().metadata(z) == [] for z in powerdns.lab_zones())
    finally:
        os.environ.pop("PDNS_TEST_KEY", None)


def playbook(folder: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "ANSIBLE_CONFIG": str(folder / "ansible.cfg"), "ANSIBLE_NOCOLOR": "1"}
    return subprocess.run([str(Path(sys.executable).parent / "ansible-playbook"), "playbook.yml"], cwd=folder,
                          env=env, capture_output=True, text=True, check=False, timeout=600)


# ---- the filter the playbook compares with, against the export's own view ---------------------

def _site() -> Any:
    return next(s for s in load_sites(shipped("dns")) if s.name == "fv")


@pytest.mark.parametrize("rr", [
    None,
    {"name": "a.fv.lan.", "type": "A", "ttl": 300, "records": [{"content": "10.251.0.9", "disabled": False}]},
    {"name": "a.fv.lan.", "type": "A", "ttl": 60, "records": [{"content": "10.251.0.9", "disabled": False},
                                                            {"content": "10.251.0.1", "disabled": False},
                                                            {"content": "10.251.0.5", "disabled": True}],
     "comments": [{"content": "renamer site fv", "account": "renamer"}]},
    {"name": "a.fv.lan.", "type": "A", "ttl": 300, "records": [],
     "comments": [{"content": "renamer site fv", "account": "alice"}]},
    {"name": "a.fv.lan.", "type": "A", "ttl": 300, "records": [{"content": "10.251.0.9"}],
     "comments": [{"content": "renamer site ana", "account": "renamer"}]},
])
def test_the_filter_sees_an_rrset_as_the_export_does(rr: dict[str, Any] | None) -> None:
    assert _plugin()._state(rr, rrsets.tag(_site())) == state(rr, _site())


def test_the_filter_tells_want_had_and_outdated_apart() -> None:
    """A site's keys all as written: want; all as exported: had; a mix, a value neither, or an RRset
    of the site's the export never read: outdated, naming it."""
    site, plugin = _site(), _plugin()
    empty = {zone: {"rrsets": []} for zone in rrsets.zones(site)}
    entry = site_entry(site, snippet_name(site), rrsets.render(rrsets.desired(site)), False, empty)
    assert plugin.compare(empty, [entry]) == ["had"]
    written = {zone: {"rrsets": [{"name": rr.name, "type": rr.type, "ttl": rr.ttl,
                                  "records": [{"content": c, "disabled": False} for c in rr.records],
                                  "comments": [{"content": rrsets.tag(site), "account": "renamer"}]}
                                 for rr in found.values()]} for zone, found in rrsets.desired(site).items()}
    assert plugin.compare(written, [entry]) == ["want"]
    assert plugin.unrestored(written, empty, [entry]) and not plugin.unrestored(empty, empty, [entry])
    assert plugin.restore(empty, empty, [entry]) == {}
    undo = plugin.restore(written, empty, [entry])
    assert all(rr["changetype"] == "DELETE" for body in undo.values() for rr in body)
    assert sum(len(body) for body in undo.values()) == len(entry["keys"])
    half = {**written, "fv.lan.": empty["fv.lan."]}
    assert plugin.compare(half, [entry])[0].startswith("outdated: renamer-fv.rrsets: ")
    other = {**written, "fv.lan.": {"rrsets": [*written["fv.lan."]["rrsets"], {
        "name": "new.fv.lan.", "type": "A", "ttl": 300, "records": [{"content": "10.251.9.9"}],
        "comments": [{"content": rrsets.tag(site), "account": "renamer"}]}]}}
    assert plugin.compare(other, [entry]) == [
        "outdated: renamer-fv.rrsets: fv.lan.: new.fv.lan. A 10.251.9.9, written since"]
    assert plugin.holder(FOREIGN) == "alice@ops-laptop pid 4242, since 2026-12-05T20:00:00Z"
    assert plugin.holder("not json") == "an unreadable holder"
    assert plugin.without({"metadata": [FOREIGN, "mine"]}, "mine") == [FOREIGN]
    first, second, dropped = ({"json": {"metadata": v}} for v in (["mine", FOREIGN], [FOREIGN, "mine"], [FOREIGN]))
    assert plugin.contested([first], "mine") is None  # this run's entry came first: it holds
    assert plugin.contested([first, second], "mine") is second and plugin.contested([dropped], "mine") is dropped
