"""Collisions the sweep refuses: two things that would stand under one name once rewritten.

Two ways a rename makes them, both refused with the file's edits, naming both lines:

* an intended merge (renames.merges: two old values become one new one) whose two old values
  both stand as keys of one kind in one file;
* a renamed key that meets the new name already standing there (`Host ana-ml2` renamed to
  `Host fv-ml1` beside a `Host fv-ml1` block): two machines would merge into one, silently. Only
  a name that stood in the file before the move counts (`held_before`): after a completed move,
  one old name coming back meets only the move's own writes, and is one residual, not a refusal
  (issue 27, item 19).

What a key is, per format, is sweep/keyed.py's: by line in any file (keys and sections, ssh
`Host` blocks, hosts-file entries, inventory hosts, zone records by owner and type and a CNAME
beside other data, dnsmasq and Unbound records, dhcp-host names and addresses); two identical
records are one. Where the format knows key paths (YAML, JSON, TOML) two keys of one path
collide wherever they stand, a flow mapping or one-line JSON included (`{"web01": 1, "web02": 2}`).

The parsers' own structure check (sweep/scan.py) refuses some of these too, naming one key and
the parser's line: this check runs first so the refusal names both lines.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from renamer.formats import Format
from renamer.formats.zone import is_records, is_zone
from renamer.sweep.keyed import Found, Key, canonical, line_keys
from renamer.sweep.model import Edit, apply_edits
from renamer.sweep.reservation_keys import with_reservations

# Keys whose format the structure check parses (sweep/scan.py): it refuses a renamed one meeting a
# standing one already, with the parser's own words; merged pairs are this module's alone.
_PARSED = frozenset({"key", "section", "host"})
HeldBefore = Callable[[str], bool]  # did the file hold this new value before the move?


@dataclass(frozen=True)
class _Side:
    line: int  # 0-based
    old: str | None  # the old value rewritten here; None: the key stood already
    new: str
    found: Found


def merge_problem(data: bytes, edits: Sequence[Edit], merges: Sequence[tuple[str, tuple[str, ...]]],
                  fmt: Format | None = None, held_before: HeldBefore | None = None, *,
                  parsed: bool = False) -> str | None:
    """Why the edits would make two things share one key in this file, naming both lines (every
    such place, in line order); None if they would not. With `parsed`, only the renamed keys
    meeting standing ones of the kinds a parser refuses (keys, sections, inventory hosts), each
    as both its lines: what the parser's refusal adds to name every place."""
    if not edits:
        return None
    groups = {old: (new, set(olds)) for new, olds in merges for old in olds}
    after = apply_edits(data, list(edits))
    moved: list[tuple[int, int, str, str]] = []  # the rewritten spans in `after`, with old and new
    shift = 0
    for e in sorted(edits, key=lambda e: e.start):
        start = e.start + shift
        moved.append((start, start + len(e.new), data[e.start:e.end].decode("utf-8", "replace"),
                      e.new.decode("utf-8", "replace")))
        shift += len(e.new) - (e.end - e.start)
    lines = after.decode("utf-8", "replace").split("\n")
    starts = [0]
    for line in after.split(b"\n")[:-1]:
        starts.append(starts[-1] + len(line) + 1)
    # Each line as the file holds it now, for the messages (the indices are the rewritten ones').
    shown = data.decode("utf-8", "replace").split("\n")
    # Zone records are keys only where the text is a zone (or a fragment of one): `fv-ml1 A x` in
    # a note is no record (break-it round 4, finding 9); in a zone, `www in a` is one in any case.
    records = is_zone(data) or is_records(data)
    problems = _by_line(lines, shown, starts, moved, groups, held_before, parsed, records)
    if fmt is not None and fmt.keys:
        problems += _by_key_path(fmt, after, shown, moved, starts, groups, held_before, parsed)
    return "; ".join(dict.fromkeys(problems)) if problems else None


_Moved = list[tuple[int, int, str, str]]  # the rewritten spans (start, end in the new bytes), old and new
_Groups = dict[str, tuple[str, set[str]]]  # a merged old value -> (its new value, the values merged)


def _by_line(lines: list[str], shown: list[str], starts: list[int], moved: _Moved, groups: _Groups,
             held_before: HeldBefore | None, parsed: bool, records: bool) -> list[str]:
    news = {new.lower() for _, _, _, new in moved}
    news |= {canonical(new) for new in news}  # an address key is compared in its canonical spelling
    per_line: dict[int, list[tuple[int, int, str, str]]] = {}
    for span in moved:
        per_line.setdefault(bisect.bisect_right(starts, span[0]) - 1, []).append(span)
    seen: dict[Key, list[_Side]] = {}
    problems: list[str] = []
    owner: tuple[str | None, str] | None = None  # the last zone owner's side, for lines that leave it out
    # DHCP reservations of other servers than dnsmasq: Kea, UCI, networkd, Windows, RouterOS (round 23, #09)
    for index, keys in sorted(with_reservations(lines, line_keys(lines, records=records)).items()):
        for found in keys:
            if found.span == (0, 0) and owner is not None:
                old, new = owner  # a record whose owner is the previous line's
            else:
                hit = next(((o, n) for s, _e, o, n in per_line.get(index, ())
                            if found.span[0] <= s - starts[index] < found.span[1]), None)
                old, new = hit if hit else (None, "")
                if found.key.scope == "owner":
                    owner = (old, new)
            if old is None and not any(n in found.key.name.lower() for n in news):
                continue  # a key no new value names can meet no rename
            side = _Side(index, old, new, found)
            for other in seen.setdefault(found.key, []):
                problem = _meets(other, side, groups, held_before, shown, parsed)
                if problem:
                    problems.append(problem)
            seen[found.key].append(side)
    return problems


