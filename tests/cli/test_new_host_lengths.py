"""verify after the fact: the new network's host written with the move's old length (t29-33, 20).

Under `10.0.48.0/24: 10.0.60.0/22`, a file that already names the new network's host with the old
length (a branch merged after the sweep, a hand edit that copied the old habit) configures it
on-link for a /24 only. ifupdown's `address` + `netmask` stanza was a `mask` residual, but networkd
`Address=10.0.60.5/24` and IOS `ip address 10.0.60.1 255.255.255.0` passed `verify --strict`. Each
spelling is a `mask` residual now, for IPv4 and IPv6, grow and shrink; a network address at the
old length (a route to a subnet) and a host at the new length are not; a sweep of the old
network's own addresses leaves verify OK. python's ipaddress says what each length means.
"""

from __future__ import annotations

import ipaddress
import json
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Result
from tests.testing.findings import networks_config as _config

ALLOW = 'version: 1\ncurrent: ["**"]\n'


def _findings(root: Path, run: Callable[..., Result]) -> tuple[int, list[tuple[str, int, str]]]:
    done = run(root, "verify", "--strict", "--format", "json")
    return done.exit_code, sorted((str(f["path"]), int(f["line"]), str(f["reason"]))
                                  for f in json.loads(done.stdout)["findings"] if f["reason"] is not None)


CASES = [
    pytest.param("10.0.48.0/24: 10.0.60.0/22", {
        "eth.network": "[Network]\nAddress=10.0.60.5/24\nGateway=10.0.60.1\n",
        "ios.cfg": "interface Vlan48\n ip address 10.0.60.1 255.255.255.0\n",
        "netplan.yaml": "network:\n  ethernets:\n    eth0:\n      addresses: [10.0.60.7/24]\n",
        "rc.local": "ifconfig eth2 10.0.60.8 netmask 255.255.255.0 up\nip addr add 10.0.60.9/24 dev eth3\n",
    }, [("eth.network", 2), ("ios.cfg", 2), ("netplan.yaml", 4), ("rc.local", 1), ("rc.local", 2)],
        id="v4-grow-elsewhere-24-22"),
    pytest.param("10.0.48.0/23: 10.0.70.0/24", {
        "eth.network": "[Network]\nAddress=10.0.70.5/23\n",
        "ios.cfg": "interface Vlan70\n ip address 10.0.70.1 255.255.254.0\n",
    }, [("eth.network", 2), ("ios.cfg", 2)], id="v4-shrink-elsewhere-23-24"),
    pytest.param("10.0.48.0/29: 10.0.40.0/28", {
        "eth.network": "[Network]\nAddress=10.0.40.6/29\n",
        "ios.cfg": "interface Vlan48\n ip address 10.0.40.3 255.255.255.248\n",
    }, [("eth.network", 2), ("ios.cfg", 2)], id="v4-grow-elsewhere-29-28"),
    pytest.param('"2001:db8:a::/48": "2001:db8:b:100::/56"', {
        "eth.network": "[Network]\nAddress=2001:db8:b:100::5/48\n",
    }, [("eth.network", 2)], id="v6-shrink-elsewhere-48-56"),
    pytest.param('"2001:db8:a:10::/64": "2001:db8:b:20::/60"', {
        "eth.network": "[Network]\nAddress=2001:db8:b:20::5/64\n",
        "netplan.yaml": "network:\n  ethernets:\n    eth0:\n      addresses: ['2001:db8:b:20::9/64']\n",
    }, [("eth.network", 2), ("netplan.yaml", 4)], id="v6-grow-elsewhere-64-60"),
]


@pytest.mark.parametrize(("networks", "files", "said"), CASES)
def test_a_new_network_host_with_the_old_length_is_said_in_every_spelling(
        networks: str, files: dict[str, str], said: list[tuple[str, int]], repo: Callable[..., Path],
        run: Callable[..., Result]) -> None:
    old_text, new_text = (p.strip().strip('"') for p in networks.split(": "))
    old, new = ipaddress.ip_network(old_text), ipaddress.ip_network(new_text)
    root = repo(files, config=_config(networks), allowlist=ALLOW)
    code, found = _findings(root, run)
    assert code == 1
    assert found == sorted((path, line, "mask") for path, line in said)
    # what each length means: the host is on-link for the old length only, which is not the
    # new network (python's ipaddress)
    for path, line in said:
        text = (root / path).read_text().splitlines()[line - 1]
        words = text.replace("[", " ").replace("]", " ").replace("'", " ").replace("=", " ").split()
        slashed = [w for w in words if "/" in w]
        if slashed:
            host = ipaddress.ip_interface(slashed[0])
        else:
            at = next(i for i, w in enumerate(words) if _is_address(w) and w in text and _in(w, new))
            mask = next(w for w in words[at + 1:] if _is_address(w))
            host = ipaddress.ip_interface(f"{words[at]}/{mask}")
        assert host.ip in new and host.network.prefixlen == old.prefixlen and host.network != new
    # the sweep rewrote nothing (no old value), and still says each
    done = run(root, "sweep", "--dry-run", "--strict")
    assert done.exit_code == 1, done.stdout + done.stderr
    assert all(f"{path}:{line}:" in done.stdout for path, line in said)


