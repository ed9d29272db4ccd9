"""Current-state files renamer reads only as ciphertext where a value may stand (break-it round 21,
finding 22): a group_vars file encrypted whole by ansible-vault, inline `!vault` values, sops values.
What they hold cannot be told: each is listed (verify, audit, JSON), `verify --strict` fails on it,
and excluding it (once checked by hand) or classing it a record clears it. The vault files are
made by the real ansible-vault."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Result
from tests.testing.repos import git

CONFIG = "version: 1\nrenames:\n  hosts: {web01: app01}\nallowlist: allow.yaml\n"
ALLOW = "version: 1\ncurrent: ['**']\n"
VAULT = str(Path(sys.executable).with_name("ansible-vault"))


def _vaulted(tmp_path: Path, plain: str) -> str:
    password = tmp_path / "pass"
    password.write_text("s3cret\n")
    target = tmp_path / "plain.yml"
    target.write_text(plain)
    subprocess.run([VAULT, "encrypt", "--vault-password-file", str(password), str(target)], check=True,
                   capture_output=True)
    return target.read_text()


def _inline(tmp_path: Path, value: str) -> str:
    password = tmp_path / "pass"
    password.write_text("s3cret\n")
    done = subprocess.run([VAULT, "encrypt_string", "--vault-password-file", str(password), value, "--name",
                           "db_host"], check=True, capture_output=True, text=True)
    return "db_port: 5432\n" + done.stdout


@pytest.mark.parametrize("shape", ["whole-file", "inline", "sops"])
def test_an_encrypted_current_file_is_listed_and_fails_strict(shape: str, tmp_path: Path, repo: Callable[..., Path],
                                                             run: Callable[..., Result]) -> None:
    text = {"whole-file": lambda: _vaulted(tmp_path, "db_host: web01\n"),
            "inline": lambda: _inline(tmp_path, "web01"),
            "sops": lambda: ('db_host: ENC[AES256_GCM,data:q83v,iv:AAAA,tag:BBBB,type:str]\n'
                             'sops:\n    mac: ENC[AES256_GCM,data:CCCC,iv:DDDD,tag:EEEE,type:str]\n'
                             '    version: 3.9.0\n')}[shape]()
    assert "web01" not in text
    root = repo({"group_vars/all/vault.yml": text, "hosts.txt": "web01\n"}, config=CONFIG, allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 0
    plain = run(root, "verify")
    assert plain.exit_code == 0, plain.stdout  # nothing it can read is left
    assert "Encrypted, not read (1 current-state file" in plain.stdout
    assert "  group_vars/all/vault.yml: " in plain.stdout
    strict = run(root, "verify", "--strict")
    assert strict.exit_code == 1
    assert "1 current-state file encrypted, not read" in strict.stdout
    data = json.loads(run(root, "verify", "--strict", "--format", "json").stdout)
    assert not data["ok"] and [e["path"] for e in data["encrypted"]] == ["group_vars/all/vault.yml"]
    audit = run(root, "audit", "--format", "json")
    assert [e["path"] for e in json.loads(audit.stdout)["encrypted"]] == ["group_vars/all/vault.yml"]


@pytest.mark.parametrize("allow", [
    pytest.param(ALLOW + "exclude: ['group_vars/all/vault.yml']\n", id="excluded"),
    pytest.param("version: 1\ncurrent: ['hosts.txt']\nrecords:\n  - name: vault\n    paths: ['group_vars/**']\n"
                 "    reason: checked by hand on 2026-12-06\n", id="a-record"),
])
def test_an_encrypted_file_excluded_or_kept_as_a_record_passes_strict(allow: str, tmp_path: Path,
                                                                    repo: Callable[..., Path],
                                                                    run: Callable[..., Result]) -> None:
    root = repo({"group_vars/all/vault.yml": _vaulted(tmp_path, "db_host: web01\n"), "hosts.txt": "app01\n"},
                config=CONFIG, allowlist=allow)
    done = run(root, "verify", "--strict")
    assert done.exit_code == 0, done.stdout
    assert "Encrypted" not in done.stdout


def test_a_note_that_only_quotes_a_vault_header_is_read(repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    root = repo({"docs/vault.md": "Files start with `$ANSIBLE_VAULT;1.1;AES256` once encrypted.\n"},
                config=CONFIG, allowlist=ALLOW)
    done = run(root, "verify", "--strict")
    assert done.exit_code == 0 and "Encrypted" not in done.stdout
    assert git(root, "status", "--porcelain") == ""
