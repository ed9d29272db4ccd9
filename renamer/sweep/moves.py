"""A sweep's file renames, as `git mv` does them, all undone when one fails."""

from __future__ import annotations

import contextlib
from pathlib import Path

from renamer import vcs
from renamer.errors import RenamerError, UnsafeError


def rename_all(root: Path, renames: list[tuple[str, str]], *, stage: bool) -> list[tuple[str, str]]:
    done: list[tuple[str, str]] = []
    try:
        for old, new in renames:
            vcs.move(root, old, new, stage=stage)
            done.append((old, new))
    except (OSError, RenamerError) as exc:
        unrename(root, done)
        why = exc.strerror if isinstance(exc, OSError) else str(exc)
        raise UnsafeError(f"cannot rename {old} to {new}: {why}; nothing changed") from None
    return done


def unrename(root: Path, done: list[tuple[str, str]]) -> None:
    for old, new in reversed(done):
        with contextlib.suppress(OSError, RenamerError):
            vcs.unmove(root, old, new)