def _is_address(word: str) -> bool:
    try:
        ipaddress.ip_address(word)
    except ValueError:
        return False
    return True


def _in(word: str, net: ipaddress.IPv4Network | ipaddress.IPv6Network) -> bool:
    address = ipaddress.ip_address(word)
    return address.version == net.version and address in net


def test_a_subnet_route_and_a_host_at_the_new_length_are_not_said(repo: Callable[..., Path],
                                                                   run: Callable[..., Result]) -> None:
    files = {
        "routes": "ip route add 10.0.60.0/24 via 10.0.60.1\n",  # a network address: a subnet's route
        "eth.network": "[Network]\nAddress=10.0.60.5/22\n",
        "url.txt": "see http://10.0.60.5/24 for the page\n",  # a URL's path, no length
    }
    root = repo(files, config=_config("10.0.48.0/24: 10.0.60.0/22"), allowlist=ALLOW)
    assert _findings(root, run) == (0, [])


def test_a_host_past_where_the_old_network_lands_stays_a_collision(repo: Callable[..., Path],
                                                                   run: Callable[..., Result]) -> None:
    """`10.0.61.7/24` under `10.0.48.0/24: 10.0.60.0/22` is a network the grow swallows (a VLAN in
    use): a collision, as before, not this residual."""
    root = repo({"netplan.yaml": "network:\n  ethernets:\n    eth0:\n      addresses: [10.0.61.7/24]\n"},
                config=_config("10.0.48.0/24: 10.0.60.0/22"), allowlist=ALLOW)
    done = run(root, "verify")
    assert done.exit_code == 0 and "collision: 10.0.61.7 is already here" in done.stdout, done.stdout
    assert "OK: 0 residual" in done.stdout


def test_a_sweep_of_the_old_addresses_leaves_verify_ok(repo: Callable[..., Path],
                                                       run: Callable[..., Result]) -> None:
    files = {
        "eth.network": "[Network]\nAddress=10.0.48.5/24\n",
        "ios.cfg": "interface Vlan48\n ip address 10.0.48.1 255.255.255.0\n",
        "v6.network": "[Network]\nAddress=2001:db8:a:10::5/64\n",
    }
    config = _config('10.0.48.0/24: 10.0.60.0/22, "2001:db8:a:10::/64": "2001:db8:b:20::/60"')
    root = repo(files, config=config, allowlist=ALLOW)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    assert (root / "eth.network").read_text() == "[Network]\nAddress=10.0.60.5/22\n"
    assert (root / "ios.cfg").read_text() == "interface Vlan48\n ip address 10.0.60.1 255.255.252.0\n"
    assert (root / "v6.network").read_text() == "[Network]\nAddress=2001:db8:b:20::5/60\n"
    assert _findings(root, run) == (0, [])


def test_under_a_resize_in_place_each_spelling_is_an_old_host_the_sweep_rewrites(
        repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    """`192.168.40.0/24: 192.168.40.0/22`: the new network's host where the old one lands is an old
    host, so the old length beside it is the sweep's own match in all three spellings (verify fails
    on each, and a sweep gives each the new length)."""
    files = {"eth.network": "[Network]\nAddress=192.168.40.5/24\n",
             "ios.cfg": "interface Vlan40\n ip address 192.168.40.1 255.255.255.0\n",
             "interfaces": "auto eth1\niface eth1 inet static\n    address 192.168.40.6\n    netmask 255.255.255.0\n"}
    root = repo(files, config=_config("192.168.40.0/24: 192.168.40.0/22"), allowlist=ALLOW)
    done = run(root, "verify", "--strict", "--format", "json")
    found = sorted((str(f["path"]), int(f["line"])) for f in json.loads(done.stdout)["findings"])
    assert done.exit_code == 1 and found == [("eth.network", 2), ("interfaces", 4), ("ios.cfg", 2)]
    assert run(root, "sweep", "--commit").exit_code == 0
    assert (root / "eth.network").read_text() == "[Network]\nAddress=192.168.40.5/22\n"
    assert "255.255.252.0" in (root / "ios.cfg").read_text() and "255.255.252.0" in (root / "interfaces").read_text()
    assert _findings(root, run) == (0, [])
