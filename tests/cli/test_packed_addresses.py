"""An IPv4 address packed where the exact rules did not read it (issue 27, outside pass t36-sweep,
findings 12, 21, 22): hex bytes of a DHCP option (UniFi's option 43 in dnsmasq, ISC, Cisco IOS,
MikroTik, Windows, Kea), a 6to4 prefix and an ISATAP id in hex, inet_aton's short dotted forms.
Each was left under a rename with sweep 0 and verify --strict OK. Now the option bytes and the
tunnel prefixes are rewritten (their readers read nothing else there), a moved network's address
so packed and a short form are residuals; a short form outside a network tool or a URL (a version)
and hex bytes outside a DHCP option (a MAC) are left."""

from __future__ import annotations

import ipaddress
import json
import socket
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Result

Repo = Callable[..., Path]
Run = Callable[..., Result]
ALLOW = "version: 1\ncurrent: ['**']\n"
RENAME = "version: 1\nrenames:\n  addresses: {10.0.0.70: 10.0.1.90}\nallowlist: allow.yaml\n"
MOVE = "version: 1\nrenames:\n  networks: {10.0.0.0/24: 10.9.0.0/24}\nallowlist: allow.yaml\n"

OPTIONS = {
    "dnsmasq.conf": ("dhcp-option=tag:unifi,43,01:04:0a:00:00:46\n", "dhcp-option=tag:unifi,43,01:04:0a:00:01:5a\n"),
    "dhcpd.conf": ("option vendor-encapsulated-options 01:04:0A:00:00:46;\n",
                   "option vendor-encapsulated-options 01:04:0A:00:01:5A;\n"),
    "ios.cfg": ("ip dhcp pool AP\n option 43 hex f104.0a00.0046\n", "ip dhcp pool AP\n option 43 hex f104.0a00.015a\n"),
    "dhcp.rsc": ("/ip dhcp-server option add code=43 name=unifi value=0x01040a000046\n",
                 "/ip dhcp-server option add code=43 name=unifi value=0x01040a00015a\n"),
    "dhcp.ps1": ("Set-DhcpServerv4OptionValue -OptionId 43 -Value 0x01,0x04,0x0a,0x00,0x00,0x46\n",
                 "Set-DhcpServerv4OptionValue -OptionId 43 -Value 0x01,0x04,0x0a,0x00,0x01,0x5a\n"),
    "huawei.cfg": ("ip pool ap\n option 43 hex 01 04 0A 00 00 46\n", "ip pool ap\n option 43 hex 01 04 0A 00 01 5A\n"),
    "kea.json": ('{"option-data": [{"code": 43,\n  "data": "01:04:0A:00:00:46"}]}\n',
                 '{"option-data": [{"code": 43,\n  "data": "01:04:0A:00:01:5A"}]}\n'),
}


