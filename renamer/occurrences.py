"""An occurrence of an old value (`Match`), and the rules that turn occurrences inside a range or a
pattern into refusals: one member renamed breaks the set, and no substitution knows what a pattern
should become."""

from __future__ import annotations

import bisect
from dataclasses import dataclass, replace

from renamer.context import RangeRule
from renamer.patterns import PatternHit


@dataclass(slots=True)  # not frozen, never changed: a dense file makes millions, 4x cheaper so
class Match:
    """One occurrence of an old value: byte span, the text as it stands, its replacement."""

    start: int
    end: int
    old: str
    new: str
    kind: str  # host | address | reverse | network
    derived: bool = False  # a host matched as the stem of a longer name (derived_names)
    refused: str | None = None  # why this occurrence must not be rewritten (e.g. supernet)
    kept: str | None = None  # why it is left on purpose, not a failure (an account)
    note: str | None = None  # what its refusal adds to the reason's hint (a variable's definition)


def with_ranges(matches: list[Match], spans: list[tuple[tuple[int, int], RangeRule]]) -> list[Match]:
    """Matches inside a range refused; a range holding none becomes a refused match itself."""
    starts = [m.start for m in matches]
    inside: set[int] = set()
    added: list[Match] = []
    for (start, end), rule in spans:  # in file order
        i = max(bisect.bisect_left(starts, start) - 1, 0)
        held = False
        while i < len(matches) and matches[i].start < end:
            if matches[i].end > start:
                inside.add(i)
                held = True
            i += 1
        if not held and not (added and added[-1].end > start):
            added.append(Match(start, end, rule.old, rule.new, rule.kind, refused="range"))
    out = [replace(m, refused="range") if i in inside and m.kind in ("host", "address") else m
           for i, m in enumerate(matches)]
    return sorted(out + added, key=lambda m: m.start) if added else out


def with_patterns(matches: list[Match], found: list[PatternHit],
                   olds: dict[str, tuple[str, str]]) -> list[Match]:
    """Patterns that overlap no match (`192[.]168[.]1[.]69` is an exact form) are refused matches."""
    starts = [m.start for m in matches]
    added = []
    for hit in found:
        i = max(bisect.bisect_left(starts, hit.start) - 1, 0)
        overlaps = False
        while i < len(matches) and matches[i].start < hit.end:
            overlaps = overlaps or matches[i].end > hit.start
            i += 1
        if not overlaps:
            new, kind = olds[hit.old]
            added.append(Match(hit.start, hit.end, hit.old, new, kind, refused="pattern", note=hit.note))
    return sorted(matches + added, key=lambda m: m.start) if added else matches
