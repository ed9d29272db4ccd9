"""Old values in a binary current-state file that no boundary rule sees (break-it round 21,
finding 19): a SQLite row stores `('web01', '10.0.0.70')` as the bytes `web0110.0.0.70`, so the
matcher reads `web0110`, another name, and the file was not even listed as skipped; a gzip'd
configuration (`hosts.conf.gz`) was never looked into. Neither is rewritten (a binary file never
is): the first old value found as plain bytes (in a gzip file, in its decompressed text) makes the
file "skipped, holding old values", which `verify --strict` fails on, naming how it was found.
"""

from __future__ import annotations

import ipaddress

from renamer import lazy_re
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
        # an address or network literal a network move changes (t36-33 finding 10), as the text
        # reader sees it (a grow in place leaves its addresses and changes its `/24`)
        changed = [m for m in (matcher.find(text) if matcher.networks else [])
                   if m.kind == "network" and (m.new != m.old or m.refused is not None)]
        if changed:
            first = changed[0]
            note = (f"{name}-compressed: its text holds {first.old} once decompressed, which a network move "
                    f"changes (`{compressed.tool(name)}` shows it)")
            return [Match(0, 2, first.old, first.new, "network", note=note)]
        return []
    found = [(data.find(old.encode()), old, new, kind) for old, new, kind in olds]
    hits = sorted((at, old, new, kind) for at, old, new, kind in found if at >= 0)
    if not hits:
        moved = _first_moved(data, matcher)
        if moved is None:
            return []
        at, old, new, why = moved
        note = (f"{old} stands in its bytes glued to what surrounds it (a database row, a packed record), "
                f"{why}")
        return [Match(at, at + len(old), old, new, "network", note=note)]
    at, old, new, kind = hits[0]
    note = f"{old} stands in its bytes glued to what surrounds it (a database row, a packed record)"
    return [Match(at, at + len(old), old, new, kind, note=note)]


# A dotted quad anywhere in bytes, glued or not (`web0110.0.0.70`: its longest tail that is one).
_QUAD = lazy_re.compile(rb"[0-9]{1,3}(?:\.[0-9]{1,3}){3}(?![0-9])")


def _first_moved(data: bytes, matcher: Matcher) -> tuple[int, str, str, str] | None:
    """(offset, address, new network, why) of the first IPv4 address in `data` that a network move
    carries (issue 33, t36-33 finding 10: a compressed or binary file holding one was never listed)."""
    moves = [(old, new) for old, new in matcher.networks if old.version == 4]
    if not moves:
        return None
    for found in _QUAD.finditer(data):
        try:
            address = ipaddress.IPv4Address(found.group().decode("ascii"))
        except ValueError:
            continue
        for old, new in moves:
            if address in old and new.network_address + (int(address) - int(old.network_address)) != address:
                return found.start(), str(address), str(new), f"inside {old}, which moves to {new}"
    return None
