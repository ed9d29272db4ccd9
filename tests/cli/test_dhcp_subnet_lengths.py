"""verify after the fact (t31-33 finding 12): a DHCP server's subnet declared at the new network with
the old length (Kea `"subnet": "10.0.60.0/24"`, `"2001:db8:b:20::/64"`, ISC dhcpd `subnet 10.0.60.0
netmask 255.255.255.0 {`, `subnet6`) is a `mask` residual as a host at the old length is: verify
--strict fails. Before: verify OK on every one of them. The rule itself is checked with ipaddress:
the declared scope is a strict part of the new network."""

from __future__ import annotations

import ipaddress
import json
import tempfile
from pathlib import Path

from tests.testing.repos import Run, make_repo

ALLOW = 'version: 1\ncurrent: ["**"]\n'


def _repo(tmp: Path, files: dict[str, str], networks: str) -> Path:
    config = f"version: 1\nrenames:\n  networks: {{{networks}}}\nallowlist: allow.yaml\n"
    return make_repo(Path(tempfile.mkdtemp(dir=tmp)) / "repo", files, config=config, allowlist=ALLOW)


def _kea(v4: str, v6: str) -> str:
    return json.dumps({"Dhcp4": {"subnet4": [{"id": 1, "subnet": v4}]},
                       "Dhcp6": {"subnet6": [{"id": 2, "subnet": v6}]}}, indent=2) + "\n"


def test_a_subnet_at_the_new_network_with_the_old_length_fails_verify(run: Run, tmp_path: Path) -> None:
    """Grow (/24 -> 10.0.60.0/22, /64 -> 2001:db8:b:20::/60) and shrink (/23 -> 10.0.60.0/24, /48 ->
    2001:db8:b::/56): the subnet written at the new network with the old length is named."""
    for networks, v4, mask, v6 in (
            ("10.0.48.0/24: 10.0.60.0/22, 2001:db8:a:10::/64: 2001:db8:b:20::/60", "10.0.60.0/24",
             "255.255.255.0", "2001:db8:b:20::/64"),
            ("10.0.48.0/23: 10.0.60.0/24, 2001:db8:a::/48: 2001:db8:b::/56", "10.0.60.0/23",
             "255.255.254.0", "2001:db8:b::/48")):
        dhcpd = f"subnet 10.0.60.0 netmask {mask} {{\n  option routers 10.0.60.1;\n}}\nsubnet6 {v6} {{\n}}\n"
        root = _repo(tmp_path, {"kea.json": _kea(v4, v6), "dhcpd.conf": dhcpd}, networks)
        checked = run(root, "verify", "--strict")
        assert checked.exit_code == 1, checked.stdout
        out = checked.stdout
        assert f"the DHCP subnet {v4} is the new network" in out, out
        assert f"the DHCP subnet {v6} is the new network" in out, out
        assert f"dhcpd.conf:1:26: residual (mask): {mask}: the DHCP subnet 10.0.60.0 netmask {mask}" in out, out
        assert "dhcpd.conf:4:" in out, out
        new4 = ipaddress.ip_network(networks.split(", ")[0].split(": ")[1])
        assert ipaddress.ip_network(v4) != new4  # the declared scope is not the network


def test_the_right_length_or_another_subnet_passes(run: Run, tmp_path: Path) -> None:
    """The subnets at the new length (Kea /22 and /60, dhcpd netmask 255.255.252.0) pass verify (a /24
    elsewhere in the /22 is a collision, said by sweep/collisions.py, not this rule)."""
    root = _repo(tmp_path, {"kea.json": _kea("10.0.60.0/22", "2001:db8:b:20::/60"),
                            "dhcpd.conf": "subnet 10.0.60.0 netmask 255.255.252.0 {\n}\n"},
                 "10.0.48.0/24: 10.0.60.0/22, 2001:db8:a:10::/64: 2001:db8:b:20::/60")
    checked = run(root, "verify", "--strict")
    assert checked.exit_code == 0, checked.stdout
