"""Host firewalls where a deny wins over an allow by order, priority or kind (outside pass round 7,
issue 33), pure: a deny of part of a network that wins over the allow of the whole is an exclusion,
judged by `except_blocks.covering` as `except_lines` judges iptables' DROP before ACCEPT.

* ufw commands, the first rule added deciding: `ufw deny from 10.0.48.0/25` before `ufw allow from
  10.0.48.0/24` (`reject` alike, `limit` an allow; `in`/`out`, `on IFACE`, `proto`, `port`, `to`;
  `ufw insert 1` and `ufw prepend` go before every rule added earlier; another `insert N` is not
  read). /etc/ufw/user.rules is iptables' syntax: `except_lines` reads it;
* firewalld rich rules, in `firewall-cmd --add-rich-rule='rule ...'` and in a zone's XML
  (`<rule priority="-10"><source address=".."/><drop/></rule>`): the lower `priority` first, and at
  one priority the deny (drop, reject) before the allow (firewalld's `_deny` chain precedes `_allow`);
  `source NOT address` / `invert="true"` is not read;
* firewalld zone sources: `firewall-cmd --zone=drop --add-source=10.0.48.0/25` beside
  `--zone=trusted --add-source=10.0.48.0/24` (the more specific source binds its hosts to its own
  zone, whatever that zone does; the same source in two zones is firewalld's ZONE_CONFLICT);
* Windows Firewall, a block rule winning over any allow whatever their order:
  `New-NetFirewallRule -RemoteAddress 10.0.48.0/25 -Action Block` beside `-Action Allow` of
  10.0.48.0/24 (one `-Direction`; `-Enabled False` and an allow's `-OverrideBlockRules` not read),
  `netsh advfirewall firewall add rule ... action=block remoteip=10.0.48.0/25`.

A deny counts only where it matches every packet of the allow but for the network: its other fields
(protocol, ports, interface, program, the other side) absent, `any`, or the allow's own. `pair`
joins entries for the other readers of this family (`policy_denies`, `named_objects`): for each
allow, every deny that wins over it, so that `except_moves` judges them together too.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Callable, Collection, Iterator, Sequence
from dataclasses import dataclass, field

from renamer import lazy_re
from renamer.names import IPNetwork

Rule = tuple[list[IPNetwork], list[tuple[int, int, IPNetwork]], str]

_N = rb"(?:(?:[0-9]{1,3}\.){3}[0-9]{1,3}|[0-9A-Fa-f]*:[0-9A-Fa-f:.]*)(?:/[0-9]{1,3})?"
_NET = re.compile(rb"(?<![0-9A-Za-z.:])" + _N + rb"(?![0-9A-Za-z.:])")
_UFW = lazy_re.compile(rb"(?m)^[ \t]*(?:sudo[ \t]+)?ufw[ \t]+(?:--dry-run[ \t]+)?([^\r\n#]*)")
_RICH = lazy_re.compile(rb"(?<![A-Za-z_-])rule((?:[ \t]+[^\r\n'<>]*?)?)[ \t]+(accept|drop|reject)"
                        rb"(?![A-Za-z_-])([^\r\n']*)")
_XML_RULE = lazy_re.compile(rb"(?s)<rule\b([^>]*)>(.*?)</rule>")
_XML_ACTION = lazy_re.compile(rb"<(accept|drop|reject)\b")
_XML_ADDRESS = lazy_re.compile(rb"<(source|destination)\b([^>]*)>")
_ADDRESS_ATTR = lazy_re.compile(rb"address=[\"']([^\"']*)[\"']")
_PRIORITY = lazy_re.compile(rb"priority=[\"']?(-?[0-9]+)[\"']?")
_SIDE = lazy_re.compile(rb"(source|destination)[ \t]+(NOT[ \t]+)?address=[\"']?([^\"' \t]+)[\"']?")
_ZONE = lazy_re.compile(rb"--zone[= \t]+[\"']?([A-Za-z0-9_-]+)")
_ADD_SOURCE = lazy_re.compile(rb"--add-source[= \t]+[\"']?([^\"' \t\r\n]+)")
_PS_RULE = lazy_re.compile(rb"(?im)^[^\r\n#]*New-NetFirewallRule\b((?:[^\r\n]*`[ \t]*\r?\n)*[^\r\n]*)")
_PS_PARAM = lazy_re.compile(rb"(?<![A-Za-z0-9])-([A-Za-z]+)(?:(?:[ \t`\r\n]+|:)((?:\"[^\"]*\"|'[^']*'"
                            rb"|[^ \t\r\n`\"'-][^ \t\r\n`]*|-?[0-9][^ \t\r\n`]*)"
                            rb"(?:[ \t]*,[ \t]*(?:\"[^\"]*\"|'[^']*'|[^ \t\r\n`,]+))*))?")
_NETSH = lazy_re.compile(rb"(?im)^[^\r\n#]*advfirewall[ \t]+firewall[ \t]+add[ \t]+rule\b([^\r\n]*)")
_NETSH_PARAM = lazy_re.compile(rb"(?<![A-Za-z0-9])([A-Za-z]+)=(\"[^\"]*\"|[^ \t\r\n]+)")
_ANY = {b"any", b"all", b"*", b"", b"0.0.0.0/0", b"::/0"}
_PS_FIELDS = {b"direction", b"protocol", b"localport", b"remoteport", b"program", b"service",
              b"profile", b"interfacetype", b"interfacealias", b"icmptype", b"localaddress",
              b"remoteaddress", b"package", b"owner", b"localuser", b"remoteuser", b"remotemachine"}
_NETSH_FIELDS = {b"dir", b"protocol", b"localport", b"remoteport", b"program", b"service", b"profile",
                 b"interfacetype", b"localip", b"remoteip", b"security", b"edge"}
_SIDES = {b"remoteaddress": b"remoteaddress", b"localaddress": b"localaddress",
          b"remoteip": b"remoteaddress", b"localip": b"localaddress"}


@dataclass(frozen=True)
class Entry:
    """One rule's network: its list, place in it, action and the side the network stands in; its other
    fields (None where it matches everything)."""

    group: bytes
    order: tuple[int, ...]
    action: str  # "deny" or "permit"
    side: bytes
    start: int
    end: int
    net: IPNetwork
    fields: dict[bytes, bytes | frozenset[bytes]] = field(default_factory=dict, compare=False, hash=False)


def network(text: bytes) -> IPNetwork | None:
    """A network written `A/N` or a bare address; None for anything else."""
    try:
        return ipaddress.ip_network(text.strip().strip(b"\"'").decode("ascii"), strict=False)
    except (ValueError, UnicodeDecodeError):
        return None


def nets(data: bytes, start: int, end: int) -> list[tuple[int, int, IPNetwork]]:
    """Every network (or address) between `start` and `end`, with its span."""
    return [(x.start(), x.end(), net) for x in _NET.finditer(data, start, end)
            if (net := network(x.group())) is not None]


def broader(deny: Entry, permit: Entry) -> bool:
    """Whether the deny matches every packet of the permit, its network aside: each of its fields
    absent or matching everything, the permit's own, or (a set) holding all of the permit's."""
    for name, value in deny.fields.items():
        if name == deny.side:
            continue
        other = permit.fields.get(name)
        if isinstance(value, frozenset):
            if value & _ANY:
                continue
            if not isinstance(other, frozenset) or not other or not other <= value:
                return False
        elif value.lower() not in _ANY and (not isinstance(other, bytes) or value.lower() != other.lower()):
            return False
    return True


def pair(entries: Sequence[Entry], wanted: Collection[IPNetwork] | None, what: str,
         wins: Callable[[Entry, Entry], bool]) -> Iterator[Rule]:
    """For each permit of a wanted network, the denies of its group and side that win over it and
    match all its packets but for the network."""
    for permit in entries:
        if permit.action != "permit" or (wanted is not None and permit.net not in wanted):
            continue
        denies = [(d.start, d.end, d.net) for d in entries
                  if d.action == "deny" and d.group == permit.group and d.side == permit.side
                  and wins(d, permit) and broader(d, permit)]
        if denies:
            yield [permit.net], list(dict.fromkeys(denies)), what


def _earlier(deny: Entry, permit: Entry) -> bool:
    return deny.order < permit.order


def _always(deny: Entry, permit: Entry) -> bool:
    return True


# ufw -----------------------------------------------------------------------------------------------

def _ufw(data: bytes) -> Iterator[Entry]:
    for index, x in enumerate(_UFW.finditer(data)):
        words = list(re.finditer(rb"[^ \t\r\n]+", data[x.start(1):x.end(1)]))
        texts = [w.group() for w in words]
        order: tuple[int, ...] = (1, index)
        group = b"ufw"
        at = 0
        if texts[:1] == [b"route"]:
            group, at = b"ufw route", 1
        if texts[at:at + 1] == [b"prepend"] or texts[at:at + 2] == [b"insert", b"1"]:
            order, at = (0, -index), at + (1 if texts[at] == b"prepend" else 2)
        elif texts[at:at + 1] == [b"insert"]:
            continue  # a place among the others renamer does not count
        if at >= len(texts) or texts[at] not in (b"allow", b"deny", b"reject", b"limit"):
            continue
        action = "permit" if texts[at] in (b"allow", b"limit") else "deny"
        fields: dict[bytes, bytes | frozenset[bytes]] = {b"direction": b"in"}
        found: list[tuple[bytes, int, int, IPNetwork]] = []
        i = at + 1
        while i < len(texts):
            word = texts[i]
            if word in (b"in", b"out"):
                fields[b"direction"] = word
            elif word in (b"on", b"proto", b"port", b"app") and i + 1 < len(texts):
                key = word if word != b"port" or b"to" in texts[at:i] or b"from" not in texts[at:i] \
                    else b"from-port"
                fields[key] = texts[i + 1]
                i += 1
            elif word in (b"from", b"to") and i + 1 < len(texts):
                net = network(texts[i + 1])
                if texts[i + 1] == b"any" or net is None:
                    fields[word] = texts[i + 1]
                else:
                    start = x.start(1) + words[i + 1].start()
                    found.append((word, start, start + len(texts[i + 1]), net))
                    fields[word] = texts[i + 1]
                i += 1
            elif word not in (b"log", b"log-all"):
                fields[b"words " + word] = word  # `ufw allow 22/tcp`: a service or port alone
            i += 1
        for side, start, end, net in found:
            yield Entry(group, order, action, side, start, end, net, fields)


# firewalld ----------------------------------------------------------------------------------------

def _rich_tokens(text: bytes) -> bytes:
    """A rich rule's words but its priority, family and address elements: what else it matches."""
    text = _PRIORITY.sub(b"", _SIDE.sub(b"", text))
    text = re.sub(rb"family=[\"']?ipv[46][\"']?", b"", text)
    return b" ".join(sorted(set(text.split())))


