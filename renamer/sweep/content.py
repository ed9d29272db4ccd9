"""Reading a file for scanning: what kind of content it holds, without ever following links.

This is the sweep's one file reader. The fast first pass (sweep/parallel.py)
opens files with the same flags and recognises the same byte-order marks, from
the constants below, so both readers agree on what a file is.
"""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from renamer import document_text, lazy_re
from renamer.sweep import line_breaks
from renamer.sweep.wide import wide_codec

ContentKind = Literal["text", "binary", "encoding", "too-large", "symlink", "unreadable"]

# O_NOFOLLOW: a link is never followed; O_NONBLOCK: a FIFO cannot hang the scan.
OPEN_FLAGS = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
WIDE_BOMS = (
    (b"\xff\xfe\x00\x00", "utf-32-le"), (b"\x00\x00\xfe\xff", "utf-32-be"),
    (b"\xff\xfe", "utf-16-le"), (b"\xfe\xff", "utf-16-be"),
)
# The first two bytes of every wide BOM above: enough for the first pass to send a file on.
WIDE_BOM_STARTS = frozenset(bom[:2] for bom, _ in WIDE_BOMS)
# Text framed by byte counts a rewrite of another length makes wrong (t36 finding 04), beside PDF and
# FDF (document_text.pdf_like): an ar archive of text members (`!<arch>`, each header's decimal
# size; ar, a .deb's outer layer), an ASCII cpio archive (newc/crc/odc: each header's size in hex
# or octal; an initramfs, an .rpm's payload) and a PostScript file whose DSC comments count bytes
# (`%%BeginBinary: N`, `%%BeginData: N`: what follows is read by count).
# Beside them (t37-break finding 05): a Subversion dump (each node's Text-content-length,
# Content-length and md5), a git fast-import stream (`data N` before each blob's bytes) and
# Subversion's hash files (`K n` / `V n` before each key and value, ended by PROPS-END).
_COUNTED_STARTS = (b"!<arch>\n", b"070701", b"070702", b"070707", b"SVN-fs-dump-format-version:")
_DSC_COUNTS = (b"%%BeginBinary:", b"%%BeginData:")
# What may stand before `%!PS` in a print job: a PJL header (after the Universal Exit Language
# escape) or the Ctrl-D a Windows driver sends first.
_PRINT_JOB_STARTS = (b"\x1b%-12345X", b"\x04")
_FAST_IMPORT_DATA = lazy_re.compile(rb"(?m)^data (?:0|[1-9][0-9]*)$")
_FAST_IMPORT_COMMAND = lazy_re.compile(rb"(?m)^(?:blob|commit refs/|tag |reset refs/|mark :)")
_HASH_DUMP = lazy_re.compile(rb"(?m)^K (?:0|[1-9][0-9]*)\n.*\nV (?:0|[1-9][0-9]*)$")


def byte_counted(data: bytes) -> bool:
    """Is `data` a format framed by byte counts (a PDF or FDF as its readers find one, an ar or
    ASCII cpio archive, PostScript with DSC byte counts, also inside a print job, a Subversion
    dump or hash file, a git fast-import stream)? Never rewritten: binary."""
    if data.startswith(_COUNTED_STARTS) or document_text.pdf_like(data):
        return True
    if any(count in data for count in _DSC_COUNTS) and (
            data.startswith(b"%!PS") or (data.startswith(_PRINT_JOB_STARTS) and b"%!PS" in data)):
        return True
    if b"data " in data and _FAST_IMPORT_DATA.search(data) and _FAST_IMPORT_COMMAND.search(data):
        return True
    return b"PROPS-END" in data and _HASH_DUMP.search(data) is not None


@dataclass(frozen=True)
class Content:
    """A file's bytes as scanned. For `encoding`, and for `text` with a `codec`, `data` is the
    UTF-8 transcoding of the file's bytes."""

    kind: ContentKind
    data: bytes
    mode: int = 0
    detail: str = ""
    # UTF-16/32 text (break-it round 17, finding 18: PowerShell 5 scripts and regedit exports are
    # UTF-16LE with a BOM, live configuration): scanned as UTF-8 like any text, written back in
    # this codec (`raw`), BOM and all. Empty for a file scanned as its own bytes. `lines:...`: a
    # file breaking its lines at a lone CR (or NEL, LS, PS where its format does), scanned with
    # each spelled as an LF-ended break of the same length, written back with its own
    # (sweep/line_breaks.py; t35, finding 09).
    codec: str = ""

    def raw(self, data: bytes) -> bytes:
        """`data` (UTF-8, as scanned) as the file's own bytes."""
        return own_bytes(data, self.codec)


