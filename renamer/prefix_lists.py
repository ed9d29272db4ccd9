"""Lists and sets whose bounds or members a resize changes, pure and I/O free (t26-33 findings 08, 10).

* **Prefix-list bounds.** `ip prefix-list L seq 5 permit 10.0.48.0/24 ge 25 le 28` (FRR, Cisco IOS,
  Arista `seq 5 permit ...`), JunOS `route-filter 10.0.48.0/24 prefix-length-range /25-/28` and
  `upto /28`, BIRD `10.0.48.0/24{25,28}`: the bounds are lengths of their own, counted from nothing;
  under a resize the network's length moves and they do not. Where the new length passes a bound
  (`10.0.60.0/26 ge 25`), FRR and IOS refuse the line: the sweep is refused (`tool-refuses`). Where
  it does not, the entry now selects other prefixes than before, or the same ones by chance: a
  `tied-length` residual over the whole entry (network and bounds), never the network alone. Bounds that
  mean "every prefix inside" whatever the length (`le 32`, `ge 32`, `le 128`; `orlonger`, `longer`,
  `exact`) keep their meaning: the network follows as anywhere.
* **Interval sets.** A named nftables set with `flags interval` (and no `auto-merge`) refuses two
  elements that overlap (`conflicting intervals specified`): a grow that makes a moved element
  cover a sibling (`{ 10.0.48.0/24, 10.0.49.0/24 }` under `10.0.48.0/24: 10.0.48.0/23`) would write
  a file nft will not load: refused (`tool-refuses`) at the grown element, and after a sweep that
  wrote it, the same residual. An anonymous set or a `define` is merged by nft: the existing
  collision warning says it. An anonymous map or verdict map (`ip saddr vmap { 10.0.48.0/24 :
  accept, 10.0.49.0/24 : drop }`) is not (its keys carry values): refused as a named set is
  (t31-33 finding 21).
"""

from __future__ import annotations

import ipaddress
import itertools
import re
from collections.abc import Iterator, Sequence
from dataclasses import replace

from renamer import lazy_re, length_ranges
from renamer.names import IPNetwork
from renamer.prefix_moves import LengthHit, PrefixMove
from renamer.prefix_pools import TIED, TOOL

_NET = rb"((?:[0-9]{1,3}\.){3}[0-9]{1,3}|[0-9A-Fa-f]*:[0-9A-Fa-f:]*)/([0-9]{1,3})"
# FRR / IOS / EOS: `[ip|ipv6] prefix-list NAME [seq N] permit|deny NET/LEN [ge A] [le B]`, `seq N permit ...`
_PREFIX_LIST = lazy_re.compile(rb"(?im)^[ \t]*(?:(?:ip|ipv6)[ \t]+prefix-list[ \t]+\S+[ \t]+)?"
                          rb"(?:seq[ \t]+[0-9]+[ \t]+)?(?:permit|deny)[ \t]+" + _NET +
                          rb"((?:[ \t]+(?:ge|le)[ \t]+[0-9]{1,3})+)(?![ \t]*[0-9A-Za-z])")
_BOUND = lazy_re.compile(rb"(ge|le)[ \t]+([0-9]{1,3})")
# JunOS: `route-filter NET/LEN prefix-length-range /A-/B`, `upto /B`
_JUNOS = lazy_re.compile(rb"(?i)route-filter[ \t]+" + _NET +
                    rb"[ \t]+(?:prefix-length-range[ \t]+/([0-9]{1,3})-/([0-9]{1,3})"
                    rb"|upto[ \t]+/([0-9]{1,3}))")
# BIRD: `NET/LEN{A,B}`
_BIRD = lazy_re.compile(
    rb"(?<![0-9A-Za-z.:])" + _NET + rb"\{[ \t]*([0-9]{1,3})[ \t]*,[ \t]*([0-9]{1,3})[ \t]*\}")


def _moved(net_text: bytes, length: bytes, moves: Sequence[PrefixMove]) -> tuple[PrefixMove, bool] | None:
    """The resized move whose old network the literal is (False), or whose new one (True)."""
    try:
        net = ipaddress.ip_network(f"{net_text.decode()}/{int(length)}")
    except ValueError:
        return None
    for move in moves:
        if move.resized and net.version == move.old.version:
            if net == move.old:
                return move, False
            if net == move.new:
                return move, True
    return None


