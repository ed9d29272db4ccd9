"""The pattern probe looks only near regex syntax: the same answers as looking at every start."""

from __future__ import annotations

import fnmatch
import re
import warnings

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from renamer import patterns
from renamer.patterns import PatternHit, find_patterns, fragments
from renamer.regex_guard import UnsafeRegex, compile_untrusted

OLDS = ["ana-ml2", "ana-ml2-bmc", "ana-ml2.ana.lan", "10.250.50.54", "web01"]
STARTS = fragments(OLDS)
# Pieces of old values, regex syntax, escapes, separators, and runs long enough to cross the reach.
PIECES = [b"10.", b"250", b".50", b".54", b"\\.", b"\\\\.", b"[0-9]", b"{1,3}", b"*", b"?", b"+",
          b" ", b"\n", b"ana-ml", b"2", b"x" * 130, b".", b"\\d", b"[.]", b"^", b"$", b'"', b"-",
          b":", b"[a:", b"]", b'[x"', b"= ", b"/", b"{", b"}", b"0-9", b"web0", b"1", b"**", b"\r\n"]


def every_start(data: bytes) -> list[PatternHit]:
    """The reference: the token around every start of every fragment, as the probe once did."""
    found = [pos for fragment in STARTS for pos in patterns._positions(data, fragment)]
    out = []
    for start, end in sorted({patterns._token_around(data, pos) for pos in found}):
        token = data[start:end]
        if end - start > patterns._MAX_TOKEN or not patterns._META.search(token):
            continue
        old = patterns._matched(token, OLDS)
        if old is not None:
            out.append(PatternHit(start, end, old))
    return out


@settings(max_examples=1000, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=60))
def test_near_metas_finds_what_every_start_finds(pieces: list[bytes]) -> None:
    data = b"".join(pieces)
    assert find_patterns(data, OLDS, STARTS) == every_start(data)


@settings(max_examples=1000, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=60), st.integers(0, 500), st.integers(0, 500))
def test_one_regex_finds_every_start_a_find_per_start_finds(pieces: list[bytes], low: int, high: int) -> None:
    """Issue 30: a window's starts in one regex (a lookahead per start, reaching the longest start
    past the window's end) are the offsets a find per start reports, overlapping ones included."""
    data = b"".join(pieces)
    probe, reach = patterns._starts_probe(STARTS)
    found = {hit.start() for hit in probe.finditer(data, low, high + reach) if hit.start() < high}
    assert found == {pos for fragment in STARTS for pos in patterns._positions(data, fragment, low, high)}


def test_a_start_far_from_any_meta_is_not_looked_at() -> None:
    # A 10/8 repo: `10.` on every line, one pattern at the end. Only the starts near it count.
    lines = b"".join(b"host%d: 10.%d.0.1\n" % (i, i % 250) for i in range(500))
    data = lines + b"regex: 10\\.250\\.50\\.5[0-9]\n"
    assert [hit.old for hit in find_patterns(data, OLDS, STARTS)] == ["10.250.50.54"]
    assert every_start(data) == find_patterns(data, OLDS, STARTS)
    assert list(patterns._near_metas(data)) == [(len(lines) + len(b"regex: "), len(data) - 1)]


def _walk(data: bytes, pos: int, step: int, reach: int) -> int:
    """The reference for the edges: a token run walked byte by byte, as the probe once did."""
    limit = max(0, pos - reach) if step < 0 else min(len(data), pos + reach)
    while (pos > limit and data[pos - 1] in patterns._TOKEN) if step < 0 else \
            (pos < limit and data[pos] in patterns._TOKEN):
        pos += step
    return pos


@settings(max_examples=500, deadline=None)
@given(st.lists(st.sampled_from([*PIECES, b"\t", b"\xe2\x80\x93", b"\0", b"\xff", b"\xc3\xa9"]), max_size=60),
       st.data())
def test_token_edges_found_by_translation_are_the_byte_walks(pieces: list[bytes], choice: st.DataObject) -> None:
    """Issue 30: the edges come from one translated copy (bytes.find in C), not a Python loop:
    the same offsets, for the meta windows and for a token around any position."""
    data = b"".join(pieces)
    pos = choice.draw(st.integers(0, len(data)))
    runs = patterns.token_runs(data)
    for reach in (patterns._MAX_TOKEN, patterns._REACH, 3):
        assert patterns._left_edge(runs, pos, reach) == _walk(data, pos, -1, reach)
        assert patterns._right_edge(runs, pos, reach) == _walk(data, pos, 1, reach)
    if pos < len(data):
        assert patterns._token_around(data, pos) == patterns._token_around(data, pos, runs)
    windows = []
    for meta in patterns._META.finditer(data):
        start = _walk(data, meta.start(), -1, patterns._REACH)
        end = _walk(data, meta.end(), 1, patterns._REACH)
        if windows and start <= windows[-1][1]:
            windows[-1] = (windows[-1][0], max(windows[-1][1], end))
        else:
            windows.append((start, end))
    assert list(patterns._near_metas(data)) == windows


