"""literal_readers.LiteralReader: no literal, no read; a held literal asks the reader's own find."""

from __future__ import annotations

from renamer.literal_readers import LiteralReader
from renamer.occurrences import Match


class _Reader(LiteralReader):
    def __init__(self, literals: tuple[bytes, ...], found: list[Match]) -> None:
        self.literals, self._found = literals, found

    def find(self, data: bytes) -> list[Match]:
        return self._found


def test_a_reader_asks_its_find_only_where_a_literal_stands() -> None:
    hit = Match(0, 1, "a", "b", "address")
    assert not _Reader((), [hit]).might_hold(b"x")
    assert not _Reader((b"0x",), [hit]).might_hold(b"none here")
    assert _Reader((b"0x",), [hit]).might_hold(b"a 0x0a")
    assert not _Reader((b"0x",), []).might_hold(b"a 0x0a")
