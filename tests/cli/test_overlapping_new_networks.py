"""Two network moves whose NEW networks overlap (t32-33 finding 19), through the CLI on real git repos.

Overlapping old networks and two moves onto one network were configuration errors; two moves whose
new networks overlap without being equal were accepted: the sweep wrote lan0 `10.0.60.1/22` beside
guest0 `10.0.62.1/24` and committed, the verify right after it failed on the collisions it had just
made. Now the configuration is refused (exit 2) before anything is read or written, naming both moves.
"""

from __future__ import annotations

import ipaddress
from pathlib import Path

import pytest

from tests.testing.findings import networks_config as _config
from tests.testing.repos import Run, make_repo, snapshot

ALLOW = 'version: 1\ncurrent: ["**"]\n'
INTERFACES = ("iface lan0 inet static\n    address {a}\niface guest0 inet static\n    address {b}\n")
DHCPD = "subnet {n} netmask 255.255.255.0 {{ range {lo} {hi}; }}\n"


@pytest.mark.parametrize("networks, first, second", [
    # the repro: the grown LAN swallows the guest network's new /24
    pytest.param("10.0.48.0/24: 10.0.60.0/22, 10.0.49.0/24: 10.0.62.0/24", "10.0.48.0/24", "10.0.49.0/24", id="v4-grow"),
    # a /29 -> /28 next to a /29 moved into its upper half
    pytest.param("10.0.48.0/29: 10.0.60.0/28, 10.0.49.0/29: 10.0.60.8/29", "10.0.48.0/29", "10.0.49.0/29", id="v4-29-28"),
    # the small one first: the message names the pair whichever comes first
    pytest.param("10.0.50.0/23: 10.0.62.0/24, 10.0.48.0/24: 10.0.60.0/22", "10.0.50.0/23", "10.0.48.0/24",
                 id="v4-23-24-shrink"),
    pytest.param("2001:db8:a:10::/64: 2001:db8:b:20::/60, 2001:db8:a:11::/64: 2001:db8:b:21::/64",
                 "2001:db8:a:10::/64", "2001:db8:a:11::/64", id="v6-64-60"),
    pytest.param("2001:db8:a::/48: 2001:db8:c::/56, 2001:db8:e::/48: 2001:db8:c:80::/57",
                 "2001:db8:a::/48", "2001:db8:e::/48", id="v6-48-56"),
])
def test_moves_whose_new_networks_overlap_are_a_config_error(run: Run, tmp_path: Path, networks: str,
                                                             first: str, second: str) -> None:
    a, b = (ipaddress.ip_network(n) for n in (first, second))
    files = {"interfaces": INTERFACES.format(a=f"{a.network_address + 1}/{a.prefixlen}",
                                             b=f"{b.network_address + 1}/{b.prefixlen}"),
             "dhcpd.conf": DHCPD.format(n=a.network_address, lo=a.network_address + 2, hi=a.network_address + 3)}
    root = make_repo(tmp_path / "repo", files, config=_config(networks), allowlist=ALLOW)
    before = snapshot(root)
    for command in (("sweep", "--dry-run", "--strict"), ("sweep", "--commit"), ("verify", "--strict")):
        done = run(root, *command)
        assert done.exit_code == 2, (command, done.stdout, done.stderr)
        lines = done.stderr.splitlines()
        assert len(lines) == 1 and lines[0].startswith("renamer: error: renamer.yaml:3: renames.networks."), lines
        assert "overlaps" in lines[0] and first in lines[0] and second in lines[0], lines[0]
        assert "Traceback" not in done.stderr
    assert snapshot(root) == before
    # the ranges really do overlap: the guard is not over-eager
    moved = dict(pair.split(": ") for pair in networks.split(", "))
    assert ipaddress.ip_network(moved[first]).overlaps(ipaddress.ip_network(moved[second]))


def test_moves_whose_new_networks_lie_apart_still_sweep(run: Run, tmp_path: Path) -> None:
    """The control: the same two interfaces moved to adjacent, disjoint networks sweep as before."""
    files = {"interfaces": INTERFACES.format(a="10.0.48.1/24", b="10.0.49.1/24")}
    root = make_repo(tmp_path / "repo", files, config=_config("10.0.48.0/24: 10.0.60.0/23, 10.0.49.0/24: 10.0.62.0/24"),
                     allowlist=ALLOW)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    assert (root / "interfaces").read_text() == INTERFACES.format(a="10.0.60.1/23", b="10.0.62.1/24")
    assert run(root, "verify", "--strict").exit_code == 0


@pytest.mark.parametrize("networks, named", [
    # 10.0.48.200 is written as 10.0.60.200, which lies in 10.0.60.128/25: a second sweep moved it again
    pytest.param("10.0.48.0/24: 10.0.60.0/24, 10.0.60.128/25: 10.0.70.0/25", "10.0.60.128/25", id="v4-chain"),
    pytest.param("2001:db8:a::/48: 2001:db8:c::/56, 2001:db8:c:80::/57: 2001:db8:e::/57", "2001:db8:c:80::/57",
                 id="v6-chain"),
])
def test_a_move_whose_addresses_land_on_another_moved_network_is_a_config_error(
        run: Run, tmp_path: Path, networks: str, named: str) -> None:
    """Before: `sweep --commit` wrote 10.0.60.200 and the verify right after wanted it moved again
    (10.0.60.200 -> 10.0.70.72)."""
    files = {"hosts.txt": "host 10.0.48.200\nhost 2001:db8:a::c8\n"}
    root = make_repo(tmp_path / "repo", files, config=_config(networks), allowlist=ALLOW)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 2, done.stdout + done.stderr
    assert f"which is itself renamed ({named} -> " in done.stderr and "(a chain)" in done.stderr, done.stderr
    assert (root / "hosts.txt").read_text() == files["hosts.txt"]


@pytest.mark.parametrize("networks, after", [
    # the grown network covers a sibling that moves away, but no address lands there
    pytest.param("10.0.48.0/24: 10.0.48.0/23, 10.0.49.0/24: 10.0.70.0/24", "host 10.0.48.200\nhost 10.0.70.7\n",
                 id="grow-over-a-vacated-sibling"),
    pytest.param("10.0.48.0/24: 10.0.60.0/22, 10.0.61.0/24: 10.0.70.0/24", "host 10.0.60.200\nhost 10.0.70.7\n",
                 id="move-over-a-vacated-sibling"),
])
def test_a_new_network_over_a_vacated_one_sweeps_once(run: Run, tmp_path: Path, networks: str, after: str) -> None:
    first = networks.split(", ")[1].split(":")[0].rsplit(".", 1)[0]  # the sibling's first three octets
    files = {"hosts.txt": f"host 10.0.48.200\nhost {first}.7\n"}
    root = make_repo(tmp_path / "repo", files, config=_config(networks), allowlist=ALLOW)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    assert (root / "hosts.txt").read_text() == after
    assert run(root, "verify", "--strict").exit_code == 0  # a second sweep would change nothing
