"""A zone file's names decided by what they mean, not only by how they are spelled.

An owner, a `$ORIGIN` or an RDATA name is read against its origin (formats/zone_names.py) and the
absolute name it means is matched whole against the renames: a relative `nas.local` under
`$ORIGIN lab.example.` is `nas.local.lab.example`, `54` under `$ORIGIN 50.250.10.in-addr.arpa.`
the reverse name of 10.250.50.54. The new name is written back in the spelling found (relative
stays relative under the same origin, else absolute with its final dot).

An owner (or a `$ORIGIN`) must stay inside its zone: BIND ignores an out-of-zone owner, so the
record would be lost. Such a name is never rewritten; it and its whole record are a residual
(`zone-owner`, or `reverse-owner` in a reverse zone): the record moves to the other zone's file by
hand. An RDATA name may point anywhere (a CNAME to another zone), and simply follows. A signed
zone (a signer's RRSIG, NSEC, NSEC3 or NSEC3PARAM records, by name or as RFC 3597's `TYPEnn`) is
never edited at all (`signed-zone`), nor is a zone holding a ZONEMD digest over its records
(`zonemd`). A `$GENERATE` line one of whose records is an old address or name is a `range`.
A zone that only publishes keys (DNSKEY, CDNSKEY, CDS; signed by its server inline) is edited as
usual, since the server signs again, except where a key record's owner would be renamed (the
zone renamed whole, or a DS in a parent zone): a DS digest covers the owner name, so the chain of
trust would break (`dnssec-key`; the whole file where the owner moves with its `$ORIGIN`).

A name spelled with escapes (`ana\\-ml2`, `\\097na-ml2`, `ana\\045ml2`: RFC 1035's presentation
format) is decided by what it reads, exactly as its plain spelling would be, and written back
with the same character escaped the same way (`fv\\045ml1`); where no escaped character stands in
the new name it is written plainly, and the reference says so.

A relative name whose origin is unknown (no `$ORIGIN` before it, no named.conf naming the file,
no zone including it) means nothing certain: where it spells an old name relatively (`ana-ml2`
or `ana-ml2.ana` for `ana-ml2.ana.lan`) or an old address's reverse name (`54` or `54.50` for
10.250.50.54, an IPv6 address's leading nibbles, in a file holding PTR records) it is a residual
(`zone-origin`), with the rest of its record when it is an owner, never a silent pass.
"""

from __future__ import annotations

import bisect
import ipaddress
import re
from collections.abc import Callable, Iterator
from dataclasses import replace

from renamer import forms as spelling
from renamer import lazy_re
from renamer.formats.zone_generate import Generate, expand, generated_addresses, generates
from renamer.formats.zone_names import Name, ZoneNames, absolute, zone_names
from renamer.match import Matcher
from renamer.names import Reading
from renamer.occurrences import Match
from renamer.prefix_moves import CLASSLESS_NAME, OUTSIDE, ZONE, classless_moved, classless_note

_REVERSE = ("in-addr.arpa.", "ip6.arpa.")


def with_zone_names(data: bytes, matches: list[Match], matcher: Matcher, origin: str | None = None,
                    apex: str | None = None, *,
                    any_case: bool = True) -> tuple[list[Match], list[tuple[int, int]]]:
    """`matches` (the exact matcher's, in file order) with each zone name decided by its meaning,
    and the spans of the names spelled with escapes that this decided (escapes.py leaves them).
    `origin`, `apex`: where a server's configuration in the repo names the file (or a zone of it
    `$INCLUDE`s it), the origin it starts with and its zone's name; `any_case`: the file's names
    match in any case (a zone file's, not a fragment's or a note's), so an escaped name's too."""
    zone = zone_names(data, origin, apex)
    find = matcher.find_any_case if any_case else matcher.find
    opaque = [(at, r) for at, r in zone.escaped if r.opaque]
    if opaque:
        matches = _read_opaque(data, matches, opaque, find)
    out = _decided(data, zone, matches, matcher, origin, find)
    escaped = [(n.start, n.end) for n in zone.names if n.spelled is not None]
    if not (zone.signed or zone.digested):
        # Every escaped name was decided by what it reads, those it leaves as they are too
        # (`pug\\045x`, the derived name pug-x): escapes.py must not read them again by their bytes.
        return out, sorted(escaped + _spans(opaque))
    # A signed or digested zone: the escaped names a match of `out` stands on (refused with the
    # rest) are decided; any other is escapes.py's to refuse.
    spans = sorted((m.start, m.end) for m in out)
    firsts = [a for a, _ in spans]
    return out, sorted([(a, b) for a, b in escaped if _overlapping(spans, firsts, a, b)] + _spans(opaque))


