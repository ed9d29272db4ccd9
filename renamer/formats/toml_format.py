"""TOML: key paths for references, and a structure check by tomllib (which refuses a key or
table declared twice).

tomllib gives values but no positions, so key paths come from a small reader of
TOML's lexical rules here (tables, arrays of tables, dotted and quoted keys,
inline tables, arrays, the four string forms, comments). It never decides an
edit: it only names where a reference stands, as YAML's key paths do.
"""

from __future__ import annotations

import bisect
import contextlib
import re
from collections.abc import Sequence

from renamer import lazy_re
from renamer.formats import data_formats
from renamer.formats.base import BaseFormat, Location

_TOKEN = lazy_re.compile(
    r'''
    (?P<nl>\r?\n)
    |(?P<ws>[ \t\ufeff]+)
    |(?P<comment>\#[^\n]*)
    |(?P<string>"""(?:[^\\]|\\.)*?"""|\'\'\'.*?\'\'\'|"(?:[^"\\\n]|\\.)*"|'[^'\n]*')
    |(?P<punct>[\[\]{}=,.])
    |(?P<bare>[^\s\[\]{}=,.\#"']+)
    ''',
    re.VERBOSE | re.DOTALL,
)
_PLAIN_KEY = lazy_re.compile(r"[A-Za-z0-9_-]+\Z")
_TIME = lazy_re.compile(r"\d\d:\d\d")  # the time of a date-time written with a space
Span = tuple[int, int, str, str]  # (start, end, key path, key|value)


class _Broken(ValueError):
    """The text stops being TOML here."""


def _join(path: str, key: str) -> str:
    if _PLAIN_KEY.match(key):
        return f"{path}.{key}" if path else key
    return f'{path}["{key}"]'


def _key_text(token: str) -> str:
    if token[:1] in "\"'":
        return token[1:-1]
    return token


class _Reader:
    def __init__(self, text: str) -> None:
        self.size = len(text)
        self.tokens = [(m.lastgroup or "", m.group(), m.start(), m.end()) for m in _TOKEN.finditer(text)]
        self.at = 0
        self.spans: list[Span] = []
        self.arrays: dict[tuple[str, ...], int] = {}  # array-of-tables path -> entries so far
        self.begun = 0  # where the statement being read began: what a break leaves unread
        self.parts: list[int] = []  # where each bare key part after a dot starts

    def peek(self) -> tuple[str, str, int, int]:
        while self.at < len(self.tokens) and self.tokens[self.at][0] in ("ws", "comment"):
            self.at += 1
        return self.tokens[self.at] if self.at < len(self.tokens) else ("end", "", self.size, self.size)

    def take(self, value: str | None = None) -> tuple[str, str, int, int]:
        token = self.peek()
        if token[0] == "end" or (value is not None and token[1] != value):
            raise _Broken(token[2])
        self.at += 1
        return token

    def document(self) -> list[Span]:
        table = ""
        while (token := self.peek())[0] != "end":
            self.begun = token[2]
            if token[0] == "nl":
                self.at += 1
            elif token[1] == "[":
                table = self.header()
            else:
                self.pair(table)
        return self.spans

    def keys(self) -> tuple[list[str], int, int]:
        """A dotted key's parts, and the span it covers."""
        parts, start, end = [], -1, -1
        while True:
            kind, text, begin, finish = self.take()
            if kind not in ("bare", "string") or text.startswith(('"""', "'''")):
                raise _Broken(begin)
            parts.append(_key_text(text))
            if start >= 0 and kind == "bare":
                self.parts.append(begin)
            start = begin if start < 0 else start
            end = finish
            if self.peek()[1] != ".":
                return parts, start, end
            self.take(".")

    def header(self) -> str:
        self.take("[")
        array = self.peek()[1] == "["
        if array:
            self.take("[")
        parts, start, end = self.keys()
        self.take("]")
        if array:
            self.take("]")
            self.arrays[tuple(parts)] = self.arrays.get(tuple(parts), 0) + 1
        path = ""
        for index, part in enumerate(parts):
            path = _join(path, part)
            count = self.arrays.get(tuple(parts[:index + 1]))
            if count:
                path += f"[{count - 1}]"
        self.spans.append((start, end, path, "key"))
        return path

    def pair(self, table: str) -> None:
        parts, start, end = self.keys()
        path = table
        for part in parts:
            path = _join(path, part)
        self.spans.append((start, end, path, "key"))
        self.take("=")
        self.value(path)

    def value(self, path: str) -> None:
        kind, text, start, end = self.peek()
        if text == "[":
            self.take()
            index = 0
            while self.peek()[0] == "nl":
                self.at += 1
            while self.peek()[1] != "]":
                self.value(f"{path}[{index}]")
                index += 1
                while self.peek()[0] == "nl":
                    self.at += 1
                if self.peek()[1] == ",":
                    self.take(",")
                    while self.peek()[0] == "nl":
                        self.at += 1
            self.take("]")
        elif text == "{":
            self.take()
            while self.peek()[1] != "}":
                self.pair(path)
                if self.peek()[1] == ",":
                    self.take(",")
            self.take("}")
        elif kind == "string":
            self.take()
            self.spans.append((start, end, path, "value"))
        elif kind == "bare":  # a number, date, boolean: bare words and dots (3.14, 1979-05-27 07:32:00)
            self.take()
            while self.peek()[1] == "." or (self.peek()[0] == "bare" and (
                    self.tokens[self.at - 1][1] == "." or _TIME.match(self.peek()[1]))):
                end = self.take()[3]
            self.spans.append((start, end, path, "value"))
        else:
            raise _Broken(start)


def locate(text: str, offsets: Sequence[int]) -> list[Location] | None:
    """(key path, role) for each character offset; None when the TOML breaks before the last one."""
    reader = _Reader(text)
    try:
        spans = reader.document()
    except (_Broken, RecursionError):
        if reader.begun <= max(offsets, default=0):
            return None
        spans = reader.spans
    spans.sort()
    starts = [s[0] for s in spans]
    out: list[Location] = []
    for offset in offsets:
        index = bisect.bisect_right(starts, offset) - 1
        if index >= 0 and spans[index][0] <= offset < spans[index][1]:
            out.append((spans[index][2] or None, spans[index][3]))
            continue
        line_start = text.rfind("\n", 0, offset) + 1
        out.append((None, "comment" if "#" in text[line_start:offset] else "other"))
    return out


def name_starts(data: bytes) -> list[int]:
    """Byte offsets of the bare key parts that follow a dot (`[servers.ana-ml2]`,
    `a.ana-ml2 = 1`): a name starts there, the dot is TOML's (name_starts.py). Up to where the
    TOML breaks, if it does."""
    text = data.decode("utf-8", "surrogateescape")
    reader = _Reader(text)
    with contextlib.suppress(_Broken, RecursionError):  # the parts read before a break stand
        reader.document()
    if text.isascii():
        return reader.parts
    return [len(text[:part].encode("utf-8", "surrogateescape")) for part in reader.parts]


class Toml(BaseFormat):
    name = "toml"
    structured = True
    joins_indent = True  # a line-ending backslash in a basic string trims up to the next non-blank
    keys = True
    checks_edits = True
    needs_edits = True
    suffixes = (".toml",)

    def locate(self, text: str, offsets: Sequence[int]) -> list[Location] | None:
        return locate(text, offsets)

    def edit_problem(self, before: str, after: str) -> str | None:
        return data_formats.edit_problem("toml", before, after)

    def name_starts(self, data: bytes) -> list[int]:
        return name_starts(data)


FORMAT = Toml()
