"""Enumerations with an ellipsis (t31 round 24, finding 26).

`web01,…,web05` (first, gap, last) is a range (context.py). Written longer, `The web nodes web01,
web02, ..., web05 serve the site.`, `[web01, web02, …, web05]`, `10.0.0.70, 10.0.0.71, ..., 10.0.0.74`
or open-ended `web01, web02, web03, ...`, the list is the same set of machines by its pattern: the
gap stands for the members between, counted on from the first ones. Renaming one member
(`app01, web02, ..., web05`) breaks the pattern the ellipsis relies on, so every old value in such
an enumeration is refused `range`, as at a range's end, and left for a person.

An enumeration is items joined by commas (a blank or `and`/`or` allowed after it), one of them an
ellipsis (`...`, `…`, `&hellip;`, `&#8230;`), at least two named items before it, every named item
a numbered value of one stem and one tail (`web` + `01` + `.lab.example`; an address's first three
octets and its last), optionally dressed (quotes, code spans). A list of unrelated names with an
ellipsis (`pug, rex, ...`) has no stem and no pattern: no range. Pure: bytes and matches in,
matches out; asked by `Matcher.find`.
"""

from __future__ import annotations

import re
from dataclasses import replace

from renamer import lazy_re
from renamer.occurrences import Match

REASON = "range"
_GAP = rb"(?:\xe2\x80\xa6|\.\.\.|&hellip;|&#8230;|&#x2026;)"
_DRESS = rb"[`'\"*]{0,2}"
_ITEM = rb"[A-Za-z0-9][A-Za-z0-9_.:-]*"
_SEP = rb"(?:[ \t]*,[ \t]*(?:(?:and|or)[ \t]+)?|[ \t]+(?:and|or)[ \t]+)"
# items, then a gap, then maybe more items: the whole enumeration, its items' texts found after
_LIST = lazy_re.compile(rb"(?<![\w.:-])" + _DRESS + _ITEM + _DRESS
                   + rb"(?:" + _SEP + rb"(?:" + _DRESS + _ITEM + _DRESS + rb"|" + _GAP + rb"))+")
_ONE = lazy_re.compile(_DRESS + rb"(?P<v>" + _ITEM + rb")" + _DRESS + rb"$")
_NUMBERED = lazy_re.compile(rb"^(?P<stem>.*?)(?P<n>[0-9]+)(?P<tail>(?:\.[A-Za-z][A-Za-z0-9-]*)*)$")


def might_hold(data: bytes) -> bool:
    return b"..." in data or b"\xe2\x80\xa6" in data or b"&hellip;" in data or b"&#8230;" in data \
        or b"&#x2026;" in data


def _key(text: bytes) -> tuple[bytes, bytes] | None:
    found = _NUMBERED.match(text)
    if found is None or not found.group("stem") or found.group("stem").endswith(b"-"):
        return None  # `01`, `web-01`'s stem is `web-`: a derived name's number, still one stem
    return found.group("stem"), found.group("tail")


def spans(data: bytes) -> list[tuple[int, int]]:
    """(start, end) of each enumeration with an ellipsis whose named items share one stem."""
    out = []
    for found in _LIST.finditer(data):
        text = found.group()
        parts = re.split(_SEP, text)
        gaps = [i for i, part in enumerate(parts) if re.fullmatch(_GAP, part.strip())]
        if not gaps:
            continue
        named = [one.group("v") for part in parts if not re.fullmatch(_GAP, part.strip())
                 if (one := _ONE.match(part.strip())) is not None]
        if len(named) < 3 - (1 if gaps[0] == len(parts) - 1 else 0) or gaps[0] < 2:
            continue  # `web01,…,web05` is context.py's range; at least two before the gap
        keys = {_key(v.rstrip(b".")) for v in named}
        if len(keys) != 1 or None in keys:
            continue
        out.append((found.start(), found.end()))
    return out


def refused(data: bytes, matches: list[Match]) -> list[Match]:
    """`matches` with each host or address inside an enumeration with an ellipsis refused `range`."""
    found = spans(data)
    if not found:
        return matches
    out = list(matches)
    for start, end in found:
        for i, m in enumerate(out):
            if start <= m.start and m.end <= end and m.kind in ("host", "address") and m.refused is None \
                    and m.kept is None:
                out[i] = replace(m, refused=REASON, note=(
                    f"{m.old} is a member of an enumeration with an ellipsis "
                    f"({data[start:end].decode('utf-8', 'replace')}): the gap stands for the members "
                    "between, counted on from the first; renaming one breaks the pattern"))
    return out
