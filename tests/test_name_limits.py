"""name_limits: which values of which files a platform limits, read whole with every old value
inside replaced (pure logic; the sweep's refusal is tests/cli/test_name_limits.py's)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from renamer.name_limits import LIMIT, limited, might_hold
from renamer.occurrences import Match


def _hits(data: bytes, old: str, new: str) -> list[Match]:
    out, at = [], data.find(old.encode())
    while at >= 0:
        out.append(Match(at, at + len(old), old, new, "host"))
        at = data.find(old.encode(), at + 1)
    return out


def _refused(rel: str, text: str, old: str = "fs01", new: str = "fileserver-primary-01") -> list[str | None]:
    data = text.encode()
    return [m.refused for m in limited(rel, data, _hits(data, old, new))]


@pytest.mark.parametrize(("rel", "text"), [
    ("smb.conf", "[global]\n   netbios name = fs01\n"),
    ("etc/samba/smb.conf", "[global]\nNetBIOS Name=fs01\n"),
    ("smb.conf", "[global]\n   netbios aliases = files fs01 print\n"),
    ("autounattend.xml", "<ComputerName>fs01</ComputerName>\n"),
    ("unattend.xml", "<component><computername> fs01 </computername></component>\n"),
    ("rename.ps1", "Rename-Computer -NewName fs01 -Restart\n"),
    ("join.ps1", "Add-Computer -DomainName lab.example -NewName 'fs01' -Credential $c\n"),
    ("rename.cmd", "netdom renamecomputer %COMPUTERNAME% /newname:fs01 /force\n"),
    ("br.netdev", "[NetDev]\nName=fs01\nKind=bridge\n"),
    ("10-lan.link", "[Match]\nMACAddress=00:11:22:33:44:55\n[Link]\nName=lan-fs01\n"),
    ("netplan/01.yaml", "network:\n  ethernets:\n    eth0:\n      set-name: fs01-lan\n"),
    ("lan.nmconnection", "[connection]\nid=lan\ninterface-name=fs01\n"),
    ("network/interfaces", "auto lo fs01\niface fs01 inet static\n  address 10.0.0.5/24\n"),
    ("up.sh", "ip link add name fs01 type bridge\nip link set eth1 name fs01\n"),
    ("main.tf", "resource \"azurerm_windows_virtual_machine\" \"x\" {\n  computer_name = \"fs01\"\n}\n"),
    ("Vagrantfile", "config.vm.guest = :windows\nconfig.vm.computer_name = \"fs01\"\n"),
    ("dsc.ps1", "Computer SetName\n{\n    Name = \"fs01\"\n}\n"),
    ("site.yml", "- win_hostname:\r\n    restart: true\r\n    name: 'fs01'\r\n"),
])
def test_a_name_over_the_limit_of_its_place_is_refused(rel: str, text: str) -> None:
    refused = _refused(rel, text)
    assert refused and all(r == LIMIT for r in refused), refused


@pytest.mark.parametrize(("rel", "text", "old", "new"), [
    ("smb.conf", "[global]\n   netbios name = fs01\n", "fs01", "fs02"),  # 4 characters: fits
    ("smb.conf", "[global]\n   netbios name = fs01\n", "fs01", "fileserver-0001"),  # exactly 15
    ("smb.conf", "[global]\n   server string = fs01\n", "fs01", "fileserver-primary-01"),  # no NetBIOS name
    ("br.conf", "[NetDev]\nName=fs01\n", "fs01", "fileserver-primary-01"),  # not a .netdev: any `Name=`
    ("inventory.yaml", "name: fs01\n", "fs01", "fileserver-primary-01"),
    ("rename.ps1", "Rename-Item -Path fs01 -NewName fs01.bak\n", "fs01", "fileserver-primary-01"),
    ("ssh_config", "Host fs01\n  HostName fs01.lab.example\n", "fs01", "fileserver-primary-01"),
    ("linux.tf", "resource \"azurerm_linux_virtual_machine\" \"x\" {\n  computer_name = \"fs01\"\n}\n", "fs01",
     "fileserver-primary-01"),  # a Linux VM's computer_name holds 64
    ("dsc.ps1", "File Share {\n    Name = 'fs01'\n}\n", "fs01", "fileserver-primary-01"),  # not `Computer`
])
def test_a_name_within_the_limit_or_in_no_limited_place_is_left_alone(rel: str, text: str, old: str,
                                                                      new: str) -> None:
    assert set(_refused(rel, text, old, new)) == {None}


def test_the_whole_value_counts_and_every_occurrence_in_it_is_refused() -> None:
    """`br-fs01` becomes `br-fileserver-primary-01`: the prefix counts; both names of
    `ip link add` and `name` are read, the one beyond the limit alone refused."""
    data = b"ip link add name br-fs01 type bridge\n"
    found = limited("up.sh", data, _hits(data, "fs01", "fileserver-primary-01"))
    assert [m.refused for m in found] == [LIMIT]
    assert found[0].note == ("br-fileserver-primary-01 would be 24 characters here; a Linux interface name "
                             "holds 15 (IFNAMSIZ)")
    short = limited("up.sh", data, _hits(data, "fs01", "fs-primary01"))  # br-fs-primary01: 15
    assert [m.refused for m in short] == [None]


def test_an_occurrence_refused_already_keeps_its_reason() -> None:
    data = b"netbios name = fs01\n"
    kept = [Match(15, 19, "fs01", "fileserver-primary-01", "host", refused="pattern")]
    assert limited("smb.conf", data, kept) == kept


def test_only_the_lines_of_open_matches_are_asked_for_a_limited_place() -> None:
    """Issue 30: the test for a limited place searched every file holding a match whole (0.4 ms
    a file); a place is one line or a block its word opens a few lines above (`- win_hostname:`
    over `name: fs01`), so those lines of the open matches answer for the file."""
    data = b"[global]\n   netbios name = files\n" + b"# the share\n" * 5 + b"# fs01 serves the share\n" * 2000
    matches = _hits(data, "fs01", "fileserver-primary-01")
    assert might_hold(data) and not might_hold(data, matches)
    assert limited("smb.conf", data, matches) == matches  # nothing there to refuse
    on_its_line = b"# fs01\r\nnetbios name = fs01\r\n"
    hits = _hits(on_its_line, "fs01", "fileserver-primary-01")
    assert might_hold(on_its_line, hits) and not might_hold(on_its_line, hits[:1])
    refused = [replace(m, refused="pattern") for m in hits]
    assert not might_hold(on_its_line, refused)  # a refused or kept match is no open one


_LINES = ["netbios name = fs01", "NetBIOS aliases = a fs01", "<ComputerName>fs01</ComputerName>",
          "Rename-Computer -NewName fs01", "netdom renamecomputer x /newname:fs01", "Name=fs01",
          "set-name: fs01", "interface-name=fs01", "iface fs01 inet static", "auto lo fs01",
          "ip link add name br-fs01", "ip link set eth0 name fs01", "host: fs01", "# fs01",
          "netbios name = files", "auto eth0", "", "fs01 fs01"]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(_LINES), max_size=12), st.sampled_from(["\n", "\r\n"]),
       st.sampled_from(["smb.conf", "br.netdev", "network/interfaces", "up.sh"]))
def test_where_no_line_of_a_match_holds_a_place_nothing_is_refused(lines: list[str], newline: str,
                                                                   rel: str) -> None:
    """might_hold(data, matches) is False only where limited() leaves every match as it was."""
    data = newline.join(lines).encode()
    matches = _hits(data, "fs01", "fileserver-primary-01")
    if not might_hold(data, matches):
        assert limited(rel, data, matches) == matches
    if might_hold(data, matches):
        assert might_hold(data)
