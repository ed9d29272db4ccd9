"""Rules that read a whole file before each reference is decided, and after: the PTR owners of a
reverse zone, the submodule paths of .gitmodules, and the SOA serial that goes with a zone's edits."""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import replace

from renamer.formats import Format, zone
from renamer.match import Matcher
from renamer.occurrences import Match
from renamer.sweep.model import Edit


def with_reverse_owners(data: bytes, matches: list[Match], matcher: Matcher) -> list[Match]:
    """The relative PTR owners of old addresses in a reverse zone: rewritten when the new address
    lies in the same zone, else refused (the record must move to another zone file). A refused
    owner refuses its whole record: the PTR target renamed while the owner stays would tell
    resolvers the old address is the new host."""
    owners = zone.reverse_owners(data, matcher.renumbered, matcher.zone_moves)
    if not owners:
        return matches
    spans = [(m.start, m.end) for m in matches]
    added = [Match(start, end, old, new or "(another zone)", "reverse",
                   refused=None if new else "reverse-owner")
             for start, end, old, new in owners if not any(s < end and start < e for s, e in spans)]
    stuck = [(start, _line_end(data, start)) for start, _, _, new in owners if new is None]
    kept = [replace(m, refused="reverse-owner") if m.refused is None and m.kept is None
            and any(start < m.start < end for start, end in stuck) else m for m in matches]
    return sorted([*kept, *added], key=lambda m: m.start)


def _line_end(data: bytes, start: int) -> int:
    end = data.find(b"\n", start)
    return len(data) if end == -1 else end


def with_serial(fmt: Format, data: bytes, edits: list[Edit]) -> tuple[list[Edit], tuple[str, str] | None]:
    """A zone file whose records change gets its SOA serial bumped in the same edit: BIND and
    CoreDNS's file plugin reload a zone only when its serial grows. Zone records with no usable
    SOA here (an $INCLUDE file, a serial out of range) are said to be left unbumped."""
    found = fmt.serial(data, dt.date.today())
    if found is None:
        return edits, None
    start, end, new, old_serial, new_serial = found
    if not new:
        return edits, ("", "")
    if any(e.start < end and start < e.end for e in edits):
        return edits, None  # never: a serial holds no name or address
    return sorted([*edits, Edit(start, end, new)], key=lambda e: e.start), (old_serial, new_serial)


_SUBMODULE_PATH = re.compile(rb"^[ \t]*(?:path[ \t]*=|\[submodule\b)")


def submodule_paths_refused(data: bytes, matches: list[Match]) -> list[Match]:
    """In .gitmodules a `path =` line or a section name follows the submodule's checkout and
    its folder in .git/modules: rewritten alone, git no longer finds the submodule."""
    out = []
    for m in matches:
        line = data[data.rfind(b"\n", 0, m.start) + 1:]
        out.append(replace(m, refused="submodule") if _SUBMODULE_PATH.match(line) else m)
    return out
