"""markdown_emphasis.py: a `*`/`_` run after a name closes emphasis only where one opened before it."""

from __future__ import annotations

import pytest

from renamer.markdown_emphasis import closes, underscore_closers


def _closes(line: bytes, name: bytes, char: bytes = b"*") -> bool:
    start = line.rindex(name)
    end = start + len(name)
    count = len(line[end:]) - len(line[end:].lstrip(char))
    return closes(line, start, end, count, char)


@pytest.mark.parametrize("line", [b"a **primary on hermes** b", b"*on zeus*", b"***all on hermes***.",
                                  b"(**on hermes**)", b"x **a** and **b on hermes**"])
def test_emphasis_opened_before(line: bytes) -> None:
    assert _closes(line, b"hermes" if b"hermes" in line else b"zeus")


@pytest.mark.parametrize("line", [b"ls hermes*", b"**hermes** and x on hermes** y", b"find **/hermes**/x",
                                  b"hermes*", b"a * b on hermes*"])
def test_no_opener_no_emphasis(line: bytes) -> None:
    assert not _closes(line, b"hermes")


def test_underscores() -> None:
    line = b"runs __on hermes__ and _on zeus_.\n"
    assert [line[at:at + n] for at, n in underscore_closers(line)] == [b"__", b"_"]
    assert _closes(line, b"hermes", b"_") and _closes(line[:-1], b"zeus", b"_")
    assert not _closes(b"x = hermes__\n", b"hermes", b"_")
