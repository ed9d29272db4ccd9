"""A network moved onto addresses already in use (t31-33, finding 09), end to end on real git repos.

Under `10.0.48.0/24: 10.0.60.0/22` a `10.0.60.5 printer`, another interface's `address 10.0.60.1/24`
and (IPv6) `2001:db8:c:42::5` stand where the old network lands (10.0.60.0-10.0.60.255) while no
old address moves onto them: they were exempt, sweep and `verify --strict` named only what the
grown part swallows; an equal-length move (`10.0.48.0/24: 10.0.60.0/24`) beside `10.0.60.5` passed
`--dry-run --strict`. Each is a collision now (strict fails), before the sweep and after it; what
the move itself wrote is none after it, nor the new network declared as itself.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.testing.findings import networks_config as _config
from tests.testing.repos import Repo, Run

ALLOW = 'version: 1\ncurrent: ["**"]\n'


def _collisions(run: Run, root: Path) -> list[str]:
    done = run(root, "sweep", "--dry-run", "--format", "json")
    return sorted(str(c["value"]) for c in json.loads(done.stdout)["collisions"])


FILES = {
    "hosts.txt": "10.0.48.7 nas\n10.0.60.5 printer\n2001:db8:a:100::7 nas6\n2001:db8:c:42::5 printer6\n",
    "interfaces": "iface guest0 inet static\n  address 10.0.60.1/24\n",
    "ahead.conf": "lan 10.0.60.0/22\n",
}


def test_what_stands_where_the_old_network_lands_is_a_collision_before_and_after(repo: Repo, run: Run) -> None:
    networks = '10.0.48.0/24: 10.0.60.0/22, "2001:db8:a:100::/56": "2001:db8:c::/48"'
    root = repo(FILES, config=_config(networks), allowlist=ALLOW)
    assert _collisions(run, root) == ["10.0.60.1", "10.0.60.5", "2001:db8:c:42::5"]
    assert run(root, "sweep", "--dry-run", "--strict").exit_code == 1
    done = run(root, "sweep", "--commit")
    assert done.exit_code in (0, 1), done.stdout + done.stderr
    assert (root / "hosts.txt").read_text().startswith("10.0.60.7 nas\n10.0.60.5 printer\n")
    checked = run(root, "verify", "--strict")
    assert checked.exit_code == 1
    out = checked.stdout + checked.stderr
    assert "hosts.txt:2:1: error: collision: 10.0.60.5" in out and "interfaces:2:11: error: collision: 10.0.60.1" in out
    assert "2001:db8:c:42::5" in out
    # the move's own addresses (nas: 10.0.48.7 -> 10.0.60.7) and the new network itself are none
    assert "collision: 10.0.60.7" not in out and "2001:db8:c:100::7 is" not in out and "ahead.conf" not in out


@pytest.mark.parametrize(("networks", "text", "value"), [
    pytest.param("10.0.48.0/24: 10.0.60.0/24", "10.0.48.7 nas\n10.0.60.5 printer\n", "10.0.60.5", id="equal-24"),
    pytest.param("10.0.48.0/29: 10.0.70.0/28", "10.0.48.3 nas\n10.0.70.4 cam\n", "10.0.70.4", id="grow-29-28"),
    pytest.param("10.0.48.0/23: 10.0.70.0/24", "10.0.48.3 nas\n10.0.70.200 cam\n", "10.0.70.200", id="shrink-23-24"),
    pytest.param('"2001:db8:a:10::/64": "2001:db8:b:20::/60"', "2001:db8:a:10::3 nas\n2001:db8:b:20::9 cam\n",
                 "2001:db8:b:20::9", id="v6-64-60"),
])
def test_a_move_of_any_length_onto_an_address_in_use_fails_strict(repo: Repo, run: Run, networks: str,
                                                                  text: str, value: str) -> None:
    root = repo({"hosts.txt": text}, config=_config(networks), allowlist=ALLOW)
    assert _collisions(run, root) == [value]
    assert run(root, "sweep", "--dry-run", "--strict").exit_code == 1


def test_a_move_onto_free_addresses_says_nothing_before_or_after(repo: Repo, run: Run) -> None:
    root = repo({"hosts.txt": "10.0.48.7 nas\n10.0.48.9 cam\n"}, config=_config("10.0.48.0/24: 10.0.60.0/22"),
                allowlist=ALLOW)
    assert _collisions(run, root) == []
    assert run(root, "sweep", "--commit").exit_code == 0
    assert (root / "hosts.txt").read_text() == "10.0.60.7 nas\n10.0.60.9 cam\n"
    assert run(root, "verify", "--strict").exit_code == 0
