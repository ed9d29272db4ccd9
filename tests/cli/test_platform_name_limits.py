"""A new name over the limit of the place it lands in (issue 27 item 16, B-12; break-it round 23,
#14): `fs01 -> fileserver-primary-01` (21 characters, a valid DNS label) in a NetBIOS name, a
Windows computer name or a Linux interface name (15 each) refuses the sweep before its first
write, file:line and the reason, the dry run lists it, verify fails on it; a new name that fits is
written as before, without a word."""

from __future__ import annotations

import json
import subprocess

import pytest

from tests.testing.repos import git, make_repo, snapshot

ALLOW = "version: 1\ncurrent: ['**']\n"


def _config(new: str) -> str:
    return (f"version: 1\nname: fs-move\ncutover: 2026-10-05\nrenames:\n  hosts: {{fs01: {new}}}\n"
            "allowlist: allow.yaml\n")


# Each place of the report, and two variants of each class of our own.
PLACES = {
    "smb.conf": "[global]\n   netbios name = fs01\n   workgroup = LAB\n",  # report
    "samba/aliases.conf": "[global]\n   netbios aliases = files fs01\n",  # variant
    "autounattend.xml": ("<unattend><settings pass=\"specialize\"><component name=\"Microsoft-Windows-Shell-"
                         "Setup\"><ComputerName>fs01</ComputerName></component></settings></unattend>\n"),  # report
    "rename.ps1": "Rename-Computer -NewName fs01 -Restart\n",  # report
    "join.ps1": "Add-Computer -DomainName lab.example -NewName \"fs01\" -Restart\n",  # variant
    "rename.cmd": "netdom renamecomputer %COMPUTERNAME% /newname:fs01 /reboot:5\n",  # variant
    "br.netdev": "[NetDev]\nName=fs01\nKind=bridge\n",  # report
    "netplan/01-lan.yaml": "network:\n  ethernets:\n    lan0:\n      match: {macaddress: '00:11:22:33:44:55'}\n"
                           "      set-name: \"fs01\"\n",  # variant
    "network/interfaces": "auto fs01\niface fs01 inet manual\n",  # variant
}


def test_a_name_over_its_place_s_limit_refuses_the_sweep_and_fails_verify(tmp_path, run) -> None:
    root = make_repo(tmp_path / "repo", PLACES, config=_config("fileserver-primary-01"), allowlist=ALLOW)
    head, before = git(root, "rev-parse", "HEAD"), snapshot(root)
    swept = run(root, "sweep", "--commit")
    assert swept.exit_code == 3, swept.stderr  # before: 0, all nine written
    assert snapshot(root) == before and git(root, "rev-parse", "HEAD") == head
    said = swept.stderr
    assert said.startswith("renamer: error: a new name is longer than 10 places it lands in can hold: ")
    for where, why in [("smb.conf:2", "a NetBIOS name holds 15"), ("samba/aliases.conf:2", "a NetBIOS name"),
                       ("autounattend.xml:1", "a Windows computer name holds 15"),
                       ("rename.ps1:1", "Windows computer"), ("join.ps1:1", "Windows computer"),
                       ("rename.cmd:1", "Windows computer"), ("br.netdev:2", "a Linux interface name holds 15"),
                       ("netplan/01-lan.yaml:5", "interface name"), ("network/interfaces:1", "interface name"),
                       ("network/interfaces:2", "interface name")]:
        assert f"{where}: name-limit: fileserver-primary-01 would be 21 characters here; " in said
        assert why in said.split(f"{where}: name-limit: ")[1].split(";")[1]
    dry = run(root, "sweep", "--dry-run", "--format", "json")
    assert dry.exit_code == 0
    refused = json.loads(dry.stdout)["refused"]
    assert len(refused) == 10 and {r["path"] for r in refused} == set(PLACES)
    checked = run(root, "verify")
    assert checked.exit_code == 1  # before: OK
    assert checked.stdout.count("residual (name-limit): fs01 -> fileserver-primary-01") == 10


def test_a_new_name_that_fits_is_written_without_a_word(tmp_path, run) -> None:
    root = make_repo(tmp_path / "repo", PLACES, config=_config("fs-primary01"), allowlist=ALLOW)
    swept = run(root, "sweep", "--commit")
    assert swept.exit_code == 0, swept.stderr
    assert "name-limit" not in swept.stdout + swept.stderr
    assert (root / "br.netdev").read_text() == "[NetDev]\nName=fs-primary01\nKind=bridge\n"
    assert (root / "smb.conf").read_text().splitlines()[1] == "   netbios name = fs-primary01"
    checked = run(root, "verify")
    assert checked.exit_code == 0, checked.stdout


