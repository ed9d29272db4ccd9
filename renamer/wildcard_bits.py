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

A pattern whose highest free bit lies below the old host part's (`10.0.48.0 0.0.0.14`: even hosts
of the first 16) matches within a sub-block: it keeps its bits under a grow, as a longer length
keeps its own (t32-33 finding 10). A non-contiguous netmask (ones compared: nft's `& 255.255.255.1
== A`, iptables' `A/255.255.255.1`; a first octet of 255 tells it from a wildcard, whose first octet
is 0) is judged as its inverted wildcard (`change_mask`, finding 11).

A wildcard whose one bits reach above the old host part (`10.0.48.0 0.0.1.254`) names more than
the moved network: it is no hit here (another network's rule); `span` gives its block's length
(/23), which `prefix_moves.masked_length` reads as its contiguous twin's: a `supernet` (finding
20). Contiguous wildcards and netmasks are prefix_moves' own (`_old_lengths`); 0.0.0.0 and
255.255.255.255 are neither. Pure.
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass

from renamer import lazy_re
from renamer.names import IPNetwork

# The blank between an address and the wildcard after it (`A W`), nothing else.
_BETWEEN = lazy_re.compile(rb"[ \t]+")
# A mask right after its address (`A/M`, iptables) or before it (nft's `& M == A`, `& M A`).
_SLASH = lazy_re.compile(rb"/")
_MASK_BEFORE = lazy_re.compile(rb"[ \t]*(?:==[ \t]*|!=[ \t]*)?")


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


def is_wildcard(text: str) -> bool:
    """A pattern read as a wildcard (its free bits are ones): its first octet 0, as every wildcard
    of a network smaller than a /8 has (`0.0.1.254`); `10.0.48.7` beside an address is another address."""
    return is_pattern(text) and int(ipaddress.IPv4Address(text)) < 1 << 24


def is_mask(text: str) -> bool:
    """A pattern read as a netmask (its compared bits are ones; nft's `& 255.255.255.1 ==`,
    iptables' `A/255.255.255.1`): its first octet 255."""
    return is_pattern(text) and int(ipaddress.IPv4Address(text)) >> 24 == 0xFF


def span(text: str) -> int | None:
    """The prefix length of the smallest block a pattern wildcard or netmask matches within (its
    highest free bit): `0.0.1.254` and `255.255.254.1` 23, `0.0.0.14` 28; None for other values."""
    if not is_wildcard(text) and not is_mask(text):
        return None
    value = int(ipaddress.IPv4Address(text))
    free = value if is_wildcard(text) else value ^ 0xFFFFFFFF
    return 32 - free.bit_length()


def change_mask(text: str, old: IPNetwork, new: IPNetwork) -> WildcardChange | None:
    """`change` for a non-contiguous netmask (ones compared: `255.255.255.1` keeps even hosts;
    t32-33 finding 11): a grow clears the bits the new network adds to the host part
    (`255.255.252.1`), a shrink that would leave the rule matching outside is refused."""
    if old.version != 4 or not is_mask(text):
        return None
    inverted = str(ipaddress.IPv4Address(int(ipaddress.IPv4Address(text)) ^ 0xFFFFFFFF))
    found = change(inverted, old, new)
    if found is None:
        return None
    if found.outside is not None:
        why = found.outside.replace(f"the wildcard {inverted}", f"the netmask {text}")
        return WildcardChange(text, outside=why)
    return WildcardChange(str(ipaddress.IPv4Address(int(ipaddress.IPv4Address(found.new)) ^ 0xFFFFFFFF)))


def adjacent(data: bytes, address_end: int, start: int) -> bool:
    """Is the wildcard at `start` directly after the address ending at `address_end` (blanks only)?"""
    return _BETWEEN.fullmatch(data, address_end, start) is not None


def mask_after(data: bytes, address_end: int, start: int) -> bool:
    """Is the netmask at `start` right after the address ending at `address_end` (`A/M`, `A M`)?"""
    return adjacent(data, address_end, start) or _SLASH.fullmatch(data, address_end, start) is not None


def mask_before(data: bytes, mask_start: int, mask_end: int, address_start: int) -> bool:
    """Is the netmask at `mask_start` nft's, before the address it masks (`& 255.255.255.1 == A`)?"""
    head = data[max(0, mask_start - 8):mask_start].rstrip(b" \t")
    return head.endswith(b"&") and _MASK_BEFORE.fullmatch(data, mask_end, address_start) is not None


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
        if value.bit_length() < old_host.bit_length():
            return None  # a pattern over a sub-block (t32-33 finding 10): it keeps its own, as a /28 does
        return WildcardChange(str(ipaddress.IPv4Address(value | (new_host & ~old_host))))
    lost = old_host & ~new_host
    if value & lost:
        return WildcardChange(text, outside=(
            f"the wildcard {text} frees bits the new, smaller network {new} compares: its rule "
            f"matches addresses outside it (of {old}); narrow it by hand"))
    return None
