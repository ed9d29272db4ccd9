"""length_prefixed.py: the strings that carry their length, by their closing bytes; end to end in
tests/cli/test_structure_t28.py (finding 18) and tests/cli/test_serialized_lengths.py."""

from __future__ import annotations

from renamer.length_prefixed import spans


def test_each_format_by_its_closing() -> None:
    assert spans(b's:3:"abc";') == [(2, 3, 5, 8, 3)]
    assert spans(b"$3\r\nabc\r\n") == [(1, 2, 4, 7, 3)]
    assert spans(b"3:abc,\n") == [(0, 1, 2, 5, 3)]


def test_no_string_where_the_length_misses_its_closing() -> None:
    assert spans(b"d3:abc3:defe") == []  # bencode: no closing byte
    assert spans(b"$3\r\nabcd\r\n") == []
    assert spans(b"at 10:30, ok\n") == []
    assert spans(b"03:abc,\n") == []  # a netstring has no leading zero
