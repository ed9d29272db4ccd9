"""Exclusions in other tools' grammars (t33-33 findings 02, 20, 21), pure: the networks a rule admits
and those it takes out, as `except_lines` yields them, for `except_blocks.covering` to judge under a
move. Networks are read as these tools write them: `A/N`, a dotted mask `A/255.255.255.128`
(TCP wrappers, Samba, Apache 2.2) and a bracketed IPv6 `[2001:db8:a::]/56` (Postfix, TCP wrappers).

* sshd's pattern lists, a `!` entry anywhere taking its addresses out (OpenSSH `match_pattern_list`):
  `Match Address 10.0.48.0/24,!10.0.48.0/25` (and `LocalAddress`), authorized_keys' `from="..."`;
* hosts_access(5) and Samba's `EXCEPT`: `sshd: 10.0.48.0/24 EXCEPT 10.0.48.0/25`, `hosts allow =
  10.0.48.0/24 EXCEPT 10.0.48.0/25` (the entries between the first `EXCEPT` and the next);
* nginx `geo` blocks, the longest match deciding: `10.0.48.0/24 1;` beside `10.0.48.0/25 0;` (an
  entry inside another with another value takes its addresses out of it);
* named ACLs, the first access line that matches deciding: Squid's `acl printers src ...` with
  `http_access deny printers` before `http_access allow lan`, HAProxy's `acl` (one section) with
  `http-request deny if printers` before `http-request allow if lan` (`tcp-request ... reject` /
  `accept` too, an inline `{ src ... }` too; a deny of one ACL alone, an allow of ACLs ANDed);
* first-match lookup tables of a network and a verdict: Postfix `cidr:` tables (`10.0.48.0/25
  REJECT` before `10.0.48.0/24 OK`), PostgreSQL's pg_hba.conf (`host all all 10.0.48.0/25 reject`
  before a line of the same type, database and user for the whole network);
* Caddy's `not remote_ip` (`not client_ip`, a `not { }` block) beside `remote_ip` in one matcher;
* Apache 2.2's `Order Allow,Deny` (the Deny directives win) with `Deny from` beside `Allow from` in
  one container (or a file of them: .htaccess);
* Varnish VCL's `acl NAME { "10.0.48.0"/24; ! "10.0.48.0"/25; }`, the most specific entry deciding
  (VCC sorts the entries; one network both admitted and negated is its "Conflicting ACL entries"
  error), each address in quotes and its length outside them (a bare address a /32 or /128);
* Envoy RBAC `and_ids` whose `not_id` holds a `direct_remote_ip` / `remote_ip` / `source_ip`
  (`address_prefix` + `prefix_len`) beside one of the same outside `not_id`.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Iterator

from renamer import lazy_re
from renamer.names import IPNetwork

_V4 = rb"(?:[0-9]{1,3}\.){3}[0-9]{1,3}"
_V6 = rb"[0-9A-Fa-f]*:[0-9A-Fa-f:.]*"
NET = lazy_re.compile(rb"(?<![0-9A-Za-z.:\[])(?:" + _V4 + rb"/" + _V4 + rb"|" + _V4 + rb"/[0-9]{1,2}|\[" + _V6
                 + rb"\]/[0-9]{1,3}|" + _V6 + rb"/[0-9]{1,3})(?![0-9A-Za-z:])(?!\.[0-9])")

Rule = tuple[list[IPNetwork], list[tuple[int, int, IPNetwork]], str]
GEO = "an nginx `geo` entry inside it with another value, the longest match deciding"
SQUID = "Squid's `deny` of an ACL before the `allow` of the whole"
CIDR_TABLE = "a lookup table's row before it, the first match deciding (Postfix cidr_table)"
Spans = list[tuple[int, int, IPNetwork]]


def network(text: bytes) -> IPNetwork | None:
    """`A/N`, `A/M.M.M.M` or `[A]/N` as a network (None: not one)."""
    try:
        return ipaddress.ip_network(text.replace(b"[", b"").replace(b"]", b"").decode("ascii"), strict=False)
    except (ValueError, UnicodeDecodeError):
        return None


def nets(data: bytes, start: int, end: int) -> Spans:
    return [(x.start(), x.end(), net) for x in NET.finditer(data, start, end)
            if (net := network(x.group())) is not None]


def _closing(data: bytes, at: int, limit: int = 20000) -> int:
    """The index of the bracket closing the one at `at` (-1: none)."""
    opening = data[at:at + 1]
    closing = {b"{": b"}", b"[": b"]"}[opening]
    depth = 0
    for end in range(at, min(len(data), at + limit)):
        char = data[end:end + 1]
        if char == opening:
            depth += 1
        elif char == closing:
            depth -= 1
            if depth == 0:
                return end
    return -1


def _enclosing(data: bytes, pos: int) -> tuple[int, int] | None:
    """The span inside the innermost `{ }` around `pos`."""
    depth, at = 0, pos
    while at > max(0, pos - 20000):
        at -= 1
        char = data[at:at + 1]
        if char == b"}":
            depth += 1
        elif char == b"{":
            if depth == 0:
                end = _closing(data, at)
                return (at + 1, end) if end > pos else None
            depth -= 1
    return None


# -- sshd ----------------------------------------------------------------------------------------

_SSHD = lazy_re.compile(rb"(?mi)^[ \t]*Match[ \t][^\n]*?(?<![A-Za-z])(?:Local)?Address[ \t]+([^\s\"]+)")
_FROM_OPTION = lazy_re.compile(rb"(?<![A-Za-z])from=\"([^\s\"]+)")


def _sshd(data: bytes) -> Iterator[Rule]:
    found = [*(_SSHD.finditer(data) if b"atch" in data or b"ATCH" in data else ()),
             *(_FROM_OPTION.finditer(data) if b"from=\"" in data else ())]
    for x in found:
        included, excluded = [], []
        at = x.start(1)
        for entry in x.group(1).split(b","):
            text = entry[1:] if entry.startswith(b"!") else entry
            net = network(text)
            if net is not None:
                start = at + len(entry) - len(text)
                if entry.startswith(b"!"):
                    excluded.append((start, start + len(text), net))
                else:
                    included.append(net)
            at += len(entry) + 1
        if included and excluded:
            yield included, excluded, "a `!` entry of sshd's pattern list, which takes its addresses out"


# -- hosts_access(5), Samba ------------------------------------------------------------------------

_EXCEPT_LINE = lazy_re.compile(rb"(?m)^[^\n#;]*?[ \t]EXCEPT[ \t][^\n]*$")
_EXCEPT = lazy_re.compile(rb"[ \t,]EXCEPT[ \t,]")
_FIELD = lazy_re.compile(rb"[ \t]:(?:[ \t]|$)")


def _except_words(data: bytes) -> Iterator[Rule]:
    for x in _EXCEPT_LINE.finditer(data):
        line = x.group()
        head = re.match(rb"[^=:\[]*(?:=|:(?=[ \t]))", line)  # after Samba's `=` or the daemon list's `:`
        start = x.start() + (head.end() if head is not None else 0)
        words = list(_EXCEPT.finditer(data, start, x.end()))
        if not words:
            continue
        shell = _FIELD.search(data, words[0].end(), x.end())  # hosts_access' shell command field
        end = words[1].start() if len(words) > 1 else shell.start() if shell is not None else x.end()
        included = [net for _, _, net in nets(data, start, words[0].start())]
        excluded = nets(data, words[0].end(), end)
        if included and excluded:
            yield included, excluded, "an `EXCEPT` list (hosts_access, Samba)"


# -- nginx geo -------------------------------------------------------------------------------------

_GEO = lazy_re.compile(rb"(?m)^[ \t]*geo[ \t]+(?:\$[A-Za-z0-9_]+[ \t]+)?\$[A-Za-z0-9_]+[ \t]*\{")
_GEO_ENTRY = lazy_re.compile(rb"(?m)^[ \t]*(\S+)[ \t]+([^;\n]+?)[ \t]*;")


def _geo(data: bytes) -> Iterator[Rule]:
    for x in _GEO.finditer(data):
        end = _closing(data, x.end() - 1)
        if end < 0 or re.search(rb"(?m)^[ \t]*ranges[ \t]*;", data[x.end():end]):
            continue
        entries = [(e.start(1), e.end(1), net, e.group(2)) for e in _GEO_ENTRY.finditer(data, x.end(), end)
                   if (net := network(e.group(1))) is not None]
        for at, _, outer, value in entries:
            # an entry inside it with another value (the same network too: nginx warns of a
            # duplicate and keeps one of them)
            inner = [(s, e, net) for s, e, net, other in entries
                     if other != value and s != at and net.version == outer.version
                     and net.subnet_of(outer)]  # type: ignore[arg-type]
            if inner:
                yield [outer], inner, GEO


# -- Squid and HAProxy named ACLs --------------------------------------------------------------------

_ACL = lazy_re.compile(rb"(?m)^[ \t]*acl[ \t]+([A-Za-z0-9_.-]+)[ \t]+(?:src|dst|localip|myip|dst_ip|src_ip)"
                  rb"(?:[ \t]+-[a-z][^ \t\n]*)*[ \t]+([^\n]*)$")
_SQUID = lazy_re.compile(rb"(?m)^[ \t]*([a-z_]+_access)[ \t]+(allow|deny)[ \t]+([^\n#]*?)[ \t]*\r?$")
_HAPROXY = lazy_re.compile(rb"(?m)^[ \t]*(http-request|tcp-request[ \t]+(?:connection|content|session))[ \t]+"
                      rb"(deny|reject|tarpit|silent-drop|allow|accept)\b[^\n]*?[ \t]if[ \t]+"
                      rb"([^\n#]*?)[ \t]*\r?$")
_SECTION = lazy_re.compile(rb"(?m)^(?:frontend|backend|listen|defaults|global)\b")
_USE_BACKEND = lazy_re.compile(rb"(?m)^[ \t]*use_backend[ \t]+(\S+)[ \t]+(if|unless)[ \t]+([^\n#]*?)"
                               rb"[ \t]*\r?$")
BACKENDS = "HAProxy's earlier `use_backend` of another backend, the first match deciding"
_INLINE = lazy_re.compile(rb"\{[ \t]*(?:src|dst)[ \t]+([^{}]*)\}")


def _terms(data: bytes, start: int, end: int, acls: dict[bytes, Spans]) -> list[Spans] | None:
    """The networks of each term of a condition (ANDed), None: a term that is not a network ACL,
    a negation or an `||`."""
    text = data[start:end]
    if b"||" in text or re.search(rb"(?<![A-Za-z])(?:or|OR)(?![A-Za-z])", text) or b"!" in text:
        return None
    out: list[Spans] = []
    for inline in _INLINE.finditer(data, start, end):
        out.append(nets(data, inline.start(1), inline.end(1)))
    rest = _INLINE.sub(b" ", text)
    for name in rest.split():
        if name not in acls:
            return None
        out.append(acls[name])
    return out if all(out) else None


def _named(data: bytes, start: int, end: int, lines: re.Pattern[bytes], what: str) -> Iterator[Rule]:
    acls: dict[bytes, Spans] = {}
    for x in _ACL.finditer(data, start, end):
        acls.setdefault(x.group(1), []).extend(nets(data, x.start(2), x.end(2)))
    if not acls:
        return
    access = [(y.group(1).split()[0], y.group(2) in (b"allow", b"accept"), y.start(3), y.end(3))
              for y in lines.finditer(data, start, end)]
    for i, (directive, allows, cond_start, cond_end) in enumerate(access):
        if allows:
            continue
        denied = _terms(data, cond_start, cond_end, acls)
        if denied is None or len(denied) != 1:
            continue  # a deny of several ACLs ANDed takes out only what all of them hold
        included = []
        for other, other_allows, s, e in access[i + 1:]:
            terms = _terms(data, s, e, acls) if other == directive and other_allows else None
            for term in terms or []:
                included += [net for _, _, net in term]
        if included:
            yield included, denied[0], what


def _backends(data: bytes, start: int, end: int) -> Iterator[Rule]:
    """`use_backend A if { src E }` (or an ACL of E) before `use_backend B if { src C }`: the first
    `use_backend` whose condition holds picks the backend, so E's clients never reach B."""
    acls: dict[bytes, Spans] = {}
    for x in _ACL.finditer(data, start, end):
        acls.setdefault(x.group(1), []).extend(nets(data, x.start(2), x.end(2)))
    rows = [(y.group(1), _terms(data, y.start(3), y.end(3), acls) if y.group(2) == b"if" else None)
            for y in _USE_BACKEND.finditer(data, start, end)]
    for i, (backend, terms) in enumerate(rows):
        if terms is None or len(terms) != 1:
            continue  # a condition of several terms ANDed takes out only what all of them hold
        included = [net for other, later in rows[i + 1:] if other != backend
                    for term in later or [] for _, _, net in term]
        if included:
            yield included, terms[0], BACKENDS


