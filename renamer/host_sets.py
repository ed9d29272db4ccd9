"""Sets of machines written as a pattern that expands to names: Ansible host ranges, shell braces.

An Ansible inventory writes `ana-ml[1:3]`, `ana-ml[01:03]`, `ana-ml[a:c]`, `10.250.50.[50:60]`
(INI or YAML, as a key or a value; a step `[1:9:2]`, several ranges in one name); a shell writes
`{ana,fv}-ml2`, `ana-ml{2..4}`, `10.250.50.{50..60}`, nested sets, sequences with a step. None
of them spells the old value, and each stands for it when one of the names it expands to holds
an old value (at either end of the range or inside it): renaming that member would break the
set, and leaving it silent would leave the set naming a machine that moved. Each such pattern
is a refused occurrence, reason `range` (context.py's rule for `web01-04`, `web{01..03}`), and
every exact match inside it is refused with it.

How: each pattern is expanded (the cap below keeps the work bounded: past it a range stands for
its two ends) and its names are matched by the exact rules, one pass over them joined by line
breaks. A match that one literal piece of the pattern spells whole (`{ana-ml2,db}`: a list that
names ana-ml2 in full) is the exact matcher's, rewritten as ever; a match that the expansion
builds (a generated number, a piece of an alternative joined to the text around it) makes the
pattern a residual.

Cost: a file is looked at only when it holds `[` or `{`, one of the old values' longest words
(or for an address, two of its octets with their dot), and a group of the shapes above; only
the patterns around such a group are expanded. A set that splits every one of those words or
octet pairs across its braces (`{an,fv}a-ml2`) is not looked for (docs/matching.md).
"""

from __future__ import annotations

import bisect
import ipaddress
import re
import string
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace

from renamer import hostlists, lazy_re
from renamer.occurrences import Match

# A group of one of the expanding shapes: Ansible's `[beg:end]` / `[beg:end:step]` (numbers,
# or single letters) and a shell's `{a,b}` (name characters between commas) or `{x..y[..step]}`.
# Every set holds one such innermost group; the pattern around it is read by the parser below.
_GROUP = lazy_re.compile(rb"\[(?:[0-9]*:[0-9]+(?::[0-9]+)?|[A-Za-z]:[A-Za-z])\]|"  # Ansible; pdsh/Slurm next
                    + hostlists.BRACKET.pattern
                    + rb"|\{(?:[A-Za-z0-9._-]*(?:,[A-Za-z0-9._-]*)+|-?[0-9]+\.\.-?[0-9]+(?:\.\.-?[0-9]+)?"
                    rb"|[A-Za-z]\.\.[A-Za-z](?:\.\.-?[0-9]+)?)\}")
_BRACKET = lazy_re.compile(rb"\[(?:(?P<beg>[0-9]*):(?P<end>[0-9]+)(?::(?P<step>[0-9]+))?"
                      rb"|(?P<a>[A-Za-z]):(?P<z>[A-Za-z]))\]")
_SEQUENCE = lazy_re.compile(rb"\{(?:(?P<x>-?[0-9]+)\.\.(?P<y>-?[0-9]+)|(?P<a>[A-Za-z])\.\.(?P<z>[A-Za-z]))"
                       rb"(?:\.\.(?P<step>-?[0-9]+))?\}")
_NAME = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-")
_DIGITS = lazy_re.compile(
    rb"\[(?P<body>[0-9]-[0-9])\](?![*+?{])")  # `[1-2]`, read as a hostlist only after a set
_REACH = 256  # how far a pattern reaches either side of its group
CAP = 1 << 16  # names expanded per pattern; past it, each range or sequence stands for its ends
_MAX_STEPS = 100_000  # a sequence's length before the ends alone are taken (`{1..999999999}`)


@dataclass(frozen=True, slots=True)
class Literal:
    text: bytes
    start: int  # where it stands in the file


@dataclass(frozen=True, slots=True)
class Generated:
    values: tuple[bytes, ...]
    ends: tuple[bytes, ...]  # what stands for the values past the cap