def derived_in_zone(data: bytes, matcher: Matcher, *,
                    any_case: bool = True) -> tuple[list[tuple[int, int, str]], list[tuple[int, int]]]:
    """(the derived-name candidates of a zone's escaped names, read decoded: `pug\\045x` is the
    name pug-x, a candidate as its plain spelling is; the spans of those escaped names, where what
    the bytes alone spell gives way). A candidate touching an opaque character (`pug-x\\.y`, one
    label holding a dot) is none."""
    found: list[tuple[int, int, str]] = []
    spans: list[tuple[int, int]] = []
    for at, reading in zone_names(data).escaped:
        spans.append((at, at + reading.at[-1]))
        for start, end, name in matcher.derived_candidates(reading.text.encode("ascii"), any_case=any_case):
            if not _touches(reading, start, end):
                found.append((at + reading.at[start], at + reading.at[end], name))
    return found, spans


def _spans(escaped: list[tuple[int, Reading]]) -> list[tuple[int, int]]:
    return [(at, at + r.at[-1]) for at, r in escaped]


def _touches(reading: Reading, start: int, end: int) -> bool:
    """Whether text[start:end] holds an opaque character of the reading, or stands beside one."""
    return any(p in reading.opaque for p in range(start - 1, end + 1))


def _read_opaque(data: bytes, matches: list[Match], opaque: list[tuple[int, Reading]],
                 find: Callable[[bytes], list[Match]]) -> list[Match]:
    """`matches` with those on an opaque escaped name (`pug\\.ana`: one label, pug.ana, no host
    name) replaced by what its decoded reading holds: nothing on or beside an opaque character,
    and elsewhere the matcher's matches as in its plain spelling (`pug.x\\.y` is pug under a
    label x.y), written in the file's escapes where the match's bytes hold any."""
    spans = _spans(opaque)
    firsts = [a for a, _ in spans]
    out = [m for m in matches if not _overlapping(spans, firsts, m.start, m.end)]
    for at, reading in opaque:
        for m in find(reading.text.encode("ascii")):
            if _touches(reading, m.start, m.end):
                continue
            start, end = at + reading.at[m.start], at + reading.at[m.end]
            old = data[start:end].decode("ascii", "replace")
            new, note = _escaped_like(old, m.new) if "\\" in old else (m.new, None)
            out.append(Match(start, end, old, new, m.kind, m.derived, m.refused, m.kept, note or m.note))
    return sorted(out, key=lambda m: m.start)


