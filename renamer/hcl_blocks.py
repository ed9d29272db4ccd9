"""Terraform's block labels and the references to them, read from one `.tf` or `.tf.json` file.

`resource "aws_instance" "pug" {`, `data "x" "pug"`, `module "pug"`, `variable "pug"` and
`output "pug"` declare names that the module's expressions read as `aws_instance.pug`,
`data.x.pug`, `module.pug`, `var.pug`, and a caller as `module.M.pug` (an output) or as the
argument `pug = ...` of its `module "M"` block (a variable); a provider's `alias = "pug"`
declares `docker.pug`, which `provider = docker.pug` reads (a `provider` label). A `.` stands
before each name, so the plain rules never see a reference; they see the quoted label. Whether
a label moves is renamer/sweep/terraform_labels.py's business; this module says where each
label, reference and module call stands. A `moved`/`removed` block's `from` names an address
that is gone on purpose: a `history` use, never rewritten. Pure: bytes in, spans out.
"""

from __future__ import annotations

import json
import re
from collections.abc import Collection
from dataclasses import dataclass, field

from renamer import key_paths, lazy_re

LABELLED = ("resource", "data", "module", "variable", "output")
# A top-level block's header: its type and its quoted labels, then `{`.
# Labels may be quoted or bare (`resource terraform_data pug {`: HCL reads both alike).
_HEADER = lazy_re.compile(rb'[ \t]*(?P<type>[A-Za-z_][\w-]*)'
                     rb'(?P<labels>(?:[ \t]*"[^"\r\n]*"|[ \t]+[A-Za-z_][\w-]*)*)[ \t]*\{')
_LABEL = lazy_re.compile(rb'(?P<q>")?(?P<label>(?(q)[^"\r\n]*|[A-Za-z_][\w-]*))(?(q)")')
_ATTR = lazy_re.compile(rb"[ \t]*(?P<key>[A-Za-z_][\w-]*)[ \t]*=(?![=>])[ \t]*")
_SOURCE = lazy_re.compile(rb'"(?P<source>[^"\r\n]*)"')
_DECLARED = lazy_re.compile(rb"configuration_aliases[ \t]*=[ \t]*\[[^\]]*\]")
_PASSED = lazy_re.compile(rb"[A-Za-z_][\w-]*[ \t]*\.[ \t]*([A-Za-z_][\w-]*)")
_TAIL = lazy_re.compile(rb"[ \t]*(?:(?:#|//)[^\r\n]*)?(?=\r?\n|\Z)")
_HEREDOC = lazy_re.compile(rb"<<-?(?P<marker>[A-Za-z_][\w-]*)[ \t]*\r?\n")
# A traversal of two or three names, at a place where a name does not continue.
_TRAVERSAL = lazy_re.compile(
    rb"(?<![A-Za-z0-9_.\-])(?P<a>[A-Za-z_][\w-]*)[ \t]*\.[ \t]*(?P<b>[A-Za-z_][\w-]*)"
                        rb"(?:[ \t]*\.[ \t]*(?P<c>[A-Za-z_][\w-]*))?")
# `module.m` and what follows it: an attribute, an index or a splat and then one, a `for`'s source.
_MODULE = lazy_re.compile(rb"(?<![\w.-])module[ \t]*\.[ \t]*(?P<call>[A-Za-z_][\w-]*)(?![\w-])")
_DOT = lazy_re.compile(rb"[ \t]*\.[ \t]*[A-Za-z_]")
_INDEXED = lazy_re.compile(rb"[ \t]*(?:\[[^\[\]\r\n]*\]|\.[ \t]*\*)[ \t]*\.[ \t]*(?P<name>[A-Za-z_][\w-]*)")
_FOR = lazy_re.compile(
    rb"\bfor[ \t]+(?:[A-Za-z_][\w-]*[ \t]*,[ \t]*)?(?P<value>[A-Za-z_][\w-]*)[ \t]+in[ \t]+")
