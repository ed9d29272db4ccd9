"""Old values in a binary current-state file that no boundary rule sees (break-it round 21,
finding 19): a SQLite row stores `('web01', '10.0.0.70')` as the bytes `web0110.0.0.70`, so the
matcher reads `web0110`, another name, and the file was not even listed as skipped; a gzip'd
configuration (`hosts.conf.gz`) was never looked into. Neither is rewritten (a binary file never
is): the first old value found as plain bytes (in a gzip file, in its decompressed text) makes the
file "skipped, holding old values", which `verify --strict` fails on, naming how it was found.
"""

from __future__ import annotations

from renamer.match import Matcher
from renamer.occurrences import Match
from renamer.sweep import compressed


def binary_hits(data: bytes, matcher: Matcher, limit: int) -> list[Match]:
    """One match for the first old value `data` holds as plain bytes (or, gzip-compressed, in its
    text decompressed up to `limit` bytes); empty where it holds none."""
    olds = [(old, new, "host") for old, new in matcher.hosts] + [
        (old, new, "address") for old, new in matcher.addresses]
    name = compressed.kind(data)
    if name is not None:  # gzip, xz, bzip2, zip (issue 27, round 22 finding 21): its text decompressed
        try:
            text = compressed.expanded(data, limit)
        except (compressed.Unopened, compressed.Encrypted):
            return []  # listed as not read or encrypted (sweep/unread_content.py)
        for old, new, kind in olds:
            if old.encode() in text:
                note = (f"{name}-compressed: its text holds {old} once decompressed "
                        f"(`{compressed.tool(name)}` shows it)")
                return [Match(0, 2, old, new, kind, note=note)]
        return []
    found = [(data.find(old.encode()), old, new, kind) for old, new, kind in olds]
    hits = sorted((at, old, new, kind) for at, old, new, kind in found if at >= 0)
    if not hits:
        return []
    at, old, new, kind = hits[0]
    note = f"{old} stands in its bytes glued to what surrounds it (a database row, a packed record)"
    return [Match(at, at + len(old), old, new, kind, note=note)]