def _bounds_hit(start: int, end: int, text: str, move: PrefixMove, after: bool, ge: int | None,
                le: int | None, spelled: str) -> LengthHit | None:
    top = move.new.max_prefixlen
    if (ge is None or ge == top) and (le is None or le == top):
        return None  # every prefix inside: the same meaning at any length
    new_len = move.new.prefixlen
    bad = list(dict.fromkeys(f"/{bound}" for bound in (ge, le) if bound is not None and bound < new_len))
    if bad:
        return LengthHit(start, end, text, text, TOOL,
                         f"`{text}`: {spelled} are prefix lengths of their own, and {move.new}'s length "
                         f"{new_len} passes {' and '.join(bad)}: the router refuses the entry (FRR: the "
                         "network's length must not exceed ge and le), write the entry by hand")
    if after:
        return None  # written already (by hand, or the bounds fit the new network)
    shift = new_len - move.old.prefixlen
    kept = " ".join(f"{w} {b + shift}" for w, b in (("ge", ge), ("le", le))
                    if b is not None and b + shift <= move.new.max_prefixlen)
    return LengthHit(start, end, text, text, TIED,
                     f"`{text}`: {spelled} are lengths of their own, not counted from the network's, and "
                     f"{move.old} becomes {move.new}: "
                     "the entry would select other prefixes than it did (the same distance from the new "
                     f"length: {kept or 'none fits'}"
                     + ("; Cisco IOS refuses a ge equal to the length" if ge == new_len else "")
                     + "), write the entry by hand")


def prefix_list_hits(data: bytes, moves: Sequence[PrefixMove]) -> Iterator[LengthHit]:
    """Prefix-list entries with bounds over a resized network (`_bounds_hit`)."""
    if b"permit" in data or b"deny" in data:
        for x in _PREFIX_LIST.finditer(data):
            found = _moved(x.group(1), x.group(2), moves)
            if found is None:
                continue
            bounds = {w.decode(): int(v) for w, v in _BOUND.findall(x.group(3))}
            text = data[x.start(1):x.end(3)].decode()
            hit = _bounds_hit(x.start(1), x.end(3), text, found[0], found[1], bounds.get("ge"),
                              bounds.get("le"), "ge and le" if len(bounds) > 1 else next(iter(bounds)))
            if hit is not None:
                yield hit
    if b"route-filter" in data:
        for x in _JUNOS.finditer(data):
            found = _moved(x.group(1), x.group(2), moves)
            if found is None:
                continue
            text = data[x.start(1):x.end()].decode()
            if x.group(5) is not None:
                hit = _bounds_hit(x.start(1), x.end(), text, found[0], found[1], None,
                                  int(x.group(5)), "upto's length")
            else:
                hit = _bounds_hit(x.start(1), x.end(), text, found[0], found[1], int(x.group(3)),
                                  int(x.group(4)), "prefix-length-range's lengths")
            if hit is not None:
                yield hit
    if b"}" in data:
        for x in _BIRD.finditer(data):
            found = _moved(x.group(1), x.group(2), moves)
            if found is not None:
                text = x.group().decode()
                hit = _bounds_hit(x.start(), x.end(), text, found[0], found[1], int(x.group(3)),
                                  int(x.group(4)), "the {low,high} lengths")
                if hit is not None:
                    yield hit
    if b"rule" in data and b"prefix" in data:
        yield from _vyos_hits(data, moves)
    if b"prefix-list" in data and (b"set ge" in data or b"set le" in data):
        yield from _forti_hits(data, moves)
    yield from _range_hits(data, moves)


def _range_hits(data: bytes, moves: Sequence[PrefixMove]) -> Iterator[LengthHit]:
    """GoBGP's masklength-range, RouterOS's prefix-length= and dst-len (length_ranges.py; t31-33
    finding 04): decided as FRR's bounds, save a range from the network's own length to the
    family's longest ("every prefix inside"), whose low bound follows the new length."""
    for entry in length_ranges.ranges(data):
        found = _moved(entry.address, entry.length, moves)
        if found is None:
            continue
        move, after = found
        top = move.new.max_prefixlen
        if entry.low == move.old.prefixlen and entry.high in (None, top) and entry.low_at is not None:
            if not after:
                s, e = entry.low_at
                yield LengthHit(s, e, str(entry.low), str(move.new.prefixlen), note=(
                    f"`{entry.spelled}` from {move.old}'s own length to /{top}: every prefix inside it, "
                    f"from {move.new}'s length"))
            continue
        text = data[entry.start:entry.end].decode()
        hit = _bounds_hit(entry.start, entry.end, text, move, after, entry.low, entry.high,
                          f"its {entry.spelled}")
        if hit is not None:  # over the network and its bounds: never one of them rewritten alone
            whole = data[entry.start:entry.end_all].decode()
            yield replace(hit, end=entry.end_all, old=whole, new=whole)