_FOR_COLON = lazy_re.compile(rb"[ \t]*(?:\[[ \t]*\*[ \t]*\])?[ \t]*:")
_DEPENDS = lazy_re.compile(rb"\bdepends_on[ \t]*=[ \t]*\[[^\]]*\Z")
# Roots that are no block of the module: an object's attributes follow them, never a label.
_NOT_LABELS = frozenset({"local", "each", "count", "path", "self", "terraform"})


@dataclass(frozen=True)
class Label:
    """A declared name: `kind` (resource, data, module, variable, output), the resource or data
    type, the name and its span inside its quotes; where its block closes, and how it is written."""

    kind: str
    type: str
    name: str
    start: int
    end: int
    line: int
    close: int  # where a block after it goes: after its `}` and a comment on that line (-1: .tf.json)
    indent: bytes = b""
    newline: bytes = b"\n"

    @property
    def address(self) -> str:
        return {"resource": f"{self.type}.{self.name}", "provider": f"{self.type}.{self.name}",
                "data": f"data.{self.type}.{self.name}",
                "module": f"module.{self.name}", "variable": f"var.{self.name}"}.get(self.kind, self.name)


@dataclass(frozen=True)
class Use:
    """A name read: of a label of this module (`via` empty), of an output of module call `via`
    (`module.via.name`), or of a variable of `via`'s module (an argument of its block)."""

    kind: str
    type: str
    name: str
    start: int
    end: int
    line: int
    via: str = ""
    history: bool = False  # a `moved`/`removed` block's `from`, a `moved` block's `to`: kept on purpose


@dataclass(frozen=True)
class Call:
    """A `module "name"` block and its `source` (None: not a string)."""

    name: str
    source: str | None


@dataclass
class Parsed:
    labels: list[Label] = field(default_factory=list)
    uses: list[Use] = field(default_factory=list)
    calls: list[Call] = field(default_factory=list)
    moved_from: set[str] = field(default_factory=set)  # addresses a `moved` block moves away from
    passed: set[str] = field(default_factory=set)  # provider aliases passed to or declared by modules
    opaque: dict[str, int] = field(default_factory=dict)  # module calls read whole -> the first line


def read(data: bytes, names: Collection[str], *, is_json: bool = False) -> Parsed:
    """The labels named in `names`, every use of such a name, and every module call of `data`."""
    wanted = {n.encode() for n in names}
    return _read_json(data, wanted) if is_json else _read_hcl(data, wanted)


def _line_of(data: bytes, pos: int) -> int:
    return data.count(b"\n", 0, pos) + 1


def _read_hcl(data: bytes, wanted: set[bytes]) -> Parsed:
    out = Parsed()
    depths, closes = structure(data)
    history: list[tuple[int, int]] = []
    line_start = 3 if data.startswith(b"\xef\xbb\xbf") else 0  # a UTF-8 BOM stands before the first block
    checks: list[tuple[int, int]] = []  # the bodies of `check` blocks, which may hold a scoped `data`
    for depth in depths:
        if depth == 0:
            header = _HEADER.match(data, line_start)
            if header is not None:
                _block(data, header, closes, wanted, out, history)
                if header.group("type") == b"check":
                    checks.append((header.end(), closes.get(header.end() - 1, len(data))))
        elif depth == 1 and any(s <= line_start < e for s, e in checks):
            header = _HEADER.match(data, line_start)
            if header is not None and header.group("type") == b"data":
                _block(data, header, closes, wanted, out, history)
        line_end = data.find(b"\n", line_start)
        if line_end < 0:
            break
        line_start = line_end + 1
    for declared in _DECLARED.finditer(data):  # a module's `configuration_aliases = [aws.pug]`
        out.passed.update(m.group(1).decode() for m in _PASSED.finditer(declared.group()))
    _module_reads(data, wanted, history, out)
    read = {u.start for u in out.uses if u.kind == "output"}  # `v.pug` in a `for`: no resource `v`
    out.uses.extend(u for u in _traversals(data, wanted, history) if u.start not in read)
    return out


