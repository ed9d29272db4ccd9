"""Binary current-state files whose bytes hold an old value no boundary rule sees (break-it round
21, finding 19): a real SQLite database (a row stores `web01` and `10.0.0.70` glued together) and a
real gzip'd configuration. Never rewritten; each listed as skipped, holding old values, and
`verify --strict` fails on it."""

from __future__ import annotations

import gzip
import json
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Result
from tests.testing.repos import git

CONFIG = "version: 1\nrenames:\n  hosts: {web01: app01}\n  addresses: {10.0.0.70: 10.0.1.70}\nallowlist: allow.yaml\n"
ALLOW = "version: 1\ncurrent: ['**']\n"


def _database(path: Path, row: tuple[str, str]) -> None:
    db = sqlite3.connect(path)
    db.execute("create table monitor(hostname, ip)")
    db.execute("insert into monitor values(?, ?)", row)
    db.commit()
    db.close()


@pytest.mark.parametrize("rel", ["kuma.db", "conf/hosts.conf.gz"])
def test_a_binary_file_holding_an_old_value_fails_strict(rel: str, repo: Callable[..., Path],
                                                         run: Callable[..., Result]) -> None:
    root = repo({"app.yml": "a: b\n"}, config=CONFIG, allowlist=ALLOW)
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    if rel.endswith(".db"):
        _database(path, ("web01", "10.0.0.70"))
        assert b"web0110.0.0.70" in path.read_bytes()  # glued: no boundary rule reads web01 there
    else:
        path.write_bytes(gzip.compress(b"server web01 10.0.0.70\n", mtime=0))
        assert b"web01" not in path.read_bytes()
    git(root, "add", "-A")
    git(root, "commit", "-qm", "binary")
    before = path.read_bytes()
    assert run(root, "sweep", "--commit").exit_code == 0
    assert path.read_bytes() == before  # never rewritten
    assert run(root, "verify").exit_code == 0
    strict = run(root, "verify", "--strict")
    assert strict.exit_code == 1
    assert f"  {rel} (binary, 1)" in strict.stdout
    audit = json.loads(run(root, "audit", "--format", "json").stdout)
    skipped = [r for r in audit["references"] if r["status"] == "skipped"]
    assert [r["path"] for r in skipped] == [rel]
    assert ("gzip-compressed" if rel.endswith(".gz") else "glued to what surrounds it") in skipped[0]["note"]


def test_noop_binary_files_without_an_old_value(repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    root = repo({"app.yml": "a: b\n"}, config=CONFIG, allowlist=ALLOW)
    (root / "other.db").write_bytes(b"\x00\x01app01\x0010.0.1.70\x00")
    (root / "hosts.conf.gz").write_bytes(gzip.compress(b"server app01 10.0.1.70\n", mtime=0))
    git(root, "add", "-A")
    git(root, "commit", "-qm", "binary")
    strict = run(root, "verify", "--strict")
    assert strict.exit_code == 0, strict.stdout
    assert "Skipped" not in strict.stdout