def test_a_token_is_decided_once_and_answers_the_same() -> None:
    token = b"10\\.250\\.50\\.5[0-9]"
    patterns._matched_in.cache_clear()
    assert patterns._matched(token, OLDS) == "10.250.50.54"
    assert patterns._matched(token, OLDS) == "10.250.50.54"
    assert patterns._matched(token, ["web01"]) is None  # the old values are part of the question
    info = patterns._matched_in.cache_info()
    assert (info.hits, info.misses) == (1, 2)


def _matched_unpruned(token: bytes, olds: list[str]) -> str | None:
    """The reference for the literal-head prune: every candidate compiled and tried on every old value."""
    text = token.decode("ascii", "replace")
    emphasis = patterns._EMPHASIS.fullmatch(text)
    if emphasis:
        text = emphasis.group(2)
    text = patterns._BOLD_EDGE.sub("", text)  # as patterns.py: `node**` closes Markdown bold
    text = re.sub(r"^(?:\^|\\b)+|(?:\$|\\b)+$", "", text)
    candidates = [text] + ([text.replace("\\\\", "\\")] if "\\\\" in text else [])
    candidates += [text.replace("\\\\\\\\", "\\")] if "\\\\\\\\" in text else []
    globbed = "*" in text or "?" in text
    for candidate in candidates:
        regex = None
        if not globbed or patterns._REGEX_ONLY.search(candidate):
            try:
                with warnings.catch_warnings():  # as patterns.py: a token Python warns of is no pattern
                    warnings.simplefilter("error", FutureWarning)
                    regex = compile_untrusted(candidate, lines=False)  # as patterns.py: run on old values only
            except (re.error, OverflowError, RecursionError, UnsafeRegex, FutureWarning):
                regex = None
        for old in olds:
            if candidate != old and ((regex is not None and regex.fullmatch(old))
                                     or (globbed and fnmatch.fnmatchcase(old, candidate))):
                return old
    return None


TOKEN_PIECES = ["10", ".", "\\.", "\\\\.", "\\\\\\\\.", "250", "50", "54", "5", "[0-9]", "[.]", "*", "?", "+", "{1,3}",
                "{2}", "{", "}", "\\d", "\\w", "\\b", "^", "$", "|", "ana", "-", "ml", "2", "ml2", "\\-", "_",
                ",", "[", "]", "A", "\\", "\\1", "web0", "1", "**", ".*", "x"]


@settings(max_examples=3000, deadline=None)
@given(st.lists(st.sampled_from(TOKEN_PIECES), min_size=1, max_size=14))
def test_the_literal_head_prune_decides_every_token_as_compiling_it_does(pieces: list[str]) -> None:
    """Issue 30: a token whose literal head begins no old value is decided without compiling it;
    every answer is the one compiling and trying it gives."""
    token = "".join(pieces).encode()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)  # `[[`: re warns of a future nested set, both ways
        assert patterns._matched_in.__wrapped__(token, tuple(OLDS)) == _matched_unpruned(token, OLDS)


def test_a_token_python_warns_of_is_no_pattern_in_the_prune_and_its_reference() -> None:
    # found by the property above: `[[0-9].*` (re: "possible nested set") matched in the reference
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        assert patterns._matched_in.__wrapped__(b"[[0-9].*", tuple(OLDS)) is None
        assert _matched_unpruned(b"[[0-9].*", OLDS) is None


def test_the_meta_regex_finds_what_its_character_class_spelling_found() -> None:
    before = re.compile(rb"\\[dDwWsS]|\[[^\]\s]{1,40}\]|\{[0-9]{1,3}(?:,[0-9]{0,3})?\}|\.[*+?]|[*?]")
    data = b"".join(PIECES) * 3 + b"a.+b [gpu] x{2,} ?*\\s\\S.?"
    assert [m.span() for m in patterns._META.finditer(data)] == [m.span() for m in before.finditer(data)]


# Break-it round 17, #6: PromQL's regex in a Grafana dashboard's JSON, its dots escaped twice.
@pytest.mark.parametrize(("token", "old"), [
    (b"10\\\\\\\\.0\\\\\\\\.40\\\\\\\\.(11|12)", "10.0.40.11"),
    (b"10\\\\\\\\.0\\\\\\\\.40\\\\\\\\.1[0-9]", "10.0.40.11"),
    (b"^10\\\\\\\\.0\\\\\\\\.40\\\\\\\\.11$", "10.0.40.11"),
])
def test_a_regex_escaped_twice_in_json_matches_as_the_regex(token: bytes, old: str) -> None:
    assert patterns._matched(token, [old, "10.0.41.5"]) == old
