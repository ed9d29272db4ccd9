"""Terraform `for_each` instance keys, read from one `.tf` file (issue 27, the last class).

`resource "terraform_data" "x" { for_each = toset(["pug"]) }` declares the instance
`terraform_data.x["pug"]`; the plain rules rename the string `"pug"`, which renames the instance:
terraform plans a destroy and a create. This module says where such keys are written: the
`for_each` expression of a `resource`, `data` or `module` block (a list or set literal, a map
literal's keys, or the `local.` / `var.` it reads), the `locals` and `variable` defaults and the
module arguments an expression may name, and every reference by key (`terraform_data.x["pug"]`,
`module.m["pug"].out`, `data.t.d["pug"]`), with the spans of `moved`/`removed` blocks, whose
addresses are history. What moves is renamer/sweep/terraform_keys.py's business. Pure: bytes
in, spans out.
"""

from __future__ import annotations

import bisect
import functools
import re
from dataclasses import dataclass

from renamer import lazy_re
from renamer.hcl_blocks import _HEADER, _HEREDOC, _LABEL, _TAIL, _attributes, structure

__all__ = ["structure"]

_FOR_EACH = b"for_each"
_WRAPPER = lazy_re.compile(rb"(?:toset|tolist)[ \t]*\([ \t\r\n]*")
_SOURCE = lazy_re.compile(rb"(?P<root>local|var)[ \t]*\.[ \t]*(?P<name>[A-Za-z_][\w-]*)")
# `{ for k, v in var.vms : k => v if v.enabled }`: the source's own keys, some filtered out. A
# `moved` block for a key the filter drops names no object and changes nothing, so the keys
# are decided as the source's are. Any other key expression (`v.name => v`) is not read.
_KEY_FILTER = lazy_re.compile(
    rb"\{[ \t\r\n]*for[ \t]+(?P<k>[A-Za-z_][\w-]*)[ \t]*,[ \t]*[A-Za-z_][\w-]*[ \t]+in[ \t]+"
    rb"(?P<root>local|var)[ \t]*\.[ \t]*(?P<name>[A-Za-z_][\w-]*)[ \t\r\n]*:[ \t\r\n]*(?P=k)[ \t]*=>"
)
_QUOTED = lazy_re.compile(rb'"(?P<text>[^"\\$%\r\n]*)"')
_BARE = lazy_re.compile(rb"[A-Za-z_][\w-]*")
_BLANK = lazy_re.compile(rb"(?:[ \t\r\n,]|#[^\n]*|//[^\n]*|/\*.*?\*/)*", re.S)
# `terraform_data.x["pug"]`, `data.t.d["pug"]`, `module.m["pug"]` (quotes escaped in a .tf.json string)
INDEXED = lazy_re.compile(
    rb"(?<![\w.-])(?P<address>(?:data[ \t]*\.[ \t]*)?[A-Za-z_][\w-]*[ \t]*\.[ \t]*[A-Za-z_][\w-]*)"
    rb'[ \t]*\[[ \t]*\\?"(?P<key>[^"\\\r\n]*)\\?"[ \t]*\]'
)
_NOT_ADDRESSES = frozenset({"local", "var", "each", "count", "path", "self", "terraform"})


@dataclass(frozen=True)
class Looped:
    """A `resource`, `data` or `module` block with a `for_each`: its address, where its
    expression stands, its body, and where a block after it goes (as hcl_blocks.Label's)."""

    kind: str
    type: str
    name: str
    line: int
    expr: tuple[int, int]
    body: tuple[int, int]
    close: int
    indent: bytes = b""
    newline: bytes = b"\n"

    @property
    def address(self) -> str:
        return {"resource": f"{self.type}.{self.name}", "data": f"data.{self.type}.{self.name}"}.get(
            self.kind, f"module.{self.name}"
        )


@dataclass(frozen=True)
class Keys:
    """What a `for_each` expression gives: its literal keys (each with its span inside its
    quotes, or a map's bare key), or the `local.X` / `var.X` it reads whole, else neither."""

    items: tuple[tuple[str, int, int], ...] | None = None
    source: tuple[str, str] | None = None  # ("local" | "var", name)


