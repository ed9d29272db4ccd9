"""Mapping keys by path, read by line: YAML (block and flow), JSON, TOML, INI sections, HCL.

`net:\\n  hosts:\\n    pug: {ip: ...}` names the key path `net.hosts.pug`; so do
`{"net": {"hosts": {"pug": ...}}}`, TOML's `[net.hosts.pug]` and `net.hosts.pug.ip = ...`,
an INI section `[pug]` (`pug`) and Terraform's `locals { hosts = { pug = {...} } }`
(`local.hosts.pug`, as Terraform reads it) or `variable "hosts" { default = { pug = ... } }`
(`var.hosts.pug`; a `.tfvars` file's keys are the caller's to put under `var`).
A reference elsewhere (`{{ net.hosts.pug.ip }}`, `var.hosts["pug"]`, renamer/key_refs.py) is
compared with these paths (renamer/sweep/key_index.py). One reader for every keyed dialect,
by line and bracket, because the files that matter often hold templates no parser reads
(a group_vars file with `{{ }}` values, a `.tf` file) and only paths and lines are wanted.
Pure: text in, paths out.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Collection
from dataclasses import dataclass, field
from typing import Literal

from renamer import lazy_re

Dialect = Literal["yaml", "toml", "ini", "hcl"]

_PART = r"""(?:"(?:[^"\\\n]|\\.)*"|'[^'\n]*'|[A-Za-z0-9_$][\w$\-]*)"""
# A key: one part, or parts joined by dots (a TOML or HCL dotted key: `a."pug".b`, `a.b`).
_KEY = re.compile(rf"""(?P<key>{_PART}(?:[ \t]*\.[ \t]*{_PART})*)[ \t]*"""
                  r"""(?P<sep>:(?=[ \t]|$|[{\[])|=(?![=~>]))""")
_PARTS = lazy_re.compile(_PART)
_SECTION = lazy_re.compile(r"[ \t]*\[\[?[ \t]*(?P<key>[^\[\]\n]+?)[ \t]*\]\]?[ \t]*(?:[#;].*)?$")
# An HCL block header: `locals {`, `variable "hosts" {`, `resource "a" "b" {`.
_BLOCK = lazy_re.compile(r"""(?P<type>[A-Za-z_][\w-]*)(?P<labels>(?:[ \t]+"[^"\n]*")*)[ \t]*\{""")
_STRING = lazy_re.compile(r""""(?:[^"\\\n]|\\.)*"?|'[^'\n]*'?""")
_BLOCK_SCALAR = lazy_re.compile(r"[|>][+-]?\d*[ \t]*(?:#.*)?$")
# Where a flow value ends: `,`, a closing bracket, a comment.
_FLOW_VALUE = lazy_re.compile(r"""[^,{}\[\]"'#\n]*""")


@dataclass(frozen=True)
class KeyDef:
    """A mapping key whose last part is one of the names asked for: its path and 1-based line."""

    path: tuple[str, ...]
    line: int


@dataclass
class _Frame:
    parts: tuple[str, ...]  # () for an anonymous object; `[]` for a list or its item
    kind: Literal["indent", "brace"]
    indent: int = 0
    variable: bool = False  # an HCL `variable "x" {` block: its `default` adds no part


@dataclass
class _State:
    base: tuple[str, ...] = ()
    stack: list[_Frame] = field(default_factory=list)
    scalar_indent: int | None = None  # inside a YAML block scalar (`key: |`) indented past this


def key_defs(text: str, dialect: Dialect, names: Collection[str]) -> list[KeyDef]:
    """Every key of `text` whose last path part is in `names`, with its path and line."""
    return _read(key_text(text, names), dialect, names)


def key_defs_in(region: str, dialect: Dialect, names: Collection[str]) -> list[KeyDef]:
    """`key_defs` of a region `key_text` already cut: the cut is not made twice (review finding 7)."""
    return _read(region, dialect, names)


