"""Never silent on UTF-16 or UTF-32 without a BOM (break-it round 4, finding 11): such a file was
binary by its NULs and its old values spelled no needle, so it was neither swept nor reported. It
is now read in its own encoding and reported skipped (`encoding`), as a file with a BOM is, never
rewritten; an old value in UTF-16/32 code units inside a binary file is reported `binary`. Both
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
@pytest.mark.parametrize(("codec", "name"), [
    pytest.param("utf-16-le", "stacks/app.ini", id="reported-utf-16-le"),
    pytest.param("utf-16-be", "stacks/app.ini", id="utf-16-be"),
    pytest.param("utf-32-le", "stacks/app.ini", id="utf-32-le"),
    pytest.param("utf-32-be", "stacks/app.ini", id="utf-32-be"),
    pytest.param("utf-16-le", "stacks/deploy.ps1", id="powershell-script"),
])
def test_a_wide_file_without_a_bom_is_reported_skipped(repo: Repo, run: Run, monkeypatch: pytest.MonkeyPatch,
                                                       native: str, codec: str, name: str) -> None:
    monkeypatch.setenv("RENAMER_NATIVE", native)
    data = TEXT.encode(codec)
    root = repo({"runbook.md": "ssh fv-ml1\n", name: data}, config=CONFIG, allowlist=ALLOW)
    dry = run(root, "sweep", "--dry-run")
    assert "Skipped, holding old values (1 file):" in dry.stdout and f"  {name} (encoding, 2)" in dry.stdout
    assert run(root, "sweep", "--commit").exit_code == 0
    assert (root / name).read_bytes() == data  # never rewritten: byte for byte
    plain = run(root, "verify")
    assert f"  {name} (encoding, 2)" in plain.stdout
    strict = run(root, "verify", "--strict")
    assert strict.exit_code == 1 and "1 current-state file skipped unread" in strict.stdout
    assert _skipped(run, root) == {(name, 2, "ana-ml2", "encoding"), (name, 3, "10.250.50.54", "encoding")}
    notes = {r["note"] for r in json.loads(run(root, "audit", "--format", "json").stdout)["references"]}
    assert notes == {f"{codec.upper()} (no BOM) text is not rewritten"}


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