def _decided(data: bytes, zone: ZoneNames, matches: list[Match], matcher: Matcher,
             origin: str | None, find: Callable[[bytes], list[Match]]) -> list[Match]:
    if zone.signed:
        # Every RRset is covered by a signature over its bytes, and NSEC/NSEC3 chains by the owner
        # names (NSEC3PARAM: the chain's parameters): one edit and resolvers that validate reject
        # the name (SERVFAIL), or the chain proves the new name does not exist. The unsigned zone
        # is edited, then signed again.
        return _refused(matches, "signed-zone")
    if zone.digested:
        # ZONEMD (RFC 8976): one digest over every record; an edit makes a consumer that checks it
        # (a secondary, an RFC 8806 root copy) refuse the whole zone. Edit, then digest it again.
        return _refused(matches, "zonemd")
    if b"$generate" in data.lower():
        matches = _generated(data, matches, matcher, origin)
    if matcher.networks and b"/" in data and b"in-addr.arpa" in data.lower():
        matches = _classless_owners(data, matches, matcher, origin)
    matches = _unknown_origins(data, zone.names, matches, matcher)
    if b"in-addr.arpa" in data.lower() and matcher.addresses:
        matches = _classless_addresses(zone.names, matches, matcher)
    if zone.apex is None or not zone.names:
        return _escaped_plainly(zone.names, matches, find)
    apex = _renamed(matcher, zone.apex) or zone.apex
    reverse = zone.apex.endswith(_REVERSE) or zone.apex[:-1] in ("in-addr.arpa", "ip6.arpa")
    reason = "reverse-owner" if reverse else "zone-owner"
    kind = "reverse" if reverse else "host"
    # The origin after the sweep, as each $ORIGIN is decided in turn.
    new_origin = (_renamed(matcher, origin) or origin) if origin is not None else None
    ordered = sorted(matches, key=lambda m: m.start)
    starts = [m.start for m in ordered]
    dropped: set[int] = set()  # indices in `ordered` of matches a zone name's decision replaces
    added: list[Match] = []
    stuck: list[tuple[int, int]] = []
    keys: list[tuple[int, int]] = []  # records of key owners the sweep would rename
    keyed = {absolute(n.text, n.origin) for n in zone.names if n.start in zone.keyed}
    whole = False
    for name in zone.names:
        # Matches never overlap each other: those overlapping the name start at most one before.
        first = max(bisect.bisect_left(starts, name.start) - 1, 0)
        last = bisect.bisect_left(starts, name.end)
        at = [i for i in range(first, last) if ordered[i].end > name.start]
        here = [ordered[i] for i in at]
        if any(m.refused or m.kept for m in here):
            continue  # a range, a pattern, an account: already decided, never overridden
        if name.spelled is not None:
            # Spelled with escapes: what the matcher made of its bytes (`ana\-ml2` as a regex's
            # spelling) gives way to what it makes of the name the server reads.
            decoded = _written_decoded(find, name.text)
            if decoded is None:
                continue
            dropped.update(at)
            written, here = decoded, []
        else:
            written = _written(data, name, here)  # the name's text after the matcher's own edits
        meant = absolute(name.text, name.origin)
        full = _renamed(matcher, meant) if meant is not None else None
        if (full is None and reverse and not here and meant is not None
                and classless_moved(meant[:-1], matcher.networks)):
            # `0/26 IN NS ...` under `$ORIGIN 50.168.192.in-addr.arpa.`: an RFC 2317 delegation
            added.append(Match(name.start, name.end, name.written, name.written, kind, refused=ZONE,
                               note=classless_note(meant[:-1])))
            continue
        if full is None and reverse and not here and meant is not None and name.text != meant:
            why = matcher.outside_whole(meant[:-1])  # a relative PTR owner a shrink cannot place
            if why is not None:
                added.append(Match(name.start, name.end, name.written, name.written, kind,
                                   refused=OUTSIDE, note=why))
                continue
        if (full is None and reverse and not here and meant is not None and name.role == "owner"
                and not name.text.endswith(".") and new_origin != name.origin
                and matcher.kept_in_place(meant[:-1])):
            # A resize in place renames the whole network's zone (9.10 becomes 0.9.10 under
            # 10.9.0.0/16 -> /24) and keeps every address: its relative owner (`5.0`) is written
            # against the new origin (`5`). Left as it was, it named another address or none
            # (f25 breaker, finding 2: named-checkzone OK, every PTR wrong, verify OK).
            full = meant
        if full is None and name.role != "origin" and meant is not None and written == name.text:
            full = _moved(meant, zone.apex, apex) if name.text.endswith(".") else None
        new_text = written if full is None else _spelled(name, full, new_origin)
        if (name.role == "owner" and meant is not None and meant in keyed
                and absolute(new_text, new_origin) != meant):
            # A key record's owner would change: the parent's DS no longer matches it. Its other
            # records (a delegation's NS and glue beside its DS) stay with it.
            if new_text == name.text:
                whole = True  # moved by its origin's rename: no edit of this file is safe alone
            else:
                keys.append(name.record)
                if not here:
                    added.append(Match(name.start, name.end, name.written, new_text, kind,
                                       refused="dnssec-key"))
            continue
        if name.role != "rdata":
            after = absolute(new_text, new_origin)  # a relative $ORIGIN too: read against the last
            # Only what the sweep moves out: an owner out of its zone already is BIND's to report.
            if (after is not None and meant is not None and _inside(meant, zone.apex)
                    and not _inside(after, apex)):
                stuck.append(name.record)
                if not here:
                    added.append(Match(name.start, name.end, name.written,
                                       full[:-1] if full else "(outside the zone)", kind, refused=reason))
                if name.role == "origin":
                    new_origin = absolute(name.text, new_origin)
                continue
        if new_text != (written if name.spelled is None else name.text):
            dropped.update(at)
            start, end, old = name.start, name.end, name.written
            spelled, note = _escaped_like(name.spelled, new_text) if name.spelled else (new_text, None)
            if old.endswith(".") and spelled.endswith("."):
                end, old, spelled = end - 1, old[:-1], spelled[:-1]
            added.append(Match(start, end, old, spelled, kind, note=note))
        if name.role == "origin":
            new_origin = absolute(new_text, new_origin)
    if whole:
        return _refused(matches, "dnssec-key")
    if not added and not stuck and not keys and not dropped:
        return matches
    out = [m for i, m in enumerate(ordered) if i not in dropped] + added
    out.sort(key=lambda m: m.start)
    if keys:
        keys.sort()
        firsts = [a for a, _ in keys]
        out = [replace(m, refused="dnssec-key") if m.refused is None and m.kept is None
               and _within(m.start, keys, firsts) else m for m in out]
    if stuck:
        # The whole record: its RDATA renamed while its owner stays would tell resolvers the old
        # name is the new host (or the old address the new one).
        stuck_starts = [a for a, _ in stuck]  # in file order, never overlapping
        out = [replace(m, refused=reason) if m.refused is None and m.kept is None
               and _within(m.start, stuck, stuck_starts) else m for m in out]
    return out


