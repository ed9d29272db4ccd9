"""Counts in messages, said right."""

from __future__ import annotations

import pytest

from renamer.words import plural


@pytest.mark.parametrize("count, noun, many, said", [
    (0, "file", None, "0 files"), (1, "file", None, "1 file"), (2, "file", None, "2 files"),
    (1, "match", "matches", "1 match"), (3, "match", "matches", "3 matches"),
])
def test_counts_are_said_right(count: int, noun: str, many: str | None, said: str) -> None:
    assert plural(count, noun, many) == said
