"""`sweep --commit --include-ignored` (break-it round 16, finding 20): a git-ignored live file (a
`.env` holding secrets) is rewritten, or moved with its folder, or renamed to a path git ignores
too, in the same all-or-nothing write as the rest; it is never staged into a commit, and no
journal or record the sweep leaves names it for a later commit (git refuses to add it: every later
sweep failed, the repo wedged until the journal was deleted by hand)."""

from __future__ import annotations

from pathlib import Path

from tests.testing.repos import PUG_ALLOW, PUG_CONFIG, Repo, Run, git

COMPOSE = "services:\n  web:\n    image: nginx\n    hostname: pug\n    env_file: .env\n"
APP = "services:\n  app:\n    image: nginx\n    env_file: .env\n"


def _committed_paths(root: Path) -> set[str]:
    """Every path of every commit."""
    out: set[str] = set()
    for sha in git(root, "rev-list", "--all").split():
        out.update(git(root, "ls-tree", "-r", "--name-only", sha).split("\n"))
    return out


def _no_sweep_state(root: Path) -> bool:
    return not any(p.name.startswith("renamer-journal") or p.name.startswith("renamer-uncommitted")
                   for p in (root / ".git").iterdir())


def _tree(repo: Repo) -> Path:
    root = repo({".gitignore": ".env\n*.secret.env\n", "hosts/pug/compose.yaml": COMPOSE,
                 "stacks/app/compose.yaml": APP}, config=PUG_CONFIG, allowlist=PUG_ALLOW)
    (root / "hosts/pug/.env").write_text("DB_HOST=10.0.0.5\nDB_PASSWORD=hunter2\n")
    (root / "stacks/app/.env").write_text("UPSTREAM=http://pug.ana.lan:8080\nAPI_KEY=sk-secret\n")
    (root / "stacks/pug.secret.env").write_text("TOKEN=t0k3n\n")  # its name alone holds the host
    return root


def _written(root: Path) -> None:
    assert (root / "hosts/wolf/.env").read_text() == "DB_HOST=10.1.0.5\nDB_PASSWORD=hunter2\n"
    assert (root / "stacks/app/.env").read_text() == "UPSTREAM=http://wolf.fv.lan:8080\nAPI_KEY=sk-secret\n"
    assert (root / "stacks/wolf.secret.env").read_text() == "TOKEN=t0k3n\n"
    assert not (root / "hosts/pug").exists() and not (root / "stacks/pug.secret.env").exists()


def test_ignored_files_are_written_with_the_sweep_and_never_committed(repo: Repo, run: Run) -> None:
    root = _tree(repo)
    done = run(root, "sweep", "--commit", "--include-ignored")
    assert done.exit_code == 0, done.stderr
    _written(root)
    assert (root / "hosts/wolf/compose.yaml").read_text() == COMPOSE.replace("pug", "wolf")
    committed = _committed_paths(root)
    assert "hosts/wolf/compose.yaml" in committed
    assert not any(p.endswith(".env") for p in committed)
    assert "hunter2" not in git(root, "log", "-p", "--all") and "sk-secret" not in git(root, "log", "-p", "--all")
    assert _no_sweep_state(root) and git(root, "status", "--porcelain") == ""
    # nothing wedged: later sweeps, with or without --include-ignored, have nothing to do
    for args in (("sweep", "--commit"), ("sweep", "--commit", "--include-ignored"), ("sweep",)):
        again = run(root, *args)
        assert again.exit_code == 0, (args, again.stderr)
    assert run(root, "verify", "--include-ignored").exit_code == 0


def test_a_plain_sweep_then_a_commit_leaves_the_ignored_files_out(repo: Repo, run: Run) -> None:
    """The plain sweep's record of what it wrote (a later `--commit` commits it) holds none."""
    root = _tree(repo)
    assert run(root, "sweep", "--include-ignored").exit_code == 0
    _written(root)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stderr
    committed = _committed_paths(root)
    assert "hosts/wolf/compose.yaml" in committed and not any(p.endswith(".env") for p in committed)
    assert _no_sweep_state(root) and git(root, "status", "--porcelain") == ""
    assert run(root, "sweep", "--commit").exit_code == 0


def test_a_failed_commit_is_finished_by_the_next_sweep_without_the_ignored_files(repo: Repo, run: Run) -> None:
    root = _tree(repo)
    hook = root / ".git/hooks/pre-commit"  # the renames' commit passes, the rewrite's fails: a journal
    # git sets no GIT_DIR for a pre-commit hook: the marker goes in the repo's own git folder
    hook.write_text('#!/bin/sh\nmark="$(git rev-parse --git-dir)/renames-made"\n'
                    '[ -f "$mark" ] && exit 1\ntouch "$mark"\n')
    hook.chmod(0o755)
    failed = run(root, "sweep", "--commit", "--include-ignored")
    assert failed.exit_code == 2 and "commit failed" in failed.stderr and "journal" in failed.stderr
    hook.unlink()
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stderr
    _written(root)
    assert not any(p.endswith(".env") for p in _committed_paths(root))
    assert _no_sweep_state(root) and git(root, "status", "--porcelain") == ""
