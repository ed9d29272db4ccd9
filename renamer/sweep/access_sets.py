"""A network literal in an access rule around a renamed address (break-it round 21, finding 29).

Under an address rename alone (`10.0.0.70 -> 10.0.1.70`), an access rule's network literal is a
set of addresses, not the host: `Allow from 10.0.0.70/30` rewritten to `10.0.1.70/30` moves a rule
for four addresses (the neighbours that did not move lose access, unknown ones gain it), and
`allow 10.0.0.64/29;` left as it is no longer admits the renamed host. Either way a decision the
operator must make: in an access rule's context (`allow`, `deny`, `Allow from`, iptables `-s`/`-d`,
`hosts allow`, `trusted_*`, `allowed_ips`, `mynetworks`, `set_real_ip_from`, `cidr_blocks`, ...)
a network literal (a prefix length or a dotted mask, not /32) holding a renamed address, where it
spells that address or the new address lies outside it, is a residual `access-set`, nothing of it
rewritten (a network holding both, `allow 10.0.0.0/24` under `.12 -> .42`, admits the host as
before). An interface's `address 10.0.0.70/24` is no access rule and follows as before; a literal
a network move renames is that move's.
"""

from __future__ import annotations

import functools
import ipaddress

from renamer import except_blocks, lazy_re, mask_nets, wide_access
from renamer.access_nets import NET, in_access_rule, in_route_rule
from renamer.names import IPNetwork
from renamer.occurrences import Match

REASON = "access-set"
_LEADING_ZERO = lazy_re.compile(rb"(?:^|\.)0[0-9]")


def might_hold(data: bytes) -> bool:
    return (b"/" in data and NET.search(data) is not None) or mask_nets.might_hold(data)


def access_matches(data: bytes, matches: list[Match], renamed: list[tuple[str, str]]) -> list[Match]:
    """`matches` with each network literal of an access rule holding a renamed address refused (its
    own match, where the address stands in it) or added as a refused match."""
    olds = _renamed_v4(tuple(renamed))
    if not olds:
        return matches
    out = list(matches)
    added: list[Match] = []
    excepted: list[tuple[list[IPNetwork], list[IPNetwork]]] | None = None  # each cidr's excepts, read once
    # `10.0.0.72/29`, and `10.0.0.72 255.255.255.248` / `permit 10.0.0.72 0.0.0.7` with the mask apart
    # (mask_nets.py; t32 round 25, finding 03): one rule for both spellings
    spaced = list(mask_nets.SPACED.finditer(data)) if mask_nets.might_hold(data) else []
    for found, apart in [*((x, False) for x in NET.finditer(data)), *((x, True) for x in spaced)]:
        # integer arithmetic first: most literals of a file hold no renamed address, and building an
        # ipaddress object for each of them was most of this reader's cost on a homelab repo
        if apart:
            length = mask_nets.length_of(found.group("mask"))
            span = None if length is None else _span(found.group("addr"), str(length).encode())
        else:
            span = _span(found.group("addr"), found.group("len"))
        if span is None:
            continue
        low, high = span
        holding = [(old, new, new_int) for old_int, old, new, new_int in olds if low <= old_int <= high]
        if not holding:
            continue
        start, end = found.start(), found.end()
        over = [i for i, m in enumerate(out) if m.start < end and start < m.end]
        # spelled in the literal (rewriting moves the rule), or the new address outside it (the host loses
        # access); a network holding both the old and the new address admits the host as before
        inside = [(old, new) for old, new, new_int in holding if over or not low <= new_int <= high]
        if not inside:
            continue
        # a literal with no host bits set, wider than a point-to-point /31 (`10.0.0.68/30`), spelling
        # the renamed address is a network in any context, never that host's own address (t31 sweep
        # finding 01): rewritten, it moves the set for its neighbours too
        network = bool(over) and high - low >= 3 and int(ipaddress.IPv4Address(
            found.group("addr").decode())) == low and low in {o for o, *_ in olds}
        ruled = in_route_rule(data, start) if apart else in_access_rule(data, start)
        if not network and not ruled:
            continue
        if any(out[i].kind == "network" or out[i].refused or out[i].kept for i in over):
            continue  # a network move's literal, or decided already
        if not over and all(wide_access.list_admits(data, start, end, ipaddress.IPv4Address(new))
                            for _, new in inside):
            continue  # `allow 192.0.2.0/24; allow 198.51.100.0/24;`: the list admits the new address too
        net = ipaddress.IPv4Network((low, 32 - (high - low + 1).bit_length() + 1))
        if not over and (b"xcept" in data or b"not" in data or b"Not" in data):
            excepted = _excepted(data) if excepted is None else excepted
            if any(net in included and any(ipaddress.ip_address(old) in n for n in excluded)
                   for old, _ in inside for included, excluded in excepted):
                # `cidr: 192.168.0.0/16, except: [192.168.42.5/32]`: the set never admitted the renamed
                # host; its except is except_blocks.moving_out_hits' to judge (t38-break finding 06)
                continue
        text = data[start:end].decode("ascii")
        old, new = inside[0]
        if apart:
            what = "a route's or access rule's set" if ruled else "a network (no host bits set)"
        else:
            what = "an access rule's set" if ruled else "a network (no host bits set)"
        note = f"{text} is {what} of {net.num_addresses} addresses ({net}) holding {old}, renamed {new}"
        for i in over:
            out[i] = Match(out[i].start, out[i].end, out[i].old, out[i].new, out[i].kind, out[i].derived,
                           REASON, None, note)
        if not over:
            added.append(Match(start, end, text, new, "address", refused=REASON, note=note))
    if not added and out == matches:
        return matches
    return sorted([*out, *added], key=lambda m: m.start)


