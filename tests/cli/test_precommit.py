"""The pre-commit hook, run by pre-commit itself against a temporary repo."""

from __future__ import annotations

import fcntl
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.testing.repos import git

PROJECT = Path(__file__).resolve().parent.parent.parent


def _hook_repo(target: Path) -> str:
    """This project's files (committed or not) as a git repo pre-commit can clone at a sha."""
    listed = subprocess.run(["git", "-C", str(PROJECT), "ls-files", "-z", "--cached", "--others",
                             "--exclude-standard"], capture_output=True, check=True).stdout
    for rel in filter(None, listed.decode().split("\0")):
        source = PROJECT / rel
        if source.is_file() and not source.is_symlink():
            (target / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target / rel)
    git(target, "init", "-q", "-b", "main")
    git(target, "add", "-A")
    git(target, "commit", "-q", "-m", "hook repo")
    return git(target, "rev-parse", "HEAD").strip()


@pytest.fixture(scope="session")
def hooks(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str, Path]:
    """(the hook repo, its sha, a PRE_COMMIT_HOME): made once per run, shared by the tests of
    every xdist worker, so that pre-commit builds the hooks' environment (a pip install of this
    project) once, not once a test. pre-commit locks its home while it installs."""
    base = tmp_path_factory.getbasetemp()
    shared = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base  # this run's, all workers'
    target = shared / "precommit-hook-repo"
    with open(shared / "precommit-hook-repo.lock", "a") as lock:
        fcntl.flock(lock.fileno(), fcntl.LOCK_EX)  # the other worker waits for the repo
        if not (target / ".git").is_dir():
            shutil.rmtree(target, ignore_errors=True)  # a half-made one
            _hook_repo(target)
        sha = git(target, "rev-parse", "HEAD").strip()
    return target, sha, shared / "precommit-home"


def _with_hook(repo, hooks: tuple[Path, str, Path], hook: str) -> tuple[Path, dict[str, str], list[str]]:  # type: ignore[no-untyped-def]
    """A repo using this project's `hook`: (its root, the environment, `pre-commit run`)."""
    hook_repo, sha, home = hooks
    root = repo({"stacks/app.env": "HOST=fv-ml1\n"})
    (root / ".pre-commit-config.yaml").write_text(
        f"repos:\n  - repo: {hook_repo}\n    rev: {sha}\n    hooks:\n      - id: {hook}\n")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "hook config")
    env = {**os.environ, "PRE_COMMIT_HOME": str(home), "NO_COLOR": "1"}
    # Found beside the interpreter running the tests, as the README's command runs them: no PATH.
    return root, env, [str(Path(sys.executable).parent / "pre-commit"), "run"]


def test_pre_commit_hook_catches_a_reintroduced_old_name(repo, hooks) -> None:  # type: ignore[no-untyped-def]
    root, env, run = _with_hook(repo, hooks, "renamer-verify")
    pre_commit = [*run, "--all-files"]

    (root / "stacks/app.env").write_text("HOST=ana-ml2\n")
    failed = subprocess.run(pre_commit, cwd=root, env=env, capture_output=True, text=True)
    assert failed.returncode == 1, failed.stdout + failed.stderr
    assert "stacks/app.env:1:6: residual: ana-ml2 -> fv-ml1" in failed.stdout

    (root / "stacks/app.env").write_text("HOST=fv-ml1\n")
    passed = subprocess.run(pre_commit, cwd=root, env=env, capture_output=True, text=True)
    assert passed.returncode == 0, passed.stdout + passed.stderr
    assert "renamer verify" in passed.stdout and "Passed" in passed.stdout


def test_tombstones_hook_checks_what_is_staged(repo, hooks) -> None:  # type: ignore[no-untyped-def]
    root, env, pre_commit = _with_hook(repo, hooks, "renamer-tombstones")

    (root / "stacks/app.env").write_text("HOST=fv-ml1\nOLD=ana-ml2\n")
    git(root, "add", "stacks/app.env")
    failed = subprocess.run(pre_commit, cwd=root, env=env, capture_output=True, text=True)
    assert failed.returncode == 1, failed.stdout + failed.stderr
    assert ("stacks/app.env:2:5: tombstone: ana-ml2 was renamed to fv-ml1 on 2026-10-05 (fv-ml1-move): "
            "use fv-ml1") in failed.stdout

    git(root, "reset", "-q", "stacks/app.env")  # not staged: not this commit's
    passed = subprocess.run(pre_commit, cwd=root, env=env, capture_output=True, text=True)
    assert passed.returncode == 0, passed.stdout + passed.stderr
