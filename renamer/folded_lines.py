"""Lines folded by a leading blank: LDIF (RFC 2849), iCalendar (RFC 5545), vCard (RFC 6350).

These readers unfold a physical line that begins with one blank into the line before it: the line
break and that one blank are removed (LDIF: a SPACE; iCalendar and vCard: a SPACE or a TAB), so
`ipHostNumber: 10.0.0.7` + newline + ` 0` is `10.0.0.70` to `ldapadd`, and `URL:https://web01.la` +
newline + ` b.example/` is the old FQDN to a calendar client (t36 finding 13). No byte spells those
values, so they are read unfolded here.

Rewritten, not refused: a fold is no part of the value (the reader deletes it, whatever column it
stands at), so the old value is replaced and each fold that stood inside it is put back at the same
offset of the new value (clamped to its length). The unfolded line is then exactly the line with the
new value, and every line up to the first fold keeps its bytes: a line folded by a tool at 76 columns
(LDIF, python-ldap, ldapsearch) or 75 octets (RFC 5545) keeps its first physical line byte for byte;
only the continuation line holding the value's tail grows or shrinks, which both formats allow (their
widths are a SHOULD; RFC 5545's one MUST, never to fold inside a UTF-8 sequence, holds: a fold sits
between two bytes of an ASCII name or address). A match the rules refuse or keep stays so, its
span over the fold.

MIME headers (`.eml`, RFC 5322) fold too, but their unfolding keeps the blank (`web01.lab.ex` +
newline + ` ample` is two words there): no name is joined, so they are not read here.

LDIF's base64 values (`attr:: ...`, RFC 2849: a value with a leading blank, a `:` or `<` first, or
any byte outside ASCII is written so) are decoded too (t36 finding 14): the value is unfolded,
decoded and matched by the exact rules; where the decoded value is UTF-8 text, its base64 was the
canonical spelling and no old value inside is refused, it is re-encoded with the new values and
folded again: at the width the original was folded at when every physical line but its last had one
width (a tool's folding), at the old folds' offsets otherwise. Any other (bytes that are no text, a
refused match inside) is a residual `encoded`.

Cost: a file is read here only when its name or first line says LDIF, iCalendar or vCard and it
holds a line break followed by a blank (two `in` tests); then the file is unfolded once and matched
only where the unfolded bytes hold a needle the bytes do not.
"""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Callable, Sequence
from dataclasses import replace

from renamer import lazy_re
from renamer.occurrences import Match

ENCODED = "encoded"  # base64_values.ENCODED: the same residual, the same hint
Find = Callable[[bytes], list[Match]]

_LDIF_NAMES = (".ldif", ".ldi")
_CALENDAR_NAMES = (".ics", ".ical", ".icalendar", ".ifb", ".vcs", ".vcf", ".vcard")
_LDIF_START = lazy_re.compile(rb"\A(?:\xef\xbb\xbf)?(?:#[^\n]*\n|[ \t]*\r?\n)*"
                              rb"(?:version:[ \t]*1\b|dn::?[ \t])")
_CALENDAR_START = lazy_re.compile(rb"(?i)\A(?:\xef\xbb\xbf)?[ \t\r\n]*BEGIN:(?:VCALENDAR|VCARD)\b")
_LDIF_FOLD = lazy_re.compile(rb"\r?\n ")
_CALENDAR_FOLD = lazy_re.compile(rb"\r?\n[ \t]")
# an LDIF line holding a base64 value: `attr;options:: value` (the dn too), unfolded
_LDIF_BASE64 = lazy_re.compile(rb"(?m)^(?P<attr>[A-Za-z0-9][A-Za-z0-9;.-]*)::[ ]*"
                               rb"(?P<value>[A-Za-z0-9+/]*={0,2})[ ]*\r?$")


