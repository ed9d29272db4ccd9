"""A function's parameter binds the arguments its calls pass (break-it round 16, finding 9).

`{% macro fqdn(h) %}{{ h }}.ana.lan{% endmacro %}` with `{{ fqdn('pug') }}`, Helm's
`{{ define "fqdn" }}{{ . }}.ana.lan{{ end }}` with `{{ include "fqdn" "pug" }}` (or a `dict`
naming the key the body reads), Python's `def fqdn(h): return f"{h}.ana.lan"` with `fqdn("pug")`,
and a shell function `fqdn() { echo "$1.ana.lan"; }` with `fqdn pug`: the body composes the name,
the call spells the host. Each function is given as a loop (loop_values.Loop) binding its
parameter over its body, `function` set, its values the literal arguments of the calls in the
same file and `arguments` their spans; a call passing anything else, or no call in the file,
leaves the values untold (`why`). sweep/composed.py decides: a function's domain never follows
(its callers elsewhere may pass hosts that stay), so a moving host is a `composed-name` residual,
the call's word held with it. Pure: bytes in, loops out.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from renamer import lazy_re
from renamer.loop_values import Loop, bracket_end, indented_block_end

_IDENT = rb"[A-Za-z_][A-Za-z0-9_]*"
_JINJA_MACRO = lazy_re.compile(rb"\{%-?[ \t]*macro[ \t]+(?P<name>" + _IDENT + rb")[ \t]*\((?P<params>[^)]*)\)"
                          rb"[ \t]*-?%\}")
_JINJA_END = lazy_re.compile(rb"\{%-?[ \t]*endmacro[ \t]*-?%\}")
_HELM_DEFINE = lazy_re.compile(rb"\{\{-?[ \t]*define[ \t]+\"(?P<name>[^\"\r\n]+)\"[ \t]*-?\}\}")
_HELM_ACTION = lazy_re.compile(rb"\{\{-?[ \t]*(?P<word>if|range|with|define|block|end)(?![A-Za-z0-9_])")
_HELM_CALL = lazy_re.compile(rb"(?:include|template)[ \t]+\"(?P<name>[^\"\r\n]+)\"[ \t]+")
_PY_DEF = lazy_re.compile(rb"^(?P<indent>[ \t]*)(?:async[ \t]+)?def[ \t]+(?P<name>" + _IDENT + rb")[ \t]*"
                     rb"\((?P<params>[^)]*)\)[^:\n]*:", re.MULTILINE)
_SH_FUNCTION = lazy_re.compile(rb"^[ \t]*(?:function[ \t]+(?P<kw>" + _IDENT + rb"(?:-[A-Za-z0-9_]+)*)[ \t]*"
                          rb"(?:\(\)[ \t]*)?"
                          rb"|(?P<name>" + _IDENT + rb"(?:-[A-Za-z0-9_]+)*)[ \t]*\(\)[ \t]*)\{", re.MULTILINE)
_STRING = lazy_re.compile(rb"(?P<q>['\"])(?P<value>[^'\"\r\n]*)(?P=q)")
# Python's `mk = lambda h: h + ".ana.lan"` (break-it round 17, finding 8): its body, the rest of the line
_PY_LAMBDA = lazy_re.compile(rb"^[ \t]*(?P<name>" + _IDENT + rb")[ \t]*(?::[^=\n]*)?=[ \t]*lambda[ \t]+"
                        rb"(?P<params>[^:\n]*):", re.MULTILINE)


def _line(data: bytes, pos: int) -> int:
    return data.count(b"\n", 0, pos) + 1


def functions(data: bytes) -> list[Loop]:
    """Every function of the four grammars in `data`, each as a loop binding its parameters."""
    out: list[Loop] = []
    if b"macro" in data:
        out += _jinja(data)
    if b"define" in data:
        out += _helm(data)
    if b"def " in data:
        out += _python(data)
    if b"lambda" in data:
        out += _lambdas(data)
    if b"()" in data or b"function" in data:
        out += _shell(data)
    return out


Param = tuple[str, str | None, tuple[int, int]]  # a name, its literal default and where that stands


def _params(data: bytes, found: re.Match[bytes]) -> list[Param]:
    """A parameter list's names and literal defaults (`h, d='ana.lan'`; annotations dropped)."""
    out: list[Param] = []
    at = found.start("params")
    for part in found.group("params").split(b","):
        name, equals, default = part.partition(b"=")
        name = name.split(b":")[0].strip().lstrip(b"*")
        if re.fullmatch(_IDENT, name) and name not in (b"self", b"cls"):
            literal = _STRING.search(default) if default.strip()[:1] in (b"'", b'"') else None
            start = at + len(part) - len(default) + literal.start("value") if literal and equals else 0
            value = literal.group("value").decode("utf-8", "replace") if literal else None
            out.append((name.decode(), value, (start, start + len(literal.group("value")) if literal else 0)))
        at += len(part) + 1
    return out