def _module_reads(data: bytes, wanted: set[bytes], history: list[tuple[int, int]], out: Parsed) -> None:
    """A module call's outputs read through an index, a splat or a `for` (`module.m["a"].pug`,
    `module.n[*].pug`, `[for k, v in module.m : v.pug]`) are uses of them; `module.m` read whole
    in any other way (`local.all = module.m`) is `opaque`: which outputs it reads cannot be told
    (break-it round 7, finding 2). `module.m.X` is `_traversals`' own."""
    for found in _MODULE.finditer(data):
        call, after = found.group("call").decode(), found.end()
        if any(s <= found.start() < e for s, e in history):
            continue
        line_start = data.rfind(b"\n", 0, found.start()) + 1
        if _DEPENDS.search(data[line_start:found.start()]):  # `depends_on = [module.m]` reads no output
            continue
        if _DOT.match(data, after):
            continue
        indexed = _INDEXED.match(data, after)
        if indexed is not None:
            if indexed.group("name") in wanted:
                out.uses.append(_use(data, indexed, "name", "output", "", False, via=call))
            continue
        bound = _FOR.search(data, line_start, found.start())
        colon = _FOR_COLON.match(data, after)
        if bound is not None and bound.end() == found.start() and colon is not None:
            _for_body(data, wanted, bound.group("value").decode(), call, colon.end(), out)
            continue
        out.opaque.setdefault(call, _line_of(data, found.start()))


def _for_body(data: bytes, wanted: set[bytes], value: str, call: str, start: int, out: Parsed) -> None:
    """The body of `for k, v in module.m :` up to its closing bracket: `v.X` reads output X."""
    depth, end = 0, start
    while end < len(data):
        c = data[end:end + 1]
        if c in (b"[", b"{", b"("):
            depth += 1
        elif c in (b"]", b"}", b")"):
            if depth == 0:
                break
            depth -= 1
        end += 1
    name = re.compile(rb"(?<![\w.-])" + re.escape(value.encode())
                      + rb"(?![\w-])[ \t]*(?:\.[ \t]*(?P<name>[A-Za-z_][\w-]*))?")
    for read in name.finditer(data, start, end):
        if read.group("name") is None:
            out.opaque.setdefault(call, _line_of(data, read.start()))
        elif read.group("name") in wanted:
            out.uses.append(_use(data, read, "name", "output", "", False, via=call))


def _block(data: bytes, header: re.Match[bytes], closes: dict[int, int], wanted: set[bytes],
           out: Parsed, history: list[tuple[int, int]]) -> None:
    kind = header.group("type").decode()
    labels = list(_LABEL.finditer(data, header.start("labels"), header.end("labels")))
    opened = header.end() - 1
    close = closes.get(opened, len(data))
    if kind == "module" and labels:
        name = labels[0].group("label").decode()
        out.calls.append(Call(name, _attribute_string(data, opened + 1, close - 1, b"source")))
        for attr in _attributes(data, opened + 1, close - 1, closes):
            if attr.group("key") in wanted:  # an argument: a variable of the called module
                out.uses.append(Use("variable", "", attr.group("key").decode(), attr.start("key"),
                                    attr.end("key"), _line_of(data, attr.start("key")), via=name))
    if kind in ("moved", "removed"):
        for attr in _attributes(data, opened + 1, close - 1, closes):
            # a `moved` block's `to` stays too: a chain `old -> pug` then `pug -> wolf` is one
            # terraform accepts, where `old -> wolf` beside `pug -> wolf` is "Ambiguous move
            # statements" (break-it round 7, finding 6)
            if attr.group("key") == b"from" or (kind == "moved" and attr.group("key") == b"to"):
                end = data.find(b"\n", attr.end())
                history.append((attr.end(), len(data) if end < 0 else end))
                if kind == "moved" and attr.group("key") == b"from":
                    value = data[attr.end():len(data) if end < 0 else end].split(b"#")[0].strip()
                    out.moved_from.add(re.sub(rb"\s+", b"", value).decode("utf-8", "replace"))
    if kind == "provider" and labels:  # `alias = "pug"` declares the configuration `aws.pug`
        for attr in _attributes(data, opened + 1, close - 1, closes):
            alias = _SOURCE.match(data, attr.end()) if attr.group("key") == b"alias" else None
            if alias is not None and alias.group("source") in wanted:
                out.labels.append(Label("provider", labels[0].group("label").decode(),
                                        alias.group("source").decode(), alias.start("source"),
                                        alias.end("source"), _line_of(data, alias.start("source")), -1))
    if kind == "module":  # `providers = { aws.x = aws.pug }`: configurations passed to a module
        for attr in _attributes(data, opened + 1, close - 1, closes):
            if attr.group("key") == b"providers":
                end = closes.get(data.find(b"{", attr.end()), attr.end())
                out.passed.update(m.group(1).decode() for m in _PASSED.finditer(data, attr.end(), end))
    if kind not in LABELLED:
        return
    named = labels[1] if kind in ("resource", "data") and len(labels) >= 2 else (
        labels[0] if kind not in ("resource", "data") and labels else None)
    if named is None or named.group("label") not in wanted:
        return
    type_ = labels[0].group("label").decode() if kind in ("resource", "data") else ""
    line_end = data.find(b"\n", header.start())
    newline = b"\r\n" if line_end > 0 and data[line_end - 1:line_end] == b"\r" else b"\n"
    indent = data[header.start():header.start("type")]
    tail = _TAIL.match(data, close)  # `} # the web server`: the comment stays with its block
    after = tail.end() if tail is not None else close
    out.labels.append(Label(kind, type_, named.group("label").decode(), named.start("label"),
                            named.end("label"), _line_of(data, named.start("label")), after, indent, newline))