def _acls(data: bytes) -> Iterator[Rule]:
    if b"_access" in data:
        yield from _named(data, 0, len(data), _SQUID, SQUID)
    if b"-request" in data:
        starts = [x.start() for x in _SECTION.finditer(data)] or [0]
        for start, end in zip(starts, [*starts[1:], len(data)], strict=True):
            yield from _named(data, start, end, _HAPROXY,
                              "HAProxy's `deny if` an ACL before the `allow if` of the whole")
    if b"use_backend" in data:
        starts = [x.start() for x in _SECTION.finditer(data)] or [0]
        for start, end in zip(starts, [*starts[1:], len(data)], strict=True):
            yield from _backends(data, start, end)


# -- first-match tables: Postfix cidr, pg_hba ---------------------------------------------------------

_CIDR_ROW = lazy_re.compile(
    rb"(?m)^[ \t]*(\S+)[ \t]+(OK|PERMIT|RELAY|REJECT|DEFER|DEFER_IF_PERMIT|DISCARD|HOLD|"
                       rb"[45][0-9][0-9])\b", re.IGNORECASE)
# a deny verdict after a network: a table of rows may hold one (the rule's own regex reads every line)
_VERDICT = lazy_re.compile(
    rb"[0-9]\]?/[0-9]{1,3}[ \t]+(?:[Rr][Ee][Jj]|[Dd][Ee][Ff]|[Dd][Ii][Ss]|[Hh][Oo][Ll][Dd]|"
                      rb"[45][0-9][0-9][ \t])")
