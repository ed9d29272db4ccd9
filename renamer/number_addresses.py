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
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Iterable

from renamer.occurrences import Match

REASON = "number-address"


class NumberAddresses:
    """The renamed IPv4 addresses' single-number spellings, compiled once."""

    def __init__(self, addresses: Iterable[tuple[str, str]]) -> None:
        self._by_value: dict[int, tuple[str, str]] = {}
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
        self.literals = tuple(sorted(literals))
        alternatives = rb"(?<![0-9A-Za-z.])(?:" + b"|".join(spelled) + rb")(?![0-9A-Za-z]|\.[0-9])"
        self._pattern = re.compile(alternatives, re.I) if spelled else None

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
            old, new = self._by_value[value]
            note = (f"`{text}` is {old} spelled as one number (inet_aton, curl, ping and browsers read "
                    f"it so), renamed {new}")
            out.append(Match(found.start(), found.end(), text, new, "address", refused=REASON, note=note))
        return out


def number_matches(data: bytes, matches: list[Match], numbers: NumberAddresses) -> list[Match]:
    """`matches` with each single-number spelling (NumberAddresses.find) no match covers."""
    found = numbers.find(data)
    added = [n for n in found if not any(m.start < n.end and n.start < m.end for m in matches)]
    return sorted([*matches, *added], key=lambda m: m.start) if added else matches