def _refused(matches: list[Match], why: str) -> list[Match]:
    return [replace(m, refused=why) if m.refused is None and m.kept is None else m for m in matches]


def _unknown_origins(data: bytes, names: tuple[Name, ...], matches: list[Match],
                     matcher: Matcher) -> list[Match]:
    """`matches` with a `zone-origin` residual for each relative name read against no known
    origin that spells an old name (or an old address's reverse name) relatively."""
    loose = [n for n in names if n.origin is None and n.role != "origin" and not n.text.endswith(".")
             and n.text != "@"]
    if not loose:
        return matches
    spellings = _relative_spellings(matcher, b"PTR" in data.upper())
    covered = [(m.start, m.end) for m in matches]
    flagged = [n for n in loose if n.text.lower() in spellings]
    added = [Match(n.start, n.end, n.written, spellings[n.text.lower()][1],
                   spellings[n.text.lower()][2], refused="zone-origin")
             for n in flagged if not any(a < n.end and n.start < b for a, b in covered)]
    # The rest of an undecided owner's record waits with it: its address renumbered while the
    # owner may keep the old name would give that name the new host's address.
    records = sorted(n.record for n in flagged if n.role == "owner")
    if records:
        firsts = [a for a, _ in records]
        matches = [replace(m, refused="zone-origin") if m.refused is None and m.kept is None
                   and _within(m.start, records, firsts) else m for m in matches]
    out = sorted([*matches, *added], key=lambda m: m.start) if added or records else matches
    classless = [found.start() for found in _CLASSLESS.finditer(data)]
    if classless:  # an $ORIGIN stands there, one no host name spells (break-it round 22, #16)
        out = [replace(m, refused="classless-zone") if m.refused == "zone-origin"
               and bisect.bisect_left(classless, m.start) > 0 else m for m in out]
    return out


_CLASSLESS_ORIGIN = lazy_re.compile(r"(?i)^\d{1,3}-\d{1,2}\.((?:\d{1,3}\.){1,3}in-addr\.arpa\.)$")


def _classless_addresses(names: tuple[Name, ...], matches: list[Match], matcher: Matcher) -> list[Match]:
    """`matches` with a `classless-zone` residual for each owner of an RFC 2317 zone read under a
    hyphen origin (`$ORIGIN 64-26.0.0.10.in-addr.arpa.`, a name the parser reads) that is the last
    octet of an old address of that /24's parent: `70` there is 10.0.0.70's PTR, reached through
    the parent's CNAME, and no rule renumbers it (break-it round 22, #16). The record waits."""
    olds: dict[tuple[str, str], str] = {}  # (parent, last octet) -> new address
    for old, new in matcher.addresses:
        try:
            address = ipaddress.ip_address(old)
        except ValueError:
            continue
        if address.version == 4:
            octet, _, parent = address.reverse_pointer.partition(".")
            olds[(parent.lower() + ".", octet)] = new
    flagged = []
    for name in names:
        found = _CLASSLESS_ORIGIN.match(name.origin) if name.role == "owner" and name.origin else None
        renumbered = olds.get((found.group(1).lower(), name.text)) if found is not None else None
        if renumbered is not None:
            flagged.append((name, renumbered))
    if not flagged:
        return matches
    covered = [(m.start, m.end) for m in matches]
    added = [Match(n.start, n.end, n.written, new, "reverse", refused="classless-zone")
             for n, new in flagged if not any(a < n.end and n.start < b for a, b in covered)]
    records = sorted(n.record for n, _ in flagged)
    firsts = [a for a, _ in records]
    held = [replace(m, refused="classless-zone") if m.refused is None and m.kept is None
            and _within(m.start, records, firsts) else m for m in matches]
    return sorted([*held, *added], key=lambda m: m.start)


