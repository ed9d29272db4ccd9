"""One allowlist file's contribution (None where it says nothing, so a preset fills it) and the merge
of the contributions, the user's files first, into one Allowlist."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from renamer.allowlist import DEFAULT_MARKER, Allowlist, KeepRule, RecordClass


@dataclass
class Partial:
    """One file's contribution; None means 'not said here', so presets can fill it."""

    current: list[str]
    records: list[RecordClass]
    keep: list[KeepRule]
    exclude: list[str]
    dated_filenames: bool | None = None
    sections: list[re.Pattern[str]] | None = None
    section_paths: list[str] | None = None
    inline_marker: str | None = None
    near_miss_ignore: list[re.Pattern[str]] = field(default_factory=list)
    near_miss_paths: list[str] = field(default_factory=list)
    keep_paths: list[str] = field(default_factory=list)
    current_where: list[str] = field(default_factory=list)
    exclude_where: list[str] = field(default_factory=list)


def merge(parts: list[Partial]) -> Allowlist:
    records: dict[str, RecordClass] = {}
    keep: dict[str, KeepRule] = {}
    for part in parts:
        for record in part.records:
            records.setdefault(record.name, record)
        for rule in part.keep:
            keep.setdefault(rule.name, rule)

    def first(attr: str, default: Any) -> Any:
        return next((getattr(p, attr) for p in parts if getattr(p, attr) is not None), default)

    return Allowlist(
        current=tuple(p for part in parts for p in part.current),
        records=tuple(records.values()),
        dated_filenames=first("dated_filenames", False),
        sections=tuple(first("sections", [])),
        section_paths=_optional_tuple(first("section_paths", None)),
        keep=tuple(keep.values()),
        inline_marker=first("inline_marker", DEFAULT_MARKER),
        exclude=tuple(p for part in parts for p in part.exclude),
        near_miss_ignore=tuple(p for part in parts for p in part.near_miss_ignore),
        near_miss_paths=tuple(p for part in parts for p in part.near_miss_paths),
        keep_paths=tuple(p for part in parts for p in part.keep_paths),
        current_where=tuple(w for part in parts for w in part.current_where),
        exclude_where=tuple(w for part in parts for w in part.exclude_where),
    )


def _optional_tuple(value: list[str] | None) -> tuple[str, ...] | None:
    return None if value is None else tuple(value)