def _rich_text(data: bytes, group: bytes) -> Iterator[Entry]:
    for x in _RICH.finditer(data):
        words = x.group(1) + b" " + x.group(3)
        priority = _PRIORITY.search(words)
        order = (int(priority.group(1)) if priority else 0, 0 if x.group(2) != b"accept" else 1)
        action = "permit" if x.group(2) == b"accept" else "deny"
        zone = _ZONE.search(data, data.rfind(b"\n", 0, x.start()) + 1, x.start())
        rest = _rich_tokens(words)
        for side in _SIDE.finditer(data, x.start(1), x.end(3)):
            net = network(side.group(3))
            if side.group(2) or net is None:
                continue
            fields: dict[bytes, bytes | frozenset[bytes]] = {b"rest": rest}
            yield Entry(group + b" " + (zone.group(1) if zone else b""), order, action, side.group(1),
                        side.start(3), side.end(3), net, fields)


def _rich_xml(data: bytes) -> Iterator[Entry]:
    for x in _XML_RULE.finditer(data):
        action = _XML_ACTION.search(x.group(2))
        if action is None:
            continue
        priority = _PRIORITY.search(x.group(1))
        order = (int(priority.group(1)) if priority else 0, 0 if action.group(1) != b"accept" else 1)
        body = x.group(2)
        tags = [y.group() for y in re.finditer(rb"<[^>]*>", body)]
        others = b" ".join(sorted({re.sub(rb"\s+", b" ", tag).strip() for tag in tags
                                   if not _XML_ADDRESS.match(tag) and not _XML_ACTION.match(tag)
                                   and not tag.startswith(b"</")}))
        for side in _XML_ADDRESS.finditer(data, x.start(2), x.end(2)):
            address = _ADDRESS_ATTR.search(side.group(2))
            if address is None or re.search(rb"invert=[\"'](?i:true|yes)", side.group(2)):
                continue
            net = network(address.group(1))
            if net is None:
                continue
            start = side.start(2) + address.start(1)
            yield Entry(b"firewalld xml", order, "permit" if action.group(1) == b"accept" else "deny",
                        side.group(1), start, start + len(address.group(1)), net, {b"rest": others})


