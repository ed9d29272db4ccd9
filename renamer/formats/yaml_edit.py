"""Edits of an allowlist file that keep every other byte: comments, order, quoting, indentation.

Two edits only: remove list entries by name (`audit --prune`) and append one
(`sweep --interactive` writes a keep rule). ruamel.yaml's round-trip parser
says where each entry starts; the edit itself is made on the lines, so nothing
else is re-emitted. The result is parsed again and compared with what was
asked: an edit that would change anything else is refused, never written.
"""

from __future__ import annotations

import io
import json
from collections.abc import Mapping
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.error import YAMLError

from renamer.errors import ConfigError


def remove_entries(text: str, display: str, names: Mapping[str, set[str]]) -> str:
    """`text` without the entries of each top-level list (`keep`, `records`) whose `name` is given;
    a list left empty goes with its key. An entry's own comment lines above it go with it."""
    lines, data = _parse(text, display)
    expected = _plain(data)
    drop: set[int] = set()
    for key, wanted in names.items():
        entries = data.get(key)
        if not isinstance(entries, CommentedSeq) or not entries:
            continue
        starts = _entry_starts(lines, entries, display, key)
        chosen = [i for i, e in enumerate(entries) if isinstance(e, CommentedMap) and e.get("name") in wanted]
        for index in chosen:
            first = _own_comments(lines, starts[index])
            drop.update(range(first, _entry_end(lines, starts[index])))
        expected[key] = [e for i, e in enumerate(expected[key]) if i not in chosen]
        if len(chosen) == len(entries):
            key_line = int(data.lc.key(key)[0])
            drop.add(key_line)
            del expected[key]
    edited = "".join(line for number, line in enumerate(lines) if number not in drop)
    return _checked(edited, expected, display)


def append_entry(text: str, display: str, key: str, entry: dict[str, str]) -> str:
    """`text` with `entry` appended to the top-level list at `key` (created at the end when missing),
    in the list's own indentation."""
    lines, data = _parse(text, display)
    expected = _plain(data)
    entries = data.get(key)
    if entries is not None and not isinstance(entries, CommentedSeq):
        raise ConfigError(f"{display}: cannot add to `{key}`: it is not a list")
    if entries:
        starts = _entry_starts(lines, entries, display, key)
        indent = len(lines[starts[-1]]) - len(lines[starts[-1]].lstrip(" "))
        at = _entry_end(lines, starts[-1])
        new = _rendered(entry, indent)
    else:
        if entries is not None:  # `keep: []`: replace the empty flow list
            raise ConfigError(f"{display}: cannot add to `{key}: []` without rewriting it; "
                              f"write the rule below by hand")
        at = len(lines)
        new = [f"{key}:\n", *_rendered(entry, 2)]
    if at > 0 and not lines[at - 1].endswith("\n"):
        lines[at - 1] += "\n"
    newline = "\r\n" if "\r\n" in text else "\n"
    edited = "".join(lines[:at] + [line.replace("\n", newline) for line in new] + lines[at:])
    expected[key] = [*expected.get(key, []), entry]
    return _checked(edited, expected, display)


def _parse(text: str, display: str) -> tuple[list[str], CommentedMap]:
    try:
        data = YAML(typ="rt").load(text.lstrip("\ufeff"))
    except (YAMLError, ValueError) as exc:
        raise ConfigError(f"{display}: cannot edit: invalid YAML: {str(exc).splitlines()[0]}") from None
    if data is None:
        data = CommentedMap()
    if not isinstance(data, CommentedMap):
        raise ConfigError(f"{display}: cannot edit: expected a mapping at the top")
    return text.splitlines(keepends=True), data


