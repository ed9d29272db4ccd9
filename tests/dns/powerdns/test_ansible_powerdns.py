"""The Ansible path for PowerDNS: `dns apply --engine ansible` and `dns export ansible` with a
PowerDNS resolver, real ansible-playbook against a real pdns_server on loopback (and a real
dnsmasq beside it: one mixed fleet). The playbook talks to the API from the control node; each
assertion on what the servers ANSWER over DNS, and on the RRsets the API holds."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.dns.powerdns.test_cli_powerdns import Fleet, both, dns
from tests.testing import powerdns

PLUGIN = Path(__file__).resolve().parents[3] / "renamer" / "dns" / "playbook" / "filter_plugins" / "renamer_powerdns.py"


def _plugin() -> Any:
    import importlib.util

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
        from renamer.dns.dnsmasq import sandbox

        sandbox.start(started.dnsmasq.folder)
        yield started
    finally:
        started.stop()


def owned(fleet: Fleet) -> dict[str, list[str]]:
    """renamer's RRsets on the server (with their comment), by name and type."""
    return {key: value for key, value in fleet.rrsets().items() if not key.endswith((" NS", " SOA"))}


def test_the_ansible_engine_applies_verifies_and_rolls_back_powerdns(run: Callable[..., Any], fleet: Fleet) -> None:
    applied = dns(run, fleet, "apply", "--resolvers", "all", "--engine", "ansible")
    assert applied.exit_code == 0, applied.stdout + applied.stderr
    assert both(fleet, "fv-gw.fv.lan.") == {"ns-ana": ("10.251.0.1",), "ns-pdns": ("10.251.0.1",)}
    assert both(fleet, "54.50.251.10.in-addr.arpa.", "PTR")["ns-pdns"] == ("fv-ml1.fv.lan.",)
    assert dns(run, fleet, "verify", "--resolvers", "all").exit_code == 0
    assert dns(run, fleet, "plan", "--resolvers", "all", "--expect-no-changes").exit_code == 0
    locks = fleet.server.client().metadata("fv.lan")
    assert locks == [], locks  # the zone locks given back
    again = dns(run, fleet, "apply", "--resolvers", "all", "--engine", "ansible")
    assert again.exit_code == 0 and "unchanged" in again.stdout, again.stdout + again.stderr
