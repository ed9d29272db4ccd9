"""Resolvers', IDS' and mail servers' address lists, where one entry takes part of another's network out
(issue 33, the outside pass's round 7, resolvers and multi-line lists), pure: the networks a list
admits and those another entry takes out, the shape `except_lines.rules` yields, for
`except_blocks.covering` to judge under a move.

* Unbound's `access-control: NET ACTION`: the most specific netblock decides, so an entry inside
  another with another action takes its addresses out of it;
* lists whose `!` entries take their addresses out wherever they stand (a set, not an order):
  PowerDNS's netmask groups (`allow-from=10.0.0.0/8,!10.0.48.0/24`, `allow-axfr-ips`,
  `allow-notify-from`, `webserver-allow-from`, ...; recursor 5's YAML `allow_from:` in flow or block
  style), Suricata's and Snort's address variables and rule addresses (`HOME_NET:
  "[10.0.0.0/8,!10.0.48.0/24]"`, `ipvar HOME_NET [..]`: any bracketed list of networks with a `!`
  entry);
* BIND's address match lists over several lines (`acl lan { !10.0.48.0/25; 10.0.48.0/24; };`,
  `allow-query { .. };`): the first element that matches decides, so a `!` element takes its
  addresses out of the elements after it; an element naming an `acl` of the file (`!printers;`)
  stands for that acl's networks, its refusal at their definition;
* BIND views: the first `view` whose `match-clients` matches decides, so an earlier view's
  network takes its clients out of a later view's;
* Postfix's and Exim's lists continued on further lines (`mynetworks = 127.0.0.0/8,` then an
  indented `!10.0.48.0/25,`, Exim's `\\` continuation): read as one line, as `except_lines` reads a
  key's `!` list (the first match deciding).
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterator

from renamer import except_lines, except_spelled, host_access, lazy_re
from renamer.host_access import within
from renamer.names import IPNetwork

Rule = tuple[list[IPNetwork], list[tuple[int, int, IPNetwork]], str]
Spans = list[tuple[int, int, IPNetwork]]


def nets(data: bytes, start: int, end: int) -> Spans:
    """The networks between `start` and `end`, one right after a delimiter (`:`, `[`) too."""
    return [(s + start - 1, e + start - 1, n) for s, e, n in except_spelled.nets(b" " + data[start:end], 1,
                                                                                 end - start + 1)]

_UNBOUND = lazy_re.compile(rb"(?m)^[ \t]*access-control[ \t]*:[ \t]*[\"']?([^\s\"']+)[\"']?[ \t]+"
                           rb"[\"']?([a-z_]+)")
# PowerDNS's netmask-group settings, in recursor.conf / pdns.conf (`-`) and recursor 5's YAML (`_`)
_PDNS_KEY = lazy_re.compile(
    rb"(?m)^[ \t]*(?:-[ \t]+)?[\"']?(?:webserver[-_])?(?:allow[-_](?:from|axfr[-_]ips|notify[-_]from|"
    rb"dnsupdate[-_]from|no[-_]rd[-_]from|trust[-_]forwarding?[-_]from)|dont[-_]query|"
    rb"trusted[-_]notification[-_]proxy|proxy[-_]protocol[-_]from|edns[-_]subnet[-_]allow[-_]list|"
    rb"edns[-_]subnet[-_]whitelist|api[-_]allow[-_]from)[\"']?[ \t]*[=:][ \t]*([^\n#]*)")
_BLOCK_ITEM = lazy_re.compile(rb"[ \t]*-[ \t]+([^\n#]*)")
_BRACKETS = lazy_re.compile(rb"\[([^\[\]\n]*![^\[\]\n]*)\]")
_BANG = lazy_re.compile(rb"(?<![!=<>])![ \t]*[\"']?(?=[0-9A-Fa-f:\[])")
_BIND_NOT = lazy_re.compile(rb"![ \t]*(?:\"([^\"\n]+)\"|([A-Za-z0-9_.:/\[\]-]+))[ \t]*;")
_BIND_ACL = lazy_re.compile(rb"(?m)^[ \t]*acl[ \t]+(?:\"([^\"\n]+)\"|([A-Za-z0-9_.-]+))[ \t]*\{")
_VIEW = lazy_re.compile(rb"(?m)^[ \t]*view[ \t]+(?:\"[^\"\n]*\"|[A-Za-z0-9_.-]+)(?:[ \t]+[A-Za-z]+)?[ \t]*\{")
_MATCH_CLIENTS = lazy_re.compile(rb"match-clients[ \t\r\n]*\{")
_KEY_LINE = lazy_re.compile(rb"(?m)^[ \t]*(?:hostlist[ \t]+|addresslist[ \t]+)?[A-Za-z_][A-Za-z0-9_.-]*"
                           rb"[ \t]*=")

UNBOUND = "Unbound's `access-control` of another action inside it, the most specific deciding"
NETMASK_GROUP = "a `!` entry of its netmask group, the most specific deciding"
SET = "a `!` entry of its bracketed address list (a set difference)"
BIND = "a `!` element of its BIND address match list, the first match deciding"
VIEW = "an earlier BIND view's match-clients, the first view matching deciding"




def _pairs(included: Spans, excluded: Spans, wanted: Collection[IPNetwork], what: str) -> Iterator[Rule]:
    for start, end, net in excluded:
        holding = list(dict.fromkeys(n for s, _, n in included if n in wanted and s != start
                                     and within(net, n)))
        if holding:
            yield holding, [(start, end, net)], what


def unbound(data: bytes, wanted: Collection[IPNetwork]) -> Iterator[Rule]:
    entries = [(s, e, n, x.group(2)) for x in _UNBOUND.finditer(data)
               for s, e, n in nets(data, x.start(1), x.end(1))]
    for start, end, net, action in entries:
        holding = list(dict.fromkeys(n for s, _, n, a in entries if a != action and n in wanted
                                     and within(net, n, equal=s > start)))  # a tie: the first stays
        if holding:
            yield holding, [(start, end, net)], UNBOUND


def _negated(data: bytes, start: int, end: int) -> tuple[Spans, Spans]:
    """The positive and the `!` networks between `start` and `end`."""
    bangs = {x.end() for x in _BANG.finditer(data, start, end)}
    found = nets(data, start, end)
    return ([f for f in found if f[0] not in bangs], [f for f in found if f[0] in bangs])


def netmask_groups(data: bytes, wanted: Collection[IPNetwork]) -> Iterator[Rule]:
    for x in _PDNS_KEY.finditer(data):
        start, end = x.start(1), x.end(1)
        if not data[start:end].strip():  # a YAML block list under the key
            at = end
            while True:
                item = _BLOCK_ITEM.match(data, at + 1)
                if item is None:
                    break
                at = item.end()
            end = at
        positive, negative = _negated(data, start, end)
        yield from _pairs(positive, negative, wanted, NETMASK_GROUP)


def bracket_sets(data: bytes, wanted: Collection[IPNetwork]) -> Iterator[Rule]:
    for x in _BRACKETS.finditer(data):
        positive, negative = _negated(data, x.start(1), x.end(1))
        yield from _pairs(positive, negative, wanted, SET)


def _elements(data: bytes, start: int, end: int) -> list[tuple[int, int]]:
    """The top-level `;` elements of a `{ }` block's inside."""
    out, depth, at = [], 0, start
    for i in range(start, end):
        char = data[i:i + 1]
        if char == b"{":
            depth += 1
        elif char == b"}":
            depth -= 1
        elif char == b";" and depth == 0:
            out.append((at, i))
            at = i + 1
    return out


