"""An interface's own address whose length or gateway stands in a key of its own (t32 round 25,
findings 16 and 17): renumbered onto the broadcast or network address of that length, or onto the
gateway written beside it, the dry run lists a `no-host` residual, the commit refuses (exit 3)
naming file:line and writes nothing, verify fails; a host place is rewritten as before and the
written file still parses."""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

from tests.conftest import Result
from tests.testing.repos import git

ALLOW = 'version: 1\ncurrent: ["**"]\n'
NIX = '{ networking.interfaces.ens18.ipv4.addresses = [ { address = "10.0.0.70"; prefixLength = 24; } ]; }\n'
IFCFG = "DEVICE=eth0\nIPADDR=10.0.0.70\nPREFIX=24\n"
IFUPDOWN = "auto eth0\niface eth0 inet static\n    address 10.0.0.70\n    netmask 255.255.255.0\n"


def _config(pairs: str) -> str:
    return f"version: 1\nrenames:\n  addresses: {{{pairs}}}\nallowlist: allow.yaml\n"


def _refused(root: Path, run: Callable[..., Result]) -> str:
    head = git(root, "rev-parse", "HEAD")
    dry = run(root, "sweep", "--dry-run")
    assert dry.exit_code == 0 and "no-host" in dry.stdout, dry.stdout
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 3, done.stdout + done.stderr
    assert git(root, "rev-parse", "HEAD") == head and git(root, "status", "--porcelain") == ""
    verify = run(root, "verify")
    assert verify.exit_code == 1 and "residual (no-host)" in verify.stdout, verify.stdout
    message: str = done.stderr.strip().splitlines()[-1]
    assert message.startswith("renamer: error: an address rename lands a host where no host can be"), message
    return message


def test_broadcast_at_a_separate_length_is_refused(repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    files = {"networking.nix": NIX, "ifcfg-eth0": IFCFG, "interfaces": IFUPDOWN,
             "ifcfg-eth1": "DEVICE=eth1\r\nIPADDR1='10.0.0.71'\r\nNETMASK1='255.255.255.128'\r\n",  # CRLF, index 1
             "net.ps1": "\ufeffNew-NetIPAddress -InterfaceAlias LAN -IPAddress 10.0.0.72 -PrefixLength 24\r\n"}
    root = repo(files, config=_config("10.0.0.70: 10.0.1.255, 10.0.0.71: 10.0.1.127, 10.0.0.72: 10.0.2.0"),
                allowlist=ALLOW)
    message = _refused(root, run)
    for where in ("networking.nix:1: no-host: 10.0.0.70 -> 10.0.1.255 is the broadcast address of 10.0.1.0/24 "
                  "(the length written beside it, prefixLength = 24)",
                  "ifcfg-eth0:2: no-host: 10.0.0.70 -> 10.0.1.255 is the broadcast address of 10.0.1.0/24 "
                  "(the length written beside it, PREFIX=24)",
                  "interfaces:3: no-host: 10.0.0.70 -> 10.0.1.255 is the broadcast address of 10.0.1.0/24 "
                  "(the length written beside it, netmask 255.255.255.0)",
                  "ifcfg-eth1:2: no-host: 10.0.0.71 -> 10.0.1.127 is the broadcast address of 10.0.1.0/25 "
                  "(the length written beside it, NETMASK1=255.255.255.128)",
                  "net.ps1:1: no-host: 10.0.0.72 -> 10.0.2.0 is the network address of 10.0.2.0/24"):
        assert where in message, message


def test_the_gateway_written_beside_it_is_refused(repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    files = {"networking.nix": NIX.replace("] ; }", "]; }").replace(
                 "]; }", '];\n  networking.defaultGateway = "10.0.1.1"; }'),
             "ifcfg-eth0": IFCFG + "GATEWAY=10.0.1.1\n",
             "interfaces": IFUPDOWN + "    gateway 10.0.1.1\n",
             "10-lan.network": "[Network]\r\nAddress=10.0.0.70/16\r\nGateway=10.0.1.1\r\n",  # networkd, CRLF
             "net.ps1": "New-NetIPAddress -IPAddress 10.0.0.70 -PrefixLength 16 -DefaultGateway 10.0.1.1\n"}
    root = repo(files, config=_config("10.0.0.70: 10.0.1.1"), allowlist=ALLOW)
    message = _refused(root, run)
    for where in ("networking.nix:1: no-host: 10.0.0.70 -> 10.0.1.1 is the gateway written beside it (line 2)",
                  "ifcfg-eth0:2: no-host: 10.0.0.70 -> 10.0.1.1 is the gateway written beside it (line 4)",
                  "interfaces:3: no-host: 10.0.0.70 -> 10.0.1.1 is the gateway written beside it (line 5)",
                  "10-lan.network:2: no-host: 10.0.0.70 -> 10.0.1.1 is the gateway written beside it (line 3)",
                  "net.ps1:1: no-host: 10.0.0.70 -> 10.0.1.1 is the gateway written beside it (line 1)"):
        assert where in message, message


def test_a_host_place_beside_a_separate_length_is_rewritten(repo: Callable[..., Path],
                                                            run: Callable[..., Result]) -> None:
    files = {"ifcfg-eth0": IFCFG + "GATEWAY=10.0.1.1\nDNS1=10.0.0.71\n", "interfaces": IFUPDOWN,
             "networking.nix": NIX.replace("24", "16")}
    root = repo(files, config=_config("10.0.0.70: 10.0.1.70, 10.0.0.71: 10.0.1.1"), allowlist=ALLOW)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    ifcfg = (root / "ifcfg-eth0").read_text()
    assert "IPADDR=10.0.1.70\n" in ifcfg and "DNS1=10.0.1.1\n" in ifcfg  # a DNS server may be the router
    assert "address 10.0.1.70\n" in (root / "interfaces").read_text()
    assert 'address = "10.0.1.70"; prefixLength = 16;' in (root / "networking.nix").read_text()
    # ifcfg files are sourced by shell: the written one still parses, and means what it should
    shown = subprocess.run(["bash", "-c", f". {root / 'ifcfg-eth0'} && echo $IPADDR/$PREFIX $GATEWAY"],
                           capture_output=True, text=True, check=True).stdout
    assert shown == "10.0.1.70/24 10.0.1.1\n"
    assert run(root, "verify", "--strict").exit_code == 0