@pytest.mark.parametrize("native", ["0", "1"])
def test_finding_12_dhcp_option_bytes_of_a_renamed_address_are_rewritten(
        native: str, repo: Repo, run: Run, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("RENAMER_NATIVE", native)
    # a MAC holding the same bytes, and a line that is no DHCP option, are left
    left = {"ethers": "00:0a:00:00:46:01 ap1\n", "dump.txt": "bytes 01:04:0a:00:00:46\n"}
    root = repo({**{k: v[0] for k, v in OPTIONS.items()}, **left}, config=RENAME, allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 0
    for path, (_, after) in OPTIONS.items():
        assert (root / path).read_text() == after, path
    for path, text in left.items():
        assert (root / path).read_text() == text, path
    assert run(root, "verify", "--strict").exit_code == 0
    # dnsmasq reads the swept option, and its bytes are the new address
    checked = subprocess.run(["dnsmasq", "--test", "-C", str(root / "dnsmasq.conf")],
                             capture_output=True, text=True, check=False)
    assert checked.returncode == 0, checked.stderr
    tail = (root / "dnsmasq.conf").read_text().strip().split(",")[-1].split(":")[2:]
    assert str(ipaddress.IPv4Address(bytes.fromhex("".join(tail)))) == "10.0.1.90"


def test_finding_12_a_moved_networks_address_in_option_bytes_is_a_residual(repo: Repo, run: Run) -> None:
    files = {"dnsmasq.conf": "dhcp-option=tag:unifi,43,01:04:0a:00:00:46\n",
             "ios.cfg": " option 43 hex f104.0a00.0046\n"}
    root = repo(files, config=MOVE, allowlist=ALLOW)
    data = json.loads(run(root, "verify", "--format", "json").stdout)
    found = sorted((f["path"], f["old"], f["status"]) for f in data["findings"] if f["reason"] == "packed-address")
    assert found == [("dnsmasq.conf", "0a:00:00:46", "residual"), ("ios.cfg", "0a00.0046", "residual")], data
    assert run(root, "sweep", "--commit").exit_code == 1
    for path, text in files.items():
        assert (root / path).read_text() == text, path
    assert run(root, "verify", "--strict").exit_code == 1


@pytest.mark.parametrize("native", ["0", "1"])
def test_finding_22_6to4_and_isatap_of_a_renamed_address_are_rewritten(
        native: str, repo: Repo, run: Run, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RENAMER_NATIVE", native)
    before = ("interface tun6to4\n ipv6 address 2002:a00:46::1/48\nipv6 route 2002:0a00:0046:1::/64 tun6to4\n"
              "isatap-router fe80::5efe:a00:46\nisatap-peer FE80::200:5EFE:0A00:0046\n"
              "other 2002:a00:47::1 fe80::5efe:a00:47\n")
    after = ("interface tun6to4\n ipv6 address 2002:a00:15a::1/48\nipv6 route 2002:0a00:015a:1::/64 tun6to4\n"
             "isatap-router fe80::5efe:a00:15a\nisatap-peer FE80::200:5EFE:0A00:015A\n"
             "other 2002:a00:47::1 fe80::5efe:a00:47\n")
    root = repo({"router.cfg": before}, config=RENAME, allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 0
    assert (root / "router.cfg").read_text() == after
    # RFC 3056 / RFC 5214: the IPv4 address a reader takes out of each is the new one
    assert ipaddress.IPv6Address("2002:a00:15a::1").sixtofour == ipaddress.IPv4Address("10.0.1.90")
    assert ipaddress.IPv6Address("FE80::200:5EFE:0A00:015A").packed[-4:] == socket.inet_aton("10.0.1.90")
    assert run(root, "verify", "--strict").exit_code == 0


def test_finding_22_a_moved_networks_6to4_prefix_is_a_residual(repo: Repo, run: Run) -> None:
    root = repo({"router.cfg": " ipv6 address 2002:a00:46::1/48\n"}, config=MOVE, allowlist=ALLOW)
    data = json.loads(run(root, "verify", "--format", "json").stdout)
    assert [(f["old"], f["status"]) for f in data["findings"] if f["reason"] == "packed-address"] \
        == [("2002:a00:46::1", "residual")], data


@pytest.mark.parametrize("native", ["0", "1"])
def test_finding_21_short_forms_in_a_network_context_are_residuals(
        native: str, repo: Repo, run: Run, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RENAMER_NATIVE", native)
    shorts = ("10.70", "10.0.70", "0xa.0x46", "10.0x46")
    assert {socket.inet_ntoa(socket.inet_aton(s)) for s in shorts} == {"10.0.0.70"}  # what ping reads
    script = ("ping -c1 10.70\nssh root@10.0.70 uptime\ncurl -s http://0xa.0x46/health\n"
              "nc -z 10.0x46 22\n")
    left = {"package.json": '{"version": "10.0.70"}\n', "notes.md": "Upgrade to 10.70 first.\n",
            "pin.txt": "ping 10.71\n"}
    files = {"check.sh": script, **left}
    root = repo(files, config=RENAME, allowlist=ALLOW)
    data = json.loads(run(root, "verify", "--format", "json").stdout)
    found = sorted((f["path"], f["line"], f["old"]) for f in data["findings"] if f["reason"] == "short-address")
    assert found == [("check.sh", 1, "10.70"), ("check.sh", 2, "10.0.70"), ("check.sh", 3, "0xa.0x46"),
                     ("check.sh", 4, "10.0x46")], data["findings"]
    assert all(f["status"] == "residual" for f in data["findings"] if f["reason"] == "short-address")
    assert run(root, "sweep", "--commit").exit_code == 1
    for path, text in files.items():
        assert (root / path).read_text() == text, path  # nothing rewritten by guess
    assert run(root, "verify", "--strict").exit_code == 1