# An RFC 2317 classless reverse zone's `$ORIGIN`: a first label `64/26` or `64-26` (BIND's examples,
# RFC 4183's) under an in-addr.arpa name. The parser reads no origin from it (`/` is no name byte).
_CLASSLESS = lazy_re.compile(rb"(?im)^\$ORIGIN[ \t]+\d{1,3}[/-]\d{1,2}\.(?:\d{1,3}\.){1,3}in-addr\.arpa\.?"
                        rb"[ \t]*(?:;|$)")


def _generated(data: bytes, matches: list[Match], matcher: Matcher, origin: str | None) -> list[Match]:
    """`matches` with each `$GENERATE` line one of whose records is an old name or address (an
    owner or RDATA the iterator makes: `dyn-$ A 10.250.50.$` over 50-60 holds 10.250.50.54) a
    residual `range`, as any other range of machines: renumbering one member breaks the set, and
    no text edit of the template renames one member alone. Old values its constant text spells
    (`dyn-$ CNAME ana-ml2.ana.lan.`) are the exact matcher's, rewritten as usual."""
    lines = generates(data, origin)
    if not lines:
        return matches
    spellings = _relative_spellings(matcher, True)
    added: list[Match] = []
    spans: list[tuple[int, int]] = []
    shrinks = any(new.prefixlen > old.prefixlen for old, new in matcher.networks)
    for line in lines:
        constant = {m.old.lower() for m in matcher.find_any_case(data[line.start:line.end])}
        # A relative owner under an origin the move renames whole follows it (`$GENERATE 100-120 $
        # PTR ...` in 0.9.10.in-addr.arpa renamed 2.20.10.in-addr.arpa: break-it round 20p, finding 12).
        follows = _origin_moves(matcher, line.origin)
        if follows and not line.lhs.endswith(".") and _depth_changes(matcher, line.origin):
            # The origin is renamed whole to a zone of another depth (9.10 becomes 0.9.10 under
            # 10.9.0.0/16 -> /24): the template's relative owners (`$.0`) would name other addresses
            # under it, or none (f25 breaker, finding 2b: verify OK, every generated PTR wrong).
            # The template is written against the new origin where one plain `$` makes every
            # owner's new name (`$.0` becomes `$`), else the line is a residual.
            spans.append((line.start, line.end))
            head = _GENERATE_LHS.match(data, line.start, line.end)
            candidate = _regenerated(matcher, line)
            if candidate is not None and head is not None:
                added.append(Match(head.start(1), head.end(1), line.lhs, candidate, "reverse",
                                   note=f"a $GENERATE owner relative to {line.origin}, which the move "
                                        "renames to a zone of another depth: written against the new origin"))
                continue
            text = data[line.start:line.end].decode("ascii", "replace")
            renamed = _renamed(matcher, line.origin)
            added.append(Match(line.start, line.end, text, text, "reverse", refused="range",
                               note=f"a $GENERATE owner `{line.lhs}` relative to {line.origin}, which the "
                                    f"move renames {renamed}, a zone of another depth: each owner it makes "
                                    "would name another address, or none, and no plain `$` template makes "
                                    "them all; write it against the new origin by hand"))
            continue
        outside = _outside(matcher, line) if shrinks else None
        if outside is not None:  # hosts a shrink cannot place: the sweep is refused (t36-33 finding 16)
            spans.append((line.start, line.end))
            text = data[line.start:line.end].decode("ascii", "replace")
            added.append(Match(line.start, line.end, text, text, "address", refused=OUTSIDE, note=outside))
            continue
        hit = _member(matcher, line.records(), line.origin, spellings, constant, owner_follows=follows)
        if hit is not None:
            spans.append((line.start, line.end))
            classless = CLASSLESS_NAME.search(data, line.start, line.end)
            if classless is not None:  # `$ CNAME $.0/26.50.168.192.in-addr.arpa.`: RFC 2317's CNAMEs
                name = classless.group().decode("ascii")
                added.append(Match(line.start, line.end, name, name, hit.kind, refused=ZONE,
                                   note=classless_note(name)))
            else:
                added.append(Match(line.start, line.end, hit.old, hit.new, hit.kind, refused="range"))
    if not added:
        return matches
    firsts = [a for a, _ in spans]
    out = [m for m in matches if not _within(m.start, spans, firsts)]
    return sorted([*out, *added], key=lambda m: m.start)


