"""Table rows of other markups, each with its table's header row (issue 33, outside pass round 7,
q33-counts), pure: bytes in, rows out, for `table_lengths` (a length in its own cell) and
`size_counts` (a count or a broadcast address under its column's header) to read as they read
Markdown, CSV and HTML rows.

* reStructuredText grid tables: `+---+---+` borders, `| a | b |` rows, the header above the `+===+`
  border (none without one); each line of a row is read as a row (a cell spread over lines is one
  line's text);
* reStructuredText simple tables: `=====  =====` borders whose runs of `=` give the columns (the
  last one reaching the line's end), the header between the first two borders where there are
  three;
* reStructuredText `.. list-table::`: `* - a` opens a row, `  - b` is its next cell, the first
  row the header where `:header-rows:` is 1 or more;
* AsciiDoc `|===` tables: the cells after each `|`, one row per line or one cell per line (rows
  then counted by the `cols` attribute or the first line's cells), the header the first row where
  the block says `options="header"` / `%header`, or where a blank line follows the first line.

A cell is `(start, end, text)`: its text's span in the file and the text, stripped of blanks and
inline markup (`` ` ``, `*`, `_`).

A grid or simple table is laid out by columns: a rewrite that makes a cell's text longer or shorter
moves the `|` after it (docutils: "Malformed table") or a simple table's next column into the gap
("Text in column margin"). `keep_widths` takes the difference from the blanks after the text where
they allow, so the columns stay where they were.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterator
from dataclasses import replace

from renamer import lazy_re
from renamer.occurrences import Match

Cell = tuple[int, int, str]
Row = tuple[list[Cell] | None, list[Cell]]

_GRID_BORDER = lazy_re.compile(rb"[ \t]*\+(?:[-=]+\+)+[ \t]*\r?")
_SIMPLE_BORDER = lazy_re.compile(rb"[ \t]*=+(?:[ \t]+=+)+[ \t]*\r?")
_RUN = lazy_re.compile(rb"=+")
_LIST_TABLE = lazy_re.compile(rb"(?m)^([ \t]*)\.\.[ \t]+list-table::")
_HEADER_ROWS = lazy_re.compile(rb"(?m)^[ \t]+:header-rows:[ \t]*([0-9]+)")
_LIST_CELL = lazy_re.compile(rb"([ \t]*)(\*[ \t]+)?-[ \t]+(.*?)[ \t]*\r?\Z")
_ADOC_FENCE = lazy_re.compile(rb"[ \t]*\|===[ \t]*\r?")
_ADOC_COLS = lazy_re.compile(rb"cols[ \t]*=[ \t]*\"([^\"]*)\"")
_ADOC_HEADER = lazy_re.compile(rb"options[ \t]*=[ \t]*\"[^\"]*header|%header")
# A cell specifier before a `|` (`2+`, `.3+`, `2*`, `2+^.^a`): spans and duplication only.
_ADOC_SPEC = lazy_re.compile(rb"(?:[0-9]+|[0-9]*\.[0-9]+)[+*][<^>.adehlmsv]*")
_MOST_LINES = 2000  # a table's lines, at most


def might_hold(data: bytes) -> bool:
    return b"+-" in data or b"+=" in data or b"==" in data or b"list-table" in data or b"|===" in data


def rows(data: bytes) -> Iterator[Row]:
    """Each row of every table of these markups, with its header row."""
    lines = list(line_spans(data))
    if b"+-" in data or b"+=" in data:
        yield from _grid(data, lines)
    if b"==" in data:
        yield from _simple(data, lines)
    if b"list-table" in data:
        yield from _list_tables(data, lines)
    if b"|===" in data:
        yield from _asciidoc(data, lines)


def line_spans(data: bytes) -> Iterator[tuple[int, int]]:
    """(start, end) of each line of `data`, the newline left out (table_lengths reads rows so too)."""
    start = 0
    while start < len(data):
        end = data.find(b"\n", start)
        end = len(data) if end == -1 else end
        yield start, end
        start = end + 1


def _cell(data: bytes, start: int, end: int) -> Cell:
    raw = data[start:end]
    text = raw.strip().rstrip(b"\r")
    lead = len(raw) - len(raw.lstrip())
    shown = text.decode("utf-8", "replace").strip("`*_ ")
    return start + lead, start + lead + len(text), shown


# -- reStructuredText grid tables ------------------------------------------------------------------

def _grid(data: bytes, lines: list[tuple[int, int]]) -> Iterator[Row]:
    index = 0
    while index < len(lines):
        if _GRID_BORDER.fullmatch(data, *lines[index]) is None:
            index += 1
            continue
        body: list[list[Cell]] = []
        header: list[Cell] | None = None
        index += 1
        while index < len(lines):
            start, end = lines[index]
            line = data[start:end]
            if _GRID_BORDER.fullmatch(line) is not None:
                if b"=" in line and header is None and body:
                    header = body[0]
                    body = []
                index += 1
                continue
            stripped = line.strip()
            if not (stripped.startswith(b"|") and stripped.endswith(b"|")):
                break
            first = start + line.index(b"|") + 1
            last = start + line.rindex(b"|")
            cells, at = [], first
            for pos in range(first, last + 1):
                if pos == last or data[pos:pos + 1] == b"|":
                    cells.append(_cell(data, at, pos))
                    at = pos + 1
            body.append(cells)
            index += 1
        if header is not None:
            for cells in body:
                yield header, cells


# -- reStructuredText simple tables ----------------------------------------------------------------

def _columns(data: bytes, start: int, end: int) -> list[tuple[int, int]]:
    """The column spans (offsets in the line) of a simple table's border."""
    return [(x.start() - start, x.end() - start) for x in _RUN.finditer(data, start, end)]