def _read(text: str, dialect: Dialect, names: Collection[str]) -> list[KeyDef]:
    """key_defs' reader, line by line over all of `text` (the reference the cut is tested on)."""
    state = _State()
    out: list[KeyDef] = []
    for number, raw in enumerate(text.split("\n"), start=1):
        line = raw.rstrip("\r")
        stripped = line.strip()
        indent = len(line) - len(line.lstrip(" \t"))
        if state.scalar_indent is not None:
            if not stripped or indent > state.scalar_indent:
                continue
            state.scalar_indent = None
        if not stripped or stripped[:1] == "#" or stripped[:2] == "//" or (
                dialect == "ini" and stripped[:1] == ";"):
            continue
        braces_open = any(f.kind == "brace" for f in state.stack)
        if dialect in ("toml", "ini") and not braces_open:
            section = _SECTION.match(line)
            if section is not None:
                state.base = _parts(section.group("key"), dialect)
                state.stack = []
                if state.base and state.base[-1] in names:
                    out.append(KeyDef(state.base, number))
                continue
        if dialect == "yaml" and not braces_open:
            while state.stack and state.stack[-1].kind == "indent" and state.stack[-1].indent >= indent:
                state.stack.pop()
        _line(line, indent, number, dialect, names, state, out)
    return out


def key_text(text: str, names: Collection[str]) -> str:
    """The lines of `text` that `key_defs` must read to find every key named by one of `names`:
    up to the last line where a name may stand as a key (`_key_spots`), "" where none does; a
    UTF-8 BOM left out (it is no part of the first key: break-it round 6, finding 8).

    The reader goes forward only, so its answer for the lines it reads is the same without
    those after; and a file where no name stands where a key's last part may (most of the files
    a name occurs in hold it as a value: `host: pug`, `http://pug:80`) has no key of that name,
    and is not read at all (issue 30: the key index read every line of every file holding a name).
    """
    if text.startswith("\ufeff"):
        text = text[1:]
    spots = _key_spots(tuple(sorted(names)))
    if spots is None:
        return text
    key, section = spots
    last = -1
    pos = 0
    while (found := key.search(text, pos)) is not None:
        start = found.start()
        pos = start + 1  # a name inside this one may stand as a key where this one cannot
        if start == 0 or text[start - 1] not in _PART_START:
            last = max(last, found.end())
    for found in section.finditer(text):
        last = max(last, found.end())
    if last < 0:
        return ""
    end = text.find("\n", last)
    return text if end < 0 else text[:end]


_PART_START = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_$")


@functools.lru_cache(maxsize=8)
def _key_spots(names: tuple[str, ...]) -> tuple[re.Pattern[str], re.Pattern[str]] | None:
    """Where one of `names` may stand as the last part of a key, a superset of what `_line` and
    the section rule record (None: no name to look for, test every line): a name at no character
    that starts a bare part (`_PART_START`, tested by the caller: a part starts after a space,
    `,`, `{`, `[`, `.`, a quote or the line's start, and one found in a section by
    `_PARTS.findall` after any other character), before none a bare part goes on with, then an
    optional closing quote and a key's separator as `_KEY` has it (`:` before a space, a
    bracket, the line's end; `=` not `==`, `=~`, `=>`); or a name anywhere inside a section's
    brackets (one or two), on a line that starts them (a TOML section's last part may stand before any
    character that is no part: `[a.pug/]`). The first pattern starts with the names, so that
    the regex engine skips to them (a look-behind first would try every position)."""
    if not names or "" in names:
        return None
    alternatives = "(?:" + "|".join(re.escape(n) for n in names) + r")(?![\w$\-])"
    key = re.compile(alternatives + r"""["']?[ \t]*(?::(?=[ \t{\[\r]|$)|=(?![=~>]))""", re.M)
    # the closing `]` first: a `[pug pug ...` line with none fails once, not once a name (review finding 7)
    section = re.compile(r"^[ \t]*\[\[?(?=[^\[\]\n]*\])[^\[\]\n]*(?<![A-Za-z0-9_$])"
                         + alternatives + r"[^\[\]\n]*\]", re.M)
    return key, section


def _parts(key: str, dialect: Dialect) -> tuple[str, ...]:
    """A key's path parts: TOML and HCL split a bare dotted key (`a.b = 1`); YAML, JSON, INI keep it."""
    if dialect in ("toml", "hcl"):
        return tuple(_unquote(p) for p in _PARTS.findall(key))
    return (_unquote(key),)


