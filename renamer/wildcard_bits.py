"""A non-contiguous Cisco wildcard right after a moved network's address (issue 33, t31-33 finding 05).

`access-list 110 permit ip 10.0.48.0 0.0.0.254 any` matches every even host of 10.0.48.0/24: the
wildcard's zero bits are compared, its one bits are free. Its bits above the old host part are
the network's (all compared); its bits inside the host part are a pattern. Under a resize the
pattern stays and the network part follows the new length:

- a grow (/24 -> /22) frees the bits the new network adds to the host part: `0.0.0.254` becomes
  `0.0.3.254` (every even host of the /22), as the contiguous `0.0.0.255` becomes `0.0.3.255`;
- a shrink (/24 -> /25) keeps the wildcard where none of its one bits lies in the part the new
  network takes from the host part (`10.0.48.0 0.0.0.126`: even hosts of the lower half, all in
  the /25); where one does (`0.0.0.254`: hosts .128-.254 too) the rule matches addresses outside
  the new network, and the sweep refuses it (no rewrite could keep its meaning).

A wildcard whose one bits reach above the old host part (`10.0.48.0 0.0.1.254`) names more than
the moved network: it is no hit (another network's rule). Contiguous wildcards and netmasks are
prefix_moves' own (`_old_lengths`); 0.0.0.0 and 255.255.255.255 are neither. Pure.
"""

from __future__ import annotations

import ipaddress
import re
from dataclasses import dataclass

from renamer.names import IPNetwork

# The blank between an address and the wildcard after it (`A W`), nothing else.
_BETWEEN = re.compile(rb"[ \t]+")


@dataclass(frozen=True)
class WildcardChange:
    """A non-contiguous wildcard's new text, or why it is refused (`outside`)."""

    new: str
    outside: str | None = None


def is_pattern(text: str) -> bool:
    """A dotted value that is neither a netmask nor a contiguous wildcard, nor 0 or all ones."""
    try:
        value = int(ipaddress.IPv4Address(text))
    except ValueError:
        return False
    inverted = value ^ 0xFFFFFFFF
    contiguous = (inverted & (inverted + 1)) == 0 or (value & (value + 1)) == 0
    return not contiguous


def adjacent(data: bytes, address_end: int, start: int) -> bool:
    """Is the wildcard at `start` directly after the address ending at `address_end` (blanks only)?"""
    return _BETWEEN.fullmatch(data, address_end, start) is not None


def change(text: str, old: IPNetwork, new: IPNetwork) -> WildcardChange | None:
    """The wildcard `text` after an address of `old` when `old` becomes `new`: its new text (the
    pattern bits kept, the host bits the grow adds freed), a refusal where a shrink leaves it
    matching addresses outside `new`, or None (not a pattern over `old`'s host part, or unchanged)."""
    if old.version != 4 or new.version != 4 or not is_pattern(text):
        return None
    value = int(ipaddress.IPv4Address(text))
    old_host = int(old.hostmask)
    if value & ~old_host & 0xFFFFFFFF:
        return None  # its free bits reach above the moved network: another network's rule
    new_host = int(new.hostmask)
    if new.prefixlen < old.prefixlen:  # a grow: the added host bits are free
        return WildcardChange(str(ipaddress.IPv4Address(value | (new_host & ~old_host))))
    lost = old_host & ~new_host
    if value & lost:
        return WildcardChange(text, outside=(
            f"the wildcard {text} frees bits the new, smaller network {new} compares: its rule "
            f"matches addresses outside it (of {old}); narrow it by hand"))
    return None
