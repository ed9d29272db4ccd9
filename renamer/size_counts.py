"""Counts a resized network's length determines, in the same record, and a broadcast column read by
its header (outside pass t33-33, findings 13 and 14); pure: bytes and matches in, matches out
(`Matcher.table_lengths` asks it under a resized move).

13. A record that gives a network and a count of its size (`usable_hosts: 254`, `total_addresses:
256`, `subnets_64: 65536` beside `cidr:` in one YAML mapping, a JSON or HCL object; a CSV or
Markdown column headed `usable_hosts`, `Hosts`, `Addresses`, `subnets_64`; not `size`, a disk's as
often) kept the old network's count beside the new network. A count is the length's function when
its value is exactly what that function gives for the old network: the usable hosts (2^(32-N) - 2
for an IPv4 /N up to /30), the addresses (2^(W-N)), or for IPv6 the /64s (2^(64-N)) under a name
that says 64. Such a count, under a name that says it is a count, in a record that names the moved
network (the `A/N` cell or value, or the address beside a length column) is rewritten to the same
function of the new length; the one function its value matches decides. After the sweep (the record
names the new network) a count still the old network's is a `tied-length` residual, so verify does
not say OK. Any other number under such a name (hosts in use, a plan) is not the length's function
and is left as it is.

14. A cell under a column headed `broadcast` (`bcast`, `brd`, `broadcast address`) holding the old
network's broadcast address is read as the `broadcast:` key is: the broadcast address, rewritten to
the new network's, not a residual that says its line does not name one.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Sequence
from dataclasses import replace

from renamer import lazy_re, markup_tables, table_lengths
from renamer.delegation_lengths import named_move
from renamer.names import IPNetwork
from renamer.occurrences import Match
from renamer.prefix_moves import BROADCAST, PrefixMove

TIED = "tied-length"  # as prefix_pools.TIED

_BROADCAST_HEADER = lazy_re.compile(r"(?i)\s*(?:broadcast(?:[ _-]?(?:address|addr|ip))?|bcast|brd)\s*")
# A name that says a count of the network's size (its words joined, lower case).
_COUNT_NAMES = frozenset({
    "hosts", "usablehosts", "usable", "hostcount", "numhosts", "nhosts", "usableips", "usableaddresses",
    "usablehostcount", "availablehosts", "maxhosts", "totaladdresses", "addresses", "totalips",
    "numaddresses", "addresscount", "ipcount", "totalhosts", "numips", "addressesperblock",
    "subnets64", "num64s", "slash64s", "count64"})
_NUMBER = lazy_re.compile(r"\s*([0-9]{1,3}(?:,[0-9]{3})+|[0-9]+)\s*")
# A count key on a line of its own: YAML `key: 254`, pretty-printed JSON `"key": 254,`, HCL `key = 254`.
_YAML_COUNT = lazy_re.compile(
    rb"(?m)^([ \t]*(?:-[ \t]+)?)[\"']?([A-Za-z][A-Za-z0-9_ -]*?)[\"']?[ \t]*[:=][ \t]*"
                         rb"([0-9]+)[ \t]*,?[ \t]*(?:(?:#|//)[^\n]*)?\r?$")
# A count key in a one-line object: `{"cidr": "10.0.48.0/24", "usable_hosts": 254}`, `{ hosts = 254 }`.
_INLINE_COUNT = lazy_re.compile(rb"[{,][ \t]*[\"']?([A-Za-z][A-Za-z0-9_-]*)[\"']?[ \t]*[:=][ \t]*([0-9]+)"
                           rb"(?=[ \t]*[,}])")
_NET = re.compile(rb"(?<![0-9A-Za-z.:])((?:[0-9]{1,3}\.){3}[0-9]{1,3}|[0-9A-Fa-f]*:[0-9A-Fa-f:.]*)"
                  rb"/([0-9]{1,3})(?![0-9])")
_MOST_LINES = 30


def _name(text: str) -> str:
    return re.sub(r"[^a-z0-9]", "", text.lower())


# Round 7 (q33-counts): names not listed above, read by their words (`max_hosts`, `ipCapacity`,
# `usable_host_count`, `subnet_size`). A plural noun of what a network holds, or a singular one with
# a word that counts, says a count; a size of a subnet, network or block says its addresses.
_PLURALS = frozenset({"hosts", "addresses", "addrs", "ips", "ipaddresses", "ipaddrs", "ipv4s", "ipv6s"})
_SINGULARS = frozenset({"host", "address", "addr", "ip", "ipv4", "ipv6", "ipaddress", "ipaddr"})
_COUNTING = frozenset({"count", "num", "number", "total", "max", "maximum", "capacity", "usable", "available",
                       "assignable", "n", "nb", "size", "cnt"})
_OTHER_WORDS = frozenset({"of", "per", "in", "the", "all", "valid", "block", "subnet", "network", "net",
                          "cidr", "range"})
_SIZED = frozenset({"subnet", "network", "net", "block", "cidr"})
# A bare word that may be the network's size as often as a disk's, a pool's or a queue's: never
# rewritten, a `tied-length` residual where its value is exactly a count of the network.
MAYBE = frozenset({"size", "capacity", "count", "total", "poolsize", "length", "len"})


def _words(text: str) -> list[str]:
    spaced = re.sub(r"([a-z0-9])([A-Z])", r"\1 \2", text)
    return [w for w in re.split(r"[^a-z0-9]+", spaced.lower()) if w]


def kind(name: str) -> str | None:
    """`count` where `name` says a count of a network's size, `maybe` where it may, else None."""
    joined = _name(name)
    if joined in _COUNT_NAMES:
        return "count"
    if joined in MAYBE:
        return "maybe"
    words = _words(name)
    if not words or any(w not in _PLURALS | _SINGULARS | _COUNTING | _OTHER_WORDS for w in words):
        return None
    if any(w in _PLURALS for w in words):
        return "count"
    if any(w in _SINGULARS for w in words) and any(w in _COUNTING for w in words):
        return "count"
    if "size" in words and any(w in _SIZED for w in words):
        return "count"
    return "maybe" if any(w in ("size", "capacity") for w in words) else None