@dataclass(frozen=True, slots=True)
class Choice:
    alternatives: tuple[tuple[Part, ...], ...]


Part = Literal | Generated | Choice
Piece = tuple[bytes, int]  # a name's text and where it stands in the file (-1: generated)


def pieces(hosts: Iterable[str], addresses: Iterable[str]) -> tuple[bytes, ...]:
    """What a set covering an old value almost surely spells literally: a host name's longest
    words, an IPv4 address's leading, middle and trailing octet pairs with their dots."""
    out: set[bytes] = set()
    for old in hosts:
        words = re.findall(r"[A-Za-z]+", old)
        longest = max((len(w) for w in words), default=0)
        out.update(w.encode() for w in words if len(w) == longest)
        if not longest:
            out.add(old.encode())
    for old in addresses:
        try:
            if ipaddress.ip_address(old).version != 4:
                continue  # IPv6 sets are not looked for
        except ValueError:
            continue
        a, b, c, d = old.split(".")
        out.update((f"{a}.{b}.".encode(), f".{b}.{c}.".encode(), f".{c}.{d}".encode()))
    return tuple(sorted(out))


def might_hold(data: bytes, needles: Sequence[bytes]) -> bool:
    """The cheap prefilter: a bracket or brace, a piece of an old value, and a set's group."""
    return ((b"[" in data or b"{" in data) and any(n in data for n in needles)
            and _GROUP.search(data) is not None)


def with_sets(data: bytes, matches: list[Match], find: Callable[[bytes], list[Match]],
              needles: Sequence[bytes]) -> list[Match]:
    """`matches` with each set that covers an old value refused `range` (and the matches inside
    it); `find`: the exact matcher over bytes (the joined names of one set)."""
    if not needles or not might_hold(data, needles):
        return matches
    flagged: list[tuple[int, int, Match]] = []
    done = -1
    for group in _GROUP.finditer(data):
        if group.start() < done:
            continue  # inside a pattern already read
        token = _pattern_around(data, group.start())
        if token is None:
            continue
        start, end, parts = token
        done = end
        if group.group().startswith(b"[") and b":" not in group.group() and _in_regex(data, start, end):
            continue  # `^web0[10-19]\.lab$`: a regular expression's class, patterns.py's to decide
        covered = _covered(parts, find)
        if covered is not None:
            flagged.append((start, end, covered))
    return _refused(matches, flagged) if flagged else matches


# Regular expression syntax right before or after a bracket's word: the bracket is a class.
_REGEX_BEFORE = frozenset(b"^(|~")
_REGEX_AFTER = frozenset(b"\\$)|*+?{")


def _in_regex(data: bytes, start: int, end: int) -> bool:
    """Does regex syntax stand at the edge of the word `data[start:end]` (`^web0[1-3]`, `web0[12]\\.`)?"""
    return ((start > 0 and data[start - 1] in _REGEX_BEFORE)
            or (end < len(data) and data[end] in _REGEX_AFTER))


# The kinds a set's expansion can hold and whose rewrite would touch one member of the set only
# (a reverse name, `{54,55}.50.250.10.in-addr.arpa`, as much as a host or an address).
_RENAMED = ("host", "address", "network", "reverse")


def _covered(parts: tuple[Part, ...], find: Callable[[bytes], list[Match]]) -> Match | None:
    """The first old value one of the pattern's names holds where the expansion builds it."""
    names = _expand(parts, ends_only=_count(parts) > CAP)[:CAP]
    texts = [b"".join(text for text, _ in name) for name in names]
    starts, at = [], 0
    for text in texts:
        starts.append(at)
        at += len(text) + 1
    # A literal piece's match, in each name holding that piece: (piece, span in it) -> (names, a match)
    whole: dict[tuple[int, int, int], tuple[set[int], Match]] = {}
    for m in find(b"\n".join(texts)):
        if m.kind not in _RENAMED or m.kept is not None:
            continue
        index = bisect.bisect_right(starts, m.start) - 1
        low, high = m.start - starts[index], m.end - starts[index]
        piece = _spelled_whole(names[index], low, high)
        if piece is None:
            return m
        whole.setdefault(piece, (set(), m))[0].add(index)
    # A piece spelled whole is rewritten in every name that holds it: each of those names must move
    # with it. `web01{,-bmc}` names web01 and web01-bmc; web01-bmc does not move (no derived names),
    # so rewriting the head would make the set name app01-bmc (outside pass t28, finding 19).
    for (start, _, _), (found, m) in whole.items():
        holding = {i for i, name in enumerate(names) if any(at == start for _, at in name)}
        if holding - found:
            return m
    return None


