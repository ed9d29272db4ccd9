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

Some code points are deleted, not folded (break-it round 4, finding 8): the soft hyphen U+00AD,
ZERO WIDTH SPACE U+200B, ZWNJ and ZWJ U+200C/D, the COMBINING GRAPHEME JOINER U+034F, the variation
selectors, the word joiner, a byte-order mark inside a name: stringprep's table B.1, "commonly
mapped to nothing", which IDNA2003's nameprep (Python's own `idna` codec, the one
`socket.getaddrinfo` applies to a str host) and UTS46 (as "ignored", ZWNJ/ZWJ in its transitional
processing) delete, with UTS46's later additions. `ana\u00ad-ml2` resolves as ana-ml2, invisibly:
refused `encoded` like a compatibility form (where the new name would take the hidden character
is a guess, and a reader should see it); trailing or leading, outside the name's ends, it is not
part of the match. A file's leading BOM is no character of a name.

Cost: only where the file holds a non-ASCII byte, and for an ASCII old name only in runs holding a
compatibility character.
"""

from __future__ import annotations

import functools
import stringprep
import unicodedata
from typing import Protocol

from renamer import lazy_re
from renamer.occurrences import Match

_RUN = lazy_re.compile(rb"[A-Za-z0-9._\x80-\xff-]*[\x80-\xff][A-Za-z0-9._\x80-\xff-]*")
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
# UTS46's "ignored" beyond table B.1 (the Mongolian FVS4, INVISIBLE PLUS, shorthand format
# controls, the variation selectors 17-256): deleted as B.1 is.
_IGNORED_TOO = frozenset({0x180F, 0x2064, *range(0x1BCA0, 0x1BCA4), *range(0xE0100, 0xE01F0)})


def deleted(ch: str) -> bool:
    """Whether a name reader deletes `ch` (a soft hyphen, a zero-width space or joiner...)."""
    return stringprep.in_table_b1(ch) or ord(ch) in _IGNORED_TOO


_NAME_ASCII = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-_:")


def _folded(run: bytes, at_file_start: bool = False) -> tuple[bytes, list[tuple[int, int]], bool] | None:
    """`run` NFKC and lower-cased, the code points a name reader deletes deleted, with the
    (folded, original) byte offsets of each grapheme's start and of the end, and whether a
    compatibility character was folded or one deleted; None when it is not UTF-8. A deleted
    character's start shares its folded offset with the next grapheme's (`Offsets` reads them)."""
    try:
        text = run.decode("utf-8")
    except UnicodeDecodeError:
        return None
    clusters: list[str] = []
    for ch in text:
        if clusters and unicodedata.combining(ch) and not deleted(ch):
            clusters[-1] += ch
        else:
            clusters.append(ch)
    out, marks, at, original, compat = [], [], 0, 0, False
    for index, cluster in enumerate(clusters):
        marks.append((at, original))
        nfc = unicodedata.normalize("NFC", cluster)
        bom = index == 0 and at_file_start and cluster == "\ufeff"  # the file's BOM: no name's
        gone = not bom and any(deleted(c) for c in nfc)
        nfkc = "".join(c for c in unicodedata.normalize("NFKC", nfc) if not (gone and deleted(c)))
        nfkc = nfkc.translate(_FULL_STOPS)
        # a character outside ASCII that reads as a name's ASCII one (`ｋ`, the Kelvin sign, `。`),
        # or one deleted: an ASCII name may hide behind either
        compat = compat or gone or (not cluster.isascii() and any(c in _NAME_ASCII for c in nfkc))
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
        folded = _folded(x.group(), x.start() == 0)
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
        # a deleted character shares its folded offset with what follows: a match starts after
        # it (the last original offset) and ends before it (the first), so it never takes one in
        starts = dict(marks)
        ends: dict[int, int] = {}
        for f, o in marks:
            ends.setdefault(f, o)
        readings = finder.find(folded)
        if compat:
            spans = [(base + starts[d.start], base + ends[d.end]) for d in readings
                     if d.start in starts and d.end in ends]
            joined += [m for m in matches if base <= m.start and m.end <= base + len(spelled_run)
                       and not any(s < m.end and m.start < e for s, e in spans)]
        for d in readings:
            if d.start not in starts or d.end not in ends:
                continue  # inside a grapheme: the forms' UTF-8 guards make this another name
            start, end = base + starts[d.start], base + ends[d.end]
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
