"""An address renumbered onto another machine's DHCP reservation (issue 27 items 7 and 18; break-it
round 23, #09): refused in dnsmasq `dhcp-host` and ISC dhcpd already, now in every reservation
syntax the sweep reads (sweep/reservation_keys.py): Kea `reservations` (one line, pretty-printed,
DHCPv6 `ip-addresses`), OpenWrt UCI `config host` (address and name), networkd
`[DHCPServerStaticLease]`, Windows `Add-DhcpServerv4Reservation` and `netsh ... add reservedip`,
RouterOS `lease add`, dhcpd `fixed-address` over several lines. Exit 3 before any write, naming
both lines; verify fails. An address renumbered onto a free one is written without a word."""

from __future__ import annotations

import pytest

from tests.testing.repos import git, make_repo, snapshot

ALLOW = "version: 1\ncurrent: ['**']\n"
ADDRESSES = "  addresses: {10.0.0.70: 10.0.0.71, 2001:db8::70: 2001:db8::71}\n"


def _config(renames: str = ADDRESSES) -> str:
    return f"version: 1\nname: renumber\ncutover: 2026-10-05\nrenames:\n{renames}allowlist: allow.yaml\n"


KEA_PRETTY = """{
  "Dhcp4": {
    "subnet4": [
      {
        "id": 1,
        "subnet": "10.0.0.0/24",
        "reservations": [
          {
            "hw-address": "00:11:22:33:44:55",
            "ip-address": "10.0.0.70"
          },
          {
            "hw-address": "00:11:22:33:44:66",
            "ip-address": "10.0.0.71"
          }
        ]
      }
    ]
  }
}
"""
CASES = [
    pytest.param("kea-dhcp4.conf",
                 '{"Dhcp4": {"subnet4": [{"id": 1, "subnet": "10.0.0.0/24", "reservations": [\n'
                 '  {"hw-address": "00:11:22:33:44:55", "ip-address": "10.0.0.70", "hostname": "web01"},\n'
                 '  {"hw-address": "00:11:22:33:44:66", "ip-address": "10.0.0.71", "hostname": "web02"}]}]}}\n',
                 2, 3, "the Kea reservation address 10.0.0.71", id="kea-report"),
    pytest.param("etc/kea/kea-dhcp4.json", KEA_PRETTY, 10, 14, "the Kea reservation address 10.0.0.71",
                 id="kea-pretty"),
    pytest.param("kea-dhcp6.conf",
                 '{"Dhcp6": {"subnet6": [{"id": 1, "subnet": "2001:db8::/64", "reservations": [\n'
                 '  {"duid": "01:02:03:04", "ip-addresses": ["2001:db8::70"]},\n'
                 '  {"duid": "01:02:03:05", "ip-addresses": ["2001:DB8:0::71"]}]}]}}\n',
                 2, 3, "the Kea reservation address 2001:db8::71", id="kea6-other-spelling"),
    pytest.param("openwrt/etc/config/dhcp",
                 "config host\n\toption name 'web01'\n\toption mac '00:11:22:33:44:55'\n\toption ip '10.0.0.70'\n\n"
                 "config host\n\toption name 'web02'\n\toption mac '00:11:22:33:44:66'\n\toption ip '10.0.0.71'\n",
                 4, 9, "the UCI host (a dnsmasq dhcp-host) address 10.0.0.71", id="uci-report"),
    pytest.param("lan.network",
                 "[Match]\nName=lan0\n\n[DHCPServerStaticLease]\nMACAddress=00:11:22:33:44:55\nAddress=10.0.0.70\n\n"
                 "[DHCPServerStaticLease]\nMACAddress=00:11:22:33:44:66\nAddress=10.0.0.71\n",
                 6, 10, "the networkd static lease address 10.0.0.71", id="networkd"),
    pytest.param("dhcp.ps1",
                 "Add-DhcpServerv4Reservation -ScopeId 10.0.0.0 -IPAddress 10.0.0.70 -ClientId 00-11-22-33-44-55\n"
                 "Add-DhcpServerv4Reservation -ScopeId 10.0.0.0 -IPAddress 10.0.0.71 -ClientId 00-11-22-33-44-66\n",
                 1, 2, "the Windows DHCP reservation address 10.0.0.71", id="windows"),
    pytest.param("dhcp.cmd",
                 "netsh dhcp server scope 10.0.0.0 add reservedip 10.0.0.70 001122334455 web01\n"
                 "netsh dhcp server scope 10.0.0.0 add reservedip 10.0.0.71 001122334466 web02\n",
                 1, 2, "the Windows DHCP reservation address 10.0.0.71", id="netsh"),
    pytest.param("router.rsc",
                 "/ip dhcp-server lease\nadd address=10.0.0.70 mac-address=00:11:22:33:44:55 server=lan\n"
                 "add address=10.0.0.71 mac-address=00:11:22:33:44:66 server=lan\n",
                 2, 3, "the RouterOS static lease address 10.0.0.71", id="routeros-export"),
    pytest.param("router2.rsc",
                 "/ip dhcp-server lease add address=10.0.0.70 mac-address=00:11:22:33:44:55\n"
                 "/ip dhcp-server lease add address=10.0.0.71 mac-address=00:11:22:33:44:66\n",
                 1, 2, "the RouterOS static lease address 10.0.0.71", id="routeros"),
    pytest.param("dhcpd.conf",
                 "subnet 10.0.0.0 netmask 255.255.255.0 {\n"
                 "  host web01 { hardware ethernet 00:11:22:33:44:55; fixed-address 10.0.0.70; }\n"
                 "  host web02 {\n    hardware ethernet 00:11:22:33:44:66;\n    fixed-address 10.0.0.71;\n  }\n}\n",
                 2, 5, "the dhcpd fixed-address 10.0.0.71", id="dhcpd-names-itself"),
]


