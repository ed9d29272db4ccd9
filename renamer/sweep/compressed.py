"""Compressed files, whatever their format (issue 27, round 22 finding 21): a `.zip`, `.tar.xz`,
`.bz2` of a configuration naming an old host was "scanned" as binary holding no old bytes, while a
`.gz` was opened (break-it round 21, finding 19): the guard was per format, not per class.

Streams with no magic of their own (issue 27, round 23 finding 12: a legacy `.lzma`, a zlib `.zz`
and raw deflate were never listed) are told by their structure and a trial: LZMA-alone by its
13-byte header (a properties byte, a dictionary size xz accepts, a size or "unknown"), zlib by its
two-byte header and checksum, each then decompressing its first bytes without error; raw deflate,
in bytes that are no UTF-8 text, by decompressing whole to the stream's end exactly at the file's
end. Each is opened as the others are.

Told by their magic bytes, never by their names. gzip, xz (and lzma's `.lzma`), bzip2 and zip
(each member; a compressed file inside, one level down) are opened with the standard library, up to
the size limit: their text is read for old values (sweep/binary_hits.py), never rewritten. A format
renamer cannot open (zstd, 7z, rar, lz4, lzip), a stream that does not decompress, or one larger
than the limit once decompressed, is "not read": listed, and `verify --strict` fails on it. A zip
whose members are encrypted is "encrypted, not read".
"""

from __future__ import annotations

import bz2
import io
import lzma
import zipfile
import zlib

from renamer import document_text

# (magic, name, whether renamer opens it)
_MAGICS: tuple[tuple[bytes, str, bool], ...] = (
    (b"\x1f\x8b", "gzip", True),
    (b"\xfd7zXZ\x00", "xz", True),
    (b"PK\x03\x04", "zip", True),
    (b"PK\x05\x06", "zip", True),  # an empty archive
    (b"\x28\xb5\x2f\xfd", "zstd", False),
    (b"7z\xbc\xaf\x27\x1c", "7z", False),
    (b"Rar!\x1a\x07", "rar", False),
    (b"\x04\x22\x4d\x18", "lz4", False),
    (b"LZIP", "lzip", False),
)
_TOOLS = {"zstd": "zstd -dc", "7z": "7z x -so", "rar": "unrar p", "lz4": "lz4 -dc", "lzip": "lzip -dc",
          "gzip": "zcat", "xz": "xzcat", "bzip2": "bzcat", "zip": "unzip -p", "lzma": "xz --format=lzma -dc",
          "zlib": "openssl zlib -d",
          "deflate": "python3 -c 'import sys,zlib; print(zlib.decompress(sys.stdin.buffer.read(), -15))'",
          "png": "pngcheck -t (its zTXt/iTXt text)",
          "pdf": "qpdf --qdf --object-streams=disable (its streams)"}


class Unopened(Exception):
    """A compressed file renamer cannot read: why, as the "not read" list says it."""


class Encrypted(Exception):
    """A zip whose members are encrypted."""


def kind(data: bytes) -> str | None:
    """The compression format of `data` by its magic bytes, or None (`png`, `pdf`: a document
    keeping text compressed inside, document_text.py)."""
    for magic, name, _ in _MAGICS:
        if data.startswith(magic):
            return name
    if data.startswith(document_text.PNG) or document_text.pdf_like(data):  # `%PDF-` in 1024 bytes (t36 04)
        return document_text.kind(data)
    # bzip2: `BZh` and a block size digit, then a block's or the end's magic (not any text saying BZh)
    if data[:3] == b"BZh" and data[3:4] in b"123456789" and data[4:10] in (b"1AY&SY", b"\x17rE8P\x90"):
        return "bzip2"
    return _headerless(data)


_OPENED_HEADLESS = ("lzma", "zlib", "deflate")


def _headerless(data: bytes) -> str | None:
    """LZMA-alone, zlib or raw deflate, told by structure and a trial (none has a magic)."""
    if len(data) >= 13 and data[0] < 225 and _alone_header(data):
        try:
            lzma.LZMADecompressor(lzma.FORMAT_ALONE).decompress(data[:4096], 256)
            return "lzma"
        except lzma.LZMAError:
            pass
    if len(data) >= 3 and data[0] & 0x0F == 8 and data[0] >> 4 <= 7 and not data[1] & 0x20 \
            and ((data[0] << 8) | data[1]) % 31 == 0:
        try:
            if zlib.decompressobj().decompress(data[:4096], 256):
                return "zlib"
        except zlib.error:
            pass
    if len(data) >= 2 and (b"\0" in data[:4096] or not _utf8(data)):
        try:
            inflater = zlib.decompressobj(-zlib.MAX_WBITS)
            out = inflater.decompress(data, _TRIAL)
            if inflater.eof and not inflater.unused_data and not inflater.unconsumed_tail and out:
                return "deflate"
        except zlib.error:
            pass
    return None


