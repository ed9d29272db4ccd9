"""apply_plan: the only code that changes the user's files, in order: the renames (`moves.py`),
the new files written beside their targets, the journalled swap of every file at once (each
checked first by `seen.py`, then swapped in by `swap.py`, which compares what it displaced),
the commits.

Ctrl-C and SIGTERM in the swap loop are deferred to the next file (a swap is never cut
in half) and stop it there; the journal keeps the rest and the error says how the next
run finishes it. Once the rewrite commit exists the sweep has done its work: an interrupt
from then on is answered by finishing, not by a failure."""

from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass, replace
from pathlib import Path

from renamer import debug, interrupts, vcs, vcs_listing, vcs_status
from renamer.atomic import fsync_folder, write_new
from renamer.errors import Interrupted, RenamerError, UnsafeError
from renamer.interrupts import Deferred, deferred
from renamer.paths import inside
from renamer.sweep.dirty import NOTHING_UNCOMMITTED, Uncommitted, uncommitted_work
from renamer.sweep.guard import shown_journal, sweep_lock
from renamer.sweep.journal import Journal
from renamer.sweep.messages import commit_message, rename_message
from renamer.sweep.moves import relink_all, rename_all, unrename
from renamer.sweep.plan import Plan
from renamer.sweep.seen import Seen, verified_contents
from renamer.sweep.summary import Summary
from renamer.sweep.swap import Swapper
from renamer.sweep.uncommitted import remember
from renamer.vcs_command import git_dir
from renamer.vcs_index import commit_chosen
from renamer.words import plural


@dataclass(frozen=True)
class Applied:
    files_written: int
    renamed: int
    commits: tuple[str, ...]
    interrupted: bool = False  # Ctrl-C came once the rewrite commit existed: it finished anyway
    carrying: tuple[str, ...] = ()  # rewritten and committed, their own uncommitted changes left out
    untracked: tuple[str, ...] = ()  # rewritten in the work tree, not committed (untracked)


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
    interrupts.stop_if_asked()  # a SIGTERM/SIGHUP whose raise was swallowed mid-scan: nothing is written
    with sweep_lock(root):
        for rel in targets + [p for pair in plan.renames for p in pair]:
            inside(root, rel, "write")
        contents = verified_contents(plan)
        summary = Summary.of(plan)
        # Re-pointed links go into the rewrite commit (with no rewrite, a commit of their own).
        written_message = commit_message(plan, summary) if (edited or plan.links) and project.git else None
        message = written_message if commit else None
        datas = [contents[c.path].rewritten(c.edits) for c in edited]  # wide text in its own codec
        # --allow-dirty: the commits hold the sweep's edits alone (refused here, before any write,
        # where they cannot); a clean tree has nothing to set apart.
        dirty = (uncommitted_work(root, edited, [contents[c.path].data for c in edited], datas, plan.renames)
                 if commit else NOTHING_UNCOMMITTED)
        digests = [(c.digest, hashlib.sha1(data).hexdigest()) for c, data in zip(edited, datas, strict=True)]
        # Journalled before the first rename: a kill from here on is undone (or finished)
        # by the next run, renames included (see journal.py).
        journal = Journal(root, targets, message, renames=plan.renames,
                          head=vcs_status.head_sha(root) if project.git else None, digests=digests,
                          replacements=summary.replacement_total(), message=written_message,
                          uncommitted=dirty.to_json() if dirty.chosen or dirty.untracked else None,
                          folders=[(f.old, f.new) for f in plan.folders])
        try:
            journal.prepare()
        except OSError as exc:
            raise UnsafeError(f"cannot write the sweep journal: {exc.strerror}; nothing changed") from None
        try:
            renames = rename_all(root, plan.renames, stage=not commit, folders=plan.folders)
        except BaseException:
            journal.finish()
            raise
        _prepare(root, journal, datas, [c.mode for c in edited], renames)
        try:
            moved = [p for pair in renames if not dirty.leaves(pair[1]) for p in pair]
            if commit and moved:
                sha = vcs.commit(root, moved, rename_message(plan), hooks=hooks, phase="renames")
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
        with deferred() as signals:
            saved = _swap(root, journal, seen, signals)
        if saved:
            _refuse_saved(plan, journal, saved)
        late = False
        if message is not None:
            made, late = commit_pending(root, [t for t, _ in journal.writes] + [r.path for r in relinked],
                                         message, hooks=hooks, dirty=dirty)
            commits += made
            with deferred() as signals:  # the commit exists: nothing left worth stopping for
                journal.finish()
            late = late or signals.received is not None
        elif not commit and project.git and (targets or renames or relinked):
            # Written, not committed: what a `--commit` run commits as this sweep's own (uncommitted.py).
            # (a created `moved.tf` is the sweep's own as it is written: recorded by its digest)
            read = {c.new_path or c.path: (c.path, contents[c.path].data) for c in edited if not c.created}
            remember(root, journal.head, [*targets, *(r.path for r in relinked)], renames, written_message,
                     rename_message(plan) if renames else None, read)
    return Applied(len(edited), len(renames), tuple(commits), late, dirty.carrying, dirty.untracked)


