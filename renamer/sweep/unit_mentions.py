"""Where the repo names a systemd unit (break-it round 14, finding 9).

A mount point that a generator turns into a unit (fstab, NixOS `fileSystems`, `systemd.mounts`)
is held only where some live file names that unit (`Requires=mnt-pug.mount`, NixOS `requires =
[ "mnt-pug.mount" ]`, `systemctl restart mnt-pug.mount`), or names it in a path (a drop-in
folder `mnt-pug.mount.d/`, a `.wants/mnt-pug.mount` link): one `git grep -F` per unit name asked
and one listing, over the tracked and untracked (not ignored) files, remembered per scanner. A
record (a dated note) naming the unit requires nothing and is not counted.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Callable
from pathlib import Path


class UnitMentions:
    def __init__(self, root: Path, live: Callable[[str], bool]) -> None:
        self.root = root
        self.live = live
        self._found: dict[str, str | None] = {}
        self._paths: list[str] | None = None

    def named(self, unit: str) -> str | None:
        """`path:line` of the first live file that names `unit` (its `\\x2d` escapes written
        once or doubled, as in a quoted string), None where none does."""
        if unit not in self._found:
            self._found[unit] = self._grep(unit) or self._path(unit)
        return self._found[unit]

    def _path(self, unit: str) -> str | None:
        if self._paths is None:
            command = ["git", "-C", str(self.root), "ls-files", "-z", "-co", "--exclude-standard"]
            try:
                done = subprocess.run(command, capture_output=True, check=False)
            except OSError:
                done = None
            self._paths = [os.fsdecode(p) for p in done.stdout.split(b"\0") if p] if done is not None else []
        for rel in self._paths:
            parts = rel.split("/")
            if (unit in parts or f"{unit}.d" in parts[:-1]) and self.live(rel):
                return rel
        return None

    def _grep(self, unit: str) -> str | None:
        spellings = [unit] + ([unit.replace("\\", "\\\\")] if "\\" in unit else [])
        command = ["git", "-C", str(self.root), "grep", "--untracked", "-I", "-n", "-z", "-F", "--full-name"]
        for spelling in spellings:
            command += ["-e", spelling]
        try:
            done = subprocess.run(command, capture_output=True, check=False)
        except OSError:
            return None
        for row in done.stdout.split(b"\n"):
            parts = row.split(b"\0", 2)
            if len(parts) < 3:
                continue
            rel = os.fsdecode(parts[0])
            if self.live(rel) and _names(parts[2], spellings):
                return f"{rel}:{parts[1].decode('ascii', 'replace')}"
        return None


def _names(text: bytes, spellings: list[str]) -> bool:
    """The unit's name as a whole word (`mnt-pug.mount`, not `xmnt-pug.mount` or `mnt-pug.mounts`)."""
    for spelling in spellings:
        needle = os.fsencode(spelling)
        at = text.find(needle)
        while at != -1:
            before = text[at - 1:at]
            after = text[at + len(needle):at + len(needle) + 1]
            if not (before.isalnum() or before in (b"-", b"_", b".", b"\\")) \
                    and not (after.isalnum() or after in (b"-", b"_")):
                return True
            at = text.find(needle, at + 1)
    return False
