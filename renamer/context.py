"""What surrounds an occurrence decides whether it may be rewritten: ranges.

The exact matcher finds a value; these rules look at its neighbours (accounts,
`NAME@host`, are `accounts.py`'s):

- **Ranges.** `web01-web04`, `web01-03`, `web01..web04`, `web01 to web04`,
  `192.0.2.10–.14`, `192.0.2.6-192.0.2.10`, `192.0.2.69-71`, `web{01..03}`,
  `192.0.2.{69,70,71}`: a set of machines written by its ends (or spelled out
  in a brace set). Renaming one member breaks the set (a live prompt became
  "hosts .80 to .74"), so the occurrence is refused with reason `range` and
  left for a person, whatever `derived_names` says.

A range is two numbered ends joined by a separator; the second end is the
same stem with another number, or (after an unspaced separator) the number
alone. Each end may be dressed (`` `web01` ``, `**web01**`, quotes, brackets)
and a host's end may be an FQDN (`web01.lab.example-web05.lab.example`).
`192.0.2.10 - see below` has no second end, so it is no range. A bare
numeric tail must be as wide as the first number or greater than it, so a
derived name such as `ana-ml2-1` is not read as a range.

- **Declared ranges** (`find_declared`). A context may say that two addresses
  are a range's ends where a comma or blanks join them: after a range word on
  the line (`dhcp-range=10.0.40.5,10.0.40.11`, ISC `range 10.0.40.5 10.0.40.11;`,
  Cisco `excluded-address A B`, Junos `address-range low A high B`) or in the
  block below a range key (`dhcp_pools:` then `- [A, B]`), or as a start key and
  an end key (`range_start:`/`range_end:`, `<from>`/`<to>` under a range,
  `-StartRange`/`-EndRange`). An old address at an end is refused with reason
  `range`, as above (an address pool is no set of machines: one inside it is no
  reference).
- **Joined ends of any stem** (`joined_ends`): `10.0.39.200 - 10.0.40.11`,
  `between A and B`, `A up to B`: two addresses joined as a range, whatever
  their /24. **Tables** (`table_ends`): a CSV/TSV/Markdown table whose header
  names a start and an end column; each row's two cells are a range's ends.
- **Sets with shorthand members** (`find_sets`). `10.0.20.21  # or .22`,
  `web01/02`, `web01, 02 and 03`: the shorthand completes the first member's
  stem, so renaming that member to another stem (or renaming a shorthand) breaks
  the set.
"""

from __future__ import annotations

import bisect
import functools
import ipaddress
import itertools
import re
from collections.abc import Callable, Collection, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Literal

from renamer import lazy_re, work

# Every dash a range's ends are joined by, besides `-`: U+2012 figure dash to U+2015 horizontal bar
# (en and em dash among them), U+2026 ellipsis, U+2212 minus, and their HTML entities (break-it
# round 21, finding 5: `10.0.0.70&ndash;74`, `web01 − web05` had one end rewritten).
# The hyphens U+2010 and U+2011, the full-width tilde U+FF5E and the wave dash U+301C (Japanese
# ranges), a Markdown-escaped hyphen `\-` (pandoc) and three dots join them too (t28, finding 05).
# U+2025 two-dot leader, U+22EF midline ellipsis, U+2053 swung dash, U+2E3A/2E3B two- and
# three-em dashes, U+FE58 small em dash, U+FE63 small and U+FF0D full-width hyphen-minus (f30-left).
# Arrows join them as well, in prose (`web01 → web05`, round 23 finding 01): U+2192 and its long,
# double and heavy forms; an arrow also reads "renamed to", which a range residual leaves for a
# person rather than rewrite one end.
_DASHES = (rb"\xe2\x80[\x90-\x95\xa5\xa6]|\xe2\x88\x92|\xef\xbd\x9e|\xe3\x80\x9c|\\-"
           rb"|\xe2\x8b\xaf|\xe2\x81\x93|\xe2\xb8[\xba\xbb]|\xef\xb9[\x98\xa3]|\xef\xbc\x8d"
           rb"|\xe2\x86\x92|\xe2\x9f\xb6|\xe2\x87\x92|\xe2\x9e\x94|&rarr;|&#8594;|&#x2192;"
           rb"|&(?:ndash|mdash|minus|hellip);"
           rb"|&#(?:8208|8209|8210|8211|8212|8213|8722|8230|x201[0-5]|x2212|x2026);")
# The range operators of programming languages: `..`, `...`, Rust's `..=`, Kotlin's and Swift's `..<`,
# Raku's `..^` (round 23 finding 01); Chinese 至 and 到, Japanese から between the ends.
_RANGE_OP = rb"\.\.(?:\.|=|<|\^)?"
_TIGHT = (rb"(?:-|" + _DASHES + rb"|" + _RANGE_OP + rb"|~"
          rb"|[ \t]*(?:\xe8\x87\xb3|\xe5\x88\xb0|\xe3\x81\x8b\xe3\x82\x89)[ \t]*)")  # -, dashes, .., ~
# Spaced forms need a full second end: "10.0.0.1 - 14 hosts" is prose, not a range.
# Prose joins a range's ends with words too (`web01 up to web05`, `10.0.40.2 until 10.0.40.11`,
# `between web01 and web05`); `and` joins ends only after `between` (_between), elsewhere two members.
# Range words of other languages join them the same way (round 23 finding 01: `web01 bis web05`,
# `web01 à web05`, `web01 a web05`, `até`): German `bis`, Dutch `tot` and `t/m`, French `à`, `au`
# and `jusqu'à`, Spanish, Portuguese and Italian `a`, `al`, `ao`, `hasta`, `até`, `fino a`,
# Scandinavian `till`/`til`, Polish, Czech and Slovak `do`, `až`, Russian `до` and `по`; any case
# (SQL's `BETWEEN 'web01' AND 'web05'`).
_LANG_WORDS = (rb"bis|tot|t/m|tot[ \t]+en[ \t]+met|\xc3\xa0|a|au|jusqu'(?:\xc3\xa0|a)|al|ao|hasta"
               rb"|at\xc3\xa9|ate|fino[ \t]+a|til|do|a\xc5\xbe"
               rb"|\xd0\xb4\xd0\xbe|\xd0\x94\xd0\xbe|\xd0\xbf\xd0\xbe")
_WORDS = (rb"-|(?i:to|through|thru|until|till|up[ \t]+to|" + _LANG_WORDS + rb")|(?P<and>(?i:and))")
# An ellipsis list's gap (`web01,…,web05`, `web01, ..., web05`, `10.0.0.70,&hellip;,74`: round 21,
# finding 5's last form), and three dots alone (`web01 ... web05`).
_ELLIPSIS = rb"(?:\xe2\x80\xa6|\.\.\.|&hellip;|&#8230;|&#x2026;)"
_SPACED = (rb"(?:[ \t]*,[ \t]*" + _ELLIPSIS + rb"[ \t]*,[ \t]*"
           rb"|[ \t]*(?:" + _DASHES + rb"|" + _RANGE_OP + rb"|~)[ \t]*|[ \t]+--[ \t]+"
           rb"|[ \t]+(?:" + _WORDS + rb")[ \t]+)")
# Every range has a digit right before its separator (a code span's or emphasis' mark between them at
# most), or a brace set: a file without one (most files, and any file dense with plain references) is
# never searched rule by rule.
RANGE_HINT = lazy_re.compile(rb"[0-9](?:[`*_'\")\]]|\xe2\x80[\x99\x9d\xba]|\xc2\xbb|\xe3\x80\x8d){0,4}[ \t]*"
                        rb"(?:-|~|\.\.|\\-|\xe2\x80[\x90-\x95\xa5\xa6]|\xe2\x88\x92"
                        rb"|\xe2\x8b\xaf|\xe2\x81\x93|\xe2\xb8[\xba\xbb]|\xef\xb9[\x98\xa3]|\xef\xbc\x8d"
                        rb"|\xef\xbd\x9e|\xe3\x80\x9c|&[#a-z]|,[ \t]*(?:\xe2|\.\.\.|&)"
                        rb"|\xe2\x86\x92|\xe2\x9f\xb6|\xe2\x87\x92|\xe2\x9e\x94|\xe8\x87\xb3|\xe5\x88\xb0|\xe3\x81\x8b"
                        rb"|[ \t]+(?:(?i:to|through|thru|until|till|up[ \t]+to|and|" + _LANG_WORDS
                        + rb")|-)[ \t])"
                        rb"|[0-9.A-Za-z_-]\{[0-9]")
