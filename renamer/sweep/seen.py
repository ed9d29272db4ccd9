"""Each file as the sweep read it: checked against the plan before anything is written, and
checked again (size, mtime, inode, bytes) just before it is replaced."""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from pathlib import Path

from renamer.errors import UnsafeError
from renamer.sweep.plan import Plan


@dataclass(frozen=True)
class Seen:
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


def verified_contents(plan: Plan) -> dict[str, Seen]:
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
        contents[change.path] = Seen(data, info.st_size, info.st_mtime_ns, info.st_ino)
    return contents
