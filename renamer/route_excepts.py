"""Exclusions by the longest match (outside pass t33-33, finding 08), pure: a more specific route or
range inside a routed (or captured) network takes its addresses out of it, so a shrink in place that
makes it the network's own length leaves nothing to the wider one. Judged by
`except_blocks.covering` as `except_lines` judges nftables' `!=`.

* iproute2: `ip route add|replace|append [unreachable|blackhole|prohibit|throw] NET ...` (`ip -6
  route`, `up`/`post-up` lines of ifupdown alike), one routing table (`table T`) apart from another;
* net-tools: `route add -net A netmask M ...` and `route add -net A/N reject`;
* FRR, Cisco IOS, Arista EOS static routes: `ip route NET GW|Null0|blackhole` (`ip route A M GW`,
  a dotted mask), `ipv6 route NET ...`, one `vrf` apart from another;
* OpenVPN: `route A M [gateway|net_gateway|vpn_gateway]` and `route-ipv6 NET`, pushed (`push "route
  ..."`) or not;
* Istio's capture ranges: `excludeOutboundIPRanges` beside `includeOutboundIPRanges` (the sidecar
  annotations, `excludeIPRanges` beside `includeIPRanges` in Helm values): any `exclude<X>IPRanges`
  beside `include<X>IPRanges` in one mapping.

A route is an exclusion of each route of its table that strictly holds it (whatever its kind: any
more specific route wins); two routes of one prefix (a file already written) only where one rejects
(`unreachable`, `blackhole`, `prohibit`, `Null0`, `reject`, `net_gateway`) and the other does not:
two routes of one prefix and kind (failover by metric) are left alone.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Collection, Iterator
from dataclasses import dataclass

from renamer import lazy_re
from renamer.names import IPNetwork

Rule = tuple[list[IPNetwork], list[tuple[int, int, IPNetwork]], str]

_A4 = rb"(?:[0-9]{1,3}\.){3}[0-9]{1,3}"
_A6 = rb"[0-9A-Fa-f]*:[0-9A-Fa-f:.]*"
_PREFIX = rb"(?:" + _A4 + rb"|" + _A6 + rb")/[0-9]{1,3}"
_REJECT = {b"unreachable", b"blackhole", b"prohibit", b"null0", b"reject", b"net_gateway", b"throw"}
_HOOK = rb"(?:(?:up|post-up|pre-up|down|pre-down|post-down)[ \t]+)?"  # ifupdown's hooks
_IPROUTE = lazy_re.compile(rb"(?m)^[ \t]*" + _HOOK + rb"(?:sudo[ \t]+)?(?:/s?bin/)?ip[ \t]+(?:-[46][ \t]+)?"
                      rb"(?:-\w+[ \t]+)*route[ \t]+(?:add|replace|append|a)[ \t]+([^\r\n;&|#]*)")
_NETTOOLS = lazy_re.compile(rb"(?m)^[ \t]*" + _HOOK + rb"(?:/s?bin/)?route[ \t]+add[ \t]+-net[ \t]+(" + _A4
                       + rb"(?:/[0-9]{1,2})?)(?:[ \t]+netmask[ \t]+(" + _A4 + rb"))?([^\r\n;&|#]*)")
_STATIC = lazy_re.compile(
    rb"(?m)^[ \t]*(ip|ipv6)[ \t]+route[ \t]+(?:vrf[ \t]+(\S+)[ \t]+)?(" + _PREFIX + rb"|"
                     + _A4 + rb"[ \t]+" + _A4 + rb")(?![0-9./])([^\r\n!]*)")
_VRF = lazy_re.compile(
    rb"(?m)^vrf[ \t]+(?:definition[ \t]+|context[ \t]+)?(\S+)[ \t]*$|^(?:exit-vrf|!)[ \t]*$")
_OPENVPN = lazy_re.compile(rb"(?m)^[ \t]*(?:push[ \t]+\")?(route|route-ipv6)[ \t]+("
                      + _PREFIX + rb"|"
                      + _A4 + rb"(?:[ \t]+" + _A4 + rb")?)(?![0-9./])([^\r\n\"]*)")
_ISTIO = lazy_re.compile(rb"(?m)^([ \t]*)[\"']?([\w./-]*?)exclude([A-Za-z]*IPRanges)[\"']?[ \t]*:"
                    rb"[ \t]*([^\r\n]*)$")
_NET = re.compile(rb"(?<![0-9A-Za-z.:])" + _PREFIX + rb"(?![0-9])")


@dataclass(frozen=True)
class _Route:
    table: bytes
    start: int
    end: int
    net: IPNetwork
    rejects: bool


def _network(address: bytes, mask: bytes | None = None) -> IPNetwork | None:
    try:
        if mask is None:
            if b"/" not in address:
                return None
            return ipaddress.ip_network(address.decode("ascii"), strict=False)
        return ipaddress.ip_network(f"{address.decode('ascii')}/{mask.decode('ascii')}", strict=False)
    except ValueError:
        return None


def _rejects(words: bytes) -> bool:
    return any(w.lower() in _REJECT for w in words.split())


def _iproute(data: bytes) -> Iterator[_Route]:
    for x in _IPROUTE.finditer(data):
        words = x.group(1).split()
        if not words:
            continue
        typed = words[0].lower() in _REJECT or words[0] in (b"unicast", b"local")
        kind = words[0].lower() if typed else None
        target = words[1] if kind is not None and len(words) > 1 else words[0]
        net = _network(target)
        if net is None:
            continue
        table = re.search(rb"(?:table|vrf)[ \t]+(\S+)", x.group(1))
        start = x.start(1) + x.group(1).find(target)
        yield _Route(b"ip " + (table.group(1) if table else b"main"), start, start + len(target), net,
                     kind is not None and kind in _REJECT)


def _nettools(data: bytes) -> Iterator[_Route]:
    for x in _NETTOOLS.finditer(data):
        net = _network(x.group(1), x.group(2)) if x.group(2) else _network(x.group(1))
        if net is not None:
            end = x.end(2) if x.group(2) else x.end(1)
            yield _Route(b"ip main", x.start(1), end, net, _rejects(x.group(3)))


def _static(data: bytes) -> Iterator[_Route]:
    contexts = [(x.start(), x.group(1) or b"") for x in _VRF.finditer(data)]
    for x in _STATIC.finditer(data):
        vrf = x.group(2) or next((name for at, name in reversed(contexts) if at < x.start()), b"")
        net = _network(*x.group(3).split()) if b"/" not in x.group(3) else _network(x.group(3))
        if net is not None:
            yield _Route(b"static " + vrf, x.start(3), x.end(3), net, _rejects(x.group(4)))


def _openvpn(data: bytes) -> Iterator[_Route]:
    for x in _OPENVPN.finditer(data):
        parts = x.group(2).split()
        net = _network(parts[0]) if b"/" in parts[0] else _network(parts[0], parts[1] if len(parts) > 1
                                                                   else b"255.255.255.255")
        if net is not None:
            yield _Route(b"openvpn", x.start(2), x.end(2), net, _rejects(x.group(3)))


def _routes(data: bytes, wanted: Collection[IPNetwork] | None) -> Iterator[Rule]:
    routes: list[_Route] = []
    if b"route" in data:
        if b"ip" in data:
            routes.extend(_iproute(data))
            routes.extend(_static(data))
        if b"-net" in data:
            routes.extend(_nettools(data))
        routes.extend(_openvpn(data))
    wider = [r for r in routes if wanted is None or r.net in wanted]
    for route in routes:
        included = list(dict.fromkeys(r.net for r in wider if r.table == route.table
                                      and r.net.version == route.net.version
                                      and (_inside(route.net, r.net)
                                           or (r.net == route.net and route.rejects and not r.rejects))))
        if included:
            what = "a more specific route, the longest match deciding"
            yield included, [(route.start, route.end, route.net)], what


def _inside(net: IPNetwork, wider: IPNetwork) -> bool:
    return net.prefixlen > wider.prefixlen and net.subnet_of(wider)  # type: ignore[arg-type]


def _indent(text: bytes) -> int:
    return len(text) - len(text.lstrip(b" \t"))


def _istio(data: bytes) -> Iterator[Rule]:
    for x in _ISTIO.finditer(data):
        column, suffix = len(x.group(1)), x.group(3)
        include = re.compile(rb"(?m)^[ \t]{%d}[\"']?" % column + re.escape(x.group(2)) + b"include"
                             + re.escape(suffix) + rb"[\"']?[ \t]*:[ \t]*([^\r\n]*)$")
        # the include key of the same mapping: no line less indented between them
        for y in include.finditer(data):
            lo, hi = sorted((x.start(), y.start()))
            between = [line for line in data[lo:hi].split(b"\n")[1:] if line.strip()]
            if any(_indent(line) < column for line in between):
                continue
            included = [n for z in _NET.finditer(y.group(1)) if (n := _network(z.group())) is not None]
            excluded = [(x.start(4) + z.start(), x.start(4) + z.end(), n) for z in _NET.finditer(x.group(4))
                        if (n := _network(z.group())) is not None]
            yield included, excluded, f"`exclude{suffix.decode()}` beside `include{suffix.decode()}`"


def rules(data: bytes, wanted: Collection[IPNetwork] | None = None) -> Iterator[Rule]:
    """Each more specific route or excluded range with the wider ones it takes addresses from."""
    if b"route" in data:
        yield from _routes(data, wanted)
    if b"exclude" in data and b"IPRanges" in data:
        yield from _istio(data)
