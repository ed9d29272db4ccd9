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

The reading is UTS46's: NFKC, so compatibility forms count too (round 3 finding 18): fullwidth
letters and digits (`ａｎａ-ｍｌ２`, `１０.250.50.54`), the Kelvin sign, and the ideographic full stops
`。`, `．` and `｡` as label separators (`ana-ml2。ana。lan`). Such a spelling is refused `encoded`:
the new name in the same dress is a guess (which letters were fullwidth?), and only some consumers
fold it. Boundaries are the folded text's: `ｋana-ml2` reads `kana-ml2`, another host, so the
bytes' match of `ana-ml2` inside it is dropped, as is `ana-ml2ｘ`'s.

Cost: only where the file holds a non-ASCII byte, and for an ASCII old name only in runs holding a
compatibility character.
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


def _unicode_needles(finder: Finder) -> tuple[bytes, ...]:
    return _non_ascii(finder.needles)


@functools.lru_cache(maxsize=8)
def _non_ascii(needles: tuple[bytes, ...]) -> tuple[bytes, ...]:
    """Asked once per needle set, not once per file: a 10/8 network's matcher has hundreds."""
    return tuple(n for n in needles if not n.isascii())


# UTS46 maps these to `.` (NFKC leaves U+3002 as it is and turns U+FF61 into it; U+FF0E becomes `.`).
_FULL_STOPS = str.maketrans({"\u3002": "."})
_NAME_ASCII = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-_:")


def _folded(run: bytes) -> tuple[bytes, list[tuple[int, int]], bool] | None:
    """`run` NFKC and lower-cased, with the (folded, original) byte offsets of each grapheme's
    start and of the end, and whether a compatibility character was folded; None when it is not
    UTF-8."""
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
    out, marks, at, original, compat = [], [], 0, 0, False
    for cluster in clusters:
        marks.append((at, original))
        nfc = unicodedata.normalize("NFC", cluster)
        nfkc = unicodedata.normalize("NFKC", nfc).translate(_FULL_STOPS)
        # a character outside ASCII that reads as a name's ASCII one (`ｋ`, the Kelvin sign, `。`)
        compat = compat or (not cluster.isascii() and any(c in _NAME_ASCII for c in nfkc))
        piece = nfkc.lower().encode("utf-8")
        out.append(piece)
        at += len(piece)
        original += len(cluster.encode("utf-8"))
    marks.append((at, original))
    return b"".join(out), marks, compat


def _runs(finder: Finder, data: bytes) -> list[tuple[int, bytes, bytes, list[tuple[int, int]], bool]]:
    if data.isascii():  # in C: no Python loop over the bytes
        return []
    unicode_needles = _unicode_needles(finder)
    out = []
    for x in _RUN.finditer(data):
        folded = _folded(x.group())
        if folded is None or folded[0] == x.group():
            continue
        # an ASCII old name can only hide behind a compatibility character (`ａｎａ`, `。`)
        needles = finder.needles if folded[2] else unicode_needles
        if any(n in folded[0] for n in needles):
            out.append((x.start(), x.group(), *folded))
    return out


def might_fold(finder: Finder, data: bytes) -> bool:
    """Does a Unicode run of `data`, case-folded and NFC, hold an old name's Unicode form?"""
    return bool(_runs(finder, data))


def folded_matches(finder: Finder, data: bytes, matches: list[Match]) -> list[Match]:
    """`matches` with the old names only the folded reading spells added (rewritten where NFC alone
    makes the exact form, else refused `encoded`); a shorter match inside one gives way."""
    added: list[Match] = []
    joined: list[Match] = []  # matches of the bytes the folded reading joins to another name
    for base, spelled_run, folded, marks, compat in _runs(finder, data):
        starts = {f: o for f, o in marks}
        readings = finder.find(folded)
        if compat:
            spans = [(base + starts[d.start], base + starts[d.end]) for d in readings
                     if d.start in starts and d.end in starts]
            joined += [m for m in matches if base <= m.start and m.end <= base + len(spelled_run)
                       and not any(s < m.end and m.start < e for s, e in spans)]
        for d in readings:
            if d.start not in starts or d.end not in starts:
                continue  # inside a grapheme: the forms' UTF-8 guards make this another name
            start, end = base + starts[d.start], base + starts[d.end]
            if any(m.start == start and m.end == end for m in matches):
                continue  # an exact form, found in the bytes
            if compat and data[start:end].isascii():
                continue  # only the case differs, beside a compatibility character: forms.py's call
            spelled = data[start:end]
            nfc = unicodedata.normalize("NFC", spelled.decode("utf-8")).encode("utf-8")
            exact = [m for m in finder.find(nfc) if m.start == 0 and m.end == len(nfc)]
            if exact and d.refused is None and d.kept is None:
                added.append(Match(start, end, spelled.decode("utf-8"), exact[0].new, d.kind, d.derived))
            else:
                added.append(Match(start, end, spelled.decode("utf-8"), d.new, d.kind, d.derived,
                                   d.refused if d.refused is not None else ENCODED, d.kept))
    if not added and not joined:
        return matches
    dropped = {id(m) for m in joined}
    kept = [m for m in matches if id(m) not in dropped
            and not any(a.start < m.end and m.start < a.end for a in added)]
    return sorted([*kept, *added], key=lambda m: m.start)
