"""The allowlist's values: exemptions (record classes, keep rules) and the merged Allowlist."""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

DEFAULT_MARKER = "renamer: keep"


@dataclass(frozen=True)
class Exemption:
    """What every record class and keep rule carries: why, where it is written, and until when."""

    kind: ClassVar[str] = ""  # record | keep
    name: str
    patterns: tuple[str, ...]
    reason: str
    source: str  # the allowlist file, as shown
    inherited: bool  # from a preset (`extends:`): never reported stale, never pruned
    expires: dt.date | None = None  # after this day, verify fails naming the exemption
    owner: str | None = None  # who decides on renewing it
    line: int = 0  # of the entry in its file
    file: Path | None = None  # the allowlist file itself (audit --prune and sweep --interactive edit it)

    @property
    def label(self) -> str:
        """`record class notes`, `keep rule legacy-bmc`: how reports name it."""
        return f"{'record class' if self.kind == 'record' else 'keep rule'} {self.name}"

    @property
    def where(self) -> str:
        return f"{self.source}:{self.line}" if self.line else self.source

    def expired(self, today: dt.date) -> bool:
        return self.expires is not None and self.expires < today


@dataclass(frozen=True)
class RecordClass(Exemption):
    kind: ClassVar[str] = "record"


@dataclass(frozen=True)
class KeepRule(Exemption):
    line_contains: str | None = None
    # a key path (`locals.nodes.pug`, `hosts.pug.ip`): keeps the reference at that path or below
    # it, where the file's format reads key paths (YAML, JSON, TOML, INI, HCL), and nothing else
    key: str | None = None
    kind: ClassVar[str] = "keep"


@dataclass(frozen=True)
class Allowlist:
    current: tuple[str, ...] = ()
    records: tuple[RecordClass, ...] = ()
    dated_filenames: bool = False
    sections: tuple[re.Pattern[str], ...] = ()
    section_paths: tuple[str, ...] | None = None  # None: prose files (see formats/prose.is_prose)
    keep: tuple[KeepRule, ...] = ()
    inline_marker: str = DEFAULT_MARKER
    exclude: tuple[str, ...] = ()
    near_miss_ignore: tuple[re.Pattern[str], ...] = ()  # spellings a user has seen and accepts
    near_miss_paths: tuple[str, ...] = ()  # where near-misses are not reported at all
    keep_paths: tuple[str, ...] = ()  # files and folders never renamed (their contents still follow)
    current_where: tuple[str, ...] = ()  # file:line of each `current` pattern (renamer explain)
    exclude_where: tuple[str, ...] = ()

    def where(self, key: str, pattern: str) -> str:
        """file:line of a `current` or `exclude` pattern, as `renamer explain` names it."""
        patterns, places = ((self.current, self.current_where) if key == "current"
                            else (self.exclude, self.exclude_where))
        return next((w for p, w in zip(patterns, places, strict=False) if p == pattern), "")