# VyOS: `set policy prefix-list LAN rule 5 prefix 10.0.48.0/24` beside `... rule 5 ge 25`, or a
# config.boot `rule 5 { ge 25 le 28 prefix 10.0.48.0/24 }` block: the bounds on lines of their own.
_VYOS_SET = lazy_re.compile(
    rb"(?m)^[ \t]*set[ \t]+policy[ \t]+prefix-list6?[ \t]+(\S+)[ \t]+rule[ \t]+([0-9]+)"
                       rb"[ \t]+(?:prefix[ \t]+['\"]?" + _NET + rb"|(ge|le)[ \t]+['\"]?([0-9]{1,3}))")
_VYOS_RULE = lazy_re.compile(rb"(?<![A-Za-z0-9_-])rule[ \t]+([0-9]+)[ \t]*\{")
_VYOS_PREFIX = lazy_re.compile(rb"(?m)^[ \t]*prefix[ \t]+" + _NET + rb"[ \t]*$")
_VYOS_BOUND = lazy_re.compile(rb"(?m)^[ \t]*(ge|le)[ \t]+([0-9]{1,3})[ \t]*$")


def _vyos_hits(data: bytes, moves: Sequence[PrefixMove]) -> Iterator[LengthHit]:
    """VyOS prefix-list rules, whose network and bounds stand on lines of their own: the hit on the
    network, naming the bounds of its rule."""
    Network = tuple[int, int, bytes, bytes]  # start, end, address, length
    rules: dict[tuple[bytes, bytes], list[re.Match[bytes]]] = {}
    for x in _VYOS_SET.finditer(data):
        rules.setdefault((x.group(1), x.group(2)), []).append(x)
    groups: list[tuple[list[Network], dict[str, int]]] = [
        ([(x.start(3), x.end(4), x.group(3), x.group(4)) for x in found if x.group(3) is not None],
         {x.group(5).decode(): int(x.group(6)) for x in found if x.group(5) is not None})
        for found in rules.values()]
    for x in _VYOS_RULE.finditer(data):
        end = _close(data, x.end())
        if end > 0:
            groups.append(([(p.start(1), p.end(2), p.group(1), p.group(2))
                            for p in _VYOS_PREFIX.finditer(data, x.end(), end)],
                           {w.decode(): int(v) for w, v in _VYOS_BOUND.findall(data, x.end(), end)}))
    for networks, bounds in groups:
        if len(networks) != 1 or not bounds:
            continue
        start, end, address, length = networks[0]
        found = _moved(address, length, moves)
        if found is None:
            continue
        text = data[start:end].decode()
        spelled = " and ".join(f"{w} {v}" for w, v in sorted(bounds.items()))
        hit = _bounds_hit(start, end, text, found[0], found[1], bounds.get("ge"), bounds.get("le"),
                          f"its rule's {spelled}")
        if hit is not None:
            yield hit


# FortiGate (t33-33 finding 03): `config router prefix-list` / `prefix-list6` rules, each an `edit N` ..
# `next` block with `set prefix 10.0.48.0 255.255.255.0` (or `A/N`; `set prefix6 A/N`) and `set ge 25`,
# `set le 28` on lines of their own.
_FORTI_EDIT = lazy_re.compile(rb"(?m)^[ \t]*(?:edit[ \t]+\S+|next|end)[ \t]*\r?$")
_FORTI_PREFIX = lazy_re.compile(rb"(?m)^[ \t]*set[ \t]+prefix6?[ \t]+['\"]?((?:[0-9]{1,3}\.){3}[0-9]{1,3}|"
                           rb"[0-9A-Fa-f]*:[0-9A-Fa-f:]*)(?:/([0-9]{1,3})|[ \t]+"
                           rb"((?:[0-9]{1,3}\.){3}[0-9]{1,3}))['\"]?[ \t]*\r?$")