@dataclass(frozen=True)
class Reference:
    address: str
    key: str
    start: int  # the key's span, inside its quotes
    end: int
    line: int


def _top_blocks(data: bytes) -> tuple[tuple[re.Match[bytes], int], ...]:
    """Every top-level block header and the offset just after its `}`."""
    return _parsed(data)[0]


@functools.lru_cache(maxsize=32)
def _parsed(data: bytes) -> tuple[tuple[tuple[re.Match[bytes], int], ...], dict[int, int]]:
    """The file parsed once (review finding 3: once a block made a module of N blocks quadratic):
    its top-level blocks, and `structure`'s closing bracket of each opening one. Callers read it."""
    depths, closes = structure(data)
    out = []
    line_start = 3 if data.startswith(b"\xef\xbb\xbf") else 0
    for depth in depths:
        if depth == 0:
            header = _HEADER.match(data, line_start)
            if header is not None:
                out.append((header, closes.get(header.end() - 1, len(data))))
        line_end = data.find(b"\n", line_start)
        if line_end < 0:
            break
        line_start = line_end + 1
    return tuple(out), closes


@functools.lru_cache(maxsize=32)
def line_starts(data: bytes) -> tuple[int, ...]:
    """The offset of each line's start, for `line_of` (bisect, not a count per offset)."""
    return (0, *(m.end() for m in re.finditer(rb"\n", data)))


def line_of(data: bytes, pos: int) -> int:
    """The 1-based line of offset `pos`."""
    return bisect.bisect_right(line_starts(data), pos)


def _labels(data: bytes, header: re.Match[bytes]) -> list[str]:
    return [
        m.group("label").decode("utf-8", "replace")
        for m in _LABEL.finditer(data, header.start("labels"), header.end("labels"))
    ]


def _body_attributes(data: bytes, header: re.Match[bytes], close: int) -> dict[str, tuple[int, int]]:
    """The attributes standing directly in a block's body: name -> its expression's span."""
    closes = _parsed(data)[1]
    opened = header.end() - 1
    out: dict[str, tuple[int, int]] = {}
    for attr in _attributes(data, opened + 1, close - 1, closes):
        out.setdefault(attr.group("key").decode(), (attr.end(), expression_end(data, attr.end(), close - 1)))
    return out


def looped(data: bytes) -> list[Looped]:
    """The file's `resource`, `data` and `module` blocks with a `for_each` argument."""
    out = []
    for header, close in _top_blocks(data):
        kind = header.group("type").decode()
        labels = _labels(data, header)
        if kind in ("resource", "data") and len(labels) >= 2:
            type_, name = labels[0], labels[1]
        elif kind == "module" and labels:
            type_, name = "", labels[0]
        else:
            continue
        found = _body_attributes(data, header, close).get(_FOR_EACH.decode())
        if found is None:
            continue
        line_end = data.find(b"\n", header.start())
        newline = b"\r\n" if line_end > 0 and data[line_end - 1 : line_end] == b"\r" else b"\n"
        tail = _TAIL.match(data, close)
        out.append(
            Looped(
                kind,
                type_,
                name,
                line_of(data, found[0]),
                found,
                (header.end(), close),
                tail.end() if tail is not None else close,
                data[header.start() : header.start("type")],
                newline,
            )
        )
    return out


def enclosing(data: bytes, pos: int) -> tuple[int, bytes, bytes] | None:
    """Where a block after the top-level block holding `pos` goes: after its `}` and a comment
    on that line; with its indent and newline."""
    for header, close in _top_blocks(data):
        if header.start() <= pos < close:
            tail = _TAIL.match(data, close)
            line_end = data.find(b"\n", header.start())
            newline = b"\r\n" if line_end > 0 and data[line_end - 1 : line_end] == b"\r" else b"\n"
            return (
                (tail.end() if tail is not None else close),
                data[header.start() : header.start("type")],
                newline,
            )
    return None


