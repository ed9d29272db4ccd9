"""What must hold before a sweep writes: one sweep at a time per repository (its lock), an interrupted
sweep completed or undone first, a clean work tree."""

from __future__ import annotations

import contextlib
import errno
import fcntl
from collections.abc import Iterator
from pathlib import Path

from renamer import vcs_status
from renamer.errors import RenamerError, UnsafeError
from renamer.project import LoadedProject
from renamer.state import journal_path, lock_path
from renamer.sweep.journal import Recovery, recover, wants_commit
from renamer.vcs_command import git_dir


def check_clean(project: LoadedProject, ours: frozenset[str] = frozenset()) -> None:
    """Refuse a dirty work tree: a sweep must be reviewable and revertible on its own.

    `ours`: files an interrupted sweep (now completed) left changed; they do not count.
    """
    if not project.git:
        return
    dirty = [path for path in vcs_status.dirty_paths(project.root) if path not in ours]
    if dirty:
        shown = ", ".join(dirty[:3]) + (f" and {len(dirty) - 3} more" if len(dirty) > 3 else "")
        raise UnsafeError(f"{project.root}: the work tree has uncommitted changes ({shown}); "
                          "commit or stash them, or pass --allow-dirty")


def check_operation(project: LoadedProject) -> None:
    """Refuse to write while git is in the middle of a merge, rebase, cherry-pick, revert or bisect:
    a commit there lands in git's operation (a partial commit during a merge fails after the write,
    one on a rebase's detached HEAD is dropped by `git rebase --abort`), and even an uncommitted
    rewrite mixes with the conflict resolution."""
    state = operation_note(project)
    if state is not None:
        raise UnsafeError(f"{state}; nothing written")


def operation_note(project: LoadedProject) -> str | None:
    """The line that names git's operation in progress and the way out of it; None when none."""
    if not project.git:
        return None
    found = vcs_status.operation_in_progress(project.root)
    if found is None:
        return None
    what, state, way_out = found
    return f"{what} is in progress ({state}): finish it with {way_out}, then sweep"


def check_index(project: LoadedProject, targets: list[str]) -> None:
    """Ask git before writing: refuse, with nothing changed, what git would refuse later (a held
    index lock) or never stage (a skip-worktree target), instead of a rewrite left uncommitted."""
    if not project.git:
        return
    folder = git_dir(project.root)
    lock = folder / "index.lock" if folder is not None else None
    if lock is not None and lock.exists():
        raise UnsafeError(f"{lock}: another git process holds the index (git's lock file): wait for it, "
                          "or remove the file if no git command runs; nothing written")
    hidden = vcs_status.skip_worktree(project.root, targets)
    if hidden:
        more = f" and {len(hidden) - 1} more" if len(hidden) > 1 else ""
        raise UnsafeError(f"{hidden[0]}{more}: marked skip-worktree (or outside the sparse checkout), so "
                          f"git would never stage the rewrite: `git update-index --no-skip-worktree "
                          f"{hidden[0]}` first; nothing written")


def recover_interrupted(root: Path, *, commit: bool = False) -> Recovery | None:
    """Complete (or undo) a sweep that was killed while writing; see journal.py. One that was
    to commit is asked about first: only a `commit` run may finish it, since any other would
    leave its rewrite uncommitted and the journal that knows it gone."""
    with sweep_lock(root):
        if not commit and wants_commit(root):
            raise UnsafeError(f"an interrupted `renamer sweep --commit` is pending (journal: "
                              f"{shown_journal(root)}): its rewrite is written, or partly, but not "
                              "committed; `renamer sweep --commit` finishes and commits it; nothing written")
        return recover(root, commit=commit)


def shown_journal(root: Path) -> str:
    """The journal's path as the user would type it: relative to the repo where it is inside."""
    path = journal_path(root)
    try:
        return path.relative_to(root).as_posix()
    except ValueError:
        return str(path)


@contextlib.contextmanager
def sweep_lock(root: Path) -> Iterator[None]:
    """One sweep at a time per repository."""
    with exclusive(lock_path(root), f"{root}: another renamer sweep is running here"):
        yield


@contextlib.contextmanager
def exclusive(path: Path, busy: str) -> Iterator[None]:
    """An advisory lock on `path` (created), held while the block runs; `busy` is the refusal
    (exit 3) where another process holds it. The kernel releases it when the process dies."""
    try:
        handle = open(path, "a+b")  # noqa: SIM115 - held for the duration of the block
    except OSError as exc:
        raise RenamerError(f"{path}: cannot create the lock file: {exc.strerror}") from None
    try:
        try:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as exc:
            if exc.errno in (errno.EWOULDBLOCK, errno.EAGAIN):
                raise UnsafeError(busy) from None
            raise
        yield
    finally:
        handle.close()
