"""Denies through named address objects (outside pass round 7, issue 33), pure: a network defined
once by name and used by name in a firewall's rules, the deny of part of a network before the allow
of the whole. The exclusion's place is the object's definition (where its network is written),
judged by `except_blocks.covering` through `deny_rules.pair`.

* Cisco ASA: `object network PRINTERS` / ` subnet 10.0.48.0 255.255.255.128` (` host A`, an IPv6
  ` subnet A/N`), `object-group network` with ` network-object A M` (`A/N`, `host A`, `object X`,
  ` group-object G`), used by `access-list OUT extended deny ip object PRINTERS any` before the
  permit of the object holding the network (the first entry deciding; an address written in the
  entry is read too);
* FortiGate: `config firewall address` (`address6`) `edit "printers"` / `set subnet 10.0.48.0
  255.255.255.128` (`set ip6 A/N`), `config firewall addrgrp` members, and `config firewall policy`
  entries (`set srcaddr "printers"`, `set action deny`, the default action; the list's order
  deciding; `set status disable` not read);
* pfSense / OPNsense config.xml: an `<alias>` (`<type>network</type>`, its networks in `<address>`
  or `<content>`) named by a `<filter>` `<rule>`'s `<source><address>` (or `<destination>`), a
  `block` or `reject` rule before the `pass` of the alias holding the network, on one `<interface>`
  (first match; a disabled or floating rule and a `<not/>` side not read);
* Juniper SRX address books in set commands: `set security address-book global address printers
  10.0.48.0/25` (a zone's `address-book` too, `address-set` members) and `set security policies
  from-zone trust to-zone untrust policy p1 match source-address printers` / `then deny` (`reject`)
  before the policy that permits the object of the network, in one zone pair (or `global`).

A deny counts only where it matches every packet of the permit but for the network: the same list
and side, the protocol, service, interfaces and the other side `any` (`all`) or the permit's own.
The objects of the same file are read; a definition in another file is not (docs/reliability.md).
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterator

from renamer import lazy_re
from renamer.deny_rules import Entry, Rule, network, pair
from renamer.names import IPNetwork

Span = tuple[int, int, IPNetwork]

_ASA_OBJECT = lazy_re.compile(rb"(?m)^(object|object-group)[ \t]+network[ \t]+([^ \t\r\n]+)"
                              rb"[ \t]*\r?$")
_ASA_MEMBER = lazy_re.compile(rb"(?m)^[ \t]+(?:subnet|network-object|host|group-object)[^\r\n]*")
_ASA_ACL = lazy_re.compile(rb"(?m)^access-list[ \t]+([^ \t\r\n]+)[ \t]+(?:line[ \t]+[0-9]+[ \t]+)?"
                           rb"extended[ \t]+"
                      rb"(deny|permit)[ \t]+([^\r\n]*)")
_WORD = lazy_re.compile(rb"[^ \t\r\n]+")
_MASKED = lazy_re.compile(rb"((?:[0-9]{1,3}\.){3}[0-9]{1,3})[ \t]+((?:[0-9]{1,3}\.){3}[0-9]{1,3})")
_ANY = {b"any", b"any4", b"any6", b"all", b"ALL"}
_FORTI_LINE = lazy_re.compile(rb"(?m)^[ \t]*(config|edit|set|next|end)\b[ \t]*([^\r\n]*)")
_QUOTED = lazy_re.compile(rb"\"([^\"]*)\"|([^ \t\r\n\"]+)")
_PF_ALIAS = lazy_re.compile(rb"(?s)<alias\b[^>]*>(.*?)</alias>")
_PF_KINDS = (b"network", b"host")
_PF_FILTER = lazy_re.compile(rb"(?s)<filter>.*?</filter>")
_PF_RULE = lazy_re.compile(rb"(?s)<rule\b[^>]*>(.*?)</rule>")
_JUNOS_ADDRESS = lazy_re.compile(rb"(?m)^set[ \t]+security[ \t]+(?:address-book[ \t]+[^ \t\r\n]+|zones[ \t]+"
                            rb"security-zone[ \t]+[^ \t\r\n]+[ \t]+address-book)[ \t]+(address|address-set)"
                            rb"[ \t]+([^ \t\r\n]+)[ \t]+(?:(address|address-set)[ \t]+)?([^ \t\r\n]+)")
_JUNOS_POLICY = lazy_re.compile(rb"(?m)^set[ \t]+security[ \t]+policies[ \t]+"
                                rb"(from-zone[ \t]+[^ \t\r\n]+[ \t]+"
                           rb"to-zone[ \t]+[^ \t\r\n]+|global)[ \t]+policy[ \t]+([^ \t\r\n]+)[ \t]+"
                           rb"(match|then)[ \t]+([^ \t\r\n]+)(?:[ \t]+([^ \t\r\n]+))?")


def _masked(data: bytes, start: int, end: int) -> list[Span]:
    """`A M` (a dotted mask) or `A/N` or `host A` between start and end."""
    x = _MASKED.search(data, start, end)
    if x is not None:
        net = network(x.group(1) + b"/" + x.group(2))
        return [(x.start(), x.end(), net)] if net is not None else []
    out = []
    for word in _WORD.finditer(data, start, end):
        net = network(word.group())
        if net is not None:
            out.append((word.start(), word.end(), net))
    return out


def _resolve(name: bytes, direct: dict[bytes, list[Span]], members: dict[bytes, list[bytes]],
             seen: frozenset[bytes] = frozenset()) -> list[Span]:
    if name in seen:
        return []
    out = list(direct.get(name, []))
    for member in members.get(name, []):
        out += _resolve(member, direct, members, seen | {name})
    return out


# Cisco ASA ------------------------------------------------------------------------------------------

def _asa_objects(data: bytes) -> tuple[dict[bytes, list[Span]], dict[bytes, list[bytes]]]:
    direct: dict[bytes, list[Span]] = {}
    members: dict[bytes, list[bytes]] = {}
    for x in _ASA_OBJECT.finditer(data):
        name = x.group(2)
        at = x.end()
        while (m := _ASA_MEMBER.match(data, at + 1 if data[at:at + 1] == b"\n" else at)) is not None:
            words = m.group().split()
            if words[-2:-1] in ([b"object"], [b"group-object"]) or words[0] == b"group-object":
                members.setdefault(name, []).append(words[-1])
            else:
                direct.setdefault(name, []).extend(_masked(data, m.start(), m.end()))
            at = m.end()
    return direct, members


def _asa_spec(words: list[bytes], at: int) -> tuple[int, bytes, bytes | None]:
    """The address spec at words[at]: the next index, its words, the object name (None inline)."""
    if at >= len(words):
        return at, b"", None
    if words[at] in (b"object", b"object-group") and at + 1 < len(words):
        return at + 2, words[at] + b" " + words[at + 1], words[at + 1]
    if words[at] in (b"host", b"interface") and at + 1 < len(words):
        return at + 2, words[at] + b" " + words[at + 1], None
    if at + 1 < len(words) and re.fullmatch(rb"(?:[0-9]{1,3}\.){3}[0-9]{1,3}", words[at + 1]):
        return at + 2, words[at] + b" " + words[at + 1], None
    return at + 1, words[at], None


def _asa(data: bytes) -> Iterator[Entry]:
    direct, members = _asa_objects(data)
    if not direct:
        return
    for index, x in enumerate(_ASA_ACL.finditer(data)):
        words = [w.group() for w in _WORD.finditer(x.group(3))]
        at = 2 if words[:1] in ([b"object"], [b"object-group"]) else 1
        protocol = b" ".join(words[:at])
        specs = []
        for _ in range(2):
            at, text, name = _asa_spec(words, at)
            specs.append((text, name))
        rest = b" ".join(words[at:])
        for side, (text, name) in zip((b"src", b"dst"), specs, strict=True):
            other = specs[1][0] if side == b"src" else specs[0][0]
            fields: dict[bytes, bytes | frozenset[bytes]] = {
                b"protocol": b"" if protocol in (b"ip", b"ipv6") else protocol,
                b"other": b"" if other in _ANY else other, b"rest": rest}
            if name is not None:
                spans = _resolve(name, direct, members)
            else:  # an address written in the entry
                offset = x.start(3) + x.group(3).find(text) if text else -1
                spans = _masked(data, offset, offset + len(text)) if offset >= 0 and text not in _ANY else []
            for start, end, net in spans:
                action = x.group(2).decode()
                yield Entry(b"asa " + x.group(1), (index,), action, side, start, end, net, fields)


# FortiGate ------------------------------------------------------------------------------------------

def _forti(data: bytes) -> Iterator[Entry]:
    path: list[bytes] = []
    item: dict[bytes, list[tuple[bytes, int, int]]] = {}
    items: list[tuple[bytes, dict[bytes, list[tuple[bytes, int, int]]]]] = []
    for x in _FORTI_LINE.finditer(data):
        word, rest = x.group(1), x.group(2)
        if word == b"config":
            path.append(rest.strip())
        elif word == b"end" and path:
            path.pop()
        elif word == b"edit":
            item = {b"edit": [(rest.strip().strip(b"\""), x.start(2), x.end(2))]}
            items.append((path[-1] if path else b"", item))
        elif word == b"set":
            values = list(_QUOTED.finditer(data, x.start(2), x.end(2)))
            if values:
                key = values[0].group(2) or b""
                item[key] = [(v.group(1) if v.group(1) is not None else v.group(2), v.start(), v.end())
                             for v in values[1:]]
    direct: dict[bytes, list[Span]] = {}
    members: dict[bytes, list[bytes]] = {}
    for section, fields in items:
        name = fields[b"edit"][0][0]
        if section in (b"firewall address", b"firewall address6"):
            found = fields.get(b"subnet") or fields.get(b"ip6") or []
            if found:
                direct[name] = _masked(data, found[0][1], found[-1][2])
        elif section in (b"firewall addrgrp", b"firewall addrgrp6"):
            members[name] = [v for v, _, _ in fields.get(b"member", [])]
    for index, (section, fields) in enumerate(items):
        if section != b"firewall policy" or [v for v, _, _ in fields.get(b"status", [])] == [b"disable"]:
            continue
        action = [v for v, _, _ in fields.get(b"action", [])]
        kind = "permit" if action == [b"accept"] else "deny" if action in ([b"deny"], []) else None
        if kind is None:
            continue
        common: dict[bytes, bytes | frozenset[bytes]] = {
            key: frozenset(v.lower() for v, _, _ in fields.get(key, [])) or frozenset({b"any"})
            for key in (b"srcintf", b"dstintf", b"service", b"schedule")}
        for side, keys in ((b"src", (b"srcaddr", b"srcaddr6")), (b"dst", (b"dstaddr", b"dstaddr6"))):
            other = (b"dstaddr", b"dstaddr6") if side == b"src" else (b"srcaddr", b"srcaddr6")
            mine = dict(common)
            mine[b"other"] = frozenset(v.lower() for k in other for v, _, _ in fields.get(k, [])) or \
                frozenset({b"all"})
            for key in keys:
                for value, _, _ in fields.get(key, []):
                    for start, end, net in _resolve(value, direct, members):
                        yield Entry(b"forti", (index,), kind, side, start, end, net, mine)


# Juniper SRX ----------------------------------------------------------------------------------------

def _junos(data: bytes) -> Iterator[Entry]:
    direct: dict[bytes, list[Span]] = {}
    members: dict[bytes, list[bytes]] = {}
    for x in _JUNOS_ADDRESS.finditer(data):
        if x.group(1) == b"address":
            net = network(x.group(4))
            if net is not None:
                direct.setdefault(x.group(2), []).append((x.start(4), x.end(4), net))
        else:
            members.setdefault(x.group(2), []).append(x.group(4))
    if not direct:
        return
    policies: dict[tuple[bytes, bytes], dict[bytes, set[bytes]]] = {}
    for x in _JUNOS_POLICY.finditer(data):
        policy = policies.setdefault((x.group(1), x.group(2)), {})
        if x.group(3) == b"then":
            policy.setdefault(b"then", set()).add(x.group(4))
        elif x.group(5) is not None:
            policy.setdefault(x.group(4), set()).add(x.group(5))
    for index, ((group, _), policy) in enumerate(policies.items()):
        then = policy.get(b"then", set())
        kind = "permit" if b"permit" in then else "deny" if then & {b"deny", b"reject"} else None
        if kind is None:
            continue
        for side, key, other in ((b"src", b"source-address", b"destination-address"),
                                 (b"dst", b"destination-address", b"source-address")):
            fields: dict[bytes, bytes | frozenset[bytes]] = {
                b"other": frozenset(policy.get(other, {b"any"})),
                b"application": frozenset(policy.get(b"application", {b"any"}))}
            for name in policy.get(key, set()):
                for start, end, net in _resolve(name, direct, members):
                    yield Entry(b"junos " + group, (index,), kind, side, start, end, net, fields)


# pfSense / OPNsense ---------------------------------------------------------------------------------

def _tag(body: bytes, name: bytes) -> re.Match[bytes] | None:
    return re.search(rb"<" + name + rb">(.*?)</" + name + rb">", body, re.S)


def _pfsense(data: bytes) -> Iterator[Entry]:
    direct: dict[bytes, list[Span]] = {}
    for x in _PF_ALIAS.finditer(data):
        name, kind = _tag(x.group(1), b"name"), _tag(x.group(1), b"type")
        value = _tag(x.group(1), b"address") or _tag(x.group(1), b"content")
        if name is None or value is None or (kind is not None and kind.group(1) not in _PF_KINDS):
            continue
        at = x.start(1) + value.start(1)
        direct[name.group(1).strip()] = [(at + w.start(), at + w.end(), net)
                                         for w in _WORD.finditer(value.group(1))
                                         if (net := network(w.group())) is not None]
    filtered = _PF_FILTER.search(data)
    if not direct or filtered is None:
        return
    for index, x in enumerate(_PF_RULE.finditer(data, filtered.start(), filtered.end())):
        body = x.group(1)
        kind = _tag(body, b"type")
        if kind is None or kind.group(1) not in (b"pass", b"block", b"reject") or b"<disabled" in body \
                or b"<floating" in body:
            continue
        common = {key: (found.group(1).strip() if (found := _tag(body, key)) else b"")
                  for key in (b"interface", b"protocol", b"ipprotocol", b"icmptype", b"gateway")}
        sides = {side: _tag(body, side) for side in (b"source", b"destination")}
        for side, found in sides.items():
            if found is None:
                continue
            other = sides[b"destination" if side == b"source" else b"source"]
            fields: dict[bytes, bytes | frozenset[bytes]] = dict(common)
            other_text = re.sub(rb"\s+", b"", other.group(1)) if other is not None else b""
            fields[b"other"] = b"any" if other_text in (b"<any/>", b"<any></any>", b"") else other_text
            port = _tag(found.group(1), b"port")
            fields[b"port"] = port.group(1).strip() if port is not None else b""
            address = _tag(found.group(1), b"address")
            if address is None or b"<not" in found.group(1):
                continue
            at = x.start(1) + found.start(1) + address.start(1)
            text = address.group(1).strip()
            spans = direct.get(text) or [(at, at + len(address.group(1)), net)
                                         for net in [network(text)] if net is not None]
            action = "permit" if kind.group(1) == b"pass" else "deny"
            for start, end, net in spans:
                yield Entry(b"pf " + common[b"interface"], (index,), action, side, start, end, net, fields)


def rules(data: bytes, wanted: Collection[IPNetwork] | None = None) -> Iterator[Rule]:
    """Each permit of a wanted network with the denies through named objects before it (module doc)."""
    earlier = lambda d, p: d.order < p.order  # noqa: E731
    if b"object" in data and b"access-list" in data and b"deny" in data:
        yield from pair(list(_asa(data)), wanted, "an ASA access-list's deny of an object before its permit, "
                        "the first entry deciding", earlier)
    if b"config firewall" in data:
        yield from pair(list(_forti(data)), wanted, "a FortiGate policy's deny of an address object before "
                        "its accept, the first policy deciding", earlier)
    if b"<alias" in data and b"<filter>" in data:
        yield from pair(list(_pfsense(data)), wanted, "a pfSense/OPNsense rule's block of an alias before "
                        "its pass, the first rule deciding", earlier)
    if b"address-book" in data and b"policies" in data:
        yield from pair(list(_junos(data)), wanted, "a Juniper security policy's deny of an address-book "
                        "entry before its permit, the first policy deciding", earlier)
