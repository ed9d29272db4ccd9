"""apply_plan: the only code that changes the user's files."""

from __future__ import annotations

import contextlib
import errno
import fcntl
import hashlib
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from renamer import vcs
from renamer.atomic import fsync_folder, write_new
from renamer.errors import RenamerError, UnsafeError
from renamer.project import LoadedProject
from renamer.state import lock_path
from renamer.sweep.journal import Journal, Recovery, recover
from renamer.sweep.model import apply_edits
from renamer.sweep.plan import Plan
from renamer.sweep.summary import Summary, commit_message, rename_message


@dataclass(frozen=True)
class Applied:
    files_written: int
    renamed: int
    commits: tuple[str, ...]


def check_clean(project: LoadedProject, ours: frozenset[str] = frozenset()) -> None:
    """Refuse a dirty work tree: a sweep must be reviewable and revertible on its own.

    `ours`: files an interrupted sweep (now completed) left changed; they do not count.
    """
    if not project.git:
        return
    dirty = [path for path in vcs.dirty_paths(project.root) if path not in ours]
    if dirty:
        shown = ", ".join(dirty[:3]) + (f" and {len(dirty) - 3} more" if len(dirty) > 3 else "")
        raise UnsafeError(f"{project.root}: the work tree has uncommitted changes ({shown}); "
                          "commit or stash them, or pass --allow-dirty")


def recover_interrupted(root: Path) -> Recovery | None:
    """Complete (or undo) a sweep that was killed while writing; see journal.py."""
    with sweep_lock(root):
        return recover(root)


@contextlib.contextmanager
def sweep_lock(root: Path) -> Iterator[None]:
    """One sweep at a time per repository."""
    path = lock_path(root)
    try:
        handle = open(path, "a+b")  # noqa: SIM115 - held for the duration of the sweep
    except OSError as exc:
        raise RenamerError(f"{path}: cannot create the lock file: {exc.strerror}") from None
    try:
        try:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as exc:
            if exc.errno in (errno.EWOULDBLOCK, errno.EAGAIN):
                raise UnsafeError(f"{root}: another renamer sweep is running here") from None
            raise
        yield
    finally:
        handle.close()


def apply_plan(plan: Plan, *, commit: bool = False) -> Applied:
    """Write every planned change (renames first), atomically; commit if asked."""
    project = plan.project
    root = project.root
    if commit and not project.git:
        raise UnsafeError(f"{root}: --commit needs a git repository")
    changes = plan.changes
    commits: list[str] = []
    summary = Summary.of(plan)
    with sweep_lock(root):
        contents = _verified_contents(plan)
        renames = plan.renames
        done_renames: list[tuple[str, str]] = []
        try:
            for old, new in renames:
                vcs.move(root, old, new, stage=not commit)
                done_renames.append((old, new))
        except OSError as exc:
            for old, new in reversed(done_renames):
                with contextlib.suppress(OSError, RenamerError):
                    vcs.unmove(root, old, new)
            raise UnsafeError(f"cannot rename: {exc.strerror}; nothing changed") from None
        if commit and renames:
            sha = vcs.commit(root, [p for pair in renames for p in pair], rename_message(plan))
            if sha:
                commits.append(sha)
        edited = [c for c in changes if c.edits]
        targets = [c.new_path or c.path for c in edited]
        _write_all(root, targets, [apply_edits(contents[c.path], c.edits) for c in edited],
                   [c.mode for c in edited])
        if commit and edited:
            sha = vcs.commit(root, targets, commit_message(plan, summary))
            if sha:
                commits.append(sha)
    return Applied(len(edited), len(renames), tuple(commits))


def _write_all(root: Path, targets: list[str], datas: list[bytes], modes: list[int]) -> None:
    """Two-phase, journalled: all temporary files first, then only renames (see journal.py)."""
    if not targets:
        return
    journal = Journal(root, targets)
    current = "the sweep journal"
    try:
        journal.prepare()
        for (target, tmp), data, mode in zip(journal.writes, datas, modes, strict=True):
            current = target
            write_new(root / tmp, data, mode)
        linked = [t for t in targets if (root / t).is_symlink()]
        if linked:  # became a link since planning: never write through one
            raise UnsafeError(f"{linked[0]}: became a symlink during the sweep; nothing changed")
    except BaseException as exc:
        journal.discard()
        if isinstance(exc, OSError):
            raise UnsafeError(f"cannot write {current}: {exc.strerror}; nothing changed") from None
        raise
    journal.commit()  # from here on only renames: atomic, and they need no space
    for target, tmp in journal.writes:
        os.replace(root / tmp, root / target)
    for folder in {(root / t).parent for t in targets}:
        fsync_folder(folder)
    journal.finish()


def _verified_contents(plan: Plan) -> dict[str, bytes]:
    """Re-read every file to change and refuse if any changed since it was planned."""
    contents = {}
    for change in plan.changes:
        if not change.edits:
            continue
        path = plan.project.root / change.path
        try:
            if path.is_symlink():
                raise UnsafeError(f"{change.path}: became a symlink during the sweep; nothing written")
            data = path.read_bytes()
        except OSError as exc:
            raise UnsafeError(f"{change.path}: cannot read: {exc.strerror}; nothing written") from None
        if hashlib.sha1(data).hexdigest() != change.digest:
            raise UnsafeError(f"{change.path}: changed during the sweep; nothing written, run it again")
        if not os.access(path, os.W_OK) or not os.access(path.parent, os.W_OK):
            raise UnsafeError(f"{change.path}: not writable; nothing written")
        contents[change.path] = data
    return contents
