"""Functions defined in one file and called from another (break-it round 17, finding 8).

Round 16's function parameters (function_params.py) bind the calls of the same file. A Jinja macro
imported by `{% from "macros.j2" import fqdn %}`, a Python `def fqdn(h)` imported by `from names
import fqdn`, a shell function in a sourced `lib.sh`: the call's word is the host, the body in the
other file composes it with a domain, and the word rewritten alone made wolf.ana.lan. Here: the
files a file imports or sources (`sources`: repo-relative candidates, nearest first), what each
function of such a file composes from a parameter (`bodies`: the composed names of its body
reading it, and a domain a parameter's literal default gives, `def fqdn(h, domain="ana.lan")`
with `f"{h}.{domain}"`), and the words a file's calls pass that parameter (`call_words`,
positional or by keyword). Deciding is sweep/function_calls.py's. Pure: bytes in, spans out.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterator
from dataclasses import dataclass

from renamer import composed_names, function_params, lazy_re, loop_values

_IDENT = rb"[A-Za-z_][A-Za-z0-9_]*"
_JINJA_IMPORT = lazy_re.compile(rb"\{%-?[ \t]*(?:from|import)[ \t]+(?P<q>['\"])(?P<path>[^'\"\n]+)(?P=q)")
_PY_IMPORT = lazy_re.compile(rb"^[ \t]*import[ \t]+(?P<mod>[A-Za-z0-9_.]+)", re.MULTILINE)
_PY_FROM = lazy_re.compile(
    rb"^[ \t]*from[ \t]+(?P<mod>\.*[A-Za-z0-9_.]*)[ \t]+import[ \t]+\(?(?P<names>[^)\n#]+)",
                      re.MULTILINE)
_SH_SOURCE = lazy_re.compile(rb"^[ \t]*(?:\.|source)[ \t]+(?P<path>(?:\"[^\"\n]*\"|'[^'\n]*'|[^\s;&|])+)",
                        re.MULTILINE)
_FSTRING_JOIN = lazy_re.compile(rb"\{(?P<a>" + _IDENT + rb")\}\.\{(?P<b>" + _IDENT + rb")\}")
_PLUS_JOIN = lazy_re.compile(rb"(?<![A-Za-z0-9_.])(?P<a>" + _IDENT + rb")[ \t]*\+[ \t]*(?P<q>['\"])\.(?P=q)"
                        rb"[ \t]*\+[ \t]*(?P<b>" + _IDENT + rb")(?![A-Za-z0-9_(])")
_HEADER_NAME = lazy_re.compile(r"(?:def|macro|function)[ \t]+(?P<a>[A-Za-z_][\w-]*)"
                          r"|^(?P<b>[A-Za-z_][\w-]*)[ \t]*(?:\(|=)")


def sources(data: bytes, rel: str) -> list[str]:
    """The repo-relative paths the file at `rel` may import or source, nearest first (its folder,
    then each folder above it, Jinja's `templates/` too)."""
    folder = posixpath.dirname(rel)
    wanted: list[str] = []
    if b"{%" in data:
        wanted += [m.group("path").decode("utf-8", "replace") for m in _JINJA_IMPORT.finditer(data)]
    if b"import" in data:
        for found in _PY_FROM.finditer(data):
            module = found.group("mod").decode()
            dots = len(module) - len(module.lstrip("."))
            path = module.lstrip(".").replace(".", "/")
            if dots > 1:
                path = "/".join([".."] * (dots - 1) + ([path] if path else []))
            wanted += [f"{path}.py", f"{path}/__init__.py"] if path else []
        for found in _PY_IMPORT.finditer(data):  # `import names` + `names.fqdn("pug")`
            path = found.group("mod").decode().replace(".", "/")
            wanted += [f"{path}.py", f"{path}/__init__.py"]
    if b"source" in data or b". " in data:
        for found in _SH_SOURCE.finditer(data):
            word = found.group("path").decode("utf-8", "replace").strip("'\"")
            word = re.sub(r"^.*[)}]['\"]?/", "", word).strip("'\"")  # `$(dirname "$0")/lib.sh`
            if word and "$" not in word:
                wanted.append(word)
    out: list[str] = []
    for path in wanted:
        path = path.removeprefix("./")
        folders = [folder]
        while folders[-1]:
            folders.append(posixpath.dirname(folders[-1]))
        for base in folders:
            for candidate in (posixpath.join(base, path), posixpath.join(base, "templates", path)):
                normal = posixpath.normpath(candidate)
                if not normal.startswith("..") and normal != rel and normal not in out:
                    out.append(normal)
    return out


@dataclass(frozen=True)
class Body:
    """A function `name` whose body makes `prefix + word + suffix` from its parameter `param`
    (position `index` among its parameters, shell's `$1` at 0); `domain`: the parameter whose
    literal default gives the suffix's domain, where a call may pass another."""

    name: str
    shell: bool
    param: str
    index: int
    prefix: str
    suffix: str
    line: int
    text: str
    domain: tuple[str, int] | None = None


def _signature(header: str) -> tuple[str, list[str]] | None:
    named = _HEADER_NAME.search(header)
    if named is None:
        return None
    name = named.group("a") or named.group("b")
    if "(" in header:
        inside = header[header.find("(") + 1:header.rfind(")")]
    else:  # `mk = lambda h:`
        inside = header.split("lambda", 1)[-1]
    params = [p.split("=")[0].split(":")[0].strip().lstrip("*") for p in inside.rstrip(":").split(",")]
    return name, [p for p in params if p and p not in ("self", "cls")]


def bodies(text: bytes, tails: tuple[str, ...]) -> list[Body]:
    """What each function of `text` composes from a parameter with one of `tails`."""
    loops = [loop for loop in function_params.functions(text) if loop.function and loop.variable != "."]
    if not loops:
        return []
    names = composed_names.find(text, tails)
    out: list[Body] = []
    for loop in loops:
        signature = _signature(loop.header)
        if signature is None:
            continue
        name, params = signature
        shell = loop.variable.isdigit()
        index = int(loop.variable) - 1 if shell else \
            (params.index(loop.variable) if loop.variable in params else -1)
        if index < 0:
            continue
        for found in names:
            read = found.template.reads or loop_values.read_by(text, found.template.start, found.template.end)
            if loop.start <= found.start < loop.end and read == loop.variable:
                out.append(Body(name, shell, loop.variable, index, found.prefix,
                                f"{found.suffix}.{found.tail}", loop.line, found.text))
        out += _default_domains(text, loop, name, params, index, tails)
    return out


def _default_domains(text: bytes, loop: loop_values.Loop, name: str, params: list[str], index: int,
                     tails: tuple[str, ...]) -> Iterator[Body]:
    """`def fqdn(h, domain="ana.lan"): return f"{h}.{domain}"`: the default is the domain."""
    defaults = dict(re.findall(r"([A-Za-z_]\w*)[ \t]*(?::[^=,]*)?=[ \t]*['\"]([A-Za-z0-9._-]+)['\"]",
                               loop.header))
    if not defaults:
        return
    for form in (_FSTRING_JOIN, _PLUS_JOIN):
        for found in form.finditer(text, loop.start, loop.end):
            host, domain = found.group("a").decode(), found.group("b").decode()
            default = defaults.get(domain)
            if host == loop.variable and default in tails and domain in params:
                yield Body(name, False, loop.variable, index, "", f".{default}", loop.line,
                           found.group().decode("utf-8", "replace"), (domain, params.index(domain)))


Word = tuple[str, int, int, str | None]  # the word, its span, the domain the call passes instead


def call_words(data: bytes, body: Body, skip: tuple[int, int] = (0, 0)) -> Iterator[Word]:
    """The literal words `data`'s calls of `body`'s function pass its parameter: each word, its
    span, and the domain the call passes instead of the default (None: the default stands; "?":
    a value that cannot be told)."""
    if body.shell:
        for args in function_params.shell_calls(data, body.name.encode(), skip):
            if len(args) > body.index:
                text, start, _ = args[body.index]
                value = text.strip(b"'\"")
                if b"$" not in value and b"`" not in value:
                    inner = start + (1 if text[:1] in (b"'", b'"') else 0)
                    yield value.decode("utf-8", "replace"), inner, inner + len(value), None
        return
    for args in function_params.call_arguments(data, body.name.encode(), skip):
        word = _argument(args, body.param, body.index)
        if word is None:
            continue
        domain: str | None = None
        if body.domain is not None:
            passed = _argument(args, *body.domain)
            domain = None if passed is None else passed[0] if passed[0] is not None else "?"
        if word[0] is not None:
            yield word[0], word[1], word[2], domain


def _argument(args: list[tuple[bytes, int, int]], param: str,
              index: int) -> tuple[str | None, int, int] | None:
    """The literal a call passes `param` (by keyword, else at `index`): its text and span; (None, ...)
    where it passes something else; None where it passes nothing."""
    named = re.compile(rb"[ \t]*" + re.escape(param.encode()) + rb"[ \t]*=(?!=)")
    keyword = next((a for a in args if named.match(a[0])), None)
    positional = [a for a in args if not re.match(rb"[ \t]*" + _IDENT + rb"[ \t]*=(?!=)", a[0])]
    arg = keyword or (positional[index] if index < len(positional) else None)
    if arg is None:
        return None
    text, at, _ = arg
    value = text.split(b"=", 1)[1] if keyword is not None else text
    literal = re.fullmatch(rb"(?P<q>['\"])(?P<value>[^'\"\r\n]*)(?P=q)", value.strip())
    if literal is None:
        return None, at, at
    offset = at + text.index(value) + value.index(literal.group()) + 1
    return literal.group("value").decode("utf-8", "replace"), offset, offset + len(literal.group("value"))
