"""Allowlist files -> one merged Allowlist (presets from `extends:` included)."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

from renamer.errors import ConfigError
from renamer.formats.yaml_source import Problems, check_mapping, kind, line_of, list_at, load_yaml_file, shown
from renamer.shipped import shipped

DEFAULT_MARKER = "renamer: keep"
_TOP_KEYS = {"version", "current", "records", "dated", "keep", "inline_marker", "exclude", "extends",
             "near_miss", "keep_paths"}
_NEAR_MISS_KEYS = {"ignore", "paths"}
_RECORD_KEYS = {"name", "paths", "reason", "expires", "owner"}
_KEEP_KEYS = {"name", "path", "paths", "line_contains", "reason", "expires", "owner"}
_DATED_KEYS = {"filenames", "sections", "section_paths"}
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*\Z")


@dataclass(frozen=True)
class Exemption:
    """What every record class and keep rule carries: why, where it is written, and until when."""

    kind: ClassVar[str] = ""  # record | keep
    name: str
    patterns: tuple[str, ...]
    reason: str
    source: str  # the allowlist file, as shown
    inherited: bool  # from a preset (`extends:`): never reported stale, never pruned
    expires: dt.date | None = None  # after this day, verify fails naming the exemption
    owner: str | None = None  # who decides on renewing it
    line: int = 0  # of the entry in its file
    file: Path | None = None  # the allowlist file itself (audit --prune and sweep --interactive edit it)

    @property
    def label(self) -> str:
        """`record class notes`, `keep rule legacy-bmc`: how reports name it."""
        return f"{'record class' if self.kind == 'record' else 'keep rule'} {self.name}"

    @property
    def where(self) -> str:
        return f"{self.source}:{self.line}" if self.line else self.source

    def expired(self, today: dt.date) -> bool:
        return self.expires is not None and self.expires < today


@dataclass(frozen=True)
class RecordClass(Exemption):
    kind: ClassVar[str] = "record"


@dataclass(frozen=True)
class KeepRule(Exemption):
    line_contains: str | None = None
    kind: ClassVar[str] = "keep"


@dataclass(frozen=True)
class Allowlist:
    current: tuple[str, ...] = ()
    records: tuple[RecordClass, ...] = ()
    dated_filenames: bool = False
    sections: tuple[re.Pattern[str], ...] = ()
    section_paths: tuple[str, ...] | None = None  # None: prose files (see formats/prose.is_prose)
    keep: tuple[KeepRule, ...] = ()
    inline_marker: str = DEFAULT_MARKER
    exclude: tuple[str, ...] = ()
    near_miss_ignore: tuple[re.Pattern[str], ...] = ()  # spellings a user has seen and accepts
    near_miss_paths: tuple[str, ...] = ()  # where near-misses are not reported at all
    keep_paths: tuple[str, ...] = ()  # files and folders never renamed (their contents still follow)
    current_where: tuple[str, ...] = ()  # file:line of each `current` pattern (renamer explain)
    exclude_where: tuple[str, ...] = ()

    def where(self, key: str, pattern: str) -> str:
        """file:line of a `current` or `exclude` pattern, as `renamer explain` names it."""
        patterns, places = ((self.current, self.current_where) if key == "current"
                            else (self.exclude, self.exclude_where))
        return next((w for p, w in zip(patterns, places, strict=False) if p == pattern), "")


@dataclass
class _Partial:
    """One file's contribution; None means 'not said here', so presets can fill it."""

    current: list[str]
    records: list[RecordClass]
    keep: list[KeepRule]
    exclude: list[str]
    dated_filenames: bool | None = None
    sections: list[re.Pattern[str]] | None = None
    section_paths: list[str] | None = None
    inline_marker: str | None = None
    near_miss_ignore: list[re.Pattern[str]] = field(default_factory=list)
    near_miss_paths: list[str] = field(default_factory=list)
    keep_paths: list[str] = field(default_factory=list)
    current_where: list[str] = field(default_factory=list)
    exclude_where: list[str] = field(default_factory=list)


def load_allowlists(paths: tuple[Path, ...], display: Any) -> Allowlist:
    """Load the user's allowlist files in order, then the presets they extend."""
    own: list[_Partial] = []
    presets: list[_Partial] = []
    seen: set[str] = set()
    for path in paths:
        partial, extends = _load_one(path, display(path), inherited=False, file=path)
        own.append(partial)
        for name, where in extends:
            _load_preset(name, where, presets, seen)
    return _merge(own + presets)


def _load_preset(name: str, where: str, out: list[_Partial], seen: set[str]) -> None:
    if name in seen:
        return
    seen.add(name)
    path = shipped("allowlists") / f"{name}.yaml"
    if not _NAME.match(name) or not path.is_file():
        available = sorted(p.stem for p in shipped("allowlists").glob("*.yaml"))
        raise ConfigError(f"{where}: extends: unknown preset {shown(name)} "
                          f"(available: {', '.join(available)})")
    partial, extends = _load_one(path, f"preset {name}", inherited=True)
    out.append(partial)
    for child, child_where in extends:
        _load_preset(child, child_where, out, seen)


