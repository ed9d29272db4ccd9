"""A sweep's file renames, as `git mv` does them (a folder whose untracked files must go with it
moved whole, folders.py), and the links re-pointed to follow them (links.py); all undone when
one fails."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Sequence
from pathlib import Path

from renamer import vcs
from renamer.errors import RenamerError, UnsafeError
from renamer.paths import problem
from renamer.sweep.folders import FolderMove, fold, folded, unfold
from renamer.sweep.links import Relink


class Renamed(list[tuple[str, str]]):
    """The renames done, and the folders moved whole to make some of them: `unrename` moves
    those back as wholes too (their untracked files with them)."""

    def __init__(self, pairs: Sequence[tuple[str, str]] = (), folders: Sequence[FolderMove] = ()) -> None:
        super().__init__(pairs)
        self.folders: list[FolderMove] = list(folders)


def rename_all(root: Path, renames: list[tuple[str, str]], *, stage: bool,
               folders: Sequence[FolderMove] = ()) -> Renamed:
    inside = folded(renames, folders)
    # Counted as done before `fold` starts: undoing a step that was not made is a no-op (folders.py).
    done = Renamed(inside, folders)
    old, new = (folders[0].old, folders[0].new) if folders else ("", "")
    try:
        if folders:
            fold(root, folders, renames, stage=stage)
        for old, new in renames:
            if (old, new) not in inside:
                vcs.move(root, old, new, stage=stage)
                done.append((old, new))
    except (OSError, RenamerError) as exc:
        unrename(root, done)
        why = exc.strerror if isinstance(exc, OSError) else str(exc)
        raise UnsafeError(f"cannot rename {old} to {new}: {why}; nothing changed") from None
    except BaseException:
        unrename(root, done)
        raise
    return done


def unrename(root: Path, done: list[tuple[str, str]]) -> None:
    folders = done.folders if isinstance(done, Renamed) else []
    inside = folded(done, folders)
    for old, new in reversed(done):
        if (old, new) not in inside:
            with contextlib.suppress(OSError, RenamerError):
                vcs.unmove(root, old, new)
    if folders:
        with contextlib.suppress(OSError, RenamerError):
            unfold(root, folders, inside)


def relink_all(root: Path, relinks: tuple[Relink, ...]) -> list[Relink]:
    """Re-point each link: a new link beside it, renamed over it (atomic); all undone on failure."""
    done: list[Relink] = []
    try:
        for link in relinks:
            why = problem(root, link.path)
            if why is not None:
                raise UnsafeError(f"cannot re-point the link {link.path}: {why}")
            _swap_link(root, link.path, link.new)
            done.append(link)
    except OSError as exc:
        unlink_all(root, done)
        raise UnsafeError(f"cannot re-point the link {link.path}: {exc.strerror}; nothing changed") from None
    except BaseException:
        unlink_all(root, done)
        raise
    return done


def unlink_all(root: Path, done: list[Relink]) -> None:
    for link in reversed(done):
        with contextlib.suppress(OSError):
            _swap_link(root, link.path, link.old)


def _swap_link(root: Path, rel: str, target: str) -> None:
    path = root / rel
    tmp = path.with_name(f".{path.name}.renamer-link")  # a leading dot, like every temp file here
    with contextlib.suppress(FileNotFoundError):
        os.unlink(tmp)
    os.symlink(target, tmp)
    os.replace(tmp, path)
