"""Hash pins that still hold, and pins found whatever shape the history took (break-it round 3,
findings 3 and 13).

3: a digest names bytes, not a file. An unchanged copy (a record's backup) that still has the
digest keeps the pin right: never rewritten by --update-pins, never reported; a pin whose context
names a file (a manifest line's path, an enclosing JSON/YAML/TOML key, a sibling `path:` member,
`app_path=` beside `app_sha256=`) belongs to that file alone.
13: after a squash, a rebase or a cherry-pick the move's commits (and their `Renamer-Move:` trailer)
are gone; verify still finds a pin of a version the move changed, from the blobs git has."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Result
from tests.testing.repos import git

ALLOW = """version: 1
current: ['**']
records:
  - name: backups
    paths: [backups/**]
    reason: copies of the configuration as it was deployed
"""
APP = b"service:\n  host: ana-ml2\r\n  port: 8080\n"  # CRLF on purpose: the bytes are hashed
NEW_APP = APP.replace(b"ana-ml2", b"fv-ml1")
DEPLOY = b"#!/bin/sh\nssh root@ana-ml2 systemctl restart app\n"
NEW_DEPLOY = DEPLOY.replace(b"ana-ml2", b"fv-ml1")


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _copy_pins(h: str) -> dict[str, str | bytes]:
    """Pins of the record's copy, which has the same bytes as the live app.yaml."""
    return {
        "app.yaml": APP,
        "backups/app.yaml": APP,
        "manifest.json": json.dumps({"files": {"backups/app.yaml": {"sha256": h}}}, indent=2) + "\n",
        "backup.env": f"backup_sha256={h}\n",  # names no file: a file of the repo still has it
        "SHA256SUMS": f"{h}  backups/app.yaml\n",
        "BSD.sums": f"SHA256 (backups/app.yaml) = {h}\n",
        "restore.yaml": f"restore:\n  checksum: sha256:{h}\n",
        "RESTORE.md": f"The backup must hash to {h}.\n",
    }


def test_pins_of_an_unchanged_copy_are_never_updated_nor_reported(repo: Callable[..., Path],
                                                                   run: Callable[..., Result]) -> None:
    files = _copy_pins(_sha256(APP))
    root = repo(files, allowlist=ALLOW)
    done = run(root, "sweep", "--commit", "--update-pins")
    assert done.exit_code == 0, done.stdout + done.stderr
    assert (root / "app.yaml").read_bytes() == NEW_APP and (root / "backups/app.yaml").read_bytes() == APP
    for path in ("manifest.json", "backup.env", "SHA256SUMS", "BSD.sums", "restore.yaml", "RESTORE.md"):
        assert (root / path).read_text() == files[path], path
    assert "(pin: " not in done.stdout and "Pins updated" not in done.stdout
    check = run(root, "verify", "--strict")  # after the commit too: the copy still answers the digest
    assert check.exit_code == 0, check.stdout


def test_a_pin_naming_the_live_file_follows_it_though_a_copy_has_its_old_bytes(
        repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    """Each format's context names which of the two files a pin belongs to; the live file's pins
    follow its rewrite, the copy's stay, side by side in one file."""
    h = _sha256(APP)
    files: dict[str, str | bytes] = {
        "app.yaml": APP,
        "backups/app.yaml": APP,
        "manifest.json": json.dumps({"files": {"app.yaml": {"sha256": h},
                                               "backups/app.yaml": {"sha256": h}}}, indent=2) + "\n",
        "lock.yaml": f"files:\n  - path: backups/app.yaml\n    sha256: {h}\n  - path: app.yaml\n    sha256: {h}\n",
        "pins.toml": f'[files."app.yaml"]\nsha256 = "{h}"\n\n[files."backups/app.yaml"]\nsha256 = "{h}"\n',
        "deploy.env": f"app_path=app.yaml\napp_sha256={h}\nbackup_file=backups/app.yaml\nbackup_sha256={h}\n",
        "SHA256SUMS": f"{h}  backups/app.yaml\n{h}  app.yaml\n",
        "restore.sh": f"export APP_FILE=app.yaml\nexport APP_SHA256={h}\nBACKUP_PATH=backups/app.yaml\n"
                      f"readonly BACKUP_SHA256={h}\n",
    }
    root = repo(files, allowlist=ALLOW)
    preview = json.loads(run(root, "sweep", "--dry-run", "--update-pins", "--format", "json").stdout)
    assert sorted((p["path"], p["line"], p["status"]) for p in preview["pins"]) == [
        ("SHA256SUMS", 2, "updated"), ("deploy.env", 2, "updated"), ("lock.yaml", 5, "updated"),
        ("manifest.json", 4, "updated"), ("pins.toml", 2, "updated"), ("restore.sh", 2, "updated")]
    done = run(root, "sweep", "--commit", "--update-pins")
    assert done.exit_code == 0, done.stdout + done.stderr
    n = _sha256(NEW_APP)
    assert json.loads((root / "manifest.json").read_text())["files"] == {
        "app.yaml": {"sha256": n}, "backups/app.yaml": {"sha256": h}}
    assert (root / "lock.yaml").read_text() == files["lock.yaml"].replace(f"sha256: {h}\n", "@", 1) \
        .replace(h, n).replace("@", f"sha256: {h}\n")
    assert (root / "pins.toml").read_text() == files["pins.toml"].replace(h, n, 1)
    assert (root / "deploy.env").read_text() == files["deploy.env"].replace(h, n, 1)
    assert (root / "SHA256SUMS").read_text() == f"{h}  backups/app.yaml\n{n}  app.yaml\n"
    assert (root / "restore.sh").read_text() == files["restore.sh"].replace(h, n, 1)
    assert run(root, "verify", "--strict").exit_code == 0


def test_a_named_pin_left_stale_is_reported_though_a_copy_has_the_digest(
        repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    """The copy answers only for pins that name no file: `app_sha256=` beside `app_path=app.yaml`
    is the live file's, stale after the sweep, before and after the commit."""
    h = _sha256(APP)
    root = repo({"app.yaml": APP, "backups/app.yaml": APP,
                 "deploy.env": f"app_path=./app.yaml\napp_sha256={h}\n",
                 "lock.json": json.dumps([{"file": "app.yaml", "md5": hashlib.md5(APP).hexdigest()}]) + "\n"},
                allowlist=ALLOW)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1, done.stdout
    assert "deploy.env:2:12: " in done.stdout and "lock.json:1:" in done.stdout
    assert done.stdout.count(" (pin") == 2
    check = run(root, "verify")
    assert check.exit_code == 1 and check.stdout.count("residual (pin)") == 2, check.stdout
    assert "stale SHA-256 of app.yaml as it was before commit" in check.stdout


def test_two_live_copies_rewritten_alike_share_one_updated_pin(repo: Callable[..., Path],
                                                                run: Callable[..., Result]) -> None:
    root = repo({"app.yaml": APP, "stacks/app.yaml": APP, "release.yaml": f"checksum: sha256:{_sha256(APP)}\n"},
                allowlist=ALLOW)
    done = run(root, "sweep", "--commit", "--update-pins")
    assert done.exit_code == 0, done.stdout + done.stderr
    assert (root / "release.yaml").read_text() == f"checksum: sha256:{_sha256(NEW_APP)}\n"
    assert done.stdout.count("release.yaml:1:") == 1
    assert run(root, "verify", "--strict").exit_code == 0


# Finding 13: the history's shape after the move. Each shape leaves HEAD with the move's changes and
# no commit carrying its trailer (a squash, a rebase reworded, a cherry-pick committed by hand).
def _squash_by_reset(root: Path, base: str) -> None:
    git(root, "reset", "-q", "--soft", base)
    git(root, "commit", "-qm", "Rename (#42)")


def _squash_merge(root: Path, base: str) -> None:
    git(root, "checkout", "-q", "-b", "move")
    git(root, "checkout", "-q", "main")
    git(root, "reset", "-q", "--hard", base)
    git(root, "merge", "-q", "--squash", "move")
    git(root, "commit", "-qm", "Rename hosts (#42)\n\nSquashed.")


def _rebase_reworded(root: Path, base: str) -> None:
    git(root, "checkout", "-q", "-b", "move")
    git(root, "checkout", "-q", "-B", "main", base)
    (root / "unrelated.txt").write_text("another change on main\n")
    git(root, "add", "unrelated.txt")
    git(root, "commit", "-qm", "meanwhile on main")
    git(root, "checkout", "-q", "move")
    git(root, "rebase", "-q", "main")
    git(root, "commit", "-q", "--amend", "-m", "Rename hosts")


def _cherry_picked(root: Path, base: str) -> None:
    move = git(root, "rev-parse", "HEAD").strip()
    git(root, "checkout", "-q", "-b", "release", base)
    (root / "unrelated.txt").write_text("release branch\n")
    git(root, "add", "unrelated.txt")
    git(root, "commit", "-qm", "release prep")
    git(root, "cherry-pick", "-n", move)
    git(root, "commit", "-qm", "Backport the rename")
    git(root, "branch", "-q", "-D", "main")  # the original commit gone from every ref but the reflog


def _cherry_picked_with_trailer(root: Path, base: str) -> None:
    move = git(root, "rev-parse", "HEAD").strip()
    git(root, "checkout", "-q", "-b", "release", base)
    git(root, "cherry-pick", "-x", move)


SHAPES = [_squash_by_reset, _squash_merge, _rebase_reworded, _cherry_picked, _cherry_picked_with_trailer]


def _nameless(h: str) -> dict[str, str | bytes]:
    return {"scripts/deploy.sh": DEPLOY,
            "release.yaml": f"artifact:\n  checksum: sha256:{h}\n",
            "lock.json": json.dumps({"files": [{"name": "app", "sha256": h}]}, indent=2) + "\n",
            "RUNBOOK.md": f"`sha256sum deploy.sh` must print {h}.\n"}


@pytest.mark.parametrize("shape", SHAPES, ids=lambda f: f.__name__.strip("_"))
def test_verify_finds_a_stale_pin_whatever_the_history_shape(
        repo: Callable[..., Path], run: Callable[..., Result], shape: Callable[[Path, str], None]) -> None:
    root = repo(_nameless(_sha256(DEPLOY)), allowlist=ALLOW)
    base = git(root, "rev-parse", "HEAD").strip()
    assert run(root, "sweep", "--commit").exit_code == 1
    shape(root, base)
    assert git(root, "status", "--porcelain") == ""
    trailers = git(root, "log", "--format=%B", f"{base}..HEAD")
    assert shape is _cherry_picked_with_trailer or "Renamer-Move:" not in trailers
    assert (root / "scripts/deploy.sh").read_bytes() == NEW_DEPLOY
    check = run(root, "verify", "--strict", "--format", "json")
    assert check.exit_code == 1, check.stdout
    pins = {f"{r['path']}:{r['line']}" for r in json.loads(check.stdout)["findings"] if r.get("reason") == "pin"}
    assert pins == {"release.yaml:2", "lock.json:5", "RUNBOOK.md:1"}
    # a second sweep reports them too, and its --update-pins fixes the certain ones
    assert run(root, "sweep", "--commit").exit_code == 1
    fixed = run(root, "sweep", "--commit", "--update-pins")
    assert fixed.exit_code == 1 and "Pins updated to the new bytes' digest (2):" in fixed.stdout, fixed.stdout
    assert (root / "release.yaml").read_text() == f"artifact:\n  checksum: sha256:{_sha256(NEW_DEPLOY)}\n"
    again = run(root, "verify", "--strict")
    assert again.exit_code == 1 and again.stdout.count("residual (pin)") == 1 and "RUNBOOK.md" in again.stdout


@pytest.mark.parametrize("shape", [_squash_by_reset, _rebase_reworded], ids=lambda f: f.__name__.strip("_"))
def test_after_a_squash_an_unchanged_copy_still_answers_its_pins(
        repo: Callable[..., Path], run: Callable[..., Result], shape: Callable[[Path, str], None]) -> None:
    root = repo(_copy_pins(_sha256(APP)), allowlist=ALLOW)
    base = git(root, "rev-parse", "HEAD").strip()
    assert run(root, "sweep", "--commit").exit_code == 0
    shape(root, base)
    check = run(root, "verify", "--strict")
    assert check.exit_code == 0, check.stdout


def test_a_pin_of_a_version_older_than_the_move_is_not_the_moves(repo: Callable[..., Path],
                                                                  run: Callable[..., Result]) -> None:
    """Only the versions the move replaced are its: an older version of the file (before the old
    name was in it, or holding it already but edited before the move) pinned somewhere was stale
    before the move, and is not this move's stale pin."""
    early = b"#!/bin/sh\necho not deployed yet\n"
    draft = b"#!/bin/sh\nssh ana-ml2 true\n"
    root = repo({"scripts/deploy.sh": early, "notes.yaml": f"first_draft_sha256: {_sha256(early)}\n"},
                allowlist=ALLOW)
    for data, message in ((draft, "try ana-ml2"), (DEPLOY, "deploy via ana-ml2")):
        (root / "scripts/deploy.sh").write_bytes(data)
        git(root, "commit", "-qam", message)
    (root / "release.yaml").write_text(f"checksum: sha256:{_sha256(DEPLOY)}\n")
    (root / "draft.env").write_text(f"draft_sha256={_sha256(draft)}\n")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "pins")
    base = git(root, "rev-parse", "HEAD").strip()
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1 and done.stdout.count("(pin: ") == 1 and "release.yaml:1:" in done.stdout
    _squash_by_reset(root, base)
    check = run(root, "verify", "--format", "json")
    pins = [r["path"] for r in json.loads(check.stdout)["findings"] if r.get("reason") == "pin"]
    assert pins == ["release.yaml"], check.stdout
    dry = json.loads(run(root, "sweep", "--dry-run", "--format", "json").stdout)  # a second sweep agrees
    assert [(p["path"], p["status"]) for p in dry["pins"]] == [("release.yaml", "residual")]


def test_a_nameless_pin_of_a_pin_file_follows_its_update(repo: Callable[..., Path],
                                                         run: Callable[..., Result]) -> None:
    """runner.sh pins deploy.sh and is pinned, naming no file, in release.yaml: the runner's old
    digest is its own until --update-pins rewrites it, so that is no copy standing for it."""
    runner = f"readonly transaction_sha256={_sha256(DEPLOY)}\n".encode()
    root = repo({"deploy.sh": DEPLOY, "runner.sh": runner, "release.yaml": f"checksum: sha256:{_sha256(runner)}\n"},
                allowlist=ALLOW)
    done = run(root, "sweep", "--commit", "--update-pins")
    assert done.exit_code == 0, done.stdout + done.stderr
    new_runner = (root / "runner.sh").read_bytes()
    assert new_runner == f"readonly transaction_sha256={_sha256(NEW_DEPLOY)}\n".encode()
    assert (root / "release.yaml").read_text() == f"checksum: sha256:{_sha256(new_runner)}\n"
    assert run(root, "verify", "--strict").exit_code == 0