# Keys that are the words of one head's name list (keyed._words): the names of one block, one entry.
_ONE_HEAD = frozenset({"ssh Host block", "hosts-file entry"})


def _meets(first: _Side, second: _Side, groups: dict[str, tuple[str, set[str]]],
           held_before: HeldBefore | None, lines: list[str], parsed: bool = False) -> str | None:
    key = first.found.key
    if first.line == second.line and key.what in _ONE_HEAD:
        # one head listing several names (`Host pug wolf`, `10.0.40.11 pug wolf`) is one block, one
        # entry: after the rename it names wolf twice, which its reader takes as once (break-it round
        # 9, severity 3). A dnsmasq line's names share its data, so they are one record already; two
        # keys of one flow mapping (`{pug: 1, wolf: 2}`) are two things on one line, still compared.
        return None
    if key.scope == "owner":  # a CNAME beside other data, or nothing
        if not (first.found.alone or second.found.alone) or first.found.data == second.found.data:
            return None
    elif key.scope == "path":  # two dotted keys may extend one table; not a table and its value
        if first.found.data != second.found.data and key.name not in (first.found.data, second.found.data):
            return None
    elif _is_record(key) and first.found.data == second.found.data:
        return None  # two identical records are one
    if first.old is not None and second.old is not None:
        merged = groups.get(second.old)
        if first.old == second.old or merged is None or first.old not in merged[1]:
            return None
        return (f"{first.old} (line {first.line + 1}) and {second.old} (line {second.line + 1}) are merged "
                f"into {merged[0]}: both would become the {key.what} {key.name}; merge the two "
                "by hand (or keep one with a keep rule)")
    if first.old is None and second.old is None:
        return None  # both stood already: not the sweep's doing
    if (key.what in _PARSED) != parsed:
        return None  # a renamed key meeting a standing one: the parsers' structure check refuses it
    renamed, standing = (first, second) if first.old is not None else (second, first)
    if held_before is not None and not held_before(renamed.new):
        return None  # the new name there is the move's own: the old one came back (one residual)
    if parsed:  # what the parser's words leave out: both lines, every place in the file
        return (f"line {renamed.line + 1} ({lines[renamed.line].strip()!r}) meets line {standing.line + 1} "
                f"({lines[standing.line].strip()!r})")
    what = ("a CNAME beside other data at " if key.scope == "owner" else f"the {key.what} ") + key.name
    if key.what == "pg_hba entry":  # t33-33 finding 12: PostgreSQL's words, not a name's
        what += " (PostgreSQL takes the first line that matches: the later one is never reached)"
    else:
        what += ", two things under one name"
    return (f"line {renamed.line + 1}: {renamed.old} would become {renamed.new}, and line "
            f"{standing.line + 1} already holds it ({lines[standing.line].strip()!r}): both would be {what}; "
            f"rename one of them, merge the two by hand, or keep line {renamed.line + 1} with a keep rule")


def _is_record(key: Key) -> bool:
    """Keys under which two identical lines are one. Not dhcp-host: dnsmasq refuses even two
    identical lines of one address ("duplicate dhcp-host IP address")."""
    return key.what.endswith(("record", "entry")) or key.what.startswith("local-data")


def _by_key_path(fmt: Format, after: bytes, shown: list[str], moved: _Moved, starts: list[int],
                 groups: dict[str, tuple[str, set[str]]], held_before: HeldBefore | None,
                 parsed: bool) -> list[str]:
    """Two keys with one key path once rewritten, as the format locates them (a flow mapping,
    one-line JSON, a TOML inline table: what no line rule sees): two merged old values, or a
    renamed key and the new one standing."""
    text = after.decode("utf-8", "replace")
    spots: list[tuple[int, str | None, str]] = [(start, old, new) for start, _end, old, new in moved]
    rewritten = {start for start, _end, _o, _n in moved}
    for new in {new for _, _, _, new in moved}:  # where each new value already stands
        needle, at = new.encode(), after.find(new.encode())
        while at >= 0:
            if at not in rewritten:
                spots.append((at, None, new))
            at = after.find(needle, at + 1)
    spots.sort(key=lambda s: s[0])
    offsets = [len(after[:start].decode("utf-8", "replace")) for start, _, _ in spots]
    located = fmt.locate(text, offsets)
    if located is None:
        return []
    seen: dict[Key, list[_Side]] = {}
    problems = []
    for (start, old, new), (path, role) in zip(spots, located, strict=True):
        if role != "key" or path is None:
            continue
        # A TOML dotted key (`fv-ml1.port = 1`) names the table `fv-ml1` it extends: compared there.
        key = Key("key", "path", _up_to(path, new))
        side = _Side(bisect.bisect_right(starts, start) - 1, old, new, Found(key, (0, 0), path))
        for other in seen.setdefault(key, []):
            problem = _meets(other, side, groups, held_before, shown, parsed)
            if problem:
                problems.append(problem)
        seen[key].append(side)
    return problems


def _up_to(path: str, value: str) -> str:
    """A key path cut after its last part that is `value` (`srv.fv-ml1.port` -> `srv.fv-ml1`)."""
    at = path.rfind(value)
    while at >= 0:
        end = at + len(value)
        if (at == 0 or path[at - 1] == ".") and (end == len(path) or path[end] == "."):
            return path[:end]
        at = path.rfind(value, 0, at)
    return path