# what dresses a range's first end after it, and its second end before it: code spans, emphasis,
# quotes, brackets, a Markdown link's target (`[web01](http://x)–[web05](http://y)`) and an HTML
# element (`<code>web01</code>&ndash;<code>web05</code>`: break-it round 21, finding 5)
_ELEMENT = rb"code|kbd|samp|tt|b|strong|em|i"
# (reStructuredText's double backticks and parentheses too: t28, finding 05)
# (typographic quotes and guillemets too: ‘’ “” «» ‹› 「」, f30-left)
_QUOTES = rb"\xe2\x80[\x98\x99\x9c\x9d\xb9\xba]|\xc2[\xab\xbb]|\xe3\x80[\x8c\x8d]"
_CLOSE = (rb"(?:``|`|\*\*|\*|__|_|'|\"|" + _QUOTES + rb"|\]\([^()\s]{0,200}\)|\]|\)|</(?:" + _ELEMENT
          + rb")>|>)?")
_OPEN = rb"(?:``|`|\*\*|\*|__|_|'|\"|" + _QUOTES + rb"|\[|\(|<(?:" + _ELEMENT + rb")>|<)?"
RangeKind = Literal["host", "address"]  # ranges are of host names or addresses
# What joins a member to the shorthand members after it (`10.0.20.21  # or .22`, `web01, 02 and
# 03`, `web01/02`, `10.0.20.21 & .22`): a set written as one name and abbreviated others.
_JOIN = (rb"(?:\|(?![ \t|])|[ \t]*(?:(?:#|//|--|\()[ \t]*)?(?:,[ \t]*(?:(?:or|and)[ \t]+)?|(?:or|and)[ \t]+"
         rb"|[&+/][ \t]*))")
# A shorthand member of an address set written as a bare last octet (`10.0.0.70/71/72`, `10.0.0.70,71,72`,
# `10.0.0.70 & 71`, `10.0.0.70+71`, `10.0.0.70|71|72`, `10.0.0.70, 71 and 72`; t31 sweep finding 14): a
# bare number after a member (no dot) is one where two or more follow, or one after `&` or `+`, or one
# over 32 after `/` (`10.0.0.70/24` is a prefix length; `10.0.0.70,80` a port or a table's next cell).
_BARE = lazy_re.compile(rb"(?<![.0-9])[0-9]+")
_LENGTH_FIRST = lazy_re.compile(rb"/([0-9]{1,2})(?![0-9])")


@dataclass(frozen=True)
class RangeRule:
    """How one old value is found in a range: its stem (the text before its number) and number."""

    old: str
    new: str
    kind: RangeKind
    stem: bytes
    number: str
    pattern: re.Pattern[bytes]
    braces: re.Pattern[bytes]
    joined: re.Pattern[bytes]  # `10.0.20.21 or .22`, `web01/02`: a member then shorthand members
    stem_moves: bool  # does the new value complete a shorthand differently (another stem)?
    base: int = 10  # an IPv6 address's last group is hex


def range_rule(old: str, new: str, kind: RangeKind) -> RangeRule | None:
    """The rule for `old`, or None when it has no number to range over (`ana-ml` or IPv6)."""
    if kind == "address":
        try:
            version = ipaddress.ip_address(old).version
        except ValueError:
            return None
        if version == 6:
            return _v6_rule(old, new)
        stem, _, number = old.rpartition(".")
        stem += "."
        left, right = rb"(?<![A-Za-z0-9.])", rb"(?![0-9])(?!\.[0-9])"
        second = rb"(?P<s2>" + re.escape(stem.encode()) + rb"|\.)?"
        digits = rb"[0-9]{1,3}"
    else:
        found = re.fullmatch(r"(.*?[^0-9])([0-9]+)", old)
        if found is None:
            return None
        stem, number = found.group(1), found.group(2)
        left, right = rb"(?<![A-Za-z0-9_.\-])", rb"(?![A-Za-z0-9_])"
        second = rb"(?P<s2>" + re.escape(stem.encode()) + rb")?"
        digits = rb"[0-9]+"
    escaped = re.escape(stem.encode())
    # Each end may be dressed (`web01`, **web01**, "web01", [web01]) and a host's end may be an
    # FQDN (web01.lab.example): still a range, each end a member of the set.
    domain = rb"(?:\.[A-Za-z][A-Za-z0-9-]*)*" if kind == "host" else rb""
    pattern = re.compile(left + escaped + rb"(?P<a>" + digits + rb")" + domain + _CLOSE
                         + rb"(?:(?P<tight>" + _TIGHT + rb")|" + _SPACED + rb")" + _OPEN + second
                         + rb"(?P<b>" + digits + rb")" + right)
    braces = re.compile(left + escaped + rb"\{(?P<items>[0-9]+(?:,[0-9]+)+|[0-9]+\.\.[0-9]+)\}")
    # The left boundary is checked in Python (_left_ok): a lookbehind first would cost re its
    # literal-prefix search, ten times slower over a dense file.
    member = rb"\.?[0-9]{1,3}(?![0-9])(?!\.[0-9])" if kind == "address" \
        else rb"[0-9]+(?![A-Za-z0-9_])(?![.-][A-Za-z0-9])"
    joined = re.compile(escaped + rb"(?P<a>" + digits + rb")" + (rb"(?![0-9])(?!\.[0-9])" if kind == "address"
                                                                else rb"(?![0-9])") + domain + _CLOSE
                        + rb"(?P<rest>(?:" + _JOIN + _OPEN + member + _CLOSE + rb")+)")
    if kind == "address":
        new_stem: str | None = new.rpartition(".")[0] + "."
    else:
        new_found = re.fullmatch(r"(.*?[^0-9])([0-9]+)", new)
        new_stem = new_found.group(1) if new_found else None
    return RangeRule(old, new, kind, stem.encode(), number, pattern, braces, joined, new_stem != stem)


_NEVER = lazy_re.compile(rb"(?!)")


def _v6_rule(old: str, new: str) -> RangeRule | None:
    """An IPv6 address ranges over its last group, in hex, as written (`2001:db8::11-2001:db8::15`,
    `2001:db8::11-15`, `fd00::a..fd00::f`; break-it round 12's notes): the stem is the text up to
    the last `:`. No brace sets or shorthand members (`.22`) in IPv6's spellings."""
    stem, _, number = old.rpartition(":")
    if not stem or not re.fullmatch(r"[0-9A-Fa-f]{1,4}", number):
        return None
    stem += ":"
    escaped = re.escape(stem.encode())
    digits = rb"[0-9A-Fa-f]{1,4}"
    pattern = re.compile(rb"(?<![0-9A-Za-z:.])" + escaped + rb"(?P<a>" + digits + rb")" + _CLOSE
                         + rb"(?:(?P<tight>" + _TIGHT + rb")|" + _SPACED + rb")" + _OPEN
                         + rb"(?P<s2>" + escaped + rb")?(?P<b>" + digits + rb")(?![0-9A-Za-z:.])",
                         re.IGNORECASE)
    return RangeRule(old, new, "address", stem.encode(), number, pattern, _NEVER, _NEVER,
                     new.rpartition(":")[0] + ":" != stem, 16)


def find_ranges(data: bytes, rule: RangeRule) -> list[tuple[int, int]]:
    """Spans of the ranges in `data` with `rule.old` at one end (or inside a brace set)."""
    if rule.base != 10:  # IPv6: hex digits in either case, no brace sets
        return [hit.span() for hit in rule.pattern.finditer(data) if _is_range(hit, rule)]
    out = []
    pos = data.find(rule.stem)
    while pos != -1:
        found = _range_at(data, pos, rule)
        if found is not None:
            out.append(found)
        pos = data.find(rule.stem, pos + 1)
    return out