def _attributes(data: bytes, start: int, end: int, closes: dict[int, int]) -> list[re.Match[bytes]]:
    """The attributes standing directly in the body `start:end` (not in a nested block)."""
    out = []
    pos = start
    while pos < end:
        line_end = data.find(b"\n", pos, end)
        line_end = end if line_end < 0 else line_end
        attr = _ATTR.match(data, pos, line_end)
        if attr is not None:
            out.append(attr)
        nested = next((o for o in range(pos, line_end) if o in closes), None)
        pos = (closes[nested] if nested is not None and closes[nested] > line_end else line_end + 1)
    return out


def _attribute_string(data: bytes, start: int, end: int, key: bytes) -> str | None:
    for attr in _attributes(data, start, end, {}):
        if attr.group("key") == key:
            value = _SOURCE.match(data, attr.end())
            return value.group("source").decode("utf-8", "replace") if value is not None else None
    return None


def _traversals(data: bytes, wanted: set[bytes], history: list[tuple[int, int]]) -> list[Use]:
    """Every `module.N`, `module.M.N`, `var.N`, `data.T.N`, `T.N` and `resource.T.N` (terraform's
    long form of `T.N`, break-it t26-32 finding 09) whose N is wanted."""
    out = []
    for found in _TRAVERSAL.finditer(data):
        a, b, c = found.group("a"), found.group("b"), found.group("c")
        if a == b"resource":
            if c in wanted:
                out.append(_use(data, found, "c", "resource", b.decode(), any(
                    s <= found.start() < e for s, e in history)))
            continue
        if a in (b"module", b"var", b"data") or a.decode() not in _NOT_LABELS:
            pos = found.start()
            gone = any(s <= pos < e for s, e in history)
            if a == b"module" and b in wanted:
                out.append(_use(data, found, "b", "module", "", gone))
            if a == b"module" and c in wanted:
                out.append(_use(data, found, "c", "output", "", gone, via=b.decode()))
            elif a == b"var" and b in wanted:
                out.append(_use(data, found, "b", "variable", "", gone))
            elif a == b"data" and c in wanted:
                out.append(_use(data, found, "c", "data", b.decode(), gone))
            elif a not in (b"module", b"var", b"data") and b in wanted:
                out.append(_use(data, found, "b", "resource", a.decode(), gone))
    return out


def _use(data: bytes, found: re.Match[bytes], group: str, kind: str, type_: str, history: bool,
         via: str = "") -> Use:
    start, end = found.span(group)
    return Use(kind, type_, data[start:end].decode(), start, end, _line_of(data, start), via, history)


