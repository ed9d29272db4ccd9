"""Never silent on UTF-16 or UTF-32 without a BOM (break-it round 4, finding 11): such a file was
binary by its NULs and its old values spelled no needle, so it was neither swept nor reported. It
is now read in its own encoding and swept as a file with a BOM is (written back in that encoding:
break-it round 17, finding 18); an old value in UTF-16/32 code units inside a binary file is
reported `binary`, never rewritten. Both
through sweep, verify (--strict fails on a current-state file) and audit, by the Python first
pass and the native one alike."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Result

Repo = Callable[..., Path]
Run = Callable[..., Result]
ALLOW = ("version: 1\ncurrent: [stacks/**, runbook.md]\nrecords:\n  - name: archive\n    paths: [archive/**]\n"
         "    reason: history\n")
CONFIG = ("version: 1\nrenames:\n  hosts: {ana-ml2: fv-ml1}\n  addresses: {10.250.50.54: 10.251.50.54}\n"
          "allowlist: allow.yaml\n")
TEXT = "[server]\r\nhost=ana-ml2\r\naddress=10.250.50.54\r\n"


def _skipped(run: Run, root: Path) -> set[tuple[str, int, str, str]]:
    audit = json.loads(run(root, "audit", "--format", "json").stdout)
    return {(r["path"], r["line"], r["old"], r["reason"]) for r in audit["references"] if r["status"] == "skipped"}


@pytest.mark.parametrize("native", ["0", "1"])
@pytest.mark.parametrize(("codec", "bom", "name"), [
    pytest.param("utf-16-le", b"", "stacks/app.ini", id="utf-16-le"),
    pytest.param("utf-16-be", b"", "stacks/app.ini", id="utf-16-be"),
    pytest.param("utf-32-le", b"", "stacks/app.ini", id="utf-32-le"),
    pytest.param("utf-32-be", b"", "stacks/app.ini", id="utf-32-be"),
    pytest.param("utf-16-le", b"\xff\xfe", "stacks/deploy.ps1", id="powershell-script-with-a-bom"),
    pytest.param("utf-16-le", b"\xff\xfe", "stacks/ntp.reg", id="regedit-export"),
    pytest.param("utf-16-be", b"\xfe\xff", "stacks/app.ini", id="utf-16-be-with-a-bom"),
    pytest.param("utf-32-le", b"\xff\xfe\0\0", "stacks/app.ini", id="utf-32-le-with-a-bom"),
])
def test_a_wide_file_is_swept_in_its_own_encoding(repo: Repo, run: Run, monkeypatch: pytest.MonkeyPatch,
                                                  native: str, codec: str, bom: bytes, name: str) -> None:
    """Break-it round 17, finding 18: PowerShell 5 scripts and regedit exports are UTF-16LE with a
    BOM, live configuration; they were skipped (`encoding`) and verify said OK. They are read as
    text in their encoding, verify fails on their old values, and the sweep writes them back in
    that encoding, BOM and line ends kept, every other byte as it was."""
    monkeypatch.setenv("RENAMER_NATIVE", native)
    data = bom + TEXT.encode(codec)
    root = repo({"runbook.md": "ssh fv-ml1\n", name: data}, config=CONFIG, allowlist=ALLOW)
    before = run(root, "verify")
    assert before.exit_code == 1
    assert f"{name}:2:6: residual: ana-ml2 -> fv-ml1" in before.stdout
    assert f"{name}:3:9: residual: 10.250.50.54 -> 10.251.50.54" in before.stdout
    dry = run(root, "sweep", "--dry-run")
    assert "\n-host=ana-ml2\r\n" in dry.stdout and "\n+host=fv-ml1\r\n" in dry.stdout  # shown as UTF-8
    assert "Skipped" not in dry.stdout
    assert run(root, "sweep", "--commit").exit_code == 0
    assert (root / name).read_bytes() == bom + TEXT.replace("ana-ml2", "fv-ml1").replace(
        "10.250.50.54", "10.251.50.54").encode(codec)
    assert run(root, "verify", "--strict").exit_code == 0
    assert _skipped(run, root) == set()


@pytest.mark.parametrize("native", ["0", "1"])
@pytest.mark.parametrize("codec", ["utf-16-le", "utf-16-be", "utf-32-le", "utf-32-be"])
def test_an_old_value_in_wide_code_units_inside_a_binary_file_is_reported(
        repo: Repo, run: Run, monkeypatch: pytest.MonkeyPatch, native: str, codec: str) -> None:
    """A binary file (an image header, a resource table) whose strings are UTF-16/32: `binary`."""
    monkeypatch.setenv("RENAMER_NATIVE", native)
    data = b"\x89PNG\r\n\x1a\n\0\x01\xfe" + "host ana-ml2 at 10.250.50.54".encode(codec) + b"\0\xff\x00\x07"
    root = repo({"runbook.md": "ssh fv-ml1\n", "stacks/tool.res": data}, config=CONFIG, allowlist=ALLOW)
    assert "  stacks/tool.res (binary, 2)" in run(root, "sweep", "--dry-run").stdout
    assert run(root, "sweep", "--commit").exit_code == 0
    assert (root / "stacks/tool.res").read_bytes() == data
    assert run(root, "verify", "--strict").exit_code == 1
    assert {(path, old, reason) for path, _, old, reason in _skipped(run, root)} == {
        ("stacks/tool.res", "ana-ml2", "binary"), ("stacks/tool.res", "10.250.50.54", "binary")}


@pytest.mark.parametrize(("name", "data"), [
    pytest.param("stacks/app.ini", "host=fv-ml1\r\n".encode("utf-16-le"), id="noop-wide-text-without-old-values"),
    pytest.param("stacks/app.ini", "host=ana-ml20\r\n".encode("utf-16-le"), id="noop-another-name"),
    pytest.param("stacks/blob.bin", b"\0\x01" + "xana-ml2".encode("utf-16-le") + b"\0", id="noop-another-name-binary"),
    pytest.param("stacks/blob.bin", b"a\0n\0a\0-\0m\0l\0" + b"\x01\x02", id="noop-a-prefix-only"),
    pytest.param("archive/app.ini", TEXT.encode("utf-16-be"), id="noop-a-record-keeps-it"),
])
def test_noop_wide_text_without_an_old_value_or_in_a_record(repo: Repo, run: Run, name: str, data: bytes) -> None:
    root = repo({"runbook.md": "ssh fv-ml1\n", name: data}, config=CONFIG, allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 0
    assert (root / name).read_bytes() == data
    assert run(root, "verify", "--strict").exit_code == 0
