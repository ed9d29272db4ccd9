"""An IPv4 address spelled as the upper-case hex file name a network boot loader computes (break-it
round 25, finding 12).

PXELINUX looks up `pxelinux.cfg/0A000046` for 10.0.0.70, GRUB's network boot `grub.cfg-0A000046`.
Under `10.0.0.70 -> 10.0.1.90` the sweep rewrote the address inside the file but left its name, so
the client at 10.0.1.90 asked for `0A00015A` and got `default`; neither renamed nor listed, verify
--strict OK. Now the file is renamed to the new address's hex name (listed by verify before), a
script's or playbook's reference to it follows, and a prefix file or a lower-case name stays.
"""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

import yaml

from tests.conftest import Result

CONFIG = """\
version: 1
renames:
  hosts: {pug: wolf}
  addresses: {10.0.0.70: 10.0.1.90, 192.168.1.10: 192.168.2.20}
allowlist: allow.yaml
"""
ALLOW = 'version: 1\ncurrent: ["**"]\n'
PXE = "DEFAULT install\nLABEL install\n  KERNEL vmlinuz\n  APPEND ip=10.0.0.70::10.0.0.1:255.255.255.0:pug:eth0:none\n"


def _files(root: Path) -> set[str]:
    out = subprocess.run(["git", "ls-files"], cwd=root, capture_output=True, text=True, check=True).stdout
    return set(out.splitlines())


def test_round25_a_pxelinux_hex_file_follows_its_address(repo: Callable[..., Path],
                                                         run: Callable[..., Result]) -> None:
    root = repo({"tftp/pxelinux.cfg/0A000046": PXE, "tftp/pxelinux.cfg/default": "DEFAULT local\n",
                 # no old value inside: only its name is the address (CRLF, as a Windows TFTP root keeps it)
                 "boot/grub/grub.cfg-C0A8010A": b"set default=0\r\nmenuentry x {\r\n}\r\n"},
                config=CONFIG, allowlist=ALLOW)
    listed = run(root, "verify")
    assert listed.exit_code == 1
    assert "tftp/pxelinux.cfg/0A000046: residual: 10.0.0.70 -> 10.0.1.90" in listed.stdout
    assert "boot/grub/grub.cfg-C0A8010A: residual: 192.168.1.10 -> 192.168.2.20" in listed.stdout
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    files = _files(root)
    assert "tftp/pxelinux.cfg/0A00015A" in files and "tftp/pxelinux.cfg/0A000046" not in files
    assert "boot/grub/grub.cfg-C0A80214" in files and "tftp/pxelinux.cfg/default" in files
    assert (root / "tftp/pxelinux.cfg/0A00015A").read_text() == PXE.replace("10.0.0.70", "10.0.1.90").replace(
        ":pug:", ":wolf:")
    assert (root / "boot/grub/grub.cfg-C0A80214").read_bytes() == b"set default=0\r\nmenuentry x {\r\n}\r\n"
    # the name PXELINUX asks for, computed as it does from the new address
    assert "tftp/pxelinux.cfg/" + "".join(f"{int(o):02X}" for o in (10, 0, 1, 90)) in files
    assert run(root, "verify", "--strict").exit_code == 0


def test_round25_a_reference_to_the_hex_file_follows(repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    root = repo({"pxe.yml": "- ansible.builtin.template:\n    src: pxe/install.cfg.j2\n"
                            "    dest: /srv/tftp/pxelinux.cfg/0A000046\n"
                            "- ansible.builtin.copy: {src: x, dest: /srv/tftp/pxelinux.cfg/0A0000}\n",
                 "grub.sh": "#!/bin/sh\ncp g.cfg /srv/tftp/boot/grub/grub.cfg-C0A8010A\nls pxelinux.cfg/0a000046\n"},
                config=CONFIG, allowlist=ALLOW)
    assert run(root, "verify").exit_code == 1
    assert run(root, "sweep", "--commit").exit_code == 0
    play = (root / "pxe.yml").read_text()
    assert "dest: /srv/tftp/pxelinux.cfg/0A00015A\n" in play
    assert "dest: /srv/tftp/pxelinux.cfg/0A0000}" in play  # a network's prefix file: not this host's
    yaml.safe_load(play)
    script = (root / "grub.sh").read_text()
    assert "grub.cfg-C0A80214\n" in script and "pxelinux.cfg/0a000046" in script  # no loader asks for lower case
    subprocess.run(["bash", "-n", str(root / "grub.sh")], check=True)
    assert run(root, "verify", "--strict").exit_code == 0


def test_round25_a_prefix_file_and_another_address_stay(repo: Callable[..., Path],
                                                        run: Callable[..., Result]) -> None:
    root = repo({"hosts": "pug ansible_host=10.0.0.70\n", "tftp/pxelinux.cfg/0A0000": "DEFAULT local\n",
                 "tftp/pxelinux.cfg/0A000047": "DEFAULT local\n"}, config=CONFIG, allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 0
    assert {"tftp/pxelinux.cfg/0A0000", "tftp/pxelinux.cfg/0A000047"} <= _files(root)