def _simple_cells(data: bytes, start: int, end: int, columns: list[tuple[int, int]]) -> list[Cell]:
    cells = []
    for i, (left, _) in enumerate(columns):
        stop = end if i == len(columns) - 1 else min(end, start + columns[i + 1][0])
        begin = min(end, start + left)
        cells.append(_cell(data, begin, max(begin, stop)))
    return cells


def _simple(data: bytes, lines: list[tuple[int, int]]) -> Iterator[Row]:
    index = 0
    while index < len(lines):
        if _SIMPLE_BORDER.fullmatch(data, *lines[index]) is None:
            index += 1
            continue
        columns = _columns(data, *lines[index])
        borders = 1
        blocks: list[list[tuple[int, int]]] = []  # the text lines between borders, block by block
        block: list[tuple[int, int]] = []
        index += 1
        while index < len(lines) and borders < 3:
            start, end = lines[index]
            if _SIMPLE_BORDER.fullmatch(data, start, end) is not None:
                blocks.append(block)
                block, borders = [], borders + 1
                index += 1
                if borders == 2 and (index >= len(lines) or not data[slice(*lines[index])].strip()):
                    break  # a table without a header: one block of rows
                continue
            if not data[start:end].strip():
                break
            block.append((start, end))
            index += 1
        if len(blocks) == 2 and blocks[0]:
            head_start, head_end = blocks[0][-1]
            header = _simple_cells(data, head_start, head_end, columns)
            for start, end in blocks[1]:
                yield header, _simple_cells(data, start, end, columns)


# -- reStructuredText list-table -------------------------------------------------------------------

def _list_tables(data: bytes, lines: list[tuple[int, int]]) -> Iterator[Row]:
    starts = [s for s, _ in lines]
    for x in _LIST_TABLE.finditer(data):
        index = starts.index(data.rfind(b"\n", 0, x.start()) + 1) + 1
        indent = len(x.group(1))
        table: list[list[Cell]] = []
        header_rows = 0
        for start, end in lines[index:index + _MOST_LINES]:
            line = data[start:end]
            if not line.strip():
                continue
            if len(line) - len(line.lstrip()) <= indent:
                break
            option = _HEADER_ROWS.match(line)
            if option is not None:
                header_rows = int(option.group(1))
                continue
            cell = _LIST_CELL.fullmatch(line)
            if cell is None:
                continue
            if cell.group(2):
                table.append([])
            if table:
                table[-1].append(_cell(data, start + cell.start(3), start + cell.end(3)))
        if header_rows >= 1 and len(table) > header_rows:
            for cells in table[header_rows:]:
                yield table[header_rows - 1], cells


# -- AsciiDoc tables -------------------------------------------------------------------------------

def _adoc_cells(data: bytes, start: int, end: int) -> list[Cell]:
    """The cells a line opens: the text after each `|` (a cell specifier before it, `2+`, `a`, kept out)."""
    line = data[start:end]
    opener = _ADOC_SPEC.match(line.lstrip())  # `2+|wide`: a specifier before the line's first `|`
    if not line.lstrip()[opener.end() if opener is not None else 0:].startswith(b"|"):
        return []
    cells, at = [], start + line.index(b"|") + 1
    for pos in range(at, end + 1):
        if pos == end or data[pos:pos + 1] == b"|":
            piece = data[at:pos]
            spec = re.search(rb"[ \t](\S+)[ \t]*\Z", piece)
            if spec is not None and pos < end and _ADOC_SPEC.fullmatch(spec.group(1)) is not None:
                piece_end = at + spec.start()
            else:
                piece_end = pos
            cells.append(_cell(data, at, piece_end))
            at = pos + 1
    return cells