def _acls(data: bytes) -> dict[bytes, Spans]:
    """Each BIND `acl` of the file and its positive networks."""
    found: dict[bytes, Spans] = {}
    for x in _BIND_ACL.finditer(data):
        span = except_lines.block(data, x.end())
        if span is not None:
            found[x.group(1) or x.group(2)] = [n for s, t in _elements(data, *span)
                                               if not data[s:t].strip().startswith(b"!")
                                               for n in nets(data, s, t)]
    return found


def _element_nets(data: bytes, start: int, end: int, acls: dict[bytes, Spans]) -> Spans:
    text = data[start:end].strip().lstrip(b"!").strip().strip(b"\"")
    return acls.get(text) or nets(data, start, end)


def bind_lists(data: bytes, wanted: Collection[IPNetwork]) -> Iterator[Rule]:
    acls = _acls(data) if b"acl" in data else {}
    seen = set()
    for x in _BIND_NOT.finditer(data):
        span = except_lines.block(data, x.start())
        if span is None or span in seen:
            continue
        seen.add(span)
        elements = _elements(data, *span)
        for k, (start, end) in enumerate(elements):
            if not data[start:end].strip().startswith(b"!"):
                continue
            later = [n for s, t in elements[k + 1:] if not data[s:t].strip().startswith(b"!")
                     for n in _element_nets(data, s, t, acls)]
            yield from _pairs(later, _element_nets(data, start, end, acls), wanted, BIND)


