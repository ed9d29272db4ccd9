"""Keys a Python program reads from a data file it loads (break-it round 9, finding 3).

`yaml.safe_load(open("inv.yaml"))["hosts"]["pug"]`, `data = json.load(f)` then
`data["hosts"].get("pug")` or `"pug" in data["hosts"]` read the key `hosts.pug` of a loaded
document, in a `.py` file or a shell's `python3 -c "..."` (its quotes escaped: `[\\"pug\\"]`).
The path's root is the file opened by name (`open("inv.yaml")`, or a handle `with open("inv.yaml")
as f`): `<file:inv.yaml>`, which renamer/sweep/key_index.py binds to the file a relative path
may mean (beside the program, or at the repo's top: two candidates are `unsure`); a load of
anything else reads a document that cannot be told (`ANY`): the reference is a `key-reference`
residual wherever a key of that name is renamed or kept on purpose. Either is decided as every
key reference is, and never rewritten alone. Pure: bytes in, spans out.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterator

from renamer import lazy_re
from renamer.key_refs import ANY, LOADED, KeyRef

_LOAD = rb"(?<![\w.])(?:yaml\.(?:safe_|full_|unsafe_)?load|json\.loads?|tomllib\.loads?|toml\.loads?)[ \t]*\("
_LOAD_CALL = lazy_re.compile(_LOAD)
_BOUND = lazy_re.compile(rb"(?<![\w.])(?P<var>[A-Za-z_]\w*)[ \t]*=[ \t]*(?=" + _LOAD + rb")")
_Q = rb"""\\?(?P<q>['"])(?P<sub>[^'"\\\n]*)\\?(?P=q)"""
_SUB = lazy_re.compile(rb"[ \t]*\[[ \t]*" + _Q + rb"[ \t]*\]")
_GET = lazy_re.compile(rb"[ \t]*\.[ \t]*get[ \t]*\([ \t]*" + _Q)
_IN = lazy_re.compile(_Q + rb"[ \t]+(?:not[ \t]+)?in[ \t]+\Z")
_OPEN = lazy_re.compile(rb"""(?<![\w.])open[ \t]*\([ \t]*\\?(?P<q>['"])(?P<path>[^'"\\\n]+)\\?(?P=q)""")
_HANDLE = lazy_re.compile(
    rb"""(?<![\w.])open[ \t]*\([ \t]*\\?(?P<q>['"])(?P<path>[^'"\\\n]+)\\?(?P=q)[^()\n]*\)"""
                     rb"""[ \t]+as[ \t]+(?P<var>[A-Za-z_]\w*)""")
_STRING = lazy_re.compile(rb"""\\?(?P<q>['"])(?:[^'"\\\n]|\\[^'"])*\\?(?P=q)""")


def might_hold(data: bytes) -> bool:
    return b"load" in data and _LOAD_CALL.search(data) is not None


def _close(data: bytes, opened: int) -> int | None:
    """Where the paren opened at `opened` closes (strings skipped), or None on its line."""
    depth, at = 0, opened
    while at < len(data):
        char = data[at:at + 1]
        if char == b"\n":
            return None
        if char in (b"'", b'"') or data[at:at + 2] in (b"\\'", b'\\"'):
            string = _STRING.match(data, at)
            if string is not None:
                at = string.end()
                continue
        if char == b"(":
            depth += 1
        elif char == b")":
            depth -= 1
            if depth == 0:
                return at
        at += 1
    return None


def _root(data: bytes, opened: int, close: int) -> str:
    """What a load's argument (data[opened+1:close]) reads: `<file:PATH>` for a file opened by
    name there or by a handle opened by name before it, else `ANY`."""
    inner = data[opened + 1:close].strip()
    found = _OPEN.match(inner)
    if found is None and re.fullmatch(rb"[A-Za-z_]\w*", inner):
        handles = [h for h in _HANDLE.finditer(data, 0, opened) if h.group("var") == inner]
        found = handles[-1] if handles else None
    return LOADED.format(found.group("path").decode("utf-8", "replace")) if found is not None else ANY


def inline_loads(text: str) -> list[str]:
    """The files (as written) a program's loads read by name (`_root`)."""
    data = text.encode("utf-8", "surrogateescape")
    out = []
    for call in _LOAD_CALL.finditer(data):
        close = _close(data, call.end() - 1)
        if close is not None and (root := _root(data, call.end() - 1, close)) != ANY:
            out.append(root[len("<file:"):-1])
    return out


def _steps(data: bytes, pos: int, parts: list[str], wanted: set[bytes], first: int) -> Iterator[KeyRef]:
    """The keys of a chain of subscripts from `pos`, `parts[0]` being its root."""
    while (step := _SUB.match(data, pos) or _GET.match(data, pos)) is not None:
        part = step.group("sub")
        parts.append(part.decode("utf-8", "replace"))
        if part in wanted:
            yield KeyRef(step.start("sub"), step.end("sub"), part.decode(), tuple(parts),
                         data[first:step.end()].decode("utf-8", "replace").replace('\\"', '"'), True)
        pos = step.end()


def py_refs(data: bytes, names: Collection[str]) -> list[KeyRef]:
    """Each old name read as a key of a loaded document (see the module's docstring)."""
    wanted = {n.encode() for n in names}
    out: list[KeyRef] = []
    variables: dict[bytes, list[str]] = {}
    for call in _LOAD_CALL.finditer(data):
        close = _close(data, call.end() - 1)
        if close is None:
            continue
        parts: list[str] = [_root(data, call.end() - 1, close)]
        out.extend(_steps(data, close + 1, parts, wanted, call.start()))
        bound = _BOUND.search(data, max(0, call.start() - 64), call.end())
        if bound is not None and bound.end() == call.start():
            variable = bound.group("var")
            variables[variable] = parts if variables.get(variable, parts) == parts else [ANY, ANY]
    for variable, base in variables.items():
        use = re.compile(rb"(?<![\w.])" + re.escape(variable) + rb"(?![\w])")
        for found in use.finditer(data):
            parts = list(base)
            refs = list(_steps(data, found.end(), parts, wanted, found.start()))
            out.extend(refs)
            member = _IN.search(data, max(0, found.start() - 80), found.start())
            if member is not None and member.group("sub") in wanted:
                key = member.group("sub").decode()
                out.append(KeyRef(member.start("sub"), member.end("sub"), key, (*parts, key),
                                  data[member.start():found.end()].decode("utf-8", "replace")
                                  + "".join(f"[{p!r}]" for p in parts[len(base):]), True))
    seen: set[int] = set()
    unique = []
    for ref in sorted(out, key=lambda r: r.start):
        if ref.start not in seen:
            seen.add(ref.start)
            unique.append(ref)
    return unique
