"""The sweep's journal: an interrupted sweep is completed or undone by the next one.

Writing is two-phase. First every new file goes to a temporary file beside its
target (a full disk fails here, and the temporary files are removed: nothing
changed). Then the journal flips to `committing` and each temporary file is
renamed over its target. Renames need no space and are atomic, so a kill at
any moment leaves every file wholly old or wholly new, and the journal says
which way to finish: a `preparing` journal is rolled back (temporary files
removed), a `committing` one rolled forward (remaining renames done).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from renamer import vcs, vcs_status
from renamer.atomic import TMP_SUFFIX, fsync_folder, write_atomic
from renamer.errors import RenamerError, UnsafeError
from renamer.paths import problem
from renamer.state import journal_path

JournalState = Literal["preparing", "committing", "written"]
PREPARING: JournalState = "preparing"
COMMITTING: JournalState = "committing"
WRITTEN: JournalState = "written"  # every file replaced; the git commit asked for is still to make
_SWEEP_ID = re.compile(r"[0-9a-f]{12}")
_JOURNAL_TMP = ".journal-tmp"


@dataclass(frozen=True)
class Recovery:
    targets: tuple[str, ...]  # every file the interrupted sweep meant to write
    rolled_forward: tuple[str, ...]
    rolled_back: tuple[str, ...]
    commit_message: str | None = None  # the interrupted sweep was to commit its rewrite so


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
                 renames: list[tuple[str, str]] | None = None, head: str | None = None) -> None:
        self.root = root
        self.id = uuid.uuid4().hex[:12]
        self.writes = [(target, temp_name(target, self.id)) for target in targets]
        self.commit_message = commit_message
        self.renames = list(renames or [])
        self.head = head  # HEAD before the sweep: a rename commit moved it, or nothing did

    def _save(self, state: JournalState) -> None:
        data = json.dumps({"id": self.id, "state": state, "writes": self.writes,
                           "commit": self.commit_message, "renames": self.renames,
                           "head": self.head}).encode()
        write_atomic(journal_path(self.root), data, suffix=_JOURNAL_TMP)

    def prepare(self) -> None:
        self._save(PREPARING)

    def commit(self) -> None:
        self._save(COMMITTING)

    def written(self) -> None:
        """Every file replaced: only the git commit is left (kept for the next run to make)."""
        self._save(WRITTEN)

    def finish(self) -> None:
        with contextlib.suppress(FileNotFoundError):
            journal_path(self.root).unlink()

    def discard(self) -> None:
        """Phase one failed: remove every temporary file, then the journal."""
        for _, tmp in self.writes:
            with contextlib.suppress(FileNotFoundError):
                (self.root / tmp).unlink()
        self.finish()


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


def _checked_renames(root: Path, data: dict[str, Any]) -> list[tuple[str, str]]:
    raw = data.get("renames") or []
    if not isinstance(raw, list) or not all(
            isinstance(e, list) and len(e) == 2 and all(isinstance(x, str) for x in e) for e in raw):
        raise UnsafeError(f"{journal_path(root)}: refused: renames that are not (old, new) pairs; "
                          "nothing touched")
    for old, new in raw:
        why = problem(root, old) or problem(root, new)
        if why is not None:
            raise UnsafeError(f"{journal_path(root)}: refused: {old!r} -> {new!r}: {why}; nothing touched")
    return [(old, new) for old, new in raw]


def _undo_renames(root: Path, renames: list[tuple[str, str]]) -> None:
    for old, new in reversed(renames):
        if os.path.lexists(root / new) and not os.path.lexists(root / old):
            vcs.unmove(root, old, new)


def recover(root: Path) -> Recovery | None:
    """Finish or undo an interrupted sweep; None when there was none."""
    path = journal_path(root)
    for stale in path.parent.glob(f".{path.name}.*{_JOURNAL_TMP}"):  # a kill while the journal was saved
        with contextlib.suppress(OSError):
            stale.unlink()
    data = pending(root)
    if data is None:
        return None
    state, writes = _checked(root, data)
    renames = _checked_renames(root, data)
    message = data.get("commit") if isinstance(data.get("commit"), str) else None
    forward, back = [], []
    for target, tmp in writes:
        if state == WRITTEN or not os.path.lexists(root / tmp):
            continue
        if state == COMMITTING:
            os.replace(root / tmp, root / target)
            forward.append(target)
        else:
            (root / tmp).unlink()
            back.append(target)
    for folder in {(root / t).parent for t, _ in writes}:
        fsync_folder(folder)
    head = data.get("head")
    if state == PREPARING and renames and (not isinstance(head, str) or vcs_status.head_sha(root) == head):
        _undo_renames(root, renames)  # killed before the rename commit: renames undone too
    journal_path(root).unlink()
    rolled_back = state == PREPARING
    return Recovery(tuple(t for t, _ in writes), tuple(forward), tuple(back),
                    None if rolled_back else message)