def _excepted(data: bytes) -> list[tuple[list[IPNetwork], list[IPNetwork]]]:
    """(the networks of each exclusion's include key, the networks it excludes) of `data`."""
    return [(included, [n for _, _, n in excluded])
            for included, excluded, _ in except_blocks.key_rules(data)]


@functools.lru_cache(maxsize=8)
def _renamed_v4(renamed: tuple[tuple[str, str], ...]) -> tuple[tuple[int, str, str, int], ...]:
    """The renamed IPv4 addresses as (old as an integer, old, new, new as an integer), once per rename
    list rather than once per file."""
    olds = []
    for old, new in renamed:
        try:
            olds.append((int(ipaddress.IPv4Address(old)), old, new, int(ipaddress.IPv4Address(new))))
        except ValueError:
            continue
    return tuple(olds)


def _span(addr: bytes, length: bytes) -> tuple[int, int] | None:
    """The first and last address (integers) of the network `addr/length` (a prefix length or a
    dotted mask, host bits ignored as `strict=False` does); None where it is no network literal or a
    single address (/32)."""
    if _LEADING_ZERO.search(addr):
        return None  # `010`: ipaddress refuses it (octal to some readers)
    octets = [int(part) for part in addr.split(b".")]
    if any(octet > 255 for octet in octets):
        return None
    value = int.from_bytes(bytes(octets), "big")
    if b"." in length:
        if _LEADING_ZERO.search(length):
            return None
        parts = [int(part) for part in length.split(b".")]
        if any(part > 255 for part in parts):
            return None
        mask = int.from_bytes(bytes(parts), "big")
        inverse = ~mask & 0xFFFFFFFF
        if not inverse & (inverse + 1):  # ones then zeros: a netmask
            prefix = bin(mask).count("1")
        elif not mask & (mask + 1):  # zeros then ones: a hostmask (wildcard), as ipaddress reads it
            prefix = 32 - bin(mask).count("1")
        else:
            return None  # neither: ipaddress refuses it too
    else:
        prefix = int(length)
        if prefix > 32:
            return None
    if prefix >= 32:
        return None
    size = 1 << (32 - prefix)
    low = value & ~(size - 1) & 0xFFFFFFFF
    return low, low + size - 1