def _functions(net: IPNetwork, name: str) -> list[tuple[str, int]]:
    """(what, value) of each count of `net`'s size a record's `name` may hold."""
    total = net.num_addresses
    if "64" in name:
        return [("/64s", 2 ** (64 - net.prefixlen))] if net.version == 6 and net.prefixlen <= 64 else []
    out = [("addresses", total)]
    if net.version == 4 and net.prefixlen <= 30:
        out.insert(0, ("usable hosts", total - 2))
    return out


def new_count(move: PrefixMove, name: str, value: int) -> tuple[str, int] | None:
    """The function of the old length that `value` under `name` is, and its value for the new one."""
    if kind(name) is None:
        return None
    olds = [(what, v) for what, v in _functions(move.old, _name(name)) if v == value]
    if len(olds) != 1:
        return None
    news = dict(_functions(move.new, _name(name)))
    what = olds[0][0]
    return (what, news[what]) if what in news else None


def _spelled(value: int, like: str) -> str:
    return f"{value:,}" if "," in like else str(value)


def _network(text: str) -> IPNetwork | None:
    text = text.strip("`*_ \"'")
    if "/" not in text:
        return None
    try:
        return ipaddress.ip_network(text, strict=False)
    except ValueError:
        return None


_MASK_HEADER = lazy_re.compile(r"(?i)mask")


def _is_netmask(text: str) -> bool:
    """A dotted netmask of ones then zeros (`255.255.255.0`), neither 0.0.0.0 nor all ones."""
    try:
        value = int(ipaddress.IPv4Address(text.strip("`*_ ")))
    except ValueError:
        return False
    inverted = value ^ 0xFFFFFFFF
    return value not in (0, 0xFFFFFFFF) and (inverted & (inverted + 1)) == 0