_DENY_VERDICTS = (b"REJECT", b"DEFER", b"DEFER_IF_PERMIT", b"DISCARD", b"HOLD")
_HBA = lazy_re.compile(
    rb"(?m)^[ \t]*(host|hostssl|hostnossl|hostgssenc|hostnogssenc)[ \t]+(\S+)[ \t]+(\S+)[ \t]+"
                  rb"(\S+)[ \t]+([A-Za-z0-9-]+)")


Row = tuple[tuple[bytes, ...], bool, int, int, IPNetwork]  # its key, whether it allows, the network's span


def _first_match(rows: list[Row], what: str) -> Iterator[Rule]:
    """A deny row before allow rows it shadows (its key `all` or the same, field by field)."""
    for i, (key, allows, start, end, net) in enumerate(rows):
        if allows:
            continue
        included = [n for k, a, _, _, n in rows[i + 1:]
                    if a and all(mine in (b"all", b"host", theirs)
                                 for mine, theirs in zip(key, k, strict=False))]
        if included:
            yield included, [(start, end, net)], what


def _tables(data: bytes) -> Iterator[Rule]:
    rows: list[Row] = [((), x.group(2).upper() not in _DENY_VERDICTS and not x.group(2)[:1].isdigit(),
                        x.start(1), x.end(1), net)
                       for x in _CIDR_ROW.finditer(data) if (net := network(x.group(1))) is not None]
    yield from _first_match(rows, CIDR_TABLE)
    if b"host" in data:
        hba: list[Row] = [((x.group(1), x.group(2), x.group(3)), x.group(5).lower() != b"reject",
                           x.start(4), x.end(4), net)
                          for x in _HBA.finditer(data) if (net := network(x.group(4))) is not None]
        yield from _first_match(hba, "pg_hba.conf's `reject` line before it, the first match deciding")


