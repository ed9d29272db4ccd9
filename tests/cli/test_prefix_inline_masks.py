"""A mask in a one-line object is its object's destination's, not the moved gateway's (t36-33 01).

`[{"gateway": "192.168.40.1", "mask": "255.255.255.0", "dest": "10.99.0.0"}]` under
`192.168.40.0/24: 192.168.40.0/22` had its mask follow the gateway: the route to 10.99.0.0/24
became 10.99.0.0/22. The gateway word was read only unquoted (`gw 10.0.0.1`, YAML `gateway:`);
JSON, HCL, TOML, Python, Lua, Nix, PHP and Ruby write it quoted or with `=`/`=>`.
"""

from __future__ import annotations

import ipaddress
import json

from tests.testing.findings import networks_config, places
from tests.testing.repos import Repo, Run

ALLOW = 'version: 1\ncurrent: ["**"]\n'
GROW = networks_config("192.168.40.0/24: 192.168.40.0/22")

# one spelling per language; each a route to 10.99.0.0/24 via the moved network's router
ROUTES = {
    "routes.json": '[{"gateway": "192.168.40.1", "mask": "255.255.255.0", "dest": "10.99.0.0"}]\n',
    "routes.tf": 'routes = [{ gateway = "192.168.40.1", mask = "255.255.255.0", dest = "10.99.0.0" }]\n',
    "routes.toml": 'route = { next_hop = "192.168.40.1", netmask = "255.255.255.0", to = "10.99.0.0" }\n',
    "routes.py": "ROUTE = {'gw': '192.168.40.1', 'mask': '255.255.255.0', 'dest': '10.99.0.0'}\n",
    "routes.lua": 'local r = { gateway = "192.168.40.1", mask = "255.255.255.0", dest = "10.99.0.0" }\n',
    "routes.nix": '{ via = "192.168.40.1"; mask = "255.255.255.0"; dest = "10.99.0.0"; }\n',
    "routes.php": "$r = ['default_gateway' => '192.168.40.1', 'netmask' => '255.255.255.0', 'net' => '10.99.0.0'];\n",
    "routes.rb": 'R = { :gateway => "192.168.40.1", :mask => "255.255.255.0", :dest => "10.99.0.0" }\n',
    # the mask before the gateway, the destination after both
    "after.json": '{"mask": "255.255.255.0", "nexthop": "192.168.40.1", "dest": "10.99.0.0"}\n',
    "escaped.tf.json": '{"x": "{\\"gateway\\": \\"192.168.40.1\\", \\"mask\\": \\"255.255.255.0\\", '
                       '\\"dest\\": \\"10.99.0.0\\"}"}\n',
}
OWN = {  # the moved network's own masks on one line: they follow
    "iface.json": '{"address": "192.168.40.5", "mask": "255.255.255.0", "gateway": "192.168.40.1"}\n',
    "gwonly.tf": 'lan = { mask = "255.255.255.0", gateway = "192.168.40.1" }\n',
}


def test_a_one_line_objects_mask_stays_its_destinations(repo: Repo, run: Run) -> None:
    root = repo({**ROUTES, **OWN, "lan.yml": "lan: 192.168.40.0/24\n"}, config=GROW, allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 0
    for name, text in ROUTES.items():
        assert (root / name).read_text() == text, name
    assert json.loads((root / "iface.json").read_text())["mask"] == "255.255.252.0"
    assert (root / "gwonly.tf").read_text() == 'lan = { mask = "255.255.252.0", gateway = "192.168.40.1" }\n'
    route = json.loads((root / "routes.json").read_text())[0]
    assert ipaddress.ip_network(f"{route['dest']}/{route['mask']}") == ipaddress.ip_network("10.99.0.0/24")
    assert places(root, run, "mask") == []
    assert run(root, "verify").exit_code == 0


def test_two_moves_the_route_keeps_the_length_of_its_own_move(repo: Repo, run: Run) -> None:
    config = networks_config("10.1.0.0/24: 10.1.0.0/23, 10.2.0.0/24: 10.9.0.0/24")
    root = repo({"r.json": '{"gateway": "10.1.0.1", "mask": "255.255.255.0", "dest": "10.2.0.0"}\n',
                 "r.py": "R = {'dest': '10.2.0.0', 'gateway': '10.1.0.1', 'mask': '255.255.255.0'}\n",
                 "lan.yml": "lan: 10.1.0.0/24\n"}, config=config, allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 0
    assert (root / "r.json").read_text() == '{"gateway": "10.1.0.1", "mask": "255.255.255.0", "dest": "10.9.0.0"}\n'
    assert (root / "r.py").read_text() == "R = {'dest': '10.9.0.0', 'gateway': '10.1.0.1', 'mask': '255.255.255.0'}\n"
    assert (root / "lan.yml").read_text() == "lan: 10.1.0.0/23\n"


