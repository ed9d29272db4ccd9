"""Router and firewall ACLs, the first match deciding (outside pass t33-33, finding 22), pure: a deny
of part of a network before the permit of the whole is an exclusion, judged by
`except_blocks.covering` as `except_lines` judges iptables' DROP before ACCEPT.

* Cisco IOS numbered lists (`access-list 110 deny ip 10.0.48.0 0.0.0.127 any`, wildcards; standard
  lists `access-list 10 deny 10.0.48.0 0.0.0.127`), ASA lists (`access-list OUT extended deny ip
  10.0.48.0 255.255.255.128 any`, dotted masks; `any4`, `host A`);
* named lists and their indented entries, a sequence number or none: IOS `ip access-list extended
  NAME`, `ipv6 access-list NAME` (`deny ipv6 2001:db8:a::/56 any`), Arista EOS and NX-OS `ip access-list
  NAME` (`10 deny ip 10.0.48.0/25 any`), IOS-XR `ipv4 access-list NAME`;
* JunOS firewall filters, set commands or the brace form: a term whose `from` names part of the
  network (`source-address`, `destination-address`, `address`, `prefix-list` aside) and whose `then`
  discards or rejects, before a term that accepts the whole;
* Calico policies (projectcalico.org/v3): `- action: Deny` with `source:`/`destination:` `nets:`
  before `- action: Allow` in one `ingress:` or `egress:` list (first match within a policy).

A deny counts only where it matches every packet of the permit it precedes but for the network: the
same list, the same side (source or destination), the protocol the same or all (`ip`, `ipv6`), the
other side the same or `any`, no port or option the permit lacks (a deny of ssh alone is no
exclusion of the network). Each yields (the permitted networks, the denied one with its span, the
rule's words), the shape `except_lines.rules` yields.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Collection, Iterator
from dataclasses import dataclass

from renamer import lazy_re
from renamer.names import IPNetwork

Rule = tuple[list[IPNetwork], list[tuple[int, int, IPNetwork]], str]

_ADDRESS = rb"(?:(?:[0-9]{1,3}\.){3}[0-9]{1,3}|[0-9A-Fa-f]*:[0-9A-Fa-f:.]*)"
_TOKEN = lazy_re.compile(rb"[^ \t\r\n]+")
# `access-list 110 deny ...`, `access-list OUT extended deny ...`, `access-list OUT line 3 extended ...`
_NUMBERED = lazy_re.compile(rb"(?m)^[ \t]*(?:ipv6[ \t]+)?access-list[ \t]+([^ \t\r\n]+)[ \t]+([^\r\n]*)$")
_BODY = lazy_re.compile(rb"(?:line[ \t]+[0-9]+[ \t]+)?(?:(?:extended|standard|webtype)[ \t]+)?"
                   rb"(?:dynamic[ \t]+\S+[ \t]+)?(deny|permit)[ \t]+")
_NAMED = lazy_re.compile(
    rb"(?m)^(?:ip|ipv4|ipv6|mac)[ \t]+access-list[ \t]+(?:(?:extended|standard|resequence)"
                    rb"[ \t]+)?([^ \t\r\n]+)[^\r\n]*$")
_COLUMN_0 = lazy_re.compile(rb"(?m)^[^ \t\r\n!]")
_ENTRY = lazy_re.compile(rb"(?m)^[ \t]+(?:([0-9]+)[ \t]+)?(deny|permit)[ \t]+([^\r\n]*)$")
_ALL_PROTOCOLS = {b"ip", b"ipv4", b"ipv6", b"any", b"0"}
_ANY = {b"any", b"any4", b"any6"}
_PORT_OPS = {b"eq": 1, b"neq": 1, b"lt": 1, b"gt": 1, b"range": 2}
_LOG = {b"log", b"log-input", b"log-update", b"counter", b"interval"}
_ACTIONS = {b"accept": "permit", b"discard": "deny", b"reject": "deny"}
_JUNOS_SIDES = {b"source-address", b"destination-address", b"address", b"source-prefix-list",
                b"destination-prefix-list", b"prefix-list"}


@dataclass(frozen=True)
class Entry:
    """One entry of a first-match list: its list, place, action and one of its networks."""

    group: bytes
    order: tuple[int, int]
    action: str  # "deny" or "permit"
    side: bytes  # which field the network stands in (b"src", b"dst", a JunOS match name)
    start: int
    end: int
    net: IPNetwork
    rest: tuple[bytes | None, ...]  # the entry's other fields, None where it matches everything


def _network(address: bytes, mask: bytes | None = None) -> IPNetwork | None:
    try:
        if mask is None:
            return ipaddress.ip_network(address.decode("ascii"), strict=False)
        value = int(ipaddress.IPv4Address(mask.decode("ascii")))
        if value in (0, 0xFFFFFFFF):
            return None  # /0 or /32 by the dialect: a host or any, never a part of a network here
        if not value >> 31:
            value ^= 0xFFFFFFFF  # a wildcard (IOS), the inverse of a mask (ASA)
        length = bin(value).count("1")
        if value != (0xFFFFFFFF << (32 - length)) & 0xFFFFFFFF:
            return None  # a discontiguous wildcard
        return ipaddress.ip_network(f"{address.decode('ascii')}/{length}", strict=False)
    except ValueError:
        return None


Span = tuple[int, int, IPNetwork]


def _spec(tokens: list[re.Match[bytes]], at: int) -> tuple[int, Span | None, bytes | None]:
    """The address spec at `tokens[at]`: where the next field begins, the network with its span (if
    it is one), and its words (None for `any`)."""
    if at >= len(tokens):
        return at, None, None
    word = tokens[at].group()
    if word.lower() in _ANY:
        return at + 1, None, None
    if word in (b"host", b"object-group", b"object", b"addrgroup", b"interface") and at + 1 < len(tokens):
        return at + 2, None, word + b" " + tokens[at + 1].group()
    if re.fullmatch(_ADDRESS + rb"/[0-9]{1,3}", word):
        net = _network(word)
        return at + 1, (tokens[at].start(), tokens[at].end(), net) if net else None, word
    paired = at + 1 < len(tokens) and re.fullmatch(_ADDRESS, tokens[at + 1].group())
    if re.fullmatch(_ADDRESS, word) and paired:
        net = _network(word, tokens[at + 1].group())
        span = (tokens[at].start(), tokens[at + 1].end(), net) if net else None
        return at + 2, span, word + b" " + tokens[at + 1].group()
    return at + 1, None, word


def _ports(tokens: list[re.Match[bytes]], at: int) -> tuple[int, bytes | None]:
    if at < len(tokens) and (count := _PORT_OPS.get(tokens[at].group().lower())) is not None:
        words = b" ".join(t.group() for t in tokens[at:at + 1 + count])
        return at + 1 + count, words
    return at, None


def _entry(group: bytes, order: tuple[int, int], action: str, data: bytes, start: int,
           end: int) -> Iterator[Entry]:
    """The entries of one ACL line's body (after `deny`/`permit`): standard or extended."""
    tokens = list(_TOKEN.finditer(data, start, end))
    if not tokens:
        return
    first = tokens[0].group()
    standard = (first.lower() in _ANY or first == b"host"
                or re.fullmatch(_ADDRESS + rb"(?:/[0-9]{1,3})?", first))
    if standard:
        at, src, src_words = _spec(tokens, 0)
        extra = tuple(t.group() for t in tokens[at:] if t.group().lower() not in _LOG)
        if src is not None:
            yield Entry(group, order, action, b"src", *src, rest=extra)
        return
    protocol: bytes | None = None if first.lower() in _ALL_PROTOCOLS else first.lower()
    at, src, src_words = _spec(tokens, 1)
    at, src_ports = _ports(tokens, at)
    at, dst, dst_words = _spec(tokens, at)
    at, dst_ports = _ports(tokens, at)
    extra = tuple(t.group() for t in tokens[at:] if t.group().lower() not in _LOG)
    if src is not None:
        yield Entry(group, order, action, b"src", *src,
                    rest=(protocol, src_ports, dst_words, dst_ports, *extra))
    if dst is not None:
        yield Entry(group, order, action, b"dst", *dst,
                    rest=(protocol, src_words, src_ports, dst_ports, *extra))


