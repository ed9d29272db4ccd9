"""Pools and lengths tied to a resized network by a key the resize does not rewrite, pure and I/O free.

A network move that changes the length (`renames.networks`, prefix_moves.py) rewrites the network,
its addresses and its own length; these numbers stand beside it under keys of their own and keep
their meaning only while the length does (t26-33 findings 05, 06, 11, 20):

* a DHCP pool written as an offset and a size from the network address (systemd-networkd's
  `[DHCPServer] PoolOffset=`/`PoolSize=`; OpenWrt's `option start`/`option limit`, read across files
  by sweep/uci_pools.py with `pool_problem`): a shrink that leaves the pool past the new network's
  last host is refused as an address in use outside it (`outside-prefix`);
* Kea's DHCPv6 `pd-pools` (`prefix`, `prefix-len`, `delegated-len`): a `prefix-len` that would pass
  its `delegated-len` makes a pool Kea refuses to load (`tool-refuses`, a refusal); one a shrink
  leaves valid delegates fewer prefixes than before (a `mask` residual saying how many);
* Kubernetes lengths tied to a pool: Calico's `blockSize`, MetalLB's `aggregationLength`(`V6`),
  kube-controller-manager's `node-cidr-mask-size` (kubeadm, k3s, `--node-cidr-mask-size=`), Cilium's
  cluster-pool mask size, flannel's `SubnetLen` / `IPv6SubnetLen` beside `Network` / `IPv6Network`:
  one shorter than the new pool is refused by its project (`tool-refuses`);
  a node mask a shrink leaves valid gives fewer nodes a range (a `mask` residual);
* Kea's `option-data` entry named `subnet-mask` (or `code: 1`) inside the `subnet4` entry whose
  `subnet` is the moved network: its `data` is that network's mask and follows, as ISC dhcpd's
  `option subnet-mask` inside `subnet ... {}` does; `broadcast-address` (`code: 28`) likewise
  follows to the new broadcast address, however its name and data lines are laid out.

Each is a `prefix_moves.LengthHit`: `Matcher._with_pools` puts it in place of any match over it.
"""

from __future__ import annotations

import bisect
import ipaddress
import re
from collections.abc import Iterator, Sequence

from renamer import lazy_re
from renamer.delegation_lengths import delegation_hits
from renamer.except_blocks import except_hits
from renamer.names import IPNetwork
from renamer.prefix_moves import OUTSIDE, LengthHit, PrefixMove
from renamer.tied_lengths import tied_hits
from renamer.tool_lengths import limit_hits

TOOL = "tool-refuses"  # Match.refused: the new length makes the file one its own tool refuses to load
TIED = "tied-length"  # Match.refused: a length tied to the network whose meaning the new length changes
DROP = "-"  # a hit that only says another network owns what it covers: no match stands there

_CIDR = lazy_re.compile(rb"(?<![0-9A-Za-z.:])((?:[0-9]{1,3}\.){3}[0-9]{1,3}|[0-9A-Fa-f]*:[0-9A-Fa-f:.]*)"
                   rb"/([0-9]{1,3})(?![0-9])")
_QUAD = lazy_re.compile(rb"(?<![0-9A-Za-z.])(?:[0-9]{1,3}\.){3}[0-9]{1,3}(?![0-9])(?!\.[0-9])")


def _network(text: bytes) -> IPNetwork | None:
    try:
        return ipaddress.ip_network(text.decode("ascii"), strict=False)
    except ValueError:
        return None


def _address(text: bytes) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        return ipaddress.ip_address(text.decode("ascii"))
    except ValueError:
        return None


def _line_of(data: bytes, pos: int) -> tuple[int, int]:
    start = data.rfind(b"\n", 0, pos) + 1
    end = data.find(b"\n", pos)
    return start, len(data) if end < 0 else end


# -- which side of a move a network literal names ------------------------------------------------

def _named_move(net: IPNetwork, moves: Sequence[PrefixMove]) -> tuple[PrefixMove, bool] | None:
    """The resized move whose old network `net` is (False: before the sweep), or whose new network
    it is (True: a file the sweep has written), or None."""
    for move in moves:
        if not move.resized or net.version != move.old.version:
            continue
        if net == move.old:
            return move, False
        if net == move.new:
            return move, True
    return None


def _address_move(address: ipaddress.IPv4Address | ipaddress.IPv6Address, length: int,
                  moves: Sequence[PrefixMove]) -> tuple[PrefixMove, bool] | None:
    """The resized move an interface address with its length (`Address=192.168.1.1/24`) stands in:
    the old network at the old length, or the new network at the new length."""
    for move in moves:
        if not move.resized or address.version != move.old.version:
            continue
        if address in move.old and length == move.old.prefixlen:
            return move, False
        if address in move.new and length == move.new.prefixlen:
            return move, True
    return None


# -- 05: a DHCP pool as an offset and a size -------------------------------------------------------

def _hosts_end(net: IPNetwork) -> int:
    """The offset past the last host of an IPv4 network (its broadcast address is none)."""
    return net.num_addresses - (1 if net.version == 4 and net.prefixlen <= 30 else 0)


def pool_problem(move: PrefixMove, offset: int, size: int | None, written: str) -> str | None:
    """Why a pool of `size` addresses (None: up to the network's end) from `offset` into the moved
    network has no place in the new one, where it had one in the old one; None where it fits."""
    last = offset + size - 1 if size is not None else None

    def fits(net: IPNetwork) -> bool:
        end = _hosts_end(net)
        return offset < end and (last is None or last < end)

    if fits(move.new) or not fits(move.old):
        return None
    first = move.old.network_address + offset
    span = f"{first}-{move.old.network_address + last}" if last is not None else f"from {first}"
    return (f"{written}: the DHCP pool {span} of {move.old} lies {offset} to "
            f"{last if last is not None else _hosts_end(move.old) - 1} addresses into it, and {move.new}'s "
            f"hosts end {_hosts_end(move.new) - 1} addresses into it (the pool counts from the network "
            "address): set the pool's offset and size by hand to fit, or choose a longer new network")


