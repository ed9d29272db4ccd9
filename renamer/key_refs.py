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
which the plain rules follow: they are no key reference here. Pure: bytes in, spans out.
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
_ROOT = re.compile(rb"(?<![A-Za-z0-9_.\]\)$-])(?P<dot>\.)?(?P<root>[A-Za-z_][A-Za-z0-9_]*)")
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


@dataclass(frozen=True)
class KeyRef:
    """A key named in a reference: its byte span, the path through it, how it is written."""

    start: int
    end: int
    name: str
    path: tuple[str, ...]  # the parts through the name; a list index is `[]`, a variable `*`
    text: str  # the reference as written, through the name
    quoted: bool  # a subscript's or a lookup's string (plain text rules see it); else an attribute


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
    for start, end in _regions(data, hcl=hcl):
        strings = _strings(data, start, end, hcl=hcl)
        for ref in _chains(data, start, end, wanted, dashed=hcl, strings=strings):
            if ref.start not in seen:
                seen.add(ref.start)
                out.append(ref)
    return sorted(out, key=lambda r: r.start)


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
            strings: list[tuple[int, int]]) -> Iterator[KeyRef]:
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
        if name in _HOST_ROOTS:
            continue
        parts: list[str] = [] if scoped else [name]
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
