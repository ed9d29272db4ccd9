"""placeholders: tokens that write an old value's last digits as a placeholder (pure logic; the
sweep's residual is tests/cli/test_placeholders_over_old_values.py's)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from renamer import work
from renamer.placeholders import _NAME_LEFT, _TOKEN, Placeholders

OLDS = {"web01": "app01", "10.0.0.70": "10.0.1.90", "db01.lab.example": "pg01.lab.example",
        "10.0.0.170": "10.0.2.10", "node12": "worker12"}


def _found(text: str, olds: dict[str, str] = OLDS) -> list[tuple[str, str]]:
    data = text.encode()
    return [(data[s:e].decode(), old) for s, e, old in Placeholders(olds, olds).find(data)]


@pytest.mark.parametrize(("text", "expected"), [
    ("web0X are the web nodes", [("web0X", "web01")]),  # report
    ("ssh web0N; web0x; web0#", [("web0N", "web01"), ("web0x", "web01"), ("web0#", "web01")]),  # report
    ("web0<n>.lab and web0{n}.lab", [("web0<n>", "web01"), ("web0{n}", "web01")]),  # report
    ("10.0.0.7x (10.0.0.7X)", [("10.0.0.7x", "10.0.0.70"), ("10.0.0.7X", "10.0.0.70")]),  # report
    ("webXX and web## and web<id>", [("webXX", "web01"), ("web##", "web01"), ("web<id>", "web01")]),
    ("db0X.lab.example is the database", [("db0X", "db01.lab.example")]),  # an FQDN's label
    ("the 10.0.0.17x and 10.0.0.1xx blocks", [("10.0.0.17x", "10.0.0.170"), ("10.0.0.1xx", "10.0.0.170")]),
    ("nodeNN, node1N, node{i}", [("nodeNN", "node12"), ("node1N", "node12"), ("node{i}", "node12")]),
    ("hosts: [\"web0X\"]", [("web0X", "web01")]),
])
def test_a_placeholder_over_an_old_value_s_digits_is_found(text: str, expected: list[tuple[str, str]]) -> None:
    assert _found(text) == expected


@pytest.mark.parametrize("text", [
    "web0XX web0NN",  # two placeholders for one digit
    "webx weby webn",  # lower case after a letter: words
    "xweb0X web0X_1 web0Xa prod-web0X",  # a longer token
    "0x10 2x C# List<T> map{n}",
    "10.0.0.X 10.0.0.xx",  # a whole octet: prefix_values.py's
    "110.0.0.7x 10.0.0.7x.5",  # another address
    "web0{{ i }} web0${N} web0#{n}",  # interpolations: composed_tails.py's
    "web01 10.0.0.70",  # the old values themselves: the matcher's
])
def test_no_placeholder_where_none_stands_over_an_old_value(text: str) -> None:
    assert _found(text) == []


def test_a_placeholder_covering_the_new_value_too_needs_no_decision() -> None:
    olds = {"web01": "web02", "10.0.0.70": "10.0.0.75", "node12": "node7"}
    assert _found("web0X, web0<n>, 10.0.0.7x, node1N, nodeNN, node<n>", olds) == [
        ("node1N", "node12"), ("nodeNN", "node12")]


def test_a_token_is_read_only_where_a_stem_stands_before_a_placeholder() -> None:
    """Issue 30: a repo on 10/8 holds `10.` on nearly every line, and a homelab `pve1`, `pve2`,
    `pve3` on thousands under pve2's stem `pve`; a token is read only where a stem stands right
    before a placeholder's first byte (the reader read one at every `10.`: 700,000 in 2,000 files
    of the dense shape)."""
    data = b"".join(b"route 10.%d.1.9 via 10.9.8.7 10.0.0.%d\n" % (i, i) for i in range(500)) + \
        b"the 10.0.0.7x block; node1 node2 nodes\n"
    before = work.COUNTS.copy()
    found = Placeholders(OLDS, OLDS).find(data)
    assert [(data[s:e], old) for s, e, old in found] == [(b"10.0.0.7x", "10.0.0.70")]
    assert data.count(b"10.") > 1000 and data.count(b"10.0.0.") > 500 and data.count(b"node") == 3
    assert work.since(before)["placeholder positions"] == 1  # `10.0.0.7x` alone


_PIECES = ["web0", "web", "10.0.0.", "10.0.0.1", "10.0.0.17", "1", "7", "X", "x", "N", "#", "<n>", "{i}",
           "db0", ".lab", ".", "-", "_", " ", "\n", "(", "10.", "node1", "nodeN", "a", "<", "{", "}", ">",
           "web0<n>", "{n}", "2"]


def _by_heads(placeholders: Placeholders, data: bytes) -> list[tuple[int, int, str]]:
    """The reader as it was: every place a stem's first three characters stand, each token there
    read whole (the answer the faster reader must give)."""
    heads: dict[bytes, dict[bytes, list[tuple[str, int]]]] = {}
    for stems in placeholders._by_head.values():
        for stem, olds in stems.items():
            heads.setdefault(stem[:3], {})[stem] = olds
    out: set[tuple[int, int, str]] = set()
    for head, stems in heads.items():
        at = data.find(head)
        while at >= 0:
            if not (at and data[at - 1] in _NAME_LEFT):
                token = _TOKEN.match(data, at).group()  # type: ignore[union-attr]
                ends = {len(token), *(i for i in range(len(token)) if token[i:i + 1] == b".")}
                for end in ends:
                    out.update(placeholders._placed(data, at, at + end, stems))
            at = data.find(head, at + 1)
    return sorted(out)


# Stems beginning inside another's prefix (`nanana`), and a group of more stems than one regex holds
# (placeholders._SEARCHED: walked place by place).
OVERLAPPING = {"nana12": "nana13", "aaa1": "bbb1", "aaaa1": "bbbb1"}
MANY = {f"web{i}x1": f"app{i}x1" for i in range(100)}
_MORE = ["nana", "nanana1", "aaaa", "aX", "web1", "web12", "web1X", "web5x", "web77x"]


@settings(max_examples=500, deadline=None)
@given(st.lists(st.sampled_from([*_PIECES, *_MORE]), max_size=40), st.sampled_from([OLDS, OVERLAPPING, MANY, {**OLDS, **OVERLAPPING, **MANY}]))
def test_reading_only_where_a_stem_stands_before_a_placeholder_finds_what_reading_each_head_did(
        pieces: list[str], olds: dict[str, str]) -> None:
    """The answer is the one of the reader that looked at every place a stem's first three
    characters stand and read the token there (`pve1`, `10.9.8.7` too), on text made of stems,
    placeholders, heads and separators."""
    data = "".join(pieces).encode()
    placeholders = Placeholders(olds, olds)
    assert placeholders.find(data) == _by_heads(placeholders, data)