def _cisco(data: bytes) -> Iterator[Entry]:
    for index, x in enumerate(_NUMBERED.finditer(data)):
        body = _BODY.match(x.group(2))
        if body is None:
            continue
        yield from _entry(b"acl " + x.group(1), (0, index), body.group(1).decode(), data,
                          x.start(2) + body.end(), x.end(2))
    for header in _NAMED.finditer(data):
        ended = _COLUMN_0.search(data, header.end() + 1)  # the list ends at a line at column 0
        entries = list(_ENTRY.finditer(data, header.end(), ended.start() if ended else len(data)))
        numbered = all(y.group(1) is not None for y in entries)
        for index, y in enumerate(entries):
            order = (int(y.group(1)), 0) if numbered else (0, index)
            group = b"acl " + header.group(1)
            yield from _entry(group, order, y.group(2).decode(), data, y.start(3), y.end(3))


# -- JunOS filters: set commands, or the brace form read into the same (path, value) statements ---

def _statements(data: bytes) -> Iterator[tuple[list[bytes], int, int, bytes]]:
    """Each JunOS statement as its words and the span of its last word: `set` lines as they are, the
    brace form with the path of its enclosing blocks (`filter F { term t { from { source-address {
    A; } } } }` -> `filter F term t from source-address A`)."""
    for x in re.finditer(rb"(?m)^[ \t]*set[ \t]+([^\r\n]*)$", data):
        tokens = list(_TOKEN.finditer(data, x.start(1), x.end(1)))
        if tokens:
            yield [t.group() for t in tokens], tokens[-1].start(), tokens[-1].end(), b"set"
    if b"{" not in data or b"term" not in data:
        return
    path: list[list[bytes]] = []
    words: list[re.Match[bytes]] = []
    for t in re.finditer(rb"[{};]|#[^\n]*|/\*.*?\*/|\"[^\"\n]*\"|[^\s{};#\"]+", data, re.S):
        tok = t.group()
        if tok.startswith((b"#", b"/*")):
            continue
        if tok == b"{":
            path.append([w.group() for w in words])
            words = []
        elif tok == b"}":
            if path:
                path.pop()
            words = []
        elif tok == b";":
            if words:
                flat = [w for level in path for w in level] + [w.group() for w in words]
                yield flat, words[-1].start(), words[-1].end(), b"brace"
            words = []
        else:
            words.append(t)


