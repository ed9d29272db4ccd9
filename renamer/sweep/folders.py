"""Folders a sweep renames whole (issue 27, item 1).

Renaming every tracked file of `tf/pug/` to `tf/wolf/` one by one leaves behind what git does
not track: a Terraform state, `.terraform/`, a compose stack's `.env` and data volume. Where
every tracked file of a folder goes to one new folder that does not exist yet, the folder is
moved by one rename(2), untracked and ignored files with it, and git is then told of the
tracked files' renames. Where some of it would be left behind (part of the folder stays, the
new folder exists, its files go to several folders), the plan refuses before anything is
written. Folders whose every file is tracked keep today's file-by-file renames."""

from __future__ import annotations

import os
import stat
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from renamer import vcs
from renamer.errors import UnsafeError
from renamer.paths import problem

_SHOWN = 5  # untracked entries named in a message, then "and N more"


@dataclass(frozen=True)
class FolderMove:
    old: str
    new: str
    untracked: tuple[str, ...]  # what git does not track inside it, moved with it (a folder ends in '/')


def located(path: str, folders: Sequence[FolderMove]) -> str:
    """Where `path` is once `folders` are moved (in order)."""
    for move in folders:
        if path.startswith(move.old + "/"):
            path = move.new + path[len(move.old):]
    return path


def _original(path: str, folders: Sequence[FolderMove]) -> str:
    for move in reversed(folders):
        if path == move.new or path.startswith(move.new + "/"):
            path = move.old + path[len(move.new):]
    return path


def _first_difference(old: str, new: str) -> tuple[str, str] | None:
    """The outermost folder whose name a rename changes, and its new name; None where only the
    file's own name changes (or the depth does, which no host rename does)."""
    a, b = old.split("/")[:-1], new.split("/")[:-1]
    if len(a) != len(b):
        return None
    for i, (x, y) in enumerate(zip(a, b, strict=True)):
        if x != y:
            return "/".join(a[: i + 1]), "/".join(b[: i + 1])
    return None


def _left(root: Path, folder: str, moving: set[str], tracked: set[str]) -> tuple[list[str], list[str]]:
    """What renaming the `moving` files alone would leave in `folder`: (untracked, tracked).
    A folder holding nothing tracked or moving is named once, with a trailing '/'."""
    untracked: list[str] = []
    staying: list[str] = []
    holding = {path[:i] for path in moving | tracked for i, c in enumerate(path) if c == "/"}
    pending = [folder]
    while pending:
        current = pending.pop()
        with os.scandir(root / current) as entries:
            for entry in sorted(entries, key=lambda e: e.name):
                rel = f"{current}/{entry.name}"
                if rel in moving:
                    continue
                if entry.is_dir(follow_symlinks=False):
                    if rel in holding:  # something tracked or renamed inside: look at each entry
                        pending.append(rel)
                    else:
                        untracked.append(rel + "/")
                elif rel in tracked:
                    staying.append(rel)
                else:
                    untracked.append(rel)
    return sorted(untracked), sorted(staying)


def named(paths: Sequence[str]) -> str:
    shown = ", ".join(paths[:_SHOWN])
    return shown + (f" and {len(paths) - _SHOWN} more" if len(paths) > _SHOWN else "")


def merging(root: Path, renames: Sequence[tuple[str, str]]) -> list[tuple[str, str, list[str]]]:
    """Folders whose files a rename moves into another folder that exists already and holds
    files of its own (issue 27 item 7: `stacks/pug/` into `stacks/wolf/`, another host's
    `host_vars/wolf/`): (folder, existing folder, what it holds), outermost first. Two folders
    would become one: the files meet (a compose override applies to the wrong stack, two hosts'
    variables merge), which no file-level check sees."""
    leaving = {old for old, _ in renames}
    found: dict[str, tuple[str, list[str]]] = {}
    for old, new in renames:
        pair = _first_difference(old, new)
        if pair is None or pair[0] in found:
            continue
        folder, target = pair
        if not os.path.isdir(root / target) or os.path.islink(root / target):
            continue
        held = [rel for rel in _files_under(root, target) if rel not in leaving]
        if held:
            found[folder] = (target, held)
    return [(folder, target, held) for folder, (target, held) in sorted(found.items())]


def splitting(renames: Sequence[tuple[str, str]], listed: Callable[[str], Sequence[str]],
              live: Callable[[str], bool], named_by: Callable[[str, str], bool]
              ) -> list[tuple[str, str, list[str]]]:
    """Folders a rename moves while some of their files stay (break-it rounds 13 and 14):
    (folder, new folder, what stays). Split, the moved files' references to their old neighbours
    (`env_file: ./secrets.enc.yaml`, a README's `[disk swap](2025-03-01-disk-swap.md)`) name
    nothing; no file-level check sees it. A file stays live (`live`: kept, held) or as a record
    that a moving file of the folder names (`named_by(moving, staying)`); a record nothing there
    names splits nothing live (history stays where it was written; a reference to the folder itself
    is a `held-path` residual, held_paths.py). `listed(folder)`: every tracked file under it, the
    paths a sweep was not asked about too (a sweep of one file still moves its folder's name)."""
    leaving = {old for old, _ in renames}
    folders: dict[str, str] = {}
    for old, new in renames:
        pair = _first_difference(old, new)
        if pair is not None:
            folders.setdefault(*pair)
    out = []
    for folder, target in sorted(folders.items()):
        inside = [path for path in listed(folder) if path.startswith(folder + "/")]
        moving = [path for path in inside if path in leaving]
        staying = [path for path in inside if path not in leaving
                   and (live(path) or any(named_by(m, path) for m in moving))]
        if staying:
            out.append((folder, target, staying))
    return out


