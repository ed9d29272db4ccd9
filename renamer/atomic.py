"""Atomic file writes: temporary file in the same folder, fsync, rename."""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from pathlib import Path

from renamer.errors import RenamerError, UnsafeError


def write_atomic(path: Path, data: bytes, mode: int | None = None, *, suffix: str = ".renamer-tmp",
                 replace_links: bool = False) -> None:
    """Replace `path` with `data` so readers see the old or the new file, never a mix.

    The temporary file is hidden (a leading dot) and ends in `suffix`. A link at
    `path` is refused, or with `replace_links` replaced by the file: never written through.
    """
    if path.is_symlink() and not replace_links:
        raise UnsafeError(f"{path}: is a symlink; renamer never writes through links")
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=suffix, dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            if mode is not None:
                os.fchmod(handle.fileno(), stat.S_IMODE(mode))
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    fsync_folder(path.parent)


def save(path: Path, data: bytes, *, make_folder: bool = False) -> None:
    """Write a file the user asked for (a report, a snippet, a scaffold): atomically, and
    with a one-line error naming it when that cannot be done."""
    try:
        if make_folder:
            path.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(path, data)
    except OSError as exc:
        raise RenamerError(f"{path}: cannot write: {exc.strerror or exc}") from None


def fsync_folder(folder: Path) -> None:
    """Make a rename durable: fsync the folder that holds it."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