def _merge(parts: list[_Partial]) -> Allowlist:
    records: dict[str, RecordClass] = {}
    keep: dict[str, KeepRule] = {}
    for part in parts:
        for record in part.records:
            records.setdefault(record.name, record)
        for rule in part.keep:
            keep.setdefault(rule.name, rule)

    def first(attr: str, default: Any) -> Any:
        return next((getattr(p, attr) for p in parts if getattr(p, attr) is not None), default)

    return Allowlist(
        current=tuple(p for part in parts for p in part.current),
        records=tuple(records.values()),
        dated_filenames=first("dated_filenames", False),
        sections=tuple(first("sections", [])),
        section_paths=_optional_tuple(first("section_paths", None)),
        keep=tuple(keep.values()),
        inline_marker=first("inline_marker", DEFAULT_MARKER),
        exclude=tuple(p for part in parts for p in part.exclude),
        near_miss_ignore=tuple(p for part in parts for p in part.near_miss_ignore),
        near_miss_paths=tuple(p for part in parts for p in part.near_miss_paths),
        keep_paths=tuple(p for part in parts for p in part.keep_paths),
        current_where=tuple(w for part in parts for w in part.current_where),
        exclude_where=tuple(w for part in parts for w in part.exclude_where),
    )


def _load_one(path: Path, display: str, *, inherited: bool,
              file: Path | None = None) -> tuple[_Partial, list[tuple[str, str]]]:
    data = load_yaml_file(path, display)
    problems = Problems(display)
    top = check_mapping({} if data is None else data, "", _TOP_KEYS, problems, data, None) or {}
    if top.get("version", 1) != 1:
        problems.add(top, "version", "version", f"must be 1, got {shown(top.get('version'))}")
    partial = _Partial(
        current=_patterns(top, "current", "current", problems),
        records=_records(top, problems, _Origin(display, inherited, file)),
        keep=_keep(top, problems, _Origin(display, inherited, file)),
        exclude=_patterns(top, "exclude", "exclude", problems),
        keep_paths=_patterns(top, "keep_paths", "keep_paths", problems),
        current_where=_places(top, "current", display),
        exclude_where=_places(top, "exclude", display),
    )
    _dated(top, problems, partial)
    _near_miss(top, problems, partial)
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


def _places(top: dict[str, Any], key: str, display: str) -> list[str]:
    """file:line of each pattern of a list (or of the one string) at `key`."""
    raw = top.get(key, [])
    if isinstance(raw, str):
        return [f"{display}:{line_of(top, key)}"]
    return [f"{display}:{line_of(raw, i)}" for i in range(len(raw))] if isinstance(raw, list) else []


def _line(container: Any, key: Any) -> int:
    return line_of(container, key)


def _patterns(section: dict[str, Any], key: str, keypath: str, problems: Problems) -> list[str]:
    raw = section.get(key, [])
    if isinstance(raw, str):
        raw = [raw]
    if not isinstance(raw, list):
        problems.add(section, key, keypath, f"expected a list of path patterns, got {kind(raw)}")
        return []
    out = []
    for i, item in enumerate(raw):
        if not isinstance(item, str) or not item.strip():
            problems.add(raw, i, f"{keypath}[{i}]", f"expected a path pattern, got {kind(item)}")
            continue
        out.append(item)
    return out


def _reason(entry: dict[str, Any], keypath: str, problems: Problems) -> str:
    reason = entry.get("reason")
    if not isinstance(reason, str) or not reason.strip():
        problems.add(entry, "reason" if "reason" in entry else None, f"{keypath}.reason",
                     "every exemption needs a reason (why the old name must stay)")
        return ""
    return " ".join(reason.split())


def _name(entry: dict[str, Any], keypath: str, problems: Problems) -> str:
    name = entry.get("name")
    if not isinstance(name, str) or not _NAME.match(name):
        problems.add(entry, "name" if "name" in entry else None, f"{keypath}.name",
                     f"expected a name of letters, digits, '-', '_' or '.', got {shown(name)}")
        return ""
    return name


def _entries(top: dict[str, Any], key: str, what: str, known: set[str],
             problems: Problems) -> Iterator[tuple[str, dict[str, Any]]]:
    """(key path, mapping) of each well-formed entry of the list at `key`, lazily, so that
    problems are noted in the order of the file."""
    raw = list_at(top, key, what, problems)
    for i, entry in enumerate(raw):
        keypath = f"{key}[{i}]"
        if check_mapping(entry, keypath, known, problems, raw, i) is not None:
            yield keypath, entry


@dataclass(frozen=True)
class _Origin:
    source: str
    inherited: bool
    file: Path | None


def _common(entry: dict[str, Any], keypath: str, problems: Problems, origin: _Origin) -> dict[str, Any]:
    """The fields every exemption has, checked: name, reason, expires, owner, where it is."""
    owner = entry.get("owner")
    if owner is not None and (not isinstance(owner, str) or not owner.strip() or "\n" in owner.strip()):
        problems.add(entry, "owner", f"{keypath}.owner", f"expected a one-line string, got {kind(owner)}")
        owner = None
    return {"name": _name(entry, keypath, problems), "reason": _reason(entry, keypath, problems),
            "source": origin.source, "inherited": origin.inherited, "file": origin.file,
            "expires": _expires(entry, keypath, problems), "owner": owner.strip() if owner else None,
            "line": line_of(entry)}