# -- Caddy ---------------------------------------------------------------------------------------------

_CADDY_NOT = lazy_re.compile(rb"(?m)^[ \t]*not[ \t]+(?:remote_ip|client_ip)[ \t]+([^\n#]*)$")
_CADDY_NOT_BLOCK = lazy_re.compile(rb"(?m)^[ \t]*not[ \t]*\{")
_CADDY_IP = lazy_re.compile(rb"(?m)^[ \t]*(?:remote_ip|client_ip)[ \t]+([^\n#]*)$")


def _caddy(data: bytes) -> Iterator[Rule]:
    if b"_ip" not in data:
        return
    found: list[tuple[int, Spans]] = [(x.start(), nets(data, x.start(1), x.end(1)))
                                      for x in _CADDY_NOT.finditer(data)]
    blocks = []
    for x in _CADDY_NOT_BLOCK.finditer(data):
        end = _closing(data, x.end() - 1)
        if end > 0:
            blocks.append((x.end(), end))
            found.append((x.start(), [n for y in _CADDY_IP.finditer(data, x.end(), end)
                                      for n in nets(data, y.start(1), y.end(1))]))
    for at, excluded in found:
        span = _enclosing(data, at)
        if span is None or not excluded:
            continue
        included = [net for y in _CADDY_IP.finditer(data, *span)
                    if not any(s <= y.start() < e for s, e in blocks)
                    for _, _, net in nets(data, y.start(1), y.end(1))]
        yield included, excluded, "Caddy's `not remote_ip` (`client_ip`) in the matcher"


