"""A held path's name reached through a variable set on another line (break-it round 19, finding 9).

sweep/held_paths.py holds a path token and a bare word a file joins into a path (`hosts/${h}/`,
sweep/held_words.py). Where the word is a variable's value and the path is built from that
variable somewhere else in the file, neither sees it:

* Python `HOST = "pug"` read by `os.path.join(BASE, HOST, "app.conf")` (`BASE = "hosts"`), a list
  `parts = ["hosts", "pug", "app.conf"]` read by `os.sep.join(parts)` or `os.path.join(*parts)`,
  an f-string `f"{BASE}/{HOST}/app.conf"`; Go `host := "pug"` with `filepath.Join(...)`, Node
  `const host = "pug"` with `path.join(...)`, Ruby `File.join(...)`;
* shell `name=pug` read by `cat "$dir/$name/app.conf"` (`dir=hosts`), make's `$(HOST)`, a loop's
  variable (`for h in pug rex; do ... "$HOSTS_DIR/$h/..."`, Python's and Jinja's `for`);
* Ansible `vars: {node: pug}` read by `playbook_dir ~ '/../hosts/' ~ node ~ '/app.conf'`, or
  `'hosts/{{ node }}/app.conf'`.

Each composition on a line naming the variable is rebuilt with the file's literal assignments put
in (a value not known, `playbook_dir`, `os.getcwd()`, roots the path nowhere: only its tail is
matched); where the path it makes is a held one whose components hold the word, the word's
occurrence in the assignment is the held path's name. Pure: bytes and a resolver in, a note out.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from renamer import lazy_re

_NAME = rb"[A-Za-z_][A-Za-z0-9_]*"
# `HOST = "pug"`, `host := "pug"`, `const host = 'pug'`, `name=pug`, `export NAME=pug`, `node: pug`,
# make's `HOST ?= pug`: a variable and its literal value on one line.
_ASSIGN = lazy_re.compile(rb"(?:^|(?<=[\s{,;(]))(?:(?:export|local|const|let|var|set)[ \t]+)?"
                     rb"(?P<var>" + _NAME + rb")[ \t]*(?::=|\?=|(?<![=!<>])=(?!=)|:(?=[ \t]))[ \t]*"
                     rb"(?P<q>[\"']?)(?P<value>[A-Za-z0-9._/~@+-]*)(?P=q)(?=[ \t]*(?:[,;}\])#]|\r?$|$))",
                     re.MULTILINE)
# `parts = ["hosts", "pug", "app.conf"]`: a list of literals.
_LIST = lazy_re.compile(rb"(?:^|(?<=[\s{,;(]))(?:const[ \t]+|let[ \t]+|var[ \t]+)?(?P<var>" + _NAME
                   + rb")[ \t]*(?::=|=|:)[ \t]*\[(?P<items>[^\[\]\n]*)\]", re.MULTILINE)
# `for h in pug rex; do`, `for h in ["pug", "rex"]:`, `{% for h in ['pug'] %}`: a loop variable.
_FOR = lazy_re.compile(
    rb"(?<![A-Za-z0-9_])for[ \t]+(?P<var>" + _NAME + rb")[ \t]+in[ \t]+(?P<items>[^;\n%:]*)")
_STRING = lazy_re.compile(rb"\"([^\"\n]*)\"|'([^'\n]*)'")
# A reference inside a string: `$x`, `${x}`, `$(X)` (make), `{x}` (f-string, format), `{{ x }}`.
_REFERENCE = re.compile(rb"\$\{(?P<a>" + _NAME + rb")\}|\$\((?P<b>" + _NAME + rb")\)|\$(?P<c>" + _NAME
                        + rb")|\{\{[ \t]*(?P<d>" + _NAME + rb")[ \t]*\}\}|\{(?P<e>" + _NAME + rb")\}")
_JOIN_CALL = lazy_re.compile(
    rb"(?:os\.path\.join|path\.join|filepath\.Join|path\.Join|File\.join|Path\.Combine"
                        rb"|Paths\.get|Path\.of|joinpath|(?<![A-Za-z0-9_.])Path|path\.resolve)[ \t]*\(")
_SEP_JOIN = lazy_re.compile(rb"(?:os\.sep|[\"']/[\"'])\.join\([ \t]*(?P<var>" + _NAME + rb")[ \t]*\)")
_PIECE = rb"(?:\"[^\"\n]*\"|'[^'\n]*'|[A-Za-z_][A-Za-z0-9_.]*)"
_CONCAT = lazy_re.compile(rb"(?<![A-Za-z0-9_.\"'])" + _PIECE + rb"(?:[ \t]*[~+][ \t]*" + _PIECE + rb")+")
_BARE = lazy_re.compile(rb"[^\s\"'`;|&<>]+")
_LONGEST = 4096  # a longer line is not read for compositions (a minified file, a hostile line)
_UNKNOWN = "\0"  # a piece whose value the file does not give
Resolve = Callable[[str, str], str | None]  # (the file, a path written there) -> the held path it names


def _values(data: bytes) -> tuple[dict[str, str], dict[str, list[str]]]:
    scalars: dict[str, str] = {}
    for found in _ASSIGN.finditer(data):
        value = found.group("value").decode("utf-8", "surrogateescape")
        scalars.setdefault(found.group("var").decode(), value)
    lists: dict[str, list[str]] = {}
    for found in _LIST.finditer(data):
        items = [(m.group(1) if m.group(1) is not None else m.group(2)).decode("utf-8", "surrogateescape")
                 for m in _STRING.finditer(found.group("items"))]
        if items:
            lists.setdefault(found.group("var").decode(), items)
    return scalars, lists


def _expand(text: str, scalars: dict[str, str]) -> str:
    def put(found: re.Match[str]) -> str:
        name = next(g for g in found.groups() if g is not None)
        return scalars.get(name, _UNKNOWN)
    return re.sub(_REFERENCE.pattern.decode(), put, text)


def _piece(raw: str, scalars: dict[str, str], lists: dict[str, list[str]]) -> str:
    raw = raw.strip()
    if raw[:1] in "\"'" and raw[-1:] == raw[:1] and len(raw) >= 2:
        return _expand(raw[1:-1], scalars)
    if raw.startswith("*") and raw[1:] in lists:
        return "/".join(lists[raw[1:]])
    name = raw.rpartition(".")[2] if raw.startswith(("local.", "var.")) else raw
    return scalars.get(name, _UNKNOWN)


def _path(pieces: list[str]) -> str | None:
    """The path pieces make (`{}/`-rooted after a value not known, its leading `..` dropped)."""
    text = "/".join(p.strip("/") for p in pieces if p.strip("/"))
    cut = text.rfind(_UNKNOWN)
    rooted = cut >= 0
    if rooted:
        text = text[cut + 1:]
    parts = [p for p in text.split("/") if p not in ("", ".")]
    while rooted and parts and parts[0] == "..":
        parts.pop(0)
    if len(parts) < 2:
        return None
    return ("{}/" if rooted else "") + "/".join(parts)


def _split_args(text: str) -> list[str]:
    out, depth, start = [], 0, 0
    for i, c in enumerate(text):
        if c in "([{":
            depth += 1
        elif c in ")]}":
            if depth == 0:
                out.append(text[start:i])
                return out
            depth -= 1
        elif c == "," and depth == 0:
            out.append(text[start:i])
            start = i + 1
    out.append(text[start:])
    return out


def compositions(line: bytes, scalars: dict[str, str], lists: dict[str, list[str]]) -> list[str]:
    """The paths the line builds, the file's literal assignments put in."""
    text = line.decode("utf-8", "surrogateescape")
    out: list[str] = []
    for found in _JOIN_CALL.finditer(line):
        args = _split_args(text[found.end():])
        out.append(_path([_piece(a, scalars, lists) for a in args if a.strip()]) or "")
    for found in _SEP_JOIN.finditer(line):
        items = lists.get(found.group("var").decode())
        if items:
            out.append(_path(items) or "")
    for found in _CONCAT.finditer(line):
        pieces = re.split(r"[ \t]*[~+][ \t]*", found.group().decode("utf-8", "surrogateescape"))
        out.append(_path([_piece(p, scalars, lists) for p in pieces]) or "")
    for found in _STRING.finditer(line):
        quoted = found.group(1) if found.group(1) is not None else found.group(2)
        inner = quoted.decode("utf-8", "surrogateescape")
        if "/" in inner and _REFERENCE.search(found.group()):
            out.append(_path([_expand(inner, scalars)]) or "")
    for word in _BARE.finditer(line) if b"$" in line else ():  # an unquoted `$dir/$name/x`
        if b"/" in word.group() and b"$" in word.group():
            out.append(_path([_expand(word.group().decode("utf-8", "surrogateescape"), scalars)]) or "")
    return [p for p in out if p]


