"""IPv6 subnet IDs written alone, read across the repo (sweep/delegated_ids.py, t36-33 finding 17):
networkd's `SubnetId=` and OpenWrt's `ip6hint` in files that name no address, under a shrinking
IPv6 move, end to end through the CLI: said as `tied-length`, never rewritten, verify fails."""

from __future__ import annotations

import json

import pytest

from tests.testing.findings import networks_config as _config
from tests.testing.repos import Repo, Run

ALLOW = 'version: 1\ncurrent: ["**"]\nrecords:\n  - {name: notes, paths: ["notes/**"], reason: dated}\n'
LAN = ("[Match]\nName=lan0\n\n[Network]\nDHCPPrefixDelegation=yes\n\n[DHCPPrefixDelegation]\n"
       "UplinkInterface=wan0\nSubnetId=0xf002\nAnnounce=yes\n")
IOT = "[Match]\nName=iot0\n\n[DHCPPrefixDelegation]\nSubnetId=0x00ff\n"  # a /52 holds it
OPENWRT = "config interface 'guest'\n\toption proto 'static'\n\toption ip6assign '60'\n\toption ip6hint 'e000'\n"


def test_a_delegated_subnet_id_a_shrink_leaves_no_room_for_is_said(repo: Repo, run: Run) -> None:
    files = {"etc/systemd/network/10-lan.network": LAN, "etc/systemd/network/20-iot.network": IOT,
             "openwrt/network": OPENWRT, "site.yml": "site_prefix: 2001:db8:a::/48\n",
             "notes/2025-lan.network": LAN}  # a record: not said
    root = repo(files, config=_config("2001:db8:a::/48: 2001:db8:a::/52"), allowlist=ALLOW)
    checked = run(root, "verify", "--format", "json")
    found = {(f["path"], f["line"], f["old"]) for f in json.loads(checked.stdout)["findings"]
             if f["reason"] == "tied-length"}
    assert found == {("etc/systemd/network/10-lan.network", 9, "f002"), ("openwrt/network", 4, "e000")}
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1, done.stdout  # the residuals stand
    assert "10-lan.network:9" in done.stdout and "delegated prefix" in done.stdout
    for path in ("etc/systemd/network/10-lan.network", "etc/systemd/network/20-iot.network", "openwrt/network"):
        assert (root / path).read_text() == files[path]
    assert (root / "site.yml").read_text() == "site_prefix: 2001:db8:a::/52\n"
    assert run(root, "verify").exit_code == 1


@pytest.mark.parametrize("networks", ["2001:db8:a::/48: 2001:db8:b::/48", "10.0.0.0/24: 10.0.0.0/25"])
def test_a_move_of_one_length_or_of_ipv4_says_nothing(repo: Repo, run: Run, networks: str) -> None:
    files = {"10-lan.network": LAN, "site.yml": "site_prefix: 2001:db8:a::/48\n"}
    root = repo(files, config=_config(networks), allowlist=ALLOW)
    checked = json.loads(run(root, "verify", "--format", "json").stdout)
    assert not [f for f in checked["findings"] if f["path"] == "10-lan.network"], checked
