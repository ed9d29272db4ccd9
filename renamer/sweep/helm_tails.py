"""A Helm chart's `{{ .Values.host }}.{{ .Values.domain }}`: the host value follows only where the
name does (the grammar is renamer/helm_tails.py).

The plan reads, once, each chart's templates holding `}}.{{` (a chart: a folder with Chart.yaml;
a record's templates are none) and its values.yaml: where the domain's key holds a literal
domain, the host's key of that values file composes with it. The scan of that values file then
refuses the host word (`composed-name`) where the rename would make a name that does not exist
(`wolf.ana.lan` for `pug.ana.lan -> wolf.fv.lan`); where the domain stays, it follows.
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable, Sequence
from pathlib import Path

from renamer import helm_tails
from renamer.formats.yaml_source import parse_yaml_text
from renamer.occurrences import Match
from renamer.sweep.tool_names import _read, _refused, _words

# (values file, the host's key path, the domain it composes with, where)
Compositions = tuple[tuple[str, tuple[str, ...], str, str], ...]


def helm_compositions(root: Path, files: Sequence[str], limit: int,
                      record: Callable[[str], bool] = lambda rel: False) -> Compositions:
    charts = {posixpath.dirname(rel) for rel in files if posixpath.basename(rel) == "Chart.yaml"}
    if not charts:
        return ()
    listed = set(files)
    out: list[tuple[str, tuple[str, ...], str, str]] = []
    values_docs: dict[str, object] = {}
    for rel in files:
        chart = next((c for c in charts if rel.startswith((c + "/templates/") if c else "templates/")), None)
        if chart is None or record(rel):
            continue
        data = _read(root, rel, limit)
        found = list(helm_tails.pairs(data)) if data is not None else []
        if not found:
            continue
        values = posixpath.join(chart, "values.yaml") if chart else "values.yaml"
        if values not in listed:
            continue
        if values not in values_docs:
            text = _read(root, values, limit)
            values_docs[values] = parse_yaml_text(text.decode("utf-8", "replace"), pure=True) if text else {}
        for host, domain_path, line in found:
            domain = _get(values_docs[values], domain_path)
            if isinstance(domain, str) and "." in domain:
                named = ".".join(domain_path)
                how = (f"`{{{{ .Values.{'.'.join(host)} }}}}.{{{{ .Values.{named} }}}}` of {rel}:{line}"
                       f" (`{named}: {domain}` here)")
                out.append((values, host, domain, how))
    return tuple(out)


def _get(document: object, path: tuple[str, ...]) -> object:
    for part in path:
        if not isinstance(document, dict):
            return None
        document = document.get(part)
    return document


def helm_matches(data: bytes, rel: str, matches: list[Match], hosts: tuple[tuple[str, str], ...],
                 compositions: Compositions) -> list[Match]:
    """A values file's host words a chart template composes with a domain value: refused where
    the rename would break the name."""
    mine = [(path, domain, how) for values, path, domain, how in compositions if values == rel]
    if not mine:
        return matches
    return _refused(helm_tails.composed(data, _words(hosts), mine), matches, hosts)


def held_lines(root: Path, compositions: Compositions, hosts: tuple[tuple[str, str], ...],
               limit: int) -> list[tuple[str, int]]:
    """The values files' lines whose host word helm_matches refuses: a definition the sweep
    leaves as it is, which a template's `{{ .Values.host }}.ana.lan` elsewhere then reads as kept."""
    out = []
    for values in sorted({c[0] for c in compositions}):
        data = _read(root, values, limit)
        if data is None:
            continue
        for found in helm_matches(data, values, [], hosts, compositions):
            if found.refused is not None:
                out.append((values, data.count(b"\n", 0, found.start) + 1))
    return out