def variable_of(data: bytes, start: int, end: int) -> str | None:
    """The variable whose literal value (or an item of whose list of literals) is data[start:end]."""
    line_start = data.rfind(b"\n", 0, start) + 1
    line_end = data.find(b"\n", end)
    line = data[line_start:len(data) if line_end < 0 else line_end]
    at, stop = start - line_start, end - line_start
    for found in _ASSIGN.finditer(line):
        if found.start("value") == at and found.end("value") == stop:
            return found.group("var").decode()
    for found in (*_LIST.finditer(line), *_FOR.finditer(line)):
        if found.start("items") <= at and stop <= found.end("items"):
            return found.group("var").decode()
    return None


def held_by_variable(rel: str, data: bytes, start: int, end: int, word: str,
                     resolve: Callable[[str, str], str | None]) -> tuple[str, str, int] | None:
    """(the held path, the variable, the 1-based line that joins it) where the word at [start,
    end) is a variable's value that a path composition of the file puts into a held path."""
    var = variable_of(data, start, end)
    if var is None:
        return None
    read = _read(data)
    key = (rel, var, word, resolve)  # the function itself: an id may be reused once it is gone
    if key not in read.found:  # the same for every line setting the variable to the word
        read.found[key] = _held(rel, read, var, word, resolve)
    return read.found[key]


