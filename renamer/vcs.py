"""git's writes, the only gitpython user: moves and their undoing, commits, a new repository (and
the one-line log the demo shows of it)."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path
from typing import Any

from renamer import debug
from renamer.errors import RenamerError, UnsafeError
from renamer.vcs_command import LITERAL, CommitTimedOut, git_commit, git_error, git_run
from renamer.vcs_listing import ls_files
from renamer.vcs_status import head_sha


def _gitpython(repo: Any, verb: str, *args: str, **kwargs: Any) -> Any:
    """`git VERB ARGS` through gitpython, logged under -vv."""
    debug.command(["git", verb, *args])
    return getattr(repo.git, verb)(*args, **kwargs)


def _repo(root: Path) -> Any:
    # Deferred (docs/architecture.md): gitpython takes ~80 ms to import; listing and status,
    # the hot path of every scan, run plain `git` and never need it.
    import git

    try:
        repo = git.Repo(root)
    except (git.InvalidGitRepositoryError, git.NoSuchPathError):
        return None
    repo.git.update_environment(**LITERAL)
    return repo


def has_commits(root: Path) -> bool:
    repo = _repo(root)
    if repo is None:
        return False
    try:
        repo.head.commit  # noqa: B018 - raises on an unborn branch
    except ValueError:
        return False
    return True


def move(root: Path, old: str, new: str, *, stage: bool = True) -> None:
    """Rename `old` to `new` as `git mv` would. With stage=False the old path stays in the
    index until the caller commits both paths, which `git commit -- old new` needs."""
    repo = _repo(root)
    tracked = repo is not None and bool(ls_files(root, "--cached", "--", old))
    (root / new).parent.mkdir(parents=True, exist_ok=True)
    os.rename(root / old, root / new)
    prune_empty(root, (root / old).parent)  # as `git mv` leaves no empty folder behind
    if tracked:
        _gitpython(repo, "add", "--", new)
        if stage:
            _gitpython(repo, "rm", "--cached", "-q", "--", old)


def prune_empty(root: Path, folder: Path) -> None:
    while folder != root and root in folder.parents:
        try:
            folder.rmdir()
        except OSError:  # not empty (or not ours to remove): stop
            return
        folder = folder.parent


def unmove(root: Path, old: str, new: str) -> None:
    """Undo `move`: the file back at `old`, the index as it was for both paths."""
    (root / old).parent.mkdir(parents=True, exist_ok=True)
    os.rename(root / new, root / old)
    prune_empty(root, (root / new).parent)
    repo = _repo(root)
    if repo is not None and has_commits(root):
        with contextlib.suppress(Exception):
            _gitpython(repo, "reset", "-q", "--", old, new)


def record_moves(root: Path, pairs: list[tuple[str, str]], *, stage: bool = True) -> None:
    """Tell git of renames already made on disk (a folder moved whole, sweep/folders.py), as
    `move` does for each tracked one."""
    repo = _repo(root)
    if repo is None or not pairs:
        return
    tracked = set(ls_files(root, "--cached", "--", *[old for old, _ in pairs]))
    moved = [(old, new) for old, new in pairs if old in tracked]
    if not moved:
        return
    _gitpython(repo, "add", "--", *[new for _, new in moved])
    if stage:
        _gitpython(repo, "rm", "--cached", "-q", "--", *[old for old, _ in moved])


def forget_moves(root: Path, pairs: list[tuple[str, str]]) -> None:
    """Undo `record_moves`: the index as it was for both paths of each."""
    repo = _repo(root)
    if repo is not None and pairs and has_commits(root):
        with contextlib.suppress(Exception):
            _gitpython(repo, "reset", "-q", "--", *[p for pair in pairs for p in pair])


RENAMES_PHASE = "RENAMER_SWEEP_PHASE"  # "renames" while a sweep commits its pure renames; "undo" for an undo


def commit(root: Path, paths: list[str], message: str, *, hooks: bool = True,
           phase: str | None = None) -> str | None:
    """Commit exactly `paths` (staged or not) with `message`; returns the new sha.

    The repo's hooks run, as for `git commit` (`hooks=False` is `--no-verify`). `phase`
    tells a hook which commit of a sweep this is (renamer's own verify hook passes the
    pure-rename commit, whose rewrite follows)."""
    import git  # deferred, as in _repo

    repo = _repo(root)
    if repo is None:
        raise UnsafeError(f"{root}: --commit needs a git repository")
    if not paths:
        return None
    try:
        present = [p for p in paths if os.path.lexists(root / p)]
        # A tracked file under an ignored folder (`/group_vars/` with `!/group_vars/all/vars.yml`):
        # `git add PATH` refuses it, `git add -u` stages it as git stages any tracked file (break-it
        # round 21, finding 01). Untracked paths are added as before, never forced.
        listed = _gitpython(repo, "ls_files", "-z", "--", *present) if present else ""
        tracked = set(listed.split("\0")) - {""}
        if tracked:
            _gitpython(repo, "add", "-u", "--", *sorted(tracked))
        others = [p for p in present if p not in tracked]
        if others:
            _gitpython(repo, "add", "--", *others)
    except git.GitCommandError as exc:
        why = git_error(f"{exc.stderr or ''}\n{exc.stdout or ''}")
        raise RenamerError(f"git commit failed: {why}") from None
    flags = ["-q"] if hooks else ["-q", "--no-verify"]
    env = {**LITERAL, **({RENAMES_PHASE: phase} if phase else {})}
    before = head_sha(root)
    try:
        done = git_commit(root, [*flags, "-m", message, "--", *paths], env)
    except CommitTimedOut:
        after = head_sha(root)
        if after is not None and after != before:
            return after  # made; a post-commit hook was what hung
        raise
    if done.returncode != 0:
        why = git_error(os.fsdecode(done.stderr) + "\n" + os.fsdecode(done.stdout))
        if "nothing to commit" in why or "no changes added to commit" in why:
            return None  # already committed (a sweep killed just after its commit)
        raise RenamerError(f"git commit failed: {why}")
    return head_sha(root)


def init_with_commit(root: Path, message: str, name: str, email: str) -> None:
    """A new repository at `root` holding everything there in one commit (the demo's start)."""
    base = ["git", "-C", str(root), "-c", "init.defaultBranch=main"]
    for args in (["init", "-q"], ["config", "user.name", name], ["config", "user.email", email],
                 ["config", "commit.gpgsign", "false"], ["add", "-A"], ["commit", "-q", "-m", message]):
        done = git_run([*base, *args], capture_output=True, check=False)
        if done.returncode != 0:
            why = done.stderr.decode(errors="replace").strip()
            raise RenamerError(f"{root}: git {args[0]} failed: {why}")


def log_oneline(root: Path) -> str:
    done = git_run(["git", "-C", str(root), "log", "--oneline"], capture_output=True, text=True,
                          check=False)
    return str(done.stdout)
