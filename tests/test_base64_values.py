"""base64_values.py's pure logic: which values a format declares base64, and what each becomes
(the CLI test, tests/cli/test_declared_base64.py, runs the sweep and parses the YAML after)."""

from __future__ import annotations

import base64
import gzip
import urllib.parse
import zlib

import pytest

from renamer import base64_values
from renamer.match import Matcher

MATCHER = Matcher([("web01", "app01")], [("10.0.0.70", "10.0.1.70")])


def _b64(text: bytes) -> bytes:
    return base64.b64encode(text)


def _found(data: bytes) -> list[tuple[str, str, str | None]]:
    out = base64_values.encoded_matches(data, [], MATCHER.find, MATCHER.needles)
    return [(m.old, m.new, m.refused) for m in out]


def test_a_secret_value_is_re_encoded() -> None:
    data = b"kind: Secret\ndata:\n  HOST: '" + _b64(b"web01:5432") + b"'\n"
    [(old, new, refused)] = _found(data)
    assert (old, base64.b64decode(new), refused) == (_b64(b"web01:5432").decode(), b"app01:5432", None)


@pytest.mark.parametrize(("data", "where"), [
    (b"kind: Secret\ndata:\n  A: " + _b64(b"10.0.0.70") + b"\n", "Secret data A"),
    (b"---\nkind: ConfigMap\nbinaryData:\n  h: " + _b64(b"web01") + b"\n", "ConfigMap binaryData h"),
    (b"write_files:\n- encoding: b64\n  content: " + _b64(b"web01") + b"\n", "cloud-init content"),
    (b"write_files:\n  - content: " + _b64(b"web01") + b"\n    encoding: base64\n", "cloud-init content"),
    (b"key: !!binary " + _b64(b"web01") + b"\n", "!!binary"),
    (b'x = base64decode("' + _b64(b"web01") + b'")\n', "base64decode"),
])
def test_each_declared_position(data: bytes, where: str) -> None:
    [value] = base64_values.declared(data)
    assert where in value.where and base64_values.might_hold(data, MATCHER.needles)


@pytest.mark.parametrize("data", [
    b"kind: Secret\nstringData:\n  A: " + _b64(b"web01") + b"\n",
    b"kind: Deployment\ndata:\n  A: " + _b64(b"web01") + b"\n",
    b"comment: " + _b64(b"web01") + b"\n",
    b"write_files:\n- content: " + _b64(b"web01") + b"\n",  # no encoding: plain text
])
def test_no_declared_value(data: bytes) -> None:
    assert _found(data) == []


def test_gzip_is_an_encoded_residual() -> None:
    packed = base64.b64encode(gzip.compress(b"web01", mtime=0))
    data = b"write_files:\n- encoding: gz+b64\n  content: " + packed + b"\n"
    assert _found(data) == [("web01", "app01", "encoded")]


def _deflated(text: bytes) -> bytes:
    raw = zlib.compressobj(9, zlib.DEFLATED, -15)
    return base64.b64encode(raw.compress(urllib.parse.quote(text).encode()) + raw.flush())


@pytest.mark.parametrize("data", [  # round 25, finding 07: draw.io's SVG and HTML exports
    b'<svg content="&lt;mxfile&gt;&lt;diagram id=&quot;a&quot; name=&quot;P&quot;&gt;' + _deflated(b"<mxCell value=\"web01\"/>")
    + b'&lt;/diagram&gt;&lt;/mxfile&gt;"></svg>\n',
    b'<div data-mxgraph="{&quot;xml&quot;:&quot;&lt;mxfile&gt;&lt;diagram id=\\&quot;a\\&quot;&gt;'
    + _deflated(b"<mxCell value=\"web01\"/>") + b'&lt;\\/diagram&gt;&lt;\\/mxfile&gt;&quot;}"></div>\n',
])
def test_an_escaped_drawio_diagram_is_declared(data: bytes) -> None:
    [value] = base64_values.declared(data)
    assert "draw.io" in value.where and value.deflated and base64_values.might_hold(data, MATCHER.needles)
    assert _found(data) != []
