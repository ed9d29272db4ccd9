"""Load YAML configuration with positions, and collect every problem before failing.

Configs are read with ruamel.yaml's round-trip loader so that each key keeps
the line it was written on: error messages say `file:line: key: problem`.
"""

from __future__ import annotations

import hashlib
import os
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.constructor import RoundTripConstructor
from ruamel.yaml.error import MarkedYAMLError, YAMLError

from renamer import lazy_re
from renamer.errors import ConfigError

# A configuration file is a few kilobytes; anything far larger is a mistake or
# an attack (a YAML bomb), and is refused before parsing.
MAX_CONFIG_BYTES = 1024 * 1024


def load_yaml_file(path: Path, display: str, *, fast: bool = False) -> Any:
    """Parse `path` (shown to the user as `display`) or raise a one-line ConfigError.

    `fast` reads plain values with libyaml (no line numbers: for large files
    whose caller re-reads them with positions only when reporting a problem).
    """
    try:
        if path.is_dir():
            raise ConfigError(f"{display}: is a folder, expected a YAML file")
        with open(path, "rb") as handle:
            if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):  # /dev/zero, a FIFO, /proc
                raise ConfigError(f"{display}: not a regular file, expected a YAML file")
            raw = handle.read(MAX_CONFIG_BYTES + 1)
        if len(raw) > MAX_CONFIG_BYTES:
            raise ConfigError(f"{display}: more than {MAX_CONFIG_BYTES} bytes is too large for a "
                              "configuration file")
    except FileNotFoundError:
        raise ConfigError(f"{display}: file not found") from None
    except OSError as exc:
        raise ConfigError(f"{display}: cannot read: {exc.strerror}") from None
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        bad_line = raw.count(b"\n", 0, exc.start) + 1
        raise ConfigError(f"{display}:{bad_line}: not valid UTF-8") from None
    if fast:
        quick = YAML(typ="safe", pure=False)
        if quick.Parser.__name__ == "CParser":
            try:
                return quick.load(text)
            except (YAMLError, ValueError, RecursionError):
                pass  # the round-trip loader below says where, with a line number
    deep = _too_deep(text)
    if deep:  # the pure-Python parser would take seconds to find that out by recursing
        raise ConfigError(f"{display}:{deep}: invalid YAML: nested too deeply")
    key = hashlib.sha256(raw).digest()
    if key in _PARSED:
        return _PARSED[key]
    yaml = YAML(typ="rt")
    yaml.Constructor = _TextTimestamps
    try:
        parsed = yaml.load(text)
    except MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = f":{mark.line + 1}" if mark is not None else ""
        problem = (exc.problem or exc.context or "invalid YAML").strip()
        raise ConfigError(f"{display}{line}: invalid YAML: {problem}") from None
    except YAMLError as exc:
        raise ConfigError(f"{display}: invalid YAML: {exc}") from None
    except RecursionError:
        raise ConfigError(f"{display}: invalid YAML: nested too deeply") from None
    if len(_PARSED) >= _PARSED_MAX:
        _PARSED.clear()
    _PARSED[key] = parsed
    return parsed


# The round-trip parse of each file's bytes, once per process: a configuration is read again by
# every load of its project (a library user, a campaign over repos, the test suite: 20 % of a small
# project's verify was parsing renamer.yaml and the allowlist). Callers only read what they are
# given (config_load, allowlist_load, dns/sites, dns/resolvers): never mutate it.
_PARSED: dict[bytes, Any] = {}
_PARSED_MAX = 64


MAX_DEPTH = 200  # flow collections inside one another; renamer's files need a handful
_FLOW = lazy_re.compile(r'"(?:[^"\\\n]|\\.)*"|\'[^\'\n]*\'|#[^\n]*|[\[\]{}]|\n')


def _too_deep(text: str) -> int | None:
    """The line where `[`/`{` nest deeper than MAX_DEPTH (quoted strings and comments aside)."""
    if text.count("[") + text.count("{") <= MAX_DEPTH:
        return None
    depth, line = 0, 1
    for token in _FLOW.finditer(text):
        value = token.group()
        if value == "\n":
            line += 1
        elif value in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                return line
        elif value in "]}":
            depth = max(depth - 1, 0)
    return None


