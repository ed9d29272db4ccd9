"""Validation of host names, addresses and networks, shared by config and DNS inventory."""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Iterable
from dataclasses import dataclass

from renamer import lazy_re

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
IPNetwork = ipaddress.IPv4Network | ipaddress.IPv6Network

_LABEL = lazy_re.compile(r"(?!-)[A-Za-z0-9-]{1,63}(?<!-)\Z")


def host_name_problem(name: str, *, absolute: bool = True) -> str | None:
    """Why `name` is not an RFC 1123 host name (labels may be joined by dots), or None.
    `absolute`: a final dot (the absolute form) is allowed; else it is refused."""
    if not name:
        return "empty host name"
    if len(name.rstrip(".")) > 253:
        return "host name longer than 253 characters"
    if name.endswith(".") and not absolute and name != ".":
        return (f"invalid host name {name!r}: a trailing dot (write {name.rstrip('.')!r}: "
                "the name matches with or without the dot after it)")
    labels = name[:-1].split(".") if name.endswith(".") else name.split(".")
    for label in labels:
        if not _LABEL.match(label):
            why = "an empty label" if not label else "labels of letters, digits and '-'"
            return f"invalid host name {name!r} (RFC 1123: {why})"
    return address_like(name)


# What inet_aton(3) (and so ping, curl, getaddrinfo) reads as an IPv4 address: one to four
# parts, each decimal, octal (a leading 0) or hex (0x): `10.1`, `167772161`, `0x0a.1`, `012`.
_INET_ATON = lazy_re.compile(r"(?:(?:0[xX][0-9a-fA-F]*|[0-9]+)\.){0,3}(?:0[xX][0-9a-fA-F]*|[0-9]+)\.?\Z")
_DIGITS = lazy_re.compile(r"[0-9]+\Z")


def address_like(name: str) -> str | None:
    """Why `name`, a name of valid labels, is never a host name: its last label is all digits
    (RFC 1123 2.1: a host name never has the dotted-decimal form, its highest-level label being
    alphabetic; RFC 3696 2: a top-level label is never all-numeric), or the whole of it is what
    inet_aton reads as an address (`0x1f`). Digits elsewhere are fine: `ml2`, `123.fv.lan`."""
    last = name.rstrip(".").rsplit(".", 1)[-1]
    if _DIGITS.match(last):
        return (f"invalid host name {name!r}: its last label is all digits, so it reads as an address, "
                "never a host name (RFC 1123 2.1, RFC 3696 2)")
    if _INET_ATON.match(name):
        return f"invalid host name {name!r}: it reads as an IPv4 address (inet_aton), never a host name"
    return None


def parse_address(text: str) -> IPAddress | None:
    try:
        return ipaddress.ip_address(text)
    except ValueError:
        return None


def parse_network(text: str) -> IPNetwork | None:
    try:
        return ipaddress.ip_network(text, strict=True)
    except ValueError:
        return None


def v4_renames(addresses: Iterable[tuple[str, str]]) -> dict[ipaddress.IPv4Address, str]:
    """The renamed IPv4 addresses of `addresses` (old, new), the old one parsed; others left out."""
    out: dict[ipaddress.IPv4Address, str] = {}
    for old, new in addresses:
        try:
            out[ipaddress.IPv4Address(old)] = new
        except ValueError:
            continue
    return out


def reverse_name(address: IPAddress) -> str:
    """The PTR owner name without the trailing dot: 54.50.250.10.in-addr.arpa."""
    return address.reverse_pointer


