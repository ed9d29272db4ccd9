"""The sweep's journal: an interrupted sweep is completed or undone by the next one.

Writing is two-phase. First every new file goes to a temporary file beside its
target (a full disk fails here, and the temporary files are removed: nothing
changed). Then the journal flips to `committing` and each temporary file is
renamed over its target. Renames need no space and are atomic, so a kill at
any moment leaves every file wholly old or wholly new, and the journal says
which way to finish: a `preparing` journal is rolled back (temporary files
removed), a `committing` one rolled forward (remaining renames done).

Each rename is a swap (`swap.py`): the file it displaces comes out at the
temporary name and is compared with what was read. The journal keeps the SHA-1 of
each file as read and as written, so recovery can tell a temporary file still to
put in place from one displaced by a swap, and a save that a swap caught (and a
kill interrupted) from the file as it was read: a newer save is never replaced.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from renamer import lazy_re, vcs, vcs_status
from renamer.atomic import TMP_SUFFIX, fsync_folder, write_atomic
from renamer.errors import RenamerError, UnsafeError
from renamer.paths import problem
from renamer.state import journal_path
from renamer.sweep.folders import FolderMove, folded, unfold
from renamer.sweep.swap import Swapper, digest

JournalState = Literal["preparing", "committing", "written"]
PREPARING: JournalState = "preparing"
COMMITTING: JournalState = "committing"
WRITTEN: JournalState = "written"  # every file replaced; the git commit asked for is still to make
_SWEEP_ID = lazy_re.compile(r"[0-9a-f]{12}")
_JOURNAL_TMP = ".journal-tmp"
_SHA1 = lazy_re.compile(r"[0-9a-f]{40}")
EMPTY = hashlib.sha1(b"").hexdigest()  # a file the sweep creates, as read (sweep/moved_files.py)


@dataclass(frozen=True)
class Recovery:
    targets: tuple[str, ...]  # every file the interrupted sweep meant to write
    rolled_forward: tuple[str, ...]
    rolled_back: tuple[str, ...]
    commit_message: str | None = None  # the interrupted sweep was to commit its rewrite so
    saved: tuple[str, ...] = ()  # saved by someone else meanwhile: their version kept, not rewritten
    replacements: int = 0  # in the rewrite it completes
    uncommitted: Any = None  # what its commit holds over uncommitted work (`dirty.Uncommitted.to_json`)


def temp_name(target: str, sweep_id: str) -> str:
    """The temporary file for `target`: hidden, in the same folder, named by the sweep.

    Of fixed length (the sweep's id and a digest of the target, which the journal maps back), so a
    file whose name is near the file system's 255-byte limit can be swept too (adversarial B-12).
    """
    folder, _, name = target.rpartition("/")
    digest = hashlib.sha256(name.encode("utf-8", "surrogateescape")).hexdigest()[:16]
    hidden = f".renamer-{sweep_id}-{digest}{TMP_SUFFIX}"
    return f"{folder}/{hidden}" if folder else hidden


class Journal:
    def __init__(self, root: Path, targets: list[str], commit_message: str | None = None, *,
                 renames: list[tuple[str, str]] | None = None, head: str | None = None,
                 digests: list[tuple[str, str]] | None = None, replacements: int = 0,
                 message: str | None = None, uncommitted: dict[str, Any] | None = None,
                 folders: list[tuple[str, str]] | None = None) -> None:
        self.root = root
        self.id = uuid.uuid4().hex[:12]
        self.writes = [(target, temp_name(target, self.id)) for target in targets]
        # target -> (SHA-1 as read, SHA-1 as written): what recovery compares (see above)
        self.digests = dict(zip(targets, digests or [], strict=False))
        self.replacements = replacements
        self.message = message or commit_message  # the rewrite's message, for a `--commit` rerun
        self.commit_message = commit_message
        self.renames = list(renames or [])
        self.folders = list(folders or [])  # moved whole before the renames (folders.py), in order
        self.head = head  # HEAD before the sweep: a rename commit moved it, or nothing did
        self.uncommitted = uncommitted  # --allow-dirty: the commit's contents, set apart from the user's

    def _save(self, state: JournalState) -> None:
        data = json.dumps({"id": self.id, "state": state, "writes": self.writes,
                           "commit": self.commit_message, "renames": self.renames, "folders": self.folders,
                           "head": self.head, "replacements": self.replacements, "message": self.message,
                           "digests": {t: list(pair) for t, pair in self.digests.items()},
                           **({"uncommitted": self.uncommitted} if self.uncommitted else {})}).encode()
        write_atomic(journal_path(self.root), data, suffix=_JOURNAL_TMP)

    def prepare(self) -> None:
        self._save(PREPARING)

    def commit(self) -> None:
        self._save(COMMITTING)

    def written(self) -> None:
        """Every file replaced: only the git commit is left (kept for the next run to make)."""
        self._save(WRITTEN)

    def drop(self, targets: set[str]) -> None:
        """Forget `targets` (saved by someone else, left as they are): the rest is what was written."""
        self.writes = [(t, tmp) for t, tmp in self.writes if t not in targets]
        self.digests = {t: pair for t, pair in self.digests.items() if t not in targets}

    def finish(self) -> None:
        with contextlib.suppress(FileNotFoundError):
            journal_path(self.root).unlink()

    def discard(self) -> None:
        """Phase one failed: remove every temporary file, then the journal."""
        for _, tmp in self.writes:
            with contextlib.suppress(FileNotFoundError):
                (self.root / tmp).unlink()
        self.finish()


def wants_commit(root: Path) -> bool:
    """A pending journal whose sweep was to commit, and got as far as writing (it is finished
    forward, so only a `--commit` run may finish it: any other would leave it uncommitted)."""
    data = pending(root)
    if not data:
        return False
    return data.get("state") in (COMMITTING, WRITTEN) and isinstance(data.get("commit"), str)


def clear(root: Path) -> None:
    """The pending commit made: the journal is done."""
    with contextlib.suppress(FileNotFoundError):
        journal_path(root).unlink()


def pending(root: Path) -> dict[str, Any] | None:
    path = journal_path(root)
    try:
        data = json.loads(path.read_text())
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as exc:
        raise RenamerError(f"{path}: unreadable sweep journal ({exc}); inspect it, then delete it") from None
    return data if isinstance(data, dict) else {}


def _checked(root: Path, data: dict[str, Any]) -> tuple[JournalState, list[tuple[str, str]]]:
    """The journal's state and writes, each pair checked as renamer writes them: a target
    inside the repo (no '..', no link on the way) and its temporary file named by this
    sweep. Anything else refuses recovery before a single file is touched."""
    path = journal_path(root)
    sweep_id, state, writes = data.get("id"), data.get("state"), data.get("writes")
    if not isinstance(sweep_id, str) or not _SWEEP_ID.fullmatch(sweep_id):
        raise UnsafeError(f"{path}: refused: not a journal renamer wrote (bad id); nothing touched, "
                          "inspect it, then delete it")
    if state not in (PREPARING, COMMITTING, WRITTEN) or not isinstance(writes, list):
        raise UnsafeError(f"{path}: refused: not a journal renamer wrote (bad state or writes); "
                          "nothing touched, inspect it, then delete it")
    checked: list[tuple[str, str]] = []
    for entry in writes:
        if not (isinstance(entry, list) and len(entry) == 2 and all(isinstance(x, str) for x in entry)):
            raise UnsafeError(f"{path}: refused: a write that is not a (target, temporary file) pair; "
                              "nothing touched")
        target, tmp = entry
        why = problem(root, target)
        if why is None and tmp != temp_name(target, sweep_id):
            why = f"its temporary file {tmp!r} is not named as renamer names them"
        if why is not None:
            raise UnsafeError(f"{path}: refused: {target!r}: {why}; nothing touched, "
                              "inspect it, then delete it")
        checked.append((target, tmp))
    return state, checked


def _checked_renames(root: Path, data: dict[str, Any], key: str = "renames") -> list[tuple[str, str]]:
    raw = data.get(key) or []
    if not isinstance(raw, list) or not all(
            isinstance(e, list) and len(e) == 2 and all(isinstance(x, str) for x in e) for e in raw):
        raise UnsafeError(f"{journal_path(root)}: refused: renames that are not (old, new) pairs; "
                          "nothing touched")
    for old, new in raw:
        why = problem(root, old) or problem(root, new)
        if why is not None:
            raise UnsafeError(f"{journal_path(root)}: refused: {old!r} -> {new!r}: {why}; nothing touched")
    return [(old, new) for old, new in raw]


def _undo_renames(root: Path, renames: list[tuple[str, str]], folders: list[tuple[str, str]]) -> None:
    moved = [FolderMove(old, new, ()) for old, new in folders]
    inside = folded(renames, moved)
    for old, new in reversed(renames):
        if (old, new) not in inside and os.path.lexists(root / new) and not os.path.lexists(root / old):
            vcs.unmove(root, old, new)
    if moved:  # moved back whole, untracked files with them, never file by file
        unfold(root, moved, inside)


def recover(root: Path, *, commit: bool = False) -> Recovery | None:
    """Finish or undo an interrupted sweep; None when there was none. A rewrite finished
    forward that its sweep, or this one (`commit`), commits keeps the journal (`WRITTEN`)
    until the commit is made (`clear`)."""
    path = journal_path(root)
    for stale in path.parent.glob(f".{path.name}.*{_JOURNAL_TMP}"):  # a kill while the journal was saved
        with contextlib.suppress(OSError):
            stale.unlink()
    data = pending(root)
    if data is None:
        return None
    state, writes = _checked(root, data)
    renames = _checked_renames(root, data)
    folders = _checked_renames(root, data, "folders")
    digests = _checked_digests(root, data)
    message = data.get("commit") if isinstance(data.get("commit"), str) else None
    if message is None and commit and isinstance(data.get("message"), str):
        message = data["message"]  # a plain sweep interrupted, finished by a `--commit` one
    forward, back, saved = [], [], []
    swapper = Swapper()
    for target, tmp in writes:
        if state == WRITTEN or not os.path.lexists(root / tmp):
            continue
        if state == PREPARING:
            (root / tmp).unlink()
            back.append(target)
        elif target not in digests:  # a journal from before digests were kept
            os.replace(root / tmp, root / target)
            forward.append(target)
        elif _roll_forward(swapper, root / target, root / tmp, digests[target]):
            forward.append(target)
        else:
            saved.append(target)
    for folder in {(root / t).parent for t, _ in writes}:
        fsync_folder(folder)
    head = data.get("head")
    if state == PREPARING and renames and (not isinstance(head, str) or vcs_status.head_sha(root) == head):
        _undo_renames(root, renames, folders)  # killed before the rename commit: renames undone too
    rolled_back = state == PREPARING
    message = None if rolled_back else message
    written = [(t, tmp) for t, tmp in writes if t not in saved]
    if message is None:
        journal_path(root).unlink()
    else:  # kept until the commit is made (`clear`): a failed commit is never dropped
        write_atomic(journal_path(root), json.dumps({**data, "state": WRITTEN, "writes": written,
                                                     "commit": message}).encode(), suffix=_JOURNAL_TMP)
    replacements = data.get("replacements")
    return Recovery(tuple(t for t, _ in written), tuple(forward), tuple(back), message, tuple(saved),
                    replacements if isinstance(replacements, int) else 0, data.get("uncommitted"))


def _roll_forward(swapper: Swapper, target: Path, tmp: Path, pair: tuple[str, str]) -> bool:
    """Finish one swap of a `committing` journal; False where someone else's save is kept."""
    as_read, written = pair
    if digest(tmp) == written and digest(target) == written:  # a created file linked in, killed before
        tmp.unlink()                                           # its temporary name was removed
        return True
    if digest(tmp) == written:  # not swapped in yet (or swapped back after a newer save)
        return swapper.swap_in(target, tmp, lambda path: digest(path) == as_read,
                               create=as_read == EMPTY and not os.path.lexists(target))
    if digest(target) != written:  # neither is ours: both someone else's; the temporary file is kept
        return False
    if digest(tmp) == as_read:  # swapped in, killed before the displaced file was removed
        tmp.unlink()
        return True
    swapper.put_back(target, tmp)  # a newer save was swapped out, killed before it was put back
    return False


def _checked_digests(root: Path, data: dict[str, Any]) -> dict[str, tuple[str, str]]:
    raw = data.get("digests") or {}
    if not isinstance(raw, dict) or not all(
            isinstance(v, list) and len(v) == 2 and all(isinstance(x, str) and _SHA1.fullmatch(x) for x in v)
            for v in raw.values()):
        raise UnsafeError(f"{journal_path(root)}: refused: digests that are not SHA-1 pairs; nothing touched")
    return {str(target): (pair[0], pair[1]) for target, pair in raw.items()}
