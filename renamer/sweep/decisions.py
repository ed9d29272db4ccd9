"""Decisions written back to the allowlist: pruning dead exemptions, adding keep rules.

Both edit the user's own allowlist files through a YAML round trip (comments,
order and quoting kept) and write atomically; presets are never touched.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from renamer.allowlist import Allowlist, Exemption
from renamer.atomic import save
from renamer.diffs import unified
from renamer.errors import ConfigError, UnsafeError
from renamer.formats.yaml_edit import append_entry, remove_entries
from renamer.paths import problem
from renamer.sweep.stale import Stale

_LIST = {"record": "records", "keep": "keep"}


@dataclass(frozen=True)
class Pruned:
    exemption: Exemption
    why: str


@dataclass(frozen=True)
class FileEdit:
    path: Path
    display: str
    before: str
    after: str

    def diff(self) -> str:
        return unified(self.before, self.after, f"a/{self.display}", f"b/{self.display}")


def to_prune(allowlist: Allowlist, stale: Sequence[Stale], expired: Sequence[Exemption]) -> list[Pruned]:
    """Keep rules that kept nothing, and expired keep rules and record classes (own files only).

    A record class that kept nothing stays: a rename that does not touch that history is normal."""
    out: dict[tuple[str, str], Pruned] = {}
    for exemption in expired:
        out[(exemption.kind, exemption.name)] = Pruned(exemption, f"expired on {exemption.expires}")
    by_name = {rule.name: rule for rule in allowlist.keep}
    for item in stale:
        rule = by_name.get(item.name)
        if item.unread:  # its file was skipped unread: never asked, never pruned (round 24, finding 17)
            continue
        if item.kind == "keep" and rule is not None and ("keep", item.name) not in out:
            out[("keep", item.name)] = Pruned(rule, item.wording)
    return [p for p in out.values() if not p.exemption.inherited and p.exemption.file is not None]


def prune_edits(pruned: Sequence[Pruned]) -> list[FileEdit]:
    """The edited text of each allowlist file that loses an entry."""
    by_file: dict[Path, dict[str, set[str]]] = {}
    shown: dict[Path, str] = {}
    for item in pruned:
        exemption = item.exemption
        assert exemption.file is not None  # to_prune keeps only entries of the user's own files
        by_file.setdefault(exemption.file, {}).setdefault(_LIST[exemption.kind], set()).add(exemption.name)
        shown[exemption.file] = exemption.source
    out = []
    for path, names in by_file.items():
        before = _read(path, shown[path])
        out.append(FileEdit(path, shown[path], before, remove_entries(before, shown[path], names)))
    return out


def keep_rules_edit(path: Path, display: str, rules: Sequence[dict[str, str]]) -> FileEdit:
    """The allowlist file with these keep rules at the end of `keep:`, in order."""
    before = after = _read(path, display)
    for rule in rules:
        after = append_entry(after, display, "keep", rule)
    return FileEdit(path, display, before, after)


def check_inside(root: Path, edit: FileEdit) -> None:
    """Refuse an allowlist edit that would land outside the repo: a file named by `..` or an
    absolute path, or reached through a symlinked folder, or itself a symlink (`allowlist:` in
    renamer.yaml, or an `extends:` of the user's, comes from the repo, and so from whoever wrote
    it). Asked for every file before the first is written."""
    lexical = Path(os.path.abspath(edit.path))
    try:
        rel = lexical.relative_to(os.path.abspath(root)).as_posix()
    except ValueError:
        rel = os.path.relpath(lexical, os.path.abspath(root))
    why = problem(root, rel)
    if why is None and lexical.is_symlink():
        why = "it is a symlink"
    if why is not None:
        raise UnsafeError(f"{edit.display}: refused to write the allowlist: {why}, outside the repo "
                          f"or on the way out of it; nothing written, edit it by hand")


def write(root: Path, edits: Sequence[FileEdit]) -> None:
    for edit in edits:
        check_inside(root, edit)
    for edit in edits:
        save(edit.path, edit.after.encode("utf-8"))


def _read(path: Path, display: str) -> str:
    try:
        return path.read_bytes().decode("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{display}: cannot read: {exc}") from None
