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
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from tests.testing.findings import networks_config as _config
from tests.testing.repos import Repo, Run
from tests.testing.said import once

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
    once(dry.stdout, "dhcpd.conf:2:9: 10.0.48.1 (range", "the range 10.0.48.1-10.0.48.254 runs over every host of "
         "10.0.48.0/24, which grows into 10.0.60.0/22: it covered the whole old network, so whether it grows to "
         "every host of 10.0.60.0/22 (10.0.60.1-10.0.63.254) or keeps its offsets (10.0.60.1-10.0.60.254, part of "
         "10.0.60.0/22) is yours to decide")
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
    once(checked.stdout, "dnsmasq.conf:2:18: residual (range): 10.0.48.1",
         "the range 10.0.48.1-10.0.48.254 runs over every host of 10.0.48.0/24, which grows")
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


# -- t33-33 finding 06: every host but the gateway's (`.2-.254`), and a scan's two ends -----------------

LIBVIRT = ("<network>\n  <name>default</name>\n  <forward mode='nat'/>\n  <bridge name='virbr0'/>\n"
           "  <ip address='10.0.48.1' netmask='255.255.255.0'>\n    <dhcp>\n"
           "      <range start='10.0.48.2' end='10.0.48.254'/>\n    </dhcp>\n  </ip>\n</network>\n")
FORTI_DHCP = ("config system dhcp server\n    edit 1\n        set interface \"lan\"\n"
              "        set default-gateway 10.0.48.1\n        config ip-range\n            edit 1\n"
              "                set start-ip 10.0.48.2\n                set end-ip 10.0.48.254\n            next\n"
              "        end\n    next\nend\n")
AFTER_GATEWAY = {
    "default.xml": LIBVIRT,
    "forti.conf": FORTI_DHCP,
    "sweep-lan.sh": "fping -a -q -g 10.0.48.1 10.0.48.254\nprips 10.0.48.1 10.0.48.254 | xargs -n1 ping -c1\n",
    "dnsmasq.conf": "dhcp-range=10.0.48.2,10.0.48.254,12h\ndhcp-range=10.0.48.1,10.0.48.253,12h\n",
}


def test_every_host_after_the_gateway_and_scans_are_range_residuals(repo: Repo, run: Run) -> None:
    """libvirt's default network and FortiGate's dhcp ip-range from .2 (the gateway at .1), a pool to
    .253 (the gateway at .254), `fping -g A B` and `prips A B` under `/24 -> /22`: before, each kept
    its offsets (libvirt leased 253 of the /22's 1022 hosts), sweep 0, verify OK."""
    root = repo(AFTER_GATEWAY, config=_config("10.0.48.0/24: 10.0.60.0/22"), allowlist=ALLOW)
    _dnsmasq_test(root / "dnsmasq.conf")
    dry = run(root, "sweep", "--dry-run", "--strict")
    assert dry.exit_code == 1, dry.stdout + dry.stderr
    once(dry.stdout, "default.xml:7:21: 10.0.48.2 (range", "the range 10.0.48.2-10.0.48.254 runs over every host of "
         "10.0.48.0/24 but the first (a gateway's), which grows into 10.0.60.0/22: it covered the whole old "
         "network but its gateway, so whether it grows to every host of 10.0.60.0/22 (10.0.60.2-10.0.63.254) "
         "or keeps its offsets (10.0.60.2-10.0.60.254, part of 10.0.60.0/22) is yours to decide")
    expected = sorted([
        ("default.xml", 7, "10.0.48.2"), ("default.xml", 7, "10.0.48.254"),
        ("forti.conf", 7, "10.0.48.2"), ("forti.conf", 8, "10.0.48.254"),
        ("sweep-lan.sh", 1, "10.0.48.1"), ("sweep-lan.sh", 1, "10.0.48.254"),
        ("sweep-lan.sh", 2, "10.0.48.1"), ("sweep-lan.sh", 2, "10.0.48.254"),
        ("dnsmasq.conf", 1, "10.0.48.2"), ("dnsmasq.conf", 1, "10.0.48.254"),
        ("dnsmasq.conf", 2, "10.0.48.1"), ("dnsmasq.conf", 2, "10.0.48.253")])
    assert _residuals(run, root) == expected
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1, done.stdout + done.stderr
    for name in ("forti.conf", "sweep-lan.sh", "dnsmasq.conf"):
        text = (root / name).read_text()
        assert text == AFTER_GATEWAY[name].replace("default-gateway 10.0.48.1", "default-gateway 10.0.60.1"), name
    ip = ET.parse(root / "default.xml").getroot().find("ip")
    assert ip is not None and (ip.get("address"), ip.get("netmask")) == ("10.0.60.1", "255.255.252.0")
    pool = ip.find("dhcp/range")
    assert pool is not None and (pool.get("start"), pool.get("end")) == ("10.0.48.2", "10.0.48.254")  # left whole
    _dnsmasq_test(root / "dnsmasq.conf")
    assert run(root, "verify", "--strict").exit_code == 1
    assert _residuals(run, root) == expected


@pytest.mark.parametrize(("networks", "text", "residual"), [
    pytest.param("10.0.48.0/23: 10.0.48.0/22", "dhcp-range=10.0.48.2,10.0.49.254\n", ["10.0.48.2", "10.0.49.254"],
                 id="23-22-after-gateway"),
    pytest.param('"2001:db8:a:10::/64": "2001:db8:b::/60"',
                 "range6 2001:db8:a:10::2 2001:db8:a:10:ffff:ffff:ffff:fffe;\n",
                 ["2001:db8:a:10::2", "2001:db8:a:10:ffff:ffff:ffff:fffe"], id="v6-64-60-after-gateway"),
    pytest.param("10.0.48.0/24: 10.0.60.0/22", "fping --generate 10.0.48.1 10.0.48.254\n",
                 ["10.0.48.1", "10.0.48.254"], id="fping-generate"),
])
def test_every_host_after_the_gateway_in_other_lengths(repo: Repo, run: Run, networks: str, text: str,
                                                       residual: list[str]) -> None:
    root = repo({"dhcp.conf": text}, config=_config(networks), allowlist=ALLOW)
    assert [old for _, _, old in _residuals(run, root)] == sorted(residual)
    assert run(root, "sweep", "--commit").exit_code == 1
    assert (root / "dhcp.conf").read_text() == text


@pytest.mark.parametrize(("networks", "text", "after"), [
    # a /29's .2-.6 is a pool of its own (a host fewer at an end is no gateway's there): it follows
    pytest.param("10.0.48.0/29: 10.0.70.0/28", "dhcp-range=10.0.48.2,10.0.48.6\n",
                 "dhcp-range=10.0.70.2,10.0.70.6\n", id="29-28-two-to-six"),
    # a host fewer at both ends is no longer every host: it keeps its offsets
    pytest.param("10.0.48.0/24: 10.0.60.0/22", "dhcp-range=10.0.48.2,10.0.48.253\n",
                 "dhcp-range=10.0.60.2,10.0.60.253\n", id="two-to-253"),
    pytest.param("10.0.48.0/24: 10.0.60.0/22", "fping -g 10.0.48.10 10.0.48.200\n",
                 "fping -g 10.0.60.10 10.0.60.200\n", id="fping-some-hosts"),
])
def test_ranges_of_some_hosts_still_follow(repo: Repo, run: Run, networks: str, text: str, after: str) -> None:
    root = repo({"dnsmasq.conf": text}, config=_config(networks), allowlist=ALLOW)
    assert _residuals(run, root) == []
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    assert (root / "dnsmasq.conf").read_text() == after