_SECTION = lazy_re.compile(rb"(?m)^[ \t]*\[([A-Za-z0-9]+)\][ \t]*$")
_NETWORKD_ADDRESS = lazy_re.compile(rb"(?m)^[ \t]*(Address|ServerAddress)[ \t]*=[ \t]*([0-9.]+)/([0-9]{1,2})"
                               rb"[ \t]*$")
_NETWORKD_POOL = lazy_re.compile(rb"(?m)^[ \t]*(PoolOffset|PoolSize)[ \t]*=[ \t]*([0-9]{1,10})[ \t]*$")


def _sections(data: bytes) -> list[tuple[bytes, int, int]]:
    """An INI file's sections: (name, start, end)."""
    heads = list(_SECTION.finditer(data))
    return [(h.group(1), h.end(), heads[i + 1].start() if i + 1 < len(heads) else len(data))
            for i, h in enumerate(heads)]


def networkd_pools(data: bytes, moves: Sequence[PrefixMove]) -> Iterator[LengthHit]:
    """systemd-networkd's `[DHCPServer] PoolOffset=`/`PoolSize=` against the network of the file's
    `ServerAddress=`, else its first IPv4 `Address=` (the server's own address, as networkd takes it)."""
    if b"[DHCPServer]" not in data or b"Pool" not in data:
        return
    sections = _sections(data)
    server = [m for name, s, e in sections if name == b"DHCPServer"
              for m in _NETWORKD_ADDRESS.finditer(data, s, e) if m.group(1) == b"ServerAddress"]
    addresses = [m for name, s, e in sections if name in (b"Network", b"Address")
                 for m in _NETWORKD_ADDRESS.finditer(data, s, e) if m.group(1) == b"Address"]
    chosen = (server or addresses)[:1]
    found = None
    if chosen:
        address = _address(chosen[0].group(2))
        if address is not None:
            found = _address_move(address, int(chosen[0].group(3)), moves)
    if found is None:
        return
    move = found[0]
    for name, s, e in sections:
        if name != b"DHCPServer":
            continue
        keys = {m.group(1): m for m in _NETWORKD_POOL.finditer(data, s, e)}
        if not keys:
            continue
        offset = int(keys[b"PoolOffset"].group(2)) if b"PoolOffset" in keys else 1
        size = int(keys[b"PoolSize"].group(2)) if b"PoolSize" in keys else None
        at = keys.get(b"PoolSize") or keys[b"PoolOffset"]
        written = " ".join(f"{k.decode()}={v.group(2).decode()}" for k, v in sorted(keys.items()))
        why = pool_problem(move, offset, size, written)
        if why is not None:
            text = at.group(2).decode()
            yield LengthHit(at.start(2), at.end(2), text, text, OUTSIDE, why)


# -- nesting: the entries around a place (JSON objects by their braces, YAML blocks by indentation) --

_TOKENS = lazy_re.compile(rb'"(?:[^"\\\n]|\\.)*"|[{}]')