def _row_network(header: list[table_lengths.Cell] | None, row: list[table_lengths.Cell]) -> IPNetwork | None:
    """The network a table row names: an `A/N` cell, or an address cell with a length column."""
    nets = {n for _, _, text in row if (n := _network(text)) is not None}
    if len(nets) == 1:
        return nets.pop()
    if nets or header is None:
        return None
    column = next((i for i, (_, _, name) in enumerate(header)
                   if table_lengths.LENGTH_HEADER.fullmatch(name)), None)
    if column is None:  # a mask column (`| IoT | 192.168.40.0 | 255.255.255.0 | 254 |`: t36-33 finding 08)
        column = next((i for i, (_, _, name) in enumerate(header)
                       if _MASK_HEADER.search(name) and i < len(row) and _is_netmask(row[i][2])), None)
    if column is None or column >= len(row):
        return None
    length = row[column][2].strip().strip("`*_ ").lstrip("/")
    addresses = [text.strip("`*_ ") for i, (_, _, text) in enumerate(row)
                 if i != column and text[:1].isdigit()]
    for text in addresses:
        try:
            return ipaddress.ip_network(f"{text}/{length}")
        except ValueError:
            continue
    return None


def _count_match(start: int, end: int, text: str, name: str, move: PrefixMove, after: bool,
                 where: str) -> Match | None:
    found = _NUMBER.fullmatch(text)
    if found is None:
        return None
    value = int(found.group(1).replace(",", ""))
    counted = new_count(move, name, value)
    if counted is None:
        return None
    if kind(name) == "maybe":  # `size: 256`: the network's, or a disk's (round 7): said, never written
        state = f"is the {counted[0]} of {move.old}, not of {move.new}" if after else \
            f"is exactly the {counted[0]} of {move.old}, which becomes {move.new} ({counted[1]})"
        return Match(start, end, text, text, "network", refused=TIED,
                     note=f"`{name}` {text} {where} {state}: if it counts the network, write "
                          f"{counted[1]} by hand; if it is another size, keep it with a keep rule")
    if after:  # a written record: a count still the old network's is the residual
        return Match(start, end, text, text, "network", refused=TIED,
                     note=f"`{name}` {text} {where} is the {counted[0]} of {move.old}, not of {move.new}: "
                          f"write {counted[1]} by hand, or keep it with a keep rule")
    new = text.replace(found.group(1), _spelled(counted[1], found.group(1)), 1)
    return Match(start, end, text, new, "network",
                 note=f"`{name}` {text} {where}, the {counted[0]} of {move.old}: {move.new} has {counted[1]}")


def _table(data: bytes, rel: str, matches: list[Match],
           moves: Sequence[PrefixMove]) -> tuple[list[Match], list[Match]]:
    """(the matches, a broadcast cell's residual accepted; the count cells added)."""
    by_start = {m.start: i for i, m in enumerate(matches)}
    out, added, dropped = list(matches), [], set()
    for header, row in table_lengths.rows(data, rel):
        if header is None or row is header:
            continue
        state = named_move(_row_network(header, row), moves)
        for index, (start, end, text) in enumerate(row):
            if index >= len(header):
                break
            name = header[index][2]
            at = by_start.get(start)
            if at is not None and out[at].end == end and _BROADCAST_HEADER.fullmatch(name):
                if out[at].refused == BROADCAST and out[at].new != out[at].old:
                    out[at] = replace(out[at], refused=None,
                                      note=f"{out[at].note} (the column's header, `{name}`, says it is one)")
                elif _new_broadcast(out[at].old, moves):
                    dropped.add(at)  # the new broadcast address already (a shrink in place, swept)
                continue
            if state is None or at is not None:
                continue
            hit = _count_match(start, end, text, name, state[0], state[1], f"in the column `{name}`")
            if hit is not None:
                added.append(markup_tables.same_width(data, hit))
    return [m for i, m in enumerate(out) if i not in dropped], added


def _new_broadcast(text: str, moves: Sequence[PrefixMove]) -> bool:
    """Is `text` a resized move's new broadcast address (as `says_broadcast` lets the key's stand)?"""
    try:
        address = ipaddress.ip_address(text)
    except ValueError:
        return False
    return any(m.new_has_broadcast and address == m.new.broadcast_address for m in moves)


