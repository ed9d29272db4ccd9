"""Text a document keeps compressed (break-it round 24, finding 16: skipped is not clean): a draw.io
diagram in its default compressed form, a draw.io PNG export (the diagram in a zTXt chunk) and a PDF
runbook (FlateDecode page text), each naming the old host and address, were never listed, verify
--strict OK. Now the .drawio is an `encoded` residual and the PNG and PDF are "skipped, holding old
values": verify --strict fails on each (plain verify on the residual), nothing written; a PNG or PDF holding no old value, and an
uncompressed draw.io (plain XML, rewritten as text), are as before."""

from __future__ import annotations

import base64
import html
import json
import struct
import urllib.parse
import zlib
from collections.abc import Callable
from pathlib import Path
from xml.etree import ElementTree

import pytest

from tests.conftest import Result
from tests.testing.repos import PUG_ALLOW as ALLOW
from tests.testing.repos import PUG_CONFIG as CONFIG

XML = ('<mxGraphModel><root><mxCell id="2" value="pug.ana.lan&lt;br&gt;10.0.0.5" vertex="1"/></root>'
       '</mxGraphModel>')


def _deflated(text: str) -> str:
    raw = zlib.compressobj(9, zlib.DEFLATED, -15)
    return base64.b64encode(raw.compress(urllib.parse.quote(text).encode()) + raw.flush()).decode()


def _drawio(*pages: str, newline: str = "\n") -> str:
    body = newline.join(f'<diagram id="p{i}" name="Page-{i}">{_deflated(p)}</diagram>' for i, p in enumerate(pages))
    return f'<mxfile host="app.diagrams.net">{newline}{body}{newline}</mxfile>{newline}'


def _chunk(tag: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", zlib.crc32(tag + data))


def _png(*chunks: bytes) -> bytes:
    ihdr = struct.pack(">IIBBBBB", 1, 1, 8, 0, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", ihdr) + b"".join(chunks)
            + _chunk(b"IDAT", zlib.compress(b"\x00\x00")) + _chunk(b"IEND", b""))


def _pdf(stream: bytes, extra: bytes = b"") -> bytes:
    content = zlib.compress(stream)
    objs = [b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>",
            b"<< /Length %d %s/Filter /FlateDecode >>\nstream\n" % (len(content), extra) + content + b"\nendstream"]
    out = b"%PDF-1.4\n"
    for i, o in enumerate(objs, 1):
        out += b"%d 0 obj\n" % i + o + b"\nendobj\n"
    return out + b"trailer << /Root 1 0 R >>\n%%EOF\n"


ZTXT = b"mxfile\x00\x00" + zlib.compress(urllib.parse.quote(_drawio(XML)).encode())
ITXT = b"mxfile\x00\x01\x00en\x00\x00" + zlib.compress(_drawio(XML).encode())
PAGE = b"BT /F1 12 Tf 72 720 Td (pug.ana.lan 10.0.0.5) Tj ET"


def _svg(mxfile: str, newline: str = "\n") -> str:
    """A draw.io SVG export (`*.drawio.svg`): the diagram HTML-escaped in the root's `content`."""
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="140" height="60" content="{html.escape(mxfile)}">'
            f'{newline}<g><text x="20" y="35">web node</text></g>{newline}</svg>{newline}')


def _html_export(mxfile: str) -> str:
    """draw.io's "embed HTML" export: the diagram in a JSON `data-mxgraph` attribute."""
    config = json.dumps({"highlight": "#0000ff", "nav": True, "xml": mxfile})
    return (f'<!DOCTYPE html>\n<html><body><div class="mxgraph" data-mxgraph="{html.escape(config)}"></div>\n'
            '<script src="https://viewer.diagrams.net/js/viewer-static.min.js"></script></body></html>\n')

