"""prefix_tests.py: prefix and substring tests found by the operation's name in any language; end to end
in tests/cli/test_lang_t30.py (finding 02)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from renamer import prefix_tests
from renamer.prefix_tests import (
    CONTAINS,
    GLOB_PREFIX,
    MAKE_PATTERN,
    PREFIX,
    PREFIX_REGEX,
    REGEX_CONTAINS,
    positions,
)


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
    # round 24 (t31 sweep finding 02): slices compared with a literal, more call words, matchers by name
    (b"h[:4] == 'web0'", PREFIX),
    (b"'web0' == h[:4]", PREFIX),
    (b'h[4:8] == "web0"', CONTAINS),
    (b"substr($h, 0, 4) eq 'web0'", PREFIX),
    (b'[ "${HOSTNAME:0:4}" = "web0" ]', PREFIX),
    (b"h.slice(0, 4) === 'web0'", PREFIX),
    (b'h.substring(2, 6) !== "web0"', CONTAINS),
    (b'h:sub(1, 4) == "web0"', PREFIX),
    (b"LEFT(name, 4) = 'web0'", PREFIX),
    (b"h.startsWith(`web0`)", PREFIX),
    (b'strncmp(hostname, "web0", 4)', PREFIX),
    (b'"web0" `isPrefixOf` h', PREFIX),
    (b'isPrefixOf "web0" h', PREFIX),
    (b'string:prefix(H, "web0")', PREFIX),
    (b'lib.hasInfix "web0" n', CONTAINS),
    (b'strcontains(h, "web0")', CONTAINS),
    (b"select('match', 'web0')", PREFIX_REGEX),
    (b"h is match('web0')", PREFIX_REGEX),
    (b"selectattr('name', 'search', 'web0')", REGEX_CONTAINS),
    (b"$(filter web0%,$(HOSTS))", MAKE_PATTERN),
    (b"if ($h.Substring(0,4) -eq 'web0') {}", PREFIX),
    (b"h[0..3] == 'web0'", PREFIX),
    (b'&h[..4] == "web0"', PREFIX),
    (b'h.take(4) == "web0"', PREFIX),
    (b'take 4 h == "web0"', PREFIX),
])
def test_the_literal_of_each_test(text: bytes, grammar: str) -> None:
    found = positions(text)
    assert [(text[start:end].rstrip(b"%"), kind) for start, end, kind in found] == [(b"web0", grammar)]


@pytest.mark.parametrize("text", [
    b"'web0' in ['web01', 'web02']",  # a list's membership: the list's own items are references
    b'h.includes("-")',  # one or two characters test no name
    b"with open('web0') as f:",  # Python's `with` is no call
    b'send("web0")',
    b"commonprefix(['web0', h])",  # another word ending in prefix
    b"x = h[:4]\ny = 'web0'",  # no compare between them
    b"$(patsubst web0%,%,$(HOSTS))",  # not a filter
])
def test_no_test_read(text: bytes) -> None:
    assert [text[start:end] for start, end, _ in positions(text) if text[start:end] == b"web0"] == []


@pytest.mark.parametrize(("line", "text", "grammar"), [
    (b'isWeb = builtins.substring 0 4 name == "web0";', b"web0", "prefix"),
    (b'x = "web0" == lib.strings.substring 0 4 name;', b"web0", "prefix"),
    (b'x = builtins.substring 1 3 name == "eb0";', b"eb0", "contains"),
    (b'h.regionMatches(0, "web0", 0, 4)', b"web0", "prefix"),
    (b'h.regionMatches(true, 3, "web0", 0, 4)', b"web0", "contains"),
])
def test_round25_09_nix_java(line: bytes, text: bytes, grammar: str) -> None:
    """Outside round 25, finding 09: Nix's substring, Java's regionMatches."""
    assert [(line[a:b], g) for a, b, g in positions(line)] == [(text, grammar)]


_PIECES = [b"h[:4]", b"h[0:4]", b"h[..4]", b"[1,4]", b"[ 0 : 4 ]", b"${h:0:4}", b"${h: 1 :3}", b".take(4)",
           b"take 4 h", b".slice(0, 4)", b".substring(0,4)", b":sub(1, 4)", b".sub (1,4)", b"substr($h, 0, 4)",
           b"SUBSTRING(name, 1, 4)", b"MID (n, 1, 4)", b"Left(name, 4)", b"left (n, 4)", b"strpart(h, 0, 4)",
           b"builtins.substring 0 4 name", b"lib.substring 0 4 n", b" == ", b" = ", b" eq ", b" -ceq ", b"!==",
           b"'web0'", b'"web0"', b"`web0`", b"h", b" ", b"\n", b"[", b"]", b":", b",", b"(", b")", b"subnet: x",
           b"middle(", b"leftover("]


@given(st.lists(st.sampled_from(_PIECES), max_size=8).map(b"".join))
@settings(max_examples=600, deadline=None)
def test_the_cheap_slice_gate_never_turns_away_a_slice_test(data: bytes) -> None:
    """The slice-and-compare grammars run only where `_might_slice` finds a slice's spelling (they
    tried every quote and bracket of every YAML file): whatever they would find, the gate lets in."""
    if prefix_tests._SLICE_THEN.search(data) or prefix_tests._LITERAL_THEN.search(data):
        assert prefix_tests._might_slice(data, data.lower()), data
