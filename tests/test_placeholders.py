"""placeholders: tokens that write an old value's last digits as a placeholder (pure logic; the
sweep's residual is tests/cli/test_placeholders_over_old_values.py's)."""

from __future__ import annotations

import pytest

from renamer.placeholders import Placeholders

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
