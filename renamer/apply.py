"""apply_plan: the only code that changes the user's files."""

from __future__ import annotations

import contextlib
import errno
import fcntl
import hashlib
import os
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from renamer import vcs
from renamer.atomic import write_atomic
from renamer.errors import RenamerError, UnsafeError
from renamer.plan import Plan
from renamer.project import Project
from renamer.report.summary import Summary, commit_message, rename_message
from renamer.scan import apply_edits


@dataclass(frozen=True)
class Applied:
    files_written: int
    renamed: int
    commits: tuple[str, ...]


def check_clean(project: Project) -> None:
    """Refuse a dirty work tree: a sweep must be reviewable and revertible on its own."""
    if not project.git:
        return
    dirty = vcs.dirty_paths(project.root)
    if dirty:
        shown = ", ".join(dirty[:3]) + (f" and {len(dirty) - 3} more" if len(dirty) > 3 else "")
        raise UnsafeError(f"{project.root}: the work tree has uncommitted changes ({shown}); "
                          "commit or stash them, or pass --allow-dirty")


@contextlib.contextmanager
def sweep_lock(root: Path) -> Iterator[None]:
    """One sweep at a time per repository."""
    folder = root / ".git" if (root / ".git").is_dir() else root
    path = folder / "renamer.lock"
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
    contents = _verified_contents(plan)
    commits: list[str] = []
    summary = Summary.of(plan)
    undo = _Undo(root)
    with sweep_lock(root):
        try:
            renames = plan.renames
            for old, new in renames:
                vcs.move(root, old, new, stage=not commit)
                undo.renamed.append((old, new))
            if commit and renames:
                sha = vcs.commit(root, [p for pair in renames for p in pair], rename_message(plan))
                if sha:
                    commits.append(sha)
            written = 0
            for change in changes:
                if not change.edits:
                    continue
                target = root / (change.new_path or change.path)
                original = contents[change.path]
                write_atomic(target, apply_edits(original, change.edits), change.mode)
                undo.written.append((target, original, change.mode))
                written += 1
            if commit and written:
                paths = [c.new_path or c.path for c in changes if c.edits]
                sha = vcs.commit(root, paths, commit_message(plan, summary))
                if sha:
                    commits.append(sha)
        except BaseException:
            if not commits:
                undo.run()
            raise
    return Applied(written, len(renames), tuple(commits))


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


@dataclass
class _Undo:
    """What apply_plan did so far, to put back if a later step fails."""

    root: Path
    renamed: list[tuple[str, str]] = field(default_factory=list)
    written: list[tuple[Path, bytes, int]] = field(default_factory=list)

    def run(self) -> None:
        for target, original, mode in reversed(self.written):
            with contextlib.suppress(OSError):
                write_atomic(target, original, mode)
        for old, new in reversed(self.renamed):
            with contextlib.suppress(OSError, RenamerError):
                vcs.unmove(self.root, old, new)
