"""JSON: key paths (read by the YAML composer: JSON is YAML 1.2's flow style)."""

from __future__ import annotations

import pytest

from renamer.formats import format_of


@pytest.mark.parametrize(("text", "needle", "expected"), (
    pytest.param('{"host": "ana-ml2"}', "ana-ml2", ("host", "value"), id="value"),
    pytest.param('{"a": {"b": ["x", "ana-ml2"]}}', "ana-ml2", ("a.b[1]", "value"), id="nested-list"),
    pytest.param('{"ana-ml2": 1}', "ana-ml2", ("ana-ml2", "key"), id="key"),
    pytest.param('{"odd.key": "ana-ml2"}', "ana-ml2", ('["odd.key"]', "value"), id="quoted-key"),
))
def test_locate(text: str, needle: str, expected: tuple[str, str]) -> None:
    fmt = format_of("x.json", text.encode())
    assert fmt.locate(text, [text.index(needle)]) == [expected]


@pytest.mark.parametrize("text", (
    pytest.param('{"host": ["ana-ml2"', id="unterminated"),
    pytest.param('{"host": "ana-ml2", ]]', id="stray-brackets"),
))
def test_locate_noop_where_it_does_not_parse(text: str) -> None:
    assert format_of("x.json", text.encode()).locate(text, [len(text) - 1]) is None