class _Layout:
    """One file's nesting, read once: its `{...}` objects (strings skipped; none where the braces do
    not pair up), each with the object around it, and its lines' indentation blocks, each line with
    the line that opens its block (the nearest line above, less indented) and the first line after
    it indented no more than it (where its own block ends). Asking the entries around a place then
    costs their depth, not the file (a Kea file of 3,000 subnets is read once, not per option)."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.starts = [0, *(x.end() for x in re.finditer(rb"\n", data))]
        count = len(self.starts)
        self.indents: list[int] = []
        for index in range(count):
            line = data[self.starts[index]:self._line_end(index)]
            stripped = line.lstrip(b" \t")
            blank = not stripped.strip() or stripped.startswith(b"#")
            self.indents.append(-1 if blank else len(line) - len(stripped))
        self.parent = [-1] * count
        self.close = [count] * count
        stack: list[int] = []
        for index, indent in enumerate(self.indents):
            if indent < 0:
                continue
            while stack and self.indents[stack[-1]] >= indent:
                self.close[stack.pop()] = index
            self.parent[index] = stack[-1] if stack else -1
            stack.append(index)
        self.objects: list[list[int]] = []
        self.object_parent: list[int] = []
        opened: list[int] = []
        for x in _TOKENS.finditer(data) if b"{" in data else ():
            if x.group() == b"{":
                self.objects.append([x.start(), -1])
                self.object_parent.append(opened[-1] if opened else -1)
                opened.append(len(self.objects) - 1)
            elif x.group() == b"}":
                if not opened:
                    opened = [-1]
                    break
                self.objects[opened.pop()][1] = x.end()
        if opened:
            self.objects, self.object_parent = [], []
        self.object_starts = [o[0] for o in self.objects]

    def _line_end(self, index: int) -> int:
        return self.starts[index + 1] - 1 if index + 1 < len(self.starts) else len(self.data)

    def blocks(self, pos: int) -> Spans:
        """The indentation blocks around `pos`, innermost first."""
        index = bisect.bisect_right(self.starts, pos) - 1
        if self.indents[index] <= 0:
            return []
        out = []
        at = self.parent[index]
        while at >= 0:
            end = self.starts[self.close[at]] - 1 if self.close[at] < len(self.starts) else len(self.data)
            out.append((self.starts[at], end))
            at = self.parent[at]
        return out

    def braces(self, pos: int) -> Spans:
        """The `{...}` objects around `pos`, innermost first."""
        out = []
        at = bisect.bisect_left(self.object_starts, pos) - 1
        while at >= 0:
            start, end = self.objects[at]
            if start < pos < end:
                out.append((start, end))
            at = self.object_parent[at]
        return out

    def around(self, pos: int) -> Spans:
        """The entries around `pos`, innermost first: braces and indentation blocks together."""
        return sorted(set(self.braces(pos) + self.blocks(pos)), key=lambda s: s[1] - s[0])


Spans = list[tuple[int, int]]


def _key(name: bytes) -> re.Pattern[bytes]:
    return re.compile(rb"(?<![A-Za-z0-9_-])[\"']?" + name + rb"[\"']?[ \t]*:[ \t]*[\"']?([^\"',}\s]+)")


_NAME_KEY = _key(rb"name")
_CODE_KEY = _key(rb"code")
_DATA_KEY = _key(rb"data")
_SUBNET_KEY = _key(rb"subnet")
_PREFIX_KEY = _key(rb"prefix")
_PREFIX_LEN_KEY = _key(rb"prefix[-_]len")
_DELEGATED_KEY = lazy_re.compile(
    rb"(?<![A-Za-z0-9_-])[\"']?delegated[-_]len[\"']?[ \t]*:[ \t]*[\"']?([0-9]{1,3})")


def _one(pattern: re.Pattern[bytes], data: bytes, span: tuple[int, int]) -> re.Match[bytes] | None:
    found = list(pattern.finditer(data, *span))
    return found[0] if len(found) == 1 else None


# -- 06: Kea DHCPv6 pd-pools -----------------------------------------------------------------------

def pd_pools(data: bytes, moves: Sequence[PrefixMove], layout: _Layout) -> Iterator[LengthHit]:
    """Each pd-pool (`prefix`, `prefix-len`, `delegated-len` in one entry) whose prefix is a resized
    network: a `prefix-len` past `delegated-len` is refused (Kea will not load it), one a shrink
    leaves valid is a `mask` residual (fewer prefixes to delegate)."""
    if b"delegated" not in data:
        return
    for x in _DELEGATED_KEY.finditer(data):
        entry = next((s for s in layout.around(x.start())
                      if _one(_PREFIX_LEN_KEY, data, s) is not None
                      and _one(_PREFIX_KEY, data, s) is not None), None)
        if entry is None:
            continue
        length, prefix = _one(_PREFIX_LEN_KEY, data, entry), _one(_PREFIX_KEY, data, entry)
        assert length is not None and prefix is not None
        if not length.group(1).isdigit():
            continue
        address = _address(prefix.group(1))
        if address is None or address.version != 6:
            continue
        found = _pd_state(address, int(length.group(1)), moves)
        if found is None:
            continue
        move, state = found
        delegated, text = int(x.group(1)), length.group(1).decode()
        if state != "left" and delegated < move.new.prefixlen:
            why = (f"the pd-pool {move.old} delegating /{delegated} prefixes would become {move.new}: "
                   f"Kea refuses a pd-pool whose delegated-len ({delegated}) is shorter than its "
                   f"prefix-len ({move.new.prefixlen}): set delegated-len by hand (at least "
                   f"{move.new.prefixlen}), or choose a longer new network")
            yield LengthHit(length.start(1), length.end(1), text, text, TOOL, why)
            yield _held_prefix(prefix, TOOL, why)
        elif state == "left" or (state == "before" and move.new.prefixlen > move.old.prefixlen):
            why = (f"the pd-pool {move.old} delegates {2 ** (delegated - move.old.prefixlen)} "
                   f"/{delegated} prefixes, as {move.new} it would delegate "
                   f"{2 ** (delegated - move.new.prefixlen)}: clients holding the others lose them: "
                   "decide prefix, prefix-len and delegated-len together by hand")
            yield LengthHit(length.start(1), length.end(1), text, text, TIED, why)
            if state == "before":  # never half-written: the pool's prefix is held with its length
                yield _held_prefix(prefix, TIED, why)


def _held_prefix(prefix: re.Match[bytes], refused: str, why: str) -> LengthHit:
    """A pd-pool's `prefix` kept with the `prefix-len` beside it (t36-33 finding 15): moved alone it
    would name a pool with host bits set, reaching past the new network."""
    text = prefix.group(1).decode("ascii", "replace")
    return LengthHit(prefix.start(1), prefix.end(1), text, text, refused, why)


def _pd_state(address: ipaddress.IPv6Address | ipaddress.IPv4Address, length: int,
              moves: Sequence[PrefixMove]) -> tuple[PrefixMove, str] | None:
    """A pd-pool's prefix and prefix-len against the moves: its old network ("before"), its new one
    ("after": written, by the sweep or by hand), or the new address with the old length ("left": a
    sweep wrote the prefix and left the length as the residual it was)."""
    for move in moves:
        if address.version != move.old.version or not move.resized:
            continue
        if address == move.old.network_address and length == move.old.prefixlen:
            return move, "before"
        if address == move.new.network_address and length == move.new.prefixlen:
            return move, "after"
        if address == move.new.network_address and length == move.old.prefixlen:
            return move, "left"
    return None


_SUBNET6 = lazy_re.compile(rb"(?<![A-Za-z0-9_-])subnet6[ \t]+([0-9A-Fa-f:]+)/([0-9]{1,3})[ \t]*\{")
_PREFIX6 = lazy_re.compile(rb"(?<![A-Za-z0-9_-])prefix6[ \t]+[0-9A-Fa-f:]+[ \t]+[0-9A-Fa-f:]+[ \t]*/[ \t]*"
                      rb"([0-9]{1,3})")


def dhcpd_prefix6(data: bytes, moves: Sequence[PrefixMove]) -> Iterator[LengthHit]:
    """ISC dhcpd's `prefix6 LOW HIGH /N;` inside `subnet6 NET {`: a delegated length shorter than
    the new network's would hand out prefixes wider than the network (the ends' offsets are
    refused as any address's where a shrink leaves them outside): a `tied-length` residual."""
    if b"prefix6" not in data:
        return
    for x in _SUBNET6.finditer(data):
        net = _network(x.group(1) + b"/" + x.group(2))
        found = _named_move(net, moves) if net is not None else None
        if found is None:
            continue
        move = found[0]
        depth, end = 1, x.end()
        while end < len(data) and depth:
            depth += {b"{": 1, b"}": -1}.get(data[end:end + 1], 0)
            end += 1
        for p in _PREFIX6.finditer(data, x.end(), end):
            if int(p.group(1)) < move.new.prefixlen:
                text = p.group(1).decode()
                yield LengthHit(p.start(1), p.end(1), text, text, TIED,
                                f"prefix6 delegates /{text} prefixes from {move.old}, which becomes "
                                f"{move.new}: each would be wider than the network, decide the delegated "
                                "length by hand")