# -- Apache 2.2 ------------------------------------------------------------------------------------------

_ORDER = lazy_re.compile(rb"(?mi)^[ \t]*Order[ \t]+\"?Allow[ \t]*,[ \t]*Deny\"?[ \t]*\r?$")
_FROM = lazy_re.compile(rb"(?mi)^[ \t]*(Allow|Deny)[ \t]+from[ \t]+([^\n#]*)$")
_OPEN = lazy_re.compile(rb"(?m)^[ \t]*<([A-Za-z]+)[ \t>]")


def _apache22(data: bytes) -> Iterator[Rule]:
    for x in _ORDER.finditer(data):
        start, end = 0, len(data)
        for o in _OPEN.finditer(data, 0, x.start()):
            close = data.find(b"</" + o.group(1), o.end())
            if close > x.end():
                start, end = o.end(), close  # the innermost container around the Order line
        included, excluded = [], []
        for y in _FROM.finditer(data, start, end):
            found = nets(data, y.start(2), y.end(2))
            if y.group(1).lower() == b"deny":
                excluded += found
            else:
                included += [net for _, _, net in found]
        if included and excluded:
            yield included, excluded, "Apache 2.2's `Deny from` under `Order Allow,Deny`, which wins"


# -- Envoy RBAC ------------------------------------------------------------------------------------------

_KEY = rb"[\"']?%s[\"']?[ \t]*:"
_AND_IDS = lazy_re.compile(_KEY % rb"and_ids")
_NOT_ID = lazy_re.compile(_KEY % rb"not_id")
_PAIR = lazy_re.compile(rb"(?:direct_remote_ip|remote_ip|source_ip)[\"']?[ \t]*:[^\n]*?(?:\n[^\n]*?){0,3}?"
                   rb"address_prefix[\"']?[ \t]*:[ \t]*[\"']?([0-9A-Fa-f:.]+)[\"']?[ \t]*,?[ \t]*"
                   rb"(?:\r?\n[ \t]*)?[\"']?prefix_len[\"']?[ \t]*:[ \t]*"
                   rb"(?:\{[ \t]*[\"']?value[\"']?[ \t]*:[ \t]*)?([0-9]{1,3})")


