"""An old host name in another case in the record of an address the sweep rewrites (B-8's fallback).

Outside the files whose host names are DNS names (formats/dns_config.py, zones) a name is matched
in its own case only, and `PUG` is a near-miss (`case`). But beside an address the sweep rewrites
(`- {name: PUG, ip: 10.0.40.11}`, an ssh_config's `Host PUG` over `HostName 10.0.40.11`, a DHCP
reservation in a file of another name) the address moves and the name stays: whatever reads the
name as a DNS name (DDNS, a resolver, ssh) then pairs the old name with the new address (break-it
round 8, finding 11). Such a spelling is refused `case-record`, a residual verify fails on, and
the address with it (nothing of the record written), so it is never an OK, before the sweep or
after; where the file is a DNS one, it was matched and rewritten in its case instead.

A record is the address's line and the lines next to it up to a blank line, three each way at most.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Protocol

from renamer.occurrences import Match

REASON = "case-record"
_REACH = 3  # lines either way of the address's line that may belong to its record


class FindsAnyCase(Protocol):
    def find_any_case(self, data: bytes) -> list[Match]: ...


def case_in_records(data: bytes, matches: list[Match], matcher: FindsAnyCase) -> list[Match]:
    """`matches` with each old host spelled in another case, in the record of a rewritten address,
    refused `case-record`, and that address with it: moved alone, it would leave the old name at
    the new address, and verify after such a sweep would see no old address left to pair it with."""
    addresses = [m for m in matches if m.kind != "host" and m.refused is None and m.kept is None]
    if not addresses:
        return matches
    taken = [(m.start, m.end) for m in matches]
    lines = data.split(b"\n")

    def line_of(pos: int) -> int:
        return data.count(b"\n", 0, pos)

    def record(at: int) -> set[int]:
        out = {at}
        for step in (-1, 1):
            n = at + step
            while 0 <= n < len(lines) and abs(n - at) <= _REACH and lines[n].strip():
                out.add(n)
                n += step
        return out

    records = {id(a): record(line_of(a.start)) for a in addresses}
    added: list[Match] = []
    held: dict[int, str] = {}  # the addresses refused with a name, by id: why
    for m in matcher.find_any_case(data):
        if m.kind != "host" or any(s < m.end and m.start < e for s, e in taken):
            continue
        spelled = data[m.start:m.end]
        at = line_of(m.start)
        beside = [a for a in addresses if at in records[id(a)]]
        if spelled == spelled.lower() or not beside:
            continue
        address = beside[0]
        why = (f"{m.old} is an old host name in another case, in the record of {address.old} (renamed "
               f"{address.new}): whatever reads it as a DNS name (DDNS, a resolver, ssh) would pair the "
               f"old name with the new address, so neither is written; rename the record by hand, the name "
               f"in the case you want ({m.new}), or keep it with a keep rule")
        added.append(Match(m.start, m.end, m.old, m.new, "host", refused=REASON, note=why))
        for a in beside:
            held.setdefault(id(a), why)
    if not added:
        return matches
    out = [replace(m, refused=REASON, note=held[id(m)]) if id(m) in held else m for m in matches]
    return sorted([*out, *added], key=lambda m: m.start)
