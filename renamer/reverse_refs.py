"""A full PTR owner whose record names its zone by an id or a reference (outside pass t32, round 25,
finding 19).

Under `192.168.0.4 -> 192.168.10.4` the exact rules rewrite `4.0.168.192.in-addr.arpa` (the old
address's reverse name) to `4.10.168.192.in-addr.arpa`. In a zone file the zone rules decide it
(`reverse-owner`, sweep/zone_rules.py); in records held as data, their zone key (data_records). A
record can also tie itself to its zone apart from its owner:

* a PowerDNS SQL seed: `INSERT INTO records (domain_id, name, ...) VALUES (2, '4.0.168.192.in-addr.arpa',
  'PTR', ...)`, domain 2 being `0.168.192.in-addr.arpa` in the same file;
* Terraform `aws_route53_record` with `zone_id = aws_route53_zone.rev.zone_id`, Google
  `google_dns_record_set` with `managed_zone`, Azure's `zone_name`; an Ansible task's `zone:`, a
  PowerShell `-ZoneName`, dnscontrol's `D("0.168.192.in-addr.arpa", ...)`.

Rewritten in place, the owner lands outside the record's zone: PowerDNS keeps a record no query
reaches, Route 53 refuses the apply, and the new address has no PTR. So a full reverse owner of an
old address whose new reverse name lies outside the zone it stands in is a `reverse-owner`
residual, nothing of it rewritten, where:

* the file names a reverse zone holding the old owner (a whole zone name, not a longer owner's
  tail) and not the new one: that zone is the record's (the longest such);
* or the file names none, but the owner's entry (its line, the `{ }` block around it) holds a zone
  key (`zone_id`, `domain_id`, `zone`, `zone_name`, `managed_zone`, `hosted_zone_id`, `-ZoneName`):
  the zone is unknown, and the new owner's parent differs from the old one's (a zone holding
  `4.0.168.192.in-addr.arpa` may not hold `4.10.168.192...`; one holding `4.0...` holds `5.0...`
  where the first three octets stay).

Elsewhere (dnsmasq `ptr-record=`, a hosts-style list, prose) the owner has no zone and follows.
A zone file's owners are the zone rules'. Pure: bytes and matches in, matches out; asked by the
scanner (sweep/scan.py) for a file that is no zone.
"""

from __future__ import annotations

import re
from dataclasses import replace

from renamer import lazy_re
from renamer.interface_keys import braces_around
from renamer.occurrences import Match

REASON = "reverse-owner"
_SUFFIXES = (".in-addr.arpa", ".ip6.arpa")
# A reverse zone's (or owner's) name, whole.
_NAME = re.compile(rb"(?i)(?<![A-Za-z0-9./_-])((?:[0-9a-f]{1,3}\.)+(?:in-addr|ip6)\.arpa)\.?"
                   rb"(?![A-Za-z0-9_-])")
_ZONE_KEY = lazy_re.compile(rb"(?i)(?<![A-Za-z0-9_])(?:-ZoneName|zone_?id|domain_?id|zone_?name|managed_zone"
                       rb"|hosted_?zone_?id|zone)[\"']?[ \t]*(?:=|:|,|[ \t])")


def might_hold(data: bytes, matches: list[Match]) -> bool:
    return any(m.old.lower().rstrip(".").endswith(_SUFFIXES) for m in matches)


def _line(data: bytes, at: int) -> tuple[int, int]:
    start = data.rfind(b"\n", 0, at) + 1
    end = data.find(b"\n", at)
    return start, len(data) if end < 0 else end


def _zone_key(data: bytes, m: Match) -> bytes | None:
    """The zone key of the owner's entry: its line, or the block around it."""
    for span in (_line(data, m.start), braces_around(data, m.start)):
        if span is None:
            continue
        for found in _ZONE_KEY.finditer(data, *span):
            if found.end() <= m.start and not data[found.end():m.start].strip(b" \t\"'"):
                continue  # `zone NAME` naming this very name: a zone of its own (BIND's per-host
                # reverse zone, nsupdate's `zone`), no record's reference: it follows the address
            end = data.find(b"\n", found.end())
            return data[found.start():end if end >= 0 else len(data)].strip()[:80]
    return None


def _parent(owner: str) -> str:
    return owner.split(".", 1)[1] if "." in owner else ""


def refused(data: bytes, matches: list[Match]) -> list[Match]:
    """`matches` with each full reverse owner whose record's zone does not hold its new name (or
    whose zone is named by a reference that cannot be read) refused `reverse-owner`."""
    # an address rename's reverse name only: a network move carries its zones with it (reverse_zones.py)
    open_ = [i for i, m in enumerate(matches) if m.kind == "reverse" and m.refused is None and m.kept is None
             and m.new != m.old and m.old.lower().rstrip(".").endswith(_SUFFIXES)
             and m.new.lower().rstrip(".").endswith(_SUFFIXES)]
    if not open_:
        return matches
    spans = [(m.start, m.end) for m in matches]
    named: list[tuple[str, int]] = []
    for found in _NAME.finditer(data):
        if any(start <= found.start(1) < end for start, end in spans):
            continue  # an owner the rename spells, no zone
        named.append((found.group(1).decode("ascii").lower(), data.count(b"\n", 0, found.start()) + 1))
    out = list(matches)
    for i in open_:
        m = out[i]
        old, new = m.old.lower().rstrip("."), m.new.lower().rstrip(".")
        holding = sorted(((zone, line) for zone, line in named if old.endswith("." + zone)),
                         key=lambda z: -len(z[0]))
        note = None
        if holding:
            zone, line = holding[0]
            if not new.endswith("." + zone):
                note = (f"the record's zone {zone} (line {line}) does not hold {new}: the record moves to "
                        "that name's reverse zone by hand")
        elif _parent(old) != _parent(new) and (key := _zone_key(data, m)) is not None:
            shown = key.decode("utf-8", "replace")
            note = (f"the record names its zone by reference ({shown}), which may not hold {new}: the "
                    "record moves to that name's reverse zone by hand")
        if note is not None:
            out[i] = replace(m, refused=REASON, note=note)
    return out
