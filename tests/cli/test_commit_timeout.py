"""A git hook that hangs (adversarial pass 2, B-15): `sweep --commit` stops the git commit after
`--commit-timeout`, hooks and all, says so, exits 2 as for a hook that refuses; the rewrite stays
written and the journal keeps the commit, which the next `sweep --commit` makes. A hang in the
rename commit undoes the renames: nothing changed. Real hooks, real git, a one-second timeout."""

from __future__ import annotations

import json
import stat
import time
from pathlib import Path

import pytest

from tests.testing.repos import git

FILES = {f"stacks/f{i}.env": f"HOST=ana-ml2 {i}\nPORT=80\nUSER=app\n" for i in range(3)}
JOURNAL = ".git/renamer-journal.json"
HANG = 'echo $$ > "$(git rev-parse --git-dir)/hook.pid"\necho "waiting for approval" >&2\nsleep 300\n'
# Deaf to SIGTERM, and its sleeps with it: only SIGKILL, after the grace, stops it.
DEAF = 'echo $$ > "$(git rev-parse --git-dir)/hook.pid"\ntrap "" TERM\nwhile :; do sleep 1; done\n'


def _hook(root: Path, name: str, body: str) -> Path:
    path = root / ".git" / "hooks" / name
    path.write_text("#!/bin/sh\n" + body)
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return path


def _gone(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0]
    except FileNotFoundError:
        return True
    return state == "Z"  # dead, waiting for init to reap it


@pytest.mark.parametrize(("hook", "body", "flags"), [
    pytest.param("prepare-commit-msg", HANG, (), id="prepare-commit-msg"),
    pytest.param("prepare-commit-msg", HANG, ("--no-verify",), id="prepare-commit-msg-no-verify"),
    pytest.param("pre-commit", HANG, (), id="pre-commit"),
    pytest.param("commit-msg", DEAF, (), id="commit-msg-deaf-to-sigterm"),
])
def test_a_hanging_hook_is_stopped_and_the_next_sweep_commits(repo, run, hook: str, body: str,
                                                              flags: tuple[str, ...]) -> None:
    root = repo(FILES)
    path = _hook(root, hook, body)
    before = git(root, "rev-parse", "HEAD")
    started = time.monotonic()
    stopped = run(root, "sweep", "--commit", "--commit-timeout", "1", *flags)
    assert time.monotonic() - started < 30
    assert stopped.exit_code == 2, stopped.stderr
    assert stopped.stderr.startswith("renamer: error: git commit ran past the 1 s commit timeout "
                                     "(--commit-timeout) and was stopped")
    assert "a git hook that hangs?" in stopped.stderr
    assert ("the rewrite of 3 files is written but not committed: fix the cause, then "
            "`renamer sweep --commit` commits it (journal: .git/renamer-journal.json)") in stopped.stderr
    assert stopped.stderr.count("\n") == 1
    if body == HANG:
        assert "its last words: waiting for approval" in stopped.stderr
    assert _gone(int((root / ".git/hook.pid").read_text()))  # the hook stopped with git
    assert not (root / ".git/index.lock").exists()
    assert git(root, "rev-parse", "HEAD") == before
    assert json.loads((root / JOURNAL).read_text())["state"] == "written"
    assert all((root / rel).read_text() == text.replace("ana-ml2", "fv-ml1") for rel, text in FILES.items())
    path.unlink()
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stderr
    assert "its rewrite (3 files, 3 replacements) committed as" in done.stderr
    assert git(root, "status", "--porcelain") == "" and not (root / JOURNAL).exists()
    assert git(root, "log", "-1", "--format=%s").startswith("fv-ml1-move: ana-ml2 -> fv-ml1")


def test_a_hang_in_the_rename_commit_changes_nothing(repo, run) -> None:
    root = repo({"stacks/ana-ml2/app.env": "HOST=ana-ml2\n"})
    _hook(root, "prepare-commit-msg", HANG)
    stopped = run(root, "sweep", "--commit", "--commit-timeout", "1")
    assert stopped.exit_code == 2, stopped.stderr
    assert "ran past the 1 s commit timeout" in stopped.stderr
    assert git(root, "status", "--porcelain") == ""  # the renames undone: nothing half-done
    assert (root / "stacks/ana-ml2/app.env").read_text() == "HOST=ana-ml2\n"
    assert not (root / JOURNAL).exists() and not (root / ".git/index.lock").exists()


def test_a_hook_that_takes_its_time_within_the_timeout_commits(repo, run) -> None:
    root = repo(FILES)
    _hook(root, "pre-commit", "sleep 1\n")
    done = run(root, "sweep", "--commit", "--commit-timeout", "20")
    assert done.exit_code == 0, done.stderr
    assert git(root, "status", "--porcelain") == "" and not (root / JOURNAL).exists()


def test_a_hang_in_a_post_commit_hook_keeps_the_commit_it_made(repo, run) -> None:
    root = repo(FILES)
    _hook(root, "post-commit", HANG)
    done = run(root, "sweep", "--commit", "--commit-timeout", "1")
    assert done.exit_code == 0, done.stderr
    assert git(root, "log", "-1", "--format=%s").startswith("fv-ml1-move: ana-ml2 -> fv-ml1")
    assert git(root, "status", "--porcelain") == "" and not (root / JOURNAL).exists()


def test_over_uncommitted_work_a_hang_is_stopped_and_the_work_kept(repo, run) -> None:
    root = repo(FILES)
    (root / "stacks/f0.env").write_text(FILES["stacks/f0.env"] + "WIP=1\n")  # the commit goes through a temporary index
    path = _hook(root, "prepare-commit-msg", HANG)
    stopped = run(root, "sweep", "--commit", "--allow-dirty", "--commit-timeout", "1")
    assert stopped.exit_code == 2, stopped.stderr
    assert "ran past the 1 s commit timeout" in stopped.stderr and "written but not committed" in stopped.stderr
    assert not (root / ".git/index.lock").exists()
    path.unlink()
    done = run(root, "sweep", "--commit", "--allow-dirty")
    assert done.exit_code == 0, done.stderr
    new = FILES["stacks/f0.env"].replace("ana-ml2", "fv-ml1")
    assert git(root, "show", "HEAD:stacks/f0.env") == new  # the WIP line never committed
    assert (root / "stacks/f0.env").read_text() == new + "WIP=1\n"