def _arguments(data: bytes, opener: int) -> list[tuple[bytes, int, int]]:
    """A call's arguments inside the parenthesis at `opener`: each text and span, split at the
    commas of its own level."""
    end = bracket_end(data, opener, b"(") - 1
    out = []
    depth = 0
    start = opener + 1
    quote = 0
    for at in range(opener + 1, end + 1):
        byte = data[at] if at < end else 0x2C
        if quote:
            quote = 0 if byte == quote else quote
        elif byte in (0x22, 0x27):
            quote = byte
        elif byte in (0x28, 0x5B, 0x7B):
            depth += 1
        elif byte in (0x29, 0x5D, 0x7D):
            depth -= 1
        elif byte == 0x2C and depth == 0:
            out.append((data[start:at], start, at))
            start = at + 1
    return [a for a in out if a[0].strip()]


Args = list[tuple[bytes, int, int]]


def _bind(name: str, kind: str, params: list[Param], calls: list[Args],
          start: int, end: int, line: int, header: str) -> Iterator[Loop]:
    """A loop per parameter over [start, end): its values from `calls` (each a call's arguments)."""
    for index, (param, default, span) in enumerate(params):
        items: list[str] = []
        spans: list[tuple[int, int]] = []
        why: str | None = None
        if not calls:
            why = f"`{param}` is a parameter of {kind} `{name}`, which no line of this file calls"
        for args in calls:
            named = re.compile(rb"[ \t]*" + param.encode() + rb"[ \t]*=(?!=)")
            keyword = next((a for a in args if named.match(a[0])), None)
            positional = [a for a in args if not re.match(rb"[ \t]*" + _IDENT + rb"[ \t]*=(?!=)", a[0])]
            arg = keyword or (positional[index] if index < len(positional) else None)
            if arg is None:
                if default is not None:
                    items.append(default)
                    spans.append(span)
                    continue
                why = why or f"a call of {kind} `{name}` passes no `{param}`"
                continue
            text, at, _ = arg
            value = text.split(b"=", 1)[1] if keyword is not None else text
            literal = _STRING.fullmatch(value.strip())
            if literal is None:
                shown = value.strip().decode("utf-8", "replace")
                why = why or f"a call of {kind} `{name}` passes `{param}` as `{shown}`, which cannot be told"
                continue
            items.append(literal.group("value").decode("utf-8", "replace"))
            offset = at + text.index(value) + value.index(literal.group()) + 1
            spans.append((offset, offset + len(literal.group("value"))))
        yield Loop(param, start, end, line, header, tuple(items) if why is None else None, why=why,
                   function=True, arguments=tuple(spans))


def _calls(data: bytes, name: bytes, skip: tuple[int, int]) -> list[Args]:
    """The argument lists of each `name(...)` call outside `skip` (the definition's header)."""
    out = []
    for call in re.finditer(rb"(?<![A-Za-z0-9_.])" + re.escape(name) + rb"[ \t]*\(", data):
        if skip[0] <= call.start() < skip[1] or data[max(0, call.start() - 4):call.start()] == b"def ":
            continue
        out.append(_arguments(data, call.end() - 1))
    return out


def call_arguments(data: bytes, name: bytes, skip: tuple[int, int] = (0, 0)) -> list[Args]:
    """The argument lists of each `name(...)` call, a module's or a namespace's too (`m.fqdn(...)`,
    `names.fqdn(...)`): function_imports.py asks for another file's function."""
    out = []
    pattern = rb"(?<![A-Za-z0-9_.])(?:" + _IDENT + rb"\.)?" + re.escape(name) + rb"[ \t]*\("
    for call in re.finditer(pattern, data):
        if skip[0] <= call.start() < skip[1] or data[max(0, call.start() - 4):call.start()] == b"def ":
            continue
        out.append(_arguments(data, call.end() - 1))
    return out


def shell_calls(data: bytes, name: bytes, skip: tuple[int, int] = (0, 0)) -> list[Args]:
    """The words of each call of the shell function `name` outside `skip` (its own body)."""
    calls: list[Args] = []
    pattern = rb"(?:^|(?<=[;&|(`\n]))[ \t]*(?:\$\([ \t]*)?" + re.escape(name) + rb"(?=[ \t])"
    for call in re.finditer(pattern, data, re.MULTILINE):
        if skip[0] <= call.start() < skip[1]:
            continue
        args = []
        at = call.end()
        while True:
            space = re.match(rb"[ \t]+", data[at:])
            if space is None:
                break
            at += space.end()
            word = _SH_WORD.match(data, at)
            if word is None or not word.group():
                break
            args.append((word.group(), word.start(), word.end()))
            at = word.end()
        calls.append(args)
    return calls