def _mapping_network(data: bytes, line_start: int, column: int) -> IPNetwork | None:
    """The one network named in the YAML mapping whose key at `column` is on the line at `line_start`."""
    begin = line_start
    for _ in range(_MOST_LINES):
        if begin == 0:
            break
        prev = data.rfind(b"\n", 0, begin - 1) + 1
        text = data[prev:begin - 1]
        indent = len(text) - len(text.lstrip(b" \t"))
        if not text.strip() or indent < column - 2 \
                or (indent < column and not text.lstrip().startswith(b"-")):
            break
        begin = prev
        if indent < column:
            break
    end = data.find(b"\n", line_start)
    end = len(data) if end < 0 else end
    for _ in range(_MOST_LINES):
        if end >= len(data):
            break
        nxt = data.find(b"\n", end + 1)
        nxt = len(data) if nxt < 0 else nxt
        text = data[end + 1:nxt]
        indent = len(text) - len(text.lstrip(b" \t"))
        if not text.strip() or indent < column or (indent == column and text.lstrip().startswith(b"-")):
            break
        end = nxt
    nets = set()
    for x in _NET.finditer(data, begin, end):
        try:
            nets.add(ipaddress.ip_network(x.group().decode("ascii"), strict=False))
        except ValueError:
            return None
    return nets.pop() if len(nets) == 1 else None


def _line_object(data: bytes, pos: int) -> IPNetwork | None:
    """The one network named in the one-line `{ }` object around `pos`."""
    line_start = data.rfind(b"\n", 0, pos) + 1
    line_end = data.find(b"\n", pos)
    line_end = len(data) if line_end < 0 else line_end
    opened, closed = data.rfind(b"{", line_start, pos), data.find(b"}", pos, line_end)
    if opened < 0 or closed < 0:
        return None
    nets = set()
    for x in _NET.finditer(data, opened, closed):
        try:
            nets.add(ipaddress.ip_network(x.group().decode("ascii"), strict=False))
        except ValueError:
            return None
    return nets.pop() if len(nets) == 1 else None


def _keys(data: bytes, matches: list[Match], moves: Sequence[PrefixMove]) -> list[Match]:
    taken = [(m.start, m.end) for m in matches]
    added = []
    for x in _INLINE_COUNT.finditer(data) if b"{" in data else ():
        name = x.group(1).decode("ascii")
        if kind(name) is None or any(s < x.end(2) and x.start(2) < e for s, e in taken):
            continue
        state = named_move(_line_object(data, x.start()), moves)
        if state is None:
            continue
        hit = _count_match(x.start(2), x.end(2), x.group(2).decode("ascii"), name, state[0], state[1],
                           "beside the network in its object")
        if hit is not None:
            added.append(hit)
            taken.append((hit.start, hit.end))
    for x in _YAML_COUNT.finditer(data):
        name = x.group(2).decode("ascii")
        if kind(name) is None or any(s < x.end(3) and x.start(3) < e for s, e in taken):
            continue
        line_start = data.rfind(b"\n", 0, x.start()) + 1
        state = named_move(_mapping_network(data, line_start, len(x.group(1))), moves)
        if state is None:
            continue
        hit = _count_match(x.start(3), x.end(3), x.group(3).decode("ascii"), name, state[0], state[1],
                           "beside the network in its mapping")
        if hit is not None:
            added.append(hit)
    return added


def count_matches(data: bytes, rel: str, matches: list[Match], moves: Sequence[PrefixMove]) -> list[Match]:
    """`matches` with the size counts of a resized network's records and its broadcast columns."""
    resized = [move for move in moves if move.resized]
    if not resized:
        return matches
    added: list[Match] = []
    if table_lengths.might_hold(data, rel):
        matches, added = _table(data, rel, matches, resized)
    if not rel.lower().endswith(table_lengths.TABLE_SUFFIXES) and (b":" in data or b"=" in data):
        added += _keys(data, [*matches, *added], resized)
    return sorted([*matches, *added], key=lambda m: m.start) if added else matches