def _zone_sources(data: bytes) -> Iterator[Rule]:
    bound: list[tuple[bytes, int, int, IPNetwork]] = []
    for x in _ADD_SOURCE.finditer(data):
        line = data.rfind(b"\n", 0, x.start()) + 1
        end = data.find(b"\n", x.end())
        found = _ZONE.search(data, line, len(data) if end < 0 else end)
        net = network(x.group(1))
        if found is not None and net is not None and b"--remove" not in data[line:x.start()]:
            bound.append((found.group(1), x.start(1), x.end(1), net))
    for zone, _, _, net in bound:
        others = [(s, e, n) for z, s, e, n in bound if z != zone and n.version == net.version
                  and n.subnet_of(net)]  # type: ignore[arg-type]
        if others:
            yield [net], others, f"a firewalld source bound to another zone than {zone.decode()}, " \
                                 "the more specific source deciding the zone"


# Windows Firewall ---------------------------------------------------------------------------------

def _windows(data: bytes, rules: Iterator[re.Match[bytes]], param: re.Pattern[bytes],
             known: set[bytes], tool: bytes) -> Iterator[Entry]:
    for x in rules:
        params: dict[bytes, tuple[int, bytes]] = {}
        for y in param.finditer(data, x.start(1), x.end(1)):
            params[y.group(1).lower()] = (y.start(2), y.group(2) or b"")
        action = params.get(b"action", (0, b""))[1].strip(b"\"'").lower()
        enabled = params.get(b"enabled", params.get(b"enable", (0, b"true")))[1].strip(b"\"'").lower()
        if action not in (b"block", b"allow") or enabled in (b"false", b"no", b"0") \
                or b"overrideblockrules" in params:
            continue
        fields: dict[bytes, bytes | frozenset[bytes]] = {}
        direction = b"in"
        for name, (_, value) in params.items():
            value = value.strip(b"\"'").lower()
            if name in (b"direction", b"dir"):
                direction = b"out" if value.startswith(b"out") else b"in"
            elif name in known and name not in _SIDES:
                fields[name] = value
            elif name in _SIDES:
                fields[_SIDES[name]] = frozenset(v.strip(b" \"'") for v in value.split(b","))
        for name, (at, value) in params.items():
            if name not in _SIDES:
                continue
            for start, end, net in nets(data, at, at + len(value)):
                if data[end:end + 1] == b"-" or data[start - 1:start] == b"-":
                    continue  # an end of a range
                yield Entry(tool + b" " + direction, (0,), "permit" if action == b"allow" else "deny",
                            _SIDES[name], start, end, net, fields)