def _asciidoc(data: bytes, lines: list[tuple[int, int]]) -> Iterator[Row]:
    index = 0
    while index < len(lines):
        if _ADOC_FENCE.fullmatch(data, *lines[index]) is None:
            index += 1
            continue
        attributes = data[slice(*lines[index - 1])] if index > 0 else b""
        cols = _ADOC_COLS.search(attributes)
        width = len(cols.group(1).split(b",")) if cols is not None else 0
        if cols is not None and cols.group(1).strip().isdigit():
            width = int(cols.group(1).strip())
        said_header = _ADOC_HEADER.search(attributes) is not None
        index += 1
        first: list[Cell] = []
        cells: list[Cell] = []
        blank_after_first = False
        line_no = 0
        while index < len(lines) and _ADOC_FENCE.fullmatch(data, *lines[index]) is None:
            start, end = lines[index]
            found = _adoc_cells(data, start, end)
            if line_no == 0 and found:
                first = found
            elif line_no == 1 and first and not data[start:end].strip():
                blank_after_first = True
            cells += found
            line_no += 1
            index += 1
        index += 1
        width = width or len(first)
        if width <= 0 or not cells:
            continue
        table = [cells[i:i + width] for i in range(0, len(cells), width)]
        if (said_header or (blank_after_first and len(first) == width)) and len(table) > 1:
            for row in table[1:]:
                yield table[0], row


# -- keeping a laid-out table's columns ---------------------------------------------------------------

def same_width(data: bytes, match: Match) -> Match:
    """`match` taking its change of length from the blanks after it, where a `|` or a column gap (two
    blanks or more, then text) follows them: `| 254          |` -> `| 1022         |`. Unchanged
    where there is no room (the table's author widens it) or nothing is written."""
    grow = len(match.new) - len(match.old)
    if grow == 0 or match.refused is not None or match.new == match.old:
        return match
    gap = re.search(r"  +", match.new)  # a column gap inside the match (`10.0.48.0     /24`)
    if gap is not None and len(gap.group()) - grow >= 2 and re.search(r"  +", match.old) is not None:
        wider = " " * (len(gap.group()) - grow)
        return replace(match, new=match.new[:gap.start()] + wider + match.new[gap.end():])
    rest = data[match.end:data.find(b"\n", match.end) if b"\n" in data[match.end:] else len(data)]
    blanks = len(rest) - len(rest.lstrip(b" "))
    after = rest[blanks:blanks + 1]
    if after in (b"", b"\r") or (after != b"|" and blanks < 2):
        return match  # the line's last text, or no column after it
    room = blanks - grow
    if room < (1 if after == b"|" else 2):
        return match
    return replace(match, end=match.end + blanks, old=match.old + " " * blanks, new=match.new + " " * room)


def _laid_out(data: bytes) -> list[tuple[int, int]]:
    """The spans of the lines of grid and simple tables (their rows, not their borders)."""
    spans: list[tuple[int, int]] = []
    lines = list(line_spans(data))
    inside_grid, simple_borders = False, 0
    for start, end in lines:
        line = data[start:end]
        if _GRID_BORDER.fullmatch(line) is not None:
            inside_grid = True
            continue
        if inside_grid and line.strip().startswith(b"|"):
            spans.append((start, end))
            continue
        inside_grid = False
        if _SIMPLE_BORDER.fullmatch(line) is not None:
            simple_borders = simple_borders + 1 if simple_borders < 3 else 1
            continue
        if simple_borders in (1, 2) and line.strip():
            spans.append((start, end))
        elif not line.strip():
            simple_borders = 0 if simple_borders >= 2 else simple_borders
    return spans


def keep_widths(data: bytes, matches: list[Match]) -> list[Match]:
    """`matches` with each rewrite inside a grid or simple table's row keeping its cell's width."""
    if not matches or not (b"+-" in data or b"==" in data):
        return matches
    spans = _laid_out(data)
    if not spans:
        return matches
    starts = [s for s, _ in spans]
    out = []
    for match in matches:
        k = bisect.bisect_right(starts, match.start) - 1
        inside = k >= 0 and match.start < spans[k][1]
        out.append(same_width(data, match) if inside else match)
    return out
