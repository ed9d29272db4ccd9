"""The old length and counts beside a mask the sweep rewrites are said (t36-33 finding 08), end to end.

Under `192.168.40.0/24: 192.168.40.0/22`, `... is a /24: 254 usable hosts, mask 255.255.255.0.` and
`... netmask 255.255.255.0 (a /24, 256 addresses)` had their masks rewritten and their `/24` left
unsaid; a table row giving the network as an address and a mask column kept `254` in its `Hosts`
column beside `255.255.252.0`.
"""

from __future__ import annotations

import ipaddress

from tests.testing.findings import networks_config, places
from tests.testing.repos import Repo, Run

ALLOW = 'version: 1\ncurrent: ["**"]\n'
GROW = networks_config("192.168.40.0/24: 192.168.40.0/22")

PROSE = """\
a. The IoT VLAN 192.168.40.0 is a /24 with 254 usable hosts.
d. The IoT VLAN 192.168.40.0 is a /24: 254 usable hosts, mask 255.255.255.0.
e. IoT network 192.168.40.0 netmask 255.255.255.0 (a /24, 256 addresses)
f. IoT network 192.168.40.0, subnet mask 255.255.255.0, is a /24; see the wiki.
"""
TABLE = "| VLAN | Network | Mask | Hosts |\n|---|---|---|---|\n| IoT | 192.168.40.0 | 255.255.255.0 | 254 |\n"
CSV = "vlan,network,netmask,usable_hosts,addresses\niot,192.168.40.0,255.255.255.0,254,256\n"


def test_a_length_beside_a_rewritten_mask_is_said_before_and_after(repo: Repo, run: Run) -> None:
    root = repo({"README.md": PROSE, "lan.yml": "lan: 192.168.40.0/24\n"}, config=GROW, allowlist=ALLOW)
    assert places(root, run, "mask") == [("README.md", n) for n in (1, 2, 3, 4)]
    assert run(root, "sweep", "--commit").exit_code == 1  # said, not OK
    assert places(root, run, "mask") == [("README.md", n) for n in (1, 2, 3, 4)]
    assert run(root, "verify").exit_code != 0


def test_a_count_column_follows_a_network_given_by_a_mask_column(repo: Repo, run: Run) -> None:
    root = repo({"t.md": TABLE, "nets.csv": CSV, "lan.yml": "lan: 192.168.40.0/24\n"}, config=GROW, allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 0
    assert (root / "t.md").read_text().splitlines()[2] == "| IoT | 192.168.40.0 | 255.255.252.0 | 1022 |"
    row = (root / "nets.csv").read_text().splitlines()[1].split(",")
    net = ipaddress.ip_network(f"{row[1]}/{row[2]}")
    assert net == ipaddress.ip_network("192.168.40.0/22")
    assert row[3:] == [str(net.num_addresses - 2), str(net.num_addresses)]
    assert run(root, "verify").exit_code == 0