def commit_pending(root: Path, targets: list[str] | tuple[str, ...], message: str, *,
                   hooks: bool = True, dirty: Uncommitted = NOTHING_UNCOMMITTED) -> tuple[list[str], bool]:
    """The rewrite commit, interruptible (a hook may hang), and whether an interrupt came: one
    after git made the commit is no failure; one before it leaves the journal to make it."""
    before = vcs_status.head_sha(root)
    try:
        return commit_written(root, targets, message, hooks=hooks, dirty=dirty), False
    except KeyboardInterrupt:
        _wait_for_git(root)
        after = vcs_status.head_sha(root)
        if after is not None and after != before:  # git finished the commit: the sweep is done
            return [after], True
        raise Interrupted(f"interrupted before the commit: the rewrite of {plural(len(targets), 'file')} is "
                          f"written, not committed; `renamer sweep --commit` commits it "
                          f"(journal: {shown_journal(root)})") from None


def _wait_for_git(root: Path, seconds: float = 10.0) -> None:
    """An interrupt sent to renamer alone (not its process group) leaves git running: wait,
    a while, for it to let go of the index (it holds index.lock until the commit is made or
    refused), so that what is said next is what git did."""
    folder = git_dir(root)
    if folder is None:
        return
    deadline = time.monotonic() + seconds
    with deferred():  # a second Ctrl-C does not cut the wait short into a wrong answer
        while (folder / "index.lock").exists() and time.monotonic() < deadline:
            time.sleep(0.02)


def commit_written(root: Path, targets: list[str] | tuple[str, ...], message: str, *,
                   hooks: bool = True, dirty: Uncommitted = NOTHING_UNCOMMITTED) -> list[str]:
    """Commit a rewrite that is in the work tree (over uncommitted work: the contents `dirty`
    chose, its untracked files left out); on failure say so, and that the next
    `renamer sweep --commit` makes the commit (the journal keeps it until then)."""
    # A file git ignores (`--include-ignored`'s live `.env`) is written, never committed: git
    # refuses to add it, and a journal naming it would fail every later sweep the same way
    # (break-it round 16, finding 20). Asked here too, for a journal written before that was known.
    ignored = vcs_listing.ignored_untracked(root, [t for t in targets if not dirty.leaves(t)])
    if ignored:
        dirty = replace(dirty, untracked=(*dirty.untracked, *ignored))
        targets = [t for t in targets if t not in ignored]
    try:
        if dirty.chosen or dirty.untracked:
            sha = commit_chosen(root, [t for t in targets if not dirty.leaves(t)], dirty.chosen, message,
                                hooks=hooks)
        else:
            sha = vcs.commit(root, list(targets), message, hooks=hooks)
    except RenamerError as exc:
        raise RenamerError(f"{exc}; the rewrite of {len(targets)} files is written but not committed: "
                           "fix the cause, then `renamer sweep --commit` commits it "
                           f"(journal: {shown_journal(root)})") from None
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


