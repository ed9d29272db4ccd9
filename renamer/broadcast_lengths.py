"""The length of the subnet whose broadcast address a `broadcast` word names, where its line,
stanza or enclosing block gives one (t36-33 finding 02).

The upper /25 of a moved /24 ends where the /24 ends: `ip addr add 192.168.40.130/25 brd
192.168.40.255`, ifupdown `broadcast 192.168.40.255` beside `netmask 255.255.255.128`, ISC dhcpd
`subnet 192.168.40.128 netmask 255.255.255.128 { option broadcast-address 192.168.40.255; }` name
the /25's broadcast address, not the /24's: under a grow it keeps its offset (the /25 keeps its
length), it does not become the new network's broadcast address. Pure; asked by
`Matcher._lengthed`.
"""

from __future__ import annotations

import ipaddress

from renamer import lazy_re
from renamer.names import IPAddress

# `A/N` (IPv4) on the broadcast's line.
_SLASHED = lazy_re.compile(rb"(?<![0-9.])((?:[0-9]{1,3}\.){3}[0-9]{1,3})/([0-9]{1,2})(?![0-9.])")
# A dotted netmask after a mask word (`netmask M`, `NETMASK=M`, `mask M`, `subnet-mask M`), or a
# length after a prefix word (`PREFIX=25`, `prefix 25`, `prefixlen 25`).
_MASKED = lazy_re.compile(rb"(?i)(?<![A-Za-z])(?:net|subnet[_-]?)?mask[\"']?[ \t]*[:=]?[ \t]*[\"']?"
                          rb"((?:[0-9]{1,3}\.){3}[0-9]{1,3})(?![0-9.])")
_PREFIXED = lazy_re.compile(rb"(?i)(?<![A-Za-z])prefix(?:len|length)?[\"']?[ \t]*[:=]?[ \t]*[\"']?"
                            rb"([0-9]{1,2})(?![0-9./])")
# A line that opens a stanza of its own: ifupdown's, an INI section.
_OPENS = lazy_re.compile(rb"(?i)[ \t]*(?:iface[ \t]|auto[ \t]|allow-|mapping[ \t]|\[)")
_REACH = 15  # lines a stanza may span either way


def _mask_length(text: bytes) -> int | None:
    try:
        value = int(ipaddress.IPv4Address(text.decode("ascii")))
    except ValueError:
        return None
    inverted = value ^ 0xFFFFFFFF
    if value == 0 or (inverted & (inverted + 1)) != 0:
        return None  # not ones then zeros
    return bin(value).count("1")


def _line_lengths(data: bytes, start: int, end: int, address: IPAddress) -> list[int]:
    """The lengths a line gives: a slashed address whose subnet ends at `address`, a mask key, a
    prefix key."""
    out = []
    for x in _SLASHED.finditer(data, start, end):
        try:
            net = ipaddress.ip_network(f"{x.group(1).decode()}/{int(x.group(2))}", strict=False)
        except ValueError:
            continue
        if net.version == 4 and net.broadcast_address == address:
            out.append(net.prefixlen)
    out += [n for x in _MASKED.finditer(data, start, end) if (n := _mask_length(x.group(1))) is not None]
    out += [int(x.group(1)) for x in _PREFIXED.finditer(data, start, end) if 0 < int(x.group(1)) <= 32]
    return out


def _lines(data: bytes, at: int) -> tuple[list[tuple[int, int]], int]:
    """Every line's span, and the index of the one holding `at`."""
    spans = []
    begin = 0
    index = 0
    for number, line in enumerate(data.split(b"\n")):
        end = begin + len(line)
        if begin <= at <= end:
            index = number
        spans.append((begin, end))
        begin = end + 1
    return spans, index


def _stanza(data: bytes, spans: list[tuple[int, int]], index: int) -> list[tuple[int, int]]:
    """The lines of the broadcast's stanza: up to a blank line or a line opening another stanza
    (the opening line above included)."""
    out = []
    i = index - 1
    while i >= 0 and index - i <= _REACH and data[slice(*spans[i])].strip():
        out.append(spans[i])
        if _OPENS.match(data, spans[i][0]):
            break
        i -= 1
    i = index + 1
    while i < len(spans) and i - index <= _REACH and data[slice(*spans[i])].strip() \
            and not _OPENS.match(data, spans[i][0]):
        out.append(spans[i])
        i += 1
    return out


def _block_header(data: bytes, at: int) -> tuple[int, int] | None:
    """The line that opens the innermost `{` block around `at` (ISC dhcpd's `subnet A netmask M {`)."""
    depth = 0
    for i in range(at - 1, max(-1, at - 4000), -1):
        c = data[i]
        if c == ord("}"):
            depth += 1
        elif c == ord("{"):
            if depth == 0:
                return data.rfind(b"\n", 0, i) + 1, i
            depth -= 1
    return None


def subnet_length(data: bytes, start: int, address: IPAddress, old_length: int) -> int | None:
    """The length, longer than `old_length`, of the subnet whose broadcast address the address at
    `start` is: its own line first, then its enclosing block's opening line, then its stanza; 0
    where they give more than one such length (whose is not certain); None where none does (the
    moved network's own broadcast)."""
    line_start = data.rfind(b"\n", 0, start) + 1
    line_end = data.find(b"\n", start)
    line_end = len(data) if line_end < 0 else line_end
    found = _line_lengths(data, line_start, line_end, address)
    if not found:
        header = _block_header(data, line_start)
        if header is not None:
            found = _line_lengths(data, *header, address)
    if not found:
        spans, index = _lines(data, start)
        for span in _stanza(data, spans, index):
            found += _line_lengths(data, *span, address)
    if not found:
        return None
    lengths = set(found)
    if len(lengths) > 1:
        return 0 if any(n > old_length for n in lengths) else None
    length = lengths.pop()
    return length if old_length < length <= 30 else None
