"""Reading a file for scanning: what kind of content it holds, without ever following links."""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass
from pathlib import Path

TEXT = "text"
BINARY = "binary"
ENCODING = "encoding"
TOO_LARGE = "too-large"
SYMLINK = "symlink"
UNREADABLE = "unreadable"

_WIDE_BOMS = (
    (b"\xff\xfe\x00\x00", "utf-32-le"), (b"\x00\x00\xfe\xff", "utf-32-be"),
    (b"\xff\xfe", "utf-16-le"), (b"\xfe\xff", "utf-16-be"),
)


@dataclass(frozen=True)
class Content:
    """A file's bytes as scanned. For `encoding`, `data` is the UTF-8 transcoding."""

    kind: str
    data: bytes
    mode: int = 0
    detail: str = ""


def read_content(path: Path, max_size: int) -> Content | None:
    """Read `path`; None when it is not a regular file or symlink (folder, socket, gone)."""
    try:
        info = os.lstat(path)
    except OSError:
        return None
    if stat.S_ISLNK(info.st_mode):
        return Content(SYMLINK, os.fsencode(os.readlink(path)), info.st_mode)
    if not stat.S_ISREG(info.st_mode):
        return None
    if info.st_size > max_size:
        return Content(TOO_LARGE, b"", info.st_mode, f"{info.st_size} bytes")
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError as exc:
        return Content(UNREADABLE, b"", info.st_mode, exc.strerror or str(exc))
    return classify_bytes(data, info.st_mode)


def classify_bytes(data: bytes, mode: int = 0) -> Content:
    for bom, codec in _WIDE_BOMS:
        if data.startswith(bom):
            try:
                text = data.decode(codec)
            except UnicodeDecodeError:
                return Content(BINARY, data, mode)
            return Content(ENCODING, text.encode("utf-8", "replace"), mode, codec.upper())
    if b"\0" in data:
        return Content(BINARY, data, mode)
    return Content(TEXT, data, mode)
