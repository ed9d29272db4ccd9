"""Ranges of last octets under a resize (`10.0.48.100-200`, `10.0.48.0-255`; t31-33 finding 01).

`Matcher._short_ranges` decides a short range whose first end the move rewrites. Two cases it
never saw:

* **A first end a resize in place leaves where it is** (`10.0.48.100-200` under `10.0.48.0/24:
  10.0.48.0/25`): the address is unchanged, so no match stands on it, yet the second end
  (10.0.48.200) lies outside the new, smaller network: refused (`outside-prefix`) at the range,
  as its long spelling `10.0.48.100 - 10.0.48.200` is.
* **The whole old network** (`10.0.48.0-255`, from its network address to its broadcast
  address): under a resize it is the whole new network, as the long spelling
  `10.0.48.0-10.0.48.255` becomes `10.0.60.0-10.0.63.255`: rewritten whole, short where the new
  network's ends share their first three octets (`10.0.48.0-127` under `/24 -> /25`), else long.

Any dash of `DASH` joins the ends (t32-33 finding 12: `10.0.48.100–200` with an en dash, as
Markdown tables write it, is the same range), here, in `Matcher._short_ranges` and in the long
spelling two whole addresses make (`Matcher`'s `_DASHED`); the whole network keeps its dash.

Ranges of hosts inside (`.1-.254`, `.100-.200`) keep their offsets, as every address does
(docs/matching.md). Pure: `extra` reads the bytes and the moves, the Matcher merges the result.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Sequence
from dataclasses import dataclass

from renamer import lazy_re
from renamer.prefix_moves import PrefixMove

# The dash of a range: ASCII's hyphen-minus, or in UTF-8 the hyphen, the non-breaking hyphen, the
# figure dash, the en dash, the em dash (U+2010-2014) and the minus sign (U+2212), as Markdown tables
# and word processors write `10.0.48.100–200` (t32-33 finding 12).
DASH = rb"(?:-|\xe2\x80[\x90-\x94]|\xe2\x88\x92)"
_ANY_DASH = lazy_re.compile(DASH)
# A dotted address followed by a dash and a last octet (`10.0.48.100-200`, `10.0.48.0 - .255`).
_SHORT = lazy_re.compile(rb"(?<![A-Za-z0-9.])((?:[0-9]{1,3}\.){3}[0-9]{1,3})"
                    rb"([ \t]*(" + DASH + rb")[ \t]*\.?([0-9]{1,3}))(?![0-9A-Za-z_]|\.[0-9])")


def has_dash(data: bytes) -> bool:
    """Can `data` hold a range's dash (any of `DASH`)?"""
    return b"-" in data or _ANY_DASH.search(data) is not None


@dataclass(frozen=True)
class OctetRange:
    start: int
    end: int
    old: str
    new: str
    outside: str | None = None  # why it is refused (a shrink), else None


def whole_new(move: PrefixMove, dash: str = "-") -> str:
    """The new network as a range, short where its ends share their first three octets; `dash` as
    the range was written."""
    first, last = str(move.new.network_address), str(move.new.broadcast_address)
    if first.rsplit(".", 1)[0] == last.rsplit(".", 1)[0]:
        return f"{first}{dash}{last.rsplit('.', 1)[1]}"
    return f"{first}{dash}{last}"


def _ends_apart(data: bytes, x: re.Match[bytes], move: PrefixMove) -> list[OctetRange]:
    """The whole old network written with a dash beyond ASCII (`10.0.48.0–255`): its first
    address and its tail (`255`, `.255`) rewritten as the whole new network's, the dash left."""
    new = whole_new(move, "-")
    first, last = new.split("-")
    tail_start = x.start(4) - (1 if data[x.start(4) - 1:x.start(4)] == b"." else 0)
    tail = data[tail_start:x.end(4)].decode("ascii")
    new_tail = ("." if tail.startswith(".") else "") + last if "." not in last else last
    out = []
    if first != x.group(1).decode("ascii"):
        out.append(OctetRange(x.start(1), x.end(1), x.group(1).decode("ascii"), first))
    if new_tail != tail:
        out.append(OctetRange(tail_start, x.end(4), tail, new_tail))
    return out


def extra(data: bytes, moves: Sequence[PrefixMove], taken: set[int]) -> list[OctetRange]:
    """Short ranges of a resized IPv4 move: the whole old network (rewritten whole) and, where no
    match stands on the first end (`taken`: the starts of matches), a second end a shrink leaves
    outside (refused)."""
    resized = [m for m in moves if m.resized and m.old.version == 4]
    if not resized or not has_dash(data):
        return []
    out = []
    for x in _SHORT.finditer(data):
        try:
            first = ipaddress.IPv4Address(x.group(1).decode())
            other = ipaddress.IPv4Address(f"{x.group(1).decode().rsplit('.', 1)[0]}.{int(x.group(4))}")
        except ValueError:
            continue
        move = next((m for m in resized if m.offset_of(first) is not None), None)
        if move is None or int(other) < int(first):
            continue
        text = x.group().decode()
        if first == move.old.network_address and other == move.old.broadcast_address:
            if x.group(3) == b"-":
                out.append(OctetRange(x.start(), x.end(), text, whole_new(move)))
            else:  # a dash beyond ASCII stays as written: the two ends are rewritten apart
                out.extend(_ends_apart(data, x, move))
        elif x.start() not in taken and move.offset_of(other) is not None and not move.fits(other):
            out.append(OctetRange(x.start(), x.end(), text, text,
                                  f"`{text}`: the range's other end, {move.why_not(other)}"))
    return out
