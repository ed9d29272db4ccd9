"""BIND's `$GENERATE` directive, expanded: `$GENERATE 50-60 dyn-$ A 10.250.50.$` stands for eleven
records, `dyn-50 A 10.250.50.50` to `dyn-60 A 10.250.50.60`, none of which its bytes spell. Pure:
bytes in, the records each line makes out (the sweep decides what a renamed member means:
sweep/zone_rules.py).

BIND's rules (lib/dns/master.c, generate()): `$GENERATE start-stop[/step] lhs [ttl] [class] type
rhs`; in lhs and rhs a `$` is the iterator, `${offset[,width[,base]]}` the iterator plus offset,
zero-padded to width, in base d, o, x, X, n or N (nibbles, low first, each with its dot, as an
ip6.arpa owner), and
`\\$` a literal `$`.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Iterator
from dataclasses import dataclass

from renamer import lazy_re
from renamer.formats.zone import CLASS_TOKEN, TTL_TOKEN, entries

__all__ = ["Generate", "generated_addresses", "generates"]

_RANGE = lazy_re.compile(rb"([0-9]+)-([0-9]+)(?:/([0-9]+))?")
_MODIFIER = lazy_re.compile(r"\$\{(-?[0-9]+)(?:,([0-9]+)(?:,([doxXnN]))?)?\}|\\\$|\$")
# BIND refuses no range size, but a sweep that expands one must end: past this, the first
# members are read (a range of 65536 names is an ip6.arpa /112, already more than any zone writes).
LIMIT = 65536


@dataclass(frozen=True)
class Generate:
    """One `$GENERATE` line: its span and what its records are, member by member."""

    start: int
    end: int
    origin: str | None  # the origin in force (lower case, final dot); None when unknown
    lhs: str
    rhs: str
    values: range

    def records(self) -> Iterator[tuple[str, str]]:
        """(owner, RDATA) of each record the line makes, in order."""
        for value in self.values[:LIMIT]:
            yield expand(self.lhs, value), expand(self.rhs, value)


def expand(template: str, value: int) -> str:
    """`template` with each `$` modifier replaced by `value` as BIND writes it."""
    def one(m: re.Match[str]) -> str:
        text = m.group()
        if text == "\\$":
            return "$"
        if text == "$":
            return str(value)
        number = value + int(m.group(1))
        width = int(m.group(2) or 0)
        base = m.group(3) or "d"
        if base in "nN":
            return _nibbles(number, width, base == "N")
        return f"{number:0{width}{base}}"
    return _MODIFIER.sub(one, template)


def _nibbles(value: int, width: int, upper: bool) -> str:
    """BIND's nibble mode (master.c, nibbles()): low nibble first, a dot after each while digits or
    width remain, the width counting the dots too (`${0,4,n}` of 250 is `a.f.`)."""
    digits = "0123456789ABCDEF" if upper else "0123456789abcdef"
    out = []
    while True:
        out.append(digits[value & 0xF])
        value >>= 4
        width = max(width - 1, 0)
        if value == 0 and width == 0:
            return "".join(out)
        out.append(".")
        width = max(width - 1, 0)
        if value == 0 and width == 0:
            return "".join(out)


def generates(data: bytes, origin: str | None) -> list[Generate]:
    """Each `$GENERATE` line of the zone in `data`, with the origin in force where it stands."""
    out = []
    for has_owner, words in entries(data):
        tokens = [data[a:b] for a, b in words]
        if not has_owner or not tokens[0].startswith(b"$"):
            continue
        directive = tokens[0].upper()
        if directive == b"$ORIGIN" and len(tokens) > 1:
            text = tokens[1].decode("ascii", "replace").lower()
            origin = text if text.endswith(".") else (None if origin is None else
                                                      f"{text}.{origin}" if origin != "." else f"{text}.")
            continue
        if directive != b"$GENERATE" or len(tokens) < 4:
            continue
        bounds = _RANGE.fullmatch(tokens[1])
        if bounds is None:
            continue
        first, last, step = int(bounds.group(1)), int(bounds.group(2)), int(bounds.group(3) or 1)
        i = 3
        while i < len(tokens) - 1 and (TTL_TOKEN.fullmatch(tokens[i]) or CLASS_TOKEN.fullmatch(tokens[i])):
            i += 1
        if i + 1 >= len(tokens) or step == 0 or last < first:
            continue
        rhs = " ".join(t.decode("utf-8", "replace") for t in tokens[i + 1:])
        out.append(Generate(words[0][0], words[-1][1], origin, tokens[2].decode("utf-8", "replace"),
                            rhs, range(first, last + 1, step)))
    return out


def _absolute(name: str, origin: str | None) -> str | None:
    if name.endswith("."):
        return name.lower()
    if origin is None:
        return None
    return f"{name}.{origin}".lower() if origin != "." else f"{name}.".lower()


def _reverse_address(name: str) -> _Address | None:
    """The address an absolute reverse name stands for (`150.40.168.192.in-addr.arpa.`, 32 nibbles
    under ip6.arpa.), else None (a classless or partial name)."""
    labels = name.rstrip(".").split(".")
    try:
        if labels[-2:] == ["in-addr", "arpa"] and len(labels) == 6:
            return ipaddress.IPv4Address(".".join(reversed(labels[:4])))
        if labels[-2:] == ["ip6", "arpa"] and len(labels) == 34 and all(len(x) == 1 for x in labels[:32]):
            nibbles = "".join(reversed(labels[:32]))
            return ipaddress.IPv6Address(":".join(nibbles[i:i + 4] for i in range(0, 32, 4)))
    except ValueError:
        return None
    return None


_Address = ipaddress.IPv4Address | ipaddress.IPv6Address


def generated_addresses(line: Generate) -> Iterator[tuple[int, _Address]]:
    """(iterator value, address) for each address a line's records make: an A or AAAA record's
    RDATA (`dyn-$ A 192.168.40.$`), a reverse owner (`$ PTR dyn-$.lab.` under
    40.168.192.in-addr.arpa.), up to LIMIT members (t36-33 finding 16)."""
    for value in line.values[:LIMIT]:
        owner = _absolute(expand(line.lhs, value), line.origin)
        if owner is not None and owner.endswith(".arpa."):
            address = _reverse_address(owner)
            if address is not None:
                yield value, address
        for word in expand(line.rhs, value).split():
            if word[:1].isdigit() or ":" in word:
                try:
                    yield value, ipaddress.ip_address(word)
                except ValueError:
                    continue