_TRIAL = 1 << 20  # raw deflate decompressed whole to tell it: a larger stream is not told


def _alone_header(data: bytes) -> bool:
    """An LZMA-alone header: a dictionary size xz writes (2^n or 2^n + 2^(n-1), 4 KiB up), then
    the uncompressed size (all ones: unknown) below 2^40."""
    dictionary = int.from_bytes(data[1:5], "little")
    if dictionary < 4096 or dictionary > 1 << 30:
        return False
    top = 1 << (dictionary.bit_length() - 1)
    if dictionary not in (top, top | (top >> 1)):
        return False
    size = int.from_bytes(data[5:13], "little")
    return size == (1 << 64) - 1 or size < 1 << 40


def _utf8(data: bytes) -> bool:
    try:
        data[:4096].decode("utf-8")
    except UnicodeDecodeError as err:
        return err.start > 4090  # a character cut at the end of the window
    return True


def opens(name: str) -> bool:
    """Whether renamer reads a file compressed with `name`."""
    opened = ("bzip2", "png", "pdf", *_OPENED_HEADLESS)
    return name in opened or any(n == name and ok for _, n, ok in _MAGICS)


def tool(name: str) -> str:
    """The command that shows a `name`-compressed file's text."""
    return _TOOLS.get(name, name)


def expanded(data: bytes, limit: int, depth: int = 0) -> bytes:
    """The text of compressed `data`, at most `limit` bytes of it; Unopened where renamer cannot
    read all of it (a format it does not open, a broken stream, larger than the limit),
    Encrypted for a zip with an encrypted member."""
    name = kind(data)
    if name is None:
        return data
    if not opens(name):
        raise Unopened(f"{name}-compressed, a format renamer does not open (`{tool(name)}` shows its text)")
    try:
        if name in ("png", "pdf"):  # its compressed text chunks or streams (break-it round 24, #16)
            return document_text.text(name, data, limit)
        out = _unzipped(data, limit, depth) if name == "zip" else _stream(name, data, limit)
    except document_text.TooLarge:
        raise Unopened(f"a {name.upper()} whose compressed text is larger than max_file_size ({limit} "
                       "bytes): its text was not read") from None
    except (Unopened, Encrypted):
        raise
    except (OSError, EOFError, ValueError, zlib.error, lzma.LZMAError, zipfile.BadZipFile,
            NotImplementedError, RuntimeError) as err:
        raise Unopened(f"{name}-compressed, but it does not decompress ({err}): its text was not "
                       "read") from None
    if len(out) > limit:
        raise Unopened(f"{name}-compressed, larger than max_file_size ({limit} bytes) once decompressed: "
                       f"its text was not read (`{tool(name)}` shows it)")
    if depth == 0 and kind(out) is not None:  # a `.tar.gz` inside a zip, a `.gz` of a `.xz`: one level more
        out = expanded(out, limit, depth + 1)
    return out


def _decompressor(name: str) -> zlib._Decompress | lzma.LZMADecompressor | bz2.BZ2Decompressor:
    if name == "gzip":
        return zlib.decompressobj(16 + zlib.MAX_WBITS)
    if name == "xz":
        return lzma.LZMADecompressor(lzma.FORMAT_XZ)
    if name == "lzma":
        return lzma.LZMADecompressor(lzma.FORMAT_ALONE)
    if name == "zlib":
        return zlib.decompressobj()
    if name == "deflate":
        return zlib.decompressobj(-zlib.MAX_WBITS)
    return bz2.BZ2Decompressor()


def _stream(name: str, data: bytes, limit: int) -> bytes:
    """Every stream of `data` (gzip and bzip2 files may be several, one after the other), up to
    `limit` + 1 bytes; Unopened where a stream is cut off."""
    out = b""
    rest = data
    while rest and len(out) <= limit:
        decompressor = _decompressor(name)
        out += decompressor.decompress(rest, limit + 1 - len(out))
        if len(out) > limit:
            break
        if not decompressor.eof:
            raise Unopened(f"{name}-compressed, but its stream is cut off: its text was not read whole")
        rest = decompressor.unused_data.lstrip(b"\0")  # gzip pads with NULs after a stream at times
    return out


def _unzipped(data: bytes, limit: int, depth: int) -> bytes:
    parts: list[bytes] = []
    size = 0
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        for info in archive.infolist():
            if info.is_dir():
                continue
            if info.flag_bits & 0x1:
                raise Encrypted(f"a zip whose member {info.filename} is encrypted: its text cannot be read")
            with archive.open(info) as member:
                part = member.read(limit + 1 - size)
            if depth == 0 and kind(part) is not None:
                part = expanded(part, limit, depth + 1)
            parts.append(part)
            size += len(part) + 1
            if size > limit:
                raise Unopened(f"zip-compressed, larger than max_file_size ({limit} bytes) once "
                               "decompressed: its text was not read (`unzip -p` shows it)")
    return b"\n".join(parts)
