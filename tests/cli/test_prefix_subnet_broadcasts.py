"""A longer subnet's broadcast address that coincides with the moved network's (t36-33 02), end to end.

The upper /25 of 192.168.40.0/24 ends at 192.168.40.255, the /24's broadcast address too. Under
`192.168.40.0/24: 10.20.0.0/22` the /25 keeps its length (10.20.0.128/25), so its broadcast address
is 10.20.0.255; it became 10.20.3.255, outside the subnet, sweep 0, verify OK.
"""

from __future__ import annotations

import ipaddress

import pytest

from tests.testing.findings import networks_config, reasons
from tests.testing.repos import Repo, Run

ALLOW = 'version: 1\ncurrent: ["**"]\n'

FILES = {
    "up.sh": "ip addr add 192.168.40.130/25 brd 192.168.40.255 dev eth1\n",
    "ifconfig.sh": "ifconfig eth1 192.168.40.130 netmask 255.255.255.128 broadcast 192.168.40.255\n",
    "interfaces": "auto eth1\niface eth1 inet static\n  address 192.168.40.130\n  netmask 255.255.255.128\n"
                  "  broadcast 192.168.40.255\n",
    "dhcpd.conf": "subnet 192.168.40.128 netmask 255.255.255.128 {\n  option broadcast-address 192.168.40.255;\n"
                  "  range 192.168.40.140 192.168.40.200;\n}\n",
    "eth1.network": "[Match]\nName=eth1\n\n[Address]\nAddress=192.168.40.130/25\nBroadcast=192.168.40.255\n",
    "ifcfg-eth1": "DEVICE=eth1\nIPADDR=192.168.40.130\nPREFIX=25\nBROADCAST=192.168.40.255\n",
    # the whole network's broadcast address: the new network's
    "lan.sh": "ip addr add 192.168.40.1/24 brd 192.168.40.255 dev eth0\n",
}


def _broadcast_in_its_subnet(text: str, subnet: str) -> None:
    found = [w for w in text.replace(";", " ").replace("=", " ").split() if w.startswith("10.20.")]
    assert ipaddress.ip_network(subnet).broadcast_address in [ipaddress.ip_address(w.split("/")[0]) for w in found]


@pytest.mark.parametrize("new", ["10.20.0.0/22", "192.168.40.0/22"])
def test_a_subnets_broadcast_keeps_its_offset_under_a_grow(new: str, repo: Repo, run: Run) -> None:
    root = repo(dict(FILES), config=networks_config(f"192.168.40.0/24: {new}"), allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 0
    base = ipaddress.ip_network(new).network_address
    sub_broadcast = str(base + 255)
    for name in FILES:
        if name == "lan.sh":
            continue
        text = (root / name).read_text()
        assert sub_broadcast in text, (name, text)
        assert str(ipaddress.ip_network(new).broadcast_address) not in text, (name, text)
    assert (root / "up.sh").read_text() == f"ip addr add {base + 130}/25 brd {sub_broadcast} dev eth1\n"
    upper = ipaddress.ip_network(f"{base + 128}/25")
    assert ipaddress.ip_address(sub_broadcast) == upper.broadcast_address
    assert (root / "lan.sh").read_text() == \
        f"ip addr add {base + 1}/22 brd {ipaddress.ip_network(new).broadcast_address} dev eth0\n"
    assert reasons(root, run) == []
    assert run(root, "verify").exit_code == 0


def test_a_subnet_the_shrunk_network_has_no_place_for_is_refused(repo: Repo, run: Run) -> None:
    root = repo({"up.sh": FILES["up.sh"], "lan.yml": "lan: 192.168.40.0/24\n"},
                config=networks_config("192.168.40.0/24: 10.20.0.0/25"), allowlist=ALLOW)
    result = run(root, "sweep", "--commit")
    assert result.exit_code != 0
    assert (root / "up.sh").read_text() == FILES["up.sh"]  # nothing half-written


def test_lengths_that_disagree_leave_the_broadcast_a_residual(repo: Repo, run: Run) -> None:
    text = "iface eth1 inet static\n  address 192.168.40.130\n  netmask 255.255.255.128\n" \
           "  broadcast 192.168.40.255\n  post-up ip route add 192.168.40.0/26 dev eth1\n  prefix 26\n"
    root = repo({"interfaces": text}, config=networks_config("192.168.40.0/24: 10.20.0.0/22"), allowlist=ALLOW)
    assert ("interfaces", 4, "broadcast") in reasons(root, run)
