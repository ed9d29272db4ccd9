"""What kind of zone renamer writes into on a real pdns_server (DNS break-it round 2, findings 08
and 14): a secondary zone (kind Slave/Secondary, Consumer) is refused before any write, exit 3,
naming the resolver, server and zone; a primary zone whose soa_edit_api is empty (its SOA serial
never moves on a PATCH, so its secondaries never transfer the change) is refused unless the
resolver opts in (`allow_unchanged_serial: true`), and plan says so either way."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.dns.powerdns.test_cli_powerdns import Fleet, dns
from tests.testing import powerdns
from tests.testing.resolvers import answers, move_gateway


@pytest.fixture
def fleet(tmp_path: Path) -> Iterator[Fleet]:
    """ns-pdns alone, serving fv; its zones made here, per test."""
    started = Fleet(tmp_path / "lab")
    try:
        (started.inventory / "sites" / "ana.yaml").unlink()
        started.write_resolvers()
        lines = (started.inventory / "resolvers.yaml").read_text().splitlines()
        (started.inventory / "resolvers.yaml").write_text("\n".join(
            [lines[0], *(line for line in lines if '"ns-pdns"' in line)]) + "\n")
        yield started
    finally:
        started.stop()


def _zones(fleet: Fleet, **fv: object) -> None:
    client = fleet.server.client()
    client.call("POST", "/zones", {"name": "251.10.in-addr.arpa.", "kind": "Native",
                                   "nameservers": ["ns1.fv.lan."]})
    if fv.get("kind") in ("Slave", "Secondary", "Consumer"):  # as a first transfer leaves it: SOA and NS
        client.call("POST", "/zones", {"name": "fv.lan.", **fv})
        client.patch("fv.lan.", [{"name": "fv.lan.", "type": t, "ttl": 300, "changetype": "REPLACE",
                                  "records": [{"content": c, "disabled": False}]}
                                 for t, c in (("SOA", "ns1.fv.lan. hostmaster.fv.lan. 2026010100 3600 600 604800 300"),
                                              ("NS", "ns1.fv.lan."))])
    else:
        client.call("POST", "/zones", {"name": "fv.lan.", "nameservers": ["ns1.fv.lan."], **fv})


def _serial(fleet: Fleet) -> int:
    found = answers(fleet, "fv.lan.", "SOA", "ns-pdns")["ns-pdns"]  # type: ignore[arg-type]
    return int(found[0].split()[2])


def _write_entry(fleet: Fleet, **extra: object) -> None:
    (fleet.inventory / "resolvers.yaml").write_text(f"resolvers:\n  - {json.dumps(fleet.pdns_entry(**extra))}\n")


@pytest.mark.parametrize("kind", ["Slave", "Secondary", "Consumer"])
def test_a_secondary_zone_is_refused_before_any_write(run: Callable[..., Any], fleet: Fleet, kind: str) -> None:
    """Finding 14: its content belongs to its primary (a transfer would wipe renamer's records, or a
    serial bumped past the primary's would stop the transfers)."""
    _zones(fleet, kind=kind, masters=["127.0.0.1:1"])
    _write_entry(fleet)
    before = fleet.rrsets()
    planned = dns(run, fleet, "plan", "--resolvers", "all")
    assert planned.exit_code == 1, planned.stdout + planned.stderr
    refused = dns(run, fleet, "apply", "--resolvers", "all")
    assert refused.exit_code == 3, refused.stdout + refused.stderr
    held = fleet.server.client().zone("fv.lan.")["kind"]  # PowerDNS 4.7 reports Secondary as Slave
    assert held in (kind, "Slave")
    assert refused.stderr.startswith(f"renamer: error: ns-pdns: zone fv.lan. on server localhost at "
                                     f"{fleet.server.url} is a secondary zone (kind {held}"), refused.stderr
    assert "write to its primary" in refused.stderr and refused.stderr.endswith("; nothing written\n")
    assert fleet.rrsets() == before


def test_an_empty_soa_edit_api_on_a_primary_zone_is_refused_unless_opted_in(run: Callable[..., Any],
                                                                            fleet: Fleet) -> None:
    """Finding 08: PowerDNS moves the SOA serial on an API PATCH only when the zone's soa_edit_api
    is set; with it empty the secondaries of this primary never see renamer's change."""
    _zones(fleet, kind="Master", soa_edit_api="")
    _write_entry(fleet)
    before = fleet.rrsets()
    planned = dns(run, fleet, "plan", "--resolvers", "all")
    assert planned.exit_code == 1 and "soa_edit_api is empty" in planned.stdout + planned.stderr
    refused = dns(run, fleet, "apply", "--resolvers", "all")
    assert refused.exit_code == 3, refused.stdout + refused.stderr
    assert refused.stderr.startswith(f"renamer: error: ns-pdns: zone fv.lan. on server localhost at "
                                     f"{fleet.server.url}: soa_edit_api is empty (kind Master)"), refused.stderr
    assert "allow_unchanged_serial: true" in refused.stderr and fleet.rrsets() == before
    _write_entry(fleet, allow_unchanged_serial=True)  # the operator's choice: the warning stays
    planned = dns(run, fleet, "plan", "--resolvers", "all")
    assert planned.exit_code == 0 and "soa_edit_api is empty" in planned.stdout + planned.stderr
    applied = dns(run, fleet, "apply", "--resolvers", "all")
    assert applied.exit_code == 0, applied.stdout + applied.stderr
    assert answers(fleet, "fv-gw.fv.lan.", "A", "ns-pdns")["ns-pdns"] == ("10.251.0.1",)  # type: ignore[arg-type]


def test_a_set_soa_edit_api_moves_the_serial_on_every_apply(run: Callable[..., Any], fleet: Fleet) -> None:
    _zones(fleet, kind="Master", soa_edit_api="DEFAULT")
    _write_entry(fleet)
    first = _serial(fleet)
    assert dns(run, fleet, "apply", "--resolvers", "all").exit_code == 0
    applied = _serial(fleet)
    move_gateway(fleet)  # type: ignore[arg-type]
    assert dns(run, fleet, "apply", "--resolvers", "all").exit_code == 0
    assert first < applied < _serial(fleet)


def test_a_native_zone_with_an_empty_soa_edit_api_is_written_with_a_warning(run: Callable[..., Any],
                                                                            fleet: Fleet) -> None:
    """A Native zone is replicated by PowerDNS's database, not by transfers: its serial does not
    hold its secondaries back, but one that transfers from it anyway would: plan says so."""
    _zones(fleet, kind="Native", soa_edit_api="")
    _write_entry(fleet)
    planned = dns(run, fleet, "plan", "--resolvers", "all")
    assert planned.exit_code == 0, planned.stdout + planned.stderr
    assert "ns-pdns: zone fv.lan. on server localhost" in planned.stdout + planned.stderr
    assert "soa_edit_api is empty (kind Native)" in planned.stdout + planned.stderr
    assert dns(run, fleet, "apply", "--resolvers", "all").exit_code == 0
    assert powerdns.KEY not in planned.stdout


def test_a_wider_zone_on_the_server_is_named_in_the_refusal(run: Callable[..., Any], fleet: Fleet) -> None:
    """Finding 06: the server holds 10.in-addr.arpa., not 251.10.in-addr.arpa.: renamer writes only
    into the zone it computes, and says that creating it would hide the wider zone's other names."""
    client = fleet.server.client()
    for zone in ("fv.lan.", "10.in-addr.arpa."):
        client.call("POST", "/zones", {"name": zone, "kind": "Native", "nameservers": ["ns1.fv.lan."]})
    _write_entry(fleet)
    before = fleet.rrsets()
    refused = dns(run, fleet, "apply", "--resolvers", "all")
    assert refused.exit_code == 3, refused.stdout + refused.stderr
    assert refused.stderr.startswith(f"renamer: error: ns-pdns: zone 251.10.in-addr.arpa. is not on server "
                                     f"localhost at {fleet.server.url}, which serves that range from its zone "
                                     "10.in-addr.arpa.: "), refused.stderr
    assert "would hide every other name 10.in-addr.arpa. holds under it" in refused.stderr
    assert fleet.rrsets() == before


def test_a_narrower_zone_on_the_server_that_would_hide_renamers_names_is_refused(run: Callable[..., Any],
                                                                                fleet: Fleet) -> None:
    _zones(fleet, kind="Native")
    fleet.server.create_zone("0.251.10.in-addr.arpa.")  # fv-gw's PTR 1.0.251.10 would land in 251.10's
    _write_entry(fleet)
    before = fleet.rrsets()
    refused = dns(run, fleet, "apply", "--resolvers", "all")
    assert refused.exit_code == 3, refused.stdout + refused.stderr
    assert refused.stderr.startswith(f"renamer: error: ns-pdns: zone 0.251.10.in-addr.arpa. on server localhost at "
                                     f"{fleet.server.url} lies inside zone 251.10.in-addr.arpa., where renamer "
                                     "would write 1.0.251.10.in-addr.arpa.: "), refused.stderr
    assert fleet.rrsets() == before
