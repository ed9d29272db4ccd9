"""The PowerDNS API backend against a real pdns_server on loopback: plan, apply, the answers
asked over DNS, a rename, the backup and its rollback, refusals, and the lock in zone metadata."""

from __future__ import annotations

import dataclasses
import ipaddress
import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from dns import message as dns_message
from dns import query as dns_query
from dns import rcode as dns_rcode
from renamer.dns import lock as local_lock
from renamer.dns.inventory import Site
from renamer.dns.load import load_sites
from renamer.dns.powerdns import ops, rrsets
from renamer.dns.powerdns.api import ApiError, Client
from renamer.errors import UnsafeError
from renamer.shipped import shipped
from tests.testing.powerdns import Server


def fv() -> Site:
    return next(s for s in load_sites(shipped("dns")) if s.name == "fv")


def ask(server: Server, name: str, rdtype: str) -> tuple[str, list[str]]:
    """(rcode, answers as text) straight from the server over UDP."""
    reply = dns_query.udp(dns_message.make_query(name, rdtype), server.address, port=server.port, timeout=3)
    return dns_rcode.to_text(reply.rcode()), sorted(r.to_text() for rrset in reply.answer
                                                    if rrset.rdtype == dns_message.dns.rdatatype.from_text(rdtype)
                                                    for r in rrset)


def hand_written(server: Server, zone: str, name: str, rdtype: str, content: str) -> None:
    server.client().patch(zone, [{"name": name, "type": rdtype, "ttl": 3600, "changetype": "REPLACE",
                                  "records": [{"content": content, "disabled": False}]}])


def test_apply_serves_the_site_over_dns_and_a_second_plan_is_empty(pdns: Server, tmp_path: Path) -> None:
    site, client = fv(), pdns.client()
    hand_written(pdns, "fv.lan.", "printer.fv.lan.", "A", "10.251.9.9")  # not renamer's
    plan, _ = ops.plan_site(client, site)
    assert not plan.conflicts and all(c.action == "REPLACE" and not c.before for c in plan.changes)
    applied = ops.apply_site(client, site, tmp_path / "backups")
    assert applied.backup is not None and applied.backup.parent == tmp_path / "backups"
    assert ask(pdns, "fv-ml1.fv.lan.", "A") == ("NOERROR", ["10.251.50.54"])
    assert ask(pdns, "54.50.251.10.in-addr.arpa.", "PTR") == ("NOERROR", ["fv-ml1.fv.lan."])
    assert ask(pdns, "scriberr.fv.lan.", "CNAME") == ("NOERROR", ["fv-ml1.fv.lan."])
    name, digest = rrsets.canary(site, rrsets.desired(site))
    assert ask(pdns, name, "TXT") == ("NOERROR", [f'"{digest}"'])
    assert ask(pdns, "printer.fv.lan.", "A") == ("NOERROR", ["10.251.9.9"])  # untouched
    again, _ = ops.plan_site(client, site)
    assert again.changes == [] and again.conflicts == []
    assert ops.apply_site(client, site, tmp_path / "backups").steps == ["nothing to change"]


def test_a_rename_deletes_the_old_name_and_keeps_hand_written_records(pdns: Server, tmp_path: Path) -> None:
    site, client = fv(), pdns.client()
    hand_written(pdns, "fv.lan.", "printer.fv.lan.", "A", "10.251.9.9")
    ops.apply_site(client, site, tmp_path / "backups")
    renamed = dataclasses.replace(site, hosts=tuple(
        dataclasses.replace(h, name="fv-router", address=h.address + 1) if h.name == "fv-gw" else h
        for h in site.hosts))
    plan, _ = ops.plan_site(client, renamed)
    shown = [c.shown() for c in plan.changes]
    assert "fv.lan.: delete fv-gw.fv.lan. A 10.251.0.1" in shown
    assert "fv.lan.: fv-router.fv.lan. A 10.251.0.2" in shown
    ops.apply_site(client, renamed, tmp_path / "backups")
    assert ask(pdns, "fv-gw.fv.lan.", "A")[0] == "NXDOMAIN"
    assert ask(pdns, "fv-router.fv.lan.", "A") == ("NOERROR", ["10.251.0.2"])
    assert ask(pdns, "1.0.251.10.in-addr.arpa.", "PTR")[0] == "NXDOMAIN"
    assert ask(pdns, "2.0.251.10.in-addr.arpa.", "PTR") == ("NOERROR", ["fv-router.fv.lan."])
    assert ask(pdns, "printer.fv.lan.", "A") == ("NOERROR", ["10.251.9.9"])


