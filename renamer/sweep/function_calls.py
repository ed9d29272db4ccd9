"""A host passed to a Helm template defined in another file of the chart (break-it round 16, #9).

`{{ include "fqdn" "pug" }}` in `templates/cm.yaml`, with `{{ define "fqdn" }}{{ . }}.ana.lan{{ end }}`
in `templates/_helpers.tpl`: the call's word rewritten alone makes wolf.ana.lan where the move gives
wolf.fv.lan. The define's own file holds no call (sweep/composed.py reads the calls of the same
file: function_params.py); here the call's file reads the chart's other templates for the define
(the folder holding `Chart.yaml` above it, its `templates/`), and where the body composes the
argument with a domain the move changes, the word is a `composed-name` residual naming the define.
"""

from __future__ import annotations

import posixpath
import re
from pathlib import Path

from renamer import composed_names, function_imports, function_params, lazy_re
from renamer.occurrences import Match
from renamer.sweep.tool_names import _refused
from renamer.tool_names import Composed

_CALL = lazy_re.compile(rb"(?:include|template)[ \t]+\"(?P<name>[^\"\r\n]+)\"[ \t]+")
_STRING = lazy_re.compile(rb"\"(?P<value>[^\"\r\n]*)\"")


def _chart(root: Path, rel: str) -> Path | None:
    """The folder holding `Chart.yaml` above `rel`; else, for a file under a `templates/` folder
    (a chart whose Chart.yaml is written at deploy time, or a library chart's copy: break-it
    round 19, finding 3), that folder's parent."""
    folder = posixpath.dirname(rel)
    templates = None
    while True:
        if (root / folder / "Chart.yaml").is_file():
            return root / folder
        if templates is None and posixpath.basename(folder) == "templates":
            templates = root / posixpath.dirname(folder)
        if not folder:
            return templates
        folder = posixpath.dirname(folder)


def helm_call_matches(root: Path, data: bytes, rel: str, matches: list[Match],
                      hosts: tuple[tuple[str, str], ...]) -> list[Match]:
    """`matches` with each host word an `include` passes to another file's define refused where the
    define composes it with a domain the move changes."""
    if b"include" not in data and b"template" not in data:
        return matches
    calls = [c for c in _CALL.finditer(data) if b'define "' + c.group("name") + b'"' not in data]
    if not calls:
        return matches
    tails = composed_names.tails_of(hosts)
    chart = _chart(root, rel) if tails else None
    if chart is None:
        return matches
    bodies = _bodies(root, chart, tails)
    found_all: list[Composed] = []
    for call in calls:
        for variable, prefix, suffix, where in bodies.get(call.group("name"), []):
            if variable == ".":
                string = _STRING.match(data, call.end())
                spans = [string] if string is not None else []
            elif data.startswith(b"(dict", call.end()):
                pairs = list(_STRING.finditer(data, call.end(), data.find(b")", call.end())))
                spans = [v for k, v in zip(pairs[::2], pairs[1::2], strict=False)
                         if k.group("value").decode() == variable]
            else:
                spans = []
            for string in spans:
                word = string.group("value").decode("utf-8", "replace")
                how = f'the template `{call.group("name").decode()}` defined at {where}'
                start, end = string.span("value")
                found_all.append(Composed(start, end, word, prefix, suffix, how))
    return _refused(found_all, matches, hosts) if found_all else matches


Bodies = dict[bytes, list[tuple[str, str, str, str]]]  # a define -> (variable, prefix, suffix, where)
_CACHE: dict[tuple[str, tuple[str, ...]], tuple[tuple[tuple[str, int, int], ...], Bodies]] = {}


def _bodies(root: Path, chart: Path, tails: tuple[str, ...]) -> Bodies:
    """Each define of the chart's templates composing its argument with one of `tails`; read once
    per chart while its templates stay as they are (every call site of the chart asks)."""
    paths = [p for p in sorted((chart / "templates").rglob("*"))
             if p.suffix in (".tpl", ".yaml", ".yml", ".txt") and p.is_file()]
    stamp = tuple((str(p), p.stat().st_mtime_ns, p.stat().st_size) for p in paths)
    key = (str(chart), tails)
    cached = _CACHE.get(key)
    if cached is not None and cached[0] == stamp:
        return cached[1]
    bodies: Bodies = {}
    for path in paths:
        try:
            text = path.read_bytes()
        except OSError:
            continue
        if b"define" not in text:
            continue
        found = composed_names.find(text, tails)
        for loop in function_params.functions(text):
            define = re.search(rb"define[ \t]+\"(?P<name>[^\"]+)\"", loop.header.encode())
            if define is None or loop.variable != ".":  # each define once, by its `.` binding
                continue
            where = f"{path.relative_to(root).as_posix()}:{loop.line}"
            for name in found:
                variables = name.template.variables
                reads = name.template.reads or (variables[0] if variables else "")
                if loop.start <= name.start < loop.end and reads:  # `{{ . }}`, or a key: `{{ .host }}`
                    bodies.setdefault(define.group("name"), []).append(
                        (reads, name.prefix, f"{name.suffix}.{name.tail}", f"{where} ({name.text})"))
    if len(_CACHE) > 64:
        _CACHE.clear()
    _CACHE[key] = (stamp, bodies)
    return bodies


_IMPORTED: dict[str, tuple[tuple[int, int], tuple[str, ...], list[function_imports.Body]]] = {}


def imported_call_matches(root: Path, data: bytes, rel: str, matches: list[Match],
                          hosts: tuple[tuple[str, str], ...], max_size: int) -> list[Match]:
    """`matches` with each host word a call passes to a function defined in a file this one
    imports or sources (a Jinja macro, a Python def, a shell function), or to a function of its
    own whose parameter's default is the domain, refused where the body composes the word with a
    domain the move changes (break-it round 17, finding 8)."""
    tails = composed_names.tails_of(hosts)
    if not tails:
        return matches
    found_all: list[Composed] = []
    for path in [rel, *function_imports.sources(data, rel)]:
        body_list = _bodies_of(root, path, tails, max_size) if path != rel else \
            [b for b in function_imports.bodies(data, tails) if b.domain is not None]
        for body in body_list:
            where = f"{path}:{body.line}"
            for word, start, end, domain in function_imports.call_words(data, body):
                if domain == "?":
                    continue  # a domain passed that cannot be told: the call decides, not the default
                suffix = body.suffix if domain is None else f".{domain}"
                kind = "shell function" if body.shell else "function"
                how = f"the {kind} `{body.name}` defined at {where} ({body.text})"
                found_all.append(Composed(start, end, word, body.prefix, suffix, how))
    return _refused(found_all, matches, hosts) if found_all else matches


def _bodies_of(root: Path, path: str, tails: tuple[str, ...], max_size: int) -> list[function_imports.Body]:
    """function_imports.bodies of the file at `path`, read once while it stays as it is."""
    full = root / path
    try:
        info = full.stat()
    except OSError:
        return []
    if not full.is_file() or info.st_size > max_size:
        return []
    stamp = (info.st_mtime_ns, info.st_size)
    cached = _IMPORTED.get(str(full))
    if cached is not None and cached[0] == stamp and cached[1] == tails:
        return cached[2]
    try:
        text = full.read_bytes()
    except OSError:
        return []
    found = function_imports.bodies(text, tails)
    if len(_IMPORTED) > 256:
        _IMPORTED.clear()
    _IMPORTED[str(full)] = (stamp, tails, found)
    return found
