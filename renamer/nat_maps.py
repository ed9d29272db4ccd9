"""1:1 network maps whose other side has a length of its own, under a resized network move (t29-33,
finding 06).

A NAT rule that maps one network onto another host by host needs both sides of one length:
iptables `-s 10.0.48.0/24 -j NETMAP --to 172.31.5.0/24` (the host bits outside --to's mask come
from the packet), ip6tables `SNPT`/`DNPT` (`--src-pfx A/64 --dst-pfx B/64`, RFC 6296), nft `snat
ip6 prefix to B/64`, RouterOS `action=netmap ... to-addresses=B/24`, JunOS `static-nat prefix`
(its `match destination-address` on another line of the rule), pf `binat ... -> B/24`, ipnat
`bimap`, Cisco IOS `ip nat inside source static network A B /24` (one length for both). Under
`10.0.48.0/24: 10.0.60.0/22` the sweep rewrote the moved side alone: four /24s of the /22 folded
onto one /24 (10.0.60.5, 10.0.61.5 and 10.0.62.5 all became 172.31.5.5), DNPT still led one /64
of a /60 inward, and IOS's `outside` line got `/22` for the unmoved 172.31.5.0 (host bits set).

Here, on a line that is such a map (its words), each match of a move that changes the length is a
`tied-length` residual, never rewritten: which network the other side should become (a wider one of its
own, or several rules) is the operator's choice. Left alone where every network of the line moves
to one new length (both sides moved alike: still 1:1). A map whose length does not change is no
concern here. The same where the two sides are written apart (t31-33, finding 15): a
pfSense/OPNsense `<onetoone>` or `<npt>` element, a Cisco ASA `object network` block a twice NAT
names or that holds an auto NAT (its dotted mask held with its address).
Pure: bytes and matches in, matches out; `Matcher.find` asks it.
"""

from __future__ import annotations

import bisect
import ipaddress
import re
from collections.abc import Sequence
from dataclasses import replace

from renamer import lazy_re
from renamer.occurrences import Match
from renamer.prefix_moves import PrefixMove
from renamer.prefix_pools import TIED

# A line that maps one network onto another address for address (case-insensitive words).
_MAP = lazy_re.compile(
    rb"(?i)(?<![\w-])(?:"
    rb"netmap"  # iptables -j NETMAP, RouterOS action=netmap, nft's prefix maps spelled so
    rb"|[sd]npt|--(?:src|dst)-pfx"  # ip6tables NPTv6
    rb"|(?:snat|dnat)(?:[ \t]+(?:ip6?|to))*[ \t]+prefix"  # nft `snat ip6 prefix to B/64`
    rb"|static-nat|nat[ \t]+static"  # JunOS static NAT (its rule's match is another line)
    rb"|static[ \t]+network"  # Cisco IOS `ip nat ... static network A B /24`
    rb"|binat|binat-to|bimap"  # pf (`binat ... ->`, OpenBSD's `binat-to`), ipnat
    rb")(?![\w-])")
# A network literal with its length (IPv4 or IPv6); Cisco's ` /24` after an address too.
_NETWORK = lazy_re.compile(rb"(?<![0-9A-Za-z.:])"
                      rb"(?P<addr>[0-9]{1,3}(?:\.[0-9]{1,3}){3}|[0-9A-Fa-f]{0,4}(?::[0-9A-Fa-f]{0,4}){2,7})"
                      rb"[ \t]*/(?P<len>[0-9]{1,3})(?![0-9])")


# Maps whose two sides are written apart (t31-33, finding 15): pfSense/OPNsense's `<onetoone>` (the
# `<external>` address takes the source's length) and `<npt>` elements; a Cisco ASA `object network`
# block that a twice NAT (`nat (in,out) source static LAN LAN-MAPPED`) names, or that holds its own
# auto NAT (` nat (in,out) static 198.51.100.0 net-to-net`).
_XML_OPEN = lazy_re.compile(rb"(?i)<(?P<tag>onetoone|npt)(?:[ \t\r\n][^>]*)?>")
_XML_CLOSE = {tag: re.compile(rb"(?i)</" + tag + rb"[ \t]*>") for tag in (b"onetoone", b"npt")}
_ASA_OBJECT = lazy_re.compile(rb"(?m)^object[ \t]+network[ \t]+(?P<name>\S+)[ \t]*\r?$")
_ASA_AUTO = lazy_re.compile(rb"(?m)^[ \t]+nat[ \t]*\([^)\n]*\)[ \t]+static[ \t]")
_ASA_TWICE = lazy_re.compile(rb"(?m)^[ \t]*nat[ \t]*\([^)\n]*\)[ \t]+(?:after-auto[ \t]+)?source[ \t]+static"
                        rb"[ \t]+(?P<real>\S+)[ \t]+(?P<mapped>\S+)")
_WORDS = (b"onetoone", b"ONETOONE", b"<npt", b"<NPT", b"object network")


