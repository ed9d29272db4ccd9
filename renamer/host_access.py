"""Host services' access rules, where one entry takes part of another's network out (issue 33, the
outside pass's round 7, host services), pure: the networks a rule admits and those another entry
takes out of it, the shape `except_lines.rules` yields, for `except_blocks.covering` to judge under a
move (a shrink in place that makes the part the whole refuses the sweep; a part that moves out of its
network, or parts that together cover it, likewise).

* WireGuard: each peer's `AllowedIPs` (wg-quick and `wg setconf` INI `[Peer]`, systemd-networkd
  `[WireGuardPeer]`, OpenWrt `config wireguard_*` sections' `list allowed_ips`; elsewhere, NixOS
  `allowedIPs = [ .. ]` or netplan `allowed-ips: [..]`, each key a peer of its own): cryptokey
  routing sends an address to the peer with the most specific entry, so another peer's entry inside
  (or equal to: the later peer takes it) a peer's entry takes those addresses from it;
* NFS `/etc/exports`: on one export line, the first network entry that matches a client decides
  (exports(5): among entries of one type, the order of the line); an earlier network inside (or
  equal to) a later one whose options differ takes its clients out of it (a line continued by `\\`);
* pam_access `access.conf`: the first `perm:users:origins` line that matches decides: a `-` line
  before a `+` line of the same users (or `ALL`) takes its origins out of the `+` line's;
* xinetd: `no_access` beside `only_from` in one service (or `defaults`) block: the more specific
  match decides, a tie denies;
* lighttpd: `$HTTP["remoteip"] != "E"` inside a block of `$HTTP["remoteip"] == "C"` (the block
  applies to C less E), and an `else $HTTP["remoteip"] == "C"` after a condition on E (the first
  condition of the chain that matches decides);
* Tomcat's RemoteCIDRValve and RemoteCIDRFilter: a `deny` entry inside an `allow` entry (the deny
  is checked first).

And a peer's AllowedIPs computed to leave a network out (a road warrior's `0.0.0.0/0` less the LAN,
as every AllowedIPs calculator writes it: the network's sibling stands, nothing of the network does)
whose entries the new network overlaps under any move (the same length elsewhere, a grow): the peer
would take the moved network's traffic. `gaps` finds the entry; the matcher makes it a `supernet`
residual (the list is recomputed by hand: which addresses to leave out is the operator's), and the
first pass asks for each moved IPv4 network's sibling so a file naming nothing of the LAN is read.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Collection, Iterable, Iterator, Sequence
from dataclasses import dataclass

from renamer import except_lines, except_spelled, lazy_re
from renamer.names import IPNetwork
from renamer.prefix_moves import PrefixMove

Rule = tuple[list[IPNetwork], list[tuple[int, int, IPNetwork]], str]
Spans = list[tuple[int, int, IPNetwork]]


def nets(data: bytes, start: int, end: int) -> Spans:
    """The networks between `start` and `end`, one right after a delimiter (`:`, `[`) too."""
    return [(s + start - 1, e + start - 1, n) for s, e, n in except_spelled.nets(b" " + data[start:end], 1,
                                                                                 end - start + 1)]

_WG_SECTION = lazy_re.compile(rb"(?m)^[ \t]*(?:\[([A-Za-z]+)\]|config[ \t]+(\S+))")
_WG_KEY = lazy_re.compile(rb"(?im)(?:^|(?<=[\s{;,]))(?:list[ \t]+|option[ \t]+)?[\"']?allowed[-_]?ips[\"']?"
                          rb"(?:[ \t]*[=:][ \t]*|[ \t]+)")
_EXPORT = lazy_re.compile(rb"(?m)^[ \t]*(\"[^\"\n]+\"|/[^ \t\n]*)[ \t]+([^\n#]*)")
_EXPORT_ENTRY = lazy_re.compile(rb"([^ \t()]+)(\([^()\n]*\))?")
_PAM = lazy_re.compile(rb"(?m)^[ \t]*([+-])[ \t]*:([^:\n]*):([^\n#]*)")
_XINETD = lazy_re.compile(rb"(?m)^[ \t]*(only_from|no_access)[ \t]*[+-]?=[ \t]*([^\n#]*)")
_REMOTEIP = lazy_re.compile(rb"\$HTTP\[\"remoteip\"\][ \t]*(==|!=)[ \t]*\"([^\"\n]*)\"")
_CIDR_VALVE = lazy_re.compile(rb"RemoteCIDR(?:Valve|Filter)")
_ATTRIBUTE = lazy_re.compile(rb"(?<![A-Za-z-])(allow|deny)[ \t]*=[ \t]*\"([^\"]*)\"")
_PARAM = lazy_re.compile(rb"<param-name>[ \t]*(allow|deny)[ \t]*</param-name>[ \t\r\n]*"
                         rb"<param-value>([^<]*)</param-value>")

WIREGUARD = "WireGuard: another peer's AllowedIPs entry, the most specific deciding"
EXPORTS = "an earlier NFS export entry with other options, the first match of the line deciding"
PAM = "pam_access: a `-` line before the `+` line, the first match deciding"
XINETD = "xinetd's `no_access` beside `only_from`, the more specific match deciding"
LIGHTTPD = "lighttpd's `$HTTP[\"remoteip\"] != ` inside the `==` block"
LIGHTTPD_ELSE = "lighttpd's earlier `$HTTP[\"remoteip\"]` condition of the chain, the first match deciding"
TOMCAT = "Tomcat's RemoteCIDR `deny` entry, checked before `allow`"


def within(net: IPNetwork, wider: IPNetwork, equal: bool = True) -> bool:
    """Is `net` inside `wider` (or equal to it, with `equal`), of one family?"""
    if net.version != wider.version:
        return False
    return (net.prefixlen > wider.prefixlen or (equal and net == wider)) \
        and net.subnet_of(wider)  # type: ignore[arg-type]


def _pairs(included: Spans, excluded: Spans, wanted: Collection[IPNetwork], what: str,
           equal: bool = True) -> Iterator[Rule]:
    """Each excluded network with the wanted included networks it lies inside."""
    for start, end, net in excluded:
        holding = list(dict.fromkeys(n for s, _, n in included if n in wanted and s != start
                                     and within(net, n, equal)))
        if holding:
            yield holding, [(start, end, net)], what


def _same_length_joined(data: bytes) -> bytes:
    """The file with each `\\` line continuation a blank (the same length: the spans stay)."""
    return data.replace(b"\\\r\n", b"   ").replace(b"\\\n", b"  ")


def _value(data: bytes, at: int) -> tuple[int, int]:
    """A value from `at`: a bracketed list to its bracket, else to the line's end."""
    line_end = data.find(b"\n", at)
    line_end = len(data) if line_end < 0 else line_end
    if data[at:at + 1] == b"[":
        close = data.find(b"]", at)
        if close > 0 and close - at < 4000:
            return at, close
    return at, line_end