def _spelled_whole(name: list[Piece], low: int, high: int) -> tuple[int, int, int] | None:
    """The literal piece of the pattern that spells name[low:high] whole (a list member named in
    full), as (where it stands in the file, low and high within it); None if none does."""
    at = 0
    for text, start in name:
        if at <= low and high <= at + len(text):
            return (start, low - at, high - at) if start >= 0 else None
        at += len(text)
    return None


def _refused(matches: list[Match], flagged: list[tuple[int, int, Match]]) -> list[Match]:
    out = list(matches)
    added = []
    for start, end, covered in flagged:
        inside = [i for i, m in enumerate(out) if m.start < end and start < m.end]
        for i in inside:
            m = out[i]
            if m.refused is None and m.kept is None and m.kind in _RENAMED:
                out[i] = replace(m, refused="range")
        if not inside:
            added.append(Match(start, end, covered.old, covered.new, covered.kind, refused="range"))
    return sorted(out + added, key=lambda m: m.start) if added else out


def _pattern_around(data: bytes, group: int) -> tuple[int, int, tuple[Part, ...]] | None:
    """The pattern (literals, ranges, braces) that holds the group starting at `group`: parsed
    from the start of its line's word, each stretch the parser cannot read a separator."""
    line = data.rfind(b"\n", 0, group) + 1
    low = max(line, group - _REACH)
    line_end = data.find(b"\n", group)
    high = min(len(data) if line_end == -1 else line_end, group + _REACH)
    pos = low
    while pos <= group:
        parts, end = _sequence(data, pos, high)
        if parts and pos <= group < end:
            if any(not isinstance(p, Literal) for p in parts):
                return pos, end, parts
            return None
        pos = end + 1 if end > pos else pos + 1
    return None


def _sequence(data: bytes, pos: int, high: int) -> tuple[tuple[Part, ...], int]:
    """Parts from `pos` up to the first byte that is none of them (a `,` or `}` ends an
    alternative); where they end."""
    parts: list[Part] = []
    while pos < high:
        byte = data[pos]
        if byte in _NAME:
            end = pos
            while end < high and data[end] in _NAME:
                end += 1
            parts.append(Literal(data[pos:end], pos))
            pos = end
            continue
        if byte == ord("["):
            bracket = _BRACKET.match(data, pos, high)
            if bracket is not None:
                parts.append(_generated(_ansible_range(bracket)))
                pos = bracket.end()
                continue
            listed = hostlists.BRACKET.match(data, pos, high)  # pdsh/Slurm `[01-05,07]`
            if listed is None and any(not isinstance(p, Literal) for p in parts):
                # `{web,cache}0[1-2]`: a one-digit range after another set's group is a hostlist,
                # not a regular expression's class (round 23 finding 01)
                listed = _DIGITS.match(data, pos, high)
            expanded = hostlists.values(listed.group("body")) if listed is not None else ()
            if listed is None or not expanded:
                break
            parts.append(_generated(expanded))
            pos = listed.end()
            continue
        if byte == ord("{"):
            brace = _brace(data, pos, high)
            if brace is None:
                break
            part, pos = brace
            parts.append(part)
            continue
        break
    return tuple(parts), pos


