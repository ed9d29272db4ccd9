"""Old IDNA names in a Unicode spelling the exact forms do not hold: another case (`BÜCHER.ana.lan`,
`Bücher`) or another normalisation (`bu\\u0308cher`, a `u` and a combining diaeresis: NFD).

An IDNA consumer (a resolver library, a browser) maps a U-label through case folding and NFC
before it looks the name up, so each of these is the old name. forms.py matches the lower-case
NFC spelling and the all-upper one; here every run of name characters holding a non-ASCII one is
read NFC and lower-cased, one grapheme (a base character and its combining marks) at a time, and
matched again:

* NFC of the bytes is one of the exact forms (`bu\\u0308cher` is `bücher`): the same spelling to
  every consumer, rewritten to the new name as configured, as the exact form is;
* anything else (a case forms.py does not spell): refused `encoded`, since which case the new
  name should take is not certain, and host names outside DNS files are case-sensitive.

Cost: only where a configured old name has a Unicode form and the file holds a non-ASCII byte.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from typing import Protocol

from renamer.occurrences import Match

_RUN = re.compile(rb"[A-Za-z0-9._\x80-\xff-]*[\x80-\xff][A-Za-z0-9._\x80-\xff-]*")
ENCODED = "encoded"


class Finder(Protocol):
    needles: tuple[bytes, ...]

    def find(self, data: bytes) -> list[Match]: ...


def unicode_needles(finder: Finder) -> tuple[bytes, ...]:
    """The needles with a non-ASCII byte: only a file holding one can hold their folded forms."""
    return _non_ascii(finder.needles)


@functools.lru_cache(maxsize=8)
def _non_ascii(needles: tuple[bytes, ...]) -> tuple[bytes, ...]:
    """Asked once per needle set, not once per file: a 10/8 network's matcher has hundreds."""
    return tuple(n for n in needles if not n.isascii())


def _folded(run: bytes) -> tuple[bytes, list[tuple[int, int]]] | None:
    """`run` NFC and lower-cased, with the (folded, original) byte offsets of each grapheme's
    start and of the end; None when it is not UTF-8."""
    try:
        text = run.decode("utf-8")
    except UnicodeDecodeError:
        return None
    clusters: list[str] = []
    for ch in text:
        if clusters and unicodedata.combining(ch):
            clusters[-1] += ch
        else:
            clusters.append(ch)
    out, marks, at, original = [], [], 0, 0
    for cluster in clusters:
        marks.append((at, original))
        piece = unicodedata.normalize("NFC", cluster).lower().encode("utf-8")
        out.append(piece)
        at += len(piece)
        original += len(cluster.encode("utf-8"))
    marks.append((at, original))
    return b"".join(out), marks


def _runs(finder: Finder, data: bytes) -> list[tuple[int, bytes, bytes, list[tuple[int, int]]]]:
    needles = unicode_needles(finder)
    if not needles or max(data, default=0) < 0x80:
        return []
    out = []
    for x in _RUN.finditer(data):
        folded = _folded(x.group())
        if folded is not None and folded[0] != x.group() and any(n in folded[0] for n in needles):
            out.append((x.start(), x.group(), *folded))
    return out


def might_fold(finder: Finder, data: bytes) -> bool:
    """Does a Unicode run of `data`, case-folded and NFC, hold an old name's Unicode form?"""
    return bool(_runs(finder, data))


def folded_matches(finder: Finder, data: bytes, matches: list[Match]) -> list[Match]:
    """`matches` with the old names only the folded reading spells added (rewritten where NFC alone
    makes the exact form, else refused `encoded`); a shorter match inside one gives way."""
    added: list[Match] = []
    for base, _spelled, folded, marks in _runs(finder, data):
        starts = {f: o for f, o in marks}
        for d in finder.find(folded):
            if d.start not in starts or d.end not in starts:
                continue  # inside a grapheme: the forms' UTF-8 guards make this another name
            start, end = base + starts[d.start], base + starts[d.end]
            if any(m.start == start and m.end == end for m in matches):
                continue  # an exact form, found in the bytes
            spelled = data[start:end]
            nfc = unicodedata.normalize("NFC", spelled.decode("utf-8")).encode("utf-8")
            exact = [m for m in finder.find(nfc) if m.start == 0 and m.end == len(nfc)]
            if exact and d.refused is None and d.kept is None:
                added.append(Match(start, end, spelled.decode("utf-8"), exact[0].new, d.kind, d.derived))
            else:
                added.append(Match(start, end, spelled.decode("utf-8"), d.new, d.kind, d.derived,
                                   d.refused if d.refused is not None else ENCODED, d.kept))
    if not added:
        return matches
    kept = [m for m in matches if not any(a.start < m.end and m.start < a.end for a in added)]
    return sorted([*kept, *added], key=lambda m: m.start)
