"""A network literal written as an address and a separate mask or wildcard (outside pass t32, round 25,
finding 03).

access_nets.py and sweep/access_sets.py read a network literal with its slash (`10.0.0.72/29`,
`10.0.0.72/255.255.255.248`). Routers, VPNs and route commands write the mask apart, after a blank
or a keyword:

* OpenVPN `route 10.0.0.72 255.255.255.248`, `push "route 10.0.0.72 255.255.255.248"`, `iroute`;
* Cisco IOS ACLs with a wildcard (`access-list 10 permit 10.0.0.72 0.0.0.7`, `permit ip 10.0.0.72
  0.0.0.7 any`), OSPF `network 10.0.0.72 0.0.0.7 area 0`, `ip route 10.0.0.72 255.255.255.248 ...`;
* net-tools `route add -net 10.0.0.72 netmask 255.255.255.248`, Windows `route ADD 10.0.0.72 MASK
  255.255.255.248`.

`SPACED` is that literal, `length_of` the prefix length its mask or wildcard spells (ones then zeros:
a netmask; zeros then ones: a wildcard, /8 to /31 only: `0.0.0.0` and `255.255.255.255` say "any"
or "this host", never a network), and `ROUTE` a route line's start (OpenVPN `route`, `push "route`,
`iroute`, IOS `ip route`, a `route add` command), which access_nets.in_route_rule reads beside an
access rule's words: there a network holding a renamed address (not starting at it) is a set the
host leaves.
sweep/access_sets.py decides each as it decides the slash spelling. Pure: bytes in, answers out.
"""

from __future__ import annotations

from renamer import lazy_re

_DOTTED = rb"[0-9]{1,3}(?:\.[0-9]{1,3}){3}"
SPACED = lazy_re.compile(rb"(?<![0-9.])(?P<addr>" + _DOTTED + rb")(?P<sep>[ \t]+(?:(?i:netmask|mask)[ \t]+)?)"
                    rb"(?P<mask>" + _DOTTED + rb")(?![0-9.])")
# An OpenVPN `route` / `push "route` / `iroute` line, a `route add` / `route ADD` command.
ROUTE = lazy_re.compile(rb"(?im)^[ \t]*(?:push[ \t]+[\"']?|ip(?:v6)?[ \t]+)?i?route[ \t]")
_LEADING_ZERO = lazy_re.compile(rb"(?:^|\.)0[0-9]")


def length_of(mask: bytes) -> int | None:
    """The prefix length (8 to 31) a dotted netmask or wildcard spells, None for anything else."""
    if _LEADING_ZERO.search(mask):
        return None
    parts = [int(part) for part in mask.split(b".")]
    if any(part > 255 for part in parts):
        return None
    value = int.from_bytes(bytes(parts), "big")
    inverse = ~value & 0xFFFFFFFF
    if value and not inverse & (inverse + 1):  # ones then zeros: a netmask
        prefix = bin(value).count("1")
    elif inverse and not value & (value + 1):  # zeros then ones: a wildcard
        prefix = 32 - bin(value).count("1")
    else:
        return None
    return prefix if 8 <= prefix <= 31 else None


def might_hold(data: bytes) -> bool:
    """A cheap test: a dotted address and a mask-like dotted quad after a blank or a keyword."""
    return (b"255." in data or b" 0.0." in data or b"\t0.0." in data) and SPACED.search(data) is not None