def views(data: bytes, wanted: Collection[IPNetwork]) -> Iterator[Rule]:
    acls = _acls(data) if b"acl" in data else {}
    matched: list[Spans] = []
    for x in _VIEW.finditer(data):
        body = except_lines.block(data, x.end())
        if body is None:
            continue
        clients = _MATCH_CLIENTS.search(data, *body)
        inner = except_lines.block(data, clients.end()) if clients is not None else None
        if inner is None:
            matched.append([])
            continue
        matched.append([n for s, t in _elements(data, *inner) if not data[s:t].strip().startswith(b"!")
                        for n in _element_nets(data, s, t, acls)])
    for k, later in enumerate(matched):
        for earlier in matched[:k]:
            yield from _pairs(later, earlier, wanted, VIEW)


def _joined(data: bytes) -> bytes:
    """The file with each `key =` line's continuation lines (indented: Postfix, INI; after a `\\`:
    Exim) joined onto it by blanks, the same length."""
    view = bytearray(data)
    for x in _KEY_LINE.finditer(data):
        at = x.end()
        for _ in range(200):
            end = data.find(b"\n", at)
            if end < 0:
                break
            following = data[end + 1:end + 2]
            if data[end - 1:end] == b"\\":
                view[end - 1:end + 1] = b"  "
            elif following in (b" ", b"\t") and data[end + 1:data.find(b"\n", end + 1) % (len(data) + 1)
                                                      ].strip()[:1] not in (b"", b"#"):
                view[end:end + 1] = b" "
                if data[end - 1:end] == b"\r":
                    view[end - 1:end] = b" "
            else:
                break
            at = end + 1
    return bytes(view)


def continued(data: bytes) -> Iterator[Rule]:
    """Postfix's and Exim's `key = ..` lists continued on further lines: the key's `!` list read as
    one line (a view of the same length, its spans the file's)."""
    view = _joined(data)
    if view == data:
        return
    for included, excluded, what in except_lines.key_lists(view):
        start = excluded[0][0]
        if data.find(b"\n", start) != view.find(b"\n", start) \
                or _KEY_LINE.match(data, data.rfind(b"\n", 0, start) + 1) is None:
            yield included, excluded, what  # a line continued: no one-line rule found it


def rules(data: bytes, wanted: Collection[IPNetwork]) -> Iterator[Rule]:
    """Every list of this module's grammars with an exclusion, in no order (`wanted`: the resized
    networks, old and new), those before the same networks together (`host_access.grouped`)."""
    yield from host_access.grouped(_rules(data, wanted))


def _rules(data: bytes, wanted: Collection[IPNetwork]) -> Iterator[Rule]:
    if b"access-control" in data:
        yield from unbound(data, wanted)
    if b"!" in data:
        if re.search(rb"(?i)allow|query|proxy|subnet", data):
            yield from netmask_groups(data, wanted)
        if b"[" in data:
            yield from bracket_sets(data, wanted)
        if b"{" in data and b";" in data:
            yield from bind_lists(data, wanted)
        if b"=" in data:
            yield from continued(data)
    if b"view" in data and b"match-clients" in data:
        yield from views(data, wanted)
