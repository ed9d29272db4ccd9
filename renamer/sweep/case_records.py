"""An old host name in another case in the record of an address the sweep rewrites (B-8's fallback).

Outside the files whose host names are DNS names (formats/dns_config.py, zones) a name is matched
in its own case only, and `PUG` is a near-miss (`case`). But beside an address the sweep rewrites
(`- {name: PUG, ip: 10.0.40.11}`, an ssh_config's `Host PUG` over `HostName 10.0.40.11`, a DHCP
reservation in a file of another name) the address moves and the name stays: whatever reads the
name as a DNS name (DDNS, a resolver, ssh) then pairs the old name with the new address (break-it
round 8, finding 11). Such a spelling is refused `case-record`, a residual verify fails on, and
the address with it (nothing of the record written), so it is never an OK, before the sweep or
after; where the file is a DNS one, it was matched and rewritten in its case instead.

A record is what is certainly one (break-it round 9, finding 13: an INI `[app]` section held
`[db]`'s address, one top-level YAML key every address of the document): the address's line; the
INI section (`[name]`) or ssh `Host`/`Match` stanza holding it; or the innermost indented block
holding it (its siblings, its list item's start, the key line that opens it), each only when it is
small (8 lines at most) and with no blank line inside. A top-level mapping is a document, no
record. A code identifier is no DNS name: a spelling followed by `=` or `_`, after `$`, or after a
declaration keyword (`PUG=`, `const PUG`, `PUG_HOST`, `${PUG}`) is never one.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Protocol

from renamer import lazy_re
from renamer.occurrences import Match

REASON = "case-record"
_SMALL = 8  # the most lines a section or block may have to be one record
_HEADER = lazy_re.compile(rb"[ \t]*(?:\[[^\]\n]*\][ \t]*(?:[#;].*)?$|(?:Host|Match)[ \t]+(?![=:]))")
_DECLARED = lazy_re.compile(
    rb"(?:^|[\s;{(])(?:const|let|var|val|export|final|static|readonly|local|declare|def"
                       rb"|class|enum|struct|type|#[ \t]*define|define)[ \t]+$")
_ITEM = lazy_re.compile(rb"[ \t]*(?:-[ \t]+)+")


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

    records = {id(a): record(lines, line_of(a.start)) for a in addresses}
    added: list[Match] = []
    held: dict[int, str] = {}  # the addresses refused with a name, by id: why
    for m in matcher.find_any_case(data):
        if m.kind != "host" or any(s < m.end and m.start < e for s, e in taken):
            continue
        spelled = data[m.start:m.end]
        if _identifier(data, m.start, m.end):
            continue
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


def _identifier(data: bytes, start: int, end: int) -> bool:
    """Is the spelling at start:end a code identifier (`PUG=`, `PUG = 1`, `PUG_HOST`, `$PUG`,
    `${PUG}`, `const PUG`), which no resolver reads as a DNS name?"""
    if data[end:end + 1] == b"_" or data[start - 1:start] == b"$" or data[start - 2:start] == b"${":
        return True
    line_end = data.find(b"\n", end)
    rest = data[end:len(data) if line_end < 0 else line_end].lstrip(b" \t")
    if rest[:1] == b"=" and rest[:2] not in (b"==", b"=>"):
        return True
    line = data.rfind(b"\n", 0, start) + 1
    return _DECLARED.search(data[line:start]) is not None


def record(lines: list[bytes], at: int) -> set[int]:
    """The lines that are certainly one record with line `at` (see the module's note)."""
    section = _section(lines, at)
    if section is not None:
        return section
    return _block(lines, at) or {at}


def _section(lines: list[bytes], at: int) -> set[int] | None:
    """The INI section or ssh stanza holding line `at`, from its header to a blank line or the
    next header, if small; None where no header is above within reach (or the line is one)."""
    if _HEADER.match(lines[at]):
        start = at
    else:
        start = at - 1
        while start >= 0 and at - start < _SMALL and lines[start].strip() and not _HEADER.match(lines[start]):
            start -= 1
        if start < 0 or not lines[start].strip() or not _HEADER.match(lines[start]):
            return None
    end = start + 1
    while end < len(lines) and lines[end].strip() and not _HEADER.match(lines[end]):
        end += 1
    return set(range(start, end)) if end - start <= _SMALL else {at}


def _column(line: bytes) -> int:
    """Where the line's key starts: its indentation and any list markers (`- name:` -> 2)."""
    item = _ITEM.match(line)
    return item.end() if item else len(line) - len(line.lstrip(b" \t"))


def _block(lines: list[bytes], at: int) -> set[int] | None:
    """The innermost indented block holding line `at`: its siblings (deeper lines with them),
    back to its list item's start or the key line opening it; None at the top level or where it
    is not small."""
    column = _column(lines[at])
    if column == 0:
        return None
    out = {at}
    n = at
    while not _ITEM.match(lines[n]) or _column(lines[n]) != column:  # up to the item's start or parent
        n -= 1
        if n < 0 or not lines[n].strip() or at - n >= _SMALL:
            break
        out.add(n)
        if _column(lines[n]) < column:
            break  # the key (or `Host`) line opening the block
    n = at + 1
    while n < len(lines) and lines[n].strip() and _column(lines[n]) >= column and n - at < _SMALL:
        if _ITEM.match(lines[n]) and _column(lines[n]) == column:
            break  # the next item of the list
        out.add(n)
        n += 1
    return out if len(out) <= _SMALL else None
