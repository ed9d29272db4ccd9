"""Reading a file for scanning: what kind of content it holds, without ever following links."""

from __future__ import annotations

import errno
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


def read_content(path: str | Path, max_size: int) -> Content | None:
    """Read `path`; None when it is not a regular file or symlink (folder, socket, gone).

    One open with O_NOFOLLOW (a link is never followed) and O_NONBLOCK (a FIFO
    cannot hang the scan), then fstat on what was opened.
    """
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            try:
                return Content(SYMLINK, os.fsencode(os.readlink(path)), stat.S_IFLNK)
            except OSError:
                return None
        if exc.errno in (errno.ENOENT, errno.ENOTDIR):
            return None
        return Content(UNREADABLE, b"", 0, exc.strerror or str(exc))
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            return None
        if info.st_size > max_size:
            return Content(TOO_LARGE, b"", info.st_mode, f"{info.st_size} bytes")
        chunks = []
        while True:
            chunk = os.read(fd, max(info.st_size + 1, 65536))
            if not chunk:
                break
            chunks.append(chunk)
        data = b"".join(chunks)
    except OSError as exc:
        return Content(UNREADABLE, b"", 0, exc.strerror or str(exc))
    finally:
        os.close(fd)
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
