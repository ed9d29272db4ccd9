"""The guard for every path renamer writes, renames or removes inside a repository.

A repo-relative path is accepted only if it stays inside the root: relative, no
`..`, no empty or NUL part, and no folder on the way that is a symlink (a link
could carry the write out of the repository, or into .git). Every writer calls
`inside` before touching a path, so a new writer cannot forget the rule.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path, PurePosixPath

from renamer.errors import UnsafeError


def problem(root: Path, rel: str) -> str | None:
    """Why `rel` is not a safe path inside `root`, or None."""
    if not rel or "\0" in rel:
        return "an empty path or one with a NUL byte"
    pure = PurePosixPath(rel)
    if pure.is_absolute() or rel.startswith("/"):
        return "an absolute path"
    if any(part in ("", ".", "..") for part in rel.split("/")):
        return "a path with '..', '.' or an empty part"
    too_long = limit_problem(root, rel)
    if too_long:
        return too_long
    folder = root
    for part in pure.parts[:-1]:
        folder = folder / part
        try:
            info = os.lstat(folder)
        except FileNotFoundError:
            return None  # the rest does not exist yet: nothing on the way can be a link
        except OSError as exc:
            return f"cannot inspect {folder}: {exc.strerror}"
        if stat.S_ISLNK(info.st_mode):
            return f"its folder {folder.relative_to(root).as_posix()} is a symlink"
        if not stat.S_ISDIR(info.st_mode):
            return f"{folder.relative_to(root).as_posix()} is not a folder"
    return None


def limit_problem(root: Path, rel: str) -> str | None:
    """Why `rel` is over the file system's limits (NAME_MAX for one part, PATH_MAX for the whole
    path from `/`), or None. Asked at plan time, so a dry run reports what a commit would refuse,
    and no write starts that the kernel would stop halfway (adversarial B-12)."""
    name_max, path_max = _limits(root)
    for part in rel.split("/"):
        size = len(part.encode("utf-8", "surrogateescape"))
        if size > name_max:
            return (f"its name {part[:24]}... is {size} bytes, over the file system's limit "
                    f"of {name_max} (NAME_MAX)")
    size = len(os.fsencode(root / rel))
    if size >= path_max:
        return f"the path is {size} bytes from /, over the system's limit of {path_max - 1} (PATH_MAX)"
    return None


def _limits(root: Path) -> tuple[int, int]:
    """NAME_MAX and PATH_MAX where `root` lives; Linux's 255 and 4096 where they cannot be asked."""
    def ask(name: str, default: int) -> int:
        try:
            return os.pathconf(root, name)
        except (OSError, ValueError):
            return default
    return ask("PC_NAME_MAX", 255), ask("PC_PATH_MAX", 4096)


def inside(root: Path, rel: str, what: str = "path") -> Path:
    """`root / rel`, or UnsafeError naming the path and why it is refused."""
    why = problem(root, rel)
    if why is not None:
        raise UnsafeError(f"{rel!r}: refused {what}: {why}; nothing touched")
    return root / rel