def _outside(matcher: Matcher, line: Generate) -> str | None:
    """Why a `$GENERATE` line makes addresses of a network a shrink leaves outside its new one
    (`$GENERATE 100-200 dyn-$ A 192.168.40.$` under 192.168.40.0/24 -> /25: .128-.200), naming the
    range and how many, or None: the same hosts written one by one refuse the sweep."""
    out: dict[tuple[str, str], list[int]] = {}
    for value, address in generated_addresses(line):
        for old, new in matcher.networks:
            if new.prefixlen <= old.prefixlen or address.version != old.version or address not in old:
                continue
            if int(address) - int(old.network_address) >= new.num_addresses:
                out.setdefault((str(old), str(new)), []).append(value)
    if not out:
        return None
    (was, now), values = next(iter(out.items()))
    return (f"$GENERATE {line.values.start}-{line.values.stop - 1}"
            + (f"/{line.values.step}" if line.values.step != 1 else "")
            + f" makes {len(values)} addresses of {was} (the iterator at {values[0]}-{values[-1]}) that have "
            f"no place in the new, smaller {now}: narrow the range or choose a wider network by hand")


# A line's owner that is an RFC 2317 classless label (`0/26`, `0-63`, `0/26.50.168.192.in-addr.arpa.`),
# or an `$ORIGIN`.
_CLASSLESS_OWNER = lazy_re.compile(rb"(?im)^(?:\$ORIGIN[ \t]+([^ \t\r\n;]+)"
                              rb"|([0-9]{1,3}[/-][0-9]{1,3}(?:\.[0-9A-Za-z-]+)*\.?)(?=[ \t]))")


def _classless_owners(data: bytes, matches: list[Match], matcher: Matcher, origin: str | None) -> list[Match]:
    """`matches` with each owner that is an RFC 2317 classless name of a moved network (`0/26 IN NS`
    under `$ORIGIN 50.168.192.in-addr.arpa.`: the delegation of 192.168.50.0/26) a residual
    `reverse-zone`: the zone format reads no address in it, and no rule renames a delegation."""
    current = origin
    added: list[Match] = []
    starts = [m.start for m in matches]
    for found in _CLASSLESS_OWNER.finditer(data):
        if found.group(1) is not None:
            current = absolute(found.group(1).decode("ascii", "replace"), current)
            continue
        text = found.group(2).decode("ascii")
        meant = absolute(text, current)
        if meant is None or not classless_moved(meant.rstrip("."), matcher.networks):
            continue
        if "." not in text.rstrip(".") and not text.endswith(".") and _origin_moves(matcher, current):
            continue  # `0/26` under an origin the move renames whole (a /24 moved): it follows
        at = bisect.bisect_right(starts, found.start(2)) - 1
        if at >= 0 and matches[at].end > found.start(2):
            continue  # decided already (the matcher's, on an absolute name)
        added.append(Match(found.start(2), found.end(2), text, text, "reverse", refused=ZONE,
                           note=classless_note(meant.rstrip("."))))
    return sorted([*matches, *added], key=lambda m: m.start) if added else matches


def _origin_moves(matcher: Matcher, origin: str | None) -> bool:
    """Does the move rename the zone `origin` itself (`50.168.192.in-addr.arpa.` of a /24 moved)?"""
    if origin is None:
        return False
    name = origin.rstrip(".")
    found = matcher.find(name.encode("ascii", "replace"))
    return len(found) == 1 and (found[0].start, found[0].end) == (0, len(name)) and found[0].refused is None \
        and found[0].new != found[0].old


_GENERATE_LHS = lazy_re.compile(rb"[ \t]*\$GENERATE[ \t]+[^ \t\r\n]+[ \t]+([^ \t\r\n]+)", re.I)
_PLAIN_MEMBERS = 4096  # a template checked member by member up to this many


