"""markup_tables.py on text: reStructuredText and AsciiDoc table rows with their headers, and a
rewrite that keeps a laid-out table's columns (issue 33 round 7)."""

from __future__ import annotations

from renamer import markup_tables
from renamer.occurrences import Match


def _rows(text: str) -> list[tuple[list[str] | None, list[str]]]:
    data = text.encode()
    out = []
    for header, row in markup_tables.rows(data):
        assert all(data[s:e].decode().strip("`*_ ") == t for s, e, t in row)
        out.append(([t for _, _, t in header] if header is not None else None, [t for _, _, t in row]))
    return out


def test_a_grid_table_with_a_header() -> None:
    text = ("+----+-----------+\n| a  | b         |\n+====+===========+\n| x  | 10.0.48.0 |\n"
            "+----+-----------+\n| y  | ``24``    |\n+----+-----------+\n")
    assert _rows(text) == [(["a", "b"], ["x", "10.0.48.0"]), (["a", "b"], ["y", "24"])]
    assert _rows("+----+----+\n| x  | 1  |\n+----+----+\n") == []  # no header row


def test_a_simple_table() -> None:
    text = "=====  =====  ==\nName   Net    N\n=====  =====  ==\nlab    10.0   24 extra\n=====  =====  ==\n"
    assert _rows(text) == [(["Name", "Net", "N"], ["lab", "10.0", "24 extra"])]
    assert _rows("Title\n=====\n\ntext\n") == []


def test_a_list_table() -> None:
    text = (".. list-table:: T\n   :header-rows: 1\n\n   * - Name\n     - Net\n   * - lab\n     - 10.0.48.0/24\n"
            "\nafter\n")
    assert _rows(text) == [(["Name", "Net"], ["lab", "10.0.48.0/24"])]
    assert _rows(".. list-table:: T\n\n   * - lab\n     - 1\n") == []  # no header rows


def test_asciidoc_tables() -> None:
    said = '[options="header"]\n|===\n|Name |Net\n|lab |10.0.48.0\n|===\n'
    assert _rows(said) == [(["Name", "Net"], ["lab", "10.0.48.0"])]
    implicit = "|===\n|Name |Net\n\n|lab\n|10.0.48.0\n|===\n"  # a blank line after the first: its header
    assert _rows(implicit) == [(["Name", "Net"], ["lab", "10.0.48.0"])]
    spans = '[%header,cols="2"]\n|===\n|Name |Net\n2+|wide\n|===\n'
    assert _rows(spans) == [(["Name", "Net"], ["wide"])]
    assert _rows("|===\n|lab |10.0.48.0\n|===\n") == []  # no header


def _match(data: bytes, old: str, new: str) -> Match:
    start = data.index(old.encode())
    return Match(start, start + len(old), old, new, "network")


def test_keep_widths_in_a_grid_and_a_simple_table() -> None:
    data = b"+----+----------+\n| a  | b        |\n+====+==========+\n| x  | 254      |\n+----+----------+\n"
    kept = markup_tables.keep_widths(data, [_match(data, "254", "1022")])[0]
    assert (kept.old, kept.new) == ("254      ", "1022     ")
    simple = b"==  =========  ==\na   b          c\n==  =========  ==\nx   10.0.48.0  24\n==  =========  ==\n"
    kept = markup_tables.keep_widths(simple, [_match(simple, "10.0.48.0", "10.9.0.0")])[0]
    assert (kept.old, kept.new) == ("10.0.48.0  ", "10.9.0.0   ")
    plain = b"x 10.0.48.0 y\n"  # not a table: left
    assert markup_tables.keep_widths(plain, [_match(plain, "10.0.48.0", "10.9.0.0")])[0].new == "10.9.0.0"
    tight = b"+---+---+\n| a | b |\n+===+===+\n| x | 254 |\n+---+---+\n"
    assert markup_tables.keep_widths(tight, [_match(tight, "254", "1022")])[0].new == "1022"  # no room