def _jinja(data: bytes) -> Iterator[Loop]:
    for macro in _JINJA_MACRO.finditer(data):
        end = _JINJA_END.search(data, macro.end())
        body_end = end.start() if end is not None else len(data)
        calls = _calls(data, macro.group("name"), (macro.start(), macro.end()))
        yield from _bind(macro.group("name").decode(), "the macro", _params(data, macro), calls,
                         macro.end(), body_end, _line(data, macro.start()),
                         macro.group().decode("utf-8", "replace"))


def _helm(data: bytes) -> Iterator[Loop]:
    for define in _HELM_DEFINE.finditer(data):
        depth = 1
        body_end = len(data)
        for action in _HELM_ACTION.finditer(data, define.end()):
            depth += -1 if action.group("word") == b"end" else 1
            if depth == 0:
                body_end = action.start()
                break
        name = define.group("name")
        dots: list[str] = []
        keys: dict[str, list[str]] = {}
        spans: dict[str, list[tuple[int, int]]] = {}
        why: str | None = None
        calls = [c for c in _HELM_CALL.finditer(data) if c.group("name") == name]
        for call in calls:
            string = _STRING.match(data, call.end())
            if string is not None:
                dots.append(string.group("value").decode("utf-8", "replace"))
                spans.setdefault(".", []).append(string.span("value"))
                continue
            if data.startswith(b"(dict", call.end()):
                close = bracket_end(data, call.end(), b"(")
                pairs = list(_STRING.finditer(data, call.end(), close))
                for key, value in zip(pairs[::2], pairs[1::2], strict=False):
                    keys.setdefault(key.group("value").decode(), []).append(value.group("value").decode())
                    spans.setdefault(key.group("value").decode(), []).append(value.span("value"))
                continue
            passed = data[call.end():call.end() + 20].split(b"}")[0].decode("utf-8", "replace").strip()
            why = why or f"a call of the template `{name.decode()}` passes `{passed}`"
        header = define.group().decode("utf-8", "replace")
        line = _line(data, define.start())
        if not calls:
            why = (f"the template `{name.decode()}` is defined here and included from other files: what they "
                   "pass is read at each include (a residual there where it makes the old name), not here")
        variables = {".": dots, **keys}
        for variable, values in variables.items():
            yield Loop(variable, define.end(), body_end, line, header, tuple(values) if why is None else None,
                       why=why, function=True, arguments=tuple(spans.get(variable, ())))


def _python(data: bytes) -> Iterator[Loop]:
    for found in _PY_DEF.finditer(data):
        end = indented_block_end(data, found.end(), len(found.group("indent").expandtabs()))
        calls = _calls(data, found.group("name"), (found.start(), found.end()))
        yield from _bind(found.group("name").decode(), "the function", _params(data, found), calls,
                         found.end(), end, _line(data, found.start()),
                         found.group().decode("utf-8", "replace").strip())


def _lambdas(data: bytes) -> Iterator[Loop]:
    for found in _PY_LAMBDA.finditer(data):
        end = data.find(b"\n", found.end())
        end = len(data) if end < 0 else end
        calls = _calls(data, found.group("name"), (found.start(), found.end()))
        yield from _bind(found.group("name").decode(), "the lambda", _params(data, found), calls,
                         found.end(), end, _line(data, found.start()),
                         found.group().decode("utf-8", "replace").strip())


_SH_WORD = lazy_re.compile(rb"(?P<q>['\"]?)(?P<value>[^\s'\";&|)`]*)(?P=q)")


def _shell(data: bytes) -> Iterator[Loop]:
    for found in _SH_FUNCTION.finditer(data):
        name = found.group("kw") or found.group("name")
        end = bracket_end(data, found.end() - 1, b"{")
        calls = shell_calls(data, name, (found.start(), end))
        header = found.group().decode("utf-8", "replace").strip()
        line = _line(data, found.start())
        for index in range(1, 10):
            if b"$" + str(index).encode() not in data[found.end():end] and \
                    b"${" + str(index).encode() not in data[found.end():end]:
                continue
            items: list[str] = []
            spans: list[tuple[int, int]] = []
            why = None if calls else f"`${index}` of the shell function `{name.decode()}`, not called here"
            for args in calls:
                if len(args) < index:
                    why = why or f"a call of `{name.decode()}` passes no ${index}"
                    continue
                text, start, _ = args[index - 1]
                value = text.strip(b"'\"")
                if b"$" in value or b"`" in value:
                    why = why or f"a call of `{name.decode()}` passes `{text.decode('utf-8', 'replace')}`"
                    continue
                items.append(value.decode("utf-8", "replace"))
                inner = start + (1 if text[:1] in (b"'", b'"') else 0)
                spans.append((inner, inner + len(value)))
            yield Loop(str(index), found.end(), end, line, header, tuple(items) if why is None else None,
                       why=why, function=True, arguments=tuple(spans))