def fold_of(rel: str, data: bytes) -> re.Pattern[bytes] | None:
    """The fold `rel` is read with (LDIF's, or iCalendar's and vCard's), or None where the file
    is none of them or holds no fold."""
    if b"\n " not in data and b"\n\t" not in data:
        return None
    lower = rel.lower()
    if lower.endswith(_LDIF_NAMES) or _LDIF_START.match(data) is not None:
        return _LDIF_FOLD if b"\n " in data else None
    if lower.endswith(_CALENDAR_NAMES) or _CALENDAR_START.match(data) is not None:
        return _CALENDAR_FOLD
    return None


def is_ldif(rel: str, data: bytes) -> bool:
    """Is `rel` LDIF, by its name or its first line?"""
    return rel.lower().endswith(_LDIF_NAMES) or _LDIF_START.match(data) is not None


def unfold(data: bytes, fold: re.Pattern[bytes]) -> tuple[bytes, list[tuple[int, int, bytes]]]:
    """`data` as its reader unfolds it, and each fold removed: (its position in the unfolded bytes,
    its position in `data`, its bytes)."""
    parts: list[bytes] = []
    folds: list[tuple[int, int, bytes]] = []
    last = removed = 0
    for x in fold.finditer(data):
        parts.append(data[last:x.start()])
        folds.append((x.start() - removed, x.start(), x.group()))
        removed += x.end() - x.start()
        last = x.end()
    parts.append(data[last:])
    return b"".join(parts), folds


def _original(position: int, folds: list[tuple[int, int, bytes]], *, at_end: bool) -> int:
    """Where an unfolded position stands in the original (an end at a fold ends before it)."""
    shift = 0
    for at, _, text in folds:
        if at < position or (at == position and not at_end):
            shift += len(text)
        else:
            break
    return position + shift


def refolded(new: str, offsets: Sequence[tuple[int, bytes]]) -> str:
    """`new` with each fold (its offset in the old value, its bytes) put back at the same offset,
    clamped to the new value's length; folds that would meet are dropped (the lines joined)."""
    out, last, at_prev = [], 0, -1
    for offset, text in offsets:
        at = min(offset, len(new))
        if at == at_prev or at == 0:
            continue
        out += [new[last:at], text.decode("ascii")]
        last, at_prev = at, at
    out.append(new[last:])
    return "".join(out)


def might_hold(rel: str, data: bytes, needles: Sequence[bytes]) -> bool:
    """The first pass's question: does the unfolded file (or an LDIF base64 value) hold a needle
    its bytes do not?"""
    fold = fold_of(rel, data)
    if fold is not None:
        joined, _ = unfold(data, fold)
        if any(joined.count(n) > data.count(n) for n in needles):
            return True
    return b"::" in data and is_ldif(rel, data) and bool(_base64_values(data, needles))


def folded_matches(find: Find, rel: str, data: bytes, matches: list[Match]) -> list[Match]:
    """`matches` with every old value only the unfolded text spells: rewritten with its folds
    kept (module doc), or left refused or kept as the rules say."""
    fold = fold_of(rel, data)
    if fold is None:
        return matches
    joined, folds = unfold(data, fold)
    if not folds:
        return matches
    added: list[Match] = []
    for m in find(joined):
        inside = [(at - m.start, text) for at, _, text in folds if m.start < at < m.end]
        if not inside:
            continue
        first, last = _original(m.start, folds, at_end=False), _original(m.end, folds, at_end=True)
        if m.refused is not None or m.kept is not None:
            added.append(replace(m, start=first, end=last))
            continue
        note = "folded over lines (LDIF, iCalendar, vCard unfold them): rewritten, its folds kept in place"
        added.append(replace(m, start=first, end=last, new=refolded(m.new, inside), note=note))
    if not added:
        return matches
    kept = [m for m in matches if not any(a.start < m.end and m.start < a.end for a in added)]
    return sorted([*kept, *added], key=lambda m: m.start)