def wireguard(data: bytes, wanted: Collection[IPNetwork]) -> Iterator[Rule]:
    sections = [(x.start(), (x.group(1) or b"").lower() in (b"peer", b"wireguardpeer")
                 or (x.group(2) or b"").startswith((b"wireguard_", b"'wireguard_", b"\"wireguard_")))
                for x in _WG_SECTION.finditer(data)]
    peers: list[tuple[int, Spans]] = []
    for x in _WG_KEY.finditer(data):
        inside = [(at, is_peer) for at, is_peer in sections if at < x.start()]
        peer = inside[-1][0] if inside and inside[-1][1] else x.start()
        found = nets(data, *_value(data, x.end()))
        if peers and peers[-1][0] == peer:
            peers[-1][1].extend(found)
        else:
            peers.append((peer, found))
    for i, (_, mine) in enumerate(peers):
        for j, (_, theirs) in enumerate(peers):
            if i != j:  # an equal entry: the later peer takes it
                for start, end, net in theirs:
                    holding = list(dict.fromkeys(n for _, _, n in mine if n in wanted
                                                 and within(net, n, equal=j > i)))
                    if holding:
                        yield holding, [(start, end, net)], WIREGUARD


def exports(data: bytes, wanted: Collection[IPNetwork]) -> Iterator[Rule]:
    view = _same_length_joined(data)
    for x in _EXPORT.finditer(view):
        defaults = b""
        entries: list[tuple[int, int, IPNetwork, bytes]] = []
        for e in _EXPORT_ENTRY.finditer(view, x.start(2), x.end(2)):
            client, options = e.group(1), e.group(2) or b""
            if client.startswith(b"-"):
                defaults = client
                continue
            entries += [(s, t, n, options or defaults) for s, t, n in nets(view, e.start(1), e.end(1))
                        if t == e.end(1) and s == e.start(1)]
        for k, (start, end, net, options) in enumerate(entries):
            holding = list(dict.fromkeys(n for _, _, n, o in entries[k + 1:]
                                         if o != options and n in wanted and within(net, n)))
            if holding:
                yield holding, [(start, end, net)], EXPORTS