def _range_at(data: bytes, pos: int, rule: RangeRule) -> tuple[int, int] | None:
    hit = rule.pattern.match(data, pos)
    if hit is not None and _is_range(hit, rule):
        return hit.span()
    brace = rule.braces.match(data, pos)
    if brace is not None and _brace_holds(brace.group("items").decode(), rule.number):
        return brace.span()
    return None


def _is_range(hit: re.Match[bytes], rule: RangeRule) -> bool:
    a, b = hit.group("a").decode(), hit.group("b").decode()
    if rule.base != 10:  # IPv6's hex group: compared as numbers, in decimal below
        a, b = str(int(a, rule.base)), str(int(b, rule.base))
        rule = replace(rule, number=str(int(rule.number, rule.base)))
    if int(a) == int(b):
        return False
    if hit.group("and") is not None and not _between(hit.string, hit.start()):
        return False  # `web01 and web05`: two members, each its own reference
    if _source_and_target(hit):
        return False  # `ufw allow from 10.0.40.11 to 10.0.40.12 port 22`: a rule's source and target
    full = hit.group("s2") is not None and hit.group("s2") != b"."
    if not full:
        if hit.group("s2") is None and hit.group("tight") is None and not (
                rule.kind == "host" and len(a) == len(b) >= 2 and a.startswith("0") and b.startswith("0")):
            # a spaced separator then a bare number: prose (`web01 – 10 hosts`); both ends padded to
            # one width (`web01 – 05`, `web01 to 05`) are a range (t28, finding 05)
            return False
        if rule.kind == "host" and len(a) != len(b):
            return False  # web01-2024 (a year), ana-ml2-10: a name, not a set of machines
        if int(b) < int(a) and not len(a) == len(b) >= 2:
            return False  # ana-ml2-1: a derived name, not the range 2 down to 1 (web04-01 is one)
    if rule.kind == "address" and rule.base == 10 and int(b) > 255:
        return False
    # At either end, or inside: a rewrite of one end breaks the set, and a set that still holds
    # the old member no longer covers the machine that moved.
    low, high = sorted((int(a), int(b)))
    return low <= int(rule.number) <= high and (len(rule.number) in (len(a), len(b))
                                                 or rule.kind == "address")


_TO = lazy_re.compile(rb"[ \t]+to[ \t]+", re.IGNORECASE)
_FROM_BEFORE = lazy_re.compile(rb"(?<![A-Za-z0-9_])from[ \t]+" + _OPEN + rb"\Z", re.IGNORECASE)
# Words of a rule, a route or a move: a line holding one reads `from A to B` as a source and a
# target (ufw, pf, ipfw, `route from`, `copy from A to B`), not as a range's ends.
_FLOW = lazy_re.compile(rb"(?<![A-Za-z0-9_-])(?:ufw|pass|block|allow|deny|reject|permit|drop|accept|ipfw|rdr"
                   rb"|nat|binat|proto|port|iptables|nft|route|routes|forward|redirect|traffic|packets?|ssh|scp|rsync|copy"
                   rb"|mov(?:e|es|ed|ing)|migrat(?:e|es|ed|ing)|connect|connections?"
                   # a failover's or a switch's two machines (break-it round 12, #4)
                   rb"|fail(?:s|ed|ing)?[ \t-]?over|failover|failback|switch(?:es|ed|ing)?|switchover|repoint"
                   rb"|point(?:s|ed|ing)?|cut(?:s|ting)?[ \t-]?over|cutover|hand(?:s|ed)?[ \t-]?over|handover"
                   rb"|promot(?:e|es|ed|ing)|vip)(?![A-Za-z0-9_-])", re.IGNORECASE)


def _source_and_target(hit: re.Match[bytes]) -> bool:
    """Is the pair `hit` `from A to B` on a line holding a rule's, a route's or a move's word?"""
    data = hit.string
    if _TO.search(data, hit.end("a"), hit.start("b")) is None \
            or _FROM_BEFORE.search(data, max(0, hit.start() - 12), hit.start()) is None:
        return False
    line = data.rfind(b"\n", 0, hit.start()) + 1
    end = data.find(b"\n", hit.end())
    return _FLOW.search(data, line, len(data) if end == -1 else end) is not None


_BETWEEN = lazy_re.compile(rb"(?<![A-Za-z0-9_])between[ \t]+" + _OPEN + rb"\Z", re.IGNORECASE)


# A link's two ends, not a range's: `latency between A and B`, `the tunnel between A and B`
_LINK_BETWEEN = lazy_re.compile(rb"(?<![A-Za-z0-9_])(?:latency|link|links|traffic|tunnel|tunnels|connection"
                           rb"|connections|connectivity|ping|pings|cable|cables|peering|route|routes|path|paths|bandwidth|hops?"
                           rb"|vpn|wireguard|sync|replication|rtt|jitter|mtu|handshake|failover|failback|switchover"
                           rb"|choose|chooses|pick|picks|select|selects|balance|balances|alternate|alternates"
                           rb"|alternating)[ \t]+between[ \t]+"
                           + _OPEN + rb"\Z", re.IGNORECASE)


def _between(data: bytes, start: int) -> bool:
    """Does `between` stand right before the range's first end at `start` (`between A and B`), and
    no link's noun before it (`latency between A and B`: a link's two ends, each a reference)?"""
    return _BETWEEN.search(data, max(0, start - 16), start) is not None \
        and _LINK_BETWEEN.search(data, max(0, start - 40), start) is None


def _brace_holds(items: str, number: str) -> bool:
    if ".." in items:
        low, high = (int(x) for x in items.split(".."))
        return min(low, high) <= int(number) <= max(low, high)
    return any(int(item) == int(number) and len(item) == len(number) for item in items.split(","))


def _left_ok(data: bytes, pos: int, kind: RangeKind) -> bool:
    """No name or address continues before `pos` (the rule patterns' left boundary)."""
    before = data[pos - 1:pos]
    return not before or before not in (b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789."
                                        + (b"_-" if kind == "host" else b""))


def _bare_members_set(rest: bytes) -> bool:
    """Whether the members after an address (`rest`) read as a set where some are bare last octets
    (`/71/72`, `,71,72`, `& 71`, `+71`, `|71|72`, `, 71 and 72`); True where none is bare (`.22`)."""
    lead = _LENGTH_FIRST.match(rest)
    if lead is not None and int(lead.group(1)) <= 32:
        return False  # `cidrhost("10.0.40.0/24", 11)`: a network with its length, then an argument
    bare = _BARE.findall(rest)
    if len(bare) != 1:
        return True
    head = rest[:rest.find(bare[0])]
    if b"&" in head or b"+" in head:
        return True
    return b"/" in head and int(bare[0]) > 32


def find_sets(data: bytes, rules: Sequence[RangeRule]) -> list[tuple[tuple[int, int], RangeRule]]:
    """Spans of the sets written as one member then shorthand members (`10.0.20.21  # or .22`,
    `web01, 02 and 03`, `web01/02`) that a rewrite would break, each with its rule: a shorthand
    is the old value (no text edit follows it), or the old value is the member spelled in full
    and the new value has another stem, so that each shorthand would then complete to a machine
    that did not move. (Where only the number changes, `.22` still completes to the same machine:
    no set here.) One regex search per stem, however many rules share it (`node01`..`node50`)."""
    groups: dict[tuple[str, bytes], list[RangeRule]] = {}
    for rule in rules:
        if rule.stem in data:
            groups.setdefault((rule.kind, rule.stem), []).append(rule)
    out = []
    for group in groups.values():
        kind = group[0].kind
        for hit in group[0].joined.finditer(data):
            start, end = hit.span()
            if not _left_ok(data, start, kind):
                continue
            rest = hit.group("rest")
            if b"/" in rest and (data[start - 1:start] in (b"/", b"@") or data[end:end + 1] == b"/"):
                continue  # a path's folders (`/srv/web01/02/`, a URL's `redis://:pw@web01/0`), not a set
            quote = data[hit.start("rest") - 1:hit.start("rest")]
            if quote in (b"'", b'"') and quote not in rest:
                continue  # `['ana-ml2', 0]`: a quoted member then a bare number is a list's next item
            before = data[data.rfind(b"\n", 0, start) + 1:start]
            if rest.lstrip(b" \t")[:1] == b"," and before.count(b"[") > before.count(b"]"):
                continue  # `root: [ana-ml2, 0]` (YAML's flow list, unquoted): the list's next item too
            first = hit.group("a").decode()
            members = [m.decode() for m in re.findall(rb"[0-9]+", rest)]
            if kind == "address" and any(int(m) > 255 for m in members):
                continue
            if kind == "address" and not _bare_members_set(rest):
                continue  # `10.0.20.21/24`: a prefix length; `10.0.0.70,80`: a port or the next cell
            if kind == "host" and not all(len(m) == len(first) or (first[0] != "0" and len(m) > len(first))
                                          for m in members):
                continue  # `web01 and 2 more`: a count, not a member (web01, 02: as wide as it)
            for rule in group:
                if kind == "address":
                    abbreviated = any(int(m) == int(rule.number) for m in members)
                else:
                    abbreviated = any(m.zfill(len(first)) == rule.number for m in members)
                if abbreviated or (first == rule.number and rule.stem_moves):
                    out.append(((start, end), rule))
                    break
    return out


