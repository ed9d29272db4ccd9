"""UTF-16 and UTF-32 without a BOM, and old values in such code units inside binary data (pure)."""

from __future__ import annotations

import pytest

from renamer.match import Matcher
from renamer.sweep.content import classify_bytes
from renamer.sweep.wide import holds_wide, wide_codec, wide_matches, wide_needles

MATCHER = Matcher([("ana-ml2", "fv-ml1")], [("10.250.50.54", "10.251.50.54")])
TEXT = "host=ana-ml2\r\naddress=10.250.50.54\r\n"


@pytest.mark.parametrize("codec", ["utf-16-le", "utf-16-be", "utf-32-le", "utf-32-be"])
def test_wide_text_without_a_bom_is_its_encoding(codec: str) -> None:
    data = TEXT.encode(codec)
    assert wide_codec(data) == codec
    content = classify_bytes(data)
    assert (content.kind, content.data, content.detail) == ("text", TEXT.encode(), f"{codec.upper()} (no BOM)")
    assert (content.codec, content.raw(content.data)) == (codec, data)  # written back as it was read


@pytest.mark.parametrize(("bom", "codec"), [(b"\xff\xfe", "utf-16-le"), (b"\xfe\xff", "utf-16-be"),
                                            (b"\xff\xfe\0\0", "utf-32-le"), (b"\0\0\xfe\xff", "utf-32-be")])
def test_wide_text_with_a_bom_is_scanned_as_utf8_and_keeps_its_bom(bom: bytes, codec: str) -> None:
    data = bom + "h\u00e9 ana-ml2 \U0001f600\r\n".encode(codec)
    content = classify_bytes(data)
    assert (content.kind, content.codec, content.detail) == ("text", codec, codec.upper())
    assert content.data == "\ufeffh\u00e9 ana-ml2 \U0001f600\r\n".encode()
    assert content.raw(content.data.replace(b"ana-ml2", b"fv-ml1")) == data.replace(
        "ana-ml2".encode(codec), "fv-ml1".encode(codec))


def test_a_bom_then_bytes_no_codec_reads_is_binary() -> None:
    assert classify_bytes(b"\xff\xfe" + "ab".encode("utf-16-le") + b"\x00\xd8").kind == "binary"  # lone surrogate


@pytest.mark.parametrize("data", [
    pytest.param(b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR", id="png-header"),
    pytest.param(TEXT.encode("utf-16-le") + b"\0", id="odd-length"),
    pytest.param("a\x01b".encode("utf-16-le"), id="a-control-character"),
    pytest.param(b"\0" * 16, id="nuls-only"),
    pytest.param(bytes(range(256)) * 4, id="every-byte"),
    pytest.param("日本語のテキスト".encode("utf-16-le"), id="no-ascii-pattern"),
])
def test_noop_no_wide_text_without_the_ascii_pattern(data: bytes) -> None:
    assert wide_codec(data) is None
    assert classify_bytes(data).kind == ("binary" if b"\0" in data else "text")


def test_wide_needles_and_the_cheap_question() -> None:
    needles = wide_needles((b"ab", "b\u00fc".encode()))
    assert needles == (b"a\0b", b"a\0\0\0b")  # a non-ASCII needle has no such spelling
    assert holds_wide(b"x\0a\0b\0", needles)
    assert not holds_wide(b"ab", needles)  # no NUL: text, not asked


@pytest.mark.parametrize("codec", ["utf-16-le", "utf-16-be", "utf-32-le", "utf-32-be"])
@pytest.mark.parametrize("shift", [0, 1, 3])
def test_wide_matches_inside_binary_data(codec: str, shift: int) -> None:
    inner = "at ana-ml2 and 10.250.50.54;".encode(codec)
    data = b"\x7f" * shift + b"\0\xff" + inner + b"\0\x01"
    found = wide_matches(MATCHER, data)
    assert [(m.old, m.new) for m in found] == [("ana-ml2", "fv-ml1"), ("10.250.50.54", "10.251.50.54")]
    for m in found:
        assert data[m.start:m.end].replace(b"\0", b"") == m.old.encode()


@pytest.mark.parametrize("inner", [
    pytest.param("xana-ml2", id="longer-name"),
    pytest.param("ana-ml20", id="longer-name-right"),
    pytest.param("10.250.50.540", id="longer-address"),
])
def test_noop_wide_matches_keep_the_boundaries(inner: str) -> None:
    assert wide_matches(MATCHER, b"\0\x01" + inner.encode("utf-16-le") + b"\0") == []


def test_noop_a_needle_whose_other_bytes_are_not_nul() -> None:
    assert wide_matches(MATCHER, b"\0" + b"a\x01n\x01a\x01-\x01m\x01l\x012\x01") == []
