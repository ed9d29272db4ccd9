"""Symlinks whose target goes through a path the sweep renames (adversarial B-5).

A link's target is a path like any other reference, held in metadata instead of
content: `current.yaml -> stacks/ana-ml2/compose.yaml` dangles once the folder is
`git mv`ed to `stacks/fv-ml1`. After the renames are planned, every link whose target
text holds an old value is resolved (lexically, from the link's folder) against the
tree the renames leave, and is re-pointed with the same path mapping (relative stays
relative, an absolute path inside the repo stays absolute), or refused with a reason
where no re-pointing is right: a link in a record (history is never rewritten, and the
sweep would break it), or one into a folder the sweep splits. A link out of the
repository is left alone and reported, as it always was.
"""

from __future__ import annotations

import os
import posixpath
from collections.abc import Iterable
from dataclasses import dataclass, replace
from pathlib import Path

from renamer.classify import CURRENT
from renamer.match import Matcher
from renamer.sweep.model import RESIDUAL, SKIPPED, FileResult, Reference, ScanResult
from renamer.sweep.refusals import Refusal

LINK_REASONS = ("symlink", "dangling-link")  # what scan.py says of a link whose target holds an old value


@dataclass(frozen=True)
class Relink:
    path: str  # the link, where it stands after the renames
    old: str  # its target text now
    new: str  # its target text after the sweep


def inside_target(root: Path, link: str, target: str) -> str | None:
    """The repo-relative path `target` names, read from `link`'s folder; None when it leads out
    of the repository."""
    if target.startswith("/"):
        prefix = f"{root.as_posix().rstrip('/')}/"
        return posixpath.normpath(target[len(prefix):]) if target.startswith(prefix) else None
    resolved = posixpath.normpath(posixpath.join(posixpath.dirname(link), target))
    return None if resolved == ".." or resolved.startswith("../") or resolved.startswith("/") else resolved


def _folder_moves(renames: list[tuple[str, str]]) -> dict[str, str]:
    """Folder -> folder, for each folder a rename changes (stacks/ana-ml2 -> stacks/fv-ml1)."""
    out: dict[str, str] = {}
    for old, new in renames:
        old_dir, new_dir = posixpath.dirname(old), posixpath.dirname(new)
        while old_dir and new_dir and old_dir != new_dir:
            out.setdefault(old_dir, new_dir)
            old_dir, new_dir = posixpath.dirname(old_dir), posixpath.dirname(new_dir)
    return out


def _mapped(path: str, files: dict[str, str], folders: dict[str, str]) -> str | None:
    """Where `path` is after the renames; None when the sweep does not move it."""
    if path in files:
        return files[path]
    probe = path
    while probe:
        if probe in folders:
            return folders[probe] + path[len(probe):]
        probe = posixpath.dirname(probe)
    return None


def plan_links(root: Path, links: Iterable[FileResult], renames: list[tuple[str, str]],
               listed: Iterable[str], matcher: Matcher) -> tuple[list[Relink], list[Refusal]]:
    """The links to re-point, and those the sweep must refuse on."""
    files = dict(renames)
    folders = _folder_moves(renames)
    staying = [p for p in listed if p not in files]
    relinks, refused = [], []
    for link in links:
        target = os.readlink(root / link.path)
        path = inside_target(root, link.path, target)
        if path is None:
            continue  # out of the repository: left alone, reported as a symlink (scan.py)
        moved = _mapped(path, files, folders)
        if moved is None and link.status == CURRENT and not os.path.lexists(root / path):
            # Dangling, naming an old path whose renamed one exists (a sweep killed between its
            # renames and its links, a folder moved by hand): it follows now.
            renamed = os.fsdecode(matcher.replace(os.fsencode(path)))
            moved = renamed if renamed != path and os.path.lexists(root / renamed) else None
        if moved is None:
            continue  # its target stays where it is
        split = next((p for p in staying if p.startswith(path + "/")), None)
        if split is not None:
            refused.append(Refusal(
                link.path, 0, f"links to {path}, a folder the sweep splits ({split} stays, other files "
                "move): re-point it by hand, or keep the folder with keep_paths"))
            continue
        if link.status != CURRENT:
            why = "a record" if link.status == "record" else "not a current-state file"
            refused.append(Refusal(
                link.path, 0, f"links to {path}, which the sweep renames to {moved}, and is {why}: it would "
                "dangle; keep the target (keep_paths) or move the link by hand"))
            continue
        at = link.new_path or link.path
        new = _spelled(root, target, at, moved, matcher)
        if new != target:  # a link inside the renamed folder, relative to it, needs nothing
            relinks.append(Relink(at, target, new))
    return relinks, refused


def _spelled(root: Path, target: str, link: str, moved: str, matcher: Matcher) -> str:
    """The new target text: the old one with the renames' spelling where that names the moved
    path (the smallest change), else the path written afresh in the same style."""
    candidate = os.fsdecode(matcher.replace(os.fsencode(target)))
    if inside_target(root, link, candidate) == moved:
        return candidate
    if target.startswith("/"):
        return f"{root.as_posix().rstrip('/')}/{moved}"
    return posixpath.relpath(moved, posixpath.dirname(link) or ".")


def dangling(root: Path, link: str) -> str | None:
    """The repo path a link names that does not exist (its target text, as read); None when it
    resolves or leads out of the repository."""
    try:
        target = os.readlink(root / link)
    except OSError:
        return None
    path = inside_target(root, link, target)
    if path is None or os.path.lexists(root / path):
        return None
    return path


def without_relinked(scan: ScanResult, relinks: Iterable[Relink]) -> ScanResult:
    """`scan` without the `skipped (symlink)` references of the links the sweep re-points: a link
    is reported once, as re-pointed (the scan lists every link whose target holds an old value
    as skipped, before the plan knows which ones follow the renames)."""
    moved = {r.path for r in relinks}
    if not moved:
        return scan

    def kept(ref: Reference) -> bool:
        return not (ref.status in (SKIPPED, RESIDUAL) and ref.reason in LINK_REASONS)

    files = tuple(replace(f, references=tuple(r for r in f.references if kept(r)))
                  if f.kind == "symlink" and (f.new_path or f.path) in moved else f for f in scan.files)
    return replace(scan, files=files)
