"""The one clock of the DNS transitions: what time it is now, in UTC.

`RENAMER_NOW` (a date, `2026-11-05`, or a UTC time, `2026-11-05T12:00:00Z`) sets it: for tests and
rehearsals (what will `dns plan` say the day after an alias expires?). It is read where a command
starts (sites.locate_inventory) and handed down as a value; nothing below reads the clock itself.
"""

from __future__ import annotations

import datetime as dt
import os

from renamer.errors import ConfigError

ENV = "RENAMER_NOW"


def now() -> dt.datetime:
    """Now, aware, in UTC: RENAMER_NOW where it is set (a bad value: ConfigError, exit 2)."""
    raw = os.environ.get(ENV)
    if raw is None or not raw.strip():
        return dt.datetime.now(dt.UTC)
    text = raw.strip()
    try:
        if "T" not in text:
            day = dt.date.fromisoformat(text)
            return dt.datetime(day.year, day.month, day.day, tzinfo=dt.UTC)
        stamp = dt.datetime.fromisoformat(text)
    except ValueError:
        stamp = None
    if stamp is None or stamp.tzinfo is None or stamp.utcoffset() != dt.timedelta(0):
        raise ConfigError(f"{ENV}: expected a date like 2026-11-05 or a UTC time like 2026-11-05T12:00:00Z, "
                          f"got {raw!r}")
    return stamp.astimezone(dt.UTC)


def at_start_of(day: dt.date) -> dt.datetime:
    """00:00 UTC of `day`: where a window counted from a date (the cutover) begins."""
    return dt.datetime(day.year, day.month, day.day, tzinfo=dt.UTC)


def shown_time(moment: dt.datetime) -> str:
    """`2026-11-04` at midnight UTC, else `2026-11-04 12:00 UTC`."""
    if moment.time() == dt.time(0, 0):
        return moment.date().isoformat()
    return f"{moment:%Y-%m-%d %H:%M} UTC"


def faked(real: dt.datetime | None = None) -> str | None:
    """Where RENAMER_NOW is set, one line saying so and how far it is from the real clock (`real`,
    else the system's): a command that writes (dns apply, dns export ansible) prints it first, so a
    variable left exported after a rehearsal never retires or restores an alias unsaid (t24-alias
    finding 16). None where the clock is the real one."""
    raw = os.environ.get(ENV)
    if raw is None or not raw.strip():
        return None
    fake = now()
    real = real or dt.datetime.now(dt.UTC)
    seconds = (fake - real).total_seconds()
    size = abs(seconds)
    if size >= 86400:
        off = f"{size / 86400:.0f} days"
    elif size >= 3600:
        off = f"{size / 3600:.0f} hours"
    else:
        off = f"{size / 60:.0f} minutes"
    side = "after" if seconds > 0 else "before"
    return (f"{ENV}={raw.strip()} sets the clock ({off} {side} the real clock, {real:%Y-%m-%d %H:%M} UTC): "
            "transitional aliases are served or retired by it, not by today; unset it unless this is meant")
