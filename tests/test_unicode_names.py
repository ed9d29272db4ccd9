"""Unicode forms of an IDNA name (unicode_names.py): the folded reading mapped back to the bytes, one
grapheme at a time. Pure logic over a real Matcher; the CLI cases are in tests/cli/test_read_decoded.py."""

from __future__ import annotations

import pytest

from renamer.match import Matcher
from renamer.unicode_names import folded_matches, might_fold

MATCHER = Matcher([("xn--bcher-kva.ana.lan", "buch.fv.lan")], [])


def _found(text: str) -> list[tuple[str, str, str | None]]:
    data = text.encode("utf-8")
    return [(data[m.start:m.end].decode(), m.new, m.refused)
            for m in folded_matches(MATCHER, data, MATCHER.find(data))]


@pytest.mark.parametrize(("text", "expected"), [
    pytest.param("a bu\u0308cher.ana.lan b", [("bu\u0308cher.ana.lan", "buch.fv.lan", None)], id="nfd"),
    pytest.param("BU\u0308CHER.ANA.LAN", [("BU\u0308CHER.ANA.LAN", "buch.fv.lan", None)], id="nfd-upper"),
    pytest.param("x BÜCHER.ana.lan", [("BÜCHER.ana.lan", "buch.fv.lan", "encoded")], id="mixed-case"),
    pytest.param("bücher.ana.lan", [("bücher.ana.lan", "buch.fv.lan", None)], id="exact-form-unchanged"),
    pytest.param("öbücher.ana.lan bu\u0308\u0308cher.ana.lan", [], id="noop-other-names"),
    pytest.param("ana.lan only ascii", [], id="noop-ascii"),
])
def test_folded_matches(text: str, expected: list[tuple[str, str, str | None]]) -> None:
    assert _found(text) == expected


def test_might_fold_only_where_the_folded_reading_adds_a_name() -> None:
    assert might_fold(MATCHER, "BÜCHER.ana.lan".encode())
    assert not might_fold(MATCHER, "bücher.ana.lan".encode())  # the exact form: the first pass finds it
    assert not might_fold(MATCHER, b"\xff\xfe not utf-8 b\xc3")
    assert not might_fold(Matcher([("ana-ml2", "fv-ml1")], []), "BÜCHER.ana.lan".encode())


ASCII = Matcher([("ana-ml2", "fv-ml1"), ("ana-ml2.ana.lan", "fv-ml1.fv.lan")], [("10.250.50.54", "10.251.50.54")])


def _ascii_found(text: str) -> list[tuple[str, str | None]]:
    data = text.encode("utf-8")
    return [(data[m.start:m.end].decode(), m.refused) for m in folded_matches(ASCII, data, ASCII.find(data))]


@pytest.mark.parametrize(("text", "expected"), [
    pytest.param("ａｎａ-ｍｌ２", [("ａｎａ-ｍｌ２", "encoded")], id="fullwidth"),
    pytest.param("x ana-ml2。ana。lan", [("ana-ml2。ana。lan", "encoded")], id="ideographic-stops-fqdn"),
    pytest.param("１０.250.50.54", [("１０.250.50.54", "encoded")], id="fullwidth-digits-address"),
    pytest.param("x ana-ml2．lan", [("ana-ml2", None)], id="exact-short-name-before-a-fullwidth-stop"),
    pytest.param("ｋana-ml2.ana.lan", [], id="fullwidth-letter-joins-another-name"),
    pytest.param("\u212aana-ml2", [], id="kelvin-sign-joins-another-name"),
    pytest.param("ana-ml2ｘ", [], id="joined-after"),
    pytest.param("Ana-ml2—x", [], id="noop-case-beside-a-dash"),
    pytest.param("café ana-ml2", [("ana-ml2", None)], id="noop-accented-prose"),
])
def test_compatibility_forms_of_ascii_names(text: str, expected: list[tuple[str, str | None]]) -> None:
    assert _ascii_found(text) == expected


# Code points a name reader deletes (break-it round 4, finding 8): Python's own IDNA codec, the one
# socket.getaddrinfo applies to a str host, reads each of these as the old name.
DELETED = ["\u00ad", "\u200b", "\u200c", "\u200d", "\u034f", "\ufe00", "\ufe0f", "\u2060", "\ufeff", "\u180b",
           "\U000e0100"]


@pytest.mark.parametrize("ch", DELETED, ids=[f"U+{ord(c):04X}" for c in DELETED])
@pytest.mark.parametrize("where", [1, 3, 4, 6], ids=["after-a", "before-dash", "after-dash", "before-2"])
def test_a_deleted_code_point_inside_a_name_is_the_old_name(ch: str, where: int) -> None:
    name = "ana-ml2"[:where] + ch + "ana-ml2"[where:]
    if ch not in "\U000e0100":  # UTS46-only: IDNA2003 has no such table entry
        assert f"{name}.lan".encode("idna") == b"ana-ml2.lan"  # what a consumer resolves
    assert _ascii_found(f"ssh root@{name} -p 22") == [(name, "encoded")]
    assert _ascii_found(f"{name}.ana.lan") == [(f"{name}.ana.lan", "encoded")]


@pytest.mark.parametrize(("text", "expected"), [
    pytest.param("ana-ml2\u200b is up", [("ana-ml2", None)], id="trailing-outside-the-name"),
    pytest.param("\u200bana-ml2 is up", [("ana-ml2", None)], id="leading-outside-the-name"),
    pytest.param("ana-ml2\u00adx", [], id="joins-another-name"),
    pytest.param("x\u200dana-ml2", [], id="joins-another-name-before"),
    pytest.param("\ufeffana-ml2", [("ana-ml2", None)], id="a-files-bom-is-no-names"),
    pytest.param("ana-ml2 \u00ad soft", [("ana-ml2", None)], id="noop-apart"),
])
def test_deleted_code_points_at_a_names_edge(text: str, expected: list[tuple[str, str | None]]) -> None:
    assert _ascii_found(text) == expected