def _swap(root: Path, journal: Journal, seen: dict[str, Seen], signals: Deferred) -> set[str]:
    """Phase two: check each target is as it was read, then only swaps (see journal.py).

    A file saved by someone else while the new files were written stops the sweep
    before anything is replaced; the temporary files are removed. One saved during the
    swaps is caught by its swap and left as saved: returned, for the caller to refuse."""
    changed = [target for target, _ in journal.writes if not seen[target].unchanged(root / target)]
    if changed:
        journal.discard()
        more = f" and {len(changed) - 1} more" if len(changed) > 1 else ""
        raise UnsafeError(f"{changed[0]}{more}: changed while the sweep was writing; nothing replaced "
                          "(renames, if any, are in place), run the sweep again")
    journal.commit()  # from here on only swaps: atomic, and they need no space
    swapper = Swapper()
    saved: set[str] = set()
    total = len(journal.writes)
    for done, (target, tmp) in enumerate(journal.writes):
        if signals.received is not None:
            _interrupted(root, journal, done, total)
        try:
            as_read = seen[target]
            if not swapper.swap_in(root / target, root / tmp, as_read.unchanged, create=as_read.absent):
                saved.add(target)
        except OSError as exc:  # EPERM: an append-only folder, a bind-mounted file
            raise UnsafeError(f"cannot replace {target}: {exc.strerror}; {done} of {total} "
                              "files are written, the journal keeps the rest: fix the cause, then "
                              "`renamer sweep` finishes them") from None
    debug.say(f"swap: {total} files by {swapper.method}")
    for folder in {(root / t).parent for t, _ in journal.writes}:
        fsync_folder(folder)
    journal.drop(saved)
    if journal.commit_message is None:
        journal.finish()
    elif signals.received is not None:  # all written: only the commit is left, for the next run
        journal.written()
        raise Interrupted(f"interrupted after writing all {total - len(saved)} files, before the commit: "
                          f"`renamer sweep --commit` commits them (journal: {shown_journal(root)})")
    else:
        journal.written()
    return saved


def _interrupted(root: Path, journal: Journal, done: int, total: int) -> None:
    """Stop the swaps at a file boundary: the journal (still `committing`) keeps the rest."""
    again = "renamer sweep --commit" if journal.commit_message is not None else "renamer sweep"
    then = " and commits the rewrite" if journal.commit_message is not None else ""
    # the other files' new contents wait beside them, untracked (t37-break, finding 14: `git add
    # -A`, `git clean` or `git stash -u` would change what the next run finds)
    left = total - done
    files, them = ("files", "them") if left != 1 else ("file", "it")
    waiting = (f"; until then their new contents wait beside them as {left} `.renamer-*.renamer-tmp` "
               f"{files}: leave {them} to it (no `git add -A`, `git clean` or `git stash -u`)")
    raise Interrupted(f"interrupted after writing {done} of {total} files: `{again}` writes the other "
                      f"{left}{then}{waiting} (journal: {shown_journal(root)})")


def _refuse_saved(plan: Plan, journal: Journal, saved: set[str]) -> None:
    """Files saved by someone else during the swaps: their save is kept, those files are not
    rewritten; the rest is (the commit left to the next run, with counts of what was written)."""
    first = sorted(saved)[0]
    more = f" and {len(saved) - 1} more" if len(saved) > 1 else ""
    written = len(journal.writes)
    if journal.commit_message is not None:
        kept = replace(plan, scan=replace(plan.scan, files=tuple(
            f for f in plan.scan.files if (f.new_path or f.path) not in saved)))
        journal.commit_message = journal.message = commit_message(kept, Summary.of(kept))
        journal.replacements = Summary.of(kept).replacement_total()
        journal.written()
        then = (f"the other {written} files are rewritten, not committed: check it, then "
                f"`renamer sweep --commit` commits them (journal: {shown_journal(plan.project.root)})")
    else:
        then = f"the other {written} files are rewritten: check it, then run the sweep again"
    raise UnsafeError(f"{first}{more}: saved by someone else while the sweep replaced it: that save is kept "
                      f"and the file is not rewritten; {then}")
