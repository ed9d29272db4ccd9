"""A length key paired by name with its gateway (found on ironicbadger/infra's group_vars:
`core_ipv4_prefix: 21` beside `core_ipv4_gateway: "10.42.0.254"` stayed a `mask` residual under a
/21 -> /22 resize): a gateway is on the network it serves, so where no address key of the same name
stands, the length is the gateway's network's. An address key of the name wins over the gateway;
a gateway of another network, or one of another name, ties nothing."""

from __future__ import annotations

import ipaddress
import json

import pytest

from tests.cli.test_prefix_keys_t29 import ALLOW, _config, _swept
from tests.testing.repos import Repo, Run

MOVE = '"10.42.0.0/21": "10.42.0.0/22"'


@pytest.mark.parametrize(("path", "text", "expected"), [
    pytest.param("group_vars/core.yaml",
                 'core_network_interface: "eth0"\ncore_ipv4_prefix: 21\ncore_ipv4_gateway: "10.42.0.254"\n'
                 'core_dns_servers:\n  - "1.1.1.1"\n',
                 'core_network_interface: "eth0"\ncore_ipv4_prefix: 22\ncore_ipv4_gateway: "10.42.0.254"\n'
                 'core_dns_servers:\n  - "1.1.1.1"\n', id="repro-group-vars"),
    pytest.param(".env", "LAN_GW=10.42.0.1\nLAN_NETMASK=255.255.248.0\n",
                 "LAN_GW=10.42.0.1\nLAN_NETMASK=255.255.252.0\n", id="env-gw-netmask"),
    pytest.param("vars.tf", 'mgmt_default_gateway = "10.42.3.254"\nmgmt_cidr = 21\n',
                 'mgmt_default_gateway = "10.42.3.254"\nmgmt_cidr = 22\n', id="tfvars-default-gateway"),
    pytest.param("host.json", '{"wan_prefix": 24, "lan_gateway": "10.42.0.1", "lan_prefix": 21}\n',
                 '{"wan_prefix": 24, "lan_gateway": "10.42.0.1", "lan_prefix": 22}\n', id="json-two-names"),
])
def test_a_length_follows_the_gateway_of_its_name(path: str, text: str, expected: str, repo: Repo, run: Run) -> None:
    root = repo({path: text}, config=_config(MOVE), allowlist=ALLOW)
    _swept(root, run)
    assert (root / path).read_text() == expected
    if path == "host.json":  # the swept JSON still reads, and names the new network
        keys = json.loads((root / path).read_text())
        assert ipaddress.ip_interface(f"{keys['lan_gateway']}/{keys['lan_prefix']}").network == \
            ipaddress.ip_network("10.42.0.0/22")


def test_the_address_of_the_name_wins_over_its_gateway(repo: Repo, run: Run) -> None:
    # the address is the moved network's, the gateway another's (a routed link): the address decides
    text = "lan_address: 10.42.0.5\nlan_gateway: 10.99.0.1\nlan_prefix: 21\n"
    root = repo({"host.yml": text}, config=_config(MOVE), allowlist=ALLOW)
    _swept(root, run)
    assert (root / "host.yml").read_text() == "lan_address: 10.42.0.5\nlan_gateway: 10.99.0.1\nlan_prefix: 22\n"


def test_a_length_whose_gateway_is_another_networks_stays(repo: Repo, run: Run) -> None:
    # `lan_prefix` is the length of the network `lan_gateway` is on, which does not move: as with an
    # address key of the name, the length is that network's, whatever else the file names
    text = "lan_gateway: 10.99.0.1\nlan_prefix: 21\nother: 10.42.5.9\n"
    root = repo({"host.yml": text}, config=_config('"10.42.0.0/21": "10.60.0.0/21"'), allowlist=ALLOW)
    _swept(root, run)
    assert (root / "host.yml").read_text() == "lan_gateway: 10.99.0.1\nlan_prefix: 21\nother: 10.60.5.9\n"


def test_a_gateway_of_another_name_leaves_the_length_reported(repo: Repo, run: Run) -> None:
    text = "wan_gateway: 10.42.0.1\nlan_prefix: 21\n"
    root = repo({"host.yml": text}, config=_config(MOVE), allowlist=ALLOW)
    found = json.loads(run(root, "verify", "--format", "json").stdout)["findings"]
    masks = [(f["path"], f["line"]) for f in found if f.get("reason") == "mask"]
    assert masks == [("host.yml", 2)], found
    assert run(root, "sweep", "--commit").exit_code == 1
    assert "lan_prefix: 21\n" in (root / "host.yml").read_text()  # never rewritten on a guess
