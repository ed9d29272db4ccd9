"""A Helm name whose host part and domain are both values: `{{ .Values.host }}.{{ .Values.domain }}`.

With `host: pug` and `domain: ana.lan` in the chart's values.yaml the template makes pug.ana.lan.
No byte spells that name, so the plain rules rewrite `host: pug` alone, and where the rename
moves the host to another domain (`pug.ana.lan -> wolf.fv.lan`) the chart then renders
wolf.ana.lan. composed_names.py reads a literal domain after a template (`{{ .Values.host
}}.ana.lan`, which follows with its value); this is the pair of values. The grammar: the pairs a
template composes, and the value a key path holds in a values file. Pure: bytes in, spans out.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterator

from renamer import key_paths, lazy_re
from renamer.tool_names import Composed

LITERAL = b"}}.{{"
_PATH = rb"\$?\.Values\.(?P<%s>[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)"
_PAIR = lazy_re.compile(
    rb"\{\{-?[ \t]*" + (_PATH % b"host") + rb"[ \t]*-?\}\}\.\{\{-?[ \t]*" + (_PATH % b"domain")
                   + rb"[ \t]*-?\}\}")


def pairs(data: bytes) -> Iterator[tuple[tuple[str, ...], tuple[str, ...], int]]:
    """(the host's key path, the domain's, the line) of each `{{ .Values.a }}.{{ .Values.b }}`."""
    if LITERAL not in data:
        return
    for found in _PAIR.finditer(data):
        host, domain = found.group("host").decode(), found.group("domain").decode()
        yield tuple(host.split(".")), tuple(domain.split(".")), data.count(b"\n", 0, found.start()) + 1


def value_spans(data: bytes, path: tuple[str, ...]) -> Iterator[tuple[int, int, str]]:
    """Where a values file's key `path` holds a plain scalar on its own line: (start, end, value)."""
    text = data.decode("utf-8", "replace")
    if len(text.encode()) != len(data):
        return  # offsets by character would not be bytes: a non-ASCII file is left
    lines = text.split("\n")
    offsets = [0]
    for line in lines[:-1]:
        offsets.append(offsets[-1] + len(line) + 1)
    for found in key_paths.key_defs(text, "yaml", {path[-1]}):
        if found.path != path:
            continue
        line = lines[found.line - 1]
        value = re.match(r"[ \t]*(?:-[ \t]+)?" + re.escape(path[-1])
                         + r"[ \t]*:[ \t]*[\"']?(?P<v>[A-Za-z0-9._-]+)", line)
        if value is not None:
            at = offsets[found.line - 1]
            yield at + value.start("v"), at + value.end("v"), value.group("v")


def composed(data: bytes, words: Collection[str], compositions: Collection[tuple[tuple[str, ...], str, str]],
             ) -> Iterator[Composed]:
    """The host words of a values file that a template composes with a domain value: each
    (host key path, domain, where) of `compositions`."""
    for path, domain, where in compositions:
        for start, end, value in value_spans(data, path):
            if value in words:
                yield Composed(start, end, value, "", f".{domain}", where)
