"""An address rename that lands a host on the network or broadcast address of the length written
beside it (t31 round 24, finding 27): the dry run lists a `no-host` residual, the commit refuses
(exit 3) naming file:line and nothing is written, verify fails; a new address that is a host at its
length (or where no length is written) is rewritten as before."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import yaml

from tests.conftest import Result
from tests.testing.repos import git

ALLOW = 'version: 1\ncurrent: ["**"]\n'
NETPLAN = ("network:\n  version: 2\n  ethernets:\n    eno1:\n      addresses: [10.0.0.70/24]\n"
           "    eno2:\n      addresses: [10.0.0.71/24]\n")


def _config(pairs: str) -> str:
    return f"version: 1\nrenames:\n  addresses: {{{pairs}}}\nallowlist: allow.yaml\n"


def test_netplan_broadcast_and_network_addresses_are_refused(repo: Callable[..., Path],
                                                             run: Callable[..., Result]) -> None:
    files = {"netplan.yaml": NETPLAN,
             "networkd/10-lan.network": "[Network]\r\nAddress=10.0.0.70/24\r\n",  # CRLF
             "ios.cfg": "interface Gi0/1\n ip address 10.0.0.71 255.255.255.0\n",  # a dotted mask
             "dnsmasq.conf": "dhcp-host=aa:bb:cc:dd:ee:01,web01,10.0.0.70\n"}
    root = repo(files, config=_config("10.0.0.70: 10.0.1.255, 10.0.0.71: 10.0.2.0"), allowlist=ALLOW)
    head = git(root, "rev-parse", "HEAD")
    dry = run(root, "sweep", "--dry-run")
    assert dry.exit_code == 0 and "no-host" in dry.stdout, dry.stdout
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 3, done.stdout + done.stderr
    message = done.stderr.strip().splitlines()[-1]
    assert message.startswith("renamer: error: an address rename lands a host where no host can be")
    for where in ("netplan.yaml:5: no-host: 10.0.0.70 -> 10.0.1.255 is the broadcast address of 10.0.1.0/24",
                  "netplan.yaml:7: no-host: 10.0.0.71 -> 10.0.2.0 is the network address of 10.0.2.0/24",
                  "networkd/10-lan.network:2: no-host", "ios.cfg:2: no-host"):
        assert where in message, message
    assert git(root, "rev-parse", "HEAD") == head and git(root, "status", "--porcelain") == ""
    assert yaml.safe_load((root / "netplan.yaml").read_text())["network"]["ethernets"]["eno1"]["addresses"] \
        == ["10.0.0.70/24"]
    verify = run(root, "verify")
    assert verify.exit_code == 1 and "residual (no-host)" in verify.stdout, verify.stdout


def test_ipv6_subnet_router_anycast_and_a_declared_network_are_refused(repo: Callable[..., Path],
                                                                      run: Callable[..., Result]) -> None:
    files = {"netplan.yaml": "network:\n  ethernets:\n    eno1:\n      addresses: ['fd00::70/64']\n",
             "dhcpd.conf": "subnet 10.0.1.0 netmask 255.255.255.0 { }\n# net 10.0.1.0/24\n"
                           "host web02 { fixed-address 10.0.0.72; }\n"}
    root = repo(files, config=_config('"fd00::70": "fd00:0:0:1::", 10.0.0.72: 10.0.1.0'), allowlist=ALLOW)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 3, done.stdout + done.stderr
    message = done.stderr.strip().splitlines()[-1]
    assert "netplan.yaml:4: no-host: fd00::70 -> fd00:0:0:1:: is the Subnet-Router anycast address" in message
    assert "dhcpd.conf:3: no-host: 10.0.0.72 -> 10.0.1.0 is the network address of 10.0.1.0/24, which this " \
           "file declares" in message, message


def test_a_host_place_is_rewritten_as_before(repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    files = {"netplan.yaml": NETPLAN.replace("10.0.0.70/24", "10.0.0.70/16"),
             "dnsmasq.conf": "dhcp-host=aa:bb:cc:dd:ee:01,web01,10.0.0.70\n"}
    root = repo(files, config=_config("10.0.0.70: 10.0.1.255, 10.0.0.71: 10.0.2.71"), allowlist=ALLOW)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    assert "[10.0.1.255/16]" in (root / "netplan.yaml").read_text()  # a host of the /16
    assert "[10.0.2.71/24]" in (root / "netplan.yaml").read_text()
    assert run(root, "verify").exit_code == 0