def _value_span(data: bytes, key: re.Match[bytes]) -> tuple[int, int]:
    """The value of a YAML or JSON key: a bracketed one to its bracket, else the lines indented past
    the key's column."""
    at = key.end()
    while data[at:at + 1] in (b" ", b"\t"):
        at += 1
    if data[at:at + 1] in (b"{", b"["):
        end = _closing(data, at)
        return at, end if end > 0 else at
    line_start = data.rfind(b"\n", 0, key.start()) + 1
    column = key.start() - line_start
    end = data.find(b"\n", key.end())
    end = len(data) if end < 0 else end
    while end < len(data):
        nxt = data.find(b"\n", end + 1)
        nxt = len(data) if nxt < 0 else nxt
        text = data[end + 1:nxt]
        if text.strip() and len(text) - len(text.lstrip(b" \t")) <= column:
            break
        end = nxt
    return key.end(), end


def _envoy(data: bytes) -> Iterator[Rule]:
    for x in _AND_IDS.finditer(data):
        start, end = _value_span(data, x)
        negated = [_value_span(data, n) for n in _NOT_ID.finditer(data, start, end)]
        included, excluded = [], []
        for p in _PAIR.finditer(data, start, end):
            net = network(p.group(1) + b"/" + p.group(2))
            if net is None:
                continue
            if any(s <= p.start() < e for s, e in negated):
                excluded.append((p.start(1), p.end(1), net))
            else:
                included.append(net)
        if included and excluded:
            yield included, excluded, "Envoy RBAC's `not_id` in its `and_ids`"


# -- Varnish VCL acl --------------------------------------------------------------------------------

_VCL_ACL = lazy_re.compile(rb"(?m)^[ \t]*acl[ \t]+[A-Za-z_][A-Za-z0-9_-]*(?:[ \t]+[-+][a-z_]+)*[ \t]*\{")
_VCL_ENTRY = lazy_re.compile(rb"(!?)[ \t]*\"([0-9A-Fa-f:.]+)\"(?:[ \t]*/[ \t]*([0-9]{1,3}))?[ \t]*;")
VCL = "a Varnish VCL acl's `!` entry, the most specific entry deciding"


def _vcl(data: bytes) -> Iterator[Rule]:
    for x in _VCL_ACL.finditer(data):
        end = _closing(data, x.end() - 1)
        if end < 0:
            continue
        included, excluded = [], []
        for e in _VCL_ENTRY.finditer(data, x.end(), end):
            length = b"/" + e.group(3) if e.group(3) is not None else b""
            net = network(e.group(2) + length)
            if net is None:
                continue
            if e.group(1):
                excluded.append((e.start(2), e.end(2), net))
            else:
                included.append(net)
        if included and excluded:
            yield included, excluded, VCL


def rules(data: bytes) -> Iterator[Rule]:
    """Every rule of this module's grammars with an exclusion, in no order."""
    if b"!" in data and (b"ddress" in data or b"from=" in data):
        yield from _sshd(data)
    if b"EXCEPT" in data:
        yield from _except_words(data)
    if b"geo" in data:
        yield from _geo(data)
    if b"acl" in data or b"use_backend" in data:
        yield from _acls(data)
    if _VERDICT.search(data) is not None:
        yield from _tables(data)
    if b"not" in data:
        yield from _caddy(data)
    if b"Deny" in data or b"deny" in data:
        yield from _apache22(data)
    if b"not_id" in data:
        yield from _envoy(data)
    if b"acl" in data and b"!" in data and b'"' in data:
        yield from _vcl(data)
