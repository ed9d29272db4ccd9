"""Swap two paths atomically: Linux's renameat2(RENAME_EXCHANGE), through libc.

After a swap each name holds what the other held, in one step, so a writer that
replaces a file (an editor's save) lands either before the swap, where the caller
sees its file displaced, or after it; never in between. Where the platform or the
file system cannot swap (no renameat2 in libc, ENOSYS, EINVAL from a file system
without the flag), `Unsupported` says so and the caller falls back.
"""

from __future__ import annotations

import ctypes
import errno
import os
from collections.abc import Callable
from pathlib import Path

_AT_FDCWD = -100
_RENAME_EXCHANGE = 2  # linux/fs.h
_NOT_HERE = (errno.ENOSYS, errno.EINVAL, errno.EOPNOTSUPP)

Swap = Callable[[Path, Path], None]


class Unsupported(OSError):
    """This platform or file system cannot swap two paths atomically."""


def _load() -> Callable[..., int] | None:
    try:
        libc = ctypes.CDLL(None, use_errno=True)
    except OSError:
        return None
    function = getattr(libc, "renameat2", None)  # glibc 2.28+, musl 1.2.4+
    if function is None:
        return None
    function.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]
    function.restype = ctypes.c_int
    return function  # type: ignore[no-any-return]


_renameat2 = _load()


def exchange(first: Path, second: Path) -> None:
    """Swap `first` and `second` (both must exist); `Unsupported` where that cannot be done."""
    if _renameat2 is None:
        raise Unsupported(errno.ENOSYS, "renameat2 is not available here")
    if _renameat2(_AT_FDCWD, os.fsencode(first), _AT_FDCWD, os.fsencode(second), _RENAME_EXCHANGE) == 0:
        return
    code = ctypes.get_errno()
    if code in _NOT_HERE:
        raise Unsupported(code, os.strerror(code))
    raise OSError(code, os.strerror(code), str(second))
