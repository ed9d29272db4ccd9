"""Allowlist files -> one merged Allowlist: each file's top level read and checked, and the presets of
`extends:` followed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from renamer.allowlist import Allowlist
from renamer.allowlist_entries import keep_rules, record_classes
from renamer.allowlist_fields import NAME, Origin
from renamer.allowlist_merge import Partial, merge
from renamer.allowlist_sections import path_patterns, places, read_dated, read_near_miss
from renamer.errors import ConfigError
from renamer.formats.yaml_source import Problems, check_mapping, kind, line_of, load_yaml_file, shown
from renamer.shipped import shipped

_TOP_KEYS = {"version", "current", "records", "dated", "keep", "inline_marker", "exclude", "extends",
             "near_miss", "keep_paths"}


def load_allowlists(paths: tuple[Path, ...], display: Any) -> Allowlist:
    """Load the user's allowlist files in order, then the presets they extend."""
    own: list[Partial] = []
    presets: list[Partial] = []
    seen: set[str] = set()
    for path in paths:
        partial, extends = _load_one(path, display(path), inherited=False, file=path)
        own.append(partial)
        for name, where in extends:
            _load_preset(name, where, presets, seen)
    return merge(own + presets)


def _load_preset(name: str, where: str, out: list[Partial], seen: set[str]) -> None:
    if name in seen:
        return
    seen.add(name)
    path = shipped("allowlists") / f"{name}.yaml"
    if not NAME.match(name) or not path.is_file():
        available = sorted(p.stem for p in shipped("allowlists").glob("*.yaml"))
        raise ConfigError(f"{where}: extends: unknown preset {shown(name)} "
                          f"(available: {', '.join(available)})")
    partial, extends = _load_one(path, f"preset {name}", inherited=True)
    out.append(partial)
    for child, child_where in extends:
        _load_preset(child, child_where, out, seen)


def _load_one(path: Path, display: str, *, inherited: bool,
              file: Path | None = None) -> tuple[Partial, list[tuple[str, str]]]:
    data = load_yaml_file(path, display)
    problems = Problems(display)
    top = check_mapping({} if data is None else data, "", _TOP_KEYS, problems, data, None) or {}
    if top.get("version", 1) != 1:
        problems.add(top, "version", "version", f"must be 1, got {shown(top.get('version'))}")
    partial = Partial(
        current=path_patterns(top, "current", "current", problems),
        records=record_classes(top, problems, Origin(display, inherited, file)),
        keep=keep_rules(top, problems, Origin(display, inherited, file)),
        exclude=path_patterns(top, "exclude", "exclude", problems),
        keep_paths=path_patterns(top, "keep_paths", "keep_paths", problems),
        current_where=places(top, "current", display),
        exclude_where=places(top, "exclude", display),
    )
    read_dated(top, problems, partial)
    read_near_miss(top, problems, partial)
    marker = top.get("inline_marker")
    if marker is not None and (not isinstance(marker, str) or not marker.strip()):
        problems.add(top, "inline_marker", "inline_marker", "expected a non-empty string")
    elif marker is not None:
        partial.inline_marker = marker
    extends = []
    raw = top.get("extends", [])
    if not isinstance(raw, list) or not all(isinstance(x, str) for x in raw):
        problems.add(top, "extends", "extends", f"expected a list of preset names, got {kind(raw)}")
    else:
        extends = [(name, f"{display}:{_line(raw, i)}") for i, name in enumerate(raw)]
    _unique(partial.records, "records", top, problems)
    _unique(partial.keep, "keep", top, problems)
    problems.raise_if_any()
    return partial, extends


def _line(container: Any, key: Any) -> int:
    return line_of(container, key)


def _unique(entries: list[Any], keypath: str, top: dict[str, Any], problems: Problems) -> None:
    seen: set[str] = set()
    for entry in entries:
        if entry.name and entry.name in seen:
            problems.add(top, keypath, keypath, f"name {entry.name!r} is used twice")
        seen.add(entry.name)
