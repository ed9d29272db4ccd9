"""The settings sections of one allowlist file, `dated:` and `near_miss:`, and the lists of path
patterns and regular expressions that it and its entries are made of."""

from __future__ import annotations

import re
from typing import Any

from renamer.allowlist_merge import Partial
from renamer.classify import compile_problem
from renamer.formats.yaml_source import Problems, check_mapping, kind, line_of, list_at, shown
from renamer.glob_grammar import pattern_problem
from renamer.regex_guard import UnsafeRegex, compile_untrusted

_NEAR_MISS_KEYS = {"ignore", "paths"}
_DATED_KEYS = {"filenames", "sections", "section_paths"}


def places(top: dict[str, Any], key: str, display: str) -> list[str]:
    """file:line of each pattern of a list (or of the one string) at `key`."""
    raw = top.get(key, [])
    if isinstance(raw, str):
        return [f"{display}:{line_of(top, key)}"]
    return [f"{display}:{line_of(raw, i)}" for i in range(len(raw))] if isinstance(raw, list) else []


def path_patterns(section: dict[str, Any], key: str, keypath: str, problems: Problems) -> list[str]:
    raw = section.get(key, [])
    if isinstance(raw, str):  # one pattern: its problem is said at the key
        why = (pattern_problem(raw) or compile_problem(raw)) if raw.strip() else "is empty"
        if why:
            problems.add(section, key, keypath, f"{shown(raw)} {why}")
            return []
        return [raw]
    if not isinstance(raw, list):
        problems.add(section, key, keypath, f"expected a list of path patterns, got {kind(raw)}")
        return []
    out = []
    for i, item in enumerate(raw):
        if not isinstance(item, str) or not item.strip():
            problems.add(raw, i, f"{keypath}[{i}]", f"expected a path pattern, got {kind(item)}")
            continue
        why = pattern_problem(item) or compile_problem(item)
        if why:
            problems.add(raw, i, f"{keypath}[{i}]", f"{shown(item)} {why}")
            continue
        out.append(item)
    return out


def read_dated(top: dict[str, Any], problems: Problems, partial: Partial) -> None:
    section = _section(top, "dated", _DATED_KEYS, problems)
    if section is None:
        return
    if "filenames" in section:
        if not isinstance(section["filenames"], bool):
            problems.add(section, "filenames", "dated.filenames", "expected true or false")
        else:
            partial.dated_filenames = section["filenames"]
    if "section_paths" in section:
        partial.section_paths = path_patterns(section, "section_paths", "dated.section_paths", problems)
    if "sections" in section:
        raw_sections = section["sections"]
        if not isinstance(raw_sections, list):
            problems.add(section, "sections", "dated.sections", "expected a list of regular expressions")
            return
        compiled = []
        for i, regex in _regexes(raw_sections, "dated.sections", problems):
            if "date" not in regex.groupindex:
                problems.add(raw_sections, i, f"dated.sections[{i}]",
                             "needs a named group (?P<date>...) for the date")
                continue
            compiled.append(regex)
        partial.sections = compiled


def _section(top: dict[str, Any], key: str, known: set[str], problems: Problems) -> dict[str, Any] | None:
    """The mapping at `key` with only known keys noted as problems; None when absent or broken."""
    raw = top.get(key)
    return None if raw is None else check_mapping(raw, key, known, problems, top, key)


def read_near_miss(top: dict[str, Any], problems: Problems, partial: Partial) -> None:
    """`near_miss: {ignore: [regex...], paths: [pattern...]}`: near-misses a user has decided on."""
    section = _section(top, "near_miss", _NEAR_MISS_KEYS, problems)
    if section is None:
        return
    partial.near_miss_paths = path_patterns(section, "paths", "near_miss.paths", problems)
    raw = list_at(section, "ignore", "regular expressions", problems)
    partial.near_miss_ignore = [regex for _, regex in _regexes(raw, "near_miss.ignore", problems)]


def _regexes(raw: list[Any], keypath: str, problems: Problems) -> list[tuple[int, re.Pattern[str]]]:
    """(index, compiled) of each valid regular expression of a list; the others are problems."""
    out = []
    for i, pattern in enumerate(raw):
        if not isinstance(pattern, str) or not pattern:
            problems.add(raw, i, f"{keypath}[{i}]", f"expected a regular expression, got {kind(pattern)}")
            continue
        try:
            out.append((i, compile_untrusted(pattern)))  # a repo's regex: refused if it could hang
        except UnsafeRegex as exc:
            problems.add(raw, i, f"{keypath}[{i}]", f"refused regular expression: {exc}")
        except (re.error, OverflowError, RecursionError) as exc:
            problems.add(raw, i, f"{keypath}[{i}]", f"invalid regular expression: {exc}")
    return out