def _regenerated(matcher: Matcher, line: Generate) -> str | None:
    """The owner template of `line` written against its renamed origin: one plain `$` in place of
    the member's value, checked for every member (its new name, or its name where a resize in
    place keeps the address); None where no such template makes them all."""
    new_origin = _renamed(matcher, line.origin)
    if new_origin is None or line.lhs.count("$") != 1 or "{" in line.lhs or len(line.values) > _PLAIN_MEMBERS:
        return None
    candidate: str | None = None
    for value in line.values:
        old = absolute(expand(line.lhs, value), line.origin)
        if old is None:
            return None
        new = _renamed(matcher, old) or (old if matcher.kept_in_place(old[:-1]) else None)
        if new is None or not new.endswith("." + new_origin):
            return None
        relative = new[: -len(new_origin) - 1]
        if candidate is None:
            labels = relative.split(".")
            at = [i for i, label in enumerate(labels) if label == str(value)]
            if len(at) != 1:
                return None
            labels[at[0]] = "$"
            candidate = ".".join(labels)
        if expand(candidate, value) != relative:
            return None
    return candidate


def _depth_changes(matcher: Matcher, origin: str | None) -> bool:
    """Does the move rename the zone `origin` to one of another number of labels (a length change:
    `9.10.in-addr.arpa` to `0.9.10.in-addr.arpa`)?"""
    new = _renamed(matcher, origin)
    return origin is not None and new is not None and new.count(".") != origin.count(".")


def _member(matcher: Matcher, records: Iterator[tuple[str, str]], origin: str | None,
            spellings: dict[str, tuple[str, str, str]], constant: set[str], *,
            owner_follows: bool = False) -> Match | None:
    """The first old value among the generated records' owners and RDATA, read against `origin`
    (a relative owner under an unknown one compared with the old values' relative spellings); a
    relative owner not where `owner_follows` (its origin is renamed whole)."""
    for owner, rdata in records:
        for at, text in enumerate([owner, *rdata.split()]):
            if at == 0 and owner_follows and not text.endswith("."):
                continue
            meant = absolute(text, origin) if not text.endswith(".") else text.lower()
            # What the name means first (`ana-ml2` under ana.lan. is ana-ml2.ana.lan), then its text
            # (an address, a name written absolute).
            candidates = [text] if meant is None else [meant.rstrip("."), text]
            for candidate in candidates:
                for m in matcher.find_any_case(candidate.encode("utf-8", "replace")):
                    if m.refused is None and m.old.lower() not in constant:
                        return m
            if meant is None and at == 0 and text.lower() in spellings:
                old, new, kind = spellings[text.lower()]
                return Match(0, 0, old, new, kind)
    return None


def _relative_spellings(matcher: Matcher, reverse: bool) -> dict[str, tuple[str, str, str]]:
    """relative spelling -> (old, new, kind): each proper leading part of an old FQDN, label by
    label (`ana-ml2`, `ana-ml2.ana` of `ana-ml2.ana.lan`), and where `reverse`, of an old
    address's reverse name (`54`, `54.50`, `54.50.250`, `54.50.250.10`; an IPv6 address's nibbles,
    `4`, `4.5`, ... all 32 of them)."""
    out: dict[str, tuple[str, str, str]] = {}
    for old, new in matcher.hosts:
        labels = old.lower().strip(".").split(".")
        for n in range(1, len(labels)):
            out.setdefault(".".join(labels[:n]), (old, new, "host"))
    if reverse:
        for old, new in matcher.addresses:
            try:
                address = ipaddress.ip_address(old)
            except ValueError:
                continue  # a network or a range: its own rules
            labels = address.reverse_pointer.split(".")
            for n in range(1, 5 if address.version == 4 else 33):
                out.setdefault(".".join(labels[:n]), (old, new, "reverse"))
    return out


def _renamed(matcher: Matcher, name: str | None) -> str | None:
    """The new absolute name (final dot) of an absolute one that a rename matches whole."""
    if name is None or name == ".":
        return None
    new = matcher.renamed_whole(name[:-1])
    return None if new is None else new.lower() + "."


def _written(data: bytes, name: Name, here: list[Match]) -> str:
    """The name's text with the matcher's plain edits applied."""
    text = data[name.start:name.end].decode("ascii", "replace")
    for m in sorted(here, key=lambda m: -m.start):
        if m.start < name.start or m.end > name.end:
            return text  # a match across the name's edge: not a name edit this rule knows
        a, b = m.start - name.start, m.end - name.start
        text = text[:a] + m.new + text[b:]
    return text