# -- 11: Kubernetes lengths tied to a pool ---------------------------------------------------------

# (the length key, the keys that name its pool, what the length is, its project's rule, a shrink's
# fewer units matter: a residual, what the units are and what each is)
_NODE_RANGES = ("ranges", "one a node")
_KUBE: list[tuple[bytes, bytes, str, str, bool, tuple[str, str]]] = [
    (rb"blockSize", rb"cidr", "Calico's IPPool blockSize", "Calico refuses a pool shorter than its blocks "
     "(the pool's prefix length must be at most blockSize)", False,
     ("blocks", "")),  # fewer blocks are no fewer nodes: a node borrows from another's (Calico IPAM)
    (rb"aggregationLength(?:V6)?|aggregation-length(?:-v6)?", rb"addresses",
     "MetalLB's BGPAdvertisement aggregationLength",
     "MetalLB refuses an aggregation length shorter than a pool's prefix", False, ("", "")),
    (rb"(?:--)?node-cidr-mask-size(?:-ipv[46])?|nodeCidrMaskSize(?:IPv[46])?|nodeCIDRMaskSize(?:IPv[46])?"
     rb"|node_cidr_mask_size",
     rb"(?:--)?cluster-cidr|clusterCIDRs?|podSubnet|(?:--)?pod-network-cidr|cluster_cidr|pod_network_cidr"
     rb"|podCIDR|pod_cidr|podSubnets", "kube-controller-manager's node-cidr-mask-size",
     "kube-controller-manager refuses a node mask shorter than the cluster CIDR's", True,
     _NODE_RANGES),
    (rb"clusterPoolIPv[46]MaskSize|cluster-pool-ipv[46]-mask-size",
     rb"clusterPoolIPv[46]PodCIDRList|clusterPoolIPv[46]PodCIDR|cluster-pool-ipv[46]-cidr",
     "Cilium's cluster-pool mask size", "Cilium refuses a per-node mask shorter than the pool's", True,
     _NODE_RANGES),
    # flannel's net-conf.json: `"Network": "10.42.0.0/16", "SubnetLen": 24`, `"IPv6Network"` and
    # `"IPv6SubnetLen"` (t31-33, finding 13: a shrink left a per-node subnet shorter than the network)
    (rb"IPv6SubnetLen|SubnetLen", rb"IPv6Network|Network", "flannel's SubnetLen",
     "flannel refuses to start with a per-node SubnetLen shorter than its Network's length", True,
     ("subnets", "one a node (flannel leaves the first unused)")),
    # kubespray's inventory: `kube_pods_subnet: 10.233.64.0/18` beside `kube_network_node_prefix: 24`
    # (and `_ipv6`): its validate_inventory asserts 2 ** (node prefix - pool length) >= the node count,
    # kube-controller-manager gets it as node-cidr-mask-size (t32-33 finding 05); Talos's `podSubnets`
    # list beside the controller manager's node-cidr-mask-size (finding 17) is read by the row above
    (rb"kube_network_node_prefix(?:_ipv6)?", rb"kube_pods_subnet(?:_ipv6)?",
     "kubespray's kube_network_node_prefix", "kubespray's validate_inventory fails (2 ** (node prefix - pool "
     "length) nodes) and kube-controller-manager refuses a node mask shorter than the cluster CIDR's", True,
     _NODE_RANGES),
]
# kube-controller-manager's node CIDR allocator (k8s pkg/controller/nodeipam/ipam/cidrset,
# `clusterSubnetMaxDiff = 16`: the node mask at most 16 bits longer than the cluster CIDR's; t33-33
# finding 10): the rows whose length it reads
CIDRSET_MAX_DIFF = 16
# a shrink leaving 2 ** 24 units or more leaves more than any cluster has nodes: no residual (as
# tied_lengths._PLENTY)
_PLENTY = 24
_CIDRSET = ("kube-controller-manager's node-cidr-mask-size", "kubespray's kube_network_node_prefix")
_KUBE_LENGTH = lazy_re.compile(rb"(?<![A-Za-z0-9_-])[\"']?(" + rb"|".join(k for k, *_ in _KUBE) +
                          rb")[\"']?[ \t]*[:=][ \t]*[\"']?([0-9]{1,3})(?![0-9.])")
# the other spellings of a flag and its value (round 7, theme 1): `--node-cidr-mask-size 24` (a
# systemd drop-in's or a shell's command line), a static pod's args split over two list items
# (`- --node-cidr-mask-size` then `- "24"`), and kubeadm v1beta4's `extraArgs` list of
# `{name: node-cidr-mask-size, value: "24"}` (block or flow, either key first)
_KUBE_NAMES = rb"|".join(k for k, *_ in _KUBE)
_KUBE_SPELLED = [
    lazy_re.compile(rb"(?<![A-Za-z0-9_-])--(" + _KUBE_NAMES + rb")(?:[ \t]+|[\"']?[ \t]*\r?\n[ \t]*-[ \t]+)"
                    rb"[\"']?([0-9]{1,3})(?![0-9.])"),
    lazy_re.compile(rb"(?<![A-Za-z0-9_-])[\"']?name[\"']?[ \t]*:[ \t]*[\"']?(" + _KUBE_NAMES +
                    rb")[\"']?[ \t]*(?:,[ \t]*|\r?\n[ \t]*)[\"']?value[\"']?[ \t]*:[ \t]*[\"']?([0-9]{1,3})"
                    rb"(?![0-9.])"),
    lazy_re.compile(rb"(?<![A-Za-z0-9_-])[\"']?value[\"']?[ \t]*:[ \t]*[\"']?([0-9]{1,3})[\"']?[ \t]*"
                    rb"(?:,[ \t]*|\r?\n[ \t]*)[\"']?name[\"']?[ \t]*:[ \t]*[\"']?(" + _KUBE_NAMES +
                    rb")(?![A-Za-z0-9_-])"),
]
_DOCUMENT = lazy_re.compile(rb"(?m)^---[ \t]*$")
_LIST_LINES = 20  # a pool key's list: the lines after it, at most


