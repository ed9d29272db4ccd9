"""Hash pins (issue 27, item 11 / newcomer-pass-2 B4): the digest of a file the sweep rewrites,
recorded elsewhere, is a residual `pin` (exit 1) unless `--update-pins` rewrites it where the format
is certain; a record's pin is kept; `verify` re-hashes what a manifest line names."""

from __future__ import annotations

import base64
import hashlib
import json
import subprocess
from collections.abc import Callable
from pathlib import Path

from tests.conftest import Result
from tests.testing.pins import ALLOW, DEPLOY
from tests.testing.repos import git, snapshot

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
    assert out.count(" (pin") == 5  # lines; a shared explanation said once (t35 #23)
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


# After the commit (break-it pass, issue 27 item 11): a pin in a format that names no file cannot be
# re-hashed, but git still has the bytes the sweep replaced; verify reads them from the move's commits.
def _nameless(deploy: bytes, notes: bytes) -> dict[str, str | bytes]:
    """Pins of deploy.sh and notes.txt in formats that do not say which file they belong to."""
    sha256, sha1 = _sha256(deploy), hashlib.sha1(deploy).hexdigest()
    return {
        "scripts/deploy.sh": deploy,
        "notes.txt": notes,
        "release.yaml": f"artifact:\n  checksum: sha256:{sha256}\n",
        "lock.json": json.dumps({"files": [{"name": "app", "sha256": sha256}]}, indent=2) + "\n",
        "legacy.json": f'{{"sha1": "{sha1.upper()}"}}\n',  # upper case, one line
        # a manifest naming the file by its installed path: no file of the repo to re-hash
        "ops/installed.sums": f"{hashlib.md5(notes).hexdigest()}  /opt/app/notes.txt\n",
        "RUNBOOK.md": f"Check the script: `sha256sum deploy.sh` must print {sha256}.\n",
    }


PINNED_PATHS = ("release.yaml:2:20", "lock.json:5:18", "legacy.json:1:11", "ops/installed.sums:1:1",
                "RUNBOOK.md:1:52")


def test_verify_fails_on_a_pin_of_the_bytes_the_commit_replaced(repo: Callable[..., Path],
                                                                  run: Callable[..., Result]) -> None:
    root = repo(_nameless(DEPLOY, NOTES), allowlist=ALLOW)
    done = run(root, "sweep", "--commit")
    # five lines; an explanation two pins share is said once, under Why (t35, finding 23)
    assert done.exit_code == 1 and done.stdout.count(" (pin") == 5, done.stdout
    assert git(root, "status", "--porcelain") == ""
    check = run(root, "verify", "--format", "json")
    assert check.exit_code == 1, check.stdout
    pins = [r for r in json.loads(check.stdout)["findings"] if r.get("reason") == "pin"]
    found = {f"{r['path']}:{r['line']}:{r['column']}" for r in pins}
    assert found == set(PINNED_PATHS)
    rewrite = git(root, "log", "-1", "--format=%H").strip()
    yaml_pin = next(r for r in pins if r["path"] == "release.yaml")
    assert yaml_pin["new"] == _sha256(_after(DEPLOY))  # what it should say now
    assert f"stale SHA-256 of scripts/deploy.sh as it was before commit {rewrite[:12]}" in yaml_pin["note"]
    assert "stale SHA-1 of scripts/deploy.sh" in run(root, "verify").stdout  # the text report too