def might_hold(data: bytes) -> bool:
    """Can `data` hold a map line (one of the words) or a map block?"""
    return _MAP.search(data) is not None or any(word in data for word in _WORDS)


def _blocks(data: bytes) -> list[tuple[int, int]]:
    """The map blocks of `data` whose two sides are written apart (read once per file)."""
    if not any(word in data for word in _WORDS):
        return []
    spans: list[tuple[int, int]] = []
    for opened in _XML_OPEN.finditer(data):
        close = _XML_CLOSE[opened.group("tag").lower()].search(data, opened.end())
        if close is not None:
            spans.append((opened.end(), close.start()))
    mapped = {name for twice in _ASA_TWICE.finditer(data)
              for name in (twice.group("real"), twice.group("mapped"))}
    for header in _ASA_OBJECT.finditer(data):
        end = header.end()
        while end < len(data):  # the block: the indented lines after its header
            nxt = data.find(b"\n", end + 1)
            nxt = len(data) if nxt == -1 else nxt
            if data[end + 1:end + 2] not in (b" ", b"\t"):
                break
            end = nxt
        if header.group("name") in mapped or _ASA_AUTO.search(data, header.end(), end) is not None:
            spans.append((header.end(), end))
    return sorted(spans)


def _within(blocks: list[tuple[int, int]], pos: int) -> tuple[int, int] | None:
    at = bisect.bisect_right(blocks, (pos, 1 << 62)) - 1
    return blocks[at] if at >= 0 and blocks[at][0] <= pos < blocks[at][1] else None


def held(data: bytes, matches: list[Match], moves: Sequence[PrefixMove]) -> list[Match]:
    """`matches` with each rewrite of a resized move on a 1:1 map line made a `tied-length` residual."""
    resized = [move for move in moves if move.resized]
    if not resized or not matches or not might_hold(data):
        return matches
    out = list(matches)
    lines: dict[int, tuple[int, int] | None] = {}
    blocks: list[tuple[int, int]] | None = None
    for index, m in enumerate(matches):
        # a `range` residual on a map line read its other side as the range's other end (pf's `from A
        # to any binat-to B`, t31-33 finding 06): the map names it
        if m.refused not in (None, "range") or m.kept is not None or m.kind != "network" or m.old == m.new:
            continue
        move = _move_of(m.old, resized)
        if move is None and _is_mask(m.old):  # `subnet 10.0.48.0 255.255.255.0`: a shrink in place
            before = re.search(rb"(\S+)[ \t]+\Z", data[max(0, m.start - 64):m.start])
            move = _move_of(before.group(1).decode("ascii", "replace"), resized) if before else None
        if move is None:
            continue
        start = data.rfind(b"\n", 0, m.start) + 1
        if start not in lines:
            end = data.find(b"\n", m.start)
            end = len(data) if end == -1 else end
            lines[start] = (start, end) if _MAP.search(data, start, end) is not None else None
        span = lines[start]
        if span is None:
            blocks = _blocks(data) if blocks is None else blocks
            span = _within(blocks, m.start)
        if span is None or _moved_alike(data, span, resized):
            continue
        note = (f"a 1:1 network map (NETMAP, NPTv6, a static or prefix NAT, pfSense/OPNsense 1:1 NAT or NPt, "
                f"an ASA object NAT): {move.old} grows or shrinks to "
                f"{move.new}, and the other side keeps its own length, so the map would no longer be one "
                "to one (a grow folds several hosts onto one); give the other side the new length, or "
                "split the rule, by hand")
        out[index] = replace(m, new=m.old, refused=TIED, note=note)
        # a dotted mask written apart after the held address (ASA `subnet 10.0.48.0 255.255.255.0`)
        after = index + 1
        if after < len(out) and out[after].refused is None and out[after].kept is None \
                and not data[m.end:out[after].start].strip(b" \t") and _is_mask(out[after].old):
            out[after] = replace(out[after], new=out[after].old, refused=TIED, note=note)
    return out


def _is_mask(text: str) -> bool:
    try:
        ipaddress.IPv4Network(f"0.0.0.0/{text.strip()}")
    except ValueError:
        return False
    return True


def _move_of(text: str, moves: Sequence[PrefixMove]) -> PrefixMove | None:
    address = text.split("/")[0].split()[0] if text else ""
    try:
        value = ipaddress.ip_address(address)
    except ValueError:
        return None
    return next((move for move in moves if move.offset_of(value) is not None), None)


def _moved_alike(data: bytes, span: tuple[int, int], moves: Sequence[PrefixMove]) -> bool:
    """Does every network literal of the line belong to a resized move, all to one new length?
    (Cisco's one length for both networks is never so: one address moves, the other is written
    without a length of its own.)"""
    start, end = span
    literals = list(_NETWORK.finditer(data, start, end))
    if len(literals) < 2:
        return False
    lengths = set()
    for found in literals:
        move = _move_of(found.group("addr").decode("ascii", "replace"), moves)
        if move is None:
            return False
        lengths.add(move.new.prefixlen)
    return len(lengths) == 1
