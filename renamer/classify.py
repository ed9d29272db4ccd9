"""Which files and lines are current state, which are records: pure, no I/O."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Sequence
from dataclasses import dataclass

import pathspec

from renamer.allowlist import Allowlist, KeepRule, RecordClass

# 2026-10-05 or 20261005, not part of a longer number.
_FILE_DATE = re.compile(r"(?<!\d)(\d{4})-?(\d{2})-?(\d{2})(?!\d)")
_HEADING = re.compile(r"(#{1,6})(?:\s|$)")

CURRENT = "current"
RECORD = "record"
EXCLUDED = "excluded"
UNCLASSIFIED = "unclassified"


@dataclass(frozen=True)
class FileClass:
    status: str  # current | record | excluded | unclassified
    reason: str | None = None  # record class name or dated-file
    note: str | None = None


@dataclass(frozen=True)
class LineExemption:
    reason: str  # dated-section | inline | keep rule name
    note: str


def _spec(patterns: Sequence[str]) -> pathspec.GitIgnoreSpec:
    return pathspec.GitIgnoreSpec.from_lines(list(patterns))


class Classifier:
    """Compiled from an Allowlist; answers per path and per line."""

    def __init__(self, allowlist: Allowlist, cutover: dt.date | None,
                 implicit_excludes: Sequence[str] = ()) -> None:
        self.allowlist = allowlist
        self.cutover = cutover
        self._exclude = _spec([".git/**", *implicit_excludes, *allowlist.exclude])
        self._records = [(r, _spec(r.patterns)) for r in allowlist.records]
        self._current = _spec(allowlist.current)
        self._keep = [(k, _spec(k.patterns)) for k in allowlist.keep]

    def is_excluded(self, path: str) -> bool:
        return bool(self._exclude.match_file(path))

    def is_current_pattern(self, path: str) -> bool:
        return bool(self._current.match_file(path))

    def classify(self, path: str) -> FileClass:
        """DESIGN's rules, first that applies wins."""
        if self.is_excluded(path):
            return FileClass(EXCLUDED)
        for record, spec in self._records:
            if spec.match_file(path):
                return FileClass(RECORD, record.name, record.reason)
        dated = self.file_date(path)
        if dated is not None:
            return FileClass(RECORD, "dated-file",
                             f"file name dated {dated}, on or before the cutover {self.cutover}")
        if self._current.match_file(path):
            return FileClass(CURRENT)
        return FileClass(UNCLASSIFIED, None,
                         "no allowlist rule covers this file: add it to current or to a record class")

    def file_date(self, path: str) -> dt.date | None:
        if not self.allowlist.dated_filenames or self.cutover is None:
            return None
        name = path.rsplit("/", 1)[-1]
        for match in _FILE_DATE.finditer(name):
            day = _date(*match.groups())
            if day is not None and day <= self.cutover:
                return day
        return None

    def keep_rules_for(self, path: str) -> list[KeepRule]:
        return [rule for rule, spec in self._keep if spec.match_file(path)]

    def line_exemptions(self, path: str, lines: Sequence[str]) -> dict[int, LineExemption]:
        """Exempt lines of a current-state file, by 0-based line index."""
        out: dict[int, LineExemption] = {}
        for index, reason in self._dated_sections(lines).items():
            out[index] = reason
        marker = self.allowlist.inline_marker
        rules = self.keep_rules_for(path)
        for index, line in enumerate(lines):
            if index in out:
                continue
            if marker in line:
                out[index] = LineExemption("inline", _marker_note(line, marker))
                continue
            for rule in rules:
                if rule.line_contains is None or rule.line_contains in line:
                    out[index] = LineExemption(rule.name, rule.reason)
                    break
        return out

    def _dated_sections(self, lines: Sequence[str]) -> dict[int, LineExemption]:
        if not self.allowlist.sections or self.cutover is None:
            return {}
        out: dict[int, LineExemption] = {}
        active: LineExemption | None = None
        level: int | None = None  # heading level the section started at, None if not a heading
        for index, line in enumerate(lines):
            heading = _HEADING.match(line)
            started = self._section_date(line)
            ends_here = started is not None or (
                heading is not None and (level is None or len(heading.group(1)) <= level))
            if active is not None and ends_here:
                active = None
            if started is not None and started <= self.cutover:
                active = LineExemption("dated-section",
                                       f"section dated {started}, on or before the cutover {self.cutover}")
                level = len(heading.group(1)) if heading else None
            if active is not None:
                out[index] = active
        return out

    def _section_date(self, line: str) -> dt.date | None:
        """The date of a section start (date.max when it holds no valid date), else None."""
        for pattern in self.allowlist.sections:
            match = pattern.search(line)
            if match:
                text = match.group("date") or ""
                digits = re.fullmatch(r"(\d{4})-?(\d{2})-?(\d{2})", text)
                day = _date(*digits.groups()) if digits else None
                return day if day is not None else dt.date.max
        return None

    def records(self) -> list[RecordClass]:
        return [r for r, _ in self._records]


def _date(year: str, month: str, day: str) -> dt.date | None:
    try:
        value = dt.date(int(year), int(month), int(day))
    except ValueError:
        return None
    return value if 1970 <= value.year <= 2200 else None


def _marker_note(line: str, marker: str) -> str:
    after = line.split(marker, 1)[1]
    for closer in ("-->", "*/", "#}", "%}"):
        after = after.replace(closer, "")
    note = after.strip().lstrip(":-—").strip()
    return note or "marked on the line"
