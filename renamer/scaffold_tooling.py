"""renamer init's two questions about what sits in a folder named for backups (break-it round 4,
finding 7): is a file a copy of another, and is it the backup tool itself?

A copy is a file with the same bytes as its original, or near-identical to it (`alike`): at least
80% of the shorter file's lines (line endings and trailing blanks aside) stand, in order, in the
other, and the shorter is at least half as long. A same-named file elsewhere says nothing alone: a
backup server's `backups/compose.yml` is not a copy of the application's `compose.yml`.

A folder named `backup/`, `backups/` or `bak/` often holds what RUNS the backup: a script, its
systemd unit and timer, a crontab. Such a file is live tooling (`tooling_reason`) when it is a
systemd unit or a crontab, when it is executable (a `#!` line or the executable bit), or when a
live file names it (a unit's `ExecStart=`, a crontab line, a playbook's `src:`). What the tool
writes (dumps, archives, dated names) stays a record.
"""

from __future__ import annotations

import difflib
import posixpath
import re
from collections.abc import Callable, Iterable

from renamer import lazy_re

# Folder names that say "backups" rather than "old": what runs the backup may live there.
BACKUP_WORD = lazy_re.compile(r"(?i)^\.?(?:backups?|bak|baks)(?:[-_.].*)?$")
_UNIT = lazy_re.compile(r"(?i)\.(?:service|timer|socket|path|mount|automount|target)$")
_CRONTAB = lazy_re.compile(r"(?i)^(?:crontab|[\w.-]+\.cron(?:tab)?|anacrontab)$")
_SCRIPT = lazy_re.compile(r"(?i)\.(?:sh|bash|zsh|py|pl|rb|ps1|fish)$")
_NEAR = 0.8  # share of the shorter file's lines found, in order, in the other
_HALF = 0.5  # the shorter file at least half as long


def _lines(data: bytes) -> list[bytes]:
    return [line.rstrip() for line in data.replace(b"\r\n", b"\n").split(b"\n") if line.strip()]


def alike(mine: bytes, theirs: bytes) -> bool:
    """Whether two files are one a copy of the other: the same bytes, or near-identical."""
    if mine == theirs:
        return True
    a, b = _lines(mine), _lines(theirs)
    shorter, longer = sorted((len(a), len(b)))
    if shorter == 0 or shorter < _HALF * longer:
        return False
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    shared = sum(block.size for block in matcher.get_matching_blocks())
    return shared >= _NEAR * shorter


def tooling_reason(rel: str, data: bytes, executable: bool,
                   named_by: Callable[[str], str | None]) -> str | None:
    """Why `rel` is the backup tool rather than a copy, or None: `named_by(name)` is the live file
    that names a file called `name`, if any."""
    name = posixpath.basename(rel)
    if _UNIT.search(name):
        return "a systemd unit"
    if _CRONTAB.match(name) or "/cron.d/" in f"/{rel}":
        return "a crontab"
    if data.startswith(b"#!"):
        return "a script with a #! line"
    if executable:
        return "an executable file"
    if _SCRIPT.search(name):
        by = named_by(name)
        if by is not None:
            return f"a script {by} runs"
    return None


class Mentions:
    """Which live file names a file: built from the repo's live candidates, asked by file name."""

    def __init__(self, candidates: Iterable[str], read: Callable[[str], bytes]) -> None:
        self._candidates = list(candidates)
        self._read = read
        self._found: dict[str, str | None] = {}

    def named_by(self, name: str, besides: str) -> str | None:
        """The first candidate (other than `besides`) whose text names `name` as a word."""
        key = f"{name}\0{besides}"
        if key not in self._found:
            word = re.compile(rb"(?<![\w.-])" + re.escape(name.encode()) + rb"(?![\w-])")
            self._found[key] = next((rel for rel in self._candidates
                                     if rel != besides and word.search(self._read(rel))), None)
        return self._found[key]
