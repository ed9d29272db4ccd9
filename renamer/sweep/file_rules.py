"""Rules that read a whole file before each reference is decided, and after: the submodule paths
of .gitmodules, the SOA serial that goes with a zone's edits (a zone's names: zone_rules.py), and
the length a length-prefixed string (PHP, RESP, netstring) carries with its text."""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import replace

from renamer import length_prefixed
from renamer.formats import Format
from renamer.occurrences import Match
from renamer.sweep.model import Edit


def with_serial(fmt: Format, data: bytes, edits: list[Edit]) -> tuple[list[Edit], tuple[str, str] | None]:
    """A zone file whose records change gets its SOA serial bumped in the same edit: BIND and
    CoreDNS's file plugin reload a zone only when its serial grows. Zone records with no usable
    SOA here (an $INCLUDE file, a serial out of range) are said to be left unbumped."""
    found = fmt.serial(data, dt.date.today())
    if found is None:
        return edits, None
    start, end, new, old_serial, new_serial = found
    if not new:
        return edits, (old_serial, "")  # a placeholder a deploy fills in, or none to bump
    if any(e.start < end and start < e.end for e in edits):
        return edits, None  # never: a serial holds no name or address
    return sorted([*edits, Edit(start, end, new)], key=lambda e: e.start), (old_serial, new_serial)


def with_lengths(data: bytes, edits: list[Edit]) -> list[Edit]:
    """The edits, plus the length of each length-prefixed string whose text they change
    (length_prefixed.py: PHP's `s:N:"..."`, Redis RESP `$N`, netstrings `N:...,`; break-it round
    21, finding 28: a WordPress option's `s:17:"web01.lab.example"` rewritten to a shorter name
    kept its 17, and unserialize() then fails; t28 finding 18: a Redis AOF refuses to load). A
    string inside another's text (a serialized value serialized again, a netstring of netstrings)
    counts the inner's new length too. An edit across a string's edge changes no length (it is no
    such string's text)."""
    if not edits:
        return edits
    spans = length_prefixed.spans(data)
    if not spans:
        return edits
    added: list[Edit] = []
    for digits, digits_end, begin, end, length in sorted(spans, key=lambda s: s[3] - s[2]):  # inner first
        inside = [e for e in (*edits, *added) if begin <= e.start and e.end <= end]
        if any(e.start < end and begin < e.end and e not in inside for e in edits):
            continue
        grown = sum(len(e.new) - (e.end - e.start) for e in inside)
        if grown:
            added.append(Edit(digits, digits_end, str(length + grown).encode()))
    return sorted([*edits, *added], key=lambda e: e.start) if added else edits


_SUBMODULE_PATH = re.compile(rb"^[ \t]*(?:path[ \t]*=|\[submodule\b)")


def submodule_paths_refused(data: bytes, matches: list[Match]) -> list[Match]:
    """In .gitmodules a `path =` line or a section name follows the submodule's checkout and
    its folder in .git/modules: rewritten alone, git no longer finds the submodule."""
    out = []
    for m in matches:
        line = data[data.rfind(b"\n", 0, m.start) + 1:]
        out.append(replace(m, refused="submodule") if _SUBMODULE_PATH.match(line) else m)
    return out
