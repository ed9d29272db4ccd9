"""A mapping key read through a name that holds it (break-it round 9, finding 3).

Terraform's `locals { pick = "pug" }` read as `var.hosts[local.pick]` (or `lookup(var.hosts,
local.pick)`, `contains(keys(var.hosts), local.pick)`) reads the key `var.hosts.pug`; the literal
stands where no path does, so the plain rules rewrote it while the key was kept on purpose, and
`terraform apply` failed ("Invalid index"). Likewise `names = keys(var.hosts)` then
`contains(local.names, "pug")` (or `index(...)`) is a membership test of the key.

Each such literal is a reference (`KeyRef`) at the mapping's path, at the literal's span, decided
as every key reference is (renamer/sweep/key_index.py): it follows a renamed key, keeps a kept
one, else is a `key-reference` residual. A local read both as a key and otherwise (`"${local.pick}
.lab"`), or as keys of two mappings, reads a key that cannot be told (`ANY` first in its path).
The uses are read in the module's text (every `.tf` file of the folder); the literal in its own
file. Pure: bytes in, spans out.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterator

from renamer import lazy_re
from renamer.key_refs import ANY, KeyRef

_CHAIN = rb"""[A-Za-z_][\w-]*(?:[ \t]*\.[ \t]*[A-Za-z_][\w-]*|[ \t]*\[[ \t]*"[^"\\\n]*"[ \t]*\])+"""
_PART = re.compile(rb"""[A-Za-z_][\w-]*|"(?P<sub>[^"\\\n]*)\"""")
_BLOCKS = lazy_re.compile(rb"""(?m)^[ \t]*(?:(?P<locals>locals)|variable[ \t]+"(?P<var>[A-Za-z_][\w-]*)")"""
                     rb"""[ \t]*\{""")
_ASSIGN = lazy_re.compile(rb"""(?m)[ \t]*(?P<name>[A-Za-z_][\w-]*)[ \t]*=[ \t]*(?:"(?P<lit>[^"\\\n$%]*)\""""
                     rb"""|keys[ \t]*\([ \t]*(?P<chain>""" + _CHAIN + rb""")[ \t]*\))"""
                     rb"""[ \t]*(?:(?:#|//)[^\n]*)?$""")
# What stands before `local.NAME` where NAME's value is a key of the mapping `chain`.
_BEFORE_USE = (re.compile(rb"(?P<chain>" + _CHAIN + rb")[ \t]*\[[ \t]*\Z"),
               re.compile(rb"(?<![\w.])lookup[ \t]*\([ \t]*(?P<chain>" + _CHAIN + rb")[ \t]*,[ \t]*\Z"),
               re.compile(rb"(?<![\w.])(?:contains|index)[ \t]*\([ \t]*keys[ \t]*\([ \t]*(?P<chain>" + _CHAIN
                          + rb")[ \t]*\)[ \t]*,[ \t]*\Z"),
               re.compile(rb"(?<![\w.])(?:contains|index)[ \t]*\([ \t]*local[ \t]*\.[ \t]*"
                          rb"(?P<alias>[A-Za-z_][\w-]*)[ \t]*,[ \t]*\Z"))
_MEMBER = lazy_re.compile(rb"""(?<![\w.])(?:contains|index)[ \t]*\([ \t]*local[ \t]*\.[ \t]*"""
                     rb"""(?P<alias>[A-Za-z_][\w-]*)[ \t]*,[ \t]*"(?P<sub>[^"\\\n]*)"[ \t]*\)""")
_WINDOW = 300
_STRING = lazy_re.compile(rb'"(?:[^"\\\n]|\\.)*"')


def might_hold(data: bytes) -> bool:
    return b"local" in data or b"default" in data


def _path(chain: bytes) -> tuple[str, ...]:
    return tuple((p.group("sub") if p.group("sub") is not None else p.group()).decode("utf-8", "replace")
                 for p in _PART.finditer(chain))


def _attributes(data: bytes, at: int, top: int) -> Iterator[re.Match[bytes]]:
    """The attributes (`NAME = ...` lines) at depth `top` from `at` to where that depth closes
    (strings and comments skipped)."""
    depth, end = top, len(data)
    if at == 0 and (found := _ASSIGN.match(data, 0)) is not None and top == 0:
        yield found
    while at < end and depth >= top:
        c = data[at:at + 1]
        if c == b'"':
            close = _STRING.match(data, at)
            at = close.end() if close is not None else at + 1
            continue
        if c == b"#" or data[at:at + 2] == b"//":
            nl = data.find(b"\n", at)
            at = end if nl < 0 else nl
            continue
        if c in (b"{", b"[", b"("):
            depth += 1
        elif c in (b"}", b"]", b")"):
            depth -= 1
        elif c == b"\n" and depth == top and (found := _ASSIGN.match(data, at + 1)) is not None:
            yield found
        at += 1


def _locals(data: bytes, *, tfvars: bool = False) -> Iterator[tuple[bytes, re.Match[bytes]]]:
    """The attributes at the top of each `locals` block of `data`, as `local.NAME`; a `variable
    "NAME"` block's `default` and a tfvars file's `NAME = ...` (`tfvars`) as `var.NAME`."""
    if tfvars:
        for found in _attributes(data, 0, 0):
            yield b"var." + found.group("name"), found
        return
    for block in _BLOCKS.finditer(data):
        for found in _attributes(data, block.end(), 1):
            if block.group("locals"):
                yield b"local." + found.group("name"), found
            elif found.group("name") == b"default":
                yield b"var." + block.group("var"), found


def assignments(module: bytes) -> tuple[dict[bytes, list[bytes]], dict[bytes, tuple[str, ...]]]:
    """The module's locals holding a plain string (name -> its values) and `keys(CHAIN)` (name ->
    the chain's path)."""
    literals: dict[bytes, list[bytes]] = {}
    keyed: dict[bytes, tuple[str, ...]] = {}
    for name, found in _locals(module):
        if found.group("lit") is not None:
            literals.setdefault(name, []).append(found.group("lit"))
        elif name.startswith(b"local."):
            keyed[name[len(b"local."):]] = _path(found.group("chain"))
    return literals, keyed


def literal_refs(data: bytes, module: bytes, names: Collection[str], *,
                 tfvars: bool = False) -> list[KeyRef]:
    """Each old name of `data` held by a local that `module` reads as a key, and each one tested
    against a local holding a mapping's keys (see the module's docstring); `tfvars`: `data` is a
    tfvars file, whose assignments set the module's variables."""
    wanted = {n.encode() for n in names}
    if not tfvars and not might_hold(data):
        return []
    _, keyed = assignments(module)
    out: list[KeyRef] = []
    for name, found in _locals(data, tfvars=tfvars):
        value = found.group("lit")
        if value is None or value not in wanted:
            continue
        paths: set[tuple[str, ...]] = set()
        other = False
        space, _, short = name.partition(b".")
        use = re.compile(rb"(?<![\w.])" + space + rb"[ \t]*\.[ \t]*" + re.escape(short) + rb"(?![\w-])")
        for hit in use.finditer(module):
            window = module[max(0, hit.start() - _WINDOW):hit.start()]
            path = None
            for before in _BEFORE_USE:
                m = before.search(window)
                if m is None:
                    continue
                if m.groupdict().get("alias") is not None:
                    path = keyed.get(m.group("alias"))
                else:
                    path = _path(m.group("chain"))
                if path is not None:
                    break
            if path is None:
                other = True
            else:
                paths.add(path)
        if not paths:
            continue  # never read as a key: a name like any other (the plain rules)
        key = value.decode()
        path = next(iter(paths)) if len(paths) == 1 and not other else (ANY,)
        start, end = found.span("lit")
        out.append(KeyRef(start, end, key, (*path, key),
                          f'{name.decode()} = "{key}", read as a key of '
                          + (".".join(path) if path != (ANY,) else "more than one thing"), True))
    for member in _MEMBER.finditer(data):
        chain = keyed.get(member.group("alias"))
        if chain is None or member.group("sub") not in wanted:
            continue
        key = member.group("sub").decode()
        out.append(KeyRef(member.start("sub"), member.end("sub"), key, (*chain, key),
                          member.group().decode("utf-8", "replace")
                          + f" (local.{member.group('alias').decode()} = keys({'.'.join(chain)}))", True))
    return sorted(out, key=lambda r: r.start)
