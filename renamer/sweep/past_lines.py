"""Lines a sweep would rewrite that look like a record (newcomer pass 2 B3): in a current-state
prose file (a plan, a runbook that also tells how a step ran), an old value in a paragraph that
holds a date on or before the cutover, or under a heading that holds one anywhere (the dated
sections rule asks for the date at the heading's start). The sweep still rewrites them: a date
is no proof of history, and a live line may carry one. The dry run lists them, with the date
that makes each look so, for a keep rule, the inline marker or `dated.sections` to decide."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from renamer import lazy_re
from renamer.formats.prose import is_prose
from renamer.sweep.content import read_scanned
from renamer.sweep.model import FileResult

_DATE = lazy_re.compile(rb"(?<![0-9])(\d{4})-(\d{2})-(\d{2})(?![0-9])")
_HEADING = lazy_re.compile(rb"\s{0,3}#{1,6}\s")


@dataclass(frozen=True)
class PastLine:
    path: str
    line: int  # 1-based, the line the sweep rewrites
    old: str  # the old values the sweep rewrites on the line, in order, ", " between
    date: str  # the date that makes it look like a record
    date_line: int  # where that date stands (the line's paragraph, or its heading)


def past_lines(root: Path, files: Sequence[FileResult], cutover: dt.date | None,
               today: dt.date) -> list[PastLine]:
    """Each line of a current-state prose file the sweep rewrites whose paragraph (or heading)
    holds a date on or before the cutover (without one: before today)."""
    limit = cutover or today - dt.timedelta(days=1)
    out: list[PastLine] = []
    for result in files:
        if not result.edits or not is_prose(result.path):
            continue
        # every old value on the line, a name beside an address too (break-it round 11, finding 8)
        olds: dict[int, list[str]] = {}
        for ref in sorted(result.references, key=lambda r: (r.line, r.column)):
            if ref.rewritable and ref.role != "path" and ref.old not in olds.get(ref.line, []):
                olds.setdefault(ref.line, []).append(ref.old)
        rewritten = {line: ", ".join(values) for line, values in olds.items()}
        if not rewritten:
            continue
        try:
            lines = read_scanned(root / result.path).split(b"\n")
        except OSError:
            continue
        for number, old in sorted(rewritten.items()):
            found = _dated(lines, number - 1, limit)
            if found is not None:
                out.append(PastLine(result.path, number, old, found[0], found[1] + 1))
    return out


def _dated(lines: list[bytes], index: int, limit: dt.date) -> tuple[str, int] | None:
    """A date on or before `limit` in the paragraph of line `index`, else in its heading."""
    start = index
    while start > 0 and lines[start - 1].strip() and not _HEADING.match(lines[start]):
        start -= 1
    end = index
    while end + 1 < len(lines) and lines[end + 1].strip() and not _HEADING.match(lines[end + 1]):
        end += 1
    places = list(range(start, end + 1))
    heading = next((i for i in range(start, -1, -1) if _HEADING.match(lines[i])), None)
    if heading is not None and heading not in places:
        places.append(heading)
    for at in places:
        for match in _DATE.finditer(lines[at]):
            try:
                day = dt.date(int(match[1]), int(match[2]), int(match[3]))
            except ValueError:
                continue
            if day <= limit:
                return match.group().decode(), at
    return None
