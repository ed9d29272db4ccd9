"""Plain text, the format of every file no other format claims, and `.env` files.

A plain file is still read for zone records: zone data with no usable SOA here
(an $INCLUDE file, a serial out of range) needs its serial bumped where the zone
is, which renamer reports instead of doing. Only text that reads as zone records
counts (formats/zone.holds_records): a shell comment `# a 1.2.3.4` is none.
"""

from __future__ import annotations

import datetime as dt

from renamer.formats import keylines, zone
from renamer.formats.base import UNBUMPED, BaseFormat, Serial


class Text(BaseFormat):
    # No parser reads a plain file, but its key-like lines (a Jinja template's YAML keys, an
    # INI-style `.conf`'s sections) can still collide after a rename.
    checks_edits = True

    def claims(self, path: str, name: str, data: bytes) -> bool:
        return True

    def edit_problem(self, before: str, after: str) -> str | None:
        return keylines.collision(before, after)

    def serial(self, data: bytes, today: dt.date) -> Serial | None:
        return UNBUMPED if zone.holds_records(data) else None


class Env(Text):
    """`KEY=value` lines (.env, app.env): plain text whose secrets masking.py knows by line."""

    name = "env"

    def claims(self, path: str, name: str, data: bytes) -> bool:
        return name.lower().endswith(".env")


FORMAT = Text()
ENV = Env()
