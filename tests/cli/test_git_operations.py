"""git stopped in the middle of an operation (break-it round 6): a merge, rebase, `git am`,
cherry-pick, revert or bisect in progress is refused before anything is written, with the way out,
exit 3; a dry run still previews and notes the state. A linked worktree's operation is its own."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Result
from tests.testing.repos import IDENTITY, git, snapshot

ALLOW = "version: 1\ncurrent: ['**']\n"
FILES = {"a.txt": "host ana-ml2\n", "c.txt": "base\n"}


def _git_may_fail(root: Path, *args: str) -> None:
    """A git command that stops on a conflict (exit 1), as the user's would."""
    subprocess.run(["git", "-C", str(root), *args], env={**os.environ, **IDENTITY},
                   capture_output=True, check=False)


def _branch(root: Path, text: str) -> None:
    """A branch `other` whose c.txt conflicts with main's."""
    git(root, "checkout", "-q", "-b", "other")
    (root / "c.txt").write_text(text)
    git(root, "commit", "-qam", "other")
    git(root, "checkout", "-q", "-")
    (root / "c.txt").write_text("ours\n")
    git(root, "commit", "-qam", "ours")


def _merge(root: Path) -> None:
    _branch(root, "theirs\n")
    _git_may_fail(root, "merge", "other")


def _merge_no_conflict(root: Path) -> None:  # stopped on purpose: no conflict, nothing dirty
    git(root, "checkout", "-q", "-b", "side")
    (root / "d.txt").write_text("side\n")
    git(root, "add", "d.txt")
    git(root, "commit", "-qm", "side")
    git(root, "checkout", "-q", "-")
    git(root, "merge", "-q", "--no-commit", "--no-ff", "side")


def _rebase(root: Path) -> None:
    _branch(root, "theirs\n")
    _git_may_fail(root, "rebase", "other")


def _rebase_interactive_stop(root: Path) -> None:  # `edit`: stopped with a clean tree
    (root / "c.txt").write_text("two\n")
    git(root, "commit", "-qam", "two")
    _git_may_fail(root, "-c", "sequence.editor=sed -i s/^pick/edit/", "rebase", "-i", "HEAD~1")


def _am(root: Path) -> None:
    _branch(root, "theirs\n")
    patch = git(root, "format-patch", "--stdout", "-1", "other")
    (root.parent / "p.mbox").write_text(patch)
    _git_may_fail(root, "am", str(root.parent / "p.mbox"))


def _cherry_pick(root: Path) -> None:
    _branch(root, "theirs\n")
    _git_may_fail(root, "cherry-pick", "other")


def _revert(root: Path) -> None:
    (root / "c.txt").write_text("two\n")
    git(root, "commit", "-qam", "two")
    (root / "c.txt").write_text("three\n")
    git(root, "commit", "-qam", "three")
    _git_may_fail(root, "revert", "--no-edit", "HEAD~1")


def _bisect(root: Path) -> None:
    (root / "c.txt").write_text("two\n")
    git(root, "commit", "-qam", "two")
    git(root, "bisect", "start")
    git(root, "bisect", "bad", "HEAD")


STATES = (
    pytest.param(_merge, "a merge", "git merge --abort", id="merge-conflict"),
    pytest.param(_merge_no_conflict, "a merge", "git merge --abort", id="merge-no-commit"),
    pytest.param(_rebase, "a rebase", "git rebase --abort", id="rebase-conflict"),
    pytest.param(_rebase_interactive_stop, "a rebase", "git rebase --abort", id="rebase-edit-stop"),
    pytest.param(_am, "a `git am`", "git am --abort", id="am"),
    pytest.param(_cherry_pick, "a cherry-pick", "git cherry-pick --abort", id="cherry-pick"),
    pytest.param(_revert, "a revert", "git revert --abort", id="revert"),
    pytest.param(_bisect, "a bisect", "git bisect reset", id="bisect"),
)


@pytest.mark.parametrize("args", (pytest.param(("--commit", "--allow-dirty"), id="commit"),
                                  pytest.param(("--allow-dirty",), id="write"),
                                  pytest.param(("--commit",), id="commit-clean-check")))
@pytest.mark.parametrize(("start", "what", "way_out"), STATES)
def test_an_operation_in_progress_is_refused_before_anything_is_written(
        start: Callable[[Path], None], what: str, way_out: str, args: tuple[str, ...],
        repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    root = repo(FILES, allowlist=ALLOW)
    start(root)
    before, head, index = snapshot(root), git(root, "rev-parse", "HEAD"), git(root, "ls-files", "-s")
    done = run(root, "sweep", *args)
    assert done.exit_code == 3, done.stdout + done.stderr
    line, = done.stderr.splitlines()
    assert line.startswith(f"renamer: error: {what} is in progress (") and way_out in line, line
    assert line.endswith("nothing written"), line
    assert snapshot(root) == before
    assert git(root, "rev-parse", "HEAD") == head and git(root, "ls-files", "-s") == index
    preview = run(root, "sweep", "--dry-run")
    assert preview.exit_code == 0 and "+host fv-ml1" in preview.stdout
    assert f"renamer: note: {what} is in progress" in preview.stderr
    assert snapshot(root) == before


def test_the_way_out_taken_the_sweep_runs(repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    root = repo(FILES, allowlist=ALLOW)
    _rebase(root)
    assert run(root, "sweep", "--commit", "--allow-dirty").exit_code == 3
    git(root, "rebase", "--abort")
    assert run(root, "sweep", "--commit").exit_code == 0
    assert git(root, "show", "HEAD:a.txt") == "host fv-ml1\n"
    assert git(root, "status", "--porcelain") == ""


def test_a_linked_worktrees_merge_is_its_own(repo: Callable[..., Path], run: Callable[..., Result],
                                            tmp_path: Path) -> None:
    root = repo(FILES, allowlist=ALLOW)
    linked = tmp_path / "linked"
    git(root, "worktree", "add", "-q", "-b", "wt", str(linked))
    git(linked, "checkout", "-q", "-b", "other")
    (linked / "c.txt").write_text("theirs\n")
    git(linked, "commit", "-qam", "other")
    git(linked, "checkout", "-q", "wt")
    (linked / "c.txt").write_text("ours\n")
    git(linked, "commit", "-qam", "ours")
    _git_may_fail(linked, "merge", "other")
    before = snapshot(linked)
    done = run(linked, "sweep", "--commit", "--allow-dirty")
    assert done.exit_code == 3 and "a merge is in progress" in done.stderr and "worktrees" in done.stderr
    assert snapshot(linked) == before
    # The main work tree is in no merge: it sweeps.
    assert run(root, "sweep", "--commit").exit_code == 0
    assert git(root, "show", "HEAD:a.txt") == "host fv-ml1\n"


def test_audit_prune_write_is_refused_mid_merge(repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    allow = ALLOW + "keep:\n  - name: gone\n    path: nowhere.txt\n    reason: kept nothing\n"
    root = repo(FILES, allowlist=allow)
    _merge(root)
    before = snapshot(root)
    done = run(root, "audit", "--prune", "--write")
    assert done.exit_code == 3 and "a merge is in progress" in done.stderr, done.stderr
    assert snapshot(root) == before