def declared(data: bytes) -> set[str]:
    """The addresses of the file's `resource`, `data` and `module` blocks, with or without `for_each`."""
    out = set()
    for header, _close in _top_blocks(data):
        kind = header.group("type").decode()
        labels = _labels(data, header)
        if kind in ("resource", "data") and len(labels) >= 2:
            out.add(f"{labels[0]}.{labels[1]}" if kind == "resource" else f"data.{labels[0]}.{labels[1]}")
        elif kind == "module" and labels:
            out.add(f"module.{labels[0]}")
    return out


def block_arguments(data: bytes, kind: str) -> dict[str, dict[str, tuple[int, int]]]:
    """For each top-level block of `kind` (`locals`, `variable`, `module`), by its first label
    ("" for `locals`), the spans of its arguments' expressions."""
    out: dict[str, dict[str, tuple[int, int]]] = {}
    for header, close in _top_blocks(data):
        if header.group("type").decode() != kind:
            continue
        labels = _labels(data, header)
        out.setdefault(labels[0] if labels else "", {}).update(_body_attributes(data, header, close))
    return out


def labelled_arguments(data: bytes, kind: str) -> dict[tuple[str, ...], dict[str, tuple[int, int]]]:
    """For each top-level block of `kind` (`resource`, `data`), by all its labels (`("aws_vpc",
    "main")`), the spans of its arguments' expressions."""
    out: dict[tuple[str, ...], dict[str, tuple[int, int]]] = {}
    for header, close in _top_blocks(data):
        if header.group("type").decode() != kind:
            continue
        out.setdefault(tuple(_labels(data, header)), {}).update(_body_attributes(data, header, close))
    return out


def history(data: bytes) -> list[tuple[int, int]]:
    """The spans of the `from` and `to` of `moved` blocks and the `from` of `removed` blocks:
    addresses before (or along) a move, kept on purpose."""
    out = []
    for header, close in _top_blocks(data):
        kind = header.group("type")
        if kind not in (b"moved", b"removed"):
            continue
        for name, span in _body_attributes(data, header, close).items():
            if name == "from" or (kind == b"moved" and name == "to"):
                out.append(span)
    return out


def moved_from(data: bytes) -> set[str]:
    """The addresses `moved` blocks move away from, blanks dropped (`x["pug"]`)."""
    out = set()
    for header, close in _top_blocks(data):
        if header.group("type") == b"moved":
            span = _body_attributes(data, header, close).get("from")
            if span is not None:
                out.add(re.sub(rb"\s+", b"", data[span[0] : span[1]]).decode("utf-8", "replace"))
    return out


def references(data: bytes) -> list[Reference]:
    """Every `ADDRESS["key"]` of a resource, data source or module (not of a local or variable)."""
    out = []
    for found in INDEXED.finditer(data):
        address = re.sub(rb"[ \t]+", b"", found.group("address")).decode()
        if address.split(".")[0] in _NOT_ADDRESSES:
            continue
        out.append(
            Reference(
                address,
                found.group("key").decode("utf-8", "replace"),
                found.start("key"),
                found.end("key"),
                line_of(data, found.start("key")),
            )
        )
    return out


def keys(data: bytes, start: int, end: int) -> Keys:
    """What the expression at [start, end) gives `for_each` (see `Keys`)."""
    pos = _BLANK.match(data, start, end).end()  # type: ignore[union-attr]
    wrapped = _WRAPPER.match(data, pos, end)
    if wrapped is not None:
        pos = wrapped.end()
        inner_end = _closing(data, data.index(b"(", wrapped.start()), end)
        if inner_end is None or data[inner_end + 1 : end].strip():
            return Keys()
        end = inner_end
    source = _SOURCE.match(data, pos, end)
    if source is not None and not data[source.end() : end].strip():
        return Keys(source=(source.group("root").decode(), source.group("name").decode()))
    opener = data[pos : pos + 1]
    if opener not in (b"[", b"{"):
        return Keys()
    close = _closing(data, pos, end)
    if close is None or data[close + 1 : end].strip():
        return Keys()
    filtered = _KEY_FILTER.match(data, pos, close)
    if filtered is not None and b"..." not in data[filtered.end() : close]:
        return Keys(source=(filtered.group("root").decode(), filtered.group("name").decode()))
    items = _entries(data, pos + 1, close, mapping=opener == b"{")
    return Keys(items=items) if items is not None else Keys()