def rules(data: bytes, wanted: Collection[IPNetwork] | None = None) -> Iterator[Rule]:
    """Each allow of a wanted network with the denies that win over it (module doc)."""
    if b"ufw" in data and (b"deny" in data or b"reject" in data):
        yield from pair(list(_ufw(data)), wanted, "ufw's deny before its allow, the first rule deciding",
                        _earlier)
    if b"rule" in data and (b"drop" in data or b"reject" in data):
        entries = [*_rich_text(data, b"firewalld"), *_rich_xml(data)]
        yield from pair(entries, wanted, "a firewalld rich rule's drop or reject, the lower priority "
                        "deciding and the deny first at one", _earlier)
    if b"--add-source" in data:
        yield from _zone_sources(data)
    lowered = data.lower()
    if b"new-netfirewallrule" in lowered and b"block" in lowered:
        yield from pair(list(_windows(data, _PS_RULE.finditer(data), _PS_PARAM, _PS_FIELDS, b"ps")), wanted,
                        "a Windows Firewall block rule, which wins over any allow", _always)
    if b"advfirewall" in lowered and b"block" in lowered:
        yield from pair(list(_windows(data, _NETSH.finditer(data), _NETSH_PARAM, _NETSH_FIELDS, b"netsh")),
                        wanted, "a Windows Firewall block rule (netsh), which wins over any allow", _always)
