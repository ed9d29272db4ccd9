"""A moved network's address (or a renamed one) in a dotted dress the exact rules skip (issue 33,
outside pass t36-33, finding 11): zero-padded octets (`192.168.040.005`, `192.168.040.000/24`,
`192.168.40.05`), inet_aton's octal (`0300.0250.050.05`) and dotted hex (`0xc0.0xa8.0x28.0x05`).
Under `192.168.40.0/24 -> 10.20.0.0/22` each was left, with no residual and no near-miss, while a
renamed address padded was a near-miss and a moved address as one number a `number-address`
residual.

The readers disagree on such a spelling: inet_aton (ping, curl, glibc) reads a leading zero as
octal and `0x` as hex, Python's ipaddress refuses both, most others read decimal. A dotted quad
with a padded or `0x` octet is read both ways (decimal where no octet is hex; inet_aton's reading
where every octet is valid for it); where either reading is an address of a moved network (or,
for a dotted quad holding a `0x` octet, a renamed address; a padded renamed address is the loose
pass's `zero-padded` near-miss already) it is a residual `dressed-address`: nothing rewritten
(which reading the file's reader takes is not known here), verify fails until a person writes
the address plainly or keeps it. Pure: bytes in, matches out.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable

from renamer import lazy_re
from renamer.literal_readers import LiteralReader
from renamer.names import IPNetwork, v4_renames
from renamer.occurrences import Match

REASON = "dressed-address"
_OCTET = rb"(?:0[xX][0-9A-Fa-f]{1,2}|[0-9]{1,4})"
_QUAD = lazy_re.compile(rb"(?<![0-9A-Za-z.])" + _OCTET + rb"(?:\." + _OCTET + rb"){3}(?![0-9A-Za-z]|\.[0-9])")
# Every padded or hex dotted quad holds one of these (the first octet's own are added per network).
_GENERIC = tuple(b".0" + bytes([c]) for c in b"0123456789xX")


class DressedAddresses(LiteralReader):
    """The moved IPv4 networks (and renamed addresses, for their hex dress), read in dotted dress."""

    def __init__(self, addresses: Iterable[tuple[str, str]],
                 networks: Iterable[tuple[IPNetwork, IPNetwork]] = ()) -> None:
        self._renamed = v4_renames(addresses)
        self._moves = [(old, new) for old, new in networks if old.version == 4]
        literals: set[bytes] = set()
        if self._moves or self._renamed:
            literals.update(_GENERIC)
            literals.update((b"0x", b"0X"))
        for net, _ in self._moves:
            first, last = int(net.network_address) >> 24, int(net.broadcast_address) >> 24
            for octet in range(first, min(last, first + 3) + 1):
                literals.update(_first_heads(octet))
        self.literals = tuple(sorted(literals))

    def find(self, data: bytes) -> list[Match]:
        """Each dressed dotted quad one of whose readings is an old address, refused."""
        if not self.literals or not self.holds_literal(data):
            return []
        out: list[Match] = []
        for found in _QUAD.finditer(data):
            text = found.group().decode("ascii")
            octets = text.split(".")
            hexed = any(o[:2].lower() == "0x" for o in octets)
            padded = any(len(o) > 1 and o[0] == "0" and o[:2].lower() != "0x" for o in octets)
            if not (hexed or padded):
                continue  # a plain quad: the exact rules'
            note = self._note(text, octets, hexed=hexed)
            if note is not None:
                out.append(Match(found.start(), found.end(), text, text, "address", refused=REASON,
                                 note=note))
        return out

    def _note(self, text: str, octets: list[str], *, hexed: bool) -> str | None:
        readings: list[tuple[str, ipaddress.IPv4Address]] = []
        decimal = None if hexed else _address([int(o, 10) for o in octets])
        if decimal is not None:
            readings.append(("read as decimal", decimal))
        aton = _address([_aton(o) for o in octets])
        if aton is not None and aton != decimal:
            readings.append(("inet_aton (ping, curl, glibc) reads it", aton))
        elif aton is not None and readings:
            readings[0] = ("read as decimal and by inet_aton", aton)
        for how, address in readings:
            for old, new in self._moves:
                if address in old:
                    return (f"`{text}` is {address} ({how}), inside {old}, which moves to {new}: its "
                            "readers disagree on a padded or hex octet, so nothing is rewritten; write the "
                            "new address plainly by hand, or keep it with a keep rule")
            if hexed and address in self._renamed:
                return (f"`{text}` is {address} ({how}), renamed {self._renamed[address]}: write the new "
                        "address plainly by hand, or keep it with a keep rule")
        return None


def _aton(octet: str) -> int:
    """One octet as inet_aton reads it: `0x` hex, a leading zero octal; -1 where it cannot."""
    try:
        if octet[:2].lower() == "0x":
            return int(octet[2:], 16)
        if len(octet) > 1 and octet[0] == "0":
            return int(octet, 8)
        return int(octet, 10)
    except ValueError:
        return -1


def _address(octets: list[int]) -> ipaddress.IPv4Address | None:
    if any(o < 0 or o > 255 for o in octets):
        return None
    return ipaddress.IPv4Address(".".join(str(o) for o in octets))


def _first_heads(octet: int) -> set[bytes]:
    """How a first octet may begin a dressed quad: padded in decimal, in octal (`0300.`)."""
    plain = str(octet)
    heads = {b"0" * pad + plain.encode() + b"." for pad in range(1, 4 - len(plain) + 1)}
    heads.add(b"0" + format(octet, "o").encode() + b".")
    return heads


def dressed_matches(data: bytes, matches: list[Match], dressed: DressedAddresses) -> list[Match]:
    """`matches` with each dressed quad (DressedAddresses.find) no match covers."""
    found = dressed.find(data)
    added = [n for n in found if not any(m.start < n.end and n.start < m.end for m in matches)]
    return sorted([*matches, *added], key=lambda m: m.start) if added else matches
