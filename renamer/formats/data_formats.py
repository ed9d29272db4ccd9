"""JSON and TOML, shared by their two formats: an edit may only change strings, never keys'
uniqueness or shape."""

from __future__ import annotations

import json
import re
import tomllib
from typing import Any

from renamer import lazy_re
from renamer.formats import keylines

_OVERWRITE = lazy_re.compile(r"Cannot overwrite a value \(at line (\d+)")
_AT = re.compile(r"\(at line (\d+), column \d+\)")
_TWICE = lazy_re.compile(r"Cannot declare \((.*?),?\) twice \(at line (\d+)")


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
        at = _AT.search(str(exc))
        if at is not None:  # tomllib: "Duplicate inline table key 'fv-ml1' (at line 1, column 40)"
            said = str(exc)[:at.start()].rstrip()
            return f"line {at.group(1)}: the edit would make the {kind.upper()} invalid: {said}"
        return f"the edit would make the {kind.upper()} invalid: {exc}"
    changed = _changed(old, new, "")
    if changed is None or (changed[1].endswith(_MERGED) and _leaves(old) == _leaves(new)):
        # The same values under fewer tables: TOML dotted keys that now extend one table
        # (`ana-ml2.ana.lan` renamed beside `fv-ml1.fv.www`), which loses nothing; but never
        # one host's table merged whole into another's (`servers.pug.ip` beside `servers.wolf.port`)
        if kind != "toml":
            return None
        return _merged_table(old, new, before, after, "") or _named_twice(kind, old, new, after)
    where, what = changed
    return f"{where or 'the document'}: the edit would change the {kind.upper()} structure ({what})"


_MERGED = ": two keys would become one"
# The keys an array of tables' entries are told apart by (`[[hosts]] name = "pug"`, `hostname`,
# `fqdn`, `id`: break-it t26-32, finding 06); `host` names where an entry runs, which two may share
_ENTRY_KEYS = ("name", "hostname", "fqdn", "id")


def _named_twice(kind: str, old: Any, new: Any, after: str, path: str = "") -> str | None:
    """Two entries of one array of tables (`[[hosts]]`, or an inline array of tables) that the
    edit gives one `name` they did not share before: two hosts made one (issue 32, item 5)."""
    if isinstance(old, dict) and isinstance(new, dict):
        for (key, a), b in zip(old.items(), new.values(), strict=False):
            found = _named_twice(kind, a, b, after, f"{path}.{key}" if path else str(key))
            if found is not None:
                return found
        return None
    if not (isinstance(old, list) and isinstance(new, list)):
        return None
    tables = all(isinstance(v, dict) for v in new) and len(new) > 1
    for key in _ENTRY_KEYS if tables else ():
        before = [v.get(key) for v in old if isinstance(v, dict) and isinstance(v.get(key), str)]
        now = [v.get(key) for v in new if isinstance(v.get(key), str)]
        twice = next((n for n in now if now.count(n) > 1 and before.count(n) < now.count(n)), None)
        if twice is not None:
            spelled = re.compile(rf"""(?m)^[ \t]*{re.escape(key)}[ \t]*=[ \t]*["']{re.escape(twice)}["']|"""
                                 rf"""[{{,][ \t]*{re.escape(key)}[ \t]*=[ \t]*["']{re.escape(twice)}["']""")
            lines = sorted({after.count("\n", 0, m.start()) + 1 for m in spelled.finditer(after)})
            at = f"line {lines[-1]}: " if lines else ""
            where = f" (lines {', '.join(map(str, lines))})" if len(lines) > 1 else ""
            return (f"{at}the edit makes two entries of the {kind.upper()} array of tables `{path}` "
                    f"{key} {twice!r}{where}: one entry would stand for two")
    for index, (a, b) in enumerate(zip(old, new, strict=False)):
        found = _named_twice(kind, a, b, after, f"{path}[{index}]")
        if found is not None:
            return found
    return None


def _merged_table(old: Any, new: Any, before: str, after: str, path: str) -> str | None:
    """Where the edit renames a TOML table (dotted keys: `servers.pug.ip = ...`, or `pug.ip`
    under `[servers]`) onto an existing sibling and keeps the keys below it: one table would
    hold two hosts' keys (break-it t26-32, finding 11). A rename that goes on into the keys below
    (a host name spelled as dotted keys, `ana-ml2.ana.lan` beside `fv-ml1.fv.www`) is no merge."""
    if not (isinstance(old, dict) and isinstance(new, dict)):
        return None
    gone = [k for k in old if k not in new] if len(new) < len(old) else []
    for key, now in new.items():
        was = old.get(key)
        if not (gone and isinstance(now, dict) and isinstance(was, dict)):
            continue
        # a gone table whose keys all stand in `key` now, with its values: merged into it whole
        into = next((g for g in gone if isinstance(old[g], dict) and set(old[g]) <= set(now)
                     and len(_leaves(now)) == len(_leaves(was)) + len(_leaves(old[g]))), None)
        if into is not None:
            lines = sorted(_key_part_lines(before, into) | _key_part_lines(before, key))
            at = f"line {lines[0]}: " if lines else ""
            both = f" (lines {', '.join(map(str, lines))})" if len(lines) > 1 else ""
            where = f"{path}." if path else ""
            return (f"{at}renaming a key would merge the TOML table `{where}{into}` into the existing "
                    f"`{where}{key}`{both}: one table would hold both hosts' keys{_MERGED}")
    for key, now in new.items():
        if key in old:
            found = _merged_table(old[key], now, before, after, f"{path}.{key}" if path else str(key))
            if found is not None:
                return found
    return None


def _key_part_lines(text: str, part: str) -> set[int]:
    """The lines of `text` whose key or table header spells `part` as one of its dotted parts."""
    spelled = re.compile(r"""(?m)^[ \t]*\[*[ \t]*(?:[^=\n#]*?\.)?[ \t]*["']?""" + re.escape(part)
                         + r"""["']?[ \t]*[.=\]]""")
    return {text.count("\n", 0, m.start()) + 1 for m in spelled.finditer(text)}


def _leaves(value: Any) -> list[str]:
    """Every value that is no table, by type, in a stable order: what a document holds."""
    if isinstance(value, dict):
        return sorted(leaf for v in value.values() for leaf in _leaves(v))
    if isinstance(value, list):
        return ["list", *sorted(leaf for v in value for leaf in _leaves(v))]
    return [type(value).__name__]


def _changed(old: Any, new: Any, path: str) -> tuple[str, str] | None:
    """Where the edited document's shape differs, and how: a mapping that holds another number
    of keys (two merged into one table: a key lost), a list of another length, another type."""
    if isinstance(old, dict) and isinstance(new, dict):
        if len(old) != len(new):
            merged = _MERGED if len(new) < len(old) else ""
            return path, f"{len(old)} keys before the edit, {len(new)} after{merged}"
        for (key, a), b in zip(old.items(), new.values(), strict=True):
            found = _changed(a, b, f"{path}.{key}" if path else str(key))
            if found is not None:
                return found
        return None
    if isinstance(old, list) and isinstance(new, list):
        if len(old) != len(new):
            return path, f"a list of {len(old)} items before the edit, {len(new)} after"
        for index, (a, b) in enumerate(zip(old, new, strict=True)):
            found = _changed(a, b, f"{path}[{index}]")
            if found is not None:
                return found
        return None
    if type(old) is not type(new):
        return path, f"a {type(old).__name__} would become a {type(new).__name__}"
    return None
