"""Python: whether a match sits in a string, a comment, an identifier or other code."""

from __future__ import annotations

import sys

import pytest

from renamer.formats.python_cst import CODE, COMMENT, IDENTIFIER, STRING, roles


def spans_of(source: str, needles: list[str]) -> list[tuple[int, int]]:
    """Byte spans of each needle's first occurrence at or after the previous one."""
    data, out, at = source.encode(), [], 0
    for needle in needles:
        start = data.index(needle.encode(), at)
        out.append((start, start + len(needle.encode())))
        at = start + 1
    return out


def roles_of(source: str, needles: list[str]) -> list[str] | None:
    return roles(source.encode(), spans_of(source, needles))


@pytest.mark.parametrize(("source", "needles", "expected"), (
    pytest.param('HOST = "ana-ml2"\n', ["ana-ml2"], [STRING], id="double-quoted"),
    pytest.param("HOST = 'ana-ml2'\n", ["ana-ml2"], [STRING], id="single-quoted"),
    pytest.param('HOST = b"ana-ml2"\n', ["ana-ml2"], [STRING], id="bytes"),
    pytest.param('HOST = r"\\d ana-ml2"\n', ["ana-ml2"], [STRING], id="raw"),
    pytest.param('h = "\u65e5\u672c ana-ml2"\n', ["ana-ml2"], [STRING], id="non-ascii-before"),
    pytest.param('"""Docs for ana-ml2."""\n', ["ana-ml2"], [STRING], id="module-docstring"),
    pytest.param('def f():\n    """Talks to\n    ana-ml2.\n    """\n', ["ana-ml2"], [STRING],
                 id="multi-line-docstring"),
    pytest.param('s = """\n# ana-ml2\n"""\n', ["ana-ml2"], [STRING], id="hash-inside-triple-quotes"),
    pytest.param('u = f"http://ana-ml2:{port}/v1"\n', ["ana-ml2"], [STRING], id="f-string-text"),
    pytest.param('u = f"{x!r} ana-ml2 {y:>{w}}"\n', ["ana-ml2"], [STRING], id="f-string-format-spec"),
    pytest.param('X = ("ana-ml2" "/v1")\n', ["ana-ml2"], [STRING], id="implicit-concat"),
    pytest.param('X = ("ana-" "ml2")\n', ['"ana-" "ml2"'], [STRING], id="span-over-concat"),
    pytest.param("x = 1  # ana-ml2\n", ["ana-ml2"], [COMMENT], id="trailing-comment"),
    pytest.param("# ana-ml2\nx = 1\n", ["ana-ml2"], [COMMENT], id="comment-line"),
    pytest.param('s = "# no"  # ana-ml2\n', ["no", "ana-ml2"], [STRING, COMMENT], id="hash-in-string-then-comment"),
    pytest.param('d = {"ana-ml2": ANA_ML2}\n', ["ana-ml2", "ANA_ML2"], [STRING, IDENTIFIER], id="mixed"),
))
def test_roles_finds_strings_and_comments(source: str, needles: list[str], expected: list[str]) -> None:
    assert roles_of(source, needles) == expected


@pytest.mark.parametrize(("source", "needles", "expected"), (
    pytest.param("ANA_ML2_URL = 1\n", ["ANA_ML2"], [IDENTIFIER], id="constant"),
    pytest.param("def ana_ml2(): pass\n", ["ana_ml2"], [IDENTIFIER], id="function-name"),
    pytest.param("x = obj.ana_ml2\n", ["ana_ml2"], [IDENTIFIER], id="attribute"),
    pytest.param("import ana_ml2\n", ["ana_ml2"], [IDENTIFIER], id="import"),
    pytest.param('s = "a" + ana_ml2  # c\n', ["ana_ml2"], [IDENTIFIER], id="name-after-string"),
    pytest.param("x = ana - ml2\n", ["ana"], [IDENTIFIER], id="one-name"),
    pytest.param("x = ana-ml2\n", ["ana-ml2"], [CODE], id="subtraction"),
    pytest.param("x = 10.250\n", ["10.250"], [CODE], id="number"),
    pytest.param('u = f"{ana_ml2} x"\n', ["ana_ml2"], [IDENTIFIER], id="f-string-replacement-field"),
    pytest.param('u = f"ana_ml2 {x} ana_ml2"\n', ["ana_ml2", "ana_ml2"], [STRING, STRING],
                 id="f-string-text-around-a-field"),
))
def test_roles_leaves_alone_code(source: str, needles: list[str], expected: list[str]) -> None:
    assert roles_of(source, needles) == expected


@pytest.mark.parametrize("source", (
    pytest.param("x = 1 +\n", id="syntax-error"),
    pytest.param("def f(:\n", id="bad-def"),
))
def test_roles_unparseable(source: str) -> None:
    assert roles(source.encode(), [(0, 1)]) is None


def test_roles_no_spans() -> None:
    assert roles(b"x = 1\n", []) == []


def test_a_backslash_in_an_f_string_field_parses_only_where_python_allows_it() -> None:
    source = b'u = f"{d[\\"k\\"]} ana-ml2"\n'
    start = source.index(b"ana-ml2")
    expected = [STRING] if sys.version_info >= (3, 12) else None  # PEP 701 allows it from 3.12
    assert roles(source, [(start, start + 7)]) == expected
