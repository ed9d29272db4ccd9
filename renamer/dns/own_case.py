"""The case renamer asks its own DNS questions in, so that `dns who-asks` can tell them apart.

renamer's checks (`dns plan`, `apply`, `verify`, the canary) ask the resolvers for the old names
and addresses too: that they are gone. A resolver's query log then shows the machine renamer ran
on asking for them, and `who-asks` listed it as a client still using the old names (a trial on
mholzen/init's dnsmasq and lhotakj/unbound-parental-control's Unbound: 13 "queries" of
`kid1-pc`, every one renamer's own). DNS names match in any case (RFC 4343) and dnsmasq,
Unbound, BIND and PowerDNS log the name as asked, so renamer asks in a case of its own: the
letters alternately upper and lower (`KiD1-Pc.HoMe.LaN`, `2.2.0.10.In-AdDr.ArPa`). A client
that randomises case (DNS 0x20) spells a name so by chance once in 2**letters (and asks more than
once); a name of fewer than `LETTERS` letters is too short to tell and is never taken for renamer's.
"""

from __future__ import annotations

LETTERS = 4


def marked(name: str) -> str:
    """`name` in renamer's own case."""
    out, upper = [], True
    for char in name.lower():
        if char.isascii() and char.isalpha():
            out.append(char.upper() if upper else char)
            upper = not upper
        else:
            out.append(char)
    return "".join(out)


def is_marked(asked: str) -> bool:
    """Was `asked` (a name as a query log holds it) asked by renamer itself?"""
    letters = sum(1 for char in asked if char.isascii() and char.isalpha())
    return letters >= LETTERS and asked == marked(asked)
