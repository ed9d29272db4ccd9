"""Positions in a file's bytes: lines, columns and the text around a match, computed only where a
match is, and the byte spans already reported."""

from __future__ import annotations

import bisect
from collections.abc import Iterator, Sequence
from pathlib import Path

from renamer.printable import printable

Spot = tuple[int, int, int]  # a match's 0-based line index, its line's start offset, its column

MAX_LINE_TEXT = 160


class Spans:
    """Byte spans already reported, merged; overlap tests by bisection (linear in matches)."""

    def __init__(self, spans: list[tuple[int, int]]) -> None:
        if all(spans[i][1] <= spans[i + 1][0] for i in range(len(spans) - 1)):
            self.spans = spans  # the exact matches alone: already in order, apart
            self._starts = [s for s, _ in spans]
            self._ends = [e for _, e in spans]
            return
        merged: list[list[int]] = []
        for start, end in sorted(spans):
            if merged and start < merged[-1][1]:
                merged[-1][1] = max(merged[-1][1], end)
            else:
                merged.append([start, end])
        self.spans = [(s, e) for s, e in merged]
        self._starts = [s for s, _ in merged]
        self._ends = [e for _, e in merged]

    def overlaps(self, start: int, end: int) -> bool:
        index = bisect.bisect_left(self._starts, end) - 1  # the last span starting before `end`
        return index >= 0 and self._ends[index] > start


class Lines:
    """Line and column lookups over a file's bytes, computed only where a match is.

    Lookups come in file order, so each one continues from the last (line count, line
    start, column, character offset): linear in the file, however many matches a line
    holds (a minified JSON file may hold a million on one line).
    """

    def __init__(self, data: bytes) -> None:
        self.data = data
        self._ascii = data.isascii()
        self._codec = "utf-8" if self._ascii or is_utf8(data) else "latin-1"
        self._cursor = (0, 0, 0, 1)  # offset, newlines before it, its line's start, its column
        self._chars = (0, 0)  # offset, characters before it
        self._texts: dict[bytes, str] = {}

    def locate(self, offsets: Sequence[int]) -> list[Spot]:
        """(0-based line index, the line's start, 1-based character column) of each offset,
        offsets ascending: one pass, newlines counted in C between neighbours."""
        if not self._ascii:
            return [self._seek(offset)[1:] for offset in offsets]
        count, rfind = self.data.count, self.data.rfind
        out: list[Spot] = []
        known = index = start = 0
        for offset in offsets:
            newlines = count(b"\n", known, offset)
            if newlines:
                index += newlines
                start = rfind(b"\n", known, offset) + 1
            known = offset
            out.append((index, start, offset - start + 1))
        return out

    def _seek(self, offset: int) -> tuple[int, int, int, int]:
        known, count, start, column = self._cursor
        if offset == known:
            return self._cursor
        if offset < known:
            known, count, start, column = 0, 0, 0, 1
        newlines = self.data.count(b"\n", known, offset)
        if newlines:
            start = self.data.rfind(b"\n", known, offset) + 1
            known, column = start, 1
        count += newlines
        if self._ascii:
            column = offset - start + 1
        else:
            column += len(self.data[known:offset].decode(self._codec, "replace"))
        self._cursor = (offset, count, start, column)
        return self._cursor

    def position(self, offset: int, *, with_text: bool = True) -> tuple[int, int, str]:
        """(1-based line, 1-based character column, the line's text trimmed, if asked)."""
        _, index, start, column = self._seek(offset)
        return index + 1, column, self.text(offset, start) if with_text else ""

    def text(self, offset: int, start: int) -> str:
        """The text of the line starting at `start` around `offset`, trimmed for a report.
        Remembered by the raw bytes: a dense file repeats its lines, and a minified one holds
        many matches on one line."""
        clipped = offset - start > 2 * MAX_LINE_TEXT  # a long line: the part around the match
        end = self.data.find(b"\n", offset, offset + 4 * MAX_LINE_TEXT)
        if end == -1:
            end = min(len(self.data), offset + 4 * MAX_LINE_TEXT)
        raw = self.data[offset - MAX_LINE_TEXT // 2 if clipped else start:end]
        text = None if clipped else self._texts.get(raw)
        if text is not None:
            return text
        text = raw.decode(self._codec, "replace").strip().lstrip("\ufeff")
        text = text[: 2 * MAX_LINE_TEXT]
        text = printable(text)  # shown escaped: what a reviewer reads is what the file holds
        if clipped:
            text = "…" + text
        if len(text) > MAX_LINE_TEXT:
            text = text[: MAX_LINE_TEXT - 1] + "…"
        if not clipped and len(self._texts) < 4096:
            self._texts[raw] = text
        return text

    def char_offset(self, offset: int) -> int:
        if self._ascii or self._codec != "utf-8":
            return offset
        known, chars = self._chars
        if offset < known:
            known, chars = 0, 0
        chars += len(self.data[known:offset].decode("utf-8", "replace"))
        self._chars = (offset, chars)
        return chars

    def texts(self) -> list[str]:
        return self.data.decode(self._codec, "replace").split("\n")


def is_utf8(data: bytes) -> bool:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def chunks(path: Path, overlap: int) -> Iterator[tuple[int, bytes, bool]]:
    """(offset of buf in the file, buf, is this the last) with `overlap` bytes carried over."""
    size = 8 * 1024 * 1024
    with open(path, "rb") as handle:
        offset, tail = 0, b""
        block = handle.read(size)
        while block:
            following = handle.read(size)
            buf = tail + block
            yield offset - len(tail), buf, not following
            tail = buf[-overlap:]
            offset += len(block)
            block = following
