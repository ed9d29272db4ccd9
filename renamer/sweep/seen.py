"""Each file as the sweep read it: checked against the plan before anything is written, and
checked again (size, mtime, inode, bytes) just before it is replaced."""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from pathlib import Path

from renamer.errors import UnsafeError
from renamer.paths import problem
from renamer.sweep.content import classify_bytes, own_bytes
from renamer.sweep.model import Edit, apply_edits
from renamer.sweep.plan import Plan


@dataclass(frozen=True)
class Seen:
    """A file as the sweep read it: what it checks again just before replacing it."""

    data: bytes  # the file's own bytes
    size: int
    mtime_ns: int
    inode: int
    scanned: bytes = b""  # the bytes the plan's edits apply to: `data`, or its UTF-8 for wide text
    codec: str = ""  # wide text (sweep/content.py): the codec the new bytes are written in
    absent: bool = False  # a file the sweep creates: "as read" is "not there"

    def rewritten(self, edits: list[Edit] | tuple[Edit, ...]) -> bytes:
        """The file's new bytes: the edits applied to what was scanned, in the file's own encoding."""
        return own_bytes(apply_edits(self.scanned, edits), self.codec)

    def unchanged(self, path: Path) -> bool:
        if self.absent:  # still not there: created by no one else meanwhile
            return not os.path.lexists(path)
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


def verified_contents(plan: Plan) -> dict[str, Seen]:
    """Re-read every file to change and refuse if any changed since it was planned."""
    contents = {}
    for change in plan.changes:
        if not change.edits:
            continue
        path = plan.project.root / change.path
        if change.created:
            contents[change.path] = _absent(plan, change.path, path)
            continue
        try:
            if path.is_symlink():
                raise UnsafeError(f"{change.path}: became a symlink during the sweep; nothing written")
            data = path.read_bytes()
            info = os.lstat(path)
        except OSError as exc:
            raise UnsafeError(f"{change.path}: cannot read: {exc.strerror}; nothing written") from None
        content = classify_bytes(data, name=change.path)  # as the scan read it: wide text as its UTF-8
        if hashlib.sha1(content.data).hexdigest() != change.digest:
            raise UnsafeError(f"{change.path}: changed during the sweep; nothing written, run it again")
        if not os.access(path, os.W_OK) or not os.access(path.parent, os.W_OK):
            raise UnsafeError(f"{change.path}: not writable; nothing written")
        contents[change.path] = Seen(data, info.st_size, info.st_mtime_ns, info.st_ino,
                                     content.data, content.codec)
    return contents


def _absent(plan: Plan, rel: str, path: Path) -> Seen:
    """A file the sweep creates (a module's `moved.tf`): still not there, in a folder of the repo
    reached through no link, that can be written."""
    why = problem(plan.project.root, rel)
    if why is not None:
        raise UnsafeError(f"{rel}: refused: {why}; nothing written")
    if os.path.lexists(path):
        raise UnsafeError(f"{rel}: created by someone else during the sweep; nothing written, run it again")
    folder = rel.rpartition("/")[0]
    if not path.parent.exists():  # a folder the renames make (a module folder named by a host)
        if not any(new.startswith(folder + "/") for _, new in plan.renames):
            raise UnsafeError(f"{rel}: its folder does not exist; nothing written")
    elif not path.parent.is_dir() or not os.access(path.parent, os.W_OK):
        raise UnsafeError(f"{rel}: its folder is not writable; nothing written")
    return Seen(b"", -1, 0, 0, b"", "", absent=True)
