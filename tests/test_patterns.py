"""The pattern probe looks only near regex syntax: the same answers as looking at every start."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from renamer import patterns
from renamer.patterns import PatternHit, find_patterns, fragments

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


def test_a_start_far_from_any_meta_is_not_looked_at() -> None:
    # A 10/8 repo: `10.` on every line, one pattern at the end. Only the starts near it count.
    lines = b"".join(b"host%d: 10.%d.0.1\n" % (i, i % 250) for i in range(500))
    data = lines + b"regex: 10\\.250\\.50\\.5[0-9]\n"
    assert [hit.old for hit in find_patterns(data, OLDS, STARTS)] == ["10.250.50.54"]
    assert every_start(data) == find_patterns(data, OLDS, STARTS)
    assert list(patterns._near_metas(data)) == [(len(lines) + len(b"regex: "), len(data) - 1)]