# name: (path, content, how verify lists it: "encoded" residual or "skipped")
LISTED: dict[str, tuple[str, str | bytes, str]] = {
    "drawio": ("network.drawio", _drawio(XML), "encoded"),
    "drawio-two-pages-crlf": ("docs/net.drawio", _drawio("<mxGraphModel/>", XML, newline="\r\n"), "encoded"),
    "drawio-png-ztxt": ("network.drawio.png", _png(_chunk(b"zTXt", ZTXT)), "skipped"),
    "png-itxt-compressed": ("diagram.png", _png(_chunk(b"iTXt", ITXT)), "skipped"),
    "pdf-flate": ("runbook.pdf", _pdf(PAGE), "skipped"),
    "pdf-flate-latin1": ("notes.pdf", _pdf(b"BT (h\xf4te pug.ana.lan) Tj ET"), "skipped"),
    # round 25, finding 07: the diagram HTML-escaped in an SVG's `content`, an HTML export's attribute
    "drawio-svg": ("network.drawio.svg", _svg(_drawio(XML)), "encoded"),
    "drawio-svg-two-pages-crlf": ("docs/net.drawio.svg", _svg(_drawio("<mxGraphModel/>", XML, newline="\r\n"),
                                                              newline="\r\n"), "encoded"),
    "drawio-html-export": ("docs/network.html", _html_export(_drawio(XML)), "encoded"),
}
QUIET: dict[str, tuple[str, bytes]] = {
    "png-without-text": ("logo.png", _png()),
    "png-ztxt-of-others": ("other.png", _png(_chunk(b"zTXt", b"Comment\x00\x00" + zlib.compress(b"rex.lan")))),
    "pdf-image-stream": ("scan.pdf", _pdf(PAGE, b"/Subtype /Image ")),  # an image's bytes are not text
    "drawio-svg-of-others": ("other.drawio.svg", _svg(_drawio("<mxGraphModel><root/></mxGraphModel>")).encode()),
}


def _findings(root: Path, run: Callable[..., Result]) -> tuple[list[dict[str, object]], dict[str, object]]:
    doc = json.loads(run(root, "verify", "--strict", "--format", "json").stdout)
    return doc["findings"], doc


@pytest.mark.parametrize("case", sorted(LISTED))
def test_round24_text_a_document_keeps_compressed_is_listed(case: str, repo: Callable[..., Path],
                                                            run: Callable[..., Result]) -> None:
    path, content, how = LISTED[case]
    root = repo({path: content}, config=CONFIG, allowlist=ALLOW)
    before = (root / path).read_bytes()
    verified = run(root, "verify", "--strict")
    assert verified.exit_code == 1, verified.stdout
    assert path in verified.stdout
    if how == "encoded":
        findings, _ = _findings(root, run)
        assert any(f["path"] == path and f.get("reason") == "encoded" for f in findings), findings
    done = run(root, "sweep", "--commit")
    assert path in done.stdout
    assert (root / path).read_bytes() == before  # never written
    if path.endswith(".svg"):
        ElementTree.fromstring(before)  # still the SVG it was
    # an encoded residual fails plain verify; a skipped file holding old values, --strict (as an .xlsx)
    assert run(root, "verify", *(() if how == "encoded" else ("--strict",))).exit_code == 1


@pytest.mark.parametrize("case", sorted(QUIET))
def test_round24_a_document_holding_no_old_value_is_not_listed(case: str, repo: Callable[..., Path],
                                                               run: Callable[..., Result]) -> None:
    path, content = QUIET[case]
    root = repo({path: content, "hosts.txt": "pug.ana.lan\n"}, config=CONFIG, allowlist=ALLOW)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    assert path not in done.stdout
    assert run(root, "verify", "--strict").exit_code == 0


def test_round24_an_uncompressed_drawio_is_text_and_moves(repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    text = f'<mxfile><diagram id="x" name="P">{XML}</diagram></mxfile>\n'
    root = repo({"plain.drawio": text}, config=CONFIG, allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 0
    assert "wolf.fv.lan" in (root / "plain.drawio").read_text()
    assert run(root, "verify", "--strict").exit_code == 0