@dataclass
class _Term:
    order: int
    conditions: list[tuple[bytes, list[bytes], int, int]]
    action: str | None = None


def _junos(data: bytes) -> Iterator[Entry]:
    terms: dict[tuple[bytes, bytes, bytes], _Term] = {}
    for words, start, end, form in _statements(data):
        try:
            at = words.index(b"filter")
            term_at = words.index(b"term", at)
        except ValueError:
            continue
        if term_at + 2 >= len(words) or term_at != at + 2:
            continue
        family = b" ".join(words[:at])
        key = (form + b" " + family, words[at + 1], words[term_at + 1])
        term = terms.setdefault(key, _Term(len(terms), []))
        rest = words[term_at + 2:]
        if rest[0] == b"from" and len(rest) >= 3:
            term.conditions.append((rest[1], rest[2:], start, end))
        elif rest[0] == b"then" and len(rest) >= 2 and rest[1] in _ACTIONS:
            term.action = _ACTIONS[rest[1]]
    for (family, name, _), term in terms.items():
        if term.action is None:
            continue
        for match, values, start, end in term.conditions:
            if match not in _JUNOS_SIDES or len(values) != 1:
                continue  # `A except` is except_lines'
            net = _network(values[0])
            if net is None:
                continue
            others = tuple(sorted(m + b" " + b" ".join(v) for m, v, _, _ in term.conditions if m != match))
            group = b"filter " + family + b" " + name
            yield Entry(group, (0, term.order), term.action, match, start, end, net, others)


# -- Calico's rules: a policy's `ingress:` / `egress:` list, the first rule that matches deciding ----

_CALICO = lazy_re.compile(rb"(?m)^([ \t]*)-[ \t]+action:[ \t]*[\"']?(Deny|Allow)[\"']?[ \t]*\r?$")
_NETS = lazy_re.compile(rb"(?m)^[ \t]*nets:[ \t]*(.*)$")
_SIDE = lazy_re.compile(rb"(?m)^[ \t]*(source|destination):")
_MOST = 40  # lines of one rule, at most


