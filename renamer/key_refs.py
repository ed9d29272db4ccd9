"""References to a mapping key by its path, where an expression reads one.

`{{ net.hosts.pug.ip }}`, `{{ net.hosts['pug'] }}`, `{% for k in net.hosts["pug"] %}`,
`{{ net.hosts.get('pug') }}` (Jinja, in any file), `var.hosts.pug.ip`, `local.hosts["pug"]`,
`lookup(var.hosts, "pug")` (Terraform: anywhere in a `.tf`/`.hcl` file, or inside `${...}`),
Helm's `{{ .Values.hosts.pug }}` and an Ansible `when:`/`loop:` line's bare Jinja each read the
key `pug` at the path `net.hosts.pug` (`var.hosts.pug`, `local.hosts.pug`: Terraform's
namespaces are part of the path; Helm's `.Values` is a root, not a key). A host name is one
such key where a mapping is keyed by host; whether this one is, is another module's business
(renamer/sweep/key_index.py compares the path with the keys the repo defines, read by
renamer/key_paths.py). `hostvars['pug']` and `groups['pug']` read the inventory's host names,
which the plain rules follow; their attribute form, `hostvars.pug.ansible_host`, `groups.pug`,
reads the same host, and the `.` before it keeps the plain rules away: it is a `host` reference
(`KeyRef.host`), which follows the host's rename as the subscript does (break-it round 5,
finding B). Pure: bytes in, spans out.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Collection, Iterator
from dataclasses import dataclass

# Where expressions stand: Jinja's `{{ }}` and `{% %}`, `${ }` interpolation, and the value of
# an Ansible keyword whose value is a bare Jinja expression.
_JINJA = re.compile(rb"\{\{.*?\}\}|\{%.*?%\}|\$\{[^}\n]*\}", re.DOTALL)
_BARE = re.compile(rb"^[ \t]*(?:-[ \t]+)?(?:when|failed_when|changed_when|until|loop|with_[a-z]+|that)"
                   rb"[ \t]*:[ \t]*(?P<value>[^\r\n]*)", re.MULTILINE)
# A root stands after no name, index or call; Helm's `$.Values` (the top context from anywhere) too.
_ROOT = re.compile(rb"(?:(?<![A-Za-z0-9_.\]\)$-])|(?<=\$)(?=\.Values(?![A-Za-z0-9_])))"
                   rb"(?P<dot>\.)?(?P<root>[A-Za-z_][A-Za-z0-9_]*)")
# Go template actions that change (or keep, for a block's end) what `.` is.
_ACTION = re.compile(rb"\{\{-?[ \t\r\n]*(?P<kw>with|range|if|define|block|else|end)\b"
                     rb"(?P<rest>.*?)-?[ \t\r\n]*\}\}", re.DOTALL)
_VALUES_PATH = re.compile(rb"\$?\.Values(?P<rest>(?:\.[A-Za-z_][A-Za-z0-9_]*)*)")
_RELATIVE_PATH = re.compile(rb"(?:\.[A-Za-z_][A-Za-z0-9_]*)+")
# What `.` is in a Go template: None at the top (the chart's context: `.Values` is a root), else
# the path under `.Values` it was set to by `with` (`ANY` in it: it cannot be read).
Dot = tuple[str, ...] | None
_ATTR = re.compile(rb"[ \t]*\.[ \t]*(?P<attr>[A-Za-z_][A-Za-z0-9_]*)")
_ATTR_DASHED = re.compile(rb"[ \t]*\.[ \t]*(?P<attr>[A-Za-z_][A-Za-z0-9_-]*)")  # HCL names may hold `-`
_SUB = re.compile(rb"""[ \t]*\[[ \t]*(?:(?P<q>['"])(?P<sub>[^'"\\\n]*)(?P=q)|(?P<index>\d+)"""
                  rb"""|(?P<other>[^\]\n]*))[ \t]*\]""")
_GET = re.compile(rb"""[ \t]*\.[ \t]*get[ \t]*\([ \t]*(?P<q>['"])(?P<sub>[^'"\\\n]*)(?P=q)""")
_LOOKUP = re.compile(rb"""lookup[ \t]*\(""")
_AFTER_LOOKUP = re.compile(rb"""\blookup[ \t]*\([ \t]*\Z""")
_LOOKUP_KEY = re.compile(rb"""[ \t]*,[ \t]*(?P<q>['"])(?P<sub>[^'"\\\n]*)(?P=q)""")
_HCL_STRING = re.compile(rb'"(?:[^"\\\n]|\\.)*"')
_JINJA_STRING = re.compile(rb""""(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'""")
_INTERPOLATION = re.compile(rb"\$\{[^}\n]*\}")
# Roots whose subscripts are the inventory's host names, not a mapping's keys.
_HOST_ROOTS = frozenset({"hostvars", "groups"})
ANY = "*"  # a part read through a variable (`net.hosts[name]`): any key
# A Go template variable's assignment (`{{- $hosts := .Values.hosts }}`, `{{ range $k, $v := ... }}`)
# and its use (`$hosts.pug`); a grouping paren (not a call's) closing after a chain.
_ASSIGN = re.compile(rb"\{\{-?[ \t]*(?:(?P<range>range[ \t]+)|(?:with|if)[ \t]+)?"
                     rb"(?:\$[A-Za-z_]\w*[ \t]*,[ \t]*)?"
                     rb"\$(?P<var>[A-Za-z_]\w*)[ \t]*:?=[ \t]*(?P<expr>[^{}]*?)[ \t]*-?\}\}")
_VAR = re.compile(rb"(?<![A-Za-z0-9_])\$(?P<var>[A-Za-z_]\w*)")
_GROUPED = re.compile(rb"(?<![A-Za-z0-9_\]\)])\([ \t]*\Z")
_CLOSE = re.compile(rb"[ \t]*\)")


@dataclass(frozen=True)
class KeyRef:
    """A key named in a reference: its byte span, the path through it, how it is written."""

    start: int
    end: int
    name: str
    path: tuple[str, ...]  # the parts through the name; a list index is `[]`, a variable `*`
    text: str  # the reference as written, through the name
    quoted: bool  # a subscript's or a lookup's string (plain text rules see it); else an attribute
    host: bool = False  # `hostvars.pug`, `groups.pug`: an inventory host's name, not a mapping's key


def might_hold(data: bytes, names: Collection[str]) -> bool:
    """A cheap test first: some name after a dot or a quote, beside an expression's bracket."""
    if b"{{" not in data and b"{%" not in data and b"${" not in data and b"lookup" not in data \
            and b"var." not in data and b"local." not in data and b"when" not in data \
            and b"loop" not in data and b"that" not in data:
        return False
    return any(f".{n}".encode() in data or f"'{n}'".encode() in data or f'"{n}"'.encode() in data
               for n in names)


def key_refs(data: bytes, names: Collection[str], *, hcl: bool) -> list[KeyRef]:
    """Every key in `names` that a reference of `data` reads at a path of two parts or more."""
    wanted = {n.encode() for n in names}
    seen: set[int] = set()
    out: list[KeyRef] = []
    offsets, dots = ([0], [None]) if hcl or b"{{" not in data else _dots(data)
    assigned = _assigned(data, offsets, dots) if not hcl and b"$" in data and b"=" in data else {}
    for start, end in _regions(data, hcl=hcl):
        strings = _strings(data, start, end, hcl=hcl)
        dot = dots[bisect.bisect_right(offsets, start) - 1]
        for ref in [*_chains(data, start, end, wanted, dashed=hcl, strings=strings, dot=dot),
                    *_variables(data, start, end, wanted, assigned)]:
            if ref.start not in seen:
                seen.add(ref.start)
                out.append(ref)
    return sorted(out, key=lambda r: r.start)


def _dots(data: bytes) -> tuple[list[int], list[Dot]]:
    """Where `.` changes in a Go template (Helm), and what it is from there on: `with .Values.hosts`
    makes `{{ .pug }}` read `.Values.hosts.pug` until its `end`; `range`, `define`, `block` and
    a `with` of anything else make it a context that cannot be read."""
    offsets: list[int] = [0]
    dots: list[Dot] = [None]
    stack: list[tuple[bytes, Dot]] = []
    dot: Dot = None
    for action in _ACTION.finditer(data):
        kw, rest = action.group("kw"), action.group("rest")
        if kw in (b"with", b"range", b"if", b"define", b"block"):
            stack.append((kw, dot))
            if kw == b"with":
                dot = _dot_of(rest, dot)
            elif kw == b"range":  # each element: its keys cannot be told from the values' paths
                inner = _dot_of(rest.split(b":=")[-1], dot)
                dot = (*inner, ANY) if inner is not None else (ANY,)
            elif kw != b"if":
                dot = (ANY,)
        elif kw == b"else" and stack and stack[-1][0] in (b"with", b"range"):
            dot = stack[-1][1]  # a `with`'s else runs with the outer `.`
        elif kw == b"end" and stack:
            dot = stack.pop()[1]
        offsets.append(action.end())
        dots.append(dot)
    return offsets, dots


def _assigned(data: bytes, offsets: list[int], dots: list[Dot] | list[None]) -> dict[bytes, tuple[str, ...]]:
    """What each Go template variable of `data` holds, as a path under `.Values` (break-it round 6,
    finding 7): `$hosts := .Values.hosts` is `hosts`; a `range`'s element, a variable set twice to
    different paths or to anything else holds what cannot be read (`ANY`)."""
    out: dict[bytes, tuple[str, ...]] = {}
    for found in _ASSIGN.finditer(data):
        expr = found.group("expr")
        dot = dots[bisect.bisect_right(offsets, found.start()) - 1]
        variable = found.group("var")
        if expr.startswith(b"$") and expr[1:2] != b"." and expr[1:].split(b".")[0] in out:
            base = out[expr[1:].split(b".")[0]]  # `$net := $v.net`: through another variable
            rest = expr[1:].split(b".")[1:]
            path: Dot = (*base, *(p.decode() for p in rest)) if _RELATIVE_PATH.fullmatch(
                b"." + b".".join(rest)) or not rest else (ANY,)
        else:
            path = _dot_of(expr, dot)
        if path is None:
            path = (ANY,)  # `$x := .`: the chart's context, not its values
        if found.group("range"):
            path = (*path, ANY)
        out[variable] = path if out.get(variable, path) == path else (ANY,)
    return out


def _variables(data: bytes, start: int, end: int, wanted: set[bytes],
               assigned: dict[bytes, tuple[str, ...]]) -> Iterator[KeyRef]:
    """`$hosts.pug.ip` where `$hosts` is assigned in the file: the key at its path; a variable the
    file never assigns is left (it cannot be a chart's: Go templates reject it)."""
    if not assigned:
        return
    for found in _VAR.finditer(data, start, end):
        base = assigned.get(found.group("var"))
        if base is None:
            continue
        parts = list(base)
        pos = found.end()
        while (step := _ATTR.match(data, pos, end)) is not None:
            part = step.group("attr")
            parts.append(part.decode())
            if part in wanted:
                yield KeyRef(step.start("attr"), step.end("attr"), part.decode(), tuple(parts),
                             data[found.start():step.end()].decode("utf-8", "replace"), False)
            pos = step.end()


def _dot_of(expression: bytes, dot: Dot) -> Dot:
    """What `.` becomes under `with expression`, where it was `dot`."""
    expression = expression.strip()
    values = _VALUES_PATH.fullmatch(expression)
    if values is not None:
        return tuple(p.decode() for p in values.group("rest").split(b".")[1:])
    if expression == b".":
        return dot
    if dot is not None and _RELATIVE_PATH.fullmatch(expression):
        return (*dot, *(p.decode() for p in expression.split(b".")[1:]))
    return (ANY,)


def _regions(data: bytes, *, hcl: bool) -> Iterator[tuple[int, int]]:
    if hcl:
        yield 0, len(data)
        return
    for found in _JINJA.finditer(data):
        yield found.start(), found.end()
    for found in _BARE.finditer(data):
        start, end = found.span("value")
        value = data[start:end].rstrip()
        if len(value) >= 2 and value[:1] in (b"'", b'"') and value[-1:] == value[:1]:
            start, end = start + 1, start + len(value) - 1  # `when: "a.b"`: YAML's quotes, not Jinja's
        yield start, end


def _strings(data: bytes, start: int, end: int, *, hcl: bool) -> list[tuple[int, int]]:
    """The string literals of an expression region (an HCL file's less their `${...}`
    interpolations): `"www.pug.lab"` and `lookup('dig', 'x.pug.lab')` hold names, not
    expressions, while `"${var.hosts.pug.ip}"` is one."""
    if not hcl:
        return [m.span() for m in _JINJA_STRING.finditer(data, start, end)]
    out = []
    for string in _HCL_STRING.finditer(data, start, end):
        pos = string.start()
        for interpolation in _INTERPOLATION.finditer(data, string.start(), string.end()):
            out.append((pos, interpolation.start()))
            pos = interpolation.end()
        out.append((pos, string.end()))
    return out


def _chains(data: bytes, start: int, end: int, wanted: set[bytes], *, dashed: bool,
            strings: list[tuple[int, int]], dot: Dot = None) -> Iterator[KeyRef]:
    attr = _ATTR_DASHED if dashed else _ATTR
    starts = [s for s, _ in strings]
    pos = start
    while pos < end:
        root = _ROOT.search(data, pos, end)
        if root is None:
            return
        pos = root.end()
        inside = bisect.bisect_right(starts, root.start()) - 1
        if inside >= 0 and root.start() < strings[inside][1]:
            continue  # inside a string literal: a name, not an expression
        name = root.group("root").decode()
        lookup = _LOOKUP.match(data, root.start()) if not root.group("dot") else None
        if lookup is not None:
            continue  # `lookup(` itself: its first argument is the chain, read next
        scoped = bool(root.group("dot")) and name == "Values"  # Helm's values: the file's top
        grouped = _GROUPED.search(data, max(start, root.start() - 8), root.start()) is not None
        parts: list[str] = [] if scoped else [name]
        if root.group("dot") and not scoped and dot is not None:
            # `{{ .pug }}` under `with .Values.hosts`: the path is the `with`'s, then this name
            parts, scoped = [*dot, name], True
            if root.group("root") in wanted:
                yield KeyRef(root.start("root"), root.end("root"), name, tuple(parts),
                             data[root.start():root.end()].decode("utf-8", "replace"), False)
        if name in _HOST_ROOTS:
            if not root.group("dot"):
                step = attr.match(data, pos, end)
                if step is not None and step.group("attr") in wanted and not _GET.match(data, pos, end):
                    part = step.group("attr").decode()
                    yield KeyRef(step.start("attr"), step.end("attr"), part, (name, part),
                                 data[root.start():step.end()].decode("utf-8", "replace"), False, host=True)
                sub = _SUB.match(data, pos, end)
                if sub is not None and sub.group("sub") is not None and sub.group("sub") in wanted:
                    # `hostvars['pug']`: the plain rules match it; its fate is the host's (round 6)
                    part = sub.group("sub").decode()
                    yield KeyRef(sub.start("sub"), sub.end("sub"), part, (name, part),
                                 data[root.start():sub.end()].decode("utf-8", "replace"), True, host=True)
            continue  # what lies below a host is its vars
        while True:
            step = attr.match(data, pos, end)
            if step is not None and not _GET.match(data, pos, end):
                part, span, quoted = step.group("attr"), step.span("attr"), False
            elif (step := _SUB.match(data, pos, end)) is not None:
                if step.group("sub") is not None:
                    part, span, quoted = step.group("sub"), step.span("sub"), True
                else:
                    part, span, quoted = (b"[]" if step.group("index") is not None else ANY.encode(),
                                          (-1, -1), False)
            elif (step := _GET.match(data, pos, end)) is not None:
                part, span, quoted = step.group("sub"), step.span("sub"), True
            elif grouped and (close := _CLOSE.match(data, pos, end)) is not None:
                grouped, pos = False, close.end()  # `(.Values.hosts).pug`: the group, then its keys
                continue
            else:
                break
            parts.append(part.decode("utf-8", "replace"))
            if part in wanted and len(parts) >= (1 if scoped else 2):
                yield KeyRef(span[0], span[1], part.decode(), tuple(parts),
                             data[root.start():step.end()].decode("utf-8", "replace"), quoted)
            pos = step.end()
        opened = _AFTER_LOOKUP.search(data, max(start, root.start() - 24), root.start()) if parts else None
        if opened is not None:  # `lookup(var.hosts, "pug")`: the key is the second argument
            key = _LOOKUP_KEY.match(data, pos, end)
            if key is not None and key.group("sub") in wanted:
                path = (*parts, key.group("sub").decode())
                yield KeyRef(key.start("sub"), key.end("sub"), path[-1], path,
                             data[opened.start():key.end()].decode("utf-8", "replace") + ")", True)
