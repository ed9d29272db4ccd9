"""Escaped spellings (escapes.py): the decoded reading mapped back to the bytes, and the new value
in the old spelling's style. Pure logic over a real Matcher; the CLI cases are in
tests/cli/test_read_decoded.py."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from renamer.escapes import _escapes, _spell, escaped_matches, might_escape
from renamer.match import Matcher

MATCHER = Matcher([("ana-ml2", "fv-ml1"), ("ana-ml2.ana.lan", "fv-ml1.fv.lan")], [("10.250.50.54", "10.251.50.54")])


def _found(data: bytes, decodes: tuple[str, ...] = ()) -> list[tuple[bytes, str, str | None]]:
    return [(data[m.start:m.end], m.new, m.refused)
            for m in escaped_matches(MATCHER, data, MATCHER.find(data), decodes=decodes)]


@pytest.mark.parametrize(("data", "decodes", "expected"), (
    pytest.param(b'"ana\\u002dml2"', ("u",), [(b"ana\\u002dml2", "fv\\u002dml1", None)], id="u-decoded"),
    pytest.param(b'"ana\\u002Dml2"', (), [(b"ana\\u002Dml2", "fv-ml1", "encoded")], id="u-not-decoded-here"),
    pytest.param(b"http://ana%2dml2%2eana%2elan/", (),
                 [(b"ana%2dml2%2eana%2elan", "fv%2dml1%2efv%2elan", None)], id="url-fqdn-lower-hex"),
    pytest.param(b"http://10%2E250%2E50%2E54/", (), [(b"10%2E250%2E50%2E54", "10%2E251%2E50%2E54", None)],
                 id="url-address-upper-hex"),
    pytest.param(b"see http://x/ then ana%2Dml2", (), [(b"ana%2Dml2", "fv-ml1", "encoded")],
                 id="percent-after-a-url-ended"),
    pytest.param(b"ana&#45;ml2 &#x61;na-ml2", (), [(b"ana&#45;ml2", "fv-ml1", "encoded"),
                                                  (b"&#x61;na-ml2", "fv-ml1", "encoded")], id="html"),
    pytest.param(b"q=%2Fana-ml2", (), [(b"ana-ml2", "fv-ml1", None)], id="a-boundary-an-escape-makes"),
    pytest.param(b"http://ana-ml2%30/", (), [(b"ana-ml2", "fv-ml1", "encoded")], id="an-escape-continues-it"),
    pytest.param(b'"x\\u002dana-ml2"', ("u",), [], id="certainly-another-name"),
    pytest.param(b'"\\u0020ana-ml2"', ("u",), [(b"ana-ml2", "fv-ml1", None)], id="noop-a-blank-before-it"),
    pytest.param(b'"ana\\\\u002dml2"', ("u",), [], id="noop-escaped-backslash"),
    pytest.param(b'"ana\\u00e9ml2"', ("u",), [], id="noop-not-ascii"),
))
def test_escaped_matches(data: bytes, decodes: tuple[str, ...], expected: list[tuple[bytes, str, str | None]]) -> None:
    assert _found(data, decodes) == expected


@pytest.mark.parametrize(("data", "expected"), (
    pytest.param(b"ana%2Dml2", True, id="percent"),
    pytest.param(b"\\x61na-ml2", True, id="escaped-letter"),
    pytest.param(b"ana %20\\u0020ml2 \\u0041", False, id="noop-escapes-spell-no-needle"),
    pytest.param(b"100% done", False, id="noop-no-escape"),
))
def test_might_escape(data: bytes, expected: bool) -> None:
    assert might_escape(MATCHER, data) is expected


@pytest.mark.parametrize(("data", "expected"), (
    pytest.param(b'"ana\\055ml2"', [(b"ana\\055ml2", "fv-ml1", "encoded")], id="octal"),
    pytest.param(b'"ana\\u{2D}ml2"', [(b"ana\\u{2D}ml2", "fv-ml1", "encoded")], id="braced-u"),
    pytest.param(b'"ana\\N{HYPHEN-MINUS}ml2"', [(b"ana\\N{HYPHEN-MINUS}ml2", "fv-ml1", "encoded")], id="named"),
    pytest.param(b'"ana\\N{NO SUCH CHARACTER}ml2"', [], id="noop-unknown-name"),
    pytest.param(b"an\\a-ml2", [(b"an\\a-ml2", "fv-ml1", "encoded")], id="shell-backslash"),
    pytest.param(b"10.250.50\\.5\\4", [(b"10.250.50\\.5\\4", "10.251.50.54", "encoded")], id="shell-digit"),
    pytest.param(b'"\\ud83d\\ude00ana-ml2"', [(b"ana-ml2", "fv-ml1", None)], id="surrogates-left-alone"),
))
def test_every_escape_syntax(data: bytes, expected: list[tuple[bytes, str, str | None]]) -> None:
    assert _found(data) == expected


ESCAPE_BYTES = st.lists(st.sampled_from([b"\\", b"%", b"&#", b"x", b"u", b"U", b"N{", b"{", b"}", b";", b"0", b"7",
                                         b"8", b"9", b"2d", b"C3", b"BC", b"ff", b"ana-ml2", b"ana", b"-", b"ml2",
                                         b"a", b"\n", b"\xc3\xbc", b"\x00"]), max_size=40).map(b"".join)


@settings(max_examples=400, deadline=None)
@given(data=ESCAPE_BYTES, decodes=st.sampled_from([(), ("u",)]))
def test_any_bytes_decode_without_an_error(data: bytes, decodes: tuple[str, ...]) -> None:
    """Every run of escape-like bytes reads (the benchmark's `\\8` raised ValueError from int(.., 8),
    an internal error for the whole sweep): a decoder never raises on what a file holds."""
    might_escape(MATCHER, data)
    escaped_matches(MATCHER, data, MATCHER.find(data), decodes=decodes)


@pytest.mark.parametrize("data", [b"C:\\8\\9 ana-ml2", b"\\8ana-ml2", b"ana\\9ml2 \\08"])
def test_a_backslash_before_8_or_9_is_no_octal_escape(data: bytes) -> None:
    might_escape(MATCHER, data)
    escaped_matches(MATCHER, data, MATCHER.find(data), decodes=())


def test_a_decimal_escape_beyond_ascii_is_utf8_octets_read_and_spelled_as_one_character() -> None:
    """RFC 1035's `\\DDD` is an octet: `m\\195\\188ller` is müller, not mÃ¼ller (review of round 4)."""
    found = _escapes(rb"m\195\188ller.ana.lan ana\045ml2 x\255y", decimal=True)
    assert [chr(e.char) for e in found] == ["ü", "-", "ÿ"]
    assert _spell(ord("ü"), found[0]) == "\\195\\188" and _spell(ord("-"), found[1]) == "\\045"
    assert [chr(e.char) for e in _escapes(rb"m\195x", decimal=True)] == ["Ã"]  # a lone lead octet: as read