def _expires(entry: dict[str, Any], keypath: str, problems: Problems) -> dt.date | None:
    value = entry.get("expires")
    if value is None:
        return None
    if isinstance(value, dt.date):
        return value if not isinstance(value, dt.datetime) else value.date()
    if isinstance(value, str):
        try:
            return dt.date.fromisoformat(value.strip())
        except ValueError:
            pass
    problems.add(entry, "expires", f"{keypath}.expires",
                 f"expected a date like 2027-06-30, got {shown(value)}")
    return None


def _records(top: dict[str, Any], problems: Problems, origin: _Origin) -> list[RecordClass]:
    out = []
    for keypath, entry in _entries(top, "records", "record classes", _RECORD_KEYS, problems):
        common = _common(entry, keypath, problems, origin)
        patterns = _patterns(entry, "paths", f"{keypath}.paths", problems)
        if "paths" not in entry:
            problems.add(entry, None, f"{keypath}.paths", "missing: which files are records")
        out.append(RecordClass(patterns=tuple(patterns), **common))
    return out


def _keep(top: dict[str, Any], problems: Problems, origin: _Origin) -> list[KeepRule]:
    out = []
    for keypath, entry in _entries(top, "keep", "keep rules", _KEEP_KEYS, problems):
        common = _common(entry, keypath, problems, origin)
        patterns = _patterns(entry, "path", f"{keypath}.path", problems)
        patterns += _patterns(entry, "paths", f"{keypath}.paths", problems)
        if not patterns:
            problems.add(entry, None, f"{keypath}.path", "missing: which file the rule applies to")
        contains = entry.get("line_contains")
        if contains is not None and (not isinstance(contains, str) or not contains):
            problems.add(entry, "line_contains", f"{keypath}.line_contains",
                         f"expected a non-empty string, got {kind(contains)}")
            contains = None
        out.append(KeepRule(patterns=tuple(patterns), line_contains=contains, **common))
    return out


def _dated(top: dict[str, Any], problems: Problems, partial: _Partial) -> None:
    section = _section(top, "dated", _DATED_KEYS, problems)
    if section is None:
        return
    if "filenames" in section:
        if not isinstance(section["filenames"], bool):
            problems.add(section, "filenames", "dated.filenames", "expected true or false")
        else:
            partial.dated_filenames = section["filenames"]
    if "section_paths" in section:
        partial.section_paths = _patterns(section, "section_paths", "dated.section_paths", problems)
    if "sections" in section:
        raw_sections = section["sections"]
        if not isinstance(raw_sections, list):
            problems.add(section, "sections", "dated.sections", "expected a list of regular expressions")
            return
        compiled = []
        for i, regex in _regexes(raw_sections, "dated.sections", problems):
            if "date" not in regex.groupindex:
                problems.add(raw_sections, i, f"dated.sections[{i}]",
                             "needs a named group (?P<date>...) for the date")
                continue
            compiled.append(regex)
        partial.sections = compiled


def _section(top: dict[str, Any], key: str, known: set[str], problems: Problems) -> dict[str, Any] | None:
    """The mapping at `key` with only known keys noted as problems; None when absent or broken."""
    raw = top.get(key)
    return None if raw is None else check_mapping(raw, key, known, problems, top, key)


def _near_miss(top: dict[str, Any], problems: Problems, partial: _Partial) -> None:
    """`near_miss: {ignore: [regex...], paths: [pattern...]}`: near-misses a user has decided on."""
    section = _section(top, "near_miss", _NEAR_MISS_KEYS, problems)
    if section is None:
        return
    partial.near_miss_paths = _patterns(section, "paths", "near_miss.paths", problems)
    raw = list_at(section, "ignore", "regular expressions", problems)
    partial.near_miss_ignore = [regex for _, regex in _regexes(raw, "near_miss.ignore", problems)]


def _regexes(raw: list[Any], keypath: str, problems: Problems) -> list[tuple[int, re.Pattern[str]]]:
    """(index, compiled) of each valid regular expression of a list; the others are problems."""
    out = []
    for i, pattern in enumerate(raw):
        if not isinstance(pattern, str) or not pattern:
            problems.add(raw, i, f"{keypath}[{i}]", f"expected a regular expression, got {kind(pattern)}")
            continue
        try:
            out.append((i, re.compile(pattern)))
        except re.error as exc:
            problems.add(raw, i, f"{keypath}[{i}]", f"invalid regular expression: {exc}")
    return out


def _optional_tuple(value: list[str] | None) -> tuple[str, ...] | None:
    return None if value is None else tuple(value)


def _unique(entries: list[Any], keypath: str, top: dict[str, Any], problems: Problems) -> None:
    seen: set[str] = set()
    for entry in entries:
        if entry.name and entry.name in seen:
            problems.add(top, keypath, keypath, f"name {entry.name!r} is used twice")
        seen.add(entry.name)
