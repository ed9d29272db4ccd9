"""The exemption lists of one allowlist file: `records:` and `keep:` entries checked into RecordClass
and KeepRule values."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from renamer.allowlist import KeepRule, RecordClass
from renamer.allowlist_fields import Origin, common_fields
from renamer.allowlist_sections import path_patterns
from renamer.formats.yaml_source import Problems, check_mapping, kind, list_at

_RECORD_KEYS = {"name", "paths", "reason", "expires", "owner"}
_KEEP_KEYS = {"name", "path", "paths", "line_contains", "key", "reason", "expires", "owner"}


def _entries(top: dict[str, Any], key: str, what: str, known: set[str],
             problems: Problems) -> Iterator[tuple[str, dict[str, Any]]]:
    """(key path, mapping) of each well-formed entry of the list at `key`, lazily, so that
    problems are noted in the order of the file."""
    raw = list_at(top, key, what, problems)
    for i, entry in enumerate(raw):
        keypath = f"{key}[{i}]"
        if check_mapping(entry, keypath, known, problems, raw, i) is not None:
            yield keypath, entry


def record_classes(top: dict[str, Any], problems: Problems, origin: Origin) -> list[RecordClass]:
    out = []
    for keypath, entry in _entries(top, "records", "record classes", _RECORD_KEYS, problems):
        common = common_fields(entry, keypath, problems, origin)
        patterns = path_patterns(entry, "paths", f"{keypath}.paths", problems)
        if "paths" not in entry:
            problems.add(entry, None, f"{keypath}.paths", "missing: which files are records")
        out.append(RecordClass(patterns=tuple(patterns), **common))
    return out


def keep_rules(top: dict[str, Any], problems: Problems, origin: Origin) -> list[KeepRule]:
    out = []
    for keypath, entry in _entries(top, "keep", "keep rules", _KEEP_KEYS, problems):
        common = common_fields(entry, keypath, problems, origin)
        patterns = path_patterns(entry, "path", f"{keypath}.path", problems)
        patterns += path_patterns(entry, "paths", f"{keypath}.paths", problems)
        if not patterns and "path" not in entry and "paths" not in entry:  # a bad one is said already
            problems.add(entry, None, f"{keypath}.path", "missing: which file the rule applies to")
        contains = entry.get("line_contains")
        if contains is not None and (not isinstance(contains, str) or not contains):
            problems.add(entry, "line_contains", f"{keypath}.line_contains",
                         f"expected a non-empty string, got {kind(contains)}")
            contains = None
        key = entry.get("key")
        if key is not None and (not isinstance(key, str) or not key.strip() or "\n" in key):
            problems.add(entry, "key", f"{keypath}.key", f"expected a key path on one line "
                                                          f"(`locals.nodes.pug`), got {kind(key)}")
            key = None
        out.append(KeepRule(patterns=tuple(patterns), line_contains=contains,
                            key=key.strip() if key else None, **common))
    return out