def own_bytes(scanned: bytes, codec: str) -> bytes:
    """Bytes as scanned (UTF-8 for wide text) as a file in `codec` holds them ("": the same;
    `lines:...`: its own line breaks, sweep/line_breaks.py)."""
    if codec.startswith(line_breaks.PREFIX):
        return line_breaks.restore(scanned, codec)
    return scanned.decode("utf-8").encode(codec) if codec else scanned


def read_content(path: str | Path, max_size: int) -> Content | None:
    """Read `path`; None when it is not a regular file or symlink (folder, socket, gone)."""
    try:
        fd = os.open(path, OPEN_FLAGS)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            try:
                return Content("symlink", os.fsencode(os.readlink(path)), stat.S_IFLNK)
            except OSError:
                return None
        if exc.errno in (errno.ENOENT, errno.ENOTDIR):
            return None
        return Content("unreadable", b"", 0, exc.strerror or str(exc))
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            return None
        if info.st_size > max_size:
            return Content("too-large", b"", info.st_mode, f"{info.st_size} bytes")
        chunks = []
        while True:
            chunk = os.read(fd, max(info.st_size + 1, 65536))
            if not chunk:
                break
            chunks.append(chunk)
        data = b"".join(chunks)
    except OSError as exc:
        return Content("unreadable", b"", 0, exc.strerror or str(exc))
    finally:
        os.close(fd)
    return classify_bytes(data, info.st_mode, os.fspath(path))


def classify_bytes(data: bytes, mode: int = 0, name: str = "") -> Content:
    """What `data` holds, as the sweep scans it. `name` (the file's path): which line breaks its
    format reads besides LF and CRLF (sweep/line_breaks.py)."""
    for bom, codec in WIDE_BOMS:
        if data.startswith(bom):
            try:
                text = data.decode(codec)  # the BOM stays, as U+FEFF: written back, it is the BOM
            except UnicodeDecodeError:
                return Content("binary", data, mode)
            return _wide(data, text, codec, codec.upper(), mode)
    if byte_counted(data):
        # A PDF is framed by byte counts (each stream's /Length, the xref table's offsets,
        # startxref): an uncompressed one (`qpdf --qdf`) reads as text, but a rewrite of another
        # length breaks every count after it (t35 finding 02). Never written: binary, so it is
        # listed as holding old values and fails `verify --strict`. Its header may stand anywhere
        # in the first 1024 bytes, FDF is framed alike, and so are ar, cpio, DSC PostScript (t36 04).
        return Content("binary", data, mode)
    if b"\0" in data:
        # UTF-16 or UTF-32 with no BOM: its NUL bytes are the pattern of text (sweep/wide.py).
        wide = wide_codec(data)
        if wide is not None:
            return _wide(data, data.decode(wide), wide, f"{wide.upper()} (no BOM)", mode)
        return Content("binary", data, mode)
    scanned, codec = line_breaks.view(data, name)
    return Content("text", scanned, mode, codec=codec)


def _wide(data: bytes, text: str, codec: str, detail: str, mode: int) -> Content:
    """Wide text, scanned (and rewritten) as UTF-8 where the transcoding gives back the very
    bytes of the file; skipped (`encoding`) where it would not."""
    try:
        utf8 = text.encode("utf-8")
        same = utf8.decode("utf-8").encode(codec) == data
    except UnicodeError:
        same = False
    if same:
        return Content("text", utf8, mode, detail, codec)
    return Content("encoding", text.encode("utf-8", "replace"), mode, detail)


def read_scanned(path: Path) -> bytes:
    """A file's bytes as the sweep scans them (its edits' offsets count in these): the file's own,
    or the UTF-8 of wide text. Follows nothing the caller has not checked; OSError as read_bytes."""
    return classify_bytes(path.read_bytes(), name=os.fspath(path)).data


TEXT_LIMIT = 2 * 1024 * 1024  # larger files are data, not configuration that names a host


def read_texts(root: Path, paths: Iterable[str], limit: int = TEXT_LIMIT) -> Iterator[tuple[str, bytes]]:
    """(path, bytes) of each readable, regular, text file among `paths`, never through a link,
    up to `limit` bytes (the probe's endpoints and the sweep's collisions read configuration)."""
    for rel in paths:
        full = root / rel
        try:
            if full.is_symlink() or not full.is_file() or full.stat().st_size > limit:
                continue
            data = full.read_bytes()
        except OSError:
            continue
        if b"\0" in data[:8192]:
            continue
        yield rel, data
