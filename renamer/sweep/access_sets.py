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

import ipaddress

from renamer.access_nets import NET, in_access_rule, network_of
from renamer.occurrences import Match

REASON = "access-set"


def might_hold(data: bytes) -> bool:
    return b"/" in data and NET.search(data) is not None


def access_matches(data: bytes, matches: list[Match], renamed: list[tuple[str, str]]) -> list[Match]:
    """`matches` with each network literal of an access rule holding a renamed address refused (its
    own match, where the address stands in it) or added as a refused match."""
    olds = []
    for old, new in renamed:
        try:
            olds.append((ipaddress.IPv4Address(old), old, new))
        except ValueError:
            continue
    if not olds:
        return matches
    out = list(matches)
    added: list[Match] = []
    for found in NET.finditer(data):
        net = network_of(found)
        if net is None:
            continue
        start, end = found.start(), found.end()
        over = [i for i, m in enumerate(out) if m.start < end and start < m.end]
        # spelled in the literal (rewriting moves the rule), or the new address outside it (the host loses
        # access); a network holding both the old and the new address admits the host as before
        inside = [(old, new) for address, old, new in olds
                  if address in net and (over or ipaddress.IPv4Address(new) not in net)]
        if not inside or not in_access_rule(data, found.start()):
            continue
        if any(out[i].kind == "network" or out[i].refused or out[i].kept for i in over):
            continue  # a network move's literal, or decided already
        text = data[start:end].decode("ascii")
        old, new = inside[0]
        note = (f"{text} is an access rule's set of {net.num_addresses} addresses ({net}) holding {old}, "
                f"renamed {new}")
        for i in over:
            out[i] = Match(out[i].start, out[i].end, out[i].old, out[i].new, out[i].kind, out[i].derived,
                           REASON, None, note)
        if not over:
            added.append(Match(start, end, text, new, "address", refused=REASON, note=note))
    if not added and out == matches:
        return matches
    return sorted([*out, *added], key=lambda m: m.start)

