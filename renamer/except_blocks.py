"""An `except` list beside a resized `cidr` (outside pass t31-33, finding 18), pure and I/O free;
`prefix_pools.pool_hits` adds these hits to its own.

A Kubernetes NetworkPolicy's `ipBlock: {cidr: C, except: [E, ...]}` (and Cilium's `fromCIDRSet` /
`toCIDRSet` entries, Calico's alike) admits C less each E, and Kubernetes' validation
(ValidateIPBlock) requires each E strictly inside C. A shrink in place (`10.0.48.0/24:
10.0.48.0/25`) rewrites C and leaves an E of the new length or shorter as written (a longer length
keeps its own): E then covers the whole new C, the rule admits nothing and the API server rejects
the object. Such an E (as it will read after the move, by its offset) is refused `tool-refuses` at
its file:line, the file left as it is; in a file already written (C at the new network) it is
refused the same way, so verify does not say OK.

Read in YAML block mappings (the `cidr` and `except` keys at one column of one mapping, the list in
flow or block style) and in JSON or flow mappings on one line.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Iterator, Sequence

from renamer.names import IPNetwork
from renamer.prefix_moves import LengthHit, PrefixMove

TOOL = "tool-refuses"  # as prefix_pools.TOOL

# at a line's start (a block mapping's key), or after `{` / `,` (a flow mapping, JSON)
_EXCEPT = re.compile(rb"(?m)(?:^([ \t]*(?:-[ \t]+)?)|(?<=[{,])[ \t]*)[\"']?except[\"']?[ \t]*:")
_CIDR_KEY = re.compile(rb"[\"']?cidr[\"']?[ \t]*:[ \t]*[\"']?([0-9A-Fa-f.:]+/[0-9]{1,3})")
_NET = re.compile(rb"(?<![0-9A-Za-z.:])((?:[0-9]{1,3}\.){3}[0-9]{1,3}|[0-9A-Fa-f]*:[0-9A-Fa-f:.]*)"
                  rb"/([0-9]{1,3})(?![0-9])")
_MOST_LINES = 30  # a mapping's lines, at most, on either side of its `except`


def _network(text: bytes) -> IPNetwork | None:
    try:
        return ipaddress.ip_network(text.decode("ascii"), strict=False)
    except ValueError:
        return None


def _lines(data: bytes, pos: int) -> tuple[int, int]:
    end = data.find(b"\n", pos)
    return data.rfind(b"\n", 0, pos) + 1, len(data) if end < 0 else end


def _mapping(data: bytes, line_start: int, column: int) -> tuple[int, int, int]:
    """The span of the YAML mapping whose key at `column` is on the line at `line_start`, and the
    end of that key's own value (the lines under it indented past `column`)."""
    begin = line_start
    for _ in range(_MOST_LINES):  # up: sibling keys at `column`, the item's `- ` opener
        if begin == 0:
            break
        prev = data.rfind(b"\n", 0, begin - 1) + 1
        text = data[prev:begin - 1]
        indent = len(text) - len(text.lstrip(b" \t"))
        if not text.strip() or indent < column - 2:
            break
        stripped = text.lstrip(b" \t")
        if indent < column and not stripped.startswith(b"-"):
            break
        begin = prev
        if indent < column:  # the `- ` that opens the item
            break
    value_end = end = _lines(data, line_start)[1]
    below = True
    for _ in range(_MOST_LINES):  # down: the key's own value, then sibling keys at `column`
        if end >= len(data):
            break
        nxt_end = _lines(data, end + 1)[1]
        text = data[end + 1:nxt_end]
        indent = len(text) - len(text.lstrip(b" \t"))
        if not text.strip() or indent < column or (indent == column and text.lstrip().startswith(b"-")):
            break
        if indent == column:
            below = False
        end = nxt_end
        if below:
            value_end = end
    return begin, end, value_end


def _after(net: IPNetwork, move: PrefixMove) -> IPNetwork | None:
    """Where `net`, a network inside the move's old one, lands by its offset (None: outside the new)."""
    if not net.subnet_of(move.old):  # type: ignore[arg-type]
        return net
    offset = int(net.network_address) - int(move.old.network_address)
    if offset >= move.new.num_addresses:
        return None
    address = ipaddress.ip_address(int(move.new.network_address) + offset)
    # a longer length keeps its own; the old network itself becomes the new one
    length = net.prefixlen if net.prefixlen > move.old.prefixlen else move.new.prefixlen
    return ipaddress.ip_network(f"{address}/{length}", strict=False)


def except_hits(data: bytes, moves: Sequence[PrefixMove]) -> Iterator[LengthHit]:
    """Each `except` entry that would cover its whole resized `cidr` after the move (module doc)."""
    if b"except" not in data or b"cidr" not in data:
        return
    for x in _EXCEPT.finditer(data):
        line_start = _lines(data, x.start())[0]
        column = len(x.group(1)) if x.group(1) is not None else -1  # -1: a flow mapping's own line
        begin, end, value_end = (_mapping(data, line_start, column) if column >= 0
                                 else (line_start, _lines(data, x.start())[1], _lines(data, x.start())[1]))
        # the `cidr` key of the same mapping: on the except's line (a flow mapping) or at its column
        cidrs = [c for c in _CIDR_KEY.finditer(data, begin, end)
                 if (at := _lines(data, c.start())[0]) == line_start or c.start() - at == column]
        if len(cidrs) != 1:
            continue
        cidr = _network(cidrs[0].group(1))
        for move in moves:
            if cidr is None or not move.resized or cidr.version != move.old.version:
                continue
            if cidr != move.old and cidr != move.new:
                continue
            for e in _NET.finditer(data, x.end(), value_end):
                net = _network(e.group())
                if net is None or net.version != cidr.version:
                    continue
                lands = _after(net, move) if cidr == move.old else net
                if lands is None or not lands.supernet_of(move.new):  # type: ignore[arg-type]
                    continue
                text = e.group().decode()
                yield LengthHit(e.start(), e.end(), text, text, TOOL,
                                f"the except entry {text} of the cidr {move.old}, which becomes {move.new}, "
                                f"would cover the whole new cidr ({lands}): the rule admits nothing and "
                                "Kubernetes rejects an ipBlock whose except is not strictly inside its cidr: "
                                "decide the policy by hand, or choose another new network")
