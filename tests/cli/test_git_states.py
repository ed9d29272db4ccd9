"""Git states the sweep asks about before writing (issue 27, item 9 / adversarial B-1, B-14): a held
index lock and a skip-worktree file are refused with nothing written, never a rewrite git cannot
commit; assume-unchanged files are swept as before."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Result
from tests.testing.repos import git, snapshot

ALLOW = "version: 1\ncurrent: ['**']\n"
FILES = {"a.txt": "host ana-ml2\n", "b.txt": "host ana-ml2\n"}


@pytest.mark.parametrize("args", (pytest.param(("--commit",), id="commit"), pytest.param((), id="write")))
def test_a_skip_worktree_file_is_refused_before_anything_is_written(args: tuple[str, ...], repo: Callable[..., Path],
                                                                    run: Callable[..., Result]) -> None:
    root = repo(FILES, allowlist=ALLOW)
    git(root, "update-index", "--skip-worktree", "b.txt")
    before, head = snapshot(root), git(root, "rev-parse", "HEAD")
    done = run(root, "sweep", *args)
    assert done.exit_code == 3, done.stdout + done.stderr
    assert "b.txt: marked skip-worktree" in done.stderr and "nothing written" in done.stderr
    assert snapshot(root) == before and git(root, "rev-parse", "HEAD") == head
    assert run(root, "verify").exit_code == 1  # still live, still reported
    git(root, "update-index", "--no-skip-worktree", "b.txt")
    assert run(root, "sweep", "--commit").exit_code == 0
    assert git(root, "show", "HEAD:b.txt") == "host fv-ml1\n"


def test_a_held_index_lock_is_refused_before_anything_is_written(repo: Callable[..., Path],
                                                                 run: Callable[..., Result]) -> None:
    root = repo(FILES, allowlist=ALLOW)
    (root / ".git" / "index.lock").write_text("")
    before = snapshot(root)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 3 and "index.lock: another git process holds the index" in done.stderr
    assert snapshot(root) == before
    (root / ".git" / "index.lock").unlink()
    assert run(root, "sweep", "--commit").exit_code == 0


def test_an_assume_unchanged_file_is_swept(repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    root = repo(FILES, allowlist=ALLOW)
    git(root, "update-index", "--assume-unchanged", "b.txt")
    assert run(root, "sweep", "--commit").exit_code == 0
    assert (root / "b.txt").read_text() == "host fv-ml1\n"


def test_a_dry_run_asks_nothing_of_the_index(repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    root = repo(FILES, allowlist=ALLOW)
    (root / ".git" / "index.lock").write_text("")
    assert run(root, "sweep", "--dry-run").exit_code == 0