def _held(rel: str, read: _Read, var: str, word: str,
          resolve: Callable[[str, str], str | None]) -> tuple[str, str, int] | None:
    scalars, lists = read.scalars, read.lists
    if scalars.get(var) != word and var not in lists:
        scalars = {**scalars, var: word}  # the value at this line (a variable set twice, a loop's)
    for number in read.uses(var):
        line = read.lines[number - 1]
        for path in compositions(line, scalars, lists):
            target = resolve(rel, path)
            if target is not None and any(word in part for part in target.split("/")):
                return target, var, number
    return None


class _Read:
    """One file's assignments and lines, and the lines naming each variable asked about."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.scalars, self.lists = _values(data)
        self.lines = data.split(b"\n")
        self._uses: dict[str, list[int]] = {}
        self.found: dict[tuple[str, str, str, Resolve], tuple[str, str, int] | None] = {}

    def uses(self, var: str) -> list[int]:
        if var not in self._uses:
            name = re.compile(rb"(?<![A-Za-z0-9_])" + re.escape(var.encode()) + rb"(?![A-Za-z0-9_])")
            self._uses[var] = [n for n, line in enumerate(self.lines, start=1)
                               if len(line) <= _LONGEST and name.search(line) is not None]
        return self._uses[var]


_LAST: list[_Read] = []  # the file read last: its words are asked about one after another


def _read(data: bytes) -> _Read:
    if not _LAST or _LAST[0].data is not data:
        _LAST[:] = [_Read(data)]
    return _LAST[0]