def pam_access(data: bytes, wanted: Collection[IPNetwork]) -> Iterator[Rule]:
    lines = []
    for x in _PAM.finditer(data):
        origins = x.group(3)
        cut = re.search(rb"(?<![A-Za-z])EXCEPT(?![A-Za-z])", origins)
        end = x.start(3) + (cut.start() if cut else len(origins))
        lines.append((x.group(1), x.group(2).split(), nets(data, x.start(3), end)))
    for k, (sign, users, denied) in enumerate(lines):
        if sign != b"-" or not denied or b"EXCEPT" in users:
            continue
        later = [n for s, u, found in lines[k + 1:] if s == b"+" and (users == [b"ALL"] or u == users)
                 for n in found]
        yield from _pairs(later, denied, wanted, PAM)


def xinetd(data: bytes, wanted: Collection[IPNetwork]) -> Iterator[Rule]:
    blocks: dict[tuple[int, int], tuple[Spans, Spans]] = {}
    for x in _XINETD.finditer(data):
        block = except_lines.block(data, x.start()) or (0, len(data))
        allowed, denied = blocks.setdefault(block, ([], []))
        (allowed if x.group(1) == b"only_from" else denied).extend(nets(data, x.start(2), x.end(2)))
    for allowed, denied in blocks.values():
        yield from _pairs(allowed, denied, wanted, XINETD)


def lighttpd(data: bytes, wanted: Collection[IPNetwork]) -> Iterator[Rule]:
    conditions = list(_REMOTEIP.finditer(data))
    for x in conditions:
        found = nets(data, x.start(2), x.end(2))
        if x.group(1) == b"!=":
            around: Spans = []
            at = x.start()
            for _ in range(8):  # the `==` conditions of the blocks around it
                span = except_lines.block(data, at)
                if span is None:
                    break
                opening = data.rfind(b"\n", 0, span[0] - 1) + 1  # the block's condition line
                around += [n for y in _REMOTEIP.finditer(data, opening, span[0])
                           if y.group(1) == b"==" for n in nets(data, y.start(2), y.end(2))]
                at = span[0] - 1
            yield from _pairs(around, found, wanted, LIGHTTPD)
        else:
            # `} else $HTTP["remoteip"] == "C" {`: the chain's earlier conditions come first
            earlier: Spans = []
            at = x.start()
            while re.search(rb"\}[ \t\r\n]*else[ \t]*$", data[max(0, at - 40):at]):
                close = data.rfind(b"}", 0, at)
                span = except_lines.block(data, close)
                if span is None:
                    break
                before = [y for y in conditions if y.end() <= span[0] - 1
                          and not data[y.end():span[0] - 1].strip(b" \t\r\n{")]
                if not before:
                    break
                y = before[-1]
                if y.group(1) == b"==":
                    earlier += nets(data, y.start(2), y.end(2))
                at = y.start()
            yield from _pairs(found, earlier, wanted, LIGHTTPD_ELSE)