@pytest.mark.parametrize(("data", "expected"), (
    pytest.param(b"ssh an\\'61-ml2 now", [(b"an\\'61-ml2", "fv-ml1", "encoded")], id="rtf-hex-letter"),
    pytest.param(b"ana\\'2Dml2\\par", [(b"ana\\'2Dml2", "fv-ml1", "encoded")], id="rtf-hex-separator"),
    pytest.param(b"ping 10.250.50.\\'35\\'34\\par", [(b"10.250.50.\\'35\\'34", "10.251.50.54", "encoded")],
                 id="rtf-hex-digits"),
    pytest.param(b"ana\\u45?ml2", [(b"ana\\u45?ml2", "fv-ml1", "encoded")], id="rtf-unicode-fallback"),
    pytest.param(b"ana\\u45\\'2dml2", [(b"ana\\u45\\'2dml2", "fv-ml1", "encoded")], id="rtf-unicode-hex-fallback"),
    pytest.param(b"an\\'e1-ml2", [], id="noop-rtf-code-page-byte"),  # which character: \\ansicpg's
    pytest.param(b"ana\\u45ml2", [], id="noop-rtf-unicode-without-fallback"),
))
def test_rtf_escapes(data: bytes, expected: list[tuple[bytes, str, str | None]]) -> None:
    """t35 finding 07: RTF's `\\'hh` and `\\uN?` spell a name's characters; never rewritten (no
    format here decodes them for certain), refused `encoded`."""
    assert _found(data) == expected