Placed = list[tuple[IPNetwork, int, int]]


def _pool_keys(names: bytes) -> re.Pattern[bytes]:
    """A pool key's spellings: `KEY: v` / `KEY=v`, a flag and its value after a blank or on the next
    list item (`- --cluster-cidr` then `- 10.244.0.0/16`), kubeadm v1beta4's `name: KEY` then `value:`."""
    return re.compile(rb"(?<![A-Za-z0-9_-])(?:[\"']?(?:" + names + rb")[\"']?[ \t]*[:=]"
                      rb"|--(?:" + names + rb")(?:[ \t]+|[\"']?[ \t]*\r?\n[ \t]*-[ \t]+)"
                      rb"|[\"']?name[\"']?[ \t]*:[ \t]*[\"']?(?:" + names + rb")[\"']?[ \t]*"
                      rb"(?:,[ \t]*|\r?\n[ \t]*)(?:-[ \t]+)?[\"']?value[\"']?[ \t]*:)")


def _pools_named(data: bytes, keys: re.Pattern[bytes], start: int, end: int) -> Placed:
    """The networks the pool keys in [start, end) name, with their places: on the key's line (`cidr:
    10.0.48.0/24`, `--cluster-cidr=...`, a flow list) and in the list lines under it."""
    out = []
    for key in keys.finditer(data, start, end):
        line_start = _line_of(data, key.start())[0]
        line_end = _line_of(data, key.end())[1]  # a value the key's spelling puts on the next line
        stop = line_end
        own = len(data[line_start:key.start()]) - len(data[line_start:key.start()].lstrip(b" \t-"))
        for _ in range(_LIST_LINES):
            if stop >= end:
                break
            nxt_start, nxt_end = stop + 1, _line_of(data, stop + 1)[1]
            nxt = data[nxt_start:nxt_end]
            if not nxt.lstrip().startswith(b"-") or len(nxt) - len(nxt.lstrip(b" \t")) < own:
                break
            stop = nxt_end
        if data[key.start():key.start() + 2] == b"--":
            blank = re.compile(rb"[\s\"']").search(data, key.end(), stop)  # a flag's value: to its blank
            stop = blank.start() if blank is not None else stop
        out += [(n, x.start(), x.end()) for x in _CIDR.finditer(data, key.end(), stop)
                if (n := _network(x.group())) is not None]
    return out


def _lengths_spelled(data: bytes) -> list[tuple[bytes, int, int]]:
    """Each `_KUBE` length in the file: its key, and its value's place, in any spelling."""
    found = {x.start(2): (x.group(1), x.start(2), x.end(2)) for x in _KUBE_LENGTH.finditer(data)}
    for index, pattern in enumerate(_KUBE_SPELLED):
        for x in pattern.finditer(data):
            key, value = (1, 2) if index < 2 else (2, 1)
            found.setdefault(x.start(value), (x.group(key), x.start(value), x.end(value)))
    return sorted(found.values(), key=lambda f: f[1])


# flannel's CheckNetworkConfig (flannel-io/flannel pkg/subnet/config.go): a SubnetLen shorter than the
# Network's length + 2 is refused ("network must be able to accommodate at least four subnets"); with
# none, the default is /24 (/64) for a Network of /22 (/62) or shorter, else the Network's length + 2,
# and a Network longer than /28 (/124) is refused ("network is too small")
_FLANNEL_FOUR = 2
_FLANNEL_SMALLEST = {4: 28, 6: 124}
_FLANNEL_WIDE = {4: (22, 24), 6: (62, 64)}
_FLANNEL_RULE = ("flannel refuses a SubnetLen shorter than the Network's length + 2 (pkg/subnet/config.go, "
                 "\"network must be able to accommodate at least four subnets\")")
_FLANNEL_NETWORK = lazy_re.compile(rb"[\"'](IPv6Network|Network)[\"'][ \t]*:[ \t]*[\"']"
                                   rb"([0-9A-Fa-f.:]+/[0-9]{1,3})")
# kube-controller-manager's default --node-cidr-mask-size(-ipv6) where a file hands it a cluster CIDR
# and sets no mask (kubeadm's podSubnet and --pod-network-cidr, k3s/RKE2's cluster-cidr, RKE1's
# cluster_cidr): /24 (/64) a node
_DEFAULT_MASK = {4: 24, 6: 64}
# (not a plain `pod_cidr` / `podCIDR`: any tool's pod range, Cilium's, a Node's own)
_DEFAULT_POOLS = rb"podSubnet|(?:--)?cluster-cidr|cluster_cidr|(?:--)?pod-network-cidr"


def flannel_defaults(data: bytes, moves: Sequence[PrefixMove]) -> Iterator[LengthHit]:
    """flannel's `Network` / `IPv6Network` with no SubnetLen of its family in the file: its default
    per-node length follows the Network's length, so a resize can change each node's subnet (a
    `tied-length` residual on the network) or leave a network flannel refuses (`tool-refuses`)."""
    if b"Network" not in data or not (b"net-conf" in data or b'"Backend"' in data):
        return
    for x in _FLANNEL_NETWORK.finditer(data):
        six = x.group(1) == b"IPv6Network"
        if re.search(rb"IPv6SubnetLen" if six else rb"(?<!IPv6)SubnetLen", data):
            continue  # the SubnetLen row decides
        net = _network(x.group(2))
        found = _named_move(net, moves) if net is not None else None
        if net is None or found is None or found[1]:
            continue
        move = found[0]
        family = move.old.version
        wide, default = _FLANNEL_WIDE[family]

        text, key = x.group(2).decode(), x.group(1).decode()
        if move.new.prefixlen > _FLANNEL_SMALLEST[family]:
            yield LengthHit(x.start(2), x.end(2), text, text, TOOL,
                            f"flannel's {key} {move.old} becomes {move.new}, and flannel refuses a network "
                            f"longer than /{_FLANNEL_SMALLEST[family]} (pkg/subnet/config.go, \"network is "
                            "too small\"): choose a shorter new network")
            continue
        old, new = (default if n.prefixlen <= wide else n.prefixlen + _FLANNEL_FOUR
                    for n in (move.old, move.new))
        if old != new or (move.new.prefixlen > move.old.prefixlen and new - move.new.prefixlen < _PLENTY):
            yield LengthHit(x.start(2), x.end(2), text, text, TIED,
                            f"flannel's {key} {move.old} sets no SubnetLen, so each node gets "
                            f"flannel's default /{old} ({2 ** (old - move.old.prefixlen)} of them); as "
                            f"{move.new} the default is /{new} ({2 ** (new - move.new.prefixlen)} of them; "
                            "pkg/subnet/config.go): decide the network and a SubnetLen together by hand")


