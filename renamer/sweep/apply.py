"""apply_plan: the only code that changes the user's files, in order: the renames (`moves.py`),
the new files written beside their targets, the journalled swap of every file at once (each
checked first by `seen.py`), the commits."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from renamer import vcs, vcs_status
from renamer.atomic import fsync_folder, write_new
from renamer.errors import RenamerError, UnsafeError
from renamer.paths import inside
from renamer.sweep.guard import sweep_lock
from renamer.sweep.journal import Journal
from renamer.sweep.messages import commit_message, rename_message
from renamer.sweep.model import apply_edits
from renamer.sweep.moves import relink_all, rename_all, unrename
from renamer.sweep.plan import Plan
from renamer.sweep.seen import Seen, verified_contents
from renamer.sweep.summary import Summary


@dataclass(frozen=True)
class Applied:
    files_written: int
    renamed: int
    commits: tuple[str, ...]


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
        contents = verified_contents(plan)
        # Re-pointed links go into the rewrite commit (with no rewrite, a commit of their own).
        message = commit_message(plan, Summary.of(plan)) if commit and (edited or plan.links) else None
        # Journalled before the first rename: a kill from here on is undone (or finished)
        # by the next run, renames included (see journal.py).
        journal = Journal(root, targets, message, renames=plan.renames,
                          head=vcs_status.head_sha(root) if project.git else None)
        try:
            journal.prepare()
        except OSError as exc:
            raise UnsafeError(f"cannot write the sweep journal: {exc.strerror}; nothing changed") from None
        try:
            renames = rename_all(root, plan.renames, stage=not commit)
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
            unrename(root, renames)
            raise
        # After the rename commit: a kill from here leaves the links naming the old paths, which
        # verify reports as dangling and the next sweep re-points (links.py), never links naming
        # paths a recovery took back.
        try:
            relinked = relink_all(root, plan.links)
        except BaseException:
            journal.discard()
            if not (commit and renames):
                unrename(root, renames)
            raise
        seen = {(c.new_path or c.path): contents[c.path] for c in edited}
        _swap(root, journal, seen)
        if message is not None:
            commits += commit_written(root, targets + [r.path for r in relinked], message, hooks=hooks)
            journal.finish()
    return Applied(len(edited), len(renames), tuple(commits))


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
        unrename(root, renames)
        if isinstance(exc, OSError):
            raise UnsafeError(f"cannot write {current}: {exc.strerror}; nothing changed") from None
        raise


def _swap(root: Path, journal: Journal, seen: dict[str, Seen]) -> None:
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