def test_a_pin_fixed_by_hand_or_decided_lets_verify_pass(repo: Callable[..., Path],
                                                         run: Callable[..., Result]) -> None:
    files = _nameless(DEPLOY, NOTES)
    root = repo({"scripts/deploy.sh": DEPLOY, "notes.txt": NOTES, "release.yaml": files["release.yaml"],
                 "RUNBOOK.md": files["RUNBOOK.md"]}, allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 1
    assert run(root, "verify").exit_code == 1
    # the operator updates the YAML pin and keeps the runbook's on purpose, with the inline marker
    (root / "release.yaml").write_text(f"artifact:\n  checksum: sha256:{_sha256(_after(DEPLOY))}\n")
    (root / "RUNBOOK.md").write_text(files["RUNBOOK.md"].rstrip("\n") + " <!-- renamer: keep -->\n")
    git(root, "commit", "-qam", "pins")
    check = run(root, "verify")
    assert check.exit_code == 0, check.stdout


def test_a_pin_in_a_record_stays_and_verify_passes(repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    root = repo({"scripts/deploy.sh": DEPLOY,
                 "HISTORY.md": f"2026-09-01 released with checksum sha256:{_sha256(DEPLOY)}\n"}, allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 0
    assert run(root, "verify").exit_code == 0


def test_a_sweep_written_but_not_committed_fails_verify_too(repo: Callable[..., Path],
                                                             run: Callable[..., Result]) -> None:
    root = repo(_nameless(DEPLOY, NOTES), allowlist=ALLOW)
    assert run(root, "sweep").exit_code == 1
    assert git(root, "status", "--porcelain") != ""  # written, not committed
    check = run(root, "verify")
    assert check.exit_code == 1 and "at HEAD, before the uncommitted rewrite" in check.stdout, check.stdout
    assert check.stdout.count("residual (pin)") == 5


def test_a_rewrite_reverted_by_hand_leaves_no_stale_pin(repo: Callable[..., Path],
                                                          run: Callable[..., Result]) -> None:
    """The pre-sweep bytes are back (and the old name with them): the pin holds again; what verify
    reports is the old name, not the pin."""
    root = repo({"scripts/deploy.sh": DEPLOY, "release.yaml": f"checksum: sha256:{_sha256(DEPLOY)}\n"},
                allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 1
    (root / "scripts/deploy.sh").write_bytes(DEPLOY)
    git(root, "commit", "-qam", "revert")
    check = run(root, "verify")
    assert check.exit_code == 1 and "(pin)" not in check.stdout and "ana-ml2" in check.stdout


def test_update_pins_rewrites_a_prefixed_key_and_a_json_member(repo: Callable[..., Path],
                                                               run: Callable[..., Result]) -> None:
    files = _nameless(DEPLOY, NOTES)
    del files["ops/installed.sums"], files["RUNBOOK.md"]
    files["mismatch.yaml"] = f"checksum: md5:{_sha256(DEPLOY)}\n"  # says MD5, holds a SHA-256: not certain
    root = repo(files, allowlist=ALLOW)
    done = run(root, "sweep", "--commit", "--update-pins")
    assert done.exit_code == 1, done.stdout + done.stderr
    assert "Pins updated to the new bytes' digest (3):" in done.stdout
    new = _after(DEPLOY)
    assert (root / "release.yaml").read_text() == f"artifact:\n  checksum: sha256:{_sha256(new)}\n"
    assert json.loads((root / "lock.json").read_text())["files"][0]["sha256"] == _sha256(new)
    assert (root / "legacy.json").read_text() == f'{{"sha1": "{hashlib.sha1(new).hexdigest().upper()}"}}\n'
    assert (root / "mismatch.yaml").read_text() == files["mismatch.yaml"]
    assert done.stdout.count("(pin: ") == 1 and "mismatch.yaml:1:" in done.stdout
    check = run(root, "verify")
    assert check.exit_code == 1 and check.stdout.count("residual (pin)") == 1 and "mismatch.yaml" in check.stdout


def test_a_sweep_after_the_commit_reports_the_stale_pins_and_update_pins_fixes_them(
        repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    """What verify fails on, a second sweep reports (exit 1, not "nothing to change"); its
    --update-pins rewrites the certain ones to the digest of the file as it is now, and commits."""
    root = repo(_nameless(DEPLOY, NOTES), allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 1
    rewrite = git(root, "rev-parse", "HEAD").strip()
    again = run(root, "sweep", "--commit")
    assert again.exit_code == 1 and git(root, "rev-parse", "HEAD").strip() == rewrite  # nothing written
    assert again.stdout.count(" (pin") == 5, again.stdout  # five lines, a shared explanation said once
    assert f"the SHA-256 of scripts/deploy.sh before commit {rewrite[:12]}" in again.stdout
    dry = json.loads(run(root, "sweep", "--dry-run", "--update-pins", "--format", "json").stdout)
    assert {(p["path"], p["status"]) for p in dry["pins"]} == {
        ("release.yaml", "updated"), ("lock.json", "updated"), ("legacy.json", "updated"),
        ("ops/installed.sums", "residual"), ("RUNBOOK.md", "residual")}  # the manifest names another path
    fixed = run(root, "sweep", "--commit", "--update-pins")
    assert fixed.exit_code == 1 and "Pins updated to the new bytes' digest (3):" in fixed.stdout
    new = _after(DEPLOY)
    assert (root / "release.yaml").read_text() == f"artifact:\n  checksum: sha256:{_sha256(new)}\n"
    assert json.loads((root / "lock.json").read_text())["files"][0]["sha256"] == _sha256(new)
    assert (root / "legacy.json").read_text() == f'{{"sha1": "{hashlib.sha1(new).hexdigest().upper()}"}}\n'
    assert (root / "scripts/deploy.sh").read_bytes() == new  # the pinned file itself untouched
    assert git(root, "status", "--porcelain") == "" and "Pins updated" in git(root, "log", "-1", "--format=%B")
    check = run(root, "verify")
    assert check.exit_code == 1 and check.stdout.count("residual (pin)") == 2, check.stdout


def test_a_record_of_the_old_digest_is_not_listed_by_later_sweeps(repo: Callable[..., Path],
                                                                  run: Callable[..., Result]) -> None:
    root = repo({"scripts/deploy.sh": DEPLOY, "HISTORY.md": f"2026-09-01 sha256 {_sha256(DEPLOY)}\n"},
                allowlist=ALLOW)
    first = run(root, "sweep", "--commit")
    assert first.exit_code == 0 and "HISTORY.md:1:" in first.stdout  # kept, listed once, by this sweep
    again = run(root, "sweep", "--commit")
    assert again.exit_code == 0 and "HISTORY.md" not in again.stdout


def _sri(algorithm: str, data: bytes) -> str:
    return f"{algorithm}-{base64.b64encode(hashlib.new(algorithm, data).digest()).decode()}"


APP_JS = b"fetch('https://ana-ml2/api')\n"


def _sri_files() -> dict[str, str | bytes]:
    return {"web/app.js": APP_JS,
            "web/index.html": f'<script src="app.js" integrity="{_sri("sha384", APP_JS)}"></script>\n',
            "web/lock.yaml": f"app.js:\n  integrity: {_sri('sha256', APP_JS)}\n",
            "web/NOTES.md": f"The bundle's digest: {_sri('sha512', APP_JS)}\n"}


def test_an_sri_pin_is_found_updated_and_checked_after_the_commit(repo: Callable[..., Path],
                                                                  run: Callable[..., Result]) -> None:
    root = repo(_sri_files(), allowlist=ALLOW)
    dry = json.loads(run(root, "sweep", "--dry-run", "--format", "json").stdout)
    assert {(p["path"], p["algorithm"], p["status"]) for p in dry["pins"]} == {
        ("web/index.html", "sri-sha384", "residual"), ("web/lock.yaml", "sri-sha256", "residual"),
        ("web/NOTES.md", "sri-sha512", "residual")}
    assert run(root, "sweep", "--commit").exit_code == 1
    check = run(root, "verify")  # after the commit: the bytes are gone, git has them
    assert check.exit_code == 1 and check.stdout.count("residual (pin)") == 3, check.stdout
    assert "stale SHA-384 (SRI) of web/app.js" in check.stdout
    fixed = run(root, "sweep", "--commit", "--update-pins")  # the SRI form names its algorithm: certain
    assert fixed.exit_code == 0 and "Pins updated to the new bytes' digest (3):" in fixed.stdout
    new = APP_JS.replace(b"ana-ml2", b"fv-ml1")
    assert (root / "web/index.html").read_text() == f'<script src="app.js" integrity="{_sri("sha384", new)}"></script>\n'
    assert (root / "web/lock.yaml").read_text() == f"app.js:\n  integrity: {_sri('sha256', new)}\n"
    assert run(root, "verify").exit_code == 0


def test_update_pins_rewrites_an_sri_pin_with_the_file(repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    root = repo(_sri_files(), allowlist=ALLOW)
    done = run(root, "sweep", "--commit", "--update-pins")
    assert done.exit_code == 0, done.stdout + done.stderr
    new = (root / "web/app.js").read_bytes()
    assert _sri("sha512", new) in (root / "web/NOTES.md").read_text()
    assert run(root, "verify").exit_code == 0


def test_a_pin_of_a_wide_file_is_its_own_bytes_digest(repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    """A UTF-16 script is rewritten in UTF-16 (break-it round 17, finding 18): its pin is found by
    the digest of its own bytes before, and updated to the digest of its own bytes after, never of
    the UTF-8 the rules read."""
    script = "Add-Computer -Server ana-ml2\r\n".encode("utf-16")  # a BOM, little-endian here
    root = repo({"win/join.ps1": script, "win/SHA256SUMS": f"{_sha256(script)}  join.ps1\n"}, allowlist=ALLOW)
    done = run(root, "sweep", "--commit", "--update-pins")
    assert done.exit_code == 0, done.stdout + done.stderr
    after = (root / "win/join.ps1").read_bytes()
    assert after == "Add-Computer -Server fv-ml1\r\n".encode("utf-16")
    assert (root / "win/SHA256SUMS").read_text() == f"{_sha256(after)}  join.ps1\n"
    assert run(root, "verify").exit_code == 0
