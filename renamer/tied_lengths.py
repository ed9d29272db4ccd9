"""Per-node and per-subnet lengths tied to a pool in the same entry (t32-33 findings 06, 17, 18), pure
and I/O free; `prefix_pools.pool_hits` adds these hits to its own.

prefix_pools.py's `_KUBE` table reads a length key beside its pool keys anywhere in one YAML
document: kube-controller-manager's, Calico's, Cilium's, flannel's, kubespray's. The lengths here sit
under keys too common to pair across a document (`size`, `cidr`, `cidrMask`), or in a command line,
so each is paired only with the pools of the innermost entry around it that names one (a `{...}`,
`[...]` or `(...)`, a YAML block, the line itself; at most `_DEPTH` entries out):

* Docker's `default-address-pools: [{"base": "10.0.48.0/20", "size": 24}]` (daemon.json, or YAML
  vars that render it) and dockerd's `--default-address-pool base=10.0.48.0/20,size=24`;
* `docker swarm init --default-addr-pool 10.0.48.0/20 --default-addr-pool-mask-length 24`;
* OpenShift's install-config `clusterNetwork: - cidr: 10.128.0.0/14` with `hostPrefix: 23`;
* Kubernetes' ClusterCIDR `perNodeHostBits: 8` beside `ipv4: 10.0.48.0/20` (host bits: a /24 a node);
* Pulumi awsx `new awsx.ec2.Vpc(.., {cidrBlock: "10.0.48.0/24", subnetSpecs: [{cidrMask: 26}]})`
  (`cidr_block=`/`cidr_mask=` in Python) and AWS CDK `ec2.Vpc(.., ip_addresses=ec2.IpAddresses.cidr(
  "10.0.48.0/24"), subnet_configuration=[ec2.SubnetConfiguration(.., cidr_mask=26)])` (`cidrMask:`
  in TypeScript, `cidr=` in CDK v1).

Each length names the size of one unit (a network, a node's range, a subnet) carved from the pool. A
resize that leaves the pool shorter than one unit makes a file its tool refuses (dockerd and swarm
carve nothing, the OpenShift installer requires hostPrefix at least the cidr's length, awsx and CDK
cannot lay out a subnet): refused (`tool-refuses`), before the sweep and in a written file. A shrink
that leaves the pool holding fewer units than before: a `tied-length` residual on the pool literal
saying how many (decided with the length by hand, never the pool alone). A length already shorter
than the old pool means something this module does not know: no hit.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterator, Sequence

from renamer import lazy_re
from renamer.delegation_lengths import named_move, network_of
from renamer.prefix_moves import LengthHit, PrefixMove

TOOL = "tool-refuses"  # as prefix_pools.TOOL
TIED = "tied-length"  # as prefix_pools.TIED

_SPAN = 4096  # the longest entry read (bytes): a length and its pool stand close together
_LINES = 40  # how far up the line opening a block is looked for
_DEPTH = 5  # entries out from the length at most: CDK's cidr_mask is four in from its IpAddresses.cidr
_KEY_END = rb"(?![A-Za-z0-9_-])[\"']?"
_CIDR = rb"((?:[0-9]{1,3}\.){3}[0-9]{1,3}/[0-9]{1,3}|[0-9A-Fa-f]*:[0-9A-Fa-f:]*/[0-9]{1,3})(?![0-9])"

# (the length key, its separators, the pool keys, what the length is, its tool's rule)
_RULES = [
    (rb"size", rb"[ \t]*[:=][ \t]*", rb"base", "Docker's default-address-pools size",
     "dockerd carves no network of that size from a smaller base (every network create from the pool fails)"),
    (rb"--default-addr-pool-mask-length", rb"(?:[ \t]*=[ \t]*|[ \t]+)", rb"--default-addr-pool",
     "docker swarm's --default-addr-pool-mask-length",
     "docker swarm init refuses a mask length shorter than the pool's"),
    (rb"hostPrefix", rb"[ \t]*:[ \t]*", rb"cidr", "OpenShift's clusterNetwork hostPrefix",
     "the installer requires hostPrefix to be at least the cidr's length"),
    (rb"cidrMask|cidr_mask", rb"[ \t]*[:=][ \t]*", rb"cidrBlock|cidr_block|cidr|IpAddresses\.cidr",
     "the VPC's subnet cidrMask (Pulumi awsx, AWS CDK)",
     "awsx and CDK cannot lay out a subnet longer than the VPC"),
    (rb"prefix", rb"[ \t]*:[ \t]*", rb"ipv4", "netlab's addressing pool prefix",
     "netlab carves no link subnet of that length from a shorter pool (its check: the subnet prefix "
     "length is not longer than the pool prefix)"),
    (rb"prefix6", rb"[ \t]*:[ \t]*", rb"ipv6", "netlab's addressing pool prefix6",
     "netlab carves no link subnet of that length from a shorter pool (its check: the subnet prefix "
     "length is not longer than the pool prefix)"),
    (rb"default_prefixlen|min_prefixlen|--default-prefix-length|--min-prefix-length",
     rb"(?:[ \t]*[:=][ \t]*|[ \t]+)", rb"prefixes|--pool-prefix", "the OpenStack subnet pool's prefix length",
     "Neutron refuses a subnet pool whose prefixes are longer than its min_prefixlen "
     "(illegal prefix bounds)"),
    (rb"maskSize", rb"[ \t]*:[ \t]*", rb"cidrs", "Cilium's CiliumPodIPPool maskSize",
     "Cilium's multi-pool IPAM carves no per-node block of that size from a smaller pool"),
    (rb"allocation_default_netmask_length|allocation_min_netmask_length|AllocationDefaultNetmaskLength|"
     rb"AllocationMinNetmaskLength", rb"[ \t]*[:=][ \t]*", rb"cidr|Cidr",
     "the AWS VPC IPAM pool's allocation netmask length",
     "AWS IPAM allocates no CIDR of that length from a smaller provisioned CIDR"),
    # host bits, not a length: the unit is the family's longest length less them
    (rb"perNodeHostBits", rb"[ \t]*:[ \t]*", rb"ipv4|ipv6", "Kubernetes ClusterCIDR's perNodeHostBits",
     "the node IPAM controller carves no node range from a pool smaller than one"),
]
# a shrink leaving the pool 2 ** 24 units or more (netlab's IPv6 loopback pool, `prefix6: 128` beside a /48
# made a /56: 2 ** 72 loopbacks) leaves more than any tool hands out: no residual
_PLENTY = 24
_HOST_BITS = {len(_RULES) - 1}  # the rules whose number counts host bits
_LENGTH = lazy_re.compile(
    rb"(?<![A-Za-z0-9_.-])[\"']?(" + rb"|".join(r[0] for r in _RULES) + rb")" + _KEY_END +
                     rb"(?:[ \t]*[:=][ \t]*|[ \t]+)[\"']?([0-9]{1,3})(?![0-9.])")
_POOLS = [re.compile(rb"(?<![A-Za-z0-9_-])[\"']?(?:" + r[2] + rb")" + _KEY_END +
                     rb"(?:[ \t]*[:=(][ \t]*|[ \t]+)(?:\r?\n[ \t]*-[ \t]+)?[\"'(\[]?[ \t]*[\"']?" + _CIDR)
          for r in _RULES]
_WORDS = (b"size", b"mask-length", b"hostPrefix", b"cidrMask", b"cidr_mask", b"perNodeHostBits", b"prefix",
          b"maskSize", b"etmask_length", b"NetmaskLength")
_TOKENS = lazy_re.compile(rb'"(?:[^"\\\n]|\\.)*"|\'(?:[^\'\\\n]|\\.)*\'|[][(){}]')
_PAIRS = {b")": b"(", b"]": b"[", b"}": b"{"}

Span = tuple[int, int]


def _brackets(data: bytes) -> list[Span]:
    """Every `{...}`, `[...]`, `(...)` of the file (strings skipped); none where they do not pair up."""
    out: list[Span] = []
    opened: list[tuple[bytes, int]] = []
    for x in _TOKENS.finditer(data):
        c = x.group()
        if c in (b"(", b"[", b"{"):
            opened.append((c, x.start()))
        elif c in _PAIRS:
            if not opened or opened[-1][0] != _PAIRS[c]:
                return []
            out.append((opened.pop()[1], x.end()))
    return sorted(out) if not opened else []


def _line(data: bytes, pos: int) -> Span:
    end = data.find(b"\n", pos)
    return data.rfind(b"\n", 0, pos) + 1, len(data) if end < 0 else end


_LEAD = lazy_re.compile(rb"[ \t]*")


def _indent_at(data: bytes, start: int, end: int) -> int | None:
    """The indentation of the line [start, end); None: a blank or comment line."""
    lead = _LEAD.match(data, start, end)
    at = lead.end() if lead is not None else start
    if at >= end or data[at:at + 1] in (b"\r", b"#") or data.startswith(b"//", at):
        return None
    return at - start


def _block_end(data: bytes, end: int, level: int, limit: int) -> int | None:
    """Where the block of a line indented `level` and ending at `end` ends: before the first line
    after it indented no more than it; None where it runs past `limit`."""
    while end < len(data):
        if end > limit:
            return None
        start, after = _line(data, end + 1)
        indent = _indent_at(data, start, after)
        if indent is not None and indent <= level:
            break
        end = after
    return end


def _blocks(data: bytes, pos: int) -> list[Span]:
    """The indentation blocks around `pos` no longer than `_SPAN`, innermost first: each opened by
    the nearest line above indented less, up to the first line after it indented no more."""
    out: list[Span] = []
    start, end = _line(data, pos)
    own = _indent_at(data, start, end)
    while own is not None and own > 0 and start > 0:
        at = start
        head = None
        for _ in range(_LINES):
            if at <= 0 or pos - at >= _SPAN:
                break
            s, e = _line(data, at - 1)
            level = _indent_at(data, s, e)
            if level is not None and level < own:
                head = (s, e, level)
                break
            at = s
        if head is None:
            break
        s, e, level = head
        close = _block_end(data, e, level, s + _SPAN)
        if close is None:
            break
        out.append((s, close))
        start, own = s, level
    return out


def _entries(data: bytes, pos: int, brackets: list[Span], starts: list[int]) -> list[Span]:
    """The entries around `pos` no longer than `_SPAN`, innermost first: its line, the brackets and
    blocks around it (`starts`: the brackets' starts, in order)."""
    start, end = _line(data, pos)
    first = bisect.bisect_left(starts, pos - _SPAN)
    last = bisect.bisect_left(starts, pos)
    around = {(s, e) for s, e in brackets[first:last] if pos < e and e - s <= _SPAN}
    around |= set(_blocks(data, pos)) | ({(start, end)} if end - start <= _SPAN else set())
    own = _indent_at(data, start, end)
    if own is not None and data[start + own:end].startswith(b"- "):  # a YAML list item: the lines under it
        close = _block_end(data, end, own, start + _SPAN)
        if close is not None:
            around.add((start, close))
    return sorted(around, key=lambda span: span[1] - span[0])


_IPAM_POOL = lazy_re.compile(
    rb'^[ \t]*resource[ \t]+"aws_vpc_ipam_pool"[ \t]+"([A-Za-z0-9_-]+)"[ \t]*\{', re.M)


def _fed(data: bytes, pos: int, brackets: list[Span]) -> list[Span]:
    """The blocks feeding Terraform's `resource "aws_vpc_ipam_pool" "NAME"` around `pos` its CIDRs: each
    innermost `{...}` naming `aws_vpc_ipam_pool.NAME.id` (an `aws_vpc_ipam_pool_cidr`)."""
    heads = list(_IPAM_POOL.finditer(data, 0, pos))
    head = heads[-1] if heads else None
    if head is None or not any(s == head.end() - 1 and pos < e for s, e in brackets):
        return []
    out: list[Span] = []
    named = rb"(?<![A-Za-z0-9_])aws_vpc_ipam_pool\." + re.escape(head.group(1)) + rb"\.id\b"
    for ref in re.finditer(named, data):
        around = [(s, e) for s, e in brackets if s < ref.start() and ref.end() < e and e - s <= _SPAN]
        if around:
            out.append(min(around, key=lambda span: span[1] - span[0]))
    return out


def tied_hits(data: bytes, moves: Sequence[PrefixMove]) -> Iterator[LengthHit]:
    """Each length of `_RULES` tied to a resized pool of its entry (module doc)."""
    if not any(w in data for w in _WORDS):
        return
    brackets: list[Span] | None = None
    starts: list[int] = []
    seen: set[tuple[int, int]] = set()
    live: dict[int, bool] = {}  # per rule: whether any of its pool keys names a resized network
    for x in _LENGTH.finditer(data):
        index = next(i for i, r in enumerate(_RULES) if re.fullmatch(r[0], x.group(1)))
        rule, pools = _RULES[index], _POOLS[index]
        if index not in live:  # a file of many `size:` keys and no moved pool costs one search
            live[index] = any(named_move(network_of(p.group(1)), moves) for p in pools.finditer(data))
        if not live[index]:
            continue
        if data[_line(data, x.start())[0]:x.start()].lstrip().startswith((b"#", b"//")):
            continue  # a commented-out length: no tool reads it
        separator = data[x.end(1):x.start(2)].strip(b"\"'")
        if re.fullmatch(rule[1], separator) is None:
            continue
        if brackets is None:
            brackets = _brackets(data)
            starts = [b[0] for b in brackets]
        number = int(x.group(2))
        named: list[re.Match[bytes]] = []
        for span in _entries(data, x.start(), brackets, starts)[:_DEPTH]:
            named = list(pools.finditer(data, *span))
            if named:
                break
        if not named and rule[2] == b"cidr|Cidr":
            named = [p for span in _fed(data, x.start(), brackets) for p in pools.finditer(data, *span)]
        for pool in named:
            net = network_of(pool.group(1))
            found = named_move(net, moves)
            if net is None or found is None or number > net.max_prefixlen:
                continue
            move, after = found
            value = net.max_prefixlen - number if index in _HOST_BITS else number
            if value < move.old.prefixlen:
                continue  # shorter than the old pool already: not this rule's length
            what, text = rule[3], x.group(2).decode()
            if index in _HOST_BITS:
                what = f"{what} {number} (a /{value} per node), the length"
            fix = f"at most {net.max_prefixlen - move.new.prefixlen}" if index in _HOST_BITS \
                else f"at least {move.new.prefixlen}"
            if value < move.new.prefixlen and (x.start(2), x.end(2)) not in seen:
                seen.add((x.start(2), x.end(2)))
                yield LengthHit(x.start(2), x.end(2), text, text, TOOL,
                                f"{what} {value} is tied to the pool {move.old}, which becomes {move.new}: "
                                f"no /{value} fits in a /{move.new.prefixlen}, {rule[4]}: set it by hand "
                                f"({fix}), or choose a longer new network")
            elif value >= move.new.prefixlen and not after and move.new.prefixlen > move.old.prefixlen \
                    and value - move.new.prefixlen < _PLENTY and (pool.start(1), pool.end(1)) not in seen:
                seen.add((pool.start(1), pool.end(1)))
                literal = pool.group(1).decode()
                line = data.count(b"\n", 0, x.start()) + 1
                yield LengthHit(pool.start(1), pool.end(1), literal, literal, TIED,
                                f"{what} {value} (line {line}) is tied to the pool {move.old}, which holds "
                                f"{2 ** (value - move.old.prefixlen)} /{value} units, as {move.new} it would "
                                f"hold {2 ** (value - move.new.prefixlen)}: decide the pool and its length "
                                "together by hand")
