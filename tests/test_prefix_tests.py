"""prefix_tests.py: prefix and substring tests found by the operation's name in any language; end to end
in tests/cli/test_lang_t30.py (finding 02)."""

from __future__ import annotations

import pytest

from renamer.prefix_tests import CONTAINS, GLOB_PREFIX, PREFIX, positions


@pytest.mark.parametrize(("text", "grammar"), [
    (b'host.start_with?("web0")', PREFIX),
    (b'strings.HasPrefix(host, "web0")', PREFIX),
    (b"str_starts_with($h, 'web0')", PREFIX),
    (b'h.startsWith("web0")', PREFIX),
    (b'h.StartsWith("web0")', PREFIX),
    (b"starts-with(@name, 'web0')", PREFIX),
    (b'h.includes("web0")', CONTAINS),
    (b'strings.Contains(host, "web0")', CONTAINS),
    (b'host.include? "web0"', CONTAINS),
    (b"'web0' in h", CONTAINS),
    (b"'web0' not in h", CONTAINS),
    (b'[ "${h#web0}" != "$h" ]', GLOB_PREFIX),
])
def test_the_literal_of_each_test(text: bytes, grammar: str) -> None:
    found = positions(text)
    assert [(text[start:end], kind) for start, end, kind in found] == [(b"web0", grammar)]


@pytest.mark.parametrize("text", [
    b"'web0' in ['web01', 'web02']",  # a list's membership: the list's own items are references
    b'h.includes("-")',  # one or two characters test no name
    b"with open('web0') as f:",  # Python's `with` is no call
    b'send("web0")',
])
def test_no_test_read(text: bytes) -> None:
    assert [text[start:end] for start, end, _ in positions(text) if text[start:end] == b"web0"] == []
