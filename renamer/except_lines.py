"""Exclusions written in a rule's own syntax rather than as a key (t32-33 finding 21), pure: the
networks a rule admits and those it excepts, for `except_blocks.covering` to judge under a move.

* JunOS address lists: `source-address { 10.0.48.0/24; 10.0.48.0/25 except; }` (the entries of
  one `{ }` block; the longest match decides, so the `except` entry takes its addresses out);
* a set command's line ending in an exclusion word: JunOS `set ... source-address 10.0.48.0/25
  except` beside `set ... source-address 10.0.48.0/24` (the same words before the network), ipset
  `add lan 10.0.48.0/25 nomatch` beside `add lan 10.0.48.0/24` (hash:net's `nomatch`);
* nftables: `ip saddr 10.0.48.0/24 ip saddr != 10.0.48.0/25` (one selector, `ip`/`ip6` and
  `saddr`/`daddr`, on one rule's line; an anonymous set `{ a, b }` too, and a named set `@half`
  whose `elements = { }` the file defines: the refusal stands at the element);
* a brace list with `!` entries (pf's tables and lists: `{ 10.0.48.0/24 !10.0.48.0/25 }`);
* a key's list with `!` entries, the first match deciding: Postfix's `mynetworks = !10.0.48.0/25,
  10.0.48.0/24`, Exim's `hostlist relay = !10.0.48.0/25 : 10.0.48.0/24` (a `!` entry before the
  network it excludes from; after it, it is dead);
* rules the first match decides, a deny of part of the network before the allow of it: nginx's
  `deny 10.0.48.0/25;` before `allow 10.0.48.0/24;` (one block, or a file of them), iptables'
  `-A INPUT -s 10.0.48.0/25 -j DROP` before `-A INPUT -s 10.0.48.0/24 -j ACCEPT` (one chain, the
  rest of the rule the same; `-d` alike, REJECT too);
* Apache's `Require not ip 10.0.48.0/25` beside `Require ip 10.0.48.0/24` in one `<RequireAll>`.

Each yields (the included networks, the excluded ones with their spans, the rule's words).
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Iterator

from renamer import lazy_re
from renamer.names import IPNetwork

_N = rb"(?:(?:[0-9]{1,3}\.){3}[0-9]{1,3}|[0-9A-Fa-f]*:[0-9A-Fa-f:.]*)/[0-9]{1,3}"
_NET = re.compile(rb"(?<![0-9A-Za-z.:])" + _N + rb"(?![0-9])")
_JUNOS_EXCEPT = lazy_re.compile(rb"(?<![0-9A-Za-z.:])(" + _N + rb")[ \t]+except[ \t]*;")
_JUNOS_ENTRY = lazy_re.compile(rb"(?<![0-9A-Za-z.:!])(" + _N + rb")[ \t]*;")
_WORD_LINE = lazy_re.compile(rb"(?m)^([ \t]*[^\s#!;][^\n]*?[ \t])(" + _N + rb")((?:[ \t]+[^\s]+)*?)"
                        rb"[ \t]+(except|nomatch)[ \t]*\r?$")
_NFT = lazy_re.compile(rb"(?<![A-Za-z0-9_])(ip6?)[ \t]+(saddr|daddr)[ \t]+(!=[ \t]*|==[ \t]*)?"
                  rb"(\{[^{}\n]*\}|@[A-Za-z_][A-Za-z0-9_]*|" + _N + rb"(?![0-9]))")
# A named nftables set of the same file: `set lan { type ipv4_addr; flags interval; elements = { ... } }`
_NFT_SET = lazy_re.compile(rb"(?<![A-Za-z0-9_])set[ \t]+([A-Za-z_][A-Za-z0-9_]*)[ \t]*\{")
_ELEMENTS = lazy_re.compile(rb"elements[ \t]*=[ \t]*\{([^{}]*)\}")
_BRACES = lazy_re.compile(rb"\{[^{}\n]*\}")
_BANG = lazy_re.compile(rb"!(?!=)[ \t]*(" + _N + rb")(?![0-9])")
_NGINX = lazy_re.compile(rb"(?m)^[ \t]*(deny|allow)[ \t]+(" + _N + rb")[ \t]*;")
_IPTABLES = lazy_re.compile(rb"(?m)^[ \t]*(?:ip6?tables[ \t]+(?:-t[ \t]+\S+[ \t]+)?)?-A[ \t]+(\S+)([^\n]*)$")
_IPT_NET = lazy_re.compile(rb"(?:^|[ \t])(-s|--source|-d|--destination)[ \t]+(" + _N + rb")(?=[ \t]|$)")
_IPT_JUMP = lazy_re.compile(rb"[ \t]-j[ \t]+(ACCEPT|DROP|REJECT)\b[^\n]*")
_REQUIRE = lazy_re.compile(rb"(?mi)^[ \t]*Require[ \t]+(not[ \t]+)?ip[ \t]+([^\n]*)$")
_KEY_LIST = lazy_re.compile(rb"(?m)^[ \t]*(?:hostlist[ \t]+|domainlist[ \t]+)?[A-Za-z_][A-Za-z0-9_.-]*[ \t]*="
                       rb"[ \t]*([^\n{}]*!(?!=)[^\n{}]*)$")
_REACH = 4000  # bytes, at most, between an `except` entry and its block's braces

Rule = tuple[list[IPNetwork], list[tuple[int, int, IPNetwork]], str]


def _network(text: bytes) -> IPNetwork | None:
    try:
        return ipaddress.ip_network(text.decode("ascii"), strict=False)
    except ValueError:
        return None


def _nets(data: bytes, start: int, end: int) -> list[tuple[int, int, IPNetwork]]:
    return [(x.start(), x.end(), net) for x in _NET.finditer(data, start, end)
            if (net := _network(x.group())) is not None]


def _block(data: bytes, pos: int) -> tuple[int, int] | None:
    """The span inside the innermost `{ }` around `pos`."""
    depth, at = 0, pos
    while at > max(0, pos - _REACH):
        at -= 1
        char = data[at:at + 1]
        if char == b"}":
            depth += 1
        elif char == b"{":
            if depth == 0:
                break
            depth -= 1
    else:
        return None
    depth, end = 0, pos
    while end < min(len(data), pos + _REACH):
        char = data[end:end + 1]
        if char == b"{":
            depth += 1
        elif char == b"}":
            if depth == 0:
                return at + 1, end
            depth -= 1
        end += 1
    return None


def _junos_blocks(data: bytes) -> Iterator[Rule]:
    for x in _JUNOS_EXCEPT.finditer(data):
        span = _block(data, x.start())
        if span is None:
            continue
        included = [net for e in _JUNOS_ENTRY.finditer(data, *span)
                    if (net := _network(e.group(1))) is not None]
        excluded = [(x.start(1), x.end(1), net)] if (net := _network(x.group(1))) is not None else []
        yield included, excluded, "an `except` entry of its address list"


def _word_lines(data: bytes) -> Iterator[Rule]:
    for x in _WORD_LINE.finditer(data):
        head = x.group(1).strip()
        net = _network(x.group(2))
        if net is None:
            continue
        same = re.compile(rb"(?m)^[ \t]*" + re.escape(head) + rb"[ \t]+(" + _N + rb")(?![0-9])(?![^\n]*[ \t]"
                          + x.group(4) + rb"[ \t]*\r?$)")
        included = [n for y in same.finditer(data) if (n := _network(y.group(1))) is not None]
        yield included, [(x.start(2), x.end(2), net)], f"`{x.group(4).decode()}` beside `{head.decode()}`"


def _nft_sets(data: bytes) -> dict[bytes, list[tuple[int, int, IPNetwork]]]:
    """The networks of each named set the file defines, with their spans."""
    sets = {}
    for x in _NFT_SET.finditer(data):
        span = _block(data, x.end())
        if span is None:
            continue
        elements = _ELEMENTS.search(data, *span)
        if elements is not None:
            sets[x.group(1)] = _nets(data, elements.start(1), elements.end(1))
    return sets


def _nft(data: bytes) -> Iterator[Rule]:
    sets = _nft_sets(data) if b"@" in data else {}
    for line in re.finditer(rb"(?m)^[^\n]*!=[^\n]*$", data):
        by_selector: dict[bytes, tuple[list[IPNetwork], list[tuple[int, int, IPNetwork]]]] = {}
        for x in _NFT.finditer(data, line.start(), line.end()):
            selector = x.group(1) + b" " + x.group(2)
            included, excluded = by_selector.setdefault(selector, ([], []))
            found = (sets.get(x.group(4)[1:], []) if x.group(4).startswith(b"@")
                     else _nets(data, x.start(4), x.end(4)))
            if x.group(3) is not None and x.group(3).startswith(b"!="):
                excluded.extend(found)
            else:
                included.extend(net for _, _, net in found)
        for selector, (included, excluded) in by_selector.items():
            if included and excluded:
                yield included, excluded, f"nftables `{selector.decode()} !=`"


def _bang_lists(data: bytes) -> Iterator[Rule]:
    for x in _BRACES.finditer(data):
        negated = [(y.start(1), y.end(1), net) for y in _BANG.finditer(data, x.start(), x.end())
                   if (net := _network(y.group(1))) is not None]
        if not negated:
            continue
        spans = {start for start, _, _ in negated}
        included = [net for start, _, net in _nets(data, x.start(), x.end()) if start not in spans]
        yield included, negated, "a `!` entry of its list"


def _key_lists(data: bytes) -> Iterator[Rule]:
    for x in _KEY_LIST.finditer(data):
        negated = [(y.start(1), y.end(1), net) for y in _BANG.finditer(data, x.start(1), x.end(1))
                   if (net := _network(y.group(1))) is not None]
        spans = {start for start, _, _ in negated}
        entries = [(start, net) for start, _, net in _nets(data, x.start(1), x.end(1)) if start not in spans]
        for start, end, net in negated:
            included = [n for at, n in entries if at > start]  # the first match: only what follows
            yield included, [(start, end, net)], "a `!` entry of its list, the first match deciding"


def _nginx(data: bytes) -> Iterator[Rule]:
    for x in _NGINX.finditer(data):
        if x.group(1) != b"deny" or (net := _network(x.group(2))) is None:
            continue
        end = (_block(data, x.start()) or (0, len(data)))[1]
        included = [n for y in _NGINX.finditer(data, x.end(), end)
                    if y.group(1) == b"allow" and (n := _network(y.group(2))) is not None]
        what = "nginx's `deny` before `allow`, the first match decides"
        yield included, [(x.start(2), x.end(2), net)], what


def _iptables(data: bytes) -> Iterator[Rule]:
    rules: list[tuple[bytes, bytes, bytes, int, int, IPNetwork]] = []  # key, flag, target, span, network
    for x in _IPTABLES.finditer(data):
        found = list(_IPT_NET.finditer(x.group(2)))
        jump = _IPT_JUMP.search(x.group(2))
        if len(found) != 1 or jump is None or (net := _network(found[0].group(2))) is None:
            continue
        flag = b"-s" if found[0].group(1) in (b"-s", b"--source") else b"-d"
        rest = x.group(2)
        key = x.group(1) + b" " + (rest[:found[0].start()] + rest[found[0].end():jump.start()]).strip()
        start = x.start(2) + found[0].start(2)
        rules.append((key, flag, jump.group(1), start, start + len(found[0].group(2)), net))
    for i, (key, flag, target, start, end, net) in enumerate(rules):
        if target == b"ACCEPT":
            continue
        included = [n for k, f, t, _, _, n in rules[i + 1:] if t == b"ACCEPT" and (k, f) == (key, flag)]
        what = f"iptables' `{flag.decode()} ... -j {target.decode()}` before ACCEPT"
        yield included, [(start, end, net)], what


def _apache(data: bytes) -> Iterator[Rule]:
    for x in _REQUIRE.finditer(data):
        if x.group(1) is None:
            continue
        opened = data.rfind(b"<RequireAll", 0, x.start())
        closed = data.find(b"</RequireAll>", x.end())
        if opened < 0 or closed < 0 or data.find(b"</RequireAll>", opened, x.start()) >= 0:
            continue
        included = [net for y in _REQUIRE.finditer(data, opened, closed) if y.group(1) is None
                    for _, _, net in _nets(data, y.start(2), y.end(2))]
        yield included, _nets(data, x.start(2), x.end(2)), "Apache's `Require not ip` in a <RequireAll>"


def rules(data: bytes) -> Iterator[Rule]:
    """Every rule of this module's syntaxes with an exclusion, in no order."""
    if b"except" in data:
        yield from _junos_blocks(data)
    if b"except" in data or b"nomatch" in data:
        yield from _word_lines(data)
    if b"!=" in data:
        yield from _nft(data)
    if b"!" in data and b"{" in data:
        yield from _bang_lists(data)
    if b"!" in data and b"=" in data:
        yield from _key_lists(data)
    if b"deny" in data and b"allow" in data:
        yield from _nginx(data)
    if b"-A" in data and b"ACCEPT" in data:
        yield from _iptables(data)
    if b"RequireAll" in data:
        yield from _apache(data)


block = _block  # the `{ }` around a place, for except_moves.py (t33-33 finding 23)
key_lists = _key_lists  # a key's `!` list, for resolver_access.py's continued lines
