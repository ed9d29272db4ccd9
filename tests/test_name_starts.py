"""Where a name starts after a name character (name_starts.py): shell defaults without the colon,
and the positions a format names. Pure logic over a real Matcher."""

from __future__ import annotations

import pytest

from renamer.match import Matcher
from renamer.name_starts import shell_default_starts

MATCHER = Matcher([("web01", "web11")], [("10.0.0.70", "10.1.0.70")])


@pytest.mark.parametrize(("data", "expected"), (
    pytest.param(b"${W-web01}", [(b"web01", "web11")], id="one-letter"),
    pytest.param(b"${LONG_NAME_2-10.0.0.70}", [(b"10.0.0.70", "10.1.0.70")], id="address"),
    pytest.param(b"${1-web01}", [(b"web01", "web11")], id="positional"),
    pytest.param(b"${W-web010} ${W-web01-x} $W-web01 {W-web01}", [], id="noop-other-names-or-no-operator"),
))
def test_shell_defaults_without_colon(data: bytes, expected: list[tuple[bytes, str]]) -> None:
    assert [(data[m.start:m.end], m.new) for m in MATCHER.find(data)] == expected


def test_starts_a_format_names() -> None:
    data = b"[servers.web01]"
    assert MATCHER.find(data) == []
    assert [(m.start, m.end, m.new) for m in MATCHER.find(data, [9])] == [(9, 14, "web11")]
    assert MATCHER.find(b"[servers.web010]", [9]) == []


def test_shell_default_starts() -> None:
    assert shell_default_starts(b"a ${W-x} ${:-y} ${9-z}") == [6, 20]


def test_round25_11_a_host_glued_after_fabios_urlprefix() -> None:
    """Outside round 25, finding 11: Fabio strips `urlprefix-` and routes the host after it."""
    from renamer.name_starts import glued_starts
    data = b'tags = ["urlprefix-warden.lab/", "myurlprefix-x/", "urlprefix-:3306"]\n'
    assert [data[p:p + 6] for p in glued_starts(data)] == [b"warden"]