def _entries(data: bytes, start: int, end: int, *, mapping: bool) -> tuple[tuple[str, int, int], ...] | None:
    """A list literal's quoted strings, or a map literal's keys (bare or quoted), with spans;
    None where an entry is anything else (a `for`, an interpolation, a computed key)."""
    out: list[tuple[str, int, int]] = []
    pos = start
    while True:
        pos = _BLANK.match(data, pos, end).end()  # type: ignore[union-attr]
        if pos >= end:
            return tuple(out)
        quoted = _QUOTED.match(data, pos, end)
        bare = _BARE.match(data, pos, end) if mapping else None
        if quoted is not None:
            out.append(
                (quoted.group("text").decode("utf-8", "replace"), quoted.start("text"), quoted.end("text"))
            )
            pos = quoted.end()
        elif bare is not None and bare.group() != b"for":
            out.append((bare.group().decode(), bare.start(), bare.end()))
            pos = bare.end()
        else:
            return None
        if mapping:
            assign = re.compile(rb"[ \t]*(?:=(?![=>])|:)").match(data, pos, end)
            if assign is None:
                return None
            pos = expression_end(data, assign.end(), end, stop=b",")


def _closing(data: bytes, pos: int, end: int) -> int | None:
    """The offset of the bracket closing the one at `pos` (strings skipped), before `end`."""
    stop = expression_end(data, pos, end, whole=True)
    return stop - 1 if stop <= end and data[stop - 1 : stop] in (b"]", b"}", b")") else None


def expression_end(data: bytes, pos: int, end: int, *, stop: bytes = b"", whole: bool = False) -> int:
    """Where the expression starting at `pos` ends: at a newline (or `stop`) outside brackets
    and strings, at a bracket closing one it did not open, or at `end`; `whole`: just after the
    bracket that closes the one at `pos`."""
    depth = 0
    i = pos
    while i < end:
        c = data[i : i + 1]
        if c == b'"':
            i = _string_end(data, i + 1, end)
            if whole and depth == 0:
                return i
            continue
        if c == b"<" and data.startswith(b"<<", i):
            marker = _HEREDOC.match(data, i, end)  # in place: no copy of the rest (review finding 10)
            if marker is not None:
                closing = re.compile(rb"^[ \t]*" + re.escape(marker.group(1)) + rb"[ \t]*\r?$", re.M).search(
                    data, marker.end(), end
                )
                i = end if closing is None else closing.end()
                continue
        if c == b"#" or data.startswith(b"//", i):
            newline = data.find(b"\n", i, end)
            i = end if newline < 0 else newline
            continue
        if c in (b"(", b"[", b"{"):
            depth += 1
        elif c in (b")", b"]", b"}"):
            if depth == 0:
                break
            depth -= 1
            if whole and depth == 0:
                return i + 1
        elif depth == 0 and (c == b"\n" or (stop and c == stop)):
            break
        i += 1
    while i > pos and data[i - 1 : i] in (b" ", b"\t", b"\r"):
        i -= 1
    return i


def _string_end(data: bytes, i: int, end: int) -> int:
    """Just after the `"` closing a string whose body starts at `i` (`${...}` may hold strings)."""
    depth = 0
    while i < end:
        c = data[i : i + 1]
        if c == b"\\":
            i += 2
            continue
        if data.startswith((b"${", b"%{"), i):
            depth += 1
            i += 2
            continue
        if depth and c == b"}":
            depth -= 1
        elif depth and c == b'"':
            i = _string_end(data, i + 1, end)
            continue
        elif not depth and (c == b'"' or c == b"\n"):
            return i + 1
        i += 1
    return end
