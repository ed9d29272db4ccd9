"""Hash pins (issue 27, item 11 / newcomer-pass-2 B4): the digest of a file the sweep rewrites,
recorded elsewhere, is a residual `pin` (exit 1) unless `--update-pins` rewrites it where the format
is certain; a record's pin is kept; `verify` re-hashes what a manifest line names."""

from __future__ import annotations

import hashlib
import json
import os
import re
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Result
from tests.testing.repos import CONFIG, git, snapshot, write_files

ALLOW = """version: 1
current: ['**']
records:
  - name: history
    paths: [HISTORY.md]
    reason: what was deployed then
"""
DEPLOY = b"#!/bin/sh\nssh root@ana-ml2 systemctl restart app\r\n"  # CRLF on purpose: bytes are hashed
NOTES = b"caf\xe9 on ana-ml2\n"  # Latin-1
UNTOUCHED = b"echo no old value here\n"


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _after(data: bytes) -> bytes:
    return data.replace(b"ana-ml2", b"fv-ml1")


def _files() -> dict[str, str | bytes]:
    deploy, notes = _sha256(DEPLOY), hashlib.md5(NOTES).hexdigest()
    return {
        "scripts/deploy.sh": DEPLOY,
        "notes.txt": NOTES,
        "scripts/untouched.sh": UNTOUCHED,
        # a sha256sum manifest beside the files it names, and an untouched file's line
        "scripts/SHA256SUMS": f"{deploy}  deploy.sh\n{_sha256(UNTOUCHED)}  untouched.sh\n",
        "runner.env": f"transaction_sha256={deploy.upper()}\n",  # upper case
        "settings.ini": f"[deploy]\nscript_sha1 = {hashlib.sha1(DEPLOY).hexdigest()}\n",
        "checks.yaml": f"notes:\n  md5: \"{notes}\"\n",
        "HISTORY.md": f"2026-09-01 deployed deploy.sh sha256 {deploy}\n",  # a record: kept
        "README.md": f"The deploy script's digest was {deploy} when we checked.\n",  # prose: no format
    }


