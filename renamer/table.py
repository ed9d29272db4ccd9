"""The one table renderer: columns padded to their widest cell, fitted to a terminal's width.

Every table renamer prints (dns verify, dns apply, probe, audit's per-file counts) goes
through `table`. Piped or written to a file, a table keeps every cell whole; on a terminal
narrower than the table, the widest of the other columns give way first, each cut cell ending
in `…`, and the first column (what names the row) last. Widths are what a terminal shows: a
wide (CJK) character takes two columns, a combining mark none.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Sequence

Paint = Callable[[str], str]
GAP = "  "
NARROWEST = 8  # a column is never cut below this (or its header, if shorter)


def plain(cell: str) -> str:
    return cell


def shown_width(text: str) -> int:
    return sum(0 if unicodedata.combining(ch) else 2 if unicodedata.east_asian_width(ch) in "WF" else 1
               for ch in text)


def fitted(widths: list[int], floors: list[int], limit: int) -> list[int]:
    """Column widths whose table fits in `limit` columns: the widest column but the first is cut
    first, one at a time; the first (the row's name) only when no other can give way."""
    widths = list(widths)
    while sum(widths) + len(GAP) * (len(widths) - 1) > limit:
        others = [i for i in range(1, len(widths)) if widths[i] > floors[i]]
        if others:
            widest = max(others, key=lambda i: widths[i] - floors[i])
        elif widths[0] > floors[0]:
            widest = 0
        else:
            break  # as narrow as it goes: the terminal wraps the rest
        widths[widest] -= 1
    return widths


def _cut(cell: str, width: int) -> str:
    if shown_width(cell) <= width:
        return cell
    out, used = "", 0
    for ch in cell:
        size = shown_width(ch)
        if used + size > width - 1:
            break
        out, used = out + ch, used + size
    return out + "…"


def table(rows: Sequence[Sequence[str]], paint: Paint = plain, width: int | None = None,
          indent: str = "") -> str:
    """`rows[0]` is the header. `paint` colours a body cell (widths stay the text's); `width`: the
    terminal's, or None to keep every cell whole."""
    widths = [max(shown_width(row[i]) for row in rows) for i in range(len(rows[0]))]
    if width is not None:
        floors = [min(w, max(NARROWEST, shown_width(rows[0][i]))) for i, w in enumerate(widths)]
        widths = fitted(widths, floors, width - len(indent))
    lines = []
    for number, row in enumerate(rows):
        cells = []
        for cell, w in zip(row, widths, strict=True):
            text = _cut(cell, w)
            shown = text if number == 0 or text != cell else paint(cell)
            cells.append(shown + " " * (w - shown_width(text)))
        lines.append((indent + GAP.join(cells)).rstrip())
    return "\n".join(lines) + "\n"
