"""A duration as renamer.yaml and the site files write it: a whole number and one unit, `12h`, `30d`,
`2w` (a DNS transition's window). Parsed strictly: anything else is refused, never guessed."""

from __future__ import annotations

import datetime as dt
from typing import Any

from renamer import lazy_re

_DURATION = lazy_re.compile(r"([1-9][0-9]{0,5})([hdw])\Z")
_HOURS = {"h": 1, "d": 24, "w": 24 * 7}
LONGEST = dt.timedelta(days=36500)
EXPECTED = "expected a duration like 30d, 12h or 2w (a whole number, then h, d or w)"


def parse_duration(value: Any) -> dt.timedelta | None:
    """`30d` -> 30 days; None for anything that is not one whole positive number and one unit of
    h, d or w, written exactly so (no space, no sign, no fraction, no upper case), or longer than
    LONGEST. YAML's own numbers (`30`) are refused: a bare number names no unit."""
    if not isinstance(value, str):
        return None
    found = _DURATION.match(value)
    if found is None:
        return None
    duration = dt.timedelta(hours=int(found.group(1)) * _HOURS[found.group(2)])
    return duration if duration <= LONGEST else None


def shown_duration(duration: dt.timedelta) -> str:
    """The duration as written back: `30d`, `12h`, `2w` (the largest unit that divides it)."""
    hours = int(duration.total_seconds()) // 3600
    for unit in ("w", "d"):
        if hours % _HOURS[unit] == 0:
            return f"{hours // _HOURS[unit]}{unit}"
    return f"{hours}h"