# -- ranges declared by their context ----------------------------------------------------------------
# `dhcp-range=10.0.40.5,10.0.40.11,12h`, ISC `range 10.0.40.5 10.0.40.11;`, `pool: [a, b]`: a
# directive or key naming a range or pool, then two addresses joined by a comma or blanks (the
# separators of _TIGHT and _SPACED are read without it). And a range written as two keys, one for
# each end (`start: 10.0.40.5` / `end: 10.0.40.11`, `range_start=`, `<from>`/`<to>` under a range,
# `-StartRange a -EndRange b`, `start='a' end='b'`). An old address at either end is refused with
# reason `range`, as at a range's end above; one inside such a pool is no reference (_holding).
# Looked for in the file lower-cased (one copy, the same offsets): one `find` pass a word.
# Cisco's `ip dhcp excluded-address A B`, Huawei's `excluded-ip-address A B`, H3C's
# `dhcp server forbidden-ip A B` (break-it round 12, #1)
_RANGE_WORDS = (b"range", b"pool", b"excluded-address", b"excluded-ip-address", b"forbidden-ip")
# Junos `address-range low A high B`, VirtualBox `--lowerip A --upperip B`, `dhcp_min:`/`dhcp_max:`
# The keys whose `from`/`to` pair is a span of addresses kept out of use (break-it round 21, #23):
# the nearest enclosing key names it, `exclude:`, `reserved:`, `static_leases:`, `allocation:`.
_FROM_TO_PARENT = lazy_re.compile(
    rb"(?i)\b(?:exclu\w*|reserv\w*|static[_-]?leases?|allocations?)[\"']?[ \t]*[:=]"
                             rb"[^\n]*\n?(?:[ \t]*(?:-[ \t]*)?[\w\"']+[ \t]*:[^\n]*\n)?[^\n]*\Z")
_START_WORDS = (b"start", b"begin", b"first", b"from", b"low", b"lower", b"min", b"minimum")
# A range word is a word of its own, or a key's segment (`ip_pool`, `dhcp-range`, `ipRange`), or
# after one of these (`iprange`, netsh `excluderange`, `addresspool`); never the tail of another
# word (`spool`, `arrange`, `strange`, `whirlpool`, `Liverpool`). After it: an end, `s`, a non-
# letter, a camel-cased segment or a start or end word (`ranges`, `range_start`, `poolstart`).
_WORD_PREFIXES = (b"ip", b"dhcp", b"exclude", b"address", b"addr", b"lease", b"scope",
                  b"subnet", b"net", b"host", b"src", b"dst")
_WORD_SUFFIXES = (b"", b"s", b"start", b"begin", b"first", b"low", b"lower", b"min", b"end", b"stop",
                  b"last", b"high", b"upper", b"max")
_LETTERS = lazy_re.compile(rb"[a-z]*")
# Directives whose arguments are a range's ends by position, after the arguments that are not:
# OpenVPN `server-bridge GATEWAY NETMASK POOL-START POOL-END` (its third and fourth addresses).
_POSITIONAL = {b"server-bridge": 2}
_V4 = rb"(?<![0-9A-Za-z.])[0-9]{1,3}\.[0-9]{1,3}\.[0-9]{1,3}\.[0-9]{1,3}(?![0-9]|\.[0-9])"
_ADDRESS = re.compile(_V4)
# An IPv4 or IPv6 address (two colons at least; a zone ID, a port's bracket or a dash ends it): the
# ends of an IPv6 range (`2001:db8:a::10-2001:db8:a::20`, dnsmasq's `dhcp-range=A,B,64`).
_ANY_ADDRESS = lazy_re.compile(_V4 + rb"|(?<![0-9A-Za-z.:])(?=[0-9A-Fa-f:]*:[0-9A-Fa-f]*:)[0-9A-Fa-f:]+"
                          rb"(?:[0-9]{1,3}(?:\.[0-9]{1,3}){3})?(?![0-9A-Za-z:.])")
# A pool whose key names machines is a list of members (two backends, two NTP servers), not a range
_MEMBERS = lazy_re.compile(
    rb"(?<![a-z])(?:backends?|servers?|members?|nodes?|upstreams?|workers?|hosts?|targets?"
                      rb"|peers?|ntp|dns|resolvers?|replicas?)(?![a-z])")
_WORD_END = lazy_re.compile(rb"[A-Za-z0-9_]*")  # the rest of a key or directive holding a range word
# What joins a declared range's two ends: a comma, blanks, a dash, or a joining or end word
# (`range 10.0.40.5 to 10.0.40.11`, Junos `low 10.0.40.5 high 10.0.40.11`).
_PAIR = lazy_re.compile(rb"[\"'`\]]?(?:[ \t]*[,;][ \t]*|[ \t]*(?:-|" + _DASHES + rb"|\.\.|~)[ \t]*"
                   rb"|[ \t]+(?:(?:to|through|thru|until|till|up[ \t]+to|and|high|end|last|stop)[ \t]+)?)"
                   rb"[\"'`\[]?", re.IGNORECASE)
_KEY_SEP = rb"(?P<sep>[\"']?[ \t]*[:=][ \t]*[\"']?|[\"']?>|[ \t]+[\"']?)"
_KEY_BEFORE = lazy_re.compile(rb"(?P<key>[A-Za-z][A-Za-z0-9_-]{0,40})" + _KEY_SEP + rb"\Z")
# A start word, the rest of its key and an address as its value, over the lower-cased file: one
# search a word (each starts with its literal, which re finds in C).
_STARTED = tuple(re.compile(word + rb"[a-z0-9_-]{0,40}" + _KEY_SEP + rb"(?P<value>" + _V4 + rb")")
                 for word in _START_WORDS if not any(word != w and word.startswith(w) for w in _START_WORDS))
_KEYED = lazy_re.compile(rb"(?P<key>[A-Za-z][A-Za-z0-9_-]{0,40})" + _KEY_SEP + rb"(?P<value>" + _V4 + rb")")
_SEGMENTS = lazy_re.compile(rb"[A-Z]?[a-z0-9]+|[A-Z]+(?![a-z])")
# `lo`/`hi` name a range's ends as a key's word (`lo: 10.0.0.70` / `hi: 10.0.0.74`, t28 finding 05),
# never looked for alone: a key pair is read from a value the matcher found (keyed_ends)
_STARTS = frozenset((*_START_WORDS, b"lo"))
_ENDS = frozenset({b"end", b"stop", b"last", b"to", b"high", b"hi", b"upper", b"max", b"maximum"})
_NEAR = 400  # how far apart the two keys of one range may stand (one record)


def range_word_at(data: bytes, lowered: bytes, pos: int, word: bytes) -> bool:
    """Is the range word `word` at `pos` (of `lowered`, `data` lower-cased) a word or a key's
    segment of its own (above), not the tail or head of another word?"""
    if pos > 0 and lowered[pos - 1:pos].isalpha() and not (data[pos:pos + 1].isupper()
                                                           and data[pos - 1:pos].islower()):  # `ipRange`
        first = pos - 1
        while first > 0 and pos - first < 8 and lowered[first - 1:first].isalpha():
            first -= 1
        if lowered[first - 1:first].isalpha() or lowered[first:pos] not in _WORD_PREFIXES:
            return False
    end = pos + len(word)
    if data[end:end + 1].isupper() and data[end - 1:end].islower():
        return True  # `rangeStart`, `poolName`: a camel-cased key's next segment
    tail = _LETTERS.match(lowered, end)
    return tail is None or tail.group() in _WORD_SUFFIXES