def reverse_zone(network: IPNetwork) -> str | None:
    """The reverse zone of an octet- (or nibble-) aligned network, e.g. 250.10.in-addr.arpa."""
    if isinstance(network, ipaddress.IPv4Network):
        if network.prefixlen % 8 or network.prefixlen == 0:
            return None
        octets = str(network.network_address).split(".")[: network.prefixlen // 8]
        return ".".join(reversed(octets)) + ".in-addr.arpa"
    if network.prefixlen % 4 or network.prefixlen == 0:
        return None
    nibbles = network.network_address.exploded.replace(":", "")[: network.prefixlen // 4]
    return ".".join(reversed(nibbles)) + ".ip6.arpa"


# RFC 1035 5.1's presentation format (zone files, a name server's configuration): `\DDD` is the
# byte of DECIMAL value DDD, `\X` the character X itself, so `ana\-ml2`, `\097na-ml2` and
# `ana\045ml2` are all the name ana-ml2.
_PRESENTATION_ESCAPE = lazy_re.compile(rb"\\(?:([0-9]{3})|(.))", re.DOTALL)
# What a decoded host name holds: letters, digits, `-`, `_`, a wildcard `*` (`\.`, an escaped
# dot, is a dot inside a label: no host name a rename can match).
_NAME_BYTES = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_*")


def presentation_decoded(data: bytes) -> bytes:
    """`data` with every presentation-format escape decoded (a prefilter's reading)."""
    if b"\\" not in data:
        return data
    return _PRESENTATION_ESCAPE.sub(_decoded_escape, data)


def _decoded_escape(x: re.Match[bytes]) -> bytes:
    if x.group(1) is None:
        return x.group(2)
    value = int(x.group(1))
    return bytes([value]) if value < 256 else x.group()  # `\256` is BIND's error: left as written


@dataclass(frozen=True)
class Reading:
    """A presentation-format token read label by label: `text` is what it decodes to, with each
    character no host label holds (an escaped dot `\\.` or `\\046`, a space, a backslash) as
    `_`; `at[i]` is where the token's bytes for `text[i]` start (`at[len(text)]` is its end);
    `opaque` are the positions in `text` so replaced (never part of a host name)."""

    text: str
    at: tuple[int, ...]
    opaque: frozenset[int]


def presentation_reading(token: bytes) -> Reading | None:
    """The token as a name server reads it, where an escape makes that differ from its bytes, with
    where each character stands in the token. A label holding a character no host name holds
    (`pug\\.ana` is ONE label, `pug.ana`) is opaque there: no match may stand on those characters,
    or touch them, whatever the bytes beside them spell. None where the token holds no escape, or
    one BIND refuses (`\\256`, a lone backslash)."""
    if b"\\" not in token:
        return None
    text: list[str] = []
    at: list[int] = []
    opaque: set[int] = set()
    pos = 0
    while pos < len(token):
        at.append(pos)
        if token[pos] == 0x5C:  # a backslash
            x = _PRESENTATION_ESCAPE.match(token, pos)
            if x is None:
                return None
            decoded = _decoded_escape(x)
            if len(decoded) != 1:
                return None
            char, pos = decoded[0], x.end()
        else:
            char, pos, decoded = token[pos], pos + 1, b""
        if char in _NAME_BYTES or (char == 0x2E and not decoded):  # only an unescaped dot parts labels
            text.append(chr(char))
        else:
            opaque.add(len(text))
            text.append("_")
    at.append(pos)
    return Reading("".join(text), tuple(at), frozenset(opaque))


def presentation_name(token: bytes) -> str | None:
    """The name a presentation-format token spells, escapes decoded (`ana\\045ml2.` is
    `ana-ml2.`), where that is a host name a rename can match: labels of letters, digits, `-`,
    `_` and `*` joined by unescaped dots, or `@`. None for anything else: an escaped dot or
    another character no host name holds, an escape BIND refuses (`\\256`, a lone backslash)."""
    if token == b"@":
        return "@"
    out = bytearray()
    at = 0
    while at < len(token):
        byte = token[at]
        if byte == 0x5C:  # a backslash
            x = _PRESENTATION_ESCAPE.match(token, at)
            if x is None:
                return None
            decoded = _decoded_escape(x)
            if len(decoded) != 1 or decoded[0] not in _NAME_BYTES:
                return None
            out += decoded
            at = x.end()
        elif byte in _NAME_BYTES or byte == 0x2E:
            out.append(byte)
            at += 1
        else:
            return None
    return out.decode("ascii") if out else None
