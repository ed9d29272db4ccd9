"""Base64 a script decodes as it runs (break-it round 24, finding 10): PowerShell `-EncodedCommand`
(UTF-16LE), `echo <b64> | base64 -d`, Python `base64.b64decode("...")`, each spelling an old FQDN,
were never listed, verify --strict OK. Now each is decoded and, where certain (canonical base64 of
text), rewritten re-encoded in the same encoding (the script then prints the new name when run:
bash, python, node, openssl); where not (gzip inside, not text) an `encoded` residual."""

from __future__ import annotations

import base64
import gzip
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Result
from tests.testing.repos import PUG_ALLOW as ALLOW
from tests.testing.repos import PUG_CONFIG as CONFIG

OLD, NEW = "pug.ana.lan", "wolf.fv.lan"


def _b64(text: str) -> str:
    return base64.b64encode(text.encode()).decode()


def _ps(text: str) -> str:
    return base64.b64encode(text.encode("utf-16-le")).decode()


# name: (path, text, the command that runs it, printing the name it decodes)
RUN: dict[str, tuple[str, str, list[str] | None]] = {
    "echo-pipe": ("boot.sh", f"#!/bin/sh\nUPSTREAM=$(echo {_b64(OLD)} | base64 -d)\necho \"$UPSTREAM\"\n",
                  ["bash", "boot.sh"]),
    "echo-n-decode-crlf": ("boot2.sh", f"#!/bin/sh\r\necho -n '{_b64(OLD)}' | base64 --decode\r\n", None),
    "here-string": ("boot3.sh", f"#!/bin/bash\nbase64 -d <<< \"{_b64(OLD)}\"\n", ["bash", "boot3.sh"]),
    "openssl": ("boot4.sh", f"#!/bin/sh\necho {_b64(OLD)} | openssl base64 -d\n", ["bash", "boot4.sh"]),
    "python": ("boot.py", f"import base64\nprint(base64.b64decode(\"{_b64(OLD)}\").decode())\n",
               ["python3", "boot.py"]),
    "python-bytes": ("boot2.py", f"from base64 import b64decode\nprint(b64decode(b'{_b64(OLD)}').decode())\n",
                     ["python3", "boot2.py"]),
    "node-atob": ("boot.js", f"console.log(atob(\"{_b64(OLD)}\"));\n", ["node", "boot.js"]),
    "node-buffer": ("boot2.js", f"console.log(Buffer.from('{_b64(OLD)}', 'base64').toString());\n",
                    ["node", "boot2.js"]),
    "ruby": ("boot.rb", f"require 'base64'\nputs Base64.decode64(\"{_b64(OLD)}\")\n", None),
    "powershell": ("provision.ps1", f"powershell.exe -NoProfile -EncodedCommand {_ps('Test-Connection ' + OLD)}\n",
                   None),
    "pwsh-enc": ("run.cmd", f"pwsh -NonInteractive -enc {_ps('ping ' + OLD)}\r\n", None),
}


@pytest.mark.parametrize("case", sorted(RUN))
def test_round24_base64_a_script_decodes_is_rewritten_re_encoded(case: str, repo: Callable[..., Path],
                                                                 run: Callable[..., Result]) -> None:
    path, text, command = RUN[case]
    root = repo({path: text}, config=CONFIG, allowlist=ALLOW)
    assert run(root, "verify").exit_code == 1  # the old name is found inside before the sweep
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    after = (root / path).read_bytes().decode()
    assert after.count("\r\n") == text.count("\r\n")
    if "-enc" in after.lower() or "EncodedCommand" in after:
        word = after.split()[-1]
        assert NEW in base64.b64decode(word).decode("utf-16-le")
    if command is not None and shutil.which(command[0]):
        shown = subprocess.run(command, cwd=root, capture_output=True, text=True, check=True).stdout
        assert shown.strip() == NEW, shown
    assert run(root, "verify", "--strict").exit_code == 0


def test_round24_base64_a_script_decodes_that_cannot_be_rewritten_is_a_residual(
        repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    """gzip inside (`| base64 -d | gunzip`): decoded and listed, never written."""
    packed = base64.b64encode(gzip.compress(f"upstream {OLD}\n".encode(), mtime=0)).decode()
    text = f"#!/bin/sh\necho {packed} | base64 -d | gunzip > /etc/up.conf\n"
    root = repo({"boot.sh": text}, config=CONFIG, allowlist=ALLOW)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1, done.stdout
    assert "boot.sh:2:" in done.stdout and "encoded" in done.stdout
    assert (root / "boot.sh").read_text() == text
    assert run(root, "verify").exit_code == 1


def test_round24_a_short_or_undecoded_literal_is_left(repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    """Base64 nothing decodes (written to a file, a key's value of no base64 name) is not read."""
    text = f"#!/bin/sh\necho {_b64(OLD)} > /tmp/token\necho aGk= | base64 -d\n"
    root = repo({"other.sh": text}, config=CONFIG, allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 0
    assert (root / "other.sh").read_text() == text