def has_range_word(text: bytes) -> bool:
    """Does `text` hold a range word of its own (range_word_at)?"""
    lowered = text.lower()
    return any(range_word_at(text, lowered, pos, word)
               for word in _RANGE_WORDS for pos in _finds(lowered, word))


def find_declared(data: bytes, rules: Sequence[RangeRule],
                  found: Collection[str]) -> list[tuple[tuple[int, int], RangeRule]]:
    """Spans of the ends of ranges declared by their context (above) that spell an old address,
    each with its rule. Looked at only in a file
    holding an address under an old one's stem, and there only where a range word or a start
    key's word stands (`bytes.find` in C over one lower-cased copy): the work follows those words,
    not the file's addresses, and is done once for all the rules. An end spells the old address,
    so only the rules of the old addresses the exact matcher `found` in the file are asked."""
    held = [rule for rule in rules if rule.kind == "address" and (rule.old in found or ":" in rule.old)]
    if not held:
        return []
    out: set[tuple[tuple[int, int], RangeRule]] = set()
    v4 = [rule for rule in held if ":" not in rule.old]
    for a, b in _declared_pairs(data) if v4 else ():
        for rule in v4:
            span = _holding(a, b, int(ipaddress.IPv4Address(rule.old)))
            if span is not None:
                out.add((span, rule))
    # IPv6 twins (t31 round 24, finding 23): dnsmasq `dhcp-range=fd00::70,fd00::74,64`, dhcpd6
    # `range6 fd00::70 fd00::74;`: one end rewritten alone runs the range backwards
    present = {_v6_int(text) for text in found if ":" in text} - {None}
    v6 = [rule for rule in rules
          if rule.kind == "address" and ":" in rule.old and _v6_int(rule.old) in present]
    for a, b in _declared_pairs(data, _ANY_ADDRESS) if v6 else ():
        for rule in v6:
            span = _holding(a, b, int(ipaddress.IPv6Address(rule.old)), v6=True)
            if span is not None:
                out.add((span, rule))
    return sorted(out, key=lambda pair: pair[0])


Ends = tuple[re.Match[bytes], re.Match[bytes]]


def declared_ends(data: bytes, *, v6: bool = False) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """The spans of the two ends of each range the file declares by its context (a DHCP range or
    pool, a start key and its end key): for the network moves' range rule (match.py). `v6`: IPv6
    ends too (`range 2001:db8:a::10 2001:db8:a::20`, dnsmasq's v6 `dhcp-range=`), each an address."""
    if not v6:
        return [((a.start(), a.end()), (b.start(), b.end())) for a, b in _declared_pairs(data)]
    return [((a.start(), a.end()), (b.start(), b.end())) for a, b in _declared_pairs(data, _ANY_ADDRESS)
            if _parses(a.group()) and _parses(b.group())]


def _parses(text: bytes) -> bool:
    try:
        ipaddress.ip_address(text.decode("ascii"))
    except ValueError:
        return False
    return True


def _declared_pairs(data: bytes, address: re.Pattern[bytes] = _ADDRESS) -> list[Ends]:
    """The two ends of each range the file declares (a range word's line, a start key's pair)."""
    lines_seen: set[int] = set()
    looked = 0
    out = []
    lowered = data.lower()
    for word in _RANGE_WORDS:
        for pos in _finds(lowered, word):
            line = data.rfind(b"\n", 0, pos) + 1
            if line in lines_seen or not range_word_at(data, lowered, pos, word):
                continue
            looked += 1
            lines_seen.add(line)
            after = _WORD_END.match(data, pos + len(word))
            rest = after.end() if after else pos + len(word)
            if word == b"pool" and _MEMBERS.search(lowered, _key_start(lowered, line, pos), rest):
                continue  # `haproxy_backend_pool:`, `ntp_server_pool`: a pool of machines, each a member
            pair = _declared_after(data, rest, word, address)
            if pair is not None:
                out.append(pair)
            else:
                out += _declared_below(data, line, rest, address)
    for directive, skip in _POSITIONAL.items():
        for pos in _finds(lowered, directive):
            line = data.rfind(b"\n", 0, pos) + 1
            args = pos + len(directive)
            if data[line:pos].strip(b" \t") or data[args:args + 1] not in b" \t":
                continue  # the directive opens its line, its arguments follow
            looked += 1
            end = data.find(b"\n", pos)
            end = len(data) if end == -1 else end
            found = list(itertools.islice(address.finditer(data, pos, end), skip + 2))
            if len(found) == skip + 2 and _PAIR.fullmatch(data, found[skip].end(), found[skip + 1].start()):
                out.append((found[skip], found[skip + 1]))
    for started in _STARTED:  # in C: only a start word that ends a key holding an address
        for value in started.finditer(lowered):
            looked += 1
            pair = _keyed_pair(data, value.start("value"))
            if pair is not None:
                out.append(pair)
    work.add("range context checks", looked)
    return [pair for pair in out if not _network_and_mask(pair)]


def _network_and_mask(pair: Ends) -> bool:
    """Is the second "end" the first's netmask (OSPF `area 0 range 10.0.48.0 255.255.255.0`,
    t31-33 finding 06): ones then zeros from a leading 255, after an address of another first
    octet? A network and its mask, never a range (the mask follows as prefix_moves' masks do)."""
    try:
        first = ipaddress.ip_address(pair[0].group().decode("ascii"))
        second = ipaddress.ip_address(pair[1].group().decode("ascii"))
    except ValueError:
        return False
    if first.version != 4 or second.version != 4:
        return False
    value = int(second)
    inverted = value ^ 0xFFFFFFFF
    return (value >> 24 == 255 and value != 0xFFFFFFFF and (inverted & (inverted + 1)) == 0
            and int(first) >> 24 != 255)


def _key_start(data: bytes, line: int, pos: int) -> int:
    """Where the key or directive holding the word at `pos` starts (no further back than `line`)."""
    start = pos
    while start > max(line, pos - 40) and data[start - 1] in _KEY_BYTES:
        start -= 1
    return start


