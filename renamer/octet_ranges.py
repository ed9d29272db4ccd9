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

Ranges of hosts inside (`.1-.254`, `.100-.200`) keep their offsets, as every address does
(docs/matching.md). Pure: `extra` reads the bytes and the moves, the Matcher merges the result.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Sequence
from dataclasses import dataclass

from renamer.prefix_moves import PrefixMove

# A dotted address followed by a dash and a last octet (`10.0.48.100-200`, `10.0.48.0 - .255`).
_SHORT = re.compile(rb"(?<![A-Za-z0-9.])((?:[0-9]{1,3}\.){3}[0-9]{1,3})"
                    rb"([ \t]*-[ \t]*\.?([0-9]{1,3}))(?![0-9A-Za-z_]|\.[0-9])")


@dataclass(frozen=True)
class OctetRange:
    start: int
    end: int
    old: str
    new: str
    outside: str | None = None  # why it is refused (a shrink), else None


def whole_new(move: PrefixMove) -> str:
    """The new network as a range, short where its ends share their first three octets."""
    first, last = str(move.new.network_address), str(move.new.broadcast_address)
    if first.rsplit(".", 1)[0] == last.rsplit(".", 1)[0]:
        return f"{first}-{last.rsplit('.', 1)[1]}"
    return f"{first}-{last}"


def extra(data: bytes, moves: Sequence[PrefixMove], taken: set[int]) -> list[OctetRange]:
    """Short ranges of a resized IPv4 move: the whole old network (rewritten whole) and, where no
    match stands on the first end (`taken`: the starts of matches), a second end a shrink leaves
    outside (refused)."""
    resized = [m for m in moves if m.resized and m.old.version == 4]
    if not resized or b"-" not in data:
        return []
    out = []
    for x in _SHORT.finditer(data):
        try:
            first = ipaddress.IPv4Address(x.group(1).decode())
            other = ipaddress.IPv4Address(f"{x.group(1).decode().rsplit('.', 1)[0]}.{int(x.group(3))}")
        except ValueError:
            continue
        move = next((m for m in resized if m.offset_of(first) is not None), None)
        if move is None or int(other) < int(first):
            continue
        text = x.group().decode()
        if first == move.old.network_address and other == move.old.broadcast_address:
            out.append(OctetRange(x.start(), x.end(), text, whole_new(move)))
        elif x.start() not in taken and move.offset_of(other) is not None and not move.fits(other):
            out.append(OctetRange(x.start(), x.end(), text, text,
                                  f"`{text}`: the range's other end, {move.why_not(other)}"))
    return out
