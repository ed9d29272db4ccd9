"""A range over every host of a network a move grows (t31-33 finding 01, what k32-ranges left; g31-gaps33).

Under `10.0.48.0/24: 10.0.60.0/22` a range written as the old network's hosts, first to last
(`10.0.48.1-10.0.48.254`, dnsmasq `dhcp-range=` and `synth-domain=`, ISC dhcpd `range`, a Kea pool,
a MetalLB pool, a NetBox IP-range CSV row, nmap's `10.0.48.1-254`, IPv6 to the last address but
one) kept its offsets (10.0.60.1-254: a quarter of the /22) with no word, sweep 0, verify OK.
Whether such a pool grows with the network is the operator's decision: both ends are a `range`
residual now, before the sweep and after it (verify, audit), naming both readings; a shrink that
cannot hold the range is refused as before; other ranges keep their offsets as before.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from tests.testing.findings import networks_config as _config
from tests.testing.repos import Repo, Run

ALLOW = 'version: 1\ncurrent: ["**"]\n'


def _said(data: dict[str, object], key: str) -> list[tuple[str, int, str]]:
    found = data[key]
    assert isinstance(found, list)
    return sorted((r["path"], r["line"], r["old"]) for r in found if r["status"] == "residual" and r["reason"] == "range")


def _residuals(run: Run, root: Path) -> list[tuple[str, int, str]]:
    return _said(json.loads(run(root, "verify", "--format", "json").stdout), "findings")


def _dnsmasq_test(path: Path) -> None:
    done = subprocess.run(["dnsmasq", "--test", "-C", str(path)], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout + done.stderr


FILES = {
    "notes.md": "LAN hosts: 10.0.48.1-10.0.48.254\nsome: 10.0.48.10-10.0.48.200\n",
    "dnsmasq.conf": ("dhcp-range=set:lan,10.0.48.1,10.0.48.254,12h\n"
                     "synth-domain=lab,10.0.48.1,10.0.48.254,host-*\n"),
    "dhcpd.conf": "subnet 10.0.48.0 netmask 255.255.255.0 {\n  range 10.0.48.1 10.0.48.254;\n}\n",
    "kea.json": ('{"Dhcp4": {"subnet4": [{"subnet": "10.0.48.0/24", "pools": [{"pool": "10.0.48.1 - 10.0.48.254"}]}]},\n'
                 ' "Dhcp6": {"subnet6": [{"subnet": "2001:db8:a:10::/64",\n'
                 '   "pools": [{"pool": "2001:db8:a:10::1 - 2001:db8:a:10:ffff:ffff:ffff:fffe"}]}]}}\n'),
    "pool.yaml": ("apiVersion: metallb.io/v1beta1\nkind: IPAddressPool\nmetadata:\n  name: lan\nspec:\n"
                  "  addresses:\n  - 10.0.48.1-10.0.48.254\n  - 2001:db8:a:10::-2001:db8:a:10:ffff:ffff:ffff:fffe\n"),
    "ranges.csv": "start_address,end_address,status\n10.0.48.1/24,10.0.48.254/24,active\n",
    "scan.sh": "nmap -sn 10.0.48.1-254\n",
}
EXPECTED = sorted([
    ("notes.md", 1, "10.0.48.1"), ("notes.md", 1, "10.0.48.254"),
    ("dnsmasq.conf", 1, "10.0.48.1"), ("dnsmasq.conf", 1, "10.0.48.254"),
    ("dnsmasq.conf", 2, "10.0.48.1"), ("dnsmasq.conf", 2, "10.0.48.254"),
    ("dhcpd.conf", 2, "10.0.48.1"), ("dhcpd.conf", 2, "10.0.48.254"),
    ("kea.json", 1, "10.0.48.1"), ("kea.json", 1, "10.0.48.254"),
    ("kea.json", 3, "2001:db8:a:10::1"), ("kea.json", 3, "2001:db8:a:10:ffff:ffff:ffff:fffe"),
    ("pool.yaml", 7, "10.0.48.1"), ("pool.yaml", 7, "10.0.48.254"),
    ("pool.yaml", 8, "2001:db8:a:10::"), ("pool.yaml", 8, "2001:db8:a:10:ffff:ffff:ffff:fffe"),
    ("ranges.csv", 2, "10.0.48.1/24"), ("ranges.csv", 2, "10.0.48.254/24"),
])


def test_every_host_of_a_network_grown_elsewhere_is_a_range_residual(repo: Repo, run: Run) -> None:
    root = repo(FILES, config=_config('10.0.48.0/24: 10.0.60.0/22, "2001:db8:a:10::/64": "2001:db8:b:20::/60"'),
                allowlist=ALLOW)
    _dnsmasq_test(root / "dnsmasq.conf")
    dry = run(root, "sweep", "--dry-run", "--strict")
    assert dry.exit_code == 1, dry.stdout + dry.stderr
    assert ("dhcpd.conf:2:9: 10.0.48.1 (range: the range 10.0.48.1-10.0.48.254 runs over every host of 10.0.48.0/24, "
            "which grows into 10.0.60.0/22: it covered the whole old network, so whether it grows to every host of "
            "10.0.60.0/22 (10.0.60.1-10.0.63.254) or keeps its offsets (10.0.60.1-10.0.60.254, part of 10.0.60.0/22) "
            "is yours to decide") in dry.stdout
    # nmap's short range: one residual over it
    assert "scan.sh:1:10: 10.0.48.1" in dry.stdout
    assert _residuals(run, root) == sorted([*EXPECTED, ("scan.sh", 1, "10.0.48.1")])
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1, done.stdout + done.stderr
    # the ranges are left whole, the rest follows
    assert (root / "notes.md").read_text() == "LAN hosts: 10.0.48.1-10.0.48.254\nsome: 10.0.60.10-10.0.60.200\n"
    assert (root / "dnsmasq.conf").read_text() == FILES["dnsmasq.conf"]
    assert (root / "dhcpd.conf").read_text() == FILES["dhcpd.conf"].replace(
        "subnet 10.0.48.0 netmask 255.255.255.0", "subnet 10.0.60.0 netmask 255.255.252.0")
    kea = json.loads((root / "kea.json").read_text())
    assert kea["Dhcp4"]["subnet4"][0] == {"subnet": "10.0.60.0/22", "pools": [{"pool": "10.0.48.1 - 10.0.48.254"}]}
    assert kea["Dhcp6"]["subnet6"][0]["subnet"] == "2001:db8:b:20::/60"
    assert (root / "pool.yaml").read_text() == FILES["pool.yaml"]
    assert (root / "ranges.csv").read_text() == FILES["ranges.csv"]
    assert (root / "scan.sh").read_text() == FILES["scan.sh"]
    _dnsmasq_test(root / "dnsmasq.conf")
    checked = run(root, "verify", "--strict")
    assert checked.exit_code == 1, checked.stdout
    assert "dnsmasq.conf:2:18: residual (range): 10.0.48.1: the range 10.0.48.1-10.0.48.254 runs over" in checked.stdout
    assert _residuals(run, root) == sorted([*EXPECTED, ("scan.sh", 1, "10.0.48.1")])
    audit = json.loads(run(root, "audit", "--format", "json").stdout)
    assert _said(audit, "references") == sorted([*EXPECTED, ("scan.sh", 1, "10.0.48.1")])


def test_a_grow_in_place_says_the_ranges_it_leaves_where_they_are(repo: Repo, run: Run) -> None:
    # no end moves (each keeps its offset and the network its start): still every host of the /24 only
    root = repo(FILES, config=_config('10.0.48.0/24: 10.0.48.0/22, "2001:db8:a:10::/64": "2001:db8:a:10::/60"'),
                allowlist=ALLOW)
    expected = sorted([*EXPECTED, ("scan.sh", 1, "10.0.48.1-254")])
    assert _residuals(run, root) == expected
    assert run(root, "sweep", "--dry-run", "--strict").exit_code == 1
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1, done.stdout + done.stderr
    assert (root / "dnsmasq.conf").read_text() == FILES["dnsmasq.conf"]
    assert (root / "dhcpd.conf").read_text().startswith("subnet 10.0.48.0 netmask 255.255.252.0 {\n")
    assert _residuals(run, root) == expected
    assert run(root, "verify", "--strict").exit_code == 1


@pytest.mark.parametrize(("networks", "text", "residual"), [
    pytest.param("10.0.48.0/29: 10.0.70.0/28", "dhcp-range=10.0.48.1,10.0.48.6\n", ["10.0.48.1", "10.0.48.6"],
                 id="29-28"),
    pytest.param("10.0.48.0/23: 10.0.48.0/22", "dhcp-range=10.0.48.1,10.0.49.254\n", ["10.0.48.1", "10.0.49.254"],
                 id="23-22-in-place"),
    # from the network address to the last host is every host too
    pytest.param("10.0.48.0/24: 10.0.60.0/22", "range 10.0.48.0 10.0.48.254;\n", ["10.0.48.0", "10.0.48.254"],
                 id="network-to-last-host"),
    pytest.param('"2001:db8:a::/48": "2001:db8:10::/44"', "pool: 2001:db8:a::1-2001:db8:a:ffff:ffff:ffff:ffff:fffe\n",
                 ["2001:db8:a::1", "2001:db8:a:ffff:ffff:ffff:ffff:fffe"], id="v6-48-44"),
    pytest.param('"2001:db8:a:10::/64": "2001:db8:b::/56"',
                 "range 2001:DB8:A:10:0:0:0:1 2001:DB8:A:10:FFFF:FFFF:FFFF:FFFE;\n",
                 ["2001:DB8:A:10:0:0:0:1", "2001:DB8:A:10:FFFF:FFFF:FFFF:FFFE"], id="v6-exploded-upper"),
])
def test_every_host_in_other_lengths_and_spellings(repo: Repo, run: Run, networks: str, text: str,
                                                  residual: list[str]) -> None:
    root = repo({"dhcp.conf": text}, config=_config(networks), allowlist=ALLOW)
    assert [old for _, _, old in _residuals(run, root)] == sorted(residual)
    assert run(root, "sweep", "--commit").exit_code == 1
    assert (root / "dhcp.conf").read_text() == text
    assert run(root, "verify", "--strict").exit_code == 1


@pytest.mark.parametrize(("networks", "text", "after"), [
    # a range of some hosts keeps its offsets, as every address does
    pytest.param("10.0.48.0/24: 10.0.60.0/22", "dhcp-range=10.0.48.10,10.0.48.200\n",
                 "dhcp-range=10.0.60.10,10.0.60.200\n", id="some-hosts"),
    # the whole network (network to broadcast address) grows whole, as before
    pytest.param("10.0.48.0/24: 10.0.60.0/22", "all: 10.0.48.0-10.0.48.255\n", "all: 10.0.60.0-10.0.63.255\n",
                 id="whole-network"),
    # an equal-length move: every host of the old network is every host of the new one
    pytest.param("10.0.48.0/24: 10.0.60.0/24", "dhcp-range=10.0.48.1,10.0.48.254\n",
                 "dhcp-range=10.0.60.1,10.0.60.254\n", id="equal-length"),
])
def test_other_ranges_follow_as_before(repo: Repo, run: Run, networks: str, text: str, after: str) -> None:
    root = repo({"dnsmasq.conf": text}, config=_config(networks), allowlist=ALLOW)
    assert _residuals(run, root) == []
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    assert (root / "dnsmasq.conf").read_text() == after
    assert run(root, "verify", "--strict").exit_code == 0


def test_a_shrink_that_cannot_hold_every_host_is_refused_as_before(repo: Repo, run: Run) -> None:
    root = repo({"dnsmasq.conf": FILES["dnsmasq.conf"], "pool.yaml": FILES["pool.yaml"]},
                config=_config("10.0.48.0/24: 10.0.48.0/25"), allowlist=ALLOW)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 3, done.stdout + done.stderr
    assert "dnsmasq.conf:1: outside the new, smaller network: 10.0.48.254" in done.stderr
    assert (root / "dnsmasq.conf").read_text() == FILES["dnsmasq.conf"]
