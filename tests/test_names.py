"""Names in a zone's presentation format (RFC 1035 5.1): `\\DDD` decimal, `\\X` the character X."""

from __future__ import annotations

import pytest

from renamer.names import presentation_decoded, presentation_name, presentation_reading


@pytest.mark.parametrize(("token", "expected"), [
    pytest.param(b"ana-ml2", "ana-ml2", id="plain"),
    pytest.param(b"ana\\-ml2", "ana-ml2", id="backslash-dash"),
    pytest.param(b"\\097na-ml2", "ana-ml2", id="decimal-letter"),
    pytest.param(b"ana\\045ml2", "ana-ml2", id="decimal-dash"),
    pytest.param(b"AN\\065\\045ML2.ana.lan.", "ANA-ML2.ana.lan.", id="upper-case-absolute"),
    pytest.param(b"*.lab", "*.lab", id="wildcard"),
    pytest.param(b"@", "@", id="origin"),
    pytest.param(b"ana\\055ml2", "ana7ml2", id="055-is-decimal-seven"),
    pytest.param(b"ana\\.ml2", None, id="escaped-dot"),
    pytest.param(b"ana\\046ml2", None, id="decimal-dot"),
    pytest.param(b"\\@", None, id="escaped-at"),
    pytest.param(b"a\\\\b", None, id="escaped-backslash"),
    pytest.param(b"ana\\256", None, id="no-byte"),
    pytest.param(b"ana\\", None, id="lone-backslash"),
    pytest.param(b'"ana"', None, id="quoted"),
    pytest.param(b"dyn-$", None, id="generate-template"),
    pytest.param(b"", None, id="empty"),
])
def test_presentation_name(token: bytes, expected: str | None) -> None:
    assert presentation_name(token) == expected


def test_presentation_decoded() -> None:
    assert presentation_decoded(b"\\097na\\-ml2 IN A x \\256 \\\\") == b"ana-ml2 IN A x \\256 \\"
    data = b"no escape"
    assert presentation_decoded(data) is data


@pytest.mark.parametrize(("token", "text", "opaque"), [
    pytest.param(b"pug\\.ana", "pug_ana", {3}, id="escaped-dot-one-label"),
    pytest.param(b"pug\\046ana", "pug_ana", {3}, id="decimal-dot"),
    pytest.param(b"pug\\\\x", "pug_x", {3}, id="escaped-backslash"),
    pytest.param(b"x\\.y.pug.lan.", "x_y.pug.lan.", {1}, id="an-opaque-label-then-plain-ones"),
    pytest.param(b"\\080ug\\045x", "Pug-x", set(), id="a-host-name-read-through"),
])
def test_presentation_reading(token: bytes, text: str, opaque: set[int]) -> None:
    reading = presentation_reading(token)
    assert reading is not None and reading.text == text and reading.opaque == opaque
    assert len(reading.at) == len(text) + 1 and reading.at[-1] == len(token)
    # each character starts where its bytes do: an escape's backslash
    assert all(token[reading.at[i]:reading.at[i] + 1] in (text[i].encode(), b"\\")
               for i in range(len(text)) if i not in opaque)


@pytest.mark.parametrize("token", [pytest.param(b"pug-x", id="no-escape"),
                                   pytest.param(b"pug\\256", id="no-byte"),
                                   pytest.param(b"pug\\", id="a-lone-backslash")])
def test_noop_presentation_reading(token: bytes) -> None:
    assert presentation_reading(token) is None
