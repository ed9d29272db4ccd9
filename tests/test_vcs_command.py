"""Where a work tree's git is: asked once while nothing it depends on changes, asked again when it does."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

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