def _unquote(part: str) -> str:
    return part[1:-1] if len(part) >= 2 and part[0] == part[-1] and part[0] in "'\"" else part


def _flow(state: _State) -> bool:
    return any(f.kind == "brace" for f in state.stack)


def _line(line: str, indent: int, number: int, dialect: Dialect, names: Collection[str],
          state: _State, out: list[KeyDef]) -> None:
    pos = indent
    flow = _flow(state)
    expect_key = True  # a line starts with a key; so does what follows `,` or `{`
    while pos < len(line):
        char = line[pos]
        if char in " \t":
            pos += 1
        elif char == ",":
            expect_key, pos = True, pos + 1
        elif char == "#" or line.startswith("//", pos):
            return
        elif dialect == "yaml" and not flow and (line.startswith("- ", pos) or line[pos:] == "-"):
            state.stack.append(_Frame(("[]",), "indent", pos))  # a list item: `x[0].key` reads its keys
            pos += 2
        elif char in "{[":
            state.stack.append(_Frame(("[]",) if char == "[" else (), "brace"))
            flow, expect_key, pos = True, True, pos + 1
        elif char in "}]":
            while state.stack and state.stack.pop().kind != "brace":
                pass
            flow, expect_key, pos = _flow(state), False, pos + 1
        elif dialect == "hcl" and expect_key and (block := _BLOCK.match(line, pos)) is not None \
                and _KEY.match(line, pos) is None:
            labels = re.findall(r'"([^"\n]*)"', block.group("labels"))
            kind = block.group("type")
            # `var.x` reads a variable's default (and the tfvars' x), `local.x` a locals block's x
            parts = (("var", labels[0]) if kind == "variable" and labels
                     else ("local",) if kind == "locals" else (f"<{kind}>",))
            state.stack.append(_Frame(parts, "brace", variable=kind == "variable"))
            flow, expect_key, pos = True, True, block.end()
        elif expect_key and (found := _KEY.match(line, pos)) is not None:
            pos = _key(line, found, indent, number, dialect, names, state, out)
            if pos < 0:
                return
            flow, expect_key = _flow(state), pos < len(line) and line[pos - 1] == "{"
        elif not flow:
            return  # a block value runs to the line's end
        else:
            pos, expect_key = _skip_value(line, pos), False


def _key(line: str, found: re.Match[str], indent: int, number: int, dialect: Dialect,
         names: Collection[str], state: _State, out: list[KeyDef]) -> int:
    """Record the key `found`, open what its value opens; where to go on, or -1: the line is done."""
    parts = _parts(found.group("key"), "yaml" if dialect == "ini" else dialect)
    parent = state.stack[-1] if state.stack else None
    if parent is not None and parent.variable and parts == ("default",):
        parts = ()  # `variable "hosts" { default = {...} }`: var.hosts is the default
    path = (*_path(state), *parts)
    if parts and parts[-1] in names:
        out.append(KeyDef(path, number))
    pos = found.end()
    while pos < len(line) and line[pos] in " \t":
        pos += 1
    rest = line[pos:]
    if rest[:1] == "{":
        state.stack.append(_Frame(parts, "brace"))
        return pos + 1
    if rest[:1] == "[":
        state.stack.append(_Frame((*parts, "[]"), "brace"))
        return pos + 1
    flow = _flow(state)
    if dialect == "yaml" and not flow:
        if not rest or rest.startswith("#"):
            state.stack.append(_Frame(parts, "indent", found.start() if found.start() > indent else indent))
        elif _BLOCK_SCALAR.match(rest):
            state.scalar_indent = indent
        return -1
    if not flow:
        return -1
    return _skip_value(line, pos)


def _path(state: _State) -> tuple[str, ...]:
    return (*state.base, *(p for f in state.stack for p in f.parts))


def _skip_value(line: str, pos: int) -> int:
    """Past one value inside a flow: a quoted string, or up to the next `,`, bracket or comment."""
    string = _STRING.match(line, pos)
    if string is not None and string.end() > pos:
        return string.end()
    value = _FLOW_VALUE.match(line, pos)
    end = value.end() if value is not None else pos
    return end if end > pos else pos + 1
