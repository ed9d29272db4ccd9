"""Aligned HCL after a rename of another length (break-it round 22, finding 12).

`terraform fmt` (hclwrite's formatter, also `terragrunt hclfmt`, `packer fmt`, `nomad fmt`) lines
up two things on consecutive lines of a file:

* the `=` of consecutive attribute lines, one column past the longest lead (indent and name):
  `web01 = ...` beside `db02  = ...`; a line that is no one-line attribute (a blank line, a
  comment line, a block's `{` or `}`, an attribute whose value opens a bracket it does not close)
  ends the run, a heredoc does not (its body belongs to its line);
* the trailing `#` or `//` comments of consecutive lines, one column past the longest text
  before them.

A rename of another length inside such a run (web01 -> application01) left the old column:
`terraform fmt -check` passed before the sweep and failed after it, and CI's fmt gate went red
while sweep and verify said OK. Here each run an edit reaches that was aligned as fmt aligns it
before the edit gets its blanks edited so that it is aligned as fmt aligns it after the edit; a
run that was not aligned before is left as it was (the sweep changes no formatting it did not
break), and so is a run where an edit reaches the blanks themselves. Columns count characters,
as fmt does.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from renamer.classify import CURRENT
from renamer.sweep.content import read_content
from renamer.sweep.model import Edit, FileResult, ScanResult

SUFFIXES = (".tf", ".tfvars", ".hcl")
_OPEN = frozenset(b"([{")
_CLOSE = frozenset(b")]}")
_WORD = frozenset(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-")


@dataclass(frozen=True)
class _Line:
    """One line as the formatter sees it (a heredoc's body belongs to the line opening it); offsets
    into the file's bytes."""

    start: int  # the line's first byte
    lead_end: int  # where the blanks before `=` begin (an attribute line), else the text's end
    eq: int | None  # the `=` of a one-line attribute, None where the line has no such cell
    body_end: int  # where the blanks before a trailing comment begin
    comment: int | None  # a trailing `#` or `//` comment after other text, else None
    end: int  # the end of the line (its last line for a heredoc), before the newline
    opaque: bool = False  # a line this reading cannot judge (a string or comment left open)


def _string_end(data: bytes, at: int, stop: int) -> int | None:
    """The offset just past the quoted string opening at `at` (a template: `${...}` and `%{...}`
    hold expressions, nested strings included), or None where the line ends first."""
    i = at + 1
    while i < stop:
        c = data[i]
        if c == 0x5C:  # backslash
            i += 2
            continue
        if c == 0x22:
            return i + 1
        if c in b"$%" and data[i + 1:i + 2] == b"{" and data[i - 1:i] != bytes([c]):
            close = _expression_end(data, i + 2, stop)
            if close is None:
                return None
            i = close
            continue
        i += 1
    return None


def _expression_end(data: bytes, at: int, stop: int) -> int | None:
    """The offset just past the `}` closing a template interpolation whose expression starts at
    `at`."""
    depth = 0
    i = at
    while i < stop:
        c = data[i]
        if c == 0x22:
            end = _string_end(data, i, stop)
            if end is None:
                return None
            i = end
            continue
        if c in _OPEN:
            depth += 1
        elif c in _CLOSE:
            if depth == 0:
                return i + 1 if c == 0x7D else None
            depth -= 1
        i += 1
    return None


def _physical_end(data: bytes, at: int) -> int:
    end = data.find(b"\n", at)
    return len(data) if end < 0 else end


def _text_end(data: bytes, start: int, stop: int) -> int:
    """The offset past the last non-blank byte of data[start:stop] (a CR counts as blank)."""
    while stop > start and data[stop - 1] in b" \t\r":
        stop -= 1
    return stop


def lines_of(data: bytes) -> list[_Line]:
    """The file's lines with their cells, as hclwrite's formatter splits them."""
    out: list[_Line] = []
    pos = 3 if data.startswith(b"\xef\xbb\xbf") else 0
    size = len(data)
    while pos <= size:
        start = pos
        stop = _physical_end(data, pos)
        eq: int | None = None
        comment: int | None = None
        heredoc: bytes | None = None
        opaque = False
        tokens = 0  # tokens before the first `=`
        depth = 0  # brackets opened since that `=`, up to a heredoc
        i = start
        while i < stop:
            c = data[i]
            if c in b" \t\r":
                i += 1
                continue
            if c == 0x23 or data[i:i + 2] == b"//":
                comment = i
                break
            if data[i:i + 2] == b"/*":
                close = data.find(b"*/", i + 2, stop)
                if close < 0:
                    opaque = True
                    break
                i = close + 2
                continue
            if c == 0x22:
                end = _string_end(data, i, stop)
                if end is None:
                    opaque = True
                    break
                i = end
                tokens += 1
                continue
            if data[i:i + 2] == b"<<":
                j = i + 2 + (data[i + 2:i + 3] == b"-")
                k = j
                while k < stop and data[k] in _WORD:
                    k += 1
                if k > j and _text_end(data, k, stop) == k:
                    heredoc = data[j:k]
                    i = k
                    break
            if c == 0x3D and data[i + 1:i + 2] not in (b"=", b">"):
                if eq is None and depth == 0:
                    if tokens == 0:
                        break  # `=` first on its line: no attribute
                    eq = i
                i += 1
                continue
            if data[i:i + 2] in (b"==", b"!=", b"<=", b">=", b"=>", b"&&", b"||"):
                i += 2
                continue
            if c in _OPEN:
                depth += 1 if eq is not None else 0
            elif c in _CLOSE:
                depth -= 1 if eq is not None else 0
            if eq is None:
                if c in _WORD:
                    while i < stop and data[i] in _WORD:
                        i += 1
                    tokens += 1
                    continue
                tokens += 1
            i += 1
        text_end = _text_end(data, start, comment if comment is not None else stop)
        if eq is not None and depth != 0:
            eq = None  # a value opening a bracket it closes on a later line
        if comment is not None and _text_end(data, start, comment) == start:
            comment = None  # a comment line: no cell of its own, it ends the runs
        lead_end = _text_end(data, start, eq) if eq is not None else text_end
        end = stop
        if heredoc is not None:  # the body and its closing marker belong to this line
            at = stop + 1
            while at < size:
                line_end = _physical_end(data, at)
                end = line_end
                if data[at:line_end].strip() == heredoc:
                    break
                at = line_end + 1
            else:
                opaque = True
            comment = None
        out.append(_Line(start, lead_end, eq, text_end, comment, end, opaque))
        pos = end + 1
    return out


def _width(text: bytes) -> int:
    return len(text.decode("utf-8", "replace"))


class _Edited:
    """The text of spans of the file after its edits; an insertion belongs to the span it stands
    in or starts."""

    def __init__(self, data: bytes, edits: Sequence[Edit]) -> None:
        self.data = data
        self.edits = sorted(edits, key=lambda e: e.start)  # none overlapping: their ends sorted too
        self.starts = [e.start for e in self.edits]

    @staticmethod
    def _inside(edit: Edit, start: int, end: int) -> bool:
        if edit.start == edit.end:
            return start <= edit.start < end
        return edit.start < end and start < edit.end

    def _near(self, start: int, end: int) -> list[Edit]:
        """The edits that may stand in start:end (one before it may reach into it)."""
        first = max(bisect.bisect_left(self.starts, start) - 1, 0)
        return self.edits[first:bisect.bisect_left(self.starts, end)]

    def reaches(self, start: int, end: int) -> bool:
        return any(self._inside(e, start, end) for e in self._near(start, end))

    def text(self, start: int, end: int) -> bytes | None:
        """data[start:end] after the edits in it; None where an edit crosses its edge."""
        out = bytearray()
        at = start
        for e in self._near(start, end):
            if not self._inside(e, start, end):
                continue
            if e.start < start or e.end > end:
                return None
            out += self.data[at:e.start] + e.new
            at = e.end
        out += self.data[at:end]
        return bytes(out)


def realign(data: bytes, edits: Sequence[Edit]) -> tuple[Edit, ...]:
    """The blanks to edit, beside `edits`, so that each run of aligned `=` or trailing comments
    the edits reach is aligned as terraform fmt aligns it after them."""
    edited = _Edited(data, edits)
    lines = lines_of(data)
    added: dict[int, Edit] = {}  # by the blanks' start
    # `=` first; then trailing comments, over the text as the `=` blanks leave it
    _align(data, lines, edited, edited, added, lambda line: (line.lead_end, line.eq), 1)
    _align(data, lines, _Edited(data, [*edits, *added.values()]), edited, added,
           lambda line: (line.body_end, line.comment), 0)
    return tuple(added.values())


def _align(data: bytes, lines: list[_Line], scope: _Edited, guard: _Edited, added: dict[int, Edit],
           cell: Callable[[_Line], tuple[int, int | None]], past: int) -> None:
    """Add to `added` the blanks that re-align each run of one cell (`cell`: where the blanks before
    it begin, and the cell's own start, None where the line has none) that `scope`'s edits reach,
    where the run was aligned as terraform fmt aligns it and `guard`'s edits leave the blanks and
    the cell (`past` bytes of it) alone."""
    for run in _runs(lines, lambda line: cell(line)[1] is not None):
        spans = [(line.start, cell(line)[0]) for line in run]
        if not any(scope.reaches(a, b) for a, b in spans):
            continue
        before = [_width(data[a:b]) for a, b in spans]
        column = max(before) + 1
        if any(data[cell(line)[0]:cell(line)[1]] != b" " * (column - w)
               for line, w in zip(run, before, strict=True)):
            continue  # not aligned as fmt aligns it: left as it was
        texts = [scope.text(a, b) for a, b in spans]
        if any(t is None for t in texts) or any(guard.reaches(cell(line)[0], (cell(line)[1] or 0) + past)
                                               for line in run):
            continue
        after = [_width(t or b"") for t in texts]
        column = max(after) + 1
        for line, w in zip(run, after, strict=True):
            blanks, at = cell(line)
            want = b" " * (column - w)
            if data[blanks:at] != want:
                added[blanks] = Edit(blanks, at or 0, want)


def _runs(lines: list[_Line], has: Callable[[_Line], bool]) -> list[list[_Line]]:
    """Runs of consecutive lines holding a cell (`has`), an opaque line ending one."""
    runs: list[list[_Line]] = []
    current: list[_Line] = []
    for line in lines:
        if not line.opaque and has(line):
            current.append(line)
            continue
        if current:
            runs.append(current)
        current = []
    if current:
        runs.append(current)
    return runs


def is_alignment(data: bytes, edit: Edit) -> bool:
    """Is `edit` one of realign's: blanks for blanks (a rename never edits blanks alone)?"""
    return (edit.start < edit.end and not data[edit.start:edit.end].strip(b" \t")
            and bool(edit.new) and not edit.new.strip(b" "))


def aligned(found: FileResult, data: bytes) -> FileResult:
    """`found` with the blank edits that keep its aligned runs aligned."""
    if not found.path.endswith(SUFFIXES) or not found.edits or found.created:
        return found
    added = realign(data, found.edits)
    if not added:
        return found
    return replace(found, edits=tuple(sorted((*found.edits, *added), key=lambda e: e.start)))


def align_scan(root: Path, scan: ScanResult, max_size: int) -> ScanResult:
    """`scan` with each edited HCL file's aligned runs kept aligned."""
    files = []
    changed = False
    for found in scan.files:
        if found.path.endswith(SUFFIXES) and found.edits and found.status == CURRENT and not found.created:
            content = read_content(root / found.path, max_size)
            if content is not None and content.kind == "text":
                kept = aligned(found, content.data)
                changed = changed or kept is not found
                found = kept
        files.append(found)
    return replace(scan, files=tuple(files)) if changed else scan