def _base64_values(data: bytes, needles: Sequence[bytes]) -> list[tuple[int, int, bytes, bytes]]:
    """(start, end in `data`, the attribute, the decoded value) of each LDIF base64 value whose
    decoded bytes hold a needle; the span is the value's folded text."""
    joined, folds = unfold(data, _LDIF_FOLD)
    out = []
    for x in _LDIF_BASE64.finditer(joined):
        try:
            decoded = base64.b64decode(x.group("value"), validate=True)
        except (binascii.Error, ValueError):
            continue
        if any(n in decoded for n in needles):
            start = _original(x.start("value"), folds, at_end=False)
            end = _original(x.end("value"), folds, at_end=True)
            out.append((start, end, x.group("attr"), decoded))
    return out


def _width(lines: list[bytes]) -> int | None:
    """The width every physical line of a folded value but its last has (a tool's folding), with
    the value's own first line counted from the line's start; None where they differ."""
    widths = {len(line) for line in lines[:-1]}
    return widths.pop() if len(widths) == 1 else None


def ldif_base64_matches(find: Find, needles: Sequence[bytes], rel: str, data: bytes,
                        matches: list[Match]) -> list[Match]:
    """`matches` with each LDIF base64 value holding an old value: re-encoded and refolded where
    certain, else refused `encoded` (module doc)."""
    if b"::" not in data or not is_ldif(rel, data):
        return matches
    added: list[Match] = []
    for start, end, attr, decoded in _base64_values(data, needles):
        inside = [m for m in find(decoded) if m.kind in ("host", "address", "network", "reverse")]
        if not inside:
            continue
        name = attr.decode("ascii")
        olds = ", ".join(sorted({m.old for m in inside}))
        new = _reencoded(data, start, end, decoded, inside)
        if new is not None:
            added.append(Match(start, end, data[start:end].decode("ascii"), new, inside[0].kind,
                               note=f"an LDIF base64 value of `{name}` holding {olds}: "
                                    "re-encoded and refolded"))
            continue
        first = inside[0]
        added.append(Match(start, end, first.old, first.new, first.kind, refused=ENCODED,
                           note=f"an LDIF base64 value of `{name}` decodes to bytes holding {olds} that "
                                "no certain rewrite keeps (not UTF-8 text, or a match inside refused); "
                                "decode it, rename, encode it again"))
    if not added:
        return matches
    kept = [m for m in matches if not any(a.start < m.end and m.start < a.end for a in added)]
    return sorted([*kept, *added], key=lambda m: m.start)


def _reencoded(data: bytes, start: int, end: int, decoded: bytes, inside: list[Match]) -> str | None:
    """The value's new folded text, or None where no certain rewrite exists."""
    if any(m.refused is not None or m.kept is not None for m in inside):
        return None
    try:
        decoded.decode("utf-8")
    except UnicodeDecodeError:
        return None
    text = data[start:end]
    joined, folds = unfold(text, _LDIF_FOLD)
    if base64.b64encode(decoded) != joined:
        return None  # not the canonical spelling
    out = bytearray(decoded)
    for m in sorted(inside, key=lambda m: m.start, reverse=True):
        out[m.start:m.end] = m.new.encode("utf-8")
    encoded = base64.b64encode(bytes(out)).decode("ascii")
    if not folds:
        return encoded
    line_start = data.rfind(b"\n", 0, start) + 1
    physical = re.split(rb"\r?\n", data[line_start:end])
    width = _width(physical)
    sep = folds[0][2].decode("ascii")
    if width is None or width <= 1:  # folded by hand: the folds at their old offsets
        return refolded(encoded, [(at, fold) for at, _, fold in folds])
    head = width - (start - line_start)  # what the first physical line holds of the value
    if head <= 0:
        return refolded(encoded, [(at, fold) for at, _, fold in folds])
    pieces, at = [encoded[:head]], head
    while at < len(encoded):
        pieces.append(encoded[at:at + width - 1])  # a continuation line: its blank, then width - 1
        at += width - 1
    return sep.join(pieces)
