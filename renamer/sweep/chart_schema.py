"""A Helm chart's own names: its dependencies and the values keys they read (break-it round 23,
finding 17).

A host named after its software (`grafana -> metrics`) made Chart.yaml's `dependencies: - name:
grafana` `metrics` (no such chart: `helm dependency update` fails) and the values keys that are the
subchart's schema (`grafana:`, `grafana.ini:`, kube-prometheus-stack's `grafana: {enabled: false}`)
`metrics...`, which Helm ignores silently: Grafana deployed again, the subchart on defaults. Like
an image's repository path (image_refs.py), these are the software's names, not the host's:

* a dependency's `name:` and `condition:` (a values path under it) in a Chart.yaml: kept `chart`;
* in a values file of a chart with dependencies (`values*.yaml` beside its Chart.yaml), a mapping
  key (never a value) inside the top-level block of a dependency (its name or alias), where the
  old name is a software's (a dependency's name, or image_refs.WELL_KNOWN): kept `chart`
  (`root_url: https://grafana.lab.example` under it still follows; a host-keyed map such as
  `frontend: {hosts: {pug: ...}}` still follows as round 7's subchart keys do).

Reads the Chart.yaml beside a values file; otherwise pure.
"""

from __future__ import annotations

import posixpath
import re
from dataclasses import replace
from pathlib import Path

from renamer import image_refs
from renamer.occurrences import Match

KEPT = "chart"
_DEPENDENCIES = re.compile(rb"(?m)^dependencies:[ \t]*\r?\n"
                           rb"((?:[ \t]+[^\n]*\n|[ \t]*-[^\n]*\n|[ \t]*\r?\n)*)")
# a dependency's name and alias; its `condition:` names values paths under them (`grafana.enabled`)
_FIELD = re.compile(rb"(?m)^[ \t]*(?:-[ \t]+)?(name|alias|condition):[ \t]*[\"']?"
                    rb"([A-Za-z0-9._-]+(?:,[A-Za-z0-9._-]+)*)")
_KEY = re.compile(rb"(?m)^([ \t]*)(?:-[ \t]+)?[\"']?([^\s:#\"'{}\[\],][^:#\"'{}\[\]\n]*?)[\"']?"
                  rb":(?:[ \t]|\r?$)")


def dependency_names(chart: bytes) -> dict[str, tuple[int, int]]:
    """Each dependency's name and alias in a Chart.yaml, with the span of its `name:` value (an
    alias: (0, 0)); a `condition:`'s span under its own text (never a values key: it has a dot)."""
    block = _DEPENDENCIES.search(chart)
    if block is None:
        return {}
    out: dict[str, tuple[int, int]] = {}
    for m in _FIELD.finditer(chart, block.start(1), block.end(1)):
        field, text = m.group(1), m.group(2).decode("ascii", "replace")
        if field == b"condition":
            out[f"condition:{text}"] = m.span(2)
        else:
            out[text] = m.span(2) if field == b"name" else (0, 0)
    return out


def is_values(rel: str) -> bool:
    name = posixpath.basename(rel)
    return name.startswith("values") and name.endswith((".yaml", ".yml"))


def held(root: Path, rel: str, data: bytes, matches: list[Match],
         cache: dict[str, bytes | None]) -> list[Match]:
    """`matches` with a chart's own names kept `chart` (module docstring)."""
    name = posixpath.basename(rel)
    if name == "Chart.yaml":
        spans = [span for span in dependency_names(data).values() if span != (0, 0)]
        return [_kept(m) if any(s <= m.start and m.end <= e for s, e in spans) else m for m in matches]
    if not is_values(rel):
        return matches
    chart_rel = posixpath.join(posixpath.dirname(rel), "Chart.yaml")
    if chart_rel not in cache:
        try:
            cache[chart_rel] = (root / chart_rel).read_bytes()
        except OSError:
            cache[chart_rel] = None
    chart = cache[chart_rel]
    names = {n for n in dependency_names(chart) if not n.startswith("condition:")} if chart else set()
    if not names:
        return matches
    keys = _schema_keys(data, names)
    software = {n.lower() for n in names} | image_refs.WELL_KNOWN
    # only a software's name is its schema's: `frontend: {hosts: {pug: ...}}` is a host-keyed map
    # the subchart reads (sweep/key_index.py follows it), `grafana.ini:` is Grafana's
    return [_kept(m) if m.old.partition(".")[0].lower() in software
            and any(s <= m.start and m.end <= e for s, e in keys) else m for m in matches]


def _schema_keys(data: bytes, names: set[str]) -> list[tuple[int, int]]:
    """Spans of the mapping keys inside each dependency's top-level block of a values file."""
    out: list[tuple[int, int]] = []
    inside = False
    for m in _KEY.finditer(data):
        indent, key = m.group(1), m.group(2).decode("utf-8", "replace").strip()
        if not indent and data[m.start():m.start() + 1] != b"-":
            inside = key in names
        if inside:
            out.append(m.span(2))
    return out


def _kept(m: Match) -> Match:
    if m.kind != "host" or m.refused is not None or m.kept is not None:
        return m
    return replace(m, kept=KEPT)