def tomcat(data: bytes, wanted: Collection[IPNetwork]) -> Iterator[Rule]:
    for x in _CIDR_VALVE.finditer(data):
        opening = data.rfind(b"<", 0, x.start())
        if data[opening:opening + 7] == b"<filter":  # its `<init-param>`s, to `</filter>`
            end = data.find(b"</filter>", x.end())
            found = list(_PARAM.finditer(data, x.end(), len(data) if end < 0 else end))
        else:
            end = data.find(b">", x.end())
            found = list(_ATTRIBUTE.finditer(data, opening, len(data) if end < 0 else end))
        allowed = [s for y in found if y.group(1) == b"allow" for s in nets(data, y.start(2), y.end(2))]
        denied = [s for y in found if y.group(1) == b"deny" for s in nets(data, y.start(2), y.end(2))]
        yield from _pairs(allowed, denied, wanted, TOMCAT)


GAP_KEY = lazy_re.compile(rb"(?i)allowed[-_]?ips")


@dataclass(frozen=True)
class Gap:
    """A peer's AllowedIPs entry the moved network lands in, in a list computed around the old one."""

    start: int
    end: int
    text: str
    note: str


def sibling(net: IPNetwork) -> IPNetwork | None:
    """The other half of the network's supernet (`10.0.49.0/24` of `10.0.48.0/24`): an AllowedIPs list
    computed to leave a network out (every calculator's `0.0.0.0/0` less it) holds it exactly."""
    if net.prefixlen == 0:
        return None
    address = int(net.network_address) ^ (1 << (net.max_prefixlen - net.prefixlen))
    return ipaddress.ip_network(f"{ipaddress.ip_address(address)}/{net.prefixlen}")


def gaps(data: bytes, moves: Sequence[PrefixMove]) -> Iterator[Gap]:
    """A peer's AllowedIPs list that leaves the old network out (no entry overlaps it, its sibling
    stands: computed around it) and holds an entry the new network overlaps: after the move the peer
    takes (part of) the moved network, which it was computed to leave out. A residual (`supernet`) at
    that entry: the list is recomputed by hand (module doc; any move, resized or not)."""
    for x in _WG_KEY.finditer(data):
        entries = nets(data, *_value(data, x.end()))
        for move in moves:
            twin = sibling(move.old)
            if twin is None or not any(n == twin for _, _, n in entries) \
                    or any(n.version == move.old.version and n.overlaps(move.old) for _, _, n in entries):
                continue
            for start, end, net in entries:
                if net.version == move.new.version and net.overlaps(move.new):
                    text = data[start:end].decode("ascii")
                    yield Gap(start, end, text,
                              f"this AllowedIPs list leaves {move.old} out (it holds {twin} and nothing of "
                              f"{move.old}: computed around it), and {move.new}, which {move.old} becomes, "
                              f"overlaps its entry {text}: after the move this peer would take the moved "
                              "network's traffic: recompute the list around the new network")
                    break


def grouped(found: Iterable[Rule]) -> Iterator[Rule]:
    """The rules of one kind before the same included networks as one, their exclusions together (two
    peers' /26s inside a /24 under `/24 -> /25`: `except_moves` judges them together)."""
    groups: dict[tuple[str, tuple[IPNetwork, ...]], list[tuple[int, int, IPNetwork]]] = {}
    for included, excluded, what in found:
        mine = groups.setdefault((what, tuple(included)), [])
        mine += [e for e in excluded if e not in mine]
    for (what, holding), excluded in groups.items():
        yield list(holding), excluded, what


def rules(data: bytes, wanted: Collection[IPNetwork]) -> Iterator[Rule]:
    """Every rule of this module's services with an exclusion, in no order (`wanted`: the resized
    networks, old and new: an included network is one of them)."""
    yield from grouped(_rules(data, wanted))


def _rules(data: bytes, wanted: Collection[IPNetwork]) -> Iterator[Rule]:
    lowered = data.lower()
    if b"allowed" in lowered:
        yield from wireguard(data, wanted)
    if b"/" in data and b"(" in data:
        yield from exports(data, wanted)
    if b":" in data and b"-" in data:
        yield from pam_access(data, wanted)
    if b"no_access" in data:
        yield from xinetd(data, wanted)
    if b"remoteip" in data:
        yield from lighttpd(data, wanted)
    if b"RemoteCIDR" in data:
        yield from tomcat(data, wanted)
