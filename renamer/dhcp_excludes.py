"""DHCP exclusions a shrink makes cover a whole pool (outside pass round 7, issue 33), pure: the
addresses a DHCP server keeps out of a pool's network, which after a shrink in place (or a shrink
with a move, each address by its offset) would leave the pool no address to lease.

* Cisco IOS: `ip dhcp excluded-address [vrf V] A [B]` (global, every pool of the VRF) beside an
  `ip dhcp pool` whose ` network 10.0.48.0 255.255.255.0` (or `/24`) is the moved network;
* Juniper address-assignment pools in set commands: `set access address-assignment pool P family
  inet network 10.0.48.0/24` with the same pool's `excluded-address A` and `excluded-range R low A` /
  `high B`.

Where the exclusions (as they land) cover every host address of the new network (its network and
broadcast addresses aside) and did not already cover the old one's, the first exclusion is refused
`tool-refuses` (the server accepts the configuration and leases nothing); in a file already written
(the pool at the new network) the same, so verify does not say OK. An exclusion whose end a shrink
cannot place is already an `outside-prefix` refusal.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterator, Sequence

from renamer import lazy_re
from renamer.except_moves import landing
from renamer.names import IPNetwork
from renamer.prefix_moves import LengthHit, PrefixMove

TOOL = "tool-refuses"  # as prefix_pools.TOOL

_A = rb"(?:[0-9]{1,3}\.){3}[0-9]{1,3}"
_IOS_EXCLUDED = lazy_re.compile(rb"(?m)^[ \t]*ip[ \t]+dhcp[ \t]+excluded-address[ \t]+"
                                rb"(?:vrf[ \t]+([^ \t\r\n]+)[ \t]+)?"
                                rb"(" + _A + rb")(?:[ \t]+(" + _A + rb"))?[ \t]*(?:![^\r\n]*)?\r?$")
_IOS_POOL = lazy_re.compile(rb"(?m)^[ \t]*ip[ \t]+dhcp[ \t]+pool[ \t]+([^ \t\r\n]+)")
_IOS_NETWORK = lazy_re.compile(rb"(?m)^[ \t]+network[ \t]+(" + _A + rb")[ \t]+/?(" + _A + rb"|[0-9]{1,2})\b")
_IOS_VRF = lazy_re.compile(rb"(?m)^[ \t]+vrf[ \t]+([^ \t\r\n]+)")
_JUNOS = lazy_re.compile(rb"(?m)^set[ \t]+access[ \t]+address-assignment[ \t]+pool[ \t]+([^ \t\r\n]+)"
                         rb"[ \t]+family[ \t]+inet[ \t]+"
                         rb"(network|excluded-address|excluded-range[ \t]+[^ \t\r\n]+[ \t]+(?:low|high))"
                         rb"[ \t]+([0-9./]+)")

Range = tuple[int, int, int, int]  # span start, span end, first address, last address


def _hosts(net: IPNetwork) -> tuple[int, int]:
    first, last = int(net.network_address), int(net.broadcast_address)
    return (first + 1, last - 1) if net.prefixlen < net.max_prefixlen - 1 else (first, last)


def _covers(ranges: Sequence[tuple[int, int]], net: IPNetwork) -> bool:
    low, high = _hosts(net)
    at = low
    for first, last in sorted(ranges):
        if first > at:
            return False
        at = max(at, last + 1)
        if at > high:
            return True
    return at > high


def _land(address: int, move: PrefixMove) -> int | None:
    net = ipaddress.ip_network(f"{ipaddress.ip_address(address)}/32")
    lands = landing(net, move)
    return int(lands.network_address) if lands is not None else None


def _judge(data: bytes, pool: IPNetwork, excluded: Sequence[Range], moves: Sequence[PrefixMove],
           what: str) -> Iterator[LengthHit]:
    for move in moves:
        if not move.resized or move.old.version != 4 or pool not in (move.old, move.new) or not excluded:
            continue
        if pool == move.old:
            if _covers([(a, b) for _, _, a, b in excluded], move.old):
                continue  # the author's: it leased nothing before the move either
            landed = [(_land(a, move), _land(b, move)) for _, _, a, b in excluded]
            ranges = [(a, b) for a, b in landed if a is not None and b is not None]
            if len(ranges) != len(landed):
                continue  # an end past the shrunk network: an outside-prefix refusal already
        else:
            ranges = [(a, b) for _, _, a, b in excluded]
        if not _covers(ranges, move.new):
            continue
        start, end = excluded[0][0], excluded[0][1]
        text = data[start:end].decode("ascii")
        yield LengthHit(start, end, text, text, TOOL,
                        f"the excluded addresses of the DHCP pool {pool} ({what}), whose network {move.old} "
                        f"becomes {move.new}, would cover every host address of the new network: the "
                        "server would lease nothing: decide the exclusions by hand, or choose another new "
                        "network")


def _ios(data: bytes, moves: Sequence[PrefixMove]) -> Iterator[LengthHit]:
    excluded: dict[bytes, list[Range]] = {}
    for x in _IOS_EXCLUDED.finditer(data):
        first = int(ipaddress.IPv4Address(x.group(2).decode()))
        last = int(ipaddress.IPv4Address(x.group(3).decode())) if x.group(3) else first
        span_end = x.end(3) if x.group(3) else x.end(2)
        excluded.setdefault(x.group(1) or b"", []).append((x.start(2), span_end, first, last))
    if not excluded:
        return
    pools = list(_IOS_POOL.finditer(data))
    for i, pool in enumerate(pools):
        end = pools[i + 1].start() if i + 1 < len(pools) else len(data)
        following = data.find(b"\n!", pool.end(), end)
        body_end = end if following < 0 else following
        found = _IOS_NETWORK.search(data, pool.end(), body_end)
        if found is None:
            continue
        mask = found.group(2).decode()
        try:
            net = ipaddress.ip_network(f"{found.group(1).decode()}/{mask}", strict=False)
        except ValueError:
            continue
        vrf = _IOS_VRF.search(data, pool.end(), body_end)
        yield from _judge(data, net, excluded.get(vrf.group(1) if vrf else b"", []), moves,
                          "IOS's `ip dhcp excluded-address`")


def _junos(data: bytes, moves: Sequence[PrefixMove]) -> Iterator[LengthHit]:
    pools: dict[bytes, IPNetwork] = {}
    excluded: dict[bytes, list[Range]] = {}
    lows: dict[tuple[bytes, bytes], tuple[int, int]] = {}
    for x in _JUNOS.finditer(data):
        name, key, value = x.group(1), x.group(2), x.group(3)
        try:
            if key == b"network":
                pools[name] = ipaddress.ip_network(value.decode(), strict=False)
                continue
            address = int(ipaddress.IPv4Address(value.decode()))
        except ValueError:
            continue
        if key == b"excluded-address":
            excluded.setdefault(name, []).append((x.start(3), x.end(3), address, address))
        elif key.endswith(b"low"):
            lows[(name, key.split()[1])] = (x.start(3), address)
        else:
            low = lows.get((name, key.split()[1]))
            if low is not None and low[1] <= address:
                text = str(ipaddress.IPv4Address(low[1]))
                excluded.setdefault(name, []).append((low[0], low[0] + len(text), low[1], address))
    for name, net in pools.items():
        yield from _judge(data, net, excluded.get(name, []), moves, "a JunOS pool's excluded addresses")


def dhcp_hits(data: bytes, moves: Sequence[PrefixMove]) -> Iterator[LengthHit]:
    """Each DHCP pool's first exclusion where its exclusions would cover the whole new network."""
    if b"excluded-address" in data and b"ip dhcp pool" in data:
        yield from _ios(data, moves)
    if b"address-assignment" in data and b"excluded-" in data:
        yield from _junos(data, moves)
