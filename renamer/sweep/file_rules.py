"""Rules that read a whole file before each reference is decided, and after: the submodule paths
of .gitmodules, and the SOA serial that goes with a zone's edits (a zone's names: zone_rules.py)."""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import replace

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


_SUBMODULE_PATH = re.compile(rb"^[ \t]*(?:path[ \t]*=|\[submodule\b)")


def submodule_paths_refused(data: bytes, matches: list[Match]) -> list[Match]:
    """In .gitmodules a `path =` line or a section name follows the submodule's checkout and
    its folder in .git/modules: rewritten alone, git no longer finds the submodule."""
    out = []
    for m in matches:
        line = data[data.rfind(b"\n", 0, m.start) + 1:]
        out.append(replace(m, refused="submodule") if _SUBMODULE_PATH.match(line) else m)
    return out
