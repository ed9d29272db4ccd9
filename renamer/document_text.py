"""Text a document format keeps compressed (break-it round 24, finding 16: skipped is not clean): a
draw.io diagram (`<diagram>` = base64 of raw deflate of the URL-encoded XML, its default), a PNG's
compressed text chunks (zTXt, compressed iTXt: where draw.io keeps the diagram of an exported PNG)
and a PDF's FlateDecode streams (a page's text). Each declares its compression, so its text is read
as a gzip file's is (sweep/compressed.py: "skipped, holding old values", never rewritten), and a
draw.io diagram inside any of them is decoded once more. Pure: bytes in, text out.
"""

from __future__ import annotations

import base64
import binascii
import re
import struct
import urllib.parse
import zlib

from renamer import lazy_re

PNG = b"\x89PNG\r\n\x1a\n"
# t36 finding 04: a PDF reader looks for `%PDF-` anywhere in the first 1024 bytes (ISO 32000-1
# Annex H.3; pdf.js, poppler, qpdf, mupdf), after a blank line, a comment or a mail gateway's
# header; FDF (Acrobat's form data, `%FDF-`) is framed the same way (objects, xref, startxref).
HEAD_WINDOW = 1024
# At a line's start (a script naming the magic, `b"%PDF-1.4"`, is not one).
_HEAD = lazy_re.compile(rb"(?:^|(?<=[\r\n]))%(?:PDF|FDF)-[0-9]\.[0-9]")
# A PDF or FDF's last lines: `startxref`, the xref table's byte offset, `%%EOF` (a header past
# 1024 bytes, or none: readers still find the file by its trailer).
_TRAILER = lazy_re.compile(rb"startxref\s+[0-9]+\s+%%EOF\s*\Z")
_DIAGRAM = lazy_re.compile(rb"<diagram\b[^>]*>\s*(?P<value>[A-Za-z0-9+/=\s]{16,}?)\s*</diagram>")
_STREAM = lazy_re.compile(rb">>\s*stream\r?\n")


class TooLarge(Exception):
    """The text is larger than the limit once decompressed."""


def pdf_like(data: bytes) -> bool:
    """Is `data` a PDF or FDF as its readers find one: `%PDF-`/`%FDF-` within the first 1024
    bytes, or a `startxref N %%EOF` trailer in the last 1024? Every count in it (each stream's
    /Length, the xref table's offsets, startxref) is in bytes: a rewrite of another length breaks
    each one after it."""
    return (_HEAD.search(data, 0, HEAD_WINDOW + 8) is not None
            or _TRAILER.search(data, max(0, len(data) - HEAD_WINDOW)) is not None)


def kind(data: bytes) -> str | None:
    """`png` for a PNG holding a compressed text chunk, `pdf` for a PDF holding a FlateDecode
    stream, else None."""
    if data.startswith(PNG) and (b"zTXt" in data or b"iTXt" in data):
        try:
            return "png" if _png_texts(data, 1 << 30) else None
        except (zlib.error, TooLarge, struct.error, ValueError):
            return "png"  # declared compressed text that does not decompress: "not read"
    if b"/FlateDecode" in data and pdf_like(data):
        return "pdf"
    return None


def text(name: str, data: bytes, limit: int) -> bytes:
    """The text `name` (`png`, `pdf`) keeps compressed in `data`, with each draw.io diagram in it
    decoded too; TooLarge past `limit` bytes; zlib.error where a stream does not decompress."""
    parts = list(_png_texts(data, limit) if name == "png" else _pdf_streams(data, limit))
    out = b"\n".join(parts)
    out += b"\n" + b"\n".join(diagrams(out))
    if len(out) > limit:
        raise TooLarge
    return out


def diagrams(data: bytes) -> list[bytes]:
    """The XML of each compressed draw.io `<diagram>` in `data` (base64, raw deflate, URL-encoded);
    a diagram that does not decode is skipped."""
    if b"<diagram" not in data:
        return []
    out = []
    for m in _DIAGRAM.finditer(data):
        decoded = diagram(m.group("value"))
        if decoded is not None:
            out.append(decoded)
    return out


def diagram(value: bytes) -> bytes | None:
    """One compressed draw.io diagram's XML, or None."""
    try:
        raw = base64.b64decode(re.sub(rb"\s+", b"", value), validate=True)
        inflated = zlib.decompress(raw, -15)
    except (binascii.Error, ValueError, zlib.error):
        return None
    return urllib.parse.unquote_to_bytes(inflated)


def _png_texts(data: bytes, limit: int) -> list[bytes]:
    """The decompressed text of each zTXt and compressed iTXt chunk (URL-decoded where draw.io
    wrote it so)."""
    out: list[bytes] = []
    at, size = len(PNG), 0
    while at + 8 <= len(data):
        length, tag = struct.unpack(">I4s", data[at:at + 8])
        body = data[at + 8:at + 8 + length]
        at += 12 + length
        packed = None
        if tag == b"zTXt" and b"\0" in body:
            packed = body[body.index(b"\0") + 2:]
        elif tag == b"iTXt" and b"\0" in body:
            rest = body[body.index(b"\0") + 1:]
            if rest[:1] == b"\x01":  # compressed
                rest = rest[2:]
                for _ in range(2):  # the language tag and the translated keyword
                    rest = rest[rest.index(b"\0") + 1:] if b"\0" in rest else b""
                packed = rest
        if packed is not None:
            piece = zlib.decompressobj().decompress(packed, limit + 1 - size)
            if b"%3C" in piece[:200] or b"%3c" in piece[:200]:
                piece = urllib.parse.unquote_to_bytes(piece)
            out.append(piece)
            size += len(piece)
            if size > limit:
                raise TooLarge
        if tag == b"IEND":
            break
    return out


def _pdf_streams(data: bytes, limit: int) -> list[bytes]:
    """The decompressed bytes of each FlateDecode stream that is no image or font (one that does not
    inflate, an encrypted PDF's, is passed over)."""
    out: list[bytes] = []
    size = 0
    view = memoryview(data)  # each stream read from its start to its `endstream`, never copied
    for m in _STREAM.finditer(data):
        head = data[max(0, m.start() - 2000):m.start()]
        head = head[head.rfind(b" obj") + 1:]  # the stream's own dictionary, not the object's before it
        if b"/FlateDecode" not in head or re.search(rb"/Subtype\s*/Image|/Length[123]\b|/Type\s*/XRef", head):
            continue
        try:
            stop = data.find(b"endstream", m.end())
            piece = zlib.decompressobj().decompress(view[m.end():stop if stop > 0 else len(data)],
                                                    limit + 1 - size)
        except zlib.error:
            continue  # an encrypted PDF's stream, a filter chain: not text this reads
        out.append(piece)
        size += len(piece)
        if size > limit:
            raise TooLarge
    return out
