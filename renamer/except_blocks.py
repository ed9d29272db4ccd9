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

The same holds for every exclusion key beside the key it excludes from (t32-33 finding 02): Calico's
`nets` + `notNets`, Istio's `ipBlocks` + `notIpBlocks` and `remoteIpBlocks` + `notRemoteIpBlocks`
(a rule admits what the one names less what the other does): `not` + the key's name, or `not_`;
AWS IAM's `NotIpAddress` beside `IpAddress` in one `Condition` (`Not` + the key's name).
And for the exclusions `except_lines` reads in a rule's own syntax (JunOS `except`, ipset `nomatch`,
nftables `!=`, pf `!`; t32-33 finding 21), judged by `covering`, and those `except_views` reads in
other tools' grammars and through variables (t33-33 findings 02, 17, 20, 21).

Read in YAML block mappings (the two keys at one column of one mapping, the list in flow style or in
block style, indented or indentless: `except:` then `- E` at the key's own column, as kubernetes.io
writes it; t32-33 finding 01), in JSON or flow mappings on one line, and in HCL blocks (`=` for `:`:
the Terraform kubernetes provider's `ip_block { cidr = "..." except = [...] }`).
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Iterator, Sequence

from renamer import (
    acl_rules,
    deny_rules,
    dhcp_excludes,
    except_lines,
    except_moves,
    except_views,
    hba_rules,
    host_access,
    lazy_re,
    named_objects,
    numbered_rules,
    policy_denies,
    resolver_access,
    route_excepts,
)
from renamer.names import IPNetwork
from renamer.prefix_moves import LengthHit, PrefixMove

TOOL = "tool-refuses"  # as prefix_pools.TOOL
# the readers of rules whose order, priority or kind decides (t33-33 findings 22, 18, 08, 11; round 7)
_ORDERED = (acl_rules, numbered_rules, route_excepts, hba_rules, deny_rules, policy_denies, named_objects,
            host_access, resolver_access)

# An exclusion key at a line's start (a block mapping's key), or after `{` / `,` (a flow mapping,
# JSON): Kubernetes' and Cilium's `except` (of `cidr`), Calico's `notNets` (of `nets`), Istio's
# `notIpBlocks` / `notRemoteIpBlocks` (of `ipBlocks` / `remoteIpBlocks`): `not` + the key it excludes
# from (t32-33 finding 02).
_EXCEPT = lazy_re.compile(rb"(?m)(?:^([ \t]*(?:-[ \t]+)?)|(?<=[{,])[ \t]*)[\"']?"
                     rb"(except_?|[Nn]ot(?:_[a-z]|[A-Z])[A-Za-z_]*)[\"']?[ \t]*(?::|=(?![=>~]))")
_NET = re.compile(rb"(?<![0-9A-Za-z.:])((?:[0-9]{1,3}\.){3}[0-9]{1,3}|[0-9A-Fa-f]*:[0-9A-Fa-f:.]*)"
                  rb"/([0-9]{1,3})(?![0-9])")
_ITEM = lazy_re.compile(rb"[ \t]*-(?:[ \t]|\r?$)")
_OPENS = lazy_re.compile(rb"[ \t]*(?:-[ \t]+)?[\"']?[^\"'#:\n]+[\"']?[ \t]*:[ \t]*(?:#[^\n]*)?\r?")
_SCALAR = lazy_re.compile(rb"[^,}\]\n#]*")
_MOST_LINES = 30  # a mapping's lines, at most, on either side of its exclusion key


def _include_key(exclude: bytes) -> bytes:
    """The key an exclusion key excludes from: `except` -> `cidr`, `notNets` -> `nets`,
    `not_ip_blocks` -> `ip_blocks`."""
    if exclude in (b"except", b"except_"):  # Pulumi's Python SDK: `except_=` (`except` is a keyword)
        return b"cidr"
    rest = exclude[3:].lstrip(b"_")
    if exclude.startswith(b"Not"):  # AWS IAM's `NotIpAddress` beside `IpAddress`
        return rest
    return rest[:1].lower() + rest[1:]


def _network(text: bytes) -> IPNetwork | None:
    try:
        return ipaddress.ip_network(text.decode("ascii"), strict=False)
    except ValueError:
        return None


def _lines(data: bytes, pos: int) -> tuple[int, int]:
    end = data.find(b"\n", pos)
    return data.rfind(b"\n", 0, pos) + 1, len(data) if end < 0 else end


def _indent(text: bytes) -> int:
    return len(text) - len(text.lstrip(b" \t"))


def _mapping(data: bytes, line_start: int, column: int) -> tuple[int, int]:
    """The span of the YAML mapping whose key at `column` is on the line at `line_start`: its
    sibling keys at `column` and their values (indented past it, or an indentless list at it:
    `except:` then `- 10.0.48.0/25` at the same column, as kubernetes.io writes it; t32-33 finding 01)."""
    begin = line_start
    for _ in range(_MOST_LINES):  # up: sibling keys at `column`, the item's `- ` opener
        if begin == 0:
            break
        prev = data.rfind(b"\n", 0, begin - 1) + 1
        text = data[prev:begin - 1]
        indent = _indent(text)
        if not text.strip() or indent < column - 2:
            break
        stripped = text.lstrip(b" \t")
        if indent < column and not stripped.startswith(b"-"):
            break
        begin = prev
        if indent < column:  # the `- ` that opens the item
            break
    end = _lines(data, line_start)[1]
    opens = _OPENS.fullmatch(data, line_start, end) is not None  # an indentless list may follow
    for _ in range(_MOST_LINES):  # down: sibling keys at `column` and their values
        if end >= len(data):
            break
        nxt_end = _lines(data, end + 1)[1]
        text = data[end + 1:nxt_end]
        indent = _indent(text)
        if not text.strip() or indent < column:
            break
        if indent == column:
            if _ITEM.match(text):
                if not opens:
                    break  # the next item of the list the mapping is in
            else:
                opens = _OPENS.fullmatch(text) is not None
        end = nxt_end
    return begin, end


def _value(data: bytes, pos: int, column: int) -> tuple[int, int]:
    """The span of the value of the key whose colon ends at `pos`: a flow list (`[a, b]`, to its
    bracket), a scalar (to a `,`, `}` or the line's end), or a block value under the key (the lines
    indented past `column`, or an indentless list at it)."""
    line_end = _lines(data, pos)[1]
    at = pos
    while at < line_end and data[at:at + 1] in (b" ", b"\t", b"\"", b"'"):
        at += 1
    if data[at:at + 1] in (b"[", b"{"):  # a flow list or mapping, to its closing bracket
        return at, _closing(data, at)
    rest = data[at:line_end].strip()
    if rest and not rest.startswith(b"#"):
        scalar = _SCALAR.match(data, at)
        return at, scalar.end() if scalar is not None else line_end
    if column < 0:  # a flow mapping's key with nothing after it on its line
        return at, at
    end = value_end = line_end
    for _ in range(_MOST_LINES):
        if end >= len(data):
            break
        nxt_end = _lines(data, end + 1)[1]
        text = data[end + 1:nxt_end]
        if not text.strip() or text.lstrip().startswith(b"#"):
            end = nxt_end
            continue
        indent = _indent(text)
        if indent < column or (indent == column and not _ITEM.match(text)):
            break
        end = value_end = nxt_end
    return line_end, value_end


def _closing(data: bytes, at: int) -> int:
    """The end of the bracketed value opening at `at` (after its matching `]` or `}`)."""
    depth = 0
    for end in range(at, min(len(data), at + _MOST_LINES * 200)):
        char = data[end:end + 1]
        if char in (b"[", b"{"):
            depth += 1
        elif char in (b"]", b"}"):
            depth -= 1
            if depth == 0:
                return end + 1
    return at


def _networks(data: bytes, start: int, end: int) -> list[tuple[int, int, IPNetwork]]:
    return [(x.start(), x.end(), net) for x in _NET.finditer(data, start, end)
            if (net := _network(x.group())) is not None]


def covering(data: bytes, included: Sequence[IPNetwork], excluded: Sequence[tuple[int, int, IPNetwork]],
             moves: Sequence[PrefixMove], what: str) -> Iterator[LengthHit]:
    """Each exclusion of a rule that would cover the whole of an included network after its move
    (`what` names the rule's words for the reason): the rule would admit nothing of it."""
    for cidr in included:
        for move in moves:
            if not move.resized or cidr.version != move.old.version or cidr not in (move.old, move.new):
                continue
            for start, end, net in excluded:
                if net.version != cidr.version:
                    continue
                lands = except_moves.landing(net, move) if cidr == move.old else net
                if lands is None or not lands.supernet_of(move.new):  # type: ignore[arg-type]
                    continue
                text = data[start:end].decode("ascii")
                if what == "except of cidr":  # Kubernetes' ipBlock, Cilium's CIDR rules
                    yield LengthHit(start, end, text, text, TOOL,
                                    f"the except entry {text} of the cidr {move.old}, which becomes "
                                    f"{move.new}, would cover the whole new cidr ({lands}): the rule admits "
                                    "nothing and Kubernetes rejects an ipBlock whose except is not strictly "
                                    "inside its cidr: decide the policy by hand, or choose another new "
                                    "network")
                    continue
                yield LengthHit(start, end, text, text, TOOL,
                                f"the exclusion {text} of {cidr} ({what}), whose network {move.old} becomes "
                                f"{move.new}, would cover the whole new network ({lands}): the rule would "
                                "admit nothing of it: decide the rule by hand, or choose another new network")
    yield from except_moves.moved_hits(data, included, excluded, moves, what)  # t33-33 findings 09, 23


def except_hits(data: bytes, moves: Sequence[PrefixMove]) -> Iterator[LengthHit]:
    """Each exclusion entry that would cover its whole resized network after the move (module doc)."""
    if b"except" in data or b"not" in data or b"Not" in data:
        yield from _key_hits(data, moves)
    rules = list(except_lines.rules(data))
    views = [*rules, *except_views.rules(data)]
    if _names_a_move(data, [m for m in moves if m.resized]):  # t33-33 findings 22, 18, 08, 11
        wanted = {net for m in moves if m.resized for net in (m.old, m.new)}
        for module in _ORDERED:
            views += module.rules(data, wanted)
    seen = set()
    for included, excluded, what in views:
        for hit in covering(data, included, excluded, moves, what):
            if (hit.start, hit.end) not in seen:  # a rule another view finds again (pg_hba: two)
                seen.add((hit.start, hit.end))
                yield hit
    yield from except_moves.grouped_hits(data, rules, moves)  # t33-33 finding 23: `!a, !b, c`
    yield from dhcp_excludes.dhcp_hits(data, moves)  # round 7: a pool's exclusions cover it


def into_hits(data: bytes, moves: Sequence[PrefixMove]) -> Iterator[LengthHit]:
    """A move of the same length into a network a winning deny of the rule covers (round 7: `ufw deny
    from 10.9.0.0/16` before `ufw allow from 10.0.48.0/24` under `10.0.48.0/24: 10.9.0.0/24`): the rule
    would admit nothing of the moved network. A deny overlapping the old network moves with it (or is
    the author's); one covering part of the new network only is not judged (docs/reliability.md)."""
    moved = [m for m in moves if not m.resized and m.old != m.new]
    if not moved or not _names_a_move(data, moved):
        return
    wanted = {net for m in moved for net in (m.old, m.new)}
    views = [*except_lines.rules(data), *except_views.rules(data)]
    for module in _ORDERED:
        views += module.rules(data, wanted)
    seen = set()
    for included, excluded, what in views:
        if what == "except of cidr":
            continue  # Kubernetes' except outside its cidr: except_moves' rule
        for cidr in included:
            for move in moved:
                if cidr.version != move.old.version or cidr not in (move.old, move.new):
                    continue
                for start, end, net in excluded:
                    if net.version != cidr.version or net.overlaps(move.old) \
                            or not net.supernet_of(move.new) or (start, end) in seen:  # type: ignore[arg-type]
                        continue
                    seen.add((start, end))
                    text = data[start:end].decode("ascii")
                    yield LengthHit(start, end, text, text, TOOL,
                                    f"the exclusion {text} of {cidr} ({what}) covers {move.new}, where "
                                    f"{move.old} moves: the rule would admit nothing of it: decide the rule "
                                    "by hand, or choose another new network")


def _names_a_move(data: bytes, moves: Sequence[PrefixMove]) -> bool:
    """Whether the file may name a resized network, old or new (an IPv4 one by its address as
    written; an IPv6 one has too many spellings to tell)."""
    return any(m.old.version == 6 or str(m.old.network_address).encode() in data
               or str(m.new.network_address).encode() in data for m in moves)


def _key_hits(data: bytes, moves: Sequence[PrefixMove]) -> Iterator[LengthHit]:
    for included, excluded, what in key_rules(data):
        yield from covering(data, included, excluded, moves, what)


def moving_out_hits(data: bytes, moves: Sequence[PrefixMove]) -> Iterator[LengthHit]:
    """An `except` entry whose own network a move of the same length carries out of the cidr it is
    excepted from (t37-break, finding 10: Cilium's `toCIDRSet: cidr 192.168.0.0/16, except
    [192.168.42.0/24]` under `192.168.42.0/24: 10.20.42.0/24` was written, the except outside its
    cidr, which Kubernetes and Cilium reject): except_moves' rule, which `except_hits` runs for
    resized moves only."""
    same = [m for m in moves if not m.resized and m.old != m.new]
    if not same or not (b"except" in data or b"not" in data or b"Not" in data):
        return
    for included, excluded, what in key_rules(data):
        yield from except_moves.moved_hits(data, included, excluded, same, what)


def key_rules(data: bytes) -> Iterator[tuple[list[IPNetwork], list[tuple[int, int, IPNetwork]], str]]:
    """(included, excluded, what) of each exclusion key beside the key it excludes from."""
    for x in _EXCEPT.finditer(data):
        line_start = _lines(data, x.start())[0]
        column = len(x.group(1)) if x.group(1) is not None else -1  # -1: a flow mapping's own line
        begin, end = (_mapping(data, line_start, column) if column >= 0
                      else (line_start, _lines(data, x.start())[1]))
        name = _include_key(x.group(2))
        include = re.compile(rb"(?<![A-Za-z_])[\"']?" + re.escape(name) + rb"[\"']?[ \t]*(?::|=(?![=>~]))")
        # the include key of the same mapping: on the exclusion's line (a flow mapping) or at its column
        keys = [c for c in include.finditer(data, begin, end)
                if (at := _lines(data, c.start())[0]) == line_start or c.start() - at == column]
        if len(keys) != 1:
            continue
        included = [net for _, _, net in _networks(data, *_value(data, keys[0].end(), column))]
        excluded = _networks(data, *_value(data, x.end(), column))
        key = x.group(2).decode().rstrip("_")
        yield included, excluded, f"{key} of {name.decode()}"
