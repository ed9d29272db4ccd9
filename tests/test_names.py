"""Names in a zone's presentation format (RFC 1035 5.1): `\\DDD` decimal, `\\X` the character X."""

from __future__ import annotations

import pytest

from renamer.names import presentation_decoded, presentation_name


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
