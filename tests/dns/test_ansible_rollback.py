"""The Ansible engine rolls back what it changed, asserted by asking each dnsmasq over DNS (not by the
playbook's report): a host that had no snippet before, and a host with two snippets to restore."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.testing.resolvers import addresses, dns, move_gateway, start_lab

THREE = ("ns-b1", "ns-b2", "ns-b3")


@pytest.fixture
def fleet(tmp_path: Path):  # type: ignore[no-untyped-def]
    started = start_lab(tmp_path / "fleet", THREE)
    try:
        yield started
    finally:
        started.stop()




def _broken(name: str) -> dict[str, dict[str, object]]:
    return {name.replace("-", "_"): {"test": ["sh", "-c", "echo broken >&2; exit 1"]}}


def test_a_host_without_snippets_is_rolled_back_to_none(run, fleet) -> None:  # type: ignore[no-untyped-def]
    """Every snippet an apply added is removed by its rollback: ABSENT lists each on a line."""
    fleet.write_resolvers(**_broken("ns-b3"))
    result = dns(run, fleet, "apply", "--resolvers", "all", "--engine", "ansible", "--batch-size", "3")
    assert result.exit_code == 1, result.stdout + result.stderr
    assert fleet.snippets() == {}, "the two new snippets (two sites) are removed again"
    assert set(addresses(fleet, "fv-gw.fv.lan.").values()) == {()}
    assert set(addresses(fleet, "ana-gw.ana.lan.").values()) == {()}


def test_two_changed_snippets_are_backed_up_and_restored(run, fleet) -> None:  # type: ignore[no-untyped-def]
    assert dns(run, fleet, "apply", "--resolvers", "all").exit_code == 0
    before = fleet.snippets()
    assert len(before) == 6  # two sites on each of three resolvers
    move_gateway(fleet)  # fv-gw 10.251.0.1 -> .2
    path = fleet.inventory / "sites" / "ana.yaml"
    path.write_text(path.read_text().replace("address: 10.250.0.1", "address: 10.250.0.2"))
    fleet.write_resolvers(**_broken("ns-b3"))
    result = dns(run, fleet, "apply", "--resolvers", "all", "--engine", "ansible", "--batch-size", "3")
    assert result.exit_code == 1, result.stdout + result.stderr
    assert "rollback FAILED" not in result.stdout
    assert fleet.snippets() == before
    assert set(addresses(fleet, "fv-gw.fv.lan.").values()) == {("10.251.0.1",)}
    assert set(addresses(fleet, "ana-gw.ana.lan.").values()) == {("10.250.0.1",)}
    fleet.write_resolvers()  # the test mended: the same apply now goes through, both sites
    assert dns(run, fleet, "apply", "--resolvers", "all", "--engine", "ansible").exit_code == 0
    assert set(addresses(fleet, "fv-gw.fv.lan.").values()) == {("10.251.0.2",)}
    assert set(addresses(fleet, "ana-gw.ana.lan.").values()) == {("10.250.0.2",)}
