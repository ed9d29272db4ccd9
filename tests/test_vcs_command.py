"""Where a work tree's git is: asked once while nothing it depends on changes, asked again when it does."""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from renamer import vcs_command
from renamer.errors import UnsafeError
from renamer.vcs_command import git_dir
from tests.conftest import Result
from tests.testing.repos import git, make_repo

_ASK = "rev-parse --absolute-git-dir"


def test_a_sweep_asks_git_where_its_folder_is_once(tmp_path: Path, run: Callable[..., Result]) -> None:
    root = make_repo(tmp_path / "repo", {"hosts.ini": "web01 ansible_host=10.250.50.54\n"})
    result = run(root, "-vv", "sweep", "--dry-run")
    assert result.exit_code == 0, result.stderr
    assert result.stderr.count(_ASK) == 1, result.stderr


def test_a_changed_dot_git_is_asked_again(tmp_path: Path) -> None:
    first = make_repo(tmp_path / "first", {"a.txt": "a\n"})
    second = make_repo(tmp_path / "second", {"b.txt": "b\n"})
    work = tmp_path / "work"
    work.mkdir()
    (work / ".git").write_text(f"gitdir: {first / '.git'}\n")
    assert git_dir(work) == first / ".git"
    # Another repo's folder behind a new `.git` file (a new inode), then none at all.
    (work / ".git").unlink()
    (work / ".git").write_text(f"gitdir: {second / '.git'}\n")
    assert git_dir(work) == second / ".git"
    (work / ".git").unlink()
    assert git_dir(work) is None


def test_a_refusal_is_never_remembered_and_another_git_on_path_is_asked(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = make_repo(tmp_path / "repo", {"a.txt": "a\n"})
    assert git_dir(root) == root / ".git"
    shim = tmp_path / "bin"
    shim.mkdir()
    (shim / "git").write_text("#!/bin/sh\necho 'fatal: detected dubious ownership in repository' >&2\nexit 128\n")
    (shim / "git").chmod(0o755)
    monkeypatch.setenv("PATH", f"{shim}{os.pathsep}{os.environ['PATH']}")
    for _ in range(2):
        with pytest.raises(UnsafeError, match="git refuses this repository: fatal: detected dubious"):
            git_dir(root)
    monkeypatch.undo()
    assert git_dir(root) == root / ".git"


def test_a_linked_worktree_gets_its_own_folder(tmp_path: Path) -> None:
    root = make_repo(tmp_path / "repo", {"a.txt": "a\n"})
    linked = tmp_path / "linked"
    git(root, "worktree", "add", "-q", str(linked))
    assert git_dir(root) == root / ".git"
    found = git_dir(linked)
    assert found is not None and found.parent == root / ".git" / "worktrees"
    done = subprocess.run(["git", "-C", str(linked), "rev-parse", "--absolute-git-dir"],
                          capture_output=True, text=True, check=True)
    assert str(found) == done.stdout.strip()


def test_outside_a_command_git_is_asked_each_time(tmp_path: Path) -> None:
    """d30 finding 02: a `.git` file rewritten in place to name another worktree, its length and
    mtime kept (`cp -p`, `rsync -t`), has the same key; outside a command nothing is remembered."""
    first, second = (make_repo(tmp_path / name, {"a.txt": "a\n"}) for name in ("first", "second"))
    x, y = tmp_path / "x", tmp_path / "y"
    git(first, "worktree", "add", "-q", str(x))
    git(second, "worktree", "add", "-q", str(y))
    before = git_dir(x)
    assert before is not None and before.parent == first / ".git" / "worktrees"
    kept = os.stat(x / ".git")
    with open(x / ".git", "r+") as f:  # the same inode, the same length (x and y: one letter each)
        f.write((y / ".git").read_text())
        f.truncate()
    os.utime(x / ".git", ns=(kept.st_atime_ns, kept.st_mtime_ns))
    after = git_dir(x)
    assert after is not None and after.parent == second / ".git" / "worktrees"


def test_a_worktree_pruned_between_two_commands_is_refused_by_the_second(
        tmp_path: Path, run: Callable[..., Result]) -> None:
    """d30 finding 01: the tests' and a library's process lives on between commands; a linked
    worktree whose private folder is pruned (its `.git` file untouched) is git's refusal in the
    next command, never the folder remembered from the one before."""
    root = make_repo(tmp_path / "repo", {"hosts.ini": "web01 ansible_host=10.250.50.54\n"})
    linked = tmp_path / "linked"
    git(root, "worktree", "add", "-q", str(linked))
    assert run(linked, "verify").exit_code == 1  # an old value: found, as expected
    shutil.rmtree(root / ".git" / "worktrees" / "linked")
    again = run(linked, "verify")
    assert again.exit_code == 3, again.stdout + again.stderr
    assert "git refuses this repository" in again.stderr


def test_within_a_command_git_is_asked_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = make_repo(tmp_path / "repo", {"a.txt": "a\n"})
    asked: list[list[str]] = []
    real = vcs_command.git_run

    def counted(argv: list[str], **kwargs: Any) -> subprocess.CompletedProcess[Any]:
        asked.append(argv)
        return real(argv, **kwargs)

    monkeypatch.setattr(vcs_command, "git_run", counted)
    with vcs_command.remembering_git_dirs():
        assert git_dir(root) == git_dir(root) == root / ".git"
    assert len(asked) == 1
    git_dir(root)
    assert len(asked) == 2  # the command is over: asked again


def test_a_git_killed_by_a_signal_is_asked_again_not_a_refusal(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A terminal's Ctrl-C reaches git too while renamer defers it over its writes: git dead by
    SIGINT is no refusal of the repository (the full run's terminal Ctrl-C test saw one)."""
    root = make_repo(tmp_path / "repo", {"a.txt": "a\n"})
    real = shutil.which("git")
    shim = tmp_path / "bin"
    shim.mkdir()
    once = tmp_path / "killed-once"
    (shim / "git").write_text(f"#!/bin/sh\nif [ ! -e {once} ]; then : > {once}; kill -INT $$; fi\n"
                              f'exec {real} "$@"\n')
    (shim / "git").chmod(0o755)
    monkeypatch.setenv("PATH", f"{shim}{os.pathsep}{os.environ['PATH']}")
    assert git_dir(root) == root / ".git"
    assert once.exists()