def _calico(data: bytes) -> Iterator[Entry]:
    """Calico (projectcalico.org/v3) rules written with `action:` first in each list item, as its
    documentation writes them: each `nets:` of `source:` or `destination:` (a flow list or a block
    list under it); the rule's other lines (protocol, ports, selectors) are its other fields."""
    for index, x in enumerate(_CALICO.finditer(data)):
        column = len(x.group(1))
        end = x.end()
        for _ in range(_MOST):  # the item's lines: indented past its dash
            nxt = data.find(b"\n", end + 1)
            nxt = len(data) if nxt < 0 else nxt
            text = data[end + 1:nxt]
            if end >= len(data) or (text.strip() and len(text) - len(text.lstrip(b" \t")) <= column):
                break
            end = nxt
        parent = x.start()  # the list's key line (`ingress:`): the nearest line above less indented
        for _ in range(4000):
            if parent <= 0:
                break
            parent = data.rfind(b"\n", 0, parent - 1) + 1
            text = data[parent:data.find(b"\n", parent)]
            if text.strip() and len(text) - len(text.lstrip(b" \t")) < column:
                break
        group = b"calico %d %d" % (column, parent)
        sides = [(y.start(), y.group(1)) for y in _SIDE.finditer(data, x.end(), end)]
        nets: list[tuple[bytes, int, int, IPNetwork]] = []
        spans: list[tuple[int, int]] = []
        for y in _NETS.finditer(data, x.end(), end):
            side = next((name for at, name in reversed(sides) if at < y.start()), b"")
            value_end = y.end()
            if not y.group(1).strip():  # a block list under `nets:`
                while True:
                    nxt = data.find(b"\n", value_end + 1)
                    nxt = len(data) if nxt < 0 else nxt
                    if not data[value_end + 1:nxt].lstrip().startswith(b"- ") or nxt > end:
                        break
                    value_end = nxt
            spans.append((y.start(), value_end))
            for z in re.finditer(_ADDRESS + rb"/[0-9]{1,3}", data[y.start(1):value_end]):
                net = _network(z.group())
                if net is not None:
                    at = y.start(1) + z.start()
                    nets.append((side, at, at + len(z.group()), net))
        rest = tuple(sorted(line.strip() for line in _lines_outside(data, x.end(), end, spans)
                            if line.strip() and line.strip() not in (b"source:", b"destination:")))
        action = "deny" if x.group(2) == b"Deny" else "permit"
        for side, start, stop, net in nets:
            yield Entry(b"filter " + group, (0, index), action, side, start, stop, net, rest)


def _lines_outside(data: bytes, start: int, end: int, spans: list[tuple[int, int]]) -> Iterator[bytes]:
    at = start
    for lo, hi in sorted(spans):
        yield from data[at:lo].split(b"\n")
        at = hi
    yield from data[at:end].split(b"\n")


def _broader(deny: Entry, permit: Entry) -> bool:
    """Whether the deny matches every packet the permit does, its network aside."""
    if deny.group.startswith(b"filter "):  # JunOS: the deny's conditions, each also the permit's
        return set(deny.rest) <= set(permit.rest)
    if len(deny.rest) > len(permit.rest) and any(x is not None for x in deny.rest[len(permit.rest):]):
        return False
    return all(d is None or (i < len(permit.rest) and d == permit.rest[i]) for i, d in enumerate(deny.rest))


def rules(data: bytes, wanted: Collection[IPNetwork] | None = None) -> Iterator[Rule]:
    """Each deny entry with the later permits of its list it would except from (module doc)."""
    entries: list[Entry] = []
    if b"access-list" in data and b"deny" in data:
        entries.extend(_cisco(data))
    if b"filter" in data and b"term" in data and (b"discard" in data or b"reject" in data):
        entries.extend(_junos(data))
    if b"action" in data and b"Deny" in data and b"nets" in data:
        entries.extend(_calico(data))
    permits = [p for p in entries if p.action == "permit" and (wanted is None or p.net in wanted)]
    for deny in entries:
        if deny.action != "deny":
            continue
        included = list(dict.fromkeys(p.net for p in permits if p.group == deny.group
                                      and p.side == deny.side and p.order > deny.order and _broader(deny, p)))
        if included:
            kind = ("a Calico rule's `Deny`" if deny.group.startswith(b"filter calico")
                    else "a JunOS filter's discarding term" if deny.group.startswith(b"filter ")
                    else "an ACL's `deny`")
            what = f"{kind} before its permit, the first match deciding"
            yield included, [(deny.start, deny.end, deny.net)], what