_FORTI_BOUND = lazy_re.compile(rb"(?m)^[ \t]*set[ \t]+(ge|le)[ \t]+([0-9]{1,3})[ \t]*\r?$")


def _forti_hits(data: bytes, moves: Sequence[PrefixMove]) -> Iterator[LengthHit]:
    """FortiGate prefix-list rules: the hit on the rule's prefix, naming the bounds of its `edit`."""
    marks = [m.start() for m in _FORTI_EDIT.finditer(data)] + [len(data)]
    for begin, end in itertools.pairwise(marks):
        if not data[begin:end].lstrip().startswith(b"edit"):
            continue
        prefixes = list(_FORTI_PREFIX.finditer(data, begin, end))
        bounds = {w.decode(): int(v) for w, v in _FORTI_BOUND.findall(data, begin, end)}
        if len(prefixes) != 1 or not bounds:
            continue
        x = prefixes[0]
        length = x.group(2)
        if length is None:
            try:
                length = str(ipaddress.ip_network(f"0.0.0.0/{x.group(3).decode()}").prefixlen).encode()
            except ValueError:
                continue  # no netmask (a wildcard, a typo): nothing to judge
        found = _moved(x.group(1), length, moves)
        if found is None:
            continue
        text = data[x.start(1):x.end(3) if x.group(3) is not None else x.end(2)].decode()
        spelled = " and ".join(f"set {w} {v}" for w, v in sorted(bounds.items()))
        hit = _bounds_hit(x.start(1), x.start(1) + len(text), text, found[0], found[1], bounds.get("ge"),
                          bounds.get("le"), f"its rule's {spelled}")
        if hit is not None:
            yield hit


# -- nftables interval sets ------------------------------------------------------------------------

_SET = lazy_re.compile(rb"(?<![A-Za-z0-9_-])set[ \t]+([A-Za-z0-9_.-]+)[ \t]*\{")
_ELEMENTS = lazy_re.compile(rb"elements[ \t]*=[ \t]*\{([^{}]*)\}")
_FLAGS = lazy_re.compile(rb"flags[ \t]+([^;\n}]*)")
_ELEMENT = lazy_re.compile(rb"(?<![0-9A-Za-z.:])([0-9A-Fa-f.:]+)(?:/([0-9]{1,3})|-([0-9A-Fa-f.:]+))?"
                      rb"(?![0-9A-Za-z.:/-])")

Interval = tuple[int, int, int]  # family, first, last


def _close(data: bytes, start: int) -> int:
    """The end of the brace block opening at `start` - 1, or -1."""
    depth = 1
    for i in range(start, len(data)):
        c = data[i:i + 1]
        if c == b"{":
            depth += 1
        elif c == b"}":
            depth -= 1
            if depth == 0:
                return i + 1
    return -1


def _interval(x: re.Match[bytes]) -> tuple[IPNetwork | None, Interval] | None:
    try:
        first = ipaddress.ip_address(x.group(1).decode())
        if x.group(2) is not None:
            net = ipaddress.ip_network(f"{first}/{int(x.group(2))}", strict=False)
            return net, (net.version, int(net.network_address), int(net.broadcast_address))
        if x.group(3) is not None:
            last = ipaddress.ip_address(x.group(3).decode())
            return None, (first.version, int(first), int(last))
        return ipaddress.ip_network(first), (first.version, int(first), int(first))
    except ValueError:
        return None


def _overlap(a: Interval, b: Interval) -> bool:
    return a[0] == b[0] and a[1] <= b[2] and b[1] <= a[2]


def _set_members(data: bytes) -> dict[bytes, list[tuple[int, int]]]:
    """Each named set that refuses overlapping elements, with the spans of its element lists: one
    declared with `flags interval` and no `auto-merge` (its `elements = { ... }`), and the `add
    element FAMILY TABLE SET { ... }` commands of the file for it, or for a set declared elsewhere
    (prefixes or ranges in one make it an interval set)."""
    declared: dict[bytes, bool] = {}
    out: dict[bytes, list[tuple[int, int]]] = {}
    for s in _SET.finditer(data):
        end = _close(data, s.end())
        if end < 0:
            continue
        flags = b" ".join(f.group(1) for f in _FLAGS.finditer(data, s.end(), end))
        refuses = b"interval" in flags and b"auto-merge" not in data[s.end():end]
        declared[s.group(1)] = refuses
        elements = _ELEMENTS.search(data, s.end(), end)
        if refuses and elements is not None:
            out.setdefault(s.group(1), []).append(elements.span(1))
    for x in _ADD_ELEMENT.finditer(data):
        if declared.get(x.group(1), True):
            out.setdefault(x.group(1), []).append(x.span(2))
    return out


