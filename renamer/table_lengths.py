"""A resized network's length in a table cell of its own (t29-33, finding 10).

A table that gives a network and its length in two cells (`| LAN | 10.0.48.0 | 24 |` in Markdown,
`lab,10.0.48.0,24` in CSV, `<td>10.0.48.0</td><td>24</td>` in HTML) kept `24` under `10.0.48.0/24:
10.0.60.0/22` while the address cell moved: the table documented 10.0.60.0/24. The length is no
`/N` after the address, no dotted mask beside it (those follow already), no key: its column says
what it is.

Here each table row (a Markdown row of `|` cells, a line of a `.csv`/`.tsv` file, an HTML `<tr>`,
a reStructuredText grid, simple or list-table row, an AsciiDoc `|===` row: `markup_tables.py`)
holding a cell that is an address of a resized move's old network alone is read with its table's
header row:

* a column whose header names a length (`Length`, `Prefix`, `Prefix length`, `prefixlen`, `CIDR`,
  `Bits`, `/`) holds the move's old length in this row (`24`, `/24`): it is the moved network's,
  rewritten to the new length, its spelling kept (a grow in place too: the address stays, the
  length follows);
* no header names a length, and the cell right after the address holds the old length alone: a
  `mask` residual (nothing proves the number is the network's length: a VLAN id, a count);
* else nothing: a length column holding another number belongs to another network.

Pure: bytes and matches in, added matches out (`Matcher.find` asks it under a resized move).
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterator, Sequence

from renamer import lazy_re, markup_tables
from renamer.occurrences import Match
from renamer.prefix_moves import MASK, PrefixMove

_TABLE_SUFFIXES = (".csv", ".tsv", ".tab")
# A header cell naming a prefix length.
_LENGTH_HEADER = lazy_re.compile(r"(?i)\s*(?:prefix[ _-]?(?:len(?:gth)?)?|len(?:gth)?|cidr|bits"
                            r"|mask[ _-]?len(?:gth)?|prefix[ _-]?size|/|netmask[ _-]?bits)\s*")
_LENGTH = lazy_re.compile(r"\s*/?([0-9]{1,3})\s*")
_MD_SEPARATOR = lazy_re.compile(rb"[ \t]*\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*\r?\Z")
_HTML_ROW = lazy_re.compile(rb"(?is)<tr\b[^>]*>(.*?)</tr\s*>")
_HTML_CELL = lazy_re.compile(rb"(?is)<t([dh])\b[^>]*>(.*?)</t[dh]\s*>")
_HTML_TAG = lazy_re.compile(rb"<[^<>]*>")
_HTML_TABLE = lazy_re.compile(rb"(?i)<table\b")

Cell = tuple[int, int, str]  # [start, end) of its text in the file, and its text (markup removed, stripped)


def might_hold(data: bytes, rel: str) -> bool:
    return (b"|" in data or rel.lower().endswith(_TABLE_SUFFIXES) or b"<td" in data or b"<TD" in data
            or markup_tables.might_hold(data))


def length_cells(data: bytes, rel: str, matches: list[Match], moves: Sequence[PrefixMove]) -> list[Match]:
    """`matches` with each length cell of a resized network's row (see the module's text)."""
    resized = [move for move in moves if move.resized]
    if not resized or not might_hold(data, rel):
        return matches
    added: list[Match] = []
    for header, row in _rows(data, rel):
        hit = _decide(header, row, resized)
        if hit is not None and not any(m.start < hit.end and hit.start < m.end for m in matches):
            added.append(hit)
    return sorted([*matches, *added], key=lambda m: m.start) if added else matches


def _decide(header: list[Cell] | None, row: list[Cell], moves: Sequence[PrefixMove]) -> Match | None:
    for index, (_, _, text) in enumerate(row):
        move = _move_of(text, moves)
        if move is None:
            moved = _move_of(text, moves, new=True)
            if moved is None:
                continue
            return _left(header, row, index, moved)
        column = _length_column(header)
        if column is not None:
            if column >= len(row) or header is None or row is header:
                return None
            start, end, value = row[column]
            found = _LENGTH.fullmatch(value)
            if found is None or int(found.group(1)) != move.old.prefixlen:
                return None
            old = value
            new = value.replace(found.group(1), str(move.new.prefixlen), 1)
            note = (f"the length of {move.old} in its own table cell, under the header "
                    f"`{header[column][2]}`, on the row of {text}: the move to {move.new} sets it")
            return Match(start, end, old, new, "network", note=note)
        if index + 1 < len(row):
            start, end, value = row[index + 1]
            found = _LENGTH.fullmatch(value)
            if found is not None and int(found.group(1)) == move.old.prefixlen:
                note = (f"`{value}` in the table cell after {text}, an address of {move.old} (moved to "
                        f"{move.new}), may be its length, and no header says so: write the new length "
                        "by hand where it is, or keep it with a keep rule")
                return Match(start, end, value, value, "network", refused=MASK, note=note)
        return None
    return None


def _length_column(header: list[Cell] | None) -> int | None:
    return next((i for i, (_, _, name) in enumerate(header or ()) if _LENGTH_HEADER.fullmatch(name)), None)


def _left(header: list[Cell] | None, row: list[Cell], index: int, move: PrefixMove) -> Match | None:
    """After the sweep (or a move by hand): an address of the new network whose length cell still
    holds the old length is the residual the sweep left, or a half-done edit: said again, so that
    verify does not say OK."""
    column = _length_column(header)
    at = column if column is not None else index + 1
    if at >= len(row) or row is header:
        return None
    start, end, value = row[at]
    found = _LENGTH.fullmatch(value)
    if found is None or int(found.group(1)) != move.old.prefixlen:
        return None
    note = (f"`{value}` in the table cell {'of the length column' if column is not None else 'after'} "
            f"{row[index][2]}, an address of {move.new} (moved from {move.old}), is the old length: write "
            "the new length by hand where it is this network's, or keep it with a keep rule")
    return Match(start, end, value, value, "network", refused=MASK, note=note)


def _move_of(text: str, moves: Sequence[PrefixMove], *, new: bool = False) -> PrefixMove | None:
    """The move whose old network (`new`: whose new network, and not its old one) holds the address
    the cell spells alone."""
    text = text.strip("`*_ \"'")
    if not text or not (text[0].isdigit() or ":" in text):
        return None
    try:
        address = ipaddress.ip_address(text)
    except ValueError:
        return None
    if new:
        return next((move for move in moves if address.version == move.new.version and address in move.new
                     and move.offset_of(address) is None), None)
    return next((move for move in moves if move.offset_of(address) is not None), None)


def _rows(data: bytes, rel: str) -> Iterator[tuple[list[Cell] | None, list[Cell]]]:
    """Each table row with its table's header row (None where there is none)."""
    if rel.lower().endswith(_TABLE_SUFFIXES):
        yield from _separated(data, b"\t" if rel.lower().endswith((".tsv", ".tab")) else None)
        return
    if b"|" in data:
        yield from _markdown(data)
    if _HTML_TABLE.search(data) is not None:
        yield from _html(data)
    if markup_tables.might_hold(data):  # reStructuredText and AsciiDoc tables (round 7, q33-counts)
        yield from markup_tables.rows(data)