def _files_under(root: Path, folder: str) -> list[str]:
    out: list[str] = []
    pending = [folder]
    while pending:
        current = pending.pop()
        with os.scandir(root / current) as entries:
            for entry in entries:
                rel = f"{current}/{entry.name}"
                if entry.is_dir(follow_symlinks=False):
                    pending.append(rel)
                else:
                    out.append(rel)
    return sorted(out)


def plan_folders(root: Path, renames: Sequence[tuple[str, str]],
                 tracked_under: Callable[[str], list[str]]) -> tuple[FolderMove, ...]:
    """The folders to move whole, outermost first; refuses where untracked files would stay behind.

    `tracked_under(folder)`: the tracked files under a folder (git's index)."""
    moves: list[FolderMove] = []
    settled: set[str] = set()  # renames with no folder left to move
    while True:
        groups: dict[str, dict[str, list[str]]] = {}
        for old, new in renames:
            pair = None if old in settled else _first_difference(located(old, moves), new)
            if pair is None:
                settled.add(old)
            else:
                groups.setdefault(pair[0], {}).setdefault(pair[1], []).append(old)
        if not groups:
            return tuple(moves)
        depth = min(f.count("/") for f in groups)
        for folder in sorted(f for f in groups if f.count("/") == depth):
            move = _folder_move(root, folder, groups[folder], renames, moves, tracked_under)
            if move is None:  # nothing untracked in it: the files move one by one, as before
                settled.update(old for olds in groups[folder].values() for old in olds)
            else:
                moves.append(move)


def _folder_move(root: Path, folder: str, targets: dict[str, list[str]], renames: Sequence[tuple[str, str]],
                 moves: list[FolderMove], tracked_under: Callable[[str], list[str]]) -> FolderMove | None:
    source = _original(folder, moves)  # where it is on disk now
    info = os.lstat(root / source)
    if stat.S_ISLNK(info.st_mode):  # a symlinked folder: its link is re-pointed (links.py), not moved
        return None
    moving = {old for old, _ in renames if old.startswith(source + "/")}
    untracked, staying = _left(root, source, moving, set(tracked_under(source)))
    if not untracked:
        return None
    outside = [old for old in moving if old not in {o for olds in targets.values() for o in olds}]
    new = sorted(targets)[0]
    why = None
    if len(targets) > 1:
        why = "its files go to more than one folder: " + ", ".join(f"{t}/" for t in sorted(targets))
    elif staying or outside:
        why = f"part of it stays: {named(sorted(staying + outside))}"
    elif os.path.lexists(root / new) or os.path.lexists(root / _original(new, moves)):
        why = f"{_original(new, moves)}/ exists already"
    elif problem(root, new + "/x") is not None:
        why = f"{new}/: {problem(root, new + '/x')}"
    if why is not None:
        raise UnsafeError(
            f"{source}/: the sweep renames its files to {new}/ but would leave behind what git does not "
            f"track: {named(untracked)} ({why}); move those out of {source}/ (or delete them) by hand, or "
            "rename the folder yourself (`git mv` moves it whole), then run the sweep again; nothing changed")
    return FolderMove(folder, new, tuple(_original(u, moves) for u in untracked))


def fold(root: Path, folders: Sequence[FolderMove], renames: Sequence[tuple[str, str]], *,
         stage: bool) -> None:
    """Move each folder whole (one rename(2)), then the renamed files inside it that change
    their own name too, then tell git of the tracked ones. A failure (or a kill) half-way is
    undone by `unfold`, which takes back only the steps that were made."""
    for move in folders:
        (root / move.new).parent.mkdir(parents=True, exist_ok=True)
        os.rename(root / move.old, root / move.new)
        vcs.prune_empty(root, (root / move.old).parent)
    inside = [(old, new) for old, new in renames if located(old, folders) != old]
    for old, new in inside:
        here = located(old, folders)
        if here != new:
            (root / new).parent.mkdir(parents=True, exist_ok=True)
            os.rename(root / here, root / new)
    vcs.record_moves(root, inside, stage=stage)


def unfold(root: Path, folders: Sequence[FolderMove], renames: Sequence[tuple[str, str]]) -> None:
    """Undo `fold`, as far as it got: each step only where it was done (a crash may come anywhere)."""
    inside = [(old, new) for old, new in renames if located(old, folders) != old]
    for old, new in reversed(inside):
        here = located(old, folders)
        if here != new and os.path.lexists(root / new) and not os.path.lexists(root / here):
            os.rename(root / new, root / here)
    for move in reversed(folders):
        if os.path.isdir(root / move.new) and not os.path.lexists(root / move.old):
            (root / move.old).parent.mkdir(parents=True, exist_ok=True)
            os.rename(root / move.new, root / move.old)
            vcs.prune_empty(root, (root / move.new).parent)
    vcs.forget_moves(root, inside)


def folded(renames: Sequence[tuple[str, str]], folders: Sequence[FolderMove]) -> list[tuple[str, str]]:
    """The renames `fold` makes (the rest are moved file by file)."""
    return [(old, new) for old, new in renames if located(old, folders) != old]