def test_the_rollback_puts_back_the_rrsets_as_fetched(pdns: Server, tmp_path: Path) -> None:
    site, client = fv(), pdns.client()
    # a hand-written record at a name renamer will write, with the same contents: adopted
    hand_written(pdns, "fv.lan.", "fv-gw.fv.lan.", "A", "10.251.0.1")
    before = {zone: client.zone(zone)["rrsets"] for zone in rrsets.zones(site)}
    applied = ops.apply_site(client, site, tmp_path / "backups")
    assert applied.backup is not None
    saved = json.loads(applied.backup.read_text())
    assert saved["zones"] == before and ["fv.lan.", "fv-gw.fv.lan.", "A"] in saved["changed"]
    assert ask(pdns, "fv-ml1.fv.lan.", "A")[1] == ["10.251.50.54"]
    steps = ops.roll_back(client, applied.backup)
    assert [s.split(":")[0] for s in steps] == ["fv.lan.", "251.10.in-addr.arpa."]
    after = {zone: client.zone(zone)["rrsets"] for zone in rrsets.zones(site)}
    assert _no_soa(after) == _no_soa(before)  # the comments too: fv-gw's is the hand-written one again
    assert ask(pdns, "fv-ml1.fv.lan.", "A")[0] == "NXDOMAIN"
    assert ask(pdns, "fv-gw.fv.lan.", "A") == ("NOERROR", ["10.251.0.1"])


def _no_soa(zones: dict[str, list[dict[str, Any]]]) -> dict[str, list[dict[str, Any]]]:
    return {zone: sorted((rr for rr in found if rr["type"] != "SOA"), key=lambda rr: (rr["name"], rr["type"]))
            for zone, found in zones.items()}


def test_a_zone_missing_on_the_server_is_refused_and_nothing_written(pdns: Server, tmp_path: Path) -> None:
    site, client = fv(), pdns.client()
    client.call("DELETE", "/zones/251.10.in-addr.arpa.")
    with pytest.raises(UnsafeError, match=r"zone 251\.10\.in-addr\.arpa\. is not on server localhost"):
        ops.apply_site(client, site, tmp_path / "backups")
    assert [rr["type"] for rr in client.zone("fv.lan.")["rrsets"]] in (["SOA", "NS"], ["NS", "SOA"])
    assert not (tmp_path / "backups").exists()
    with pytest.raises(UnsafeError, match="is not on server other"):  # a wrong server_id: the same refusal
        ops.apply_site(Client(pdns.url, "renamer-test-key", "other"), site, tmp_path / "backups")


@pytest.mark.parametrize(("name", "rdtype", "content", "why"), [
    ("fv-gw.fv.lan.", "A", "10.251.0.99", "is not renamer's"),  # another address where renamer writes
    ("scriberr.fv.lan.", "TXT", '"hand"', "beside the CNAME"),  # a CNAME must stand alone
    ("fv-gw.fv.lan.", "CNAME", "elsewhere.fv.lan.", "beside the A"),
])
def test_an_rrset_in_the_way_is_refused_before_anything_is_written(pdns: Server, tmp_path: Path, name: str,
                                                                   rdtype: str, content: str, why: str) -> None:
    site, client = fv(), pdns.client()
    hand_written(pdns, "fv.lan.", name, rdtype, content)
    before = client.zone("fv.lan.")["rrsets"]
    with pytest.raises(UnsafeError, match=why):
        ops.apply_site(client, site, tmp_path / "backups")
    assert client.zone("fv.lan.")["rrsets"] == before
    assert ask(pdns, "fv-ml1.fv.lan.", "A")[0] == "NXDOMAIN"


def test_a_patch_failing_midway_rolls_back_the_zones_already_patched(pdns: Server, tmp_path: Path) -> None:
    site = fv()

    @dataclasses.dataclass(frozen=True)
    class Failing(Client):
        def patch(self, zone: str, body: list[dict[str, Any]]) -> None:
            if zone.endswith("in-addr.arpa.") and any(r["changetype"] == "REPLACE" and r["type"] == "PTR"
                                                      for r in body):
                raise ApiError(f"PATCH /zones/{zone}: HTTP 500: injected", 500)
            super().patch(zone, body)

    client = Failing(pdns.url, "renamer-test-key")
    with pytest.raises(UnsafeError, match=r"injected; rolled back fv\.lan\."):
        ops.apply_site(client, site, tmp_path / "backups")
    assert ask(pdns, "fv-ml1.fv.lan.", "A")[0] == "NXDOMAIN"
    assert not [rr for rr in pdns.client().zone("fv.lan.")["rrsets"] if rr["comments"]]