def test_a_sweep_reports_every_pin_and_exits_1(repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    root = repo(_files(), allowlist=ALLOW)
    preview = run(root, "sweep", "--dry-run", "--format", "summary")
    assert preview.exit_code == 0, preview.stderr  # a preview decides nothing
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1, done.stdout + done.stderr
    out = done.stdout
    for where in ("scripts/SHA256SUMS:1:1", "runner.env:1:20", "settings.ini:2:15", "checks.yaml:2:9",
                  "README.md:1:32"):
        assert f"  {where}: " in out and "(pin: the " in out, where
    assert "the SHA-256 of scripts/deploy.sh before this sweep" in out
    assert "the MD5 of notes.txt before this sweep" in out
    assert "HISTORY.md:1:" in out and "(history)" in out  # kept, listed, not a residual
    assert out.count("(pin: ") == 5
    assert "left for a decision: 5" in done.stderr
    assert "untouched.sh" not in out  # a digest of a file the sweep leaves alone is no pin
    # written and committed all the same, like git merge with conflicts
    assert (root / "scripts/deploy.sh").read_bytes() == _after(DEPLOY)
    assert git(root, "status", "--porcelain") == ""
    # verify still fails: the manifest names the rewritten file, whose digest no longer matches
    check = run(root, "verify")
    assert check.exit_code == 1
    assert "scripts/SHA256SUMS:1:1" in check.stdout and "stale SHA-256 of scripts/deploy.sh" in check.stdout


def test_update_pins_rewrites_the_certain_ones_to_the_new_digest(repo: Callable[..., Path],
                                                                   run: Callable[..., Result]) -> None:
    root = repo(_files(), allowlist=ALLOW)
    done = run(root, "sweep", "--commit", "--update-pins")
    assert done.exit_code == 1, done.stdout + done.stderr  # README's prose pin still needs a decision
    new_deploy, new_notes = _after(DEPLOY), _after(NOTES)
    assert (root / "scripts/SHA256SUMS").read_text() == (
        f"{_sha256(new_deploy)}  deploy.sh\n{_sha256(UNTOUCHED)}  untouched.sh\n")
    assert (root / "runner.env").read_text() == f"transaction_sha256={_sha256(new_deploy).upper()}\n"
    assert (root / "settings.ini").read_text() == f"[deploy]\nscript_sha1 = {hashlib.sha1(new_deploy).hexdigest()}\n"
    assert (root / "checks.yaml").read_text() == f"notes:\n  md5: \"{hashlib.md5(new_notes).hexdigest()}\"\n"
    assert _sha256(DEPLOY) in (root / "HISTORY.md").read_text()  # the record keeps the old digest
    assert _sha256(DEPLOY) in (root / "README.md").read_text()
    assert "Pins updated to the new bytes' digest (4):" in done.stdout
    assert "scripts/SHA256SUMS:1:1: SHA-256 of scripts/deploy.sh:" in done.stdout
    assert "Pins updated to the new bytes' digest:" in git(root, "log", "-1", "--format=%B")
    assert done.stdout.count("(pin: ") == 1 and "README.md:1:32" in done.stdout
    # the repo's own check passes on the result
    check = subprocess.run(["sha256sum", "-c", "--quiet", "SHA256SUMS"], cwd=root / "scripts",
                           capture_output=True, text=True)
    assert check.returncode == 0, check.stdout + check.stderr


def test_with_every_pin_decided_the_sweep_exits_0_and_verify_passes(repo: Callable[..., Path],
                                                                     run: Callable[..., Result]) -> None:
    files = _files()
    del files["README.md"]
    root = repo(files, allowlist=ALLOW)
    assert run(root, "sweep", "--commit", "--update-pins").exit_code == 0
    assert run(root, "verify").exit_code == 0
    assert run(root, "sweep", "--commit", "--update-pins").stdout.count("Pins") == 0  # nothing again


def test_a_pin_file_that_changes_moves_the_pins_of_it_too(repo: Callable[..., Path],
                                                          run: Callable[..., Result]) -> None:
    """runner.sh pins deploy.sh and is itself pinned in the manifest: updating its pin changes its bytes,
    so the manifest gets the digest of runner.sh as the sweep leaves it (a chain, settled in order)."""
    runner = f"readonly transaction_sha256={_sha256(DEPLOY)}\n".encode()
    root = repo({"deploy.sh": DEPLOY, "runner.sh": runner,
                 "MANIFEST.sha256": f"{_sha256(runner)} *runner.sh\n"}, allowlist=ALLOW)
    assert run(root, "sweep", "--commit", "--update-pins").exit_code == 0
    new_runner = (root / "runner.sh").read_bytes()
    assert new_runner == f"readonly transaction_sha256={_sha256(_after(DEPLOY))}\n".encode()
    assert (root / "MANIFEST.sha256").read_text() == f"{_sha256(new_runner)} *runner.sh\n"
    assert run(root, "verify").exit_code == 0


def test_a_json_dry_run_lists_the_pins_as_residuals(repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    root = repo(_files(), allowlist=ALLOW)
    before = snapshot(root)
    done = run(root, "sweep", "--dry-run", "--update-pins", "--format", "json")
    assert done.exit_code == 0 and snapshot(root) == before
    data = json.loads(done.stdout)
    pins = {(p["path"], p["status"], p["of"], p["algorithm"]) for p in data["pins"]}
    assert pins == {("scripts/SHA256SUMS", "updated", "scripts/deploy.sh", "sha256"),
                    ("runner.env", "updated", "scripts/deploy.sh", "sha256"),
                    ("settings.ini", "updated", "scripts/deploy.sh", "sha1"),
                    ("checks.yaml", "updated", "notes.txt", "md5"),
                    ("HISTORY.md", "kept", "scripts/deploy.sh", "sha256"),
                    ("README.md", "residual", "scripts/deploy.sh", "sha256")}
    assert data["summary"]["left"] == 1  # README's pin, in prose


def test_a_git_blob_id_is_no_pin(repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    blob = hashlib.sha1(b"blob %d\0" % len(DEPLOY) + DEPLOY).hexdigest()
    root = repo({"deploy.sh": DEPLOY, "index.txt": f"deploy.sh {blob}\n"}, allowlist=ALLOW)
    assert git(root, "rev-parse", "HEAD:deploy.sh").strip() == blob
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0 and "pin" not in done.stdout


def _greps_left() -> list[str]:
    """The `git grep` processes this test process started that are still there (zombies too)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            parent = int(stat.read_text().rsplit(")", 1)[1].split()[1])
            argv = (stat.parent / "cmdline").read_bytes().split(b"\0")
        except (OSError, IndexError, ValueError):
            continue
        if parent == os.getpid() and b"grep" in argv and argv[0].endswith(b"git"):
            found.append(stat.parent.name)
    return found


@pytest.mark.parametrize("command", [("sweep", "--commit", "--allow-dirty"), ("verify",)])
def test_the_pin_search_runs_beside_the_scan(repo: Callable[..., Path], run: Callable[..., Result],
                                             command: tuple[str, ...]) -> None:
    """Issue 30 item 3: git grep for digest-long hex words starts before the scan, and its answer
    is the one a grep after the scan gave: an untracked file's pin is found too."""
    root = repo(_files(), allowlist=ALLOW)
    if command == ("verify",):
        assert run(root, "sweep", "--commit").exit_code == 1
    (root / "untracked.env").write_text(f"DEPLOY_SHA256={_sha256(DEPLOY)}\n")  # not added
    done = run(root, "-vv", *command)
    assert done.exit_code == 1, done.stdout + done.stderr
    logs = done.stderr.splitlines()
    started = [i for i, line in enumerate(logs) if re.fullmatch(
        r"renamer: debug: run: git -C \S+ grep -z -l -I --untracked -P -e '\[0-9A-Fa-f\]\{32\}' --", line)]
    scanned = [i for i, line in enumerate(logs) if line.startswith("renamer: debug: scan: ")]
    assert started and scanned and started[0] < scanned[0], done.stderr
    if command == ("verify",):
        assert "SHA256SUMS:1:1" in done.stdout and "stale SHA-256 of scripts/deploy.sh" in done.stdout
    else:
        assert "untracked.env:1:15" in done.stdout and done.stdout.count("(pin: ") == 6
    assert _greps_left() == []


def test_a_pin_search_nobody_asks_for_is_stopped(repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    """No file changes: the grep started before the scan is never collected, and left behind
    by nobody (no git child remains, no half-read output)."""
    root = repo({"notes.txt": UNTOUCHED, "SHA256SUMS": f"{_sha256(UNTOUCHED)}  notes.txt\n"}, allowlist=ALLOW)
    done = run(root, "-vv", "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    assert " grep -z -l -I --untracked -P " in done.stderr
    assert _greps_left() == []
    assert git(root, "status", "--porcelain") == ""


def test_pins_in_a_plain_folder_are_found_without_git(tmp_path: Path, run: Callable[..., Result]) -> None:
    """Outside git no grep starts: every file is read, and the pins are the same."""
    root = tmp_path / "plain"
    files = {"renamer.yaml": CONFIG, "allow.yaml": ALLOW, **_files()}
    write_files(root, files)
    done = run(root, "-vv", "sweep")
    assert done.exit_code == 1, done.stdout + done.stderr
    assert " grep " not in done.stderr
    for where in ("scripts/SHA256SUMS:1:1", "runner.env:1:20", "settings.ini:2:15", "checks.yaml:2:9",
                  "README.md:1:32"):
        assert f"  {where}: " in done.stdout, where
    assert done.stdout.count("(pin: ") == 5
    assert (root / "scripts/deploy.sh").read_bytes() == _after(DEPLOY)


def test_a_rewritten_file_that_pins_another_keeps_its_digest_case(repo: Callable[..., Path],
                                                                 run: Callable[..., Result]) -> None:
    """The pins pass keeps only the bytes of files that hold or are named by a pin (issue 30,
    item 4): a holder that is itself rewritten is still read as written (upper-case digest), and
    the many rewritten files that no pin names change nothing."""
    others = {f"hosts/h{i}.txt": f"ssh ana-ml2 # {i}\n" for i in range(40)}
    runner = f"# on ana-ml2\nreadonly transaction_sha256={_sha256(DEPLOY).upper()}\n".encode()
    root = repo({"deploy.sh": DEPLOY, "runner.sh": runner, **others}, allowlist=ALLOW)
    done = run(root, "sweep", "--commit", "--update-pins")
    assert done.exit_code == 0, done.stdout + done.stderr
    assert (root / "runner.sh").read_bytes() == (
        f"# on fv-ml1\nreadonly transaction_sha256={_sha256(_after(DEPLOY)).upper()}\n".encode())
    assert all((root / rel).read_text() == text.replace("ana-ml2", "fv-ml1") for rel, text in others.items())
