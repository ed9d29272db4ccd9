"""Legacy double-byte encodings: where reading a file's bytes as Latin-1 and reading them as
Shift_JIS/CP932, GBK/GB18030, Big5 or UHC/CP949 disagree about an old value (break-it round 10,
finding 6).

A file that is not UTF-8 is matched byte by byte, as if it were Latin-1: every byte >= 0x80 is
a character outside a name. That is right for Latin-1 and for every encoding whose multibyte
characters are made of high bytes only (EUC-JP, EUC-KR, GB2312). It is wrong for the encodings
whose *second* byte may be ASCII: in Shift_JIS `ト` is `0x83 0x67`, a lead byte and `g`, so
`ホストpug` reads `…gpug` (no whole name: a live reference missed, with no near-miss), and a
lead byte before `pug` would make an edit land inside a character, corrupting it.

renamer cannot tell which encoding a file is in (a short Latin-1 file may decode as GBK too), so
it never guesses. For each such encoding the file decodes under, strictly, it masks the ASCII
bytes that are part of a double-byte character there (the *reading* of that encoding) and asks
the matcher again. Where the two readings agree, nothing changes. Where they do not (a whole
name in one reading and none, or another span, in the other; an edit touching a masked byte),
the occurrence is refused as `multibyte`: a residual, never rewritten, naming both readings.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace

from renamer.occurrences import Match

# (what the report calls it, the Python codec that decides whether the file reads so, the walk
# over its characters). Each walk steps one character at a time (every byte >= 0x80 starts a
# match, so the scan never lands on a second byte); groups 2 to 4 are the bytes after a lead.
# The walks need no exact trail ranges: they run only on a file the codec decodes strictly.
_SINGLE_OR_LEAD = rb"|[\x80-\xff]"
_ENCODINGS: tuple[tuple[str, str, re.Pattern[bytes]], ...] = (
    ("Shift_JIS/CP932", "cp932", re.compile(rb"([\x81-\x9f\xe0-\xfc])([\x00-\xff])" + _SINGLE_OR_LEAD)),
    # GB18030's four-byte form carries ASCII digits in its second and fourth bytes.
    ("GBK/GB18030", "gb18030",
     re.compile(rb"([\x81-\xfe])(?:([\x30-\x39])([\x81-\xfe])([\x30-\x39])|([\x00-\xff]))"
                + _SINGLE_OR_LEAD)),
    ("Big5", "big5hkscs", re.compile(rb"([\x81-\xfe])([\x00-\xff])" + _SINGLE_OR_LEAD)),
    ("UHC/CP949", "cp949", re.compile(rb"([\x81-\xfe])([\x00-\xff])" + _SINGLE_OR_LEAD)),
)
MASK = 0x80  # what a masked ASCII byte becomes: a byte outside any name, as the lead before it
HINT = ("a file that is not UTF-8 and decodes as a double-byte encoding whose second bytes may be ASCII "
        "letters or digits (Shift_JIS/CP932, GBK/GB18030, Big5, UHC): renamer cannot tell which encoding "
        "the file is in, the readings disagree here, and an edit could split a character, so it rewrites "
        "nothing; convert the file to UTF-8 (`iconv -f CP932 -t UTF-8`) and rerun the sweep, edit it by "
        "hand, or keep the line with a keep rule")


@dataclass(frozen=True)
class Reading:
    """The file's bytes as one double-byte encoding reads them: its ASCII second bytes masked."""

    label: str  # the encoding whose line a report shows
    codec: str
    masked: bytes
    also: tuple[str, ...] = ()  # other encodings that mask the same bytes: the same verdicts


