"""RFC 3442 classless static routes written as bytes (DHCP options 121 and 249), pure and I/O free.

ISC dhcpd's `option rfc3442-classless-static-routes 24, 10, 9, 0, 10, 9, 0, 1;` (and
`ms-classless-static-routes`, option 249) spells each route as its prefix length, the significant
octets of its destination (length/8 rounded up) and the four octets of its gateway: 10.9.0.0/24
via 10.9.0.1. No dotted address stands in it, so a network move or an address rename found none
of it (break-it round 20p, finding 8b). `find` reads such a list on a line naming the option (its
name, or `code 121`/`code 249`) in three spellings: decimals joined by commas, colon hex
(`18:0a:09:00:0a:09:00:01`) and one `0x` hex string (MikroTik's `value=0x18...`); `decode` gives
its routes, `encode` writes routes back in the list's own spelling. The matcher decides each
route's destination and gateway as the dotted text it stands for (Matcher._classless_routes).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from renamer import lazy_re

# Needles: a file holding none of these holds no list `find` reads.
NEEDLES = (b"classless-static-route", b"classless_static_route", b"classless-route", b"code 121",
           b"code=121", b"code 249", b"code=249")

_OPTION = lazy_re.compile(rb"(?i)classless[-_]?(?:static[-_]?)?routes?|\bcode[ \t]*=?[ \t]*(?:121|249)\b")
_DECIMAL = lazy_re.compile(rb"(?<![0-9A-Za-z.:])[0-9]{1,3}(?:[ \t]*,\s*[0-9]{1,3}){4,}(?![0-9A-Za-z.:])")
_COLON = lazy_re.compile(rb"(?<![0-9A-Za-z:.])[0-9A-Fa-f]{1,2}(?::[0-9A-Fa-f]{1,2}){4,}(?![0-9A-Za-z:.])")
_HEX = lazy_re.compile(rb"(?<![0-9A-Za-z])0[xX]((?:[0-9A-Fa-f]{2}){5,})(?![0-9A-Za-z])")
_WINDOW = 4096  # a statement runs to its `;` (ISC), at most this far


@dataclass(frozen=True)
class Listed:
    """One byte list: where it stands, its bytes and how it is spelled."""

    start: int
    end: int
    values: tuple[int, ...]
    spelling: str  # "decimal", "colon" or "hex"
    separator: str  # a decimal list's first separator (", "); hex: "upper" or "lower"
    head: str = ""  # a hex string's `0x` or `0X`


@dataclass(frozen=True)
class Route:
    length: int
    destination: str  # dotted, the network address
    gateway: str  # dotted


def find(data: bytes) -> list[Listed]:
    """Each byte list after an option 121/249 name on its statement, in file order."""
    out: list[Listed] = []
    for option in _OPTION.finditer(data):
        line_end = data.find(b"\n", option.end())
        line_end = len(data) if line_end < 0 else line_end
        stop = data.find(b";", option.end(), option.end() + _WINDOW)
        end = stop if stop >= 0 else line_end
        if out and option.start() < out[-1].end:
            continue
        for pattern, spelling in ((_DECIMAL, "decimal"), (_COLON, "colon"), (_HEX, "hex")):
            found = pattern.search(data, option.end(), end)
            if found is None:
                continue
            text = found.group().decode("ascii")
            if spelling == "decimal":
                values = tuple(int(v) for v in re.findall(r"[0-9]+", text))
                separator = re.search(r"[ \t]*,\s*", text)
                sep = separator.group() if separator else ","
            elif spelling == "colon":
                values = tuple(int(v, 16) for v in text.split(":"))
                sep = "upper" if any(c in "ABCDEF" for c in text) else "lower"
            else:
                digits = text[2:]
                values = tuple(int(digits[i:i + 2], 16) for i in range(0, len(digits), 2))
                sep = "upper" if any(c in "ABCDEF" for c in digits) else "lower"
            head = text[:2] if spelling == "hex" else ""
            out.append(Listed(found.start(), found.end(), values, spelling, sep, head))
            break
    return out


def decode(values: tuple[int, ...]) -> list[Route] | None:
    """The routes a byte list spells, or None where it spells none whole (a length past 32, a
    byte past 255, bytes left over, a destination with bits past its length)."""
    routes = []
    i = 0
    while i < len(values):
        length = values[i]
        count = (length + 7) // 8
        if length > 32 or i + 1 + count + 4 > len(values):
            return None
        octets = [*values[i + 1:i + 1 + count], *[0] * (4 - count)]
        gateway = values[i + 1 + count:i + 5 + count]
        if any(v > 255 for v in (*octets, *gateway)):
            return None
        number = int.from_bytes(bytes(octets), "big")
        if length < 32 and number & ((1 << (32 - length)) - 1):
            return None
        routes.append(Route(length, ".".join(map(str, octets)), ".".join(map(str, gateway))))
        i += 5 + count
    return routes or None


def encode(routes: list[Route], listed: Listed) -> str:
    """`routes` as bytes in the spelling of `listed`."""
    values: list[int] = []
    for route in routes:
        octets = [int(v) for v in route.destination.split(".")]
        gateway = [int(v) for v in route.gateway.split(".")]
        values += [route.length, *octets[:(route.length + 7) // 8], *gateway]
    if listed.spelling == "decimal":
        return listed.separator.join(map(str, values))
    hexed = [f"{v:02X}" if listed.separator == "upper" else f"{v:02x}" for v in values]
    if listed.spelling == "colon":
        return ":".join(hexed)
    return listed.head + "".join(hexed)


def routes_text(routes: list[Route]) -> str:
    return ", ".join(f"{r.destination}/{r.length} via {r.gateway}" for r in routes)
