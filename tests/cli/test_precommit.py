"""The pre-commit hook, run by pre-commit itself against a temporary repo."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from tests.testing.repos import git

PROJECT = Path(__file__).resolve().parent.parent.parent


def _hook_repo(tmp_path: Path) -> tuple[Path, str]:
    """This project's files (committed or not) as a git repo pre-commit can clone at a sha."""
    listed = subprocess.run(["git", "-C", str(PROJECT), "ls-files", "-z", "--cached", "--others",
                             "--exclude-standard"], capture_output=True, check=True).stdout
    target = tmp_path / "hook-repo"
    for rel in filter(None, listed.decode().split("\0")):
        source = PROJECT / rel
        if source.is_file() and not source.is_symlink():
            (target / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target / rel)
    git(target, "init", "-q", "-b", "main")
    git(target, "add", "-A")
    git(target, "commit", "-q", "-m", "hook repo")
    return target, git(target, "rev-parse", "HEAD").strip()


def _with_hook(repo, tmp_path: Path, hook: str) -> tuple[Path, dict[str, str], list[str]]:  # type: ignore[no-untyped-def]
    """A repo using this project's `hook`: (its root, the environment, `pre-commit run`)."""
    hooks, sha = _hook_repo(tmp_path)
    root = repo({"stacks/app.env": "HOST=fv-ml1\n"})
    (root / ".pre-commit-config.yaml").write_text(
        f"repos:\n  - repo: {hooks}\n    rev: {sha}\n    hooks:\n      - id: {hook}\n")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "hook config")
    env = {**os.environ, "PRE_COMMIT_HOME": str(tmp_path / "cache"), "NO_COLOR": "1"}
    # Found beside the interpreter running the tests, as the README's command runs them: no PATH.
    return root, env, [str(Path(sys.executable).parent / "pre-commit"), "run"]


def test_pre_commit_hook_catches_a_reintroduced_old_name(repo, tmp_path: Path) -> None:
    root, env, run = _with_hook(repo, tmp_path, "renamer-verify")
    pre_commit = [*run, "--all-files"]

    (root / "stacks/app.env").write_text("HOST=ana-ml2\n")
    failed = subprocess.run(pre_commit, cwd=root, env=env, capture_output=True, text=True)
    assert failed.returncode == 1, failed.stdout + failed.stderr
    assert "stacks/app.env:1:6: residual: ana-ml2 -> fv-ml1" in failed.stdout

    (root / "stacks/app.env").write_text("HOST=fv-ml1\n")
    passed = subprocess.run(pre_commit, cwd=root, env=env, capture_output=True, text=True)
    assert passed.returncode == 0, passed.stdout + passed.stderr
    assert "renamer verify" in passed.stdout and "Passed" in passed.stdout


def test_tombstones_hook_checks_what_is_staged(repo, tmp_path: Path) -> None:
    root, env, pre_commit = _with_hook(repo, tmp_path, "renamer-tombstones")

    (root / "stacks/app.env").write_text("HOST=fv-ml1\nOLD=ana-ml2\n")
    git(root, "add", "stacks/app.env")
    failed = subprocess.run(pre_commit, cwd=root, env=env, capture_output=True, text=True)
    assert failed.returncode == 1, failed.stdout + failed.stderr
    assert ("stacks/app.env:2:5: tombstone: ana-ml2 was renamed to fv-ml1 on 2026-10-05 (fv-ml1-move): "
            "use fv-ml1") in failed.stdout

    git(root, "reset", "-q", "stacks/app.env")  # not staged: not this commit's
    passed = subprocess.run(pre_commit, cwd=root, env=env, capture_output=True, text=True)
    assert passed.returncode == 0, passed.stdout + passed.stderr
