"""sweep/content.byte_counted and document_text.pdf_like (t36 finding 04): which files are framed by
byte counts, as their readers find them (pure logic; the CLI's is tests/cli/test_byte_counted.py)."""

from __future__ import annotations

import zlib

import pytest

from renamer import document_text
from renamer.sweep import compressed
from renamer.sweep.content import byte_counted, classify_bytes

_TRAILER = b"xref\n0 1\n0000000000 65535 f \ntrailer\n<< /Size 1 >>\nstartxref\n9\n%%EOF\n"


@pytest.mark.parametrize("data", [
    b"%PDF-1.7\n1 0 obj\n", b"\n%PDF-1.4\n", b"\r\n%PDF-2.0\n", b"%comment\n%PDF-1.4\n",
    b"x" * 1000 + b"\n%PDF-1.4\n",  # within 1024 bytes
    b"%FDF-1.2\n1 0 obj\n", b"junk\n%FDF-1.2\n",
    b"#" * 2000 + b"\n%PDF-1.4\n" + _TRAILER,  # late header: the trailer says PDF
    b"no header at all\n" + _TRAILER.replace(b"\n", b"\r\n"),
    b"!<arch>\ndebian-binary   0     0     0     100644  4         `\n2.0\n",
    b"070701000000010000", b"%!PS-Adobe-3.0\n%%BeginBinary: 4\nabcd%%EndBinary\n",
    b"%!PS-Adobe-3.0 EPSF-3.0\n%%BeginData: 4 Hex Bytes\n",
    # t37-break finding 05: a print job's PostScript after PJL or a Ctrl-D, a Subversion dump or hash
    # file, a git fast-import stream (a `data N` line beside a command)
    b"\x1b%-12345X@PJL JOB\r\n@PJL ENTER LANGUAGE=POSTSCRIPT\r\n%!PS-Adobe-3.0\n%%BeginData: 4 ASCII Bytes\n",
    b"\x04%!PS-Adobe-3.0\n%%BeginBinary: 4\nabcd\n",
    b"SVN-fs-dump-format-version: 2\n\nUUID: x\n",
    b"K 10\nsvn:ignore\nV 5\n*.log\n\nPROPS-END\n",
    b"blob\nmark :1\ndata 21\nupstream: web01:8080\n\n",
    b"commit refs/heads/main\ncommitter a <a@b> 1 +0000\ndata 5\nseed\n",
])
def test_framed_by_byte_counts(data: bytes) -> None:
    assert byte_counted(data)
    assert classify_bytes(data).kind == "binary"


@pytest.mark.parametrize("data", [
    b'MAGIC = b"%PDF-1.4"\n', b"A PDF starts `%PDF-1.7`.\n", b"x" * 1100 + b"\n%PDF-1.4\n",
    b"%PDF-x not a version\n", b"%!PS-Adobe-3.0\n/Helvetica findfont\nshowpage\n",
    b"startxref is a PDF word; %%EOF\nmore text\n", b"ar !<arch>\n",
    # what only names them: a runbook quoting DSC without a print job's start, a `data 21` line in
    # prose with no fast-import command, PROPS-END without a K/V pair
    b"Our jobs hold %!PS and %%BeginData: 4 lines\n", b"data 21\nbytes were sent\n",
    b"blob storage\ndata lake 21\n", b"the svn PROPS-END marker\n",
])
def test_text_that_only_names_the_magic(data: bytes) -> None:
    assert not byte_counted(data)
    assert classify_bytes(data).kind == "text"


def test_a_prefixed_pdf_s_compressed_text_is_still_read() -> None:
    body = zlib.compress(b"BT (ssh web01) Tj ET")
    pdf = (b"\n%%PDF-1.4\n4 0 obj\n<< /Length %d /Filter /FlateDecode >>\nstream\n" % len(body) + body
           + b"\nendstream\nendobj\n" + _TRAILER)
    assert document_text.pdf_like(pdf)
    assert compressed.kind(pdf) == "pdf"
    assert b"ssh web01" in document_text.text("pdf", pdf, 1 << 20)