@pytest.mark.parametrize("new", ["fileserver-primary-01"])
def test_a_long_name_outside_any_limited_place_is_written(tmp_path, run, new: str) -> None:
    """No noise: the same new name in an ssh config, an inventory, a `Name=` of another file and
    Samba's `server string` is rewritten, no refusal, no residual."""
    files = {"ssh_config": "Host fs01\n  HostName fs01.lab.example\n", "hosts.yaml": "all: {hosts: {fs01: {}}}\n",
             "app.conf": "[NetDev]\nName=fs01\n", "smb.conf": "[global]\n   server string = fs01 files\n"}
    root = make_repo(tmp_path / "repo", files, config=_config(new), allowlist=ALLOW)
    swept = run(root, "sweep", "--commit")
    assert swept.exit_code == 0, swept.stderr
    assert (root / "app.conf").read_text() == f"[NetDev]\nName={new}\n"
    assert run(root, "verify").exit_code == 0


# t31 round 24, finding 15: a Windows computer name keyed in a provisioning tool's own syntax.
PLACES_24 = {
    "azure.tf": ("resource \"azurerm_windows_virtual_machine\" \"fs\" {\n  name          = \"vm-fs\"\n"
                 "  computer_name = \"fs01\"\n}\n"),  # report
    "vsphere.tf": ("resource \"vsphere_virtual_machine\" \"fs\" {\n  clone {\n    customize {\n"
                   "      windows_options {\n        computer_name = \"fs01\"\n      }\n    }\n  }\n}\n"),  # report
    "Config.ps1": ("Configuration FileServer {\r\n    Node 'localhost' {\r\n        Computer SetName {\r\n"
                   "            Name = 'fs01'\r\n        }\r\n    }\r\n}\r\n"),  # report, CRLF
    "win.yml": "- hosts: windows\n  tasks:\n    - ansible.windows.win_hostname:\n        name: fs01\n",  # report
    "join.yml": ("- hosts: windows\n  tasks:\n    - win_domain_membership:\n        dns_domain_name: lab.example\n"
                 "        hostname: fs01\n"),  # variant: another module
    "inline.yml": "- hosts: windows\n  tasks:\n    - win_hostname: name=fs01\n",  # variant: k=v
    "vm.json": ("{\"type\": \"Microsoft.Compute/virtualMachines\", \"properties\": {\"osProfile\": "
                "{\"computerName\": \"fs01\", \"windowsConfiguration\": {}}}}\n"),  # variant: ARM
    "vm.bicep": "resource vm 'Microsoft.Compute/virtualMachines@2023-03-01' = {\n  properties: {\n"
                "    osProfile: {\n      computerName: 'fs01'\n    }\n  }\n}\n",  # variant: Bicep
}


def test_a_windows_computer_name_in_provisioning_syntax_refuses_the_sweep(tmp_path, run) -> None:
    root = make_repo(tmp_path / "repo", PLACES_24, config=_config("fileserver-primary-01"), allowlist=ALLOW)
    head, before = git(root, "rev-parse", "HEAD"), snapshot(root)
    swept = run(root, "sweep", "--commit")
    assert swept.exit_code == 3, swept.stderr  # before: 0, all written
    assert snapshot(root) == before and git(root, "rev-parse", "HEAD") == head
    for where in ("azure.tf:3", "vsphere.tf:5", "Config.ps1:4", "win.yml:4", "join.yml:5", "inline.yml:3",
                  "vm.json:1", "vm.bicep:4"):
        assert f"{where}: name-limit: fileserver-primary-01 would be 21 characters here; a Windows computer " \
               "name holds 15" in swept.stderr, (where, swept.stderr)
    checked = run(root, "verify")
    assert checked.exit_code == 1 and checked.stdout.count("residual (name-limit)") == 8, checked.stdout


def test_a_linux_vm_s_computer_name_is_written(tmp_path, run) -> None:
    """No noise: a Linux VM's `computer_name` holds 64; the swept file still passes `terraform fmt`."""
    files = {"linux.tf": ("resource \"azurerm_linux_virtual_machine\" \"fs\" {\n  name          = \"vm-fs\"\n"
                          "  computer_name = \"fs01\"\n}\n")}
    root = make_repo(tmp_path / "repo", files, config=_config("fileserver-primary-01"), allowlist=ALLOW)
    swept = run(root, "sweep", "--commit")
    assert swept.exit_code == 0, swept.stderr
    assert 'computer_name = "fileserver-primary-01"' in (root / "linux.tf").read_text()
    fmt = subprocess.run(["terraform", "fmt", "-check", "-no-color", "linux.tf"], cwd=root, capture_output=True)
    assert fmt.returncode == 0, fmt.stdout
