"""Ansible's `host_vars/` and `group_vars/`: `X.yml`, `X.yaml`, `X.json`, `X` and `X/` are one name.

Ansible reads a host's (or group's) variables from every entry of that name in the folder: a
file with one of the suffixes it loads, a file without one, or a folder of files. Renaming
`host_vars/pug.yml` to `host_vars/wolf.yml` beside another host's `host_vars/wolf/` (or
`wolf.yaml`) makes two hosts' variables one host's: `ansible-inventory --host wolf` then gives
one of them and drops the other, with no error (break-it round 9 #5). folders.merging sees a
folder renamed into a folder; this module sees the other spellings of one name.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from pathlib import Path

from renamer import lazy_re

_FOLDERS = ("host_vars", "group_vars")
_SUFFIXES = (".yml", ".yaml", ".json")


def entry(path: str) -> tuple[str, str, str] | None:
    """(vars folder, the host or group name, its entry: `wolf.yml` or `wolf/`) of a path under a
    `host_vars/` or `group_vars/` folder; None elsewhere."""
    parts = path.split("/")
    for i in range(len(parts) - 1):
        if parts[i] in _FOLDERS:
            first = parts[i + 1]
            folder = "/".join(parts[: i + 1])
            if i + 2 < len(parts):
                return folder, first, first + "/"
            stem = next((first[: -len(s)] for s in _SUFFIXES if first.endswith(s) and len(first) > len(s)),
                        first)
            return folder, stem, first
    return None


_PLAY = lazy_re.compile(rb"(?m)^-[ \t]+(?:hosts:|import_playbook:|ansible\.builtin\.import_playbook:)"
                   rb"|^-[ \t]+name:.*\r?\n[ \t]+hosts:")
_PLAY_READ = 256 * 1024


def holds_playbook(root: Path, folder: str) -> bool:
    """Does `folder` hold a playbook (a `.yml`/`.yaml` with a play)? Ansible reads the `host_vars/`
    and `group_vars/` beside a playbook for every inventory, wherever the inventory stands
    (break-it round 17, #10)."""
    try:
        names = sorted(os.listdir(root / folder if folder else root))
    except OSError:
        return False
    for name in names:
        if not name.endswith((".yml", ".yaml")):
            continue
        try:
            with open(root / folder / name if folder else root / name, "rb") as f:
                if _PLAY.search(f.read(_PLAY_READ)):
                    return True
        except OSError:
            continue
    return False


def entries(paths: Iterable[str]) -> dict[tuple[str, str], set[str]]:
    """(vars folder, name) -> the entries spelling that name."""
    out: dict[tuple[str, str], set[str]] = {}
    for path in paths:
        found = entry(path)
        if found is not None:
            out.setdefault(found[:2], set()).add(found[2])
    return out


def _standing(root: Path, folder: str, name: str, leaving: set[str]) -> set[str]:
    """The entries of `folder` on disk (tracked or not: Ansible reads both) spelling `name`,
    less the files a rename takes away."""
    out: set[str] = set()
    try:
        with os.scandir(root / folder) as listed:
            for e in listed:
                rel = f"{folder}/{e.name}"
                if e.is_dir(follow_symlinks=False):
                    if e.name == name:
                        out.add(f"{name}/")
                elif rel not in leaving and (found := entry(rel)) is not None and found[1] == name:
                    out.add(e.name)
    except OSError:
        pass
    return out


def merging(root: Path, renames: Sequence[tuple[str, str]]) -> list[tuple[str, str, str, list[str]]]:
    """Renames that give a host's or group's vars a name another entry of the same folder already
    answers to: (the renamed path's entry, its new entry, the name, the entries already there). A folder
    renamed into a folder of the same name is folders.merging's."""
    leaving = {old for old, _ in renames}
    found: dict[str, tuple[str, str, list[str]]] = {}
    for old, new in renames:
        was, now = entry(old), entry(new)
        if was is None or now is None or was[:2] == now[:2] or was[0] != now[0]:
            continue
        folder, name, spelled = now
        standing = _standing(root, folder, name, leaving) - {spelled}  # the same entry: not this check's
        shown = f"{folder}/{was[2]}"
        if standing and shown not in found:
            found[shown] = (f"{folder}/{spelled}", name, sorted(f"{folder}/{e}" for e in standing))
    return [(path, *found[path]) for path in sorted(found)]
