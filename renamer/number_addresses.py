"""An IPv4 address spelled as one number (break-it round 21, finding 21): `http://184168502/`,
`http://0x0afa3236/`, `ping 0xafa3236`. inet_aton, curl, ping and browsers read these as
10.250.50.54; the exact rules see no address there, so under `10.250.50.54 -> 10.251.50.54` the
sweep wrote nothing, no near-miss was said, and `verify --strict` passed while the reference still
named the old address.

In a current-state file, each renamed IPv4 address's single-number spellings (its decimal value,
its hex value with `0x` with or without zero padding, in any case), standing as a number of their
own (no digit, dot or hex digit beside them), are a residual `number-address`: nothing rewritten,
since a nine-digit number may as well be an id, a size or a serial; only the file's reader knows.
Pure: bytes in, matches out.

A moved IPv4 network's addresses written so (issue 33, outside pass round 7: `167784453` in a SQL
`ip_int` column, `INET_ATON` values, ipcalc's decimal output, `0x0A003005`) are the same residual,
naming the address the number spells and the network it moves with: nothing rewritten, since no
file says for certain that a ten-digit number is an address (a key named `ip_int` comes closest,
and a number there may still be a count or an id of the same size). Only numbers of eight digits
or more (or `0x` and seven hex digits or more) are read, so small ids and ports never are.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Iterable

from renamer.names import IPNetwork
from renamer.occurrences import Match

REASON = "number-address"


class NumberAddresses:
    """The renamed IPv4 addresses' single-number spellings, compiled once."""

    def __init__(self, addresses: Iterable[tuple[str, str]],
                 networks: Iterable[tuple[IPNetwork, IPNetwork]] = ()) -> None:
        self._by_value: dict[int, tuple[str, str]] = {}
        self._ranges = [(old, new) for old, new in networks
                        if old.version == 4 and int(old.network_address) >= 1 << 24]
        for old, new in addresses:
            try:
                value = int(ipaddress.IPv4Address(old))
            except ValueError:
                continue
            if value >= 1 << 24:  # `0.1.2.3`'s 66051 is any small number
                self._by_value[value] = (old, new)
        spelled: list[bytes] = []
        literals: set[bytes] = set()
        for value in self._by_value:
            decimal, padded, short = str(value).encode(), f"{value:08x}".encode(), f"{value:x}".encode()
            spelled += [re.escape(decimal), b"0[xX](?:" + padded + b"|" + short + b")"]
            literals.update((decimal, padded, short, padded.upper(), short.upper()))
        for moved, _ in self._ranges:
            literals.update(_range_literals(moved))
        self.literals = tuple(sorted(literals))
        alternatives = rb"(?<![0-9A-Za-z.])(?:" + b"|".join(spelled) + rb")(?![0-9A-Za-z]|\.[0-9])"
        self._pattern = re.compile(alternatives, re.I) if spelled else None
        if self._ranges:  # any number of eight digits or more, or `0x` and seven hex digits or more
            self._pattern = re.compile(alternatives + rb"|" + _ANY_NUMBER if spelled else _ANY_NUMBER, re.I)

    def holds_literal(self, data: bytes) -> bool:
        """Does `data` hold one of the literals (the reader's own cheap test, before it is counted)?"""
        return any(literal in data for literal in self.literals)

    def might_hold(self, data: bytes) -> bool:
        return self._pattern is not None and any(lit in data for lit in self.literals) \
            and self._pattern.search(data) is not None

    def find(self, data: bytes) -> list[Match]:
        """Each single-number spelling of a renamed address, refused."""
        if self._pattern is None or not any(lit in data for lit in self.literals):
            return []
        out: list[Match] = []
        for found in self._pattern.finditer(data):
            text = found.group().decode("ascii")
            value = int(text, 16) if text[:2].lower() == "0x" else int(text)
            if value not in self._by_value:
                moved = self._in_range(found.start(), found.end(), text, value)
                if moved is not None:
                    out.append(moved)
                continue
            old, new = self._by_value[value]
            note = (f"`{text}` is {old} spelled as one number (inet_aton, curl, ping and browsers read "
                    f"it so), renamed {new}")
            out.append(Match(found.start(), found.end(), text, new, "address", refused=REASON, note=note))
        return out


    def _in_range(self, start: int, end: int, text: str, value: int) -> Match | None:
        if value >= 1 << 32:
            return None
        address = ipaddress.IPv4Address(value)
        for old, new in self._ranges:
            if address in old:
                note = (f"`{text}` is {address} spelled as one number (inet_aton, INET_ATON, ipcalc, an "
                        f"`ip_int` column read it so), inside {old}, which moves to {new}: if it is that "
                        "address, write the new one's number by hand; else keep it with a keep rule")
                return Match(start, end, text, text, "address", refused=REASON, note=note)
        return None


# A number that may spell an IPv4 address of a moved network: eight decimal digits or more, or `0x`
# and seven hex digits or more, standing alone.
_ANY_NUMBER = rb"(?<![0-9A-Za-z.])(?:[1-9][0-9]{7,9}|0[xX][0-9A-Fa-f]{7,8})(?![0-9A-Za-z]|\.[0-9])"


def _range_literals(network: IPNetwork) -> set[bytes]:
    """Decimal heads that every address of `network`, as one number, starts with (a few, as short
    as needed), and its hex head (`0a0030` of 10.0.48.0/24), lower and upper case."""
    first, last = int(network.network_address), int(network.broadcast_address)
    heads: set[bytes] = set()
    for cut in range(1, len(str(last))):  # the longest heads that stay few
        if len(str(first)) != len(str(last)):
            break
        low, high = first // 10 ** cut, last // 10 ** cut
        if high - low < 16:
            heads = {str(x).encode() for x in range(low, high + 1)}
            break
    nibbles = max(1, (32 - network.prefixlen) // 4)
    hexed = f"{first:08x}"[:8 - nibbles]
    heads.update({hexed.encode(), hexed.upper().encode()})
    return {h for h in heads if len(h) >= 3} or {b"0x", b"0X"}


def number_matches(data: bytes, matches: list[Match], numbers: NumberAddresses) -> list[Match]:
    """`matches` with each single-number spelling (NumberAddresses.find) no match covers."""
    found = numbers.find(data)
    added = [n for n in found if not any(m.start < n.end and n.start < m.end for m in matches)]
    return sorted([*matches, *added], key=lambda m: m.start) if added else matches
