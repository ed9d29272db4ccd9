"""Atomic file writes: temporary file in the same folder, fsync, rename."""

from __future__ import annotations

import contextlib
import os
import stat
from pathlib import Path

from renamer.errors import RenamerError, UnsafeError

TMP_SUFFIX = ".renamer-tmp"  # every temporary file renamer makes ends so (and is never swept)


def write_atomic(path: Path, data: bytes, mode: int | None = None, *, suffix: str = TMP_SUFFIX,
                 replace_links: bool = False, prefix: str = ".renamer-") -> None:
    """Replace `path` with `data` so readers see the old or the new file, never a mix.

    The temporary file is hidden (a leading dot) and ends in `suffix`. A link at
    `path` is refused, or with `replace_links` replaced by the file: never written through.
    """
    if path.is_symlink() and not replace_links:
        raise UnsafeError(f"{path}: is a symlink; renamer never writes through links")
    tmp: str | None = None
    try:
        # The name is chosen before the file is made, so a stop that lands as it is made (Ctrl-C,
        # SIGTERM: a KeyboardInterrupt) still finds it here to remove: mkstemp's name came back
        # only after, and a stopped `renamer init` left `.renamer-XXXX.renamer-tmp` (t38-break 17).
        # A short fixed prefix, not the file's name: a name near 255 bytes leaves no room (B-12).
        while True:
            tmp = os.path.join(path.parent, f"{prefix}{os.urandom(6).hex()}{suffix}")
            try:
                fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
                break
            except FileExistsError:
                continue
        _fill(fd, data, mode)
        os.replace(tmp, path)
    except BaseException:
        if tmp is not None:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
        raise
    fsync_folder(path.parent)


def write_new(path: Path, data: bytes, mode: int | None = None) -> None:
    """Create `path`, which must not exist (never through a link), with `data`, durably."""
    _fill(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600),
          data, mode)


def _fill(fd: int, data: bytes, mode: int | None) -> None:
    """Write all of `data` to the new file `fd`, set its permission bits, fsync, close."""
    with os.fdopen(fd, "wb") as handle:
        handle.write(data)
        handle.flush()
        if mode:
            os.fchmod(handle.fileno(), stat.S_IMODE(mode))
        os.fsync(handle.fileno())


def save(path: Path, data: bytes, *, make_folder: bool = False) -> None:
    """Write a file the user asked for (a report, a snippet, a scaffold): atomically, and
    with a one-line error naming it when that cannot be done."""
    try:
        if make_folder:
            path.parent.mkdir(parents=True, exist_ok=True)
        try:  # a file that exists keeps its mode (an allowlist, .git-blame-ignore-revs)
            mode: int | None = stat.S_IMODE(os.lstat(path).st_mode)
        except FileNotFoundError:
            mode = None
        write_atomic(path, data, mode)
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