def readings(data: bytes) -> list[Reading]:
    """The double-byte readings of `data` that differ from its Latin-1 reading; none for ASCII,
    UTF-8, and any file no such encoding decodes (most Latin-1 text: `é ` is no character)."""
    if data.isascii():
        return []
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        pass
    else:
        return []  # UTF-8's continuation bytes are never ASCII
    out: list[Reading] = []
    for label, codec, walk in _ENCODINGS:
        try:
            data.decode(codec)
        except UnicodeDecodeError:
            continue
        masked = bytearray(data)
        for m in walk.finditer(data):
            for group in range(2, walk.groups + 1):
                at = m.start(group)
                if at >= 0 and data[at] < 0x80:
                    masked[at] = MASK
        if masked == data:
            continue
        same = next((i for i, r in enumerate(out) if r.masked == masked), None)
        if same is None:
            out.append(Reading(label, codec, bytes(masked)))
        else:  # the same bytes masked as another encoding's: the same verdicts, named with it
            out[same] = replace(out[same], also=(*out[same].also, label))
    return out


def _shown(data: bytes, start: int, end: int, codec: str) -> str:
    """The occurrence with the character before it, as the encoding reads it (`ト` + `pug`)."""
    line_start = data.rfind(b"\n", 0, start) + 1
    line_end = data.find(b"\n", end)
    line = data[line_start:len(data) if line_end < 0 else line_end]
    try:
        text = line.decode(codec).strip()
    except UnicodeDecodeError:
        return ""
    return text[:120]


def checked(data: bytes, matches: list[Match], readings_: list[Reading],
            find: Callable[[bytes], list[Match]]) -> list[Match]:
    """`matches` with every occurrence the readings disagree about refused as `multibyte`, and
    the whole names only a double-byte reading sees added, refused the same way."""
    if not readings_:
        return matches
    plain = {(m.start, m.end) for m in find(data)}
    out = list(matches)
    added: list[Match] = []
    for reading in readings_:
        masked = reading.masked
        seen = find(masked)
        spans = {(m.start, m.end) for m in seen}

        def note(start: int, end: int, whole_here: bool, reading: Reading = reading) -> str:
            line = _shown(data, start, end, reading.codec)
            also = f", as {' and '.join(reading.also)} do" if reading.also else ""
            read = f"read as {reading.label} ({line!r}{also})" if line else f"read as {reading.label}{also}"
            return (f"{read}, a whole name; read byte by byte (Latin-1), part of a longer word" if whole_here
                    else f"read byte by byte (Latin-1), a whole name; {read}, part of a double-byte "
                         "character or of a longer word")

        for i, m in enumerate(out):
            if m.refused is not None or m.kept is not None:
                continue
            split = any(masked[p] != data[p] for p in range(m.start, min(m.end, len(data))))
            if split or ((m.start, m.end) in plain and (m.start, m.end) not in spans):
                out[i] = replace(m, refused="multibyte", note=note(m.start, m.end, False))
        taken = [(m.start, m.end) for m in out + added]
        for m in seen:
            if (m.start, m.end) in plain or any(s < m.end and m.start < e for s, e in taken):
                continue
            added.append(replace(m, refused="multibyte", kept=None, note=note(m.start, m.end, True)))
    if not added:
        return out
    return sorted(out + added, key=lambda m: m.start)


Hit = tuple[int, int, str, str]  # a loose hit: start, end, spelling, the old value it resembles


def near_hits(data: bytes, readings_: list[Reading],
              loose: Callable[[bytes], list[Hit]]) -> list[tuple[int, int, str, str, str]]:
    """Loose hits (near-misses) only a double-byte reading sees: (start, end, spelling, like,
    the reading's label). The Latin-1 reading's own are found as ever."""
    if not readings_:
        return []
    plain = {(s, e) for s, e, _, _ in loose(data)}
    out: list[tuple[int, int, str, str, str]] = []
    for reading in readings_:
        for start, end, _, like in loose(reading.masked):
            if (start, end) not in plain and all((start, end) != (s, e) for s, e, *_ in out):
                spelling = data[start:end].decode("latin-1")
                out.append((start, end, spelling, like, " or ".join((reading.label, *reading.also))))
    return sorted(out)