_KEY_BYTES = frozenset(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-")


def _finds(data: bytes, word: bytes) -> Iterator[int]:
    pos = data.find(word)
    while pos != -1:
        yield pos
        pos = data.find(word, pos + 1)


# A range word that names a call (`summarize_address_range(`, `ip_range(`, round 23 finding 01) takes
# its ends as its first two arguments, each maybe wrapped in a constructor (`IPv4Address('A')`).
_CALL_PAIR = lazy_re.compile(rb"[\"'`]?[ \t]*\)?[ \t]*,[ \t]*(?:[A-Za-z_][\w.]{0,60}[ \t]*\()?[ \t]*[\"'`]?")
# A range word's line naming two host names (round 23 finding 01: `range: [web01, web05]`,
# `"hosts_range": ["web01", "web05"]`, `nodes_range = web01..web05`): the key's separator and a
# bracket before the first, the pair's joiner between, a bracket or the line's end after the second.
_HOST_LEAD = lazy_re.compile(rb"[A-Za-z0-9_-]*[\"'`]?[ \t]*(?:=>|[:=])?[ \t]*[\[({]?[ \t]*[\"'`]?")
_HOST_NAME = lazy_re.compile(rb"[A-Za-z][A-Za-z0-9_-]*?[0-9]+(?:\.[A-Za-z][A-Za-z0-9-]*)*(?![A-Za-z0-9_.-])")
_HOST_TAIL = lazy_re.compile(rb"[\"'`]?[ \t]*(?:[\])}][ \t]*[,;]?[ \t]*)*(?:(?:#|//)[^\n]*)?\r?(?:\n|\Z)")


def find_declared_hosts(data: bytes, rules: Sequence[RangeRule],
                        found: Collection[str]) -> list[tuple[tuple[int, int], RangeRule]]:
    """Spans of the old host names that are one end of a pair of numbered names of one stem a
    range word's line declares (`range: [web01, web05]`): the same pair of addresses is a
    declared range (find_declared); of host names it is one too, decided by the pair (two
    numbered names of one stem, the old one an end), not by a list of keys. A `pool` of names is
    a list of members (docs/matching.md), so only `range` declares here."""
    held = [rule for rule in rules if rule.kind == "host" and rule.old in found]
    if not held or (b"ange" not in data and b"ANGE" not in data):
        return []
    lowered = data.lower()
    out: list[tuple[tuple[int, int], RangeRule]] = []
    for pos in _finds(lowered, b"range"):
        if not range_word_at(data, lowered, pos, b"range"):
            continue
        lead = _HOST_LEAD.match(data, pos + len(b"range"))
        first = _HOST_NAME.match(data, lead.end()) if lead else None
        if first is None:
            continue
        end = data.find(b"\n", first.end())
        end = len(data) if end == -1 else end
        joiner = _PAIR.match(data, first.end(), end)
        second = _HOST_NAME.match(data, joiner.end()) if joiner and joiner.end() > first.end() else None
        if second is None or _HOST_TAIL.match(data, second.end()) is None:
            continue
        for rule in held:
            ends = [hit for hit in (first, second) if _numbered(hit.group(), rule) is not None]
            numbers = {_numbered(hit.group(), rule) for hit in ends}
            olds = [hit for hit in ends if hit.group().split(b".")[0] == rule.old.encode()]
            if len(ends) == 2 and len(numbers) == 2 and olds:
                out += [(olds[0].span(), rule)]
    return out


def _numbered(name: bytes, rule: RangeRule) -> int | None:
    """The number of `name`'s first label where it is `rule`'s stem and a number, else None."""
    label = name.split(b".")[0]
    if not label.startswith(rule.stem) or not label[len(rule.stem):].isdigit():
        return None
    return int(label[len(rule.stem):])


def _netmask(text: bytes) -> bool:
    """A dotted IPv4 netmask of ones then zeros (`255.255.255.0`), never a member's address
    (t36-33 finding 07)."""
    try:
        value = int(ipaddress.IPv4Address(text.decode("ascii")))
    except ValueError:
        return False
    inverted = value ^ 0xFFFFFFFF
    return value >= 0x80000000 and value != 0xFFFFFFFF and (inverted & (inverted + 1)) == 0


def _declared_after(data: bytes, start: int, word: bytes,
                    address: re.Pattern[bytes] = _ADDRESS) -> Ends | None:
    """The range the rest of the line after a range word declares: its first two addresses,
    joined by a comma, blanks or a dash (dressed or not)."""
    end = data.find(b"\n", start)
    end = len(data) if end == -1 else end
    found = list(itertools.islice(address.finditer(data, start, end), 3))
    if len(found) < 2:
        return None
    if not _PAIR.fullmatch(data, found[0].end(), found[1].start()) and not (
            data[start:start + 1] == b"(" and _CALL_PAIR.fullmatch(data, found[0].end(), found[1].start())):
        return None
    if word == b"pool" and len(found) == 3 and _PAIR.fullmatch(data, found[1].end(), found[2].start()) \
            and not _netmask(found[2].group()):  # OpenVPN `ifconfig-pool A B M`: a range and its mask
        return None  # `pool: a, b, c`: a list of members, each its own reference
    return found[0], found[1]


_LIST_ITEM = lazy_re.compile(
    rb"[ \t]*(?:-[ \t]+)?[\[({]?[ \t]*[\"'`]?")  # `- [`, `[`, `- "`: a list item's start
_BELOW = 64  # how many lines of a range key's block are read


def _declared_below(data: bytes, line: int, rest: int, address: re.Pattern[bytes] = _ADDRESS) -> list[Ends]:
    """The ranges a range key declares in the block below it, where its own line holds no address
    (`dhcp_pools:` then `- [10.0.40.5, 10.0.40.11]` items, a JSON list of pairs, a block list of
    exactly two addresses, Junos `address-range {` then `low A;` and `high B;`, FortiOS `config
    ip-range` then `set start-ip A` and `set end-ip B`): each item that is a pair of addresses,
    and two lone addresses each a list item or under a start or end key, are ends."""
    end = data.find(b"\n", rest)
    if end == -1 or address.search(data, rest, end) is not None:
        return []
    indent = len(data[line:rest]) - len(data[line:rest].lstrip(b" \t"))
    pairs: list[Ends] = []
    singles: list[re.Match[bytes]] = []
    others = 0
    for _ in range(_BELOW):
        start, end = end + 1, data.find(b"\n", end + 1)
        if start >= len(data):
            break
        end = len(data) if end == -1 else end
        text = data[start:end]
        body = text.lstrip(b" \t")
        if not body.strip():
            continue
        inner = len(text) - len(body)
        if inner < indent or (inner == indent and not body.startswith(b"- ")):
            break  # the block ends (a YAML list may stand at its key's indent)
        found = list(itertools.islice(address.finditer(data, start, end), 3))
        if not found:
            continue
        item = _LIST_ITEM.match(data, start, found[0].start())
        listed = item is not None and item.end() == found[0].start()
        if len(found) == 2 and listed and _PAIR.fullmatch(data, found[0].end(), found[1].start()):
            pairs.append((found[0], found[1]))
        elif len(found) == 1 and (listed or _key_kind(data[start:found[0].start()]) is not None):
            singles.append(found[0])
        else:
            others += 1
    if len(singles) == 2 and not others and not pairs:
        pairs.append((singles[0], singles[1]))
    return pairs


def _v6_int(text: str) -> int | None:
    try:
        return int(ipaddress.IPv6Address(text))
    except ValueError:
        return None


def _holding(a: re.Match[bytes], b: re.Match[bytes], old: int, *, v6: bool = False) -> tuple[int, int] | None:
    """The end of the range from `a` to `b` that spells `old`, where one does: rewriting it alone
    would move one end (dnsmasq then refuses an "inconsistent DHCP range"). An address merely
    inside such a pool is no reference to the machine (a dhcp-host reserved inside the pool
    moves out of it, and the pool stays valid): None."""
    if a.group() == b.group():
        return None
    parse = ipaddress.IPv6Address if v6 else ipaddress.IPv4Address
    for end in (a, b):
        try:
            if int(parse(end.group().decode())) == old:
                return end.span()
        except ValueError:
            return None
    return None


_ADDRESS_TAIL = lazy_re.compile(rb"(?P<word>[a-z]+?)(?:ip|ipaddr|ipaddress|addr|address|ipv4)")


@functools.lru_cache(maxsize=4096)
def _key_kind(key: bytes) -> str | None:
    words = {w.lower() for w in _SEGMENTS.findall(key)}
    # one segment of an end word and an address word: VirtualBox `--lowerip`/`--upperip`, `startaddr`
    words |= {tail.group("word") for w in words if (tail := _ADDRESS_TAIL.fullmatch(w)) is not None}
    if words & _STARTS:
        return "start"
    return "end" if words & _ENDS else None


def _is_key(data: bytes, key: re.Match[bytes]) -> bool:
    """Is `key` (a _KEYED or _KEY_BEFORE match) a key with its value: joined by `:`, `=` or a
    tag, or by blanks where it is a flag (`-StartRange a`, `--lowerip a`) or opens its line
    (udhcpd's `start 10.0.40.5` / `end 10.0.40.11`)?"""
    if key.group("sep").strip(b"\"'") != b"" or data[key.start() - 1:key.start()] == b"-":
        return True
    line = data.rfind(b"\n", 0, key.start()) + 1
    return not data[line:key.start()].strip(b" \t")


def _keyed_pair(data: bytes, start: int) -> Ends | None:
    """The ends of a range written as two keys, the start key's value at `start`: the nearest
    value of an end key within _NEAR bytes, before or after it."""
    line = data.rfind(b"\n", 0, start) + 1
    before = _KEY_BEFORE.search(data, max(line, start - 64), start)
    if before is None or (kind := _key_kind(before.group("key"))) is None:
        return None
    if not _is_key(data, before):
        return None  # `key value` for a flag (`-StartRange a`) or a line's key: `from a to b` is no range
    low, high = max(0, start - _NEAR), min(len(data), start + _NEAR)
    partners = [x for x in _KEYED.finditer(data, low, high)
                if x.start("value") != start and _key_kind(x.group("key")) not in (None, kind)
                and _is_key(data, x)]
    if not partners:
        return None
    partner = min(partners, key=lambda x: _partner_rank(data, line, before.start(), x, start))
    here = _ADDRESS.match(data, start)
    if here is None:
        return None
    words = {w.lower() for key in (before.group("key"), partner.group("key")) for w in _SEGMENTS.findall(key)}
    there = _ADDRESS.match(data, partner.start("value"))
    if there is None:
        return None
    if not words - {b"from", b"to"}:
        # `from:`/`to:` alone name a range only under a range or pool word nearby (pfSense's
        # <range><from>..</from><to>..</to></range>), or under a key that holds addresses out of
        # use (`exclude:`, `reserved:`, `static_leases:`: break-it round 21, finding 23, one end moved
        # alone); elsewhere they are a rule's source and target (`routes:`, `rule:`), each its own.
        first = min(before.start(), partner.start())
        near = data[max(0, first - 200):first]
        if not has_range_word(near) and _FROM_TO_PARENT.search(near) is None:
            return None
    return (here, there) if here.start() < there.start() else (there, here)


def _partner_rank(data: bytes, line: int, key: int, partner: re.Match[bytes],
                  start: int) -> tuple[bool, bool, int]:
    """An end key on the start key's line first, then one whose line reads the same before its
    key (VyOS's `... range 0 start A` and `... range 0 stop B` on two lines, not the `stop` of the
    line before: break-it round 20p, finding 11), then the nearest."""
    other = data.rfind(b"\n", 0, partner.start()) + 1
    same_path = data[other:partner.start()].strip() == data[line:key].strip()
    return other != line, not same_path, abs(partner.start("value") - start)


# -- two ends joined by a range construct, whatever their stems -------------------------------------
# `10.0.39.200 - 10.0.40.11`, `between 10.0.40.2 and 10.0.50.3`, `10.0.40.5 up to 10.0.40.11`: two
# addresses joined as a range are its ends whether or not they share a /24 (a rule's pattern above
# needs one stem). ` to ` alone joins ends of one stem only (find_ranges): across stems `from A to
# B` is mostly a rule's source and target (ufw) or a move's old and new address.
_V4_BARE = rb"[0-9]{1,3}\.[0-9]{1,3}\.[0-9]{1,3}\.[0-9]{1,3}(?![0-9]|\.[0-9])"
_JOINED = (rb"(?:[ \t]*(?:" + _DASHES + rb"|\.\.|~)[ \t]*|-|[ \t]+--?[ \t]+"
           rb"|[ \t]+(?:through|thru|until|till|up[ \t]+to|(?P<and>and))[ \t]+)")
_AFTER = lazy_re.compile(_CLOSE + _JOINED + _OPEN + rb"(?P<other>" + _V4_BARE + rb")", re.IGNORECASE)
_BEFORE = lazy_re.compile(
    rb"(?<![0-9A-Za-z.])(?P<other>" + _V4_BARE + rb")" + _CLOSE + _JOINED + _OPEN + rb"\Z",
                     re.IGNORECASE)
# blanks and an end's dressing, before it (a typographic quote's bytes too)
_BEFORE_SKIP = frozenset(b" \t`*_'\"[<\xe2\xe3\xc2\x80\x98\x99\x9c\x9d\xb9\xba\xab\xbb\x8c\x8d")
# the last byte of a joiner (`through`, `and`, the dashes)
_BEFORE_LAST = frozenset(b"-~.\x90\x91\x92\x93\x94\x95\xa5\xa6\xaf\xa3hHuUlLoOdD")
_ADDRESS_END = lazy_re.compile(rb"(?![0-9]|\.[0-9])")


def joined_ends(data: bytes, ends: Sequence[tuple[int, int]]) -> set[int]:
    """The starts of the old addresses at `ends` (spans of whole IPv4 addresses) that are one end
    of a range joined to another address (above): rewriting one end moves the range."""
    out = set()
    for start, end in ends:
        after = _AFTER.match(data, end)
        if after is not None and after.group("other") != data[start:end] \
                and (after.group("and") is None or _between(data, start)):
            out.add(start)
            continue
        i = start - 1
        while i >= 0 and start - i <= 8 and data[i] in _BEFORE_SKIP:
            i -= 1
        if i >= 0 and data[i] in _BEFORE_LAST:  # a joiner's last byte: the one costly search
            before = _BEFORE.search(data, max(0, start - 48), start)
            if before is not None and before.group("other") != data[start:end] \
                    and (before.group("and") is None or _between(data, before.start("other"))):
                out.add(start)
    return out


# -- ends written as a key pair, whatever they spell -------------------------------------------------
# `{min: web01, max: web05}`, `lo: 10.0.0.70` / `hi: 10.0.0.74`, `"first": "web01", "last": "web05"`,
# `begin = "web01"` / `end = "web05"` (YAML flow and block maps, JSON, TOML, HCL, INI sections): an
# old value under a start key (_key_kind: min, lo, low, begin, first, start, from...) beside an end
# key's value (max, hi, high, end, last, stop, to...) within one record is a range's end where the
# two values can be one range's ends (_same_kind: two numbered names of one stem and domain, or two
# addresses, the lower first), host names as well as addresses (break-it round 22, finding 05).
# `from`/`to` alone name ends only under a range word or a key of addresses kept out of use, as for
# _keyed_pair. Read from the matches, so a file is looked at only around an old value.
_VALUE_TOKEN = lazy_re.compile(rb"[A-Za-z0-9][A-Za-z0-9._:-]*")
_KEYED_VALUE = lazy_re.compile(rb"(?P<key>[A-Za-z][A-Za-z0-9_-]{0,40})" + _KEY_SEP
                          + rb"(?P<value>[A-Za-z0-9][A-Za-z0-9._:-]*)")


def _value_at(data: bytes, start: int) -> bytes:
    token = _VALUE_TOKEN.match(data, start)
    return token.group().rstrip(b".:-") if token is not None else b""


_KEY_WORD = lazy_re.compile(rb"[A-Za-z][A-Za-z0-9_-]{0,40}")
_NEWLINE = lazy_re.compile(rb"\n")
_NEAREST = 8  # how many of the other end's keys nearest a value are weighed


def _key_start_before(data: bytes, start: int) -> int | None:
    """Where the key stands whose value starts at `start` (`key: v`, `key = "v"`, `"key": "v"`,
    `<key>v`, `key v`), read back over a few bytes; None where no key word ends there."""
    i = start
    if data[i - 1:i] in (b'"', b"'"):
        i -= 1
    j = i
    while j > 0 and data[j - 1] in b" \t":
        j -= 1
    if j > 0 and data[j - 1] in b":=>":
        j -= 1
        while j > 0 and data[j - 1] in b" \t":
            j -= 1
        if data[j - 1:j] in (b'"', b"'"):
            j -= 1
    elif j == i:
        return None
    k = j
    while k > 0 and j - k < 41 and data[k - 1] in _KEY_BYTES:
        k -= 1
    while k < j and not data[k:k + 1].isalpha():
        k += 1
    return k if k < j else None


def _one_range(here: bytes, other: bytes, kind: str) -> bool:
    """Can `here` (under a `kind` key) and `other` (under the other end's key) be one range's ends?"""
    if here.lower() == other.lower():
        return False  # one machine at both ends: renamed at both
    return _same_kind(here, other) if kind == "start" else _same_kind(other, here)


def keyed_ends(data: bytes, ends: Sequence[tuple[int, int]]) -> dict[int, str]:
    """The starts of the values at `ends` (old values found) that are one end of a range written
    as a key pair (above), each with a note naming the pair's two keys and values. The file's
    start and end keys are read once, where a first value stands under one."""
    out: dict[int, str] = {}
    keyed: list[re.Match[bytes]] | None = None
    starts: list[int] = []
    lines: list[int] = []
    for start, _ in ends:
        key_start = _key_start_before(data, start)
        word = _KEY_WORD.match(data, key_start) if key_start is not None else None
        if word is None or _key_kind(word.group()) is None:
            continue  # no start or end word right before the value: the common case, a few bytes read
        line = data.rfind(b"\n", 0, start) + 1
        before = _KEY_BEFORE.match(data, word.start(), start)
        if before is None or (kind := _key_kind(before.group("key"))) is None or not _is_key(data, before):
            continue
        if keyed is None:  # the file's start and end keys, once
            keyed = [x for x in _KEYED_VALUE.finditer(data) if _key_kind(x.group("key")) is not None]
            starts = [x.start("value") for x in keyed]
            lines = [m.start() for m in _NEWLINE.finditer(data)]
        here = _value_at(data, start)
        window = keyed[bisect.bisect_left(starts, start - _NEAR):bisect.bisect_right(starts, start + _NEAR)]
        # the other end's key: the nearest few of the other kind, ranked as _keyed_pair ranks them
        others = sorted((x for x in window if x.start("value") != start
                         and _key_kind(x.group("key")) not in (None, kind)),
                        key=lambda x: abs(x.start("value") - start))[:_NEAREST]
        candidates = sorted((x for x in others if _is_key(data, x)),
                            key=lambda x: _partner_rank(data, line, before.start(), x, start))
        partner = next((x for x in candidates if _one_range(here, _value_at(data, x.start("value")), kind)),
                       None)
        if partner is None:
            continue
        keys = (before.group("key"), partner.group("key"))
        if not {w.lower() for key in keys for w in _SEGMENTS.findall(key)} - {b"from", b"to"}:
            first = min(before.start(), partner.start())
            near = data[max(0, first - 200):first]
            if not has_range_word(near) and _FROM_TO_PARENT.search(near) is None:
                continue
        other = _value_at(data, partner.start("value"))
        at = bisect.bisect_left(lines, partner.start()) + 1
        out[start] = (f"{before.group('key').decode(errors='replace')}: {here.decode(errors='replace')} and "
                      f"{partner.group('key').decode(errors='replace')}: {other.decode(errors='replace')} "
                      f"(line {at}) are the two ends of one range")
    return out


# -- tables whose header names the ends ---------------------------------------------------------------
# A CSV or TSV file whose first line names a start column and an end column (`name,start,end`,
# `start_ip\tend_ip`, `first,last`, `low,high`), and a Markdown table whose header row does
# (`| pool | first | last |`): each row's two cells are a range's ends, so an old value in one of
# them is a residual `range` (where the other cell is filled and differs). `from`/`to` alone name
# the ends only with a range word in the header (a `| from | to |` table is mostly a move's map).
_MD_RULE = lazy_re.compile(
    rb"^[ \t]*\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)+\|?[ \t]*\r?$", re.MULTILINE)
_CELL_DRESS = b" \t\"'`*_"
_BLANK = lazy_re.compile(rb"\s")
# A CSV header's name: a word, maybe quoted, with blanks, dots, dashes, slashes or parentheses
_HEADER_CELL = lazy_re.compile(rb"[ \t]*[\"']?[A-Za-z_][A-Za-z0-9_ .()/-]{0,40}[\"']?[ \t]*")


def table_ends(data: bytes, ends: Callable[[], Sequence[tuple[int, int]]]) -> set[int]:
    """The starts of the matches at `ends` that stand in a range's start or end cell of a table."""
    cells: list[tuple[int, int]] = []  # the start and end cells of each row of each such table
    for columns, rows in _tables(data):
        for row in rows:
            if len(row) > max(columns):
                first, last = row[columns[0]], row[columns[1]]
                a, b = data[first[0]:first[1]], data[last[0]:last[1]]
                if a and b and a != b and not _BLANK.search(a) and not _BLANK.search(b) and _same_kind(a, b):
                    cells += (first, last)  # values, not prose, each a possible end of one range
    if not cells:
        return set()
    starts = [a for a, _ in cells]  # in file order, none overlapping
    out = set()
    for start, end in ends():
        i = bisect.bisect_right(starts, start) - 1
        if i >= 0 and end <= cells[i][1]:
            out.add(start)
    return out


_NUMBERED = lazy_re.compile(rb"(?P<stem>.*?[^0-9])(?P<n>[0-9]+)(?P<domain>(?:\.[A-Za-z0-9-]+)*)")


def _same_kind(a: bytes, b: bytes) -> bool:
    """Can cells `a` and `b` be the two ends of one range: two addresses of one family, the first
    not above the second, or two numbered names of one stem and domain (`web01` / `web05`)? A
    cable's two ends (`pug` / `switch01`), a chain's first and last host (`pug` / `rex`) or an
    address beside a name are no range."""
    try:
        low, high = ipaddress.ip_address(a.decode()), ipaddress.ip_address(b.decode())
    except ValueError:
        pass
    else:
        return low.version == high.version and int(low) < int(high)
    ends = _NUMBERED.fullmatch(a), _NUMBERED.fullmatch(b)
    return ends[0] is not None and ends[1] is not None and ends[0].group("stem") == ends[1].group("stem") \
        and ends[0].group("domain") == ends[1].group("domain") and not ends[0].group("stem").endswith(b".")


def _tables(data: bytes) -> Iterator[tuple[tuple[int, int], list[list[tuple[int, int]]]]]:
    """Each table of `data` whose header names a start and an end column: those columns' indexes,
    and each row's cells (byte spans, dressing stripped)."""
    first = data.find(b"\n")
    head = data[:first if first != -1 else len(data)]
    for sep in (b"\t", b",", b";"):
        if sep in head:
            names = head.rstrip(b"\r").split(sep)
            columns = _ends_columns(names) if all(_HEADER_CELL.fullmatch(n) for n in names) else None
            if columns is not None:
                rows = [_cells(data, start, end, sep) for start, end in _lines(data, first + 1, None)]
                yield columns, [row for row in rows if len(row) == len(names)]
            break
    if b"|" not in data or b"-" not in data:
        return
    for rule in _MD_RULE.finditer(data):
        header_end = rule.start() - 1
        header_start = data.rfind(b"\n", 0, max(header_end, 0)) + 1
        if header_end <= header_start:
            continue
        columns = _ends_columns(_md_split(data[header_start:header_end]))
        if columns is None:
            continue
        rows = []
        for start, end in _lines(data, rule.end() + 1, b"|"):
            line = data[start:end]
            lead = len(line) - len(line.lstrip(b" \t"))
            body_start = start + lead + (1 if line.lstrip(b" \t").startswith(b"|") else 0)
            rows.append(_cells(data, body_start, end, b"|"))
        yield columns, rows


def _md_split(header: bytes) -> list[bytes]:
    cells = header.strip().split(b"|")
    if cells and not cells[0].strip():
        cells = cells[1:]
    return cells


def _ends_columns(header: list[bytes]) -> tuple[int, int] | None:
    """The indexes of a header's start column and end column, or None where it has not both."""
    kinds = [_key_kind(cell.strip(_CELL_DRESS)) if len(cell) <= 40 else None for cell in header]
    if "start" not in kinds or "end" not in kinds:
        return None
    start, end = kinds.index("start"), kinds.index("end")
    words = {w.lower() for i in (start, end) for w in _SEGMENTS.findall(header[i])}
    if not words - {b"from", b"to"} and not has_range_word(b" ".join(header)):
        return None
    return start, end


def _lines(data: bytes, start: int, needle: bytes | None) -> Iterator[tuple[int, int]]:
    """The spans of the lines from `start` (up to the first without `needle`, where one is given)."""
    while 0 < start < len(data):
        end = data.find(b"\n", start)
        end = len(data) if end == -1 else end
        if needle is not None and needle not in data[start:end]:
            return
        yield start, end
        start = end + 1


def _cells(data: bytes, start: int, end: int, sep: bytes) -> list[tuple[int, int]]:
    out = []
    for cell in data[start:end].split(sep):
        left = len(cell) - len(cell.lstrip(_CELL_DRESS))
        right = len(cell.rstrip(_CELL_DRESS + b"\r"))
        out.append((start + left, start + max(left, right)))
        start += len(cell) + len(sep)
    return out