def structure(data: bytes) -> tuple[list[int], dict[int, int]]:
    """Each line's brace depth where it starts (-1: inside a string or a heredoc), and for each
    `{` outside strings and comments the offset just after its `}`. Strings may hold `${...}`
    interpolations, which may hold strings again; `#`, `//` and `/* */` are comments."""
    depths = [0]
    closes: dict[int, int] = {}
    stack: list[tuple[str, int]] = []  # ("brace" | "interp" | "str", where it opened)
    i, n = 0, len(data)
    while i < n:
        c = data[i:i + 1]
        if stack and stack[-1][0] == "str":
            if c == b"\\":
                i += 2
                continue
            if c == b'"':
                stack.pop()
            elif data.startswith((b"$${", b"%%{"), i):
                i += 3
                continue
            elif data.startswith((b"${", b"%{"), i):
                stack.append(("interp", i))
                i += 2
                continue
            elif c == b"\n":  # a quoted string ends with its line (HCL): recover from a stray quote
                stack.pop()
                continue
            i += 1
            continue
        if c == b"#" or data.startswith(b"//", i):
            end = data.find(b"\n", i)
            i = n if end < 0 else end
            continue
        if data.startswith(b"/*", i):
            end = data.find(b"*/", i + 2)
            end = n if end < 0 else end + 2
            depths.extend([-1] * data.count(b"\n", i, end))
            i = end
            continue
        if c == b'"':
            stack.append(("str", i))
        elif c == b"<" and (heredoc := _HEREDOC.match(data, i)) is not None:
            marker = heredoc.group("marker")
            closing = re.compile(rb"^[ \t]*" + re.escape(marker) + rb"[ \t]*\r?$", re.MULTILINE).search(
                data, heredoc.end())
            stop = n if closing is None else closing.end()
            depths.extend([-1] * data.count(b"\n", i, stop))
            i = stop
            continue
        elif c == b"{":
            stack.append(("brace", i))
        elif c == b"}" and stack:
            kind, opened = stack.pop()
            if kind == "brace":
                closes[opened] = i + 1
        elif c == b"\n":
            depths.append(sum(1 for k, _ in stack if k == "brace")
                          if all(k == "brace" for k, _ in stack) else -1)
        i += 1
    return depths, closes


def _read_json(data: bytes, wanted: set[bytes]) -> Parsed:
    """A `.tf.json` file: labels and arguments by key path, module calls by parsing, and every
    reference inside its strings (`"${aws_instance.pug.id}"`, `"depends_on": ["aws_instance.pug"]`)."""
    out = Parsed()
    text = data.decode("utf-8", "replace")
    names = {w.decode() for w in wanted}
    starts = [m.start() for m in re.finditer("\n", text)]
    for found in key_paths.key_defs(text, "yaml", names):
        path = tuple(p for p in found.path if p != "[]")
        kind = path[0] if path else ""
        label = ((kind, path[1], path[2]) if kind in ("resource", "data") and len(path) == 3
                 else (kind, "", path[1]) if kind in ("module", "variable", "output") and len(path) == 2
                 else None)
        argument = kind == "module" and len(path) == 3
        if label is None and not argument:
            continue
        line_start = starts[found.line - 2] + 1 if found.line >= 2 else 0
        key = re.compile(rb'"(' + re.escape(path[-1].encode()) + rb')"[ \t]*:').search(
            data, len(text[:line_start].encode()))
        if key is None:
            continue
        if label is not None:
            out.labels.append(Label(label[0], label[1], label[2], key.start(1), key.end(1), found.line, -1))
        else:
            out.uses.append(Use("variable", "", path[2], key.start(1), key.end(1), found.line, via=path[1]))
    try:
        doc = json.loads(text)
    except ValueError:
        doc = None
    modules = doc.get("module") if isinstance(doc, dict) else None
    for entry in modules if isinstance(modules, list) else [modules]:
        if isinstance(entry, dict):
            for name, body in entry.items():
                source = body.get("source") if isinstance(body, dict) else None
                out.calls.append(Call(name, source if isinstance(source, str) else None))
    out.uses.extend(u for u in _traversals(data, wanted, []) if not any(
        lab.start == u.start for lab in out.labels))
    return out