def default_masks(data: bytes, moves: Sequence[PrefixMove]) -> Iterator[LengthHit]:
    """A cluster CIDR handed to kube-controller-manager with no node-cidr-mask-size in the file: its
    default /24 (/64) a node stands; a resize past it (no node range fits) or a shrink (fewer nodes)
    makes the pool a `tied-length` residual (the mask may be set in another file: never a refusal)."""
    if not any(w in data for w in (b"podSubnet", b"cluster-cidr", b"cluster_cidr", b"pod-network-cidr")):
        return
    spelled = _lengths_spelled(data)
    masked = {6 if b"6" in key or int(data[s:e]) > 32 else 4 for key, s, e in spelled
              if re.fullmatch(_KUBE[2][0], key)}
    for net, start, end in _pools_named(data, _pool_keys(_DEFAULT_POOLS), 0, len(data)):
        found = _named_move(net, moves)
        if found is None or found[1] or net.version in masked:
            continue
        move = found[0]
        mask = _DEFAULT_MASK[net.version]
        before, after = 2 ** max(0, mask - move.old.prefixlen), 2 ** max(0, mask - move.new.prefixlen)
        if mask < move.old.prefixlen or mask - move.new.prefixlen >= _PLENTY or \
                (move.new.prefixlen <= mask and after >= before):
            continue
        pool = data[start:end].decode()
        what = (f"no /{mask} fits in it: kube-controller-manager refuses a node mask shorter than the "
                "cluster CIDR's" if move.new.prefixlen > mask else
                f"it would hold {after} /{mask} ranges, one a node, where {move.old} holds {before}")
        yield LengthHit(start, end, pool, pool, TIED,
                        f"the cluster CIDR {move.old} becomes {move.new} and the file sets no "
                        f"node-cidr-mask-size, so kube-controller-manager's default /{mask} a node stands: "
                        f"{what}: decide the pool "
                        "and the node mask together by hand (or keep it, where the mask is set elsewhere)")


def kube_lengths(data: bytes, moves: Sequence[PrefixMove]) -> Iterator[LengthHit]:
    """Each Kubernetes length tied to a pool (`_KUBE`) in a document (else the file) whose pool keys
    name one resized network of its family: one shorter than the new pool is refused; a node mask
    a shrink leaves valid makes each pool literal of the old network a residual (the pool and its
    mask decided together by hand, never the pool alone)."""
    yield from flannel_defaults(data, moves)
    yield from default_masks(data, moves)
    if not any(w in data for w in (b"blockSize", b"aggregationLength", b"aggregation-length", b"mask-size",
                                   b"MaskSize", b"mask_size", b"SubnetLen", b"node_prefix")):  # Antrea's too
        return
    bounds = [0, *(x.end() for x in _DOCUMENT.finditer(data)), len(data)]
    for name, value_start, value_end in _lengths_spelled(data):
        if data[_line_of(data, value_start)[0]:value_start].lstrip().startswith((b"#", b"//")):
            continue  # a commented-out length (kubespray's examples): no tool reads it
        rule = next(r for r in _KUBE if re.fullmatch(r[0], name))
        keys = _pool_keys(rule[1])
        value = int(data[value_start:value_end])
        family = 6 if b"6" in name or value > 32 else 4  # aggregationLengthV6, node-cidr-mask-size-ipv6
        low = max(b for b in bounds if b <= value_start)
        high = min(b for b in bounds if b > value_start)
        pools = [p for p in _pools_named(data, keys, low, high) if p[0].version == family]
        if not pools and (low, high) != (0, len(data)):
            pools = [p for p in _pools_named(data, keys, 0, len(data)) if p[0].version == family]
        named = {_named_move(p[0], moves) for p in pools}
        moved = {found[0] for found in named if found is not None}
        if len(moved) != 1 or None in named:
            continue
        move = moved.pop()
        text, what = data[value_start:value_end].decode(), rule[2]
        flannel = rule[2] == "flannel's SubnetLen"
        if flannel:
            what = f"flannel's {name.decode()}"  # `IPv6SubnetLen` names itself
        least = move.new.prefixlen + (_FLANNEL_FOUR if flannel else 0)
        if value < least:
            why = _FLANNEL_RULE if flannel and value >= move.new.prefixlen else rule[3]
            yield LengthHit(value_start, value_end, text, text, TOOL,
                            f"{what} {value} is tied to the pool {move.old}, which becomes {move.new}: "
                            f"{why}: set it by hand (at least {least}), or choose a longer "
                            "new network")
        elif rule[2] in _CIDRSET and value - move.new.prefixlen > CIDRSET_MAX_DIFF:
            # t33-33 finding 10: the bound on the other side, a grow past cidrset's 16 bits
            yield LengthHit(value_start, value_end, text, text, TOOL,
                            f"{what} {value} is tied to the pool {move.old}, which becomes {move.new}: "
                            f"{value - move.new.prefixlen} bits between them, and kube-controller-manager's "
                            f"node CIDR allocator allows at most {CIDRSET_MAX_DIFF} (cidrset "
                            "clusterSubnetMaxDiff, \"the node CIDR size is too big\"): "
                            f"set it by hand (at most {move.new.prefixlen + CIDRSET_MAX_DIFF}), or choose a "
                            "longer new network")
        elif rule[4] and move.new.prefixlen > move.old.prefixlen and value - move.new.prefixlen < _PLENTY:
            line = data.count(b"\n", 0, value_start) + 1
            unit, each = rule[5]
            for net, start, end in pools:
                if net != move.old:
                    continue
                pool = data[start:end].decode()
                yield LengthHit(start, end, pool, pool, TIED,
                                f"{what} {value} (line {line}) is tied to the pool {move.old}, which "
                                f"holds {2 ** (value - move.old.prefixlen)} /{value} {unit}, as {move.new} "
                                f"it would hold {2 ** (value - move.new.prefixlen)}, {each}: decide the "
                                "pool and its mask size together by hand")


