"""One file replaced by its new version only if it still is what the sweep read.

The swap is `exchange.py`'s atomic RENAME_EXCHANGE: the new file goes in and what
it displaced comes out at the temporary name, where it is compared with what was
read. A save that landed just before the swap is caught there: the two are
swapped back, the saved file stays, the new one is removed. Where the file
system cannot swap, the check runs just before a plain rename (a save landing
between the two is then lost: the window the swap closes).
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import stat
from collections.abc import Callable
from pathlib import Path

from renamer.exchange import Swap, Unsupported, exchange

EXCHANGE = "exchange"  # renameat2(RENAME_EXCHANGE), then the displaced file compared
CHECK_THEN_RENAME = "check-then-rename"  # the fallback: compared, then os.replace

Matches = Callable[[Path], bool]


class Swapper:
    """Swaps files in, remembering once the file system has said it cannot exchange."""

    def __init__(self, swap: Swap | None = None) -> None:
        self._swap = swap if swap is not None else exchange
        self.method = EXCHANGE

    def swap_in(self, target: Path, new: Path, as_read: Matches, *, create: bool = False) -> bool:
        """Put `new` at `target` if `target` is `as_read`; True when it was. False: `target`
        changed (or went) meanwhile; it is left as it is and `new` removed. With `create`, a
        file the sweep creates: put in place only where nothing stands there (a hard link, which
        never replaces what another made meanwhile), `new` then removed."""
        if create and not os.path.lexists(target):
            try:
                os.link(new, target, follow_symlinks=False)
            except FileExistsError:
                new.unlink()  # someone else's file meanwhile: theirs stays
                return False
            except OSError:  # a file system with no hard links: no-replace checked just before
                if os.path.lexists(target):
                    new.unlink()
                    return False
                os.rename(new, target)
                return True
            new.unlink()
            return True
        if self.method == EXCHANGE:
            try:
                self._swap(new, target)
            except Unsupported:
                self.method = CHECK_THEN_RENAME
            except FileNotFoundError:
                if os.path.lexists(target):
                    raise
                new.unlink()  # deleted meanwhile: the deletion is the newer edit
                return False
            else:
                if as_read(new):  # `new` now names what was displaced
                    new.unlink()
                    return True
                self._swap(new, target)  # a newer save: back in place
                new.unlink()
                return False
        if not as_read(target):
            new.unlink()
            return False
        os.replace(new, target)
        return True

    def put_back(self, target: Path, displaced: Path) -> None:
        """`displaced` (a newer save swapped out, then a crash) back at `target`, whose new
        version is dropped."""
        if self.method == EXCHANGE:
            try:
                self._swap(displaced, target)
            except Unsupported:
                self.method = CHECK_THEN_RENAME
            else:
                displaced.unlink()
                return
        os.replace(displaced, target)


def digest(path: Path) -> str | None:
    """The SHA-1 of a regular file's bytes (as the plan records them); None for anything else."""
    with contextlib.suppress(OSError):
        if stat.S_ISREG(os.lstat(path).st_mode):
            return hashlib.sha1(path.read_bytes()).hexdigest()
    return None
