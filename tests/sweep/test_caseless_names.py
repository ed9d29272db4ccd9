"""Old names in another case where SMB, Windows, LDAP or mail read them caselessly (t31 round 24,
finding 08): under `web01 -> app01`, `\\\\WEB01\\backup`, `//WEB01/backup`, `-ComputerName WEB01`,
`CN=WEB01,OU=...` and `ops@WEB01.lab.example` are `dns-case` residuals (before: near-misses only,
plain verify OK), nothing rewritten; an upper-case constant is no host and the exact spelling is
rewritten as before."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from tests.conftest import Result

ALLOW = 'version: 1\ncurrent: ["**"]\n'
CONFIG = ("version: 1\nrenames:\n  hosts: {web01.lab.example: app01.lab.example, web01: app01}\n"
          "allowlist: allow.yaml\n")
HELD: dict[str, bytes] = {
    "backup.ps1": (b"Copy-Item C:\\data\\* \\\\WEB01\\backup\\\r\n"  # report, CRLF
                   b"Invoke-Command -ComputerName WEB01 -ScriptBlock { Get-Service }\r\n"  # report
                   b"Enter-PSSession Web01\r\n"  # variant: mixed case, another cmdlet
                   b"Get-Service -ComputerName web02, WEB01\r\n"),  # variant: a list
    "fstab": b"//WEB01/backup  /mnt/backup  cifs  credentials=/etc/smb.cred  0 0\n",  # report
    "ad.ldif": b"dn: CN=WEB01,OU=Servers,DC=lab,DC=example\n",  # report
    "aliases": b"root: ops@WEB01.lab.example\n",  # report
    "shares.json": b'{"backup": "\\\\\\\\WEB01\\\\backup", "media": "smb://Web01/media"}\n',  # escaped, smb://
}


def test_caseless_spellings_are_dns_case_residuals(repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    files = {**HELD, "consts.py": "WEB01_PORT = 8080\nHOST = 'web01'\n"}
    root = repo(files, config=CONFIG, allowlist=ALLOW)
    swept = run(root, "sweep", "--commit")
    assert swept.exit_code == 1, swept.stdout + swept.stderr  # written, residuals left for a decision
    for rel, data in HELD.items():
        assert (root / rel).read_bytes() == data, rel
    assert (root / "consts.py").read_text() == "WEB01_PORT = 8080\nHOST = 'app01'\n"
    json.loads((root / "shares.json").read_text())
    verify = run(root, "verify")
    assert verify.exit_code == 1, verify.stdout  # before: OK over five near-misses
    for where in ("backup.ps1:1:23:", "backup.ps1:2:30:", "backup.ps1:3:17:", "backup.ps1:4:34:", "fstab:1:3:",
                  "ad.ldif:1:8:", "aliases:1:11:", "shares.json:1:17:", "shares.json:1:49:"):
        assert f"{where} residual (dns-case)" in verify.stdout, (where, verify.stdout)
    assert "WEB01_PORT" not in verify.stdout.replace("    ", "")
