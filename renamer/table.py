"""The one table renderer: columns padded to their widest cell, fitted to a terminal's width.

Every table renamer prints (dns verify, dns apply, probe, audit's per-file counts) goes
through `table`. Piped or written to a file, a table keeps every cell whole; on a terminal
narrower than the table, the widest columns give way first, each cut cell ending in `…`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

Paint = Callable[[str], str]
GAP = "  "
NARROWEST = 8  # a column is never cut below this (or its header, if shorter)


def plain(cell: str) -> str:
    return cell


def fitted(widths: list[int], floors: list[int], limit: int) -> list[int]:
    """Column widths whose table fits in `limit` columns, the widest cut first, one at a time."""
    widths = list(widths)
    while sum(widths) + len(GAP) * (len(widths) - 1) > limit:
        widest = max(range(len(widths)), key=lambda i: widths[i] - floors[i])
        if widths[widest] <= floors[widest]:
            break  # as narrow as it goes: the terminal wraps the rest
        widths[widest] -= 1
    return widths


def _cut(cell: str, width: int) -> str:
    return cell if len(cell) <= width else cell[:width - 1] + "…"


def table(rows: Sequence[Sequence[str]], paint: Paint = plain, width: int | None = None,
          indent: str = "") -> str:
    """`rows[0]` is the header. `paint` colours a body cell (widths stay the text's); `width`: the
    terminal's, or None to keep every cell whole."""
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    if width is not None:
        floors = [min(w, max(NARROWEST, len(rows[0][i]))) for i, w in enumerate(widths)]
        widths = fitted(widths, floors, width - len(indent))
    lines = []
    for number, row in enumerate(rows):
        cells = []
        for cell, w in zip(row, widths, strict=True):
            text = _cut(cell, w)
            cells.append((text if number == 0 or text != cell else paint(cell)) + " " * (w - len(text)))
        lines.append((indent + GAP.join(cells)).rstrip())
    return "\n".join(lines) + "\n"
