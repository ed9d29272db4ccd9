"""Tracked files a sparse checkout keeps out of the work tree (issue 27, round 22 finding 4):
`git sparse-checkout set --no-cone '/*' '!/deploy/'` left `deploy/b.yml` (tracked, `target: web01`)
out of the work tree; the sweep committed the rest and verify said "OK ... 1 file scanned", while
HEAD and every clone still named web01. (skip-worktree set by hand was refused: the sweep's guard
asks git of each file it writes, and a file outside the sparse checkout is never one.)

Git is asked which tracked files carry the skip-worktree bit (`git ls-files -t`: `S`) and are
absent from the work tree; each that the `current` patterns cover is read from the index (`git
cat-file --batch`, `:path`). One spelling an old value cannot be rewritten by the sweep: it is a
file the sweep cannot read, so the sweep is refused (exit 3, nothing written) and verify fails,
naming it and how to bring it back (`git sparse-checkout disable`, or `add` its folder). One
holding none is as clean in the index as a file read in the work tree.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Callable, Sequence
from pathlib import Path

from renamer.vcs_command import LITERAL, git_run


def outside(root: Path, wanted: Callable[[str], bool], first_old: Callable[[bytes], str | None],
            limit: int) -> list[tuple[str, str]]:
    """(path, why) of each tracked file `wanted` (current state) kept out of the work tree by the
    skip-worktree bit whose index copy spells an old value (`first_old`), or is too large to read."""
    done = git_run(["git", "-C", str(root), "ls-files", "-t", "-z"], capture_output=True, check=False,
                   env={**os.environ, **LITERAL})
    if done.returncode != 0:
        return []
    hidden = [entry[2:] for entry in os.fsdecode(done.stdout).split("\0") if entry[:2] == "S "]
    hidden = [rel for rel in hidden if "\n" not in rel and not os.path.lexists(root / rel) and wanted(rel)]
    out = []
    for rel, data in _index_copies(root, hidden, limit):
        old = "(too large to read)" if data is None else first_old(data)
        if old is None:
            continue
        out.append((rel, f"outside the sparse checkout (skip-worktree): tracked, but not in the work tree, "
                         f"and its index copy spells {old}; the sweep cannot rewrite it: `git "
                         "sparse-checkout disable` (or `git sparse-checkout add` its folder), then sweep "
                         "again"))
    return out


def _index_copies(root: Path, paths: Sequence[str], limit: int) -> list[tuple[str, bytes | None]]:
    """(path, bytes or None where larger than `limit`) of each path's index copy (one `git cat-file
    --batch` for all)."""
    if not paths:
        return []
    request = "".join(f":{rel}\n" for rel in paths).encode()
    try:
        done = subprocess.run(["git", "-C", str(root), "cat-file", "--batch"], input=request,
                              capture_output=True, check=False)
    except OSError:
        return [(rel, None) for rel in paths]
    out: list[tuple[str, bytes | None]] = []
    data = done.stdout
    at = 0
    for rel in paths:
        end = data.find(b"\n", at)
        if end == -1:
            break
        header = data[at:end].split()
        at = end + 1
        if len(header) != 3 or header[1] != b"blob":
            continue  # missing: nothing to read
        size = int(header[2])
        out.append((rel, data[at:at + size] if size <= limit else None))
        at += size + 1
    return out
