"""A sweep narrowed to some paths that moves a file or folder named by an old value, while a file
outside those paths names it (break-it round 17, #19).

`renamer sweep --commit hosts` renames `hosts/pug/` to `hosts/wolf/`, but `compose.yaml`'s
`include: hosts/pug/compose.yaml` and `ci/deploy.sh`'s `-f hosts/pug/compose.yaml` lie outside
the paths swept: they are never rewritten, and the commit leaves them naming a folder that is
gone. A whole-repo sweep moves them together. So a narrowed sweep reads the current-state files
outside its paths that hold an old value of a moved path, and each occurrence standing in a
path-like token that names a moved file or folder (from the file's folder, from the root, or as
a tail of two components or more) is a refusal: exit 3, nothing written, each file and line
named, until the sweep covers it (its path added, or the whole repo).
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Sequence

from renamer import vcs_listing, vcs_status
from renamer.classify import CURRENT
from renamer.errors import RenamerError
from renamer.project import LoadedProject
from renamer.sweep import held_vars
from renamer.sweep.content import read_content
from renamer.sweep.held_paths import _joined, _token
from renamer.sweep.held_words import split_directory
from renamer.sweep.refusals import Refusal


def moved_paths(renames: Sequence[tuple[str, str]]) -> dict[str, str]:
    """Each moved file and each folder above it whose name changes: old path -> new path."""
    moved: dict[str, str] = {}
    for old, new in renames:
        moved[old] = new
        before, after = old.split("/"), new.split("/")
        if len(before) != len(after):
            continue
        for depth in range(1, len(before)):
            if before[:depth] != after[:depth]:
                moved.setdefault("/".join(before[:depth]), "/".join(after[:depth]))
    return moved


def named_path(rel: str, token: str, moved: dict[str, str], listed: frozenset[str] = frozenset(),
               directory: str | None = None) -> str | None:
    """The moved path (or folder) that `token`, standing in `rel`, names, or None: read from the
    folder its line changes into (`cd DIR &&`, `-C DIR`), from `rel`'s folder and from the root,
    or (two components or more, not a machine's absolute path) as the tail of a moved path. A
    reading that names a listed path the sweep does not move names that one (break-it round 19,
    #14: `cd stacks && docker compose -f pug/compose.yaml` is `stacks/pug/compose.yaml`), and so
    does a tail that such a path ends with too."""
    if token.startswith(("/", "~")) or token.startswith("{}/"):
        return None
    parts = [p for p in token.split("/") if p not in ("", ".")]
    if not parts:
        return None
    readings = ([posixpath.join(directory, token), posixpath.join(posixpath.dirname(rel), directory, token)]
                if directory is not None else [])
    readings += [posixpath.join(posixpath.dirname(rel), token), token]
    for reading in readings:
        path = posixpath.normpath(reading).rstrip("/")
        if path in moved:
            return path
        if path in listed:
            return None  # a file the sweep does not move
    tail = "/".join(parts)
    if len(parts) >= 2:
        if any(path == tail or path.endswith("/" + tail) for path in listed if path not in moved
               and path.rpartition("/")[2] == parts[-1]):
            return None  # the tail of a file that stays too: it cannot be told to name the moved one
        return next((path for path in sorted(moved) if path.endswith("/" + tail)), None)
    return None


def outside_readers(project: LoadedProject, renames: Sequence[tuple[str, str]],
                    selected: Sequence[str]) -> list[Refusal]:
    """The refusals of a sweep narrowed to `selected` (repo-relative prefixes): each line of a
    current-state file outside them that names a path this sweep moves."""
    if not renames or not selected or "" in selected:
        return []
    moved = moved_paths(renames)
    olds = sorted({m.old for old in moved for m in project.matcher.find(old.encode())})
    if not olds:
        return []
    pattern = "|".join(re.escape(old) for old in olds)
    listed = vcs_status.worktree_files_holding(project.root, pattern)
    out: list[Refusal] = []
    try:
        paths = vcs_listing.ls_files(project.root, "--cached", "--others", "--exclude-standard")
    except RenamerError:
        paths = []
    every = frozenset(paths) | {p[:i] for p in paths for i, c in enumerate(p) if c == "/"}
    for rel in sorted(listed or ()):
        if any(rel == p or rel.startswith(p + "/") for p in selected):
            continue
        if project.classifier.classify(rel).status != CURRENT:
            continue
        content = read_content(project.root / rel, project.config.max_file_size)
        if content is None or content.kind != "text":
            continue
        data = content.data

        def resolve(at: str, written: str) -> str | None:
            return named_path(at, written, moved, every)

        for match in project.matcher.find(data):
            if match.refused is not None or match.kept is not None:
                continue
            token = _token(data, match.start, match.end)
            joined = _joined(data, match.start, match.end)  # `os.path.join("hosts", "pug")` (round 19, #15)
            if joined is not None and (token is None or "/" not in token or token.startswith("/")):
                token = joined
            split = split_directory(data, match.start) if token else None
            directory = split[0] if split is not None and not split[1] else None
            path = named_path(rel, token, moved, every, directory) if token else None
            if path is None and (token is None or "/" not in token):
                # a variable's value a path built on another line puts there (`HOST = "pug"`,
                # `for h in pug; do ... "$DIR/$h/compose.yaml"`)
                by = held_vars.held_by_variable(rel, data, match.start, match.end, match.old, resolve)
                path = by[0] if by is not None else None
            if path is None:
                continue
            line = data.count(b"\n", 0, match.start) + 1
            shown = ", ".join(p or "." for p in selected)
            out.append(Refusal(rel, line, (
                f"names {path}, which this sweep of {shown} moves to {moved[path]}; outside the paths "
                "swept it would not follow, and the commit would leave it naming a path that is gone: "
                f"sweep it too (add {rel} to the paths, or sweep the whole repo)")))
            break  # one line per file names the problem
    return out
