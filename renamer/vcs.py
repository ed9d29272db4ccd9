"""The only module that talks to git (through gitpython)."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path
from typing import Any

from renamer.errors import RenamerError, UnsafeError


def find_work_tree(start: Path) -> Path | None:
    """The top of the git work tree holding `start`, or None outside git."""
    for folder in [start, *start.parents]:
        if (folder / ".git").exists():
            return folder
    return None


def _repo(root: Path) -> Any:
    import git

    try:
        return git.Repo(root)
    except (git.InvalidGitRepositoryError, git.NoSuchPathError):
        return None


def is_git(root: Path) -> bool:
    return (root / ".git").exists() and _repo(root) is not None


def _ls(root: Path, *args: str) -> list[str]:
    import git

    repo = _repo(root)
    if repo is None:
        return []
    try:
        out: str = repo.git.ls_files("-z", *args)
    except git.GitCommandError as exc:
        raise RenamerError(f"{root}: git ls-files failed: {exc.stderr.strip()}") from None
    return [p for p in out.split("\0") if p]


def scanned_files(root: Path) -> list[str]:
    """Tracked files plus untracked files git does not ignore, repo-relative with `/`."""
    return sorted(set(_ls(root, "--cached", "--others", "--exclude-standard")))


def ignored_files(root: Path) -> list[str]:
    return _ls(root, "--others", "--ignored", "--exclude-standard")


def walk_files(root: Path) -> list[str]:
    """Every file under `root` (outside git), never following symlinked folders."""
    out = []
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d != ".git")
        rel = Path(folder).relative_to(root)
        out += [(rel / f).as_posix() for f in sorted(files)]
    return out


def dirty_paths(root: Path) -> list[str]:
    """What `git status` reports as changed or untracked (ignored files excluded)."""
    repo = _repo(root)
    if repo is None:
        return []
    out: str = repo.git.status("--porcelain", "-z", "--untracked-files=all")
    entries = out.split("\0")
    paths, index = [], 0
    while index < len(entries):
        entry = entries[index]
        index += 1
        if len(entry) > 3:
            paths.append(entry[3:])
            if entry[0] in "RC":  # a rename or copy is followed by its source path
                index += 1
    return paths


def has_commits(root: Path) -> bool:
    repo = _repo(root)
    if repo is None:
        return False
    try:
        repo.head.commit  # noqa: B018 - raises on an unborn branch
    except ValueError:
        return False
    return True


def move(root: Path, old: str, new: str, *, stage: bool = True) -> None:
    """Rename `old` to `new` as `git mv` would. With stage=False the old path stays in the
    index until the caller commits both paths, which `git commit -- old new` needs."""
    repo = _repo(root)
    tracked = repo is not None and bool(_ls(root, "--cached", "--", old))
    (root / new).parent.mkdir(parents=True, exist_ok=True)
    os.rename(root / old, root / new)
    if tracked:
        repo.git.add("--", new)
        if stage:
            repo.git.rm("--cached", "-q", "--", old)


def unmove(root: Path, old: str, new: str) -> None:
    """Undo `move`: the file back at `old`, the index as it was for both paths."""
    os.rename(root / new, root / old)
    repo = _repo(root)
    if repo is not None and has_commits(root):
        with contextlib.suppress(Exception):
            repo.git.reset("-q", "--", old, new)


def commit(root: Path, paths: list[str], message: str) -> str | None:
    """Commit exactly `paths` (staged or not) with `message`; returns the new sha."""
    import git

    repo = _repo(root)
    if repo is None:
        raise UnsafeError(f"{root}: --commit needs a git repository")
    if not paths:
        return None
    try:
        present = [p for p in paths if os.path.lexists(root / p)]
        if present:
            repo.git.add("--", *present)
        repo.git.commit("-q", "--no-verify", "-m", message, "--", *paths)
    except git.GitCommandError as exc:
        detail = (exc.stderr or str(exc)).strip().splitlines()
        raise RenamerError(f"git commit failed: {detail[-1] if detail else exc}") from None
    return str(repo.head.commit.hexsha)
