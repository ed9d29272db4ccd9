"""Running git: one command, logged with its time under -vv, with paths that are never patterns, git's
error in one line; and where a work tree's git is."""

from __future__ import annotations

import os
import subprocess
import time
from pathlib import Path
from typing import Any

from renamer import debug
from renamer.errors import UnsafeError


def git_run(argv: list[str], **kwargs: Any) -> subprocess.CompletedProcess[Any]:
    """subprocess.run for a git command, logged with its time under -vv."""
    start = time.perf_counter()
    done = subprocess.run(argv, **kwargs)
    debug.command(argv, time.perf_counter() - start, done.returncode)
    return done


def find_work_tree(start: Path) -> Path | None:
    """The top of the git work tree holding `start`, or None outside git."""
    for folder in [start, *start.parents]:
        if (folder / ".git").exists():
            return folder
    return None


# Paths are paths, never patterns: `x[ab].txt` must not stage xa.txt, `:(glob)x` is a file name.
LITERAL = {"GIT_LITERAL_PATHSPECS": "1"}


def git_error(stderr: str) -> str:
    """git's own message in one line, without GitPython's `stderr: '...'` wrapping."""
    lines = []
    for line in stderr.splitlines():
        line = line.strip()
        for wrapper in ("stderr: '", "stdout: '"):
            if line.startswith(wrapper):
                line = line[len(wrapper):]
        line = line.rstrip("'").strip()
        if line:
            lines.append(line)
    fatal = [line for line in lines if line.startswith(("fatal:", "error:"))]
    if fatal:
        return fatal[-1]
    # A hook's own words (no fatal: line): all of them, joined, at most a few.
    shown = "; ".join(lines[:4]) + ("; ..." if len(lines) > 4 else "")
    return shown or "unknown error"


def git_dir(root: Path) -> Path | None:
    """Git's private folder for the work tree at `root`; None for a folder that is not one.

    Only a folder with no `.git` at all is a plain folder. When git refuses a work tree
    it has (dubious ownership, a broken `.git` file), that is an error with git's own
    words, never a reason to sweep the folder as if git were not there.
    """
    if not os.path.lexists(root / ".git"):
        return None
    done = git_run(["git", "-C", str(root), "rev-parse", "--absolute-git-dir"],
                          capture_output=True, check=False)
    if done.returncode != 0:
        lines = [line.strip() for line in os.fsdecode(done.stderr).splitlines() if line.strip()]
        detail = " ".join(lines[:3]) or f"exit status {done.returncode}"
        raise UnsafeError(f"{root}: git refuses this repository: {detail}")
    return Path(os.fsdecode(done.stdout.strip()))


def is_git(root: Path) -> bool:
    return git_dir(root) is not None