# -- round 7 theme 3: AKS Azure CNI's node subnet capacity ------------------------------------------

# Azure CNI (not overlay, no pod subnet) takes an address of the node subnet for each node and for each
# pod a node may run: (nodes + 1 for the upgrade surge) * (max pods + 1), plus Azure's 5 reserved
# addresses a subnet (AKS "Configure Azure CNI networking", "Plan IP addressing for your cluster");
# max pods 30 where the pool sets none (Azure CNI's default), one node where it sets no count
_AKS_RESERVED = 5
_AKS_MAX_PODS = 30
_AKS_POOL = lazy_re.compile(rb'(?m)^[ \t]*(?:default_node_pool[ \t]*\{'
                            rb'|resource[ \t]+"azurerm_kubernetes_cluster_node_pool"[ \t]+"[^"\n]*"[ \t]*\{)')
_AKS_SUBNET_REF = lazy_re.compile(rb'vnet_subnet_id[ \t]*=[ \t]*azurerm_subnet\.([A-Za-z0-9_-]+)\.id')
_AKS_NUMBER = lazy_re.compile(rb'(?m)^[ \t]*(node_count|max_count|max_pods)[ \t]*=[ \t]*([0-9]{1,6})[ \t]*$')


def _hcl_block(data: bytes, opened: int) -> int:
    """The end of the `{ }` block whose `{` is at `opened` (strings skipped)."""
    depth = 0
    for x in _TOKENS.finditer(data, opened):
        if x.group() == b"{":
            depth += 1
        elif x.group() == b"}":
            depth -= 1
            if depth == 0:
                return x.end()
    return len(data)


def aks_capacity(data: bytes, moves: Sequence[PrefixMove]) -> Iterator[LengthHit]:
    """An AKS cluster on Azure CNI whose node pools' `vnet_subnet_id` names an `azurerm_subnet` of
    the same file holding a resized network: where the old network held every pool's nodes and pods
    and the new one does not, the subnet literal is a `tied-length` residual saying how many
    addresses the pools need (a grow, or a shrink that still holds them, follows)."""
    if b"azurerm_kubernetes_cluster" not in data or b"vnet_subnet_id" not in data:
        return
    if re.search(rb'network_plugin[ \t]*=[ \t]*"azure"', data) is None or \
            re.search(rb'network_plugin_mode[ \t]*=[ \t]*"overlay"|pod_subnet_id', data) is not None:
        return  # kubenet, overlay or a pod subnet: the node subnet holds the nodes only
    needs: dict[bytes, list[tuple[int, int]]] = {}
    for x in _AKS_POOL.finditer(data):
        block = data[x.end() - 1:_hcl_block(data, x.end() - 1)]
        ref = _AKS_SUBNET_REF.search(block)
        if ref is None:
            continue
        numbers = {n.group(1): int(n.group(2)) for n in _AKS_NUMBER.finditer(block)}
        nodes = numbers.get(b"max_count", numbers.get(b"node_count", 1))
        needs.setdefault(ref.group(1), []).append((nodes, numbers.get(b"max_pods", _AKS_MAX_PODS)))
    for name, pools in needs.items():
        head = re.search(rb'(?m)^[ \t]*resource[ \t]+"azurerm_subnet"[ \t]+"' + re.escape(name) +
                         rb'"[ \t]*\{', data)
        if head is None:
            continue
        need = sum((nodes + 1) * (pods + 1) for nodes, pods in pools)
        for x in _CIDR.finditer(data, head.end(), _hcl_block(data, head.end() - 1)):
            net = _network(x.group())
            found = _named_move(net, moves) if net is not None else None
            if net is None or found is None or found[1]:
                continue
            move = found[0]
            have, will = (n.num_addresses - _AKS_RESERVED for n in (move.old, move.new))
            if need <= have and need > will:
                text = x.group().decode()
                spelled = " + ".join(f"({nodes} + 1) x ({pods} + 1)" for nodes, pods in pools)
                yield LengthHit(x.start(), x.end(), text, text, TIED,
                                f"the AKS node subnet {move.old} (azurerm_subnet.{name.decode()}) holds the "
                                f"Azure CNI addresses its node pools need, {spelled} = {need} (nodes with "
                                "the "
                                f"upgrade surge, each with its max pods), and {move.new} holds {will} after "
                                f"Azure's {_AKS_RESERVED} reserved: decide the subnet and the pools' counts "
                                "together by hand")


# -- 20: Kea option-data inside the moved subnet's entry -------------------------------------------

_MASK_NAMES = (b"subnet-mask", b"1")
_BROADCAST_NAMES = (b"broadcast-address", b"28")


def _option(data: bytes, pos: int, layout: _Layout) -> tuple[bytes, Spans] | None:
    """The option-data entry's name (or code) around `pos` (its `data:` value), and the entries around it."""
    around = layout.around(pos)
    for i, span in enumerate(around):
        if len(list(_DATA_KEY.finditer(data, *span))) != 1:
            return None  # an entry of several options: no one name is this data's
        name = _one(_NAME_KEY, data, span) or _one(_CODE_KEY, data, span)
        if name is not None:
            return name.group(1), around[i + 1:]
    return None


def _subnet_of(data: bytes, around: Spans) -> IPNetwork | None:
    """The `subnet` of the innermost entry around that names one (None: none, or several)."""
    for span in around:
        subnets = list(_SUBNET_KEY.finditer(data, *span))
        if subnets:
            return _network(subnets[0].group(1)) if len(subnets) == 1 else None
    return None


