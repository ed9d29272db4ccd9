"""renamer explain's words for the rule that decided: a file's status (the exclude or `current`
pattern, the record class, with its file:line) and a kept reference's (record class, keep rule,
dated section, inline marker)."""

from __future__ import annotations

from renamer.allowlist import Exemption
from renamer.classify import CURRENT, EXCLUDED, RECORD, FileClass, PathPatterns
from renamer.project import LoadedProject
from renamer.sweep.model import Reference


def file_rule(project: LoadedProject, rel: str, klass: FileClass) -> str:
    allowlist = project.allowlist
    if klass.status == EXCLUDED:
        for pattern in allowlist.exclude:
            if PathPatterns([pattern]).match_file(rel):
                return f"exclude pattern {pattern!r} ({allowlist.where('exclude', pattern)}): never scanned"
        return ("one of renamer's own files (its config, an allowlist, the DNS inventory, a past move) "
                "or git's: never swept")
    if klass.status == RECORD:
        record = next((r for r in allowlist.records if r.name == klass.reason), None)
        if record is None:  # a dated file
            return f"record: {klass.note}"
        return f"record: {_exemption(record, _first_pattern(record.patterns, rel))}"
    if klass.status == CURRENT:
        pattern = _first_pattern(allowlist.current, rel)
        rule = f"current state: `current` pattern {pattern!r} ({allowlist.where('current', pattern)})"
        return f"{rule}; {klass.note}" if klass.note else rule  # a preset folder's file a live file includes
    return f"unclassified: {klass.note}"


def _first_pattern(patterns: tuple[str, ...], rel: str) -> str:
    return next((p for p in patterns if PathPatterns([p]).match_file(rel)), patterns[0] if patterns else "")


def _exemption(exemption: Exemption, pattern: str | None = None) -> str:
    parts = [f"{exemption.label} ({exemption.where}{', preset' if exemption.inherited else ''})"]
    if pattern:
        parts.append(f"pattern {pattern!r}")
    if exemption.owner:
        parts.append(f"owner {exemption.owner}")
    if exemption.expires:
        parts.append(f"expires {exemption.expires}")
    return ", ".join(parts) + f": {exemption.reason}"


def kept_rule(project: LoadedProject, rel: str, ref: Reference, lines: list[str]) -> str:
    allowlist = project.allowlist
    for record in allowlist.records:
        if record.name == ref.reason:
            return _exemption(record, _first_pattern(record.patterns, rel))
    for rule in allowlist.keep:
        if rule.name == ref.reason:
            contains = f", line contains {rule.line_contains!r}" if rule.line_contains else ""
            contains += f", key path {rule.key}" if rule.key else ""
            return f"{_exemption(rule, _first_pattern(rule.patterns, rel))}{contains}"
    if ref.reason == "dated-section" and 0 < ref.line <= len(lines):
        exemption = project.classifier.line_exemptions(rel, lines, [ref.line - 1]).get(ref.line - 1)
        if exemption is not None and exemption.start >= 0:
            return (f"dated section from line {exemption.start + 1} "
                    f"({lines[exemption.start].strip()[:80]!r}): {exemption.note}")
    if ref.reason == "inline":
        return f"inline marker {allowlist.inline_marker!r} on the line: {ref.note}"
    return f"{ref.reason}: {ref.note}"