def parse_yaml_text(text: str, *, pure: bool = False) -> Any:
    """Plain values of a YAML document (the first), or None when it does not parse: for
    reading a repo's own files, where a broken one is simply not read. `pure`: ruamel's own
    parser, which (unlike libyaml) takes `{repository: file://charts/web}` as Go's YAML does."""
    try:
        for document in YAML(typ="safe", pure=pure).load_all(text):
            return document
    except (YAMLError, ValueError, RecursionError):
        return None
    return None


class _TextTimestamps(RoundTripConstructor):
    """Dates stay text: validated by the config code, with their line, not by the parser."""


_TextTimestamps.add_constructor("tag:yaml.org,2002:timestamp",
                                lambda loader, node: loader.construct_scalar(node))


def line_of(container: Any, key: Any = None) -> int:
    """1-based line of `key` in a ruamel mapping or sequence (or of the container)."""
    lc = getattr(container, "lc", None)
    if lc is None:
        return 0
    try:
        if key is None:
            return int(lc.line) + 1
        if isinstance(key, int) and not isinstance(container, dict):
            return int(lc.item(key)[0]) + 1
        return int(lc.key(key)[0]) + 1
    except (KeyError, IndexError, TypeError, AttributeError):
        return int(lc.line) + 1 if lc.line is not None else 0


@dataclass(frozen=True)
class Problem:
    file: str
    line: int
    key: str
    message: str

    def render(self) -> str:
        where = f"{self.file}:{self.line}" if self.line else self.file
        return f"{where}: {self.key}: {self.message}" if self.key else f"{where}: {self.message}"


@dataclass
class Problems:
    """Collects problems across a whole file so the user sees all of them at once."""

    file: str
    items: list[Problem] = field(default_factory=list)

    def add(self, container: Any, key: Any, keypath: str, message: str) -> None:
        self.items.append(Problem(self.file, line_of(container, key), keypath, message))

    def raise_if_any(self) -> None:
        if self.items:
            lines = [p.render() for p in self.items]
            raise ConfigError(lines[0], lines=lines)


def check_mapping(
    value: Any, keypath: str, allowed: set[str], problems: Problems, parent: Any, key: Any
) -> dict[str, Any] | None:
    """Return `value` if it is a mapping with only `allowed` keys, else record why not."""
    if not isinstance(value, dict):
        problems.add(parent, key, keypath or "(top level)", f"expected a mapping, got {kind(value)}")
        return None
    for name in value:
        if not isinstance(name, str) or name not in allowed:
            child = f"{keypath}.{name}" if keypath else str(name)
            known = ", ".join(sorted(allowed))
            problems.add(value, name, child, f"unknown key (known: {known})")
    return value


_KINDS: tuple[tuple[type | tuple[type, ...], str], ...] = (
    (bool, "a boolean"), ((int, float), "a number"), (str, "a string"), (dict, "a mapping"),
    ((list, tuple), "a list"),
)


def list_at(top: dict[str, Any], key: str, what: str, problems: Problems) -> list[Any]:
    """The list at `key` (none: an empty one); anything else is a problem, noted."""
    raw = top.get(key, [])
    if isinstance(raw, list):
        return raw
    problems.add(top, key, key, f"expected a list of {what}, got {kind(raw)}")
    return []


def shown(value: Any, limit: int = 60) -> str:
    """A YAML value for an error message: a scalar's repr, shortened; a collection by its kind.

    Never the repr of a list or mapping: through aliases (a billion-laughs document) a few
    hundred bytes can stand for billions of items, and their repr would never finish."""
    if isinstance(value, str | int | float | bool) or value is None:
        text = repr(value)
        return text if len(text) <= limit else text[: limit - 1] + "…"
    return kind(value)


def kind(value: Any) -> str:
    """A user-facing name for the YAML type of `value`."""
    if value is None:
        return "nothing"
    for types, name in _KINDS:  # bool first: it is an int too
        if isinstance(value, types):
            return name
    return type(value).__name__