def kea_options(data: bytes, moves: Sequence[PrefixMove], layout: _Layout) -> Iterator[LengthHit]:
    """A Kea option-data `subnet-mask` (code 1) or `broadcast-address` (code 28) whose data is the
    moved subnet's old mask or broadcast address, inside the entry whose `subnet` is that network;
    a `subnet-mask` inside another subnet's entry is that subnet's (`DROP`: no residual)."""
    if b"data" not in data or b"subnet" not in data:
        return
    for x in _DATA_KEY.finditer(data):
        value = x.group(1)
        if _QUAD.fullmatch(value) is None:
            continue
        option = _option(data, x.start(), layout)
        if option is None or option[0] not in (*_MASK_NAMES, *_BROADCAST_NAMES):
            continue
        net = _subnet_of(data, option[1])
        found = _named_move(net, moves) if net is not None else None
        text = value.decode()
        if net is not None and found is None and option[0] in _MASK_NAMES \
                and not any(net.overlaps(m.old) or net.overlaps(m.new) for m in moves):
            yield LengthHit(x.start(1), x.end(1), text, text, DROP, f"the subnet-mask option of {net}'s")
            continue
        if found is None or found[1] or found[0].old.version != 4:
            continue
        move = found[0]
        if option[0] in _MASK_NAMES and text == str(move.old.netmask):
            yield LengthHit(x.start(1), x.end(1), text, str(move.new.netmask), None,
                            f"the subnet-mask option of its subnet entry, {move.old}, which becomes "
                            f"{move.new}")
        elif option[0] in _BROADCAST_NAMES and move.is_broadcast(ipaddress.IPv4Address(text)) \
                and move.new_has_broadcast:
            yield LengthHit(x.start(1), x.end(1), text, str(move.new.broadcast_address), None,
                            f"the broadcast-address option of its subnet entry, {move.old}, which becomes "
                            f"{move.new}")


_SUBNET_ID = lazy_re.compile(rb"(?im)^[ \t]*(?:option[ \t]+ip6hint[ \t]+['\"]?|SubnetId[ \t]*=[ \t]*(?:0x)?)"
                             rb"([0-9A-Fa-f]{1,16})['\"]?[ \t]*$")


def _ids_past(data: bytes, moves: Sequence[PrefixMove], *, named: bool
              ) -> Iterator[tuple[re.Match[bytes], PrefixMove, int]]:
    """Each subnet ID written alone that a shrinking IPv6 move's old prefix held and its new one has
    no room for, with the move and the new prefix's count of IDs; `named`: in a file that names the
    move's old prefix (subnet_ids), or in one that names none (delegated_ids)."""
    if b"ip6hint" not in data and b"SubnetId" not in data:
        return
    shrinks = [m for m in moves if m.old.version == 6 and m.old.prefixlen < m.new.prefixlen <= 64]
    written = [m for m in shrinks if str(m.old.network_address).encode() in data]
    if not named and written:
        return  # subnet_ids' own: the prefix stands here
    for x in _SUBNET_ID.finditer(data):
        value = int(x.group(1), 16)
        for move in written if named else shrinks:
            room = 2 ** (64 - move.new.prefixlen)
            if room <= value < 2 ** (64 - move.old.prefixlen):
                yield x, move, room
                break


def subnet_ids(data: bytes, moves: Sequence[PrefixMove]) -> Iterator[LengthHit]:
    """An IPv6 /64 subnet ID written alone (OpenWrt `option ip6hint 'f000'`, networkd `SubnetId=0xf002`)
    in a file naming a network a shrink moves: an ID the old prefix held and the new one has no room
    for picks a subnet outside it, refused as an address outside would be (t36-33 finding 17)."""
    for x, move, room in _ids_past(data, moves, named=True):
        text = x.group(1).decode()
        yield LengthHit(x.start(1), x.end(1), text, text, OUTSIDE,
                        f"the subnet ID {text} picks a /64 of {move.old}, and {move.new} has IDs "
                        f"up to {room - 1:x} only, so the subnet it names lies outside the new "
                        "network: choose an ID inside it by hand, or a longer new network")


def delegated_ids(data: bytes, moves: Sequence[PrefixMove]) -> Iterator[LengthHit]:
    """subnet_ids' twin in a file naming no network a shrink moves (networkd's
    `[DHCPPrefixDelegation] SubnetId=`, an OpenWrt downstream's `ip6hint`): the prefix the ID picks
    from is delegated, not written here, so it is not known to be the moved one. An ID the new
    prefix has no room for is said (`tied-length`), not refused (sweep/delegated_ids.py reads these
    files across the repo: no match finds a file that names no address)."""
    for x, move, room in _ids_past(data, moves, named=False):
        text = x.group(1).decode()
        yield LengthHit(x.start(1), x.end(1), text, text, TIED,
                        f"the subnet ID {text} picks a /64 of a delegated prefix this file does not "
                        f"name; if that prefix is {move.old}, {move.new} has IDs up to {room - 1:x} "
                        "only and the subnet lies outside it: choose an ID inside it by hand, or "
                        "keep the line with a keep rule where the prefix is another")


def pool_hits(data: bytes, moves: Sequence[PrefixMove]) -> list[LengthHit]:
    """Every hit of this module's rules in one file, in order."""
    resized = [m for m in moves if m.resized]
    if not resized:
        return []
    hits = [*networkd_pools(data, resized), *dhcpd_prefix6(data, resized), *kube_lengths(data, resized),
            *delegation_hits(data, resized), *except_hits(data, resized), *tied_hits(data, resized),
            *limit_hits(data, resized), *aks_capacity(data, resized), *subnet_ids(data, resized)]
    if b"delegated" in data or (b"data" in data and b"subnet" in data):  # the rules that read entries
        layout = _Layout(data)
        hits += [*pd_pools(data, resized, layout), *kea_options(data, resized, layout)]
    return sorted(hits, key=lambda h: h.start)
