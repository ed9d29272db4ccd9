"""JSON and TOML, shared by their two formats: an edit may only change strings, never keys'
uniqueness or shape."""

from __future__ import annotations

import json
import re
import tomllib
from typing import Any

from renamer.formats import keylines

_OVERWRITE = re.compile(r"Cannot overwrite a value \(at line (\d+)")
_TWICE = re.compile(r"Cannot declare \((.*?),?\) twice \(at line (\d+)")


class _Duplicate(ValueError):
    pass


def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise _Duplicate(key)
        out[key] = value
    return out


def _load(kind: str, text: str) -> Any:
    if kind == "json":
        return json.loads(text, object_pairs_hook=_pairs)
    return tomllib.loads(text)


def edit_problem(kind: str, before: str, after: str) -> str | None:
    """Why the edit changes the document's structure, or None if only strings changed."""
    try:
        old = _load(kind, before)
    except (ValueError, RecursionError):
        return keylines.collision(before, after)  # unreadable before the edit: keys by line
    try:
        new = _load(kind, after)
    except _Duplicate as exc:
        return f"renaming a key would collide with the existing key {exc.args[0]!r}"
    except (ValueError, RecursionError) as exc:
        twice = _TWICE.search(str(exc))
        if twice is not None:  # tomllib: "Cannot declare ('fv-ml1',) twice (at line 3, column 8)"
            return (f"line {twice.group(2)}: renaming a key or table would collide with the existing "
                    f"{twice.group(1)}")
        over = _OVERWRITE.search(str(exc))
        if over is not None:  # tomllib: "Cannot overwrite a value (at line 3, column 11)"
            return f"line {over.group(1)}: renaming a key would collide with the existing key there"
        return f"the edit would make the {kind.upper()} invalid: {exc}"
    return None if _shape(old) == _shape(new) else f"the edit would change the {kind.upper()} structure"


def _shape(value: Any) -> Any:
    if isinstance(value, dict):
        return ("map", len(value), tuple(_shape(v) for v in value.values()))
    if isinstance(value, list):
        return ("list", tuple(_shape(v) for v in value))
    return type(value).__name__
