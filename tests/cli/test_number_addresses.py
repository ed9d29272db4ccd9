"""A renamed IPv4 address spelled as one number (break-it round 21, finding 21): `http://184169014/`,
`http://0x0afa3236/`, `ping -c1 0xafa3236` are 10.250.50.54 to inet_aton, curl, ping and browsers.
The sweep wrote nothing, said no near-miss, and `verify --strict` passed. In a current-state file
each is now a residual `number-address` (nothing rewritten: a number may be no address); a record
keeps it, and a number that is no renamed address is left."""

from __future__ import annotations

import json
import socket
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Result

Repo = Callable[..., Path]
Run = Callable[..., Result]
CONFIG = "version: 1\nrenames:\n  addresses: {10.250.50.54: 10.251.50.54}\nallowlist: allow.yaml\n"
ALLOW = ("version: 1\ncurrent: ['**']\nrecords:\n  - name: notes\n    paths: [notes/**]\n"
         "    reason: notes say what was\n")
ENV = "HEALTH=http://184169014/health\nALT=http://0x0afa3236/\nping -c1 0xafa3236\n"
YAML = 'probe:\n  target: "0X0AFA3236"\n  ids: [184169015, 1841690140, 184169014.5]\n'
JSON = '{"upstream": "http://184169014:8080", "size": 1184169014}\n'


@pytest.mark.parametrize("native", ["0", "1"])
def test_finding_21_single_number_spellings_of_a_renamed_address_are_residuals(
        native: str, repo: Repo, run: Run, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RENAMER_NATIVE", native)  # the hyperscan first pass and the Python one alike
    # What the consumers read: each spelling is the old address.
    assert {socket.inet_ntoa(socket.inet_aton(n)) for n in ("184169014", "0x0afa3236", "0xafa3236")} \
        == {"10.250.50.54"}
    files = {"app.env": ENV, "probe.yaml": YAML, "svc.json": JSON, "notes/2024.md": "was http://184169014/\n"}
    root = repo(files, config=CONFIG, allowlist=ALLOW)
    data = json.loads(run(root, "verify", "--format", "json").stdout)
    found = sorted((f["path"], f["line"], f["old"]) for f in data["findings"] if f["reason"] == "number-address")
    assert found == [("app.env", 1, "184169014"), ("app.env", 2, "0x0afa3236"), ("app.env", 3, "0xafa3236"),
                     ("probe.yaml", 2, "0X0AFA3236"), ("svc.json", 1, "184169014")], data["findings"]
    assert all(f["status"] == "residual" for f in data["findings"] if f["reason"] == "number-address")
    assert run(root, "sweep", "--commit").exit_code == 1
    for path, text in files.items():
        assert (root / path).read_text() == text, path  # nothing rewritten by guess
    assert run(root, "verify", "--strict").exit_code == 1


def test_noop_numbers_that_are_no_renamed_address(repo: Repo, run: Run) -> None:
    files = {"app.env": "A=184169015\nB=1184169014\nC=0x0afa32361\nD=v184169014\nE=10.184169014\n"}
    root = repo(files, config=CONFIG, allowlist=ALLOW)
    assert run(root, "verify", "--strict").exit_code == 0