def _split(data: bytes, start: int, end: int, sep: bytes) -> list[Cell]:
    """The cells of one line split at `sep` (a quoted cell's separators kept)."""
    cells: list[Cell] = []
    at, quoted, pos = start, False, start
    while pos <= end:
        byte = data[pos:pos + 1] if pos < end else b""
        if byte == b'"':
            quoted = not quoted
        elif (byte == sep and not quoted) or pos == end:
            raw = data[at:pos]
            lead = len(raw) - len(raw.lstrip())
            text = raw.strip()
            if len(text) >= 2 and text[:1] == text[-1:] == b'"':  # a quoted cell: its value inside
                text, lead = text[1:-1], lead + 1
            cells.append((at + lead, at + lead + len(text), text.decode("utf-8", "replace")))
            at = pos + 1
        pos += 1
    return cells


def _separated(data: bytes, sep: bytes | None) -> Iterator[tuple[list[Cell] | None, list[Cell]]]:
    header: list[Cell] | None = None
    for start, end in markup_tables.line_spans(data):
        if not data[start:end].strip():
            continue
        if sep is None:
            line = data[start:end]
            sep = b";" if line.count(b";") > line.count(b",") else b","
        cells = _split(data, start, end, sep)
        if header is None:
            header = cells
            continue
        yield header, cells


def _markdown(data: bytes) -> Iterator[tuple[list[Cell] | None, list[Cell]]]:
    header: list[Cell] | None = None
    previous: tuple[int, int] | None = None
    for start, end in markup_tables.line_spans(data):
        line = data[start:end]
        if line.count(b"|") < 2:
            header, previous = None, None
            continue
        if _MD_SEPARATOR.match(line) is not None:
            header = _md_cells(data, *previous) if previous is not None else None
            continue
        previous = (start, end)
        if header is not None:
            yield header, _md_cells(data, start, end)


def _md_cells(data: bytes, start: int, end: int) -> list[Cell]:
    line = data[start:end].rstrip(b"\r")
    left = len(line) - len(line.lstrip())
    first = start + left + (1 if line.lstrip().startswith(b"|") else 0)
    last = start + len(line.rstrip())
    if line.rstrip().endswith(b"|") and last > first:
        last -= 1
    return [(s, e, text.strip("`*_ ")) for s, e, text in _split(data, first, last, b"|")]


def _html(data: bytes) -> Iterator[tuple[list[Cell] | None, list[Cell]]]:
    """Each `<tr>` with its table's first row (the header, `<th>` cells or not)."""
    header: list[Cell] | None = None
    table_at = -1
    for row in _HTML_ROW.finditer(data):
        opened = max(data.rfind(b"<table", 0, row.start()), data.rfind(b"<TABLE", 0, row.start()))
        cells: list[Cell] = []
        for cell in _HTML_CELL.finditer(data, row.start(1), row.end(1)):
            inner = cell.group(2)
            bare = _HTML_TAG.sub(b"", inner).strip()
            at = inner.find(bare) if bare else -1  # -1: the text is split by tags (never rewritten)
            start = cell.start(2) + max(at, 0)
            cells.append((start, start + len(bare) if at >= 0 else start, bare.decode("utf-8", "replace")))
        if opened != table_at:
            table_at, header = opened, cells
        yield header, cells


# Public names for size_counts.py (t33-33 findings 13, 14): the rows, the length header, the suffixes.
LENGTH_HEADER = _LENGTH_HEADER
TABLE_SUFFIXES = _TABLE_SUFFIXES
rows = _rows
