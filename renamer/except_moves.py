"""Exclusions judged together and exclusions that move (outside pass t33-33, findings 09 and 23),
pure and I/O free; `except_blocks.covering` adds these hits to its own.

`except_blocks.covering` judges each exclusion alone against a resized included network. Two more
shapes make a rule wrong after a move:

* several exclusions that, together, cover the whole included network after its move, though each
  is strictly inside it (a NetworkPolicy `cidr: 10.0.48.0/24, except: [10.0.48.0/26,
  10.0.48.64/26]` under `10.0.48.0/24: 10.0.48.0/25`; Postfix `!10.0.48.0/26, !10.0.48.64/26,
  10.0.48.0/24`): the rule admits nothing of the network. Judged as the union of the exclusions
  where they land (by their offsets), refused `tool-refuses` at the first exclusion's place; a rule
  whose exclusions already covered the old network is its author's and is left to them;
* an exclusion whose own network moves, out of the network it is excluded from ("the site but the
  lab": `cidr: 10.0.0.0/16, except: [10.0.48.0/24]` when the lab moves to 172.16.8.0/22): Kubernetes
  rejects an ipBlock whose except is not strictly inside its cidr (ValidateIPBlock: "must be a
  strict subset of `cidr`"), and any other rule would then admit the old range it kept out. Refused
  at the exclusion, before the sweep (the old network strictly inside, its new one not) and in a
  written file (a move's new network, not strictly inside the included one, which no move of this
  rule explains).
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterator, Sequence

from renamer import except_lines
from renamer.names import IPNetwork
from renamer.prefix_moves import LengthHit, PrefixMove

TOOL = "tool-refuses"  # as prefix_pools.TOOL


def landing(net: IPNetwork, move: PrefixMove) -> IPNetwork | None:
    """Where `net` lands under `move`: itself outside the old network, else by its offset (a longer
    length keeps its own, the old network itself becomes the new one); None past a shrunk end."""
    if net.version != move.old.version or not net.subnet_of(move.old):  # type: ignore[arg-type]
        return net
    offset = int(net.network_address) - int(move.old.network_address)
    if offset >= move.new.num_addresses:
        return None
    address = ipaddress.ip_address(int(move.new.network_address) + offset)
    length = net.prefixlen if net.prefixlen > move.old.prefixlen else move.new.prefixlen
    return ipaddress.ip_network(f"{address}/{length}", strict=False)


def _moved(net: IPNetwork, moves: Sequence[PrefixMove]) -> IPNetwork | None:
    """`net` after the moves (the longest old network holding it), None past a shrunk end."""
    holding = [m for m in moves if net.version == m.old.version and net.subnet_of(m.old)]  # type: ignore[arg-type]
    if not holding:
        return net
    return landing(net, max(holding, key=lambda m: m.old.prefixlen))  # the most specific move


def _covered(net: IPNetwork, parts: Sequence[IPNetwork]) -> bool:
    """Do `parts` together cover the whole of `net`?"""
    inside = [p for p in parts if p.version == net.version and p.overlaps(net)]
    clipped = [net if p.supernet_of(net) else p for p in inside]  # type: ignore[arg-type]
    merged = ipaddress.collapse_addresses(clipped)  # type: ignore[type-var]
    return sum(p.num_addresses for p in merged) >= net.num_addresses


def _strictly(inner: IPNetwork, outer: IPNetwork) -> bool:
    return inner.version == outer.version and inner != outer and inner.subnet_of(outer)  # type: ignore[arg-type]


def _inside(inner: IPNetwork, outer: IPNetwork) -> bool:
    """Inside or equal: an except that lands on its whole cidr is `covering`'s, not a stray."""
    return inner.version == outer.version and inner.subnet_of(outer)  # type: ignore[arg-type]


def _kept_in(after: IPNetwork, cidr: IPNetwork, moves: Sequence[PrefixMove]) -> bool:
    """Is an exclusion that moves to `after` still inside `cidr` after the moves? Strictly where the
    cidr stays (an except grown onto its whole cidr: `cidr: 10.0.0.0/16, except: [10.0.0.0/24]` under
    `10.0.0.0/24: 10.0.0.0/16`); inside or equal where the cidr moves too, `covering`'s case."""
    cidr_after = _moved(cidr, moves) or cidr
    return _strictly(after, cidr_after) or (cidr_after != cidr and _inside(after, cidr_after))


def _is_new(net: IPNetwork, moves: Sequence[PrefixMove]) -> bool:
    return any(net.version == m.new.version and net == m.new and m.new != m.old for m in moves)


def _k8s(what: str) -> bool:
    return what == "except of cidr"


def moved_hits(data: bytes, included: Sequence[IPNetwork], excluded: Sequence[tuple[int, int, IPNetwork]],
               moves: Sequence[PrefixMove], what: str) -> Iterator[LengthHit]:
    """Finding 23 (exclusions together) and finding 09 (an exclusion that moves out): module doc."""
    yield from _together(data, included, excluded, moves, what)
    yield from _moving_out(data, included, excluded, moves, what)