def _entry_starts(lines: list[str], entries: CommentedSeq, display: str, key: str) -> list[int]:
    """The line of each entry's dash; a flow list (`[...]`) is not edited by line."""
    if entries.fa.flow_style():
        raise ConfigError(f"{display}: `{key}` is a flow list ([...]); edit it by hand")
    starts = []
    for index in range(len(entries)):
        line = int(entries.lc.item(index)[0])
        while line > 0 and not lines[line].lstrip(" ").startswith("-"):
            line -= 1  # `-` alone on its line, the mapping below it
        starts.append(line)
    return starts


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _blank_or_comment(line: str) -> bool:
    stripped = line.strip()
    return not stripped or stripped.startswith("#")


def _entry_end(lines: list[str], start: int) -> int:
    """The line after an entry: the next line at or left of its dash that is no comment, less
    the comment and blank lines just above it (they belong to what follows)."""
    column = _indent(lines[start])
    end = start + 1
    while end < len(lines) and (_blank_or_comment(lines[end]) or _indent(lines[end]) > column):
        end += 1
    while end - 1 > start and _blank_or_comment(lines[end - 1]):
        end -= 1
    return end


def _own_comments(lines: list[str], start: int) -> int:
    """The first of the comment lines directly above an entry (no blank line between)."""
    first = start
    while first > 0 and lines[first - 1].strip().startswith("#") and \
            _indent(lines[first - 1]) >= _indent(lines[start]):
        first -= 1
    return first


def _rendered(entry: dict[str, str], indent: int) -> list[str]:
    """`entry` as a block list item at `indent`, its values quoted as YAML needs."""
    yaml = YAML(typ="rt")  # keeps the entry's key order (name first)
    yaml.width = 4096
    yaml.indent(mapping=2, sequence=2, offset=0)
    out = io.StringIO()
    yaml.dump(CommentedSeq([CommentedMap(entry)]), out)
    lines = out.getvalue().splitlines(keepends=True)
    return [" " * indent + line if line.strip() else line for line in lines]


def scalar(value: str) -> str:
    """`value` as one YAML flow scalar on one line, written by ruamel.yaml's emitter (quoted and
    escaped as YAML needs), safe inside `[...]` and as a block value alike: generated files are
    never built by pasting a repo's names into YAML text (adversarial B-22)."""
    if not value.isprintable():  # a newline, ESC, U+2028, a bidi control: escaped, never raw
        return json.dumps(value)  # a JSON string is a YAML double-quoted scalar, on one line
    yaml = YAML(typ="rt")
    yaml.width = 1 << 20  # never folded onto a second line
    out = io.StringIO()
    yaml.dump(CommentedSeq([value]), out)  # a block list: `- value`
    text = out.getvalue()
    body = text.removeprefix("- ").removesuffix("\n")
    if "\n" in body or body == text:  # a scalar the emitter would break over lines: quote it whole
        return _double_quoted(value)
    if body[:1] not in ("'", '"') and any(ch in body for ch in ",[]{}#"):
        return _double_quoted(value)  # plain in a block, not inside a flow list
    return body


def _double_quoted(value: str) -> str:
    yaml = YAML(typ="rt")
    yaml.width = 1 << 20
    yaml.default_style = '"'  # type: ignore[assignment]
    out = io.StringIO()
    yaml.dump(CommentedSeq([value]), out)
    body = out.getvalue().removeprefix("- ").removesuffix("\n")
    # a double-quoted scalar folded over lines reads back with spaces: JSON's string, which YAML
    # reads as the same double-quoted scalar, is one line whatever it holds
    return json.dumps(value) if "\n" in body else body


def _plain(data: Any) -> Any:
    """Round-trip values as plain dicts and lists, for comparing."""
    if isinstance(data, dict):
        return {k: _plain(v) for k, v in data.items()}
    if isinstance(data, list):
        return [_plain(v) for v in data]
    return data


def _checked(edited: str, expected: Any, display: str) -> str:
    try:
        again = _plain(YAML(typ="rt").load(edited.lstrip("\ufeff")))
    except (YAMLError, ValueError):
        again = None
    if again != expected:
        raise ConfigError(f"{display}: cannot make this edit without changing anything else; "
                          "edit it by hand")
    return edited
