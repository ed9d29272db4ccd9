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
from renamer.paths import inside
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


def apply_plan(plan: Plan, *, commit: bool = False, hooks: bool = True) -> Applied:
    """Write every planned change, atomically; commit if asked.

    Order, so that a failure before the point of no return changes nothing: renames,
    then every new file written beside its target (a full disk fails here: renames are
    undone, nothing changed), then the pure-rename commit, then the journalled swap of
    every file at once, then the rewrite commit.
    """
    project = plan.project
    root = project.root
    if commit and not project.git:
        raise UnsafeError(f"{root}: --commit needs a git repository")
    edited = [c for c in plan.changes if c.edits]
    targets = [c.new_path or c.path for c in edited]
    commits: list[str] = []
    with sweep_lock(root):
        for rel in targets + [p for pair in plan.renames for p in pair]:
            inside(root, rel, "write")
        contents = _verified_contents(plan)
        message = commit_message(plan, Summary.of(plan)) if commit and edited else None
        # Journalled before the first rename: a kill from here on is undone (or finished)
        # by the next run, renames included (see journal.py).
        journal = Journal(root, targets, message, renames=plan.renames,
                          head=vcs.head_sha(root) if project.git else None)
        try:
            journal.prepare()
        except OSError as exc:
            raise UnsafeError(f"cannot write the sweep journal: {exc.strerror}; nothing changed") from None
        try:
            renames = _rename_all(root, plan.renames, stage=not commit)
        except BaseException:
            journal.finish()
            raise
        datas = [apply_edits(contents[c.path].data, c.edits) for c in edited]
        _prepare(root, journal, datas, [c.mode for c in edited], renames)
        try:
            if commit and renames:
                sha = vcs.commit(root, [p for pair in renames for p in pair], rename_message(plan),
                                 hooks=hooks, phase="renames")
                commits += [sha] if sha else []
        except BaseException:
            journal.discard()
            _unrename(root, renames)
            raise
        seen = {(c.new_path or c.path): contents[c.path] for c in edited}
        _swap(root, journal, seen)
        if message is not None:
            commits += commit_written(root, targets, message, hooks=hooks)
            journal.finish()
    return Applied(len(edited), len(renames), tuple(commits))


def _rename_all(root: Path, renames: list[tuple[str, str]], *, stage: bool) -> list[tuple[str, str]]:
    done: list[tuple[str, str]] = []
    try:
        for old, new in renames:
            vcs.move(root, old, new, stage=stage)
            done.append((old, new))
    except (OSError, RenamerError) as exc:
        _unrename(root, done)
        why = exc.strerror if isinstance(exc, OSError) else str(exc)
        raise UnsafeError(f"cannot rename {old} to {new}: {why}; nothing changed") from None
    return done


def _unrename(root: Path, done: list[tuple[str, str]]) -> None:
    for old, new in reversed(done):
        with contextlib.suppress(OSError, RenamerError):
            vcs.unmove(root, old, new)


def commit_written(root: Path, targets: list[str] | tuple[str, ...], message: str, *,
                   hooks: bool = True) -> list[str]:
    """Commit a rewrite that is in the work tree; on failure say so, and that the next
    `renamer sweep --commit` makes the commit (the journal keeps it until then)."""
    try:
        sha = vcs.commit(root, list(targets), message, hooks=hooks)
    except RenamerError as exc:
        raise RenamerError(f"{exc}; the rewrite of {len(targets)} files is written but not committed: "
                           "fix the cause, then `renamer sweep --commit` commits it") from None
    return [sha] if sha else []


def _prepare(root: Path, journal: Journal, datas: list[bytes], modes: list[int],
             renames: list[tuple[str, str]]) -> None:
    """Phase one: every new file written beside its target; on failure nothing changed."""
    current = "the sweep journal"
    try:
        for (target, tmp), data, mode in zip(journal.writes, datas, modes, strict=True):
            current = target
            write_new(root / tmp, data, mode)
    except BaseException as exc:
        journal.discard()
        _unrename(root, renames)
        if isinstance(exc, OSError):
            raise UnsafeError(f"cannot write {current}: {exc.strerror}; nothing changed") from None
        raise


def _swap(root: Path, journal: Journal, seen: dict[str, _Seen]) -> None:
    """Phase two: check each target is as it was read, then only renames (see journal.py).

    A file saved by someone else while the new files were written stops the sweep
    before anything is replaced; the temporary files are removed."""
    changed = [target for target, _ in journal.writes if not seen[target].unchanged(root / target)]
    if changed:
        journal.discard()
        more = f" and {len(changed) - 1} more" if len(changed) > 1 else ""
        raise UnsafeError(f"{changed[0]}{more}: changed while the sweep was writing; nothing replaced "
                          "(renames, if any, are in place), run the sweep again")
    journal.commit()  # from here on only renames: atomic, and they need no space
    for done, (target, tmp) in enumerate(journal.writes):
        try:
            os.replace(root / tmp, root / target)
        except OSError as exc:  # EPERM: an append-only folder, a bind-mounted file
            raise UnsafeError(f"cannot replace {target}: {exc.strerror}; {done} of {len(journal.writes)} "
                              "files are written, the journal keeps the rest: fix the cause, then "
                              "`renamer sweep` finishes them") from None
    for folder in {(root / t).parent for t, _ in journal.writes}:
        fsync_folder(folder)
    if journal.commit_message is None:
        journal.finish()
    else:
        journal.written()


@dataclass(frozen=True)
class _Seen:
    """A file as the sweep read it: what it checks again just before replacing it."""

    data: bytes
    size: int
    mtime_ns: int
    inode: int

    def unchanged(self, path: Path) -> bool:
        try:
            info = os.lstat(path)
        except OSError:
            return False
        if (info.st_size, info.st_mtime_ns, info.st_ino) != (self.size, self.mtime_ns, self.inode):
            return False
        try:  # same size and time can still hide an edit within the clock's resolution
            return path.read_bytes() == self.data
        except OSError:
            return False


def _verified_contents(plan: Plan) -> dict[str, _Seen]:
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
            info = os.lstat(path)
        except OSError as exc:
            raise UnsafeError(f"{change.path}: cannot read: {exc.strerror}; nothing written") from None
        if hashlib.sha1(data).hexdigest() != change.digest:
            raise UnsafeError(f"{change.path}: changed during the sweep; nothing written, run it again")
        if not os.access(path, os.W_OK) or not os.access(path.parent, os.W_OK):
            raise UnsafeError(f"{change.path}: not writable; nothing written")
        contents[change.path] = _Seen(data, info.st_size, info.st_mtime_ns, info.st_ino)
    return contents