def test_two_operators_locks_collide_on_the_server(pdns: Server, tmp_path: Path) -> None:
    site, client = fv(), pdns.client()
    zones = rrsets.zones(site)
    other = json.dumps({"host": "ops-laptop", "pid": 4242, "user": "alice", "machine": "elsewhere",
                        "boot": "b", "pid_start": "1", "started": "2026-12-05T12:00:00+00:00"})
    client.add_metadata("fv.lan.", other)  # another operator, on another machine, holds fv.lan.
    refused = r"fv\.lan\. on .* is locked .* by alice@ops-laptop pid 4242"
    with pytest.raises(UnsafeError, match=refused), ops.locked(client, zones):
        pass
    assert client.metadata("251.10.in-addr.arpa.") == []  # the one taken before was given back
    assert client.metadata("fv.lan.") == [other]
    client.set_metadata("fv.lan.", [])
    with ops.locked(client, zones):
        assert all(len(client.metadata(z)) == 1 for z in zones)
        with pytest.raises(UnsafeError, match="is locked"), ops.locked(Client(pdns.url, "renamer-test-key"), zones):
            pass  # a second apply, the same machine: refused too
        assert all(len(client.metadata(z)) == 1 for z in zones)
    assert all(client.metadata(z) == [] for z in zones)


def test_an_apply_is_refused_while_another_holds_the_lock_and_takes_over_one_provably_gone(
        pdns: Server, tmp_path: Path) -> None:
    site, client = fv(), pdns.client()
    other = json.dumps({"host": "ops-laptop", "pid": 4242, "user": "alice"})
    client.add_metadata("251.10.in-addr.arpa.", other)
    with pytest.raises(UnsafeError, match=r"251\.10\.in-addr\.arpa\. on .* is locked .* alice@ops-laptop"):
        ops.apply_site(client, site, tmp_path / "backups")
    assert ask(pdns, "fv-ml1.fv.lan.", "A")[0] == "NXDOMAIN" and not (tmp_path / "backups").exists()
    assert client.metadata("fv.lan.") == []  # the lock taken first was given back
    dead = subprocess.Popen(["true"])
    dead.wait()
    killed = dict(json.loads(local_lock._holder()), pid=dead.pid, pid_start="1")  # this machine, gone
    client.set_metadata("251.10.in-addr.arpa.", [json.dumps(killed)])
    applied = ops.apply_site(client, site, tmp_path / "backups")
    assert applied.steps[0].startswith("251.10.in-addr.arpa.: took over the lock of ")
    assert ask(pdns, "fv-ml1.fv.lan.", "A") == ("NOERROR", ["10.251.50.54"])
    assert all(client.metadata(z) == [] for z in rrsets.zones(site))


def test_a_dual_stack_site_gets_aaaa_and_ip6_arpa_ptrs(pdns: Server, tmp_path: Path) -> None:
    site = fv()
    network6 = ipaddress.ip_network("fd00:251::/48")
    dual = dataclasses.replace(site, network6=network6, hosts=tuple(
        dataclasses.replace(h, address6=network6[int(h.address) & 0xFFFF]) for h in site.hosts))
    assert rrsets.zones(dual)[-1] == "0.0.0.0.1.5.2.0.0.0.d.f.ip6.arpa."
    pdns.create_zone("0.0.0.0.1.5.2.0.0.0.d.f.ip6.arpa.")
    ops.apply_site(pdns.client(), dual, tmp_path / "backups")
    address6 = next(h.address6 for h in dual.hosts if h.name == "fv-ml1")
    assert address6 is not None
    assert ask(pdns, "fv-ml1.fv.lan.", "AAAA") == ("NOERROR", [str(address6)])
    assert ask(pdns, address6.reverse_pointer + ".", "PTR") == ("NOERROR", ["fv-ml1.fv.lan."])
    assert ask(pdns, "fv-ml1.fv.lan.", "A") == ("NOERROR", ["10.251.50.54"])


def test_the_view_of_the_zones_is_the_rendering_exactly_when_nothing_is_to_change(pdns: Server,
                                                                                   tmp_path: Path) -> None:
    site, client = fv(), pdns.client()
    hand_written(pdns, "fv.lan.", "fv-gw.fv.lan.", "A", "10.251.0.1")  # already right: no change needed
    hand_written(pdns, "fv.lan.", "printer.fv.lan.", "A", "10.251.9.9")  # not the site's: never in view
    wanted = rrsets.render(rrsets.desired(site))

    def view() -> str:
        return rrsets.view(site, ops.fetch(client, rrsets.zones(site)))

    assert view() == "; zone fv.lan.\nfv-gw.fv.lan. 300 IN A 10.251.0.1\n; zone 251.10.in-addr.arpa.\n"
    ops.apply_site(client, site, tmp_path / "backups")
    assert view() == wanted and ops.plan_site(client, site)[0].changes == []
    hand_written(pdns, "fv.lan.", "fv-ml1.fv.lan.", "A", "10.251.50.99")  # a hand edit of an owned RRset
    assert view() != wanted and len(ops.plan_site(client, site)[0].changes) == 1
    assert rrsets.parse(wanted) == rrsets.desired(site)