def _escaped_plainly(names: tuple[Name, ...], matches: list[Match],
                     find: Callable[[bytes], list[Match]]) -> list[Match]:
    """With no zone to judge names by (its apex unknown): each name spelled with escapes edited as
    the matcher edits its plain spelling (an absolute `ana\\045ml2.ana.lan.` follows, as the plain
    one does), in the file's escapes where they can be kept."""
    out = list(matches)
    for name in names:
        if name.spelled is None or any(m.start < name.end and name.start < m.end for m in matches):
            continue
        written = _written_decoded(find, name.text)
        if written is None or written == name.text:
            continue
        spelled, note = _escaped_like(name.spelled, written)
        kind = next(m.kind for m in find(name.text.encode("ascii")))
        start, end, old = name.start, name.end, name.spelled
        if old.endswith(".") and spelled.endswith("."):
            end, old, spelled = end - 1, old[:-1], spelled[:-1]
        out.append(Match(start, end, old, spelled, kind, note=note))
    return sorted(out, key=lambda m: m.start) if len(out) > len(matches) else matches


def _overlapping(spans: list[tuple[int, int]], starts: list[int], start: int, end: int) -> bool:
    i = bisect.bisect_left(starts, end) - 1
    return i >= 0 and spans[i][1] > start


def _written_decoded(find: Callable[[bytes], list[Match]], text: str) -> str | None:
    """A name spelled with escapes, decoded (`text`), with the matcher's edits applied as they would
    be to that plain spelling; None where one of them is refused or kept (a range, an account)."""
    found = find(text.encode("ascii"))
    if any(m.refused or m.kept for m in found):
        return None
    for m in sorted(found, key=lambda m: -m.start):
        text = text[:m.start] + m.new + text[m.end:]
    return text


_PRESENTATION_CHAR = lazy_re.compile(r"\\(?:[0-9]{3}|.)|.")


def _escaped_like(spelled: str, new: str) -> tuple[str, str | None]:
    """`new` with each character that `spelled` escapes wherever it stands escaped the same way
    wherever it stands in `new` (`ana\\045ml2` -> `fv\\045ml1`, `ana\\-ml2.ana.lan` ->
    `fv\\-ml1.fv.lan`), and a note where the file's style cannot be carried over: a character
    escaped in some places only (`\\097na-ml2`: which `a` of the new name?), or no escaped
    character standing in the new name; the rest is written plainly."""
    ways: dict[str, set[str]] = {}  # character (lower case) -> how it is spelled: "", "d" (\DDD), "x" (\X)
    for x in _PRESENTATION_CHAR.finditer(spelled):
        text = x.group()
        if len(text) == 1:
            ways.setdefault(text.lower(), set()).add("")
        else:
            char = chr(int(text[1:])) if len(text) == 4 else text[1]
            ways.setdefault(char.lower(), set()).add("d" if len(text) == 4 else "x")
    kept = {char: next(iter(way)) for char, way in ways.items() if len(way) == 1 and "" not in way}
    escaped = {char: (f"\\{ord(char):03d}" if kept[char.lower()] == "d" else f"\\{char}") for char in new
               if char.lower() in kept}
    out = "".join(escaped.get(char, char) for char in new)
    mixed = sorted(char for char, way in ways.items() if len(way) > 1)
    if out != new and not mixed:
        return out, None
    why = (f"`{spelled}` escapes {', '.join(repr(c) for c in mixed)} in some places only" if mixed
           else f"no character that `{spelled}` escapes stands in the new name")
    return out, f"written as {out.rstrip('.')}: {why}, so the file's escapes are not all carried over"


def _spelled(name: Name, new: str, origin: str | None) -> str:
    """`new` (absolute) written as `name` was: absolute stays absolute; relative stays relative
    when `new` lies under the origin it will be read against, else it is written absolute."""
    if not name.text.endswith(".") and origin is not None:
        if new == origin and name.role != "origin":
            return "@"
        if origin == "." or new.endswith("." + origin):
            relative = new[:-1] if origin == "." else new[: -len(origin) - 1]
            return spelling.case_like(name.text, relative)
    if name.text == "@":
        return new
    return spelling.case_like(name.text.rstrip("."), new[:-1]) + "."


def _moved(name: str, apex: str, new_apex: str) -> str | None:
    """An absolute name under a zone renamed whole (`www.ana.lan.` as `ana.lan` becomes `fv.lan`)
    moves with it, owner or RDATA: its relative neighbours do, through the zone's `$ORIGIN`."""
    if new_apex == apex or not name.endswith("." + apex):
        return None
    return name[: -len(apex)] + new_apex


def _within(at: int, spans: list[tuple[int, int]], starts: list[int]) -> bool:
    i = bisect.bisect_right(starts, at) - 1
    return i >= 0 and at < spans[i][1]


def _inside(name: str, apex: str) -> bool:
    return apex == "." or name == apex or name.endswith("." + apex)