@pytest.mark.parametrize(("path", "text", "line", "other", "what"), CASES)
def test_an_address_renumbered_onto_another_reservation_is_refused(tmp_path, run, path: str, text: str,
                                                                   line: int, other: int,
                                                                   what: str) -> None:
    root = make_repo(tmp_path / "repo", {path: text}, config=_config(), allowlist=ALLOW)
    head, before = git(root, "rev-parse", "HEAD"), snapshot(root)
    swept = run(root, "sweep", "--commit")
    assert swept.exit_code == 3, swept.stderr  # before: 0, written (Kea, UCI), or a wrong reason (dhcpd)
    assert snapshot(root) == before and git(root, "rev-parse", "HEAD") == head
    assert f"{path}:{line}: " in swept.stderr and f"line {other} already holds it" in swept.stderr
    assert f"both would be {what}, two things under one name" in swept.stderr
    assert "ssh Host block" not in swept.stderr
    checked = run(root, "verify", "--strict")
    assert checked.exit_code == 1 and f"{path}:{line}:" in checked.stdout  # before: OK after the sweep


def test_a_uci_host_renamed_onto_another_s_name_is_refused(tmp_path, run) -> None:
    """Both become dnsmasq `dhcp-host` lines: two of one name (variant of the same class, by name)."""
    text = ("config host\n\toption name 'web01'\n\toption ip '10.0.0.70'\n\n"
            "config host\n\toption name 'web02'\n\toption ip '10.0.0.72'\n")
    root = make_repo(tmp_path / "repo", {"etc/config/dhcp": text},
                     config=_config("  hosts: {web01: web02}\n"), allowlist=ALLOW)
    swept = run(root, "sweep", "--commit")
    assert swept.exit_code == 3, swept.stderr
    assert "both would be the UCI host (a dnsmasq dhcp-host) name web02" in swept.stderr


def test_a_renumber_onto_a_free_address_is_written_without_a_word(tmp_path, run) -> None:
    files = {"kea-dhcp4.conf": KEA_PRETTY, "lan.network": "[DHCPServerStaticLease]\nAddress=10.0.0.70\n",
             "etc/config/dhcp": "config host\n\toption name 'web01'\n\toption ip '10.0.0.70'\n",
             # the same address twice outside any reservation list: no key of a DHCP server
             "inventory.json": '{"a": {"ip-address": "10.0.0.70"}, "b": {"ip-address": "10.0.0.80"}}\n'}
    root = make_repo(tmp_path / "repo", files, config=_config("  addresses: {10.0.0.70: 10.0.0.80}\n"),
                     allowlist=ALLOW)
    swept = run(root, "sweep", "--commit")
    assert swept.exit_code == 0, swept.stderr
    assert '"ip-address": "10.0.0.80"' in (root / "kea-dhcp4.conf").read_text()
    assert (root / "inventory.json").read_text().count("10.0.0.80") == 2
    assert run(root, "verify").exit_code == 0