def _brace(data: bytes, pos: int, high: int) -> tuple[Part, int] | None:
    """A shell brace at `pos`: a sequence, or two or more alternatives (each a pattern itself)."""
    sequence = _SEQUENCE.match(data, pos, high)
    if sequence is not None:
        return _generated(_shell_sequence(sequence)), sequence.end()
    alternatives = []
    at = pos + 1
    while at < high:
        parts, at = _sequence(data, at, high)
        alternatives.append(parts)
        if at >= high:
            return None
        if data[at] == ord(","):
            at += 1
            continue
        if data[at] == ord("}") and len(alternatives) > 1:
            return Choice(tuple(alternatives)), at + 1
        return None
    return None


def _generated(values: tuple[bytes, ...]) -> Generated:
    """A range's values, and where they are padded (`[01:03]`) the same numbers unpadded as well:
    the set most likely meant machines 1 to 3 whatever their width, as context.py reads
    `web{01..03}` by value; a person decides."""
    ends = values[:1] + values[-1:]
    if values and values[0][:1] == b"0" and len(values[0]) > 1 and values[0].isdigit():
        bare = tuple(str(int(v)).encode() for v in values)
        return Generated(values + bare, ends + bare[:1] + bare[-1:])
    return Generated(values, ends)


def _ansible_range(found: re.Match[bytes]) -> tuple[bytes, ...]:
    """The values of `[beg:end:step]` as Ansible expands them (inventory helpers): a begin with a
    leading zero pads every value to its width; single letters run over ASCII letters."""
    if found.group("a") is not None:
        letters = string.ascii_letters
        first, last = letters.index(found.group("a").decode()), letters.index(found.group("z").decode())
        return tuple(c.encode() for c in letters[first:last + 1])
    beg = found.group("beg").decode() or "0"
    end = found.group("end").decode()
    step = int(found.group("step") or b"1") or 1
    width = len(beg) if beg.startswith("0") and len(beg) > 1 else 0
    return _numbers(int(beg), int(end), step, width)


def _shell_sequence(found: re.Match[bytes]) -> tuple[bytes, ...]:
    """The values of `{x..y..step}` as bash expands them: either direction, padded to the wider
    end where either is written with a leading zero; letters by their code."""
    step = abs(int(found.group("step") or b"1")) or 1
    if found.group("a") is not None:
        first, last = ord(found.group("a")), ord(found.group("z"))
        codes = range(first, last + 1, step) if first <= last else range(first, last - 1, -step)
        return tuple(bytes([c]) for c in codes)
    x, y = found.group("x").decode(), found.group("y").decode()
    padded = any(v.lstrip("-").startswith("0") and len(v.lstrip("-")) > 1 for v in (x, y))
    width = max(len(x), len(y)) if padded else 0
    first, last = int(x), int(y)
    if first <= last:
        return _numbers(first, last, step, width)
    return tuple(reversed(_numbers(last, first, step, width)))


def _numbers(first: int, last: int, step: int, width: int) -> tuple[bytes, ...]:
    if (last - first) // step > _MAX_STEPS:
        values: Iterable[int] = (first, last)
    else:
        values = range(first, last + 1, step)
    return tuple(f"{v:0{width}d}".encode() for v in values)


def _count(parts: Sequence[Part]) -> int:
    total = 1
    for part in parts:
        if isinstance(part, Generated):
            total *= max(len(part.values), 1)
        elif isinstance(part, Choice):
            total *= max(sum(_count(a) for a in part.alternatives), 1)
        if total > CAP:
            return total
    return total


def _expand(parts: Sequence[Part], *, ends_only: bool) -> list[list[Piece]]:
    """Every name of the pattern, each as its pieces (text, where it stands or -1)."""
    names: list[list[Piece]] = [[]]
    for part in parts:
        options: list[list[Piece]]
        if isinstance(part, Literal):
            options = [[(part.text, part.start)]]
        elif isinstance(part, Generated):
            values = part.ends if ends_only else part.values
            options = [[(value, -1)] for value in values]
        else:
            options = [name for alternative in part.alternatives
                       for name in _expand(alternative, ends_only=ends_only)]
        names = [name + option for name in names for option in options][:CAP]
    return names
