"""An IPv6 network literal in an access rule around a renamed address (t31 round 24, finding 23).

sweep/access_sets.py's rule, for IPv6: under `fd00::70 -> fd00::1:70`, `allow fd00::70/126;`
is an access rule's set of four addresses, not the host; rewritten whole it moves the rule for
the neighbours that did not move, left it no longer admits the host. In an access rule's context
(access_nets.in_access_rule) an IPv6 network literal (a length below 128) holding a renamed
address, where it spells that address or the new address lies outside it, is a residual
`access-set`, nothing of it rewritten; a network holding both admits the host as before, and an
interface's `Address=fd00::70/64` is no access rule and follows as before.
"""

from __future__ import annotations

import ipaddress

from renamer import lazy_re
from renamer.access_nets import in_access_rule
from renamer.occurrences import Match
from renamer.sweep.access_sets import REASON

# An IPv6 address (two colons at least) and its length.
_NET6 = lazy_re.compile(rb"(?<![0-9A-Za-z.:])(?P<addr>(?=[0-9A-Fa-f:]*:[0-9A-Fa-f]*:)[0-9A-Fa-f:]+)"
                   rb"/(?P<len>[0-9]{1,3})(?![0-9A-Za-z.:/])")


def might_hold(data: bytes, renamed: list[tuple[str, str]]) -> bool:
    return b"/" in data and b":" in data and any(":" in old for old, _ in renamed)


def access_matches_v6(data: bytes, matches: list[Match], renamed: list[tuple[str, str]]) -> list[Match]:
    """`matches` with each IPv6 network literal of an access rule holding a renamed address refused
    (its own match, where the address stands in it) or added as a refused match."""
    olds = []
    for old, new in renamed:
        try:
            olds.append((ipaddress.IPv6Address(old), old, ipaddress.IPv6Address(new), new))
        except ValueError:
            continue
    if not olds:
        return matches
    out = list(matches)
    added: list[Match] = []
    for found in _NET6.finditer(data):
        try:
            net = ipaddress.IPv6Network(f"{found.group('addr').decode()}/{found.group('len').decode()}",
                                        strict=False)
        except ValueError:
            continue
        if net.prefixlen >= 128:
            continue
        start, end = found.start(), found.end()
        over = [i for i, m in enumerate(out) if m.start < end and start < m.end]
        inside = [(old, new) for old_a, old, new_a, new in olds
                  if old_a in net and (over or new_a not in net)]
        if not inside or not in_access_rule(data, start):
            continue
        if any(out[i].kind == "network" or out[i].refused or out[i].kept for i in over):
            continue  # a network move's literal, or decided already
        text = data[start:end].decode("ascii")
        old, new = inside[0]
        note = (f"{text} is an access rule's set of {net.num_addresses} addresses ({net}) holding {old}, "
                f"renamed {new}")
        for i in over:
            m = out[i]
            out[i] = Match(m.start, m.end, m.old, m.new, m.kind, m.derived, REASON, None, note)
        if not over:
            added.append(Match(start, end, text, new, "address", refused=REASON, note=note))
    if not added and out == matches:
        return matches
    return sorted([*out, *added], key=lambda m: m.start)