_ADD_ELEMENT = lazy_re.compile(rb"(?<![A-Za-z0-9_-])(?:add|create)[ \t]+element[ \t]+(?:[A-Za-z0-9_]+[ \t]+)?"
                          rb"[A-Za-z0-9_.-]+[ \t]+([A-Za-z0-9_.-]+)[ \t]*\{([^{}]*)\}")


# An anonymous map or verdict map: `ip saddr vmap { A : accept, B : drop }`, `dnat to ip saddr map { A : X }`.
_ANONYMOUS_MAP = lazy_re.compile(rb"(?<![A-Za-z0-9_-])v?map[ \t]*\{")
# The colon between a map element's key and its value (blanks beside it: an IPv6 key has none).
_MAP_COLON = lazy_re.compile(rb"[ \t]+:[ \t]*|[ \t]*:[ \t]+")


def _anonymous_maps(data: bytes) -> dict[str, list[tuple[int, int]]]:
    """Each anonymous map's element keys (t31-33 finding 21): nft merges an anonymous set's
    overlapping elements, never a map's (its keys carry values): `conflicting intervals specified`."""
    out: dict[str, list[tuple[int, int]]] = {}
    for x in _ANONYMOUS_MAP.finditer(data):
        end = _close(data, x.end())
        if end < 0:
            continue
        keys = []
        at = x.end()
        for part in re.finditer(rb"[^,]+", data[x.end():end - 1]):
            colon = _MAP_COLON.search(part.group())
            if colon is not None:
                keys.append((at + part.start(), at + part.start() + colon.start()))
        if len(keys) > 1:
            line = data.count(b"\n", 0, x.start()) + 1
            out[f"the anonymous map at line {line}"] = keys
    return out


def interval_set_hits(data: bytes, moves: Sequence[PrefixMove]) -> Iterator[LengthHit]:
    """In each named set that refuses overlaps (`_set_members`): an element that is a grown network
    (its old one before the sweep, its new one after) overlapping a sibling it did not overlap before."""
    grown = [m for m in moves if m.new.num_addresses > m.old.num_addresses]
    if not grown:
        return
    sets = {f"the interval set `{name.decode()}`": spans
            for name, spans in (_set_members(data).items() if b"element" in data else ())}
    sets.update(_anonymous_maps(data) if b"map" in data else {})
    for name, spans in sets.items():
        members = [(x, found) for start, end in spans for x in _ELEMENT.finditer(data, start, end)
                   if (found := _interval(x)) is not None]
        for x, (net, _) in members:
            move = next((m for m in grown if net is not None and net in (m.old, m.new)), None)
            if move is None:
                continue
            new = move.new
            after = (new.version, int(new.network_address), int(new.broadcast_address))
            before = (new.version, int(move.old.network_address), int(move.old.broadcast_address))
            swallowed = [y.group().decode() for y, (_, other) in members
                         if y is not x and _overlap(after, other) and not _overlap(before, other)]
            if swallowed:
                text = x.group().decode()
                yield LengthHit(x.start(), x.end(), text, text, TOOL,
                                f"{text} is an element of {name}, and as "
                                f"{new} it would overlap {', '.join(swallowed)} beside it: nft refuses a set "
                                "or map whose elements overlap (conflicting intervals specified), drop the "
                                "swallowed elements by hand (or add `auto-merge`), then sweep again")


def list_hits(data: bytes, moves: Sequence[PrefixMove]) -> list[LengthHit]:
    """Every hit of this module's rules in one file, in order."""
    resized = [m for m in moves if m.resized]
    if not resized:
        return []
    hits = [*prefix_list_hits(data, resized), *interval_set_hits(data, resized)]
    return sorted(hits, key=lambda h: h.start)
