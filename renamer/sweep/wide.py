"""Text in UTF-16 or UTF-32 that no byte-order mark announces, and old values spelled in such code
units inside a binary file (break-it round 4, finding 11).

ASCII text in UTF-16LE is every other byte NUL (`a\\0n\\0a\\0`), in UTF-16BE the same shifted by one,
in UTF-32 three NULs of four: a NUL makes such a file binary, and its old values spell no needle
in the bytes, so it was neither swept nor reported. A file whose NUL bytes fall in that pattern
and that decodes strictly to printable text is that encoding (content.py reads it as text, as a
file with a BOM, and the sweep writes it back in that encoding: break-it round 17, finding 18); in
any other binary file, an old value whose code units stand in one of those widths (a Windows
resource) is found and reported skipped (`binary`), never rewritten.

Cost: a file is looked at only when it holds a NUL and, for the search, a needle's characters
joined by NULs (`wide_needles`): one `in` test each.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol

from renamer.occurrences import Match

__all__ = ["holds_wide", "wide_codec", "wide_matches", "wide_needles"]

# (width of a code unit, the NUL-free byte's place in it, codec): the little-endian ones first.
_LAYOUTS = ((4, 0, "utf-32-le"), (4, 3, "utf-32-be"), (2, 0, "utf-16-le"), (2, 1, "utf-16-be"))
_SAMPLE = 4096  # bytes of a file whose NUL pattern is measured
_WHITESPACE = frozenset("\t\n\r\f\v")


class Finder(Protocol):
    needles: tuple[bytes, ...]

    def find(self, data: bytes) -> list[Match]: ...


def wide_codec(data: bytes) -> str | None:
    """The UTF-16 or UTF-32 codec `data` (no BOM) is text in, judged by the NUL pattern ASCII text
    makes (at least half of the code units of its start an ASCII character), then by a strict
    decoding to printable text; None for anything else (a binary file)."""
    for width, place, codec in _LAYOUTS:
        if len(data) % width or not _pattern_holds(data[:_SAMPLE - _SAMPLE % width], width, place):
            continue
        try:
            text = data.decode(codec)
        except UnicodeDecodeError:
            continue
        if text and all(ch.isprintable() or ch in _WHITESPACE for ch in text):
            return codec
    return None


def _pattern_holds(sample: bytes, width: int, place: int) -> bool:
    units = len(sample) // width
    if units == 0:
        return False
    ascii_units = 0
    for at in range(0, units * width, width):
        unit = sample[at:at + width]
        if unit[place] != 0 and unit[place] < 0x80 and unit.count(0) == width - 1:
            ascii_units += 1
    return ascii_units * 2 >= units


def wide_needles(needles: Iterable[bytes]) -> tuple[bytes, ...]:
    """Each ASCII needle's characters joined by one NUL (UTF-16, either byte order) and by three
    (UTF-32, either byte order)."""
    ascii_needles = [needle for needle in needles if needle and needle.isascii()]
    return tuple(sep.join(needle[i:i + 1] for i in range(len(needle)))
                 for sep in (b"\0", b"\0\0\0") for needle in ascii_needles)


def holds_wide(data: bytes, needles: tuple[bytes, ...]) -> bool:
    """The cheap question: a needle in some wide spelling (wide_needles)."""
    return b"\0" in data and any(needle in data for needle in needles)


def wide_matches(finder: Finder, data: bytes) -> list[Match]:
    """Old values spelled in UTF-16 or UTF-32 code units inside binary `data`: matched in each
    layout's reading (one byte a unit), kept where every other byte of their units is NUL; spans
    in `data`'s offsets, in order. Inside a string, ASCII in UTF-16LE reads as UTF-16BE one byte
    on as well: of overlapping matches (one occurrence) the first stands."""
    found: list[Match] = []
    for width, place, _codec in _LAYOUTS:
        for phase in range(width):
            reading = data[phase + place::width] if phase + place < len(data) else b""
            if not any(needle in reading for needle in finder.needles):
                continue
            for m in finder.find(reading):
                start, end = phase + m.start * width, phase + m.end * width
                units = data[start:end]
                if len(units) == end - start and all(
                        units[i] == 0 for i in range(len(units)) if i % width != place):
                    found.append(Match(start, end, m.old, m.new, m.kind, m.derived, m.refused, m.kept,
                                       m.note))
    out: list[Match] = []
    for m in sorted(found, key=lambda m: m.start):  # stable: the first layout's first
        if not out or m.start >= out[-1].end:
            out.append(m)
    return out