def _together(data: bytes, included: Sequence[IPNetwork], excluded: Sequence[tuple[int, int, IPNetwork]],
              moves: Sequence[PrefixMove], what: str) -> Iterator[LengthHit]:
    for cidr in included:
        for move in moves:
            if not move.resized or cidr.version != move.old.version or cidr not in (move.old, move.new):
                continue
            mine = [(s, e, n) for s, e, n in excluded if n.version == cidr.version]
            if len(mine) < 2:
                continue  # one exclusion alone: except_blocks.covering judges it
            before = cidr == move.old
            lands = [landing(n, move) if before else n for _, _, n in mine]
            if any(x is not None and x.supernet_of(move.new) for x in lands):  # type: ignore[arg-type]
                continue  # one covers it alone: except_blocks.covering says so
            if not _covered(move.new, [x for x in lands if x is not None]):
                continue
            if before and _covered(move.old, [n for _, _, n in mine]):
                continue  # they covered the old network already: the author's rule, not the move's
            start, end, _ = mine[0]
            text = data[start:end].decode("ascii")
            words = ", ".join(data[s:e].decode("ascii") for s, e, _ in mine)
            rule = ("Kubernetes accepts it (each except is strictly inside) and the rule admits nothing"
                    if _k8s(what) else "the rule would admit nothing of it")
            yield LengthHit(start, end, text, text, TOOL,
                            f"the exclusions {words} of {cidr} ({what}), whose network {move.old} becomes "
                            f"{move.new}, would together cover the whole new network: {rule}: decide the "
                            "rule by hand, or choose another new network")


def _moving_out(data: bytes, included: Sequence[IPNetwork], excluded: Sequence[tuple[int, int, IPNetwork]],
                moves: Sequence[PrefixMove], what: str) -> Iterator[LengthHit]:
    for start, end, net in excluded:
        homes = [c for c in included if c.version == net.version]
        if not homes:
            continue
        text = data[start:end].decode("ascii")
        after = _moved(net, moves)
        if after is not None and after != net:  # before the sweep: the exclusion's own network moves
            if not _k8s(what):
                continue  # a first-match deny that moves keeps out its network at its new place
            strays = [c for c in homes if _strictly(net, c) and not _kept_in(after, c, moves)]
            if not strays:
                continue
            cidr = strays[0]
            cidr_after = _moved(cidr, moves) or cidr
            yield LengthHit(start, end, text, text, TOOL, _why(text, str(after), cidr, cidr_after, what))
        elif _k8s(what) and _is_new(net, moves) and not any(_inside(net, c) for c in homes) \
                and not any(_is_new(c, moves) for c in homes):  # a written file
            cidr = homes[0]
            yield LengthHit(start, end, text, text, TOOL, _why(text, text, cidr, cidr, what, written=True))


Rule = tuple[Sequence[IPNetwork], Sequence[tuple[int, int, IPNetwork]], str]


def grouped_hits(data: bytes, rules: Sequence[Rule],
                 moves: Sequence[PrefixMove]) -> Iterator[LengthHit]:
    """Finding 23 for rules read one exclusion at a time, the first match deciding (a key's `!` list:
    Postfix's `mynetworks = !a, !b, c`; nginx's `deny a; deny b;` before `allow c;` in one block;
    iptables' DROP rules before the same ACCEPT): the exclusions before the same included networks,
    judged together."""
    groups: dict[tuple[str, object, tuple[IPNetwork, ...]], list[tuple[int, int, IPNetwork]]] = {}
    for included, excluded, what in rules:
        if len(excluded) != 1 or not included:
            continue
        groups.setdefault((what, _where(data, excluded[0][0], what), tuple(included)), []).append(excluded[0])
    for (what, _, included), excluded in groups.items():
        if len(excluded) > 1:
            yield from _together(data, included, excluded, moves, what)


def _where(data: bytes, pos: int, what: str) -> object:
    """What holds one rule's exclusions: nginx's block (the file where there is none) and an
    iptables chain's rules (those before the same ACCEPT rules, which `included` already names);
    else the line (a key's `!` list)."""
    if what.startswith("nginx's"):
        return except_lines.block(data, pos) or (0, len(data))
    if what.startswith("iptables'"):
        return (0, len(data))
    return data.count(b"\n", 0, pos)


def _why(text: str, after: str, cidr: IPNetwork, cidr_after: IPNetwork, what: str,
         written: bool = False) -> str:
    head = (f"the exclusion {text}, a moved network's new one, is not strictly inside {cidr} ({what})"
            if written else
            f"the exclusion {text} of {cidr} ({what}) moves to {after}, which is not strictly inside "
            f"{cidr_after}")
    if _k8s(what):
        return (f"{head}: Kubernetes rejects an ipBlock whose except is not a strict subset of its cidr: "
                "decide the policy by hand (the except's new place, or a cidr of its own)")
    return (f"{head}: the rule would no longer keep out what it kept out (the old range would be "
            "admitted): decide the rule by hand")
