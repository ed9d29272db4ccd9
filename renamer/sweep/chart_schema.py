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

Round 24 (findings 06, 09): the same names in the other files and layouts Helm reads them from:

* Helm 2's `requirements.yaml` (read by Helm 3 for apiVersion v1 charts), `requirements.lock` and
  `Chart.lock` (a lock whose names differ from the chart's fails `helm dependency build`): each
  dependency's `name:`/`condition:` kept `chart`, and a values file beside them reads them too;
* a flow-style `dependencies: [{name: grafana, ...}]` (any of those files);
* inline values, a values file in another dress: a Flux HelmRelease's `spec.values`, an Argo CD
  source's `helm.valuesObject` (or `values:` as a mapping), a helmfile release's `values:` items:
  the keys inside a top-level block named after a software (the release's chart, or
  image_refs.WELL_KNOWN) kept `chart` (kube-prometheus-stack's `grafana: {enabled: false}`).

Reads the Chart.yaml (or requirements.yaml) beside a values file; otherwise pure.
"""

from __future__ import annotations

import posixpath
import re
from dataclasses import replace
from pathlib import Path

from renamer import image_refs, lazy_re, software_refs
from renamer.occurrences import Match

KEPT = "chart"
_DEPENDENCIES = lazy_re.compile(rb"(?m)^dependencies:[ \t]*\r?\n"
                           rb"((?:[ \t]+[^\n]*\n|[ \t]*-[^\n]*\n|[ \t]*\r?\n)*)")
# a dependency's name and alias; its `condition:` names values paths under them (`grafana.enabled`)
_FIELD = lazy_re.compile(rb"(?m)^[ \t]*(?:-[ \t]+)?(name|alias|condition):[ \t]*[\"']?"
                    rb"([A-Za-z0-9._-]+(?:,[A-Za-z0-9._-]+)*)")
_FLOW = lazy_re.compile(rb"(?m)^dependencies:[ \t]*\[")
_FLOW_FIELD = lazy_re.compile(rb"(?:^|[{,\s])(name|alias|condition)[ \t]*:[ \t]*[\"']?"
                         rb"([A-Za-z0-9._-]+(?:,[A-Za-z0-9._-]+)*)")
# the files that declare a chart's dependencies (Chart.yaml's `dependencies:` or Helm 2's) and the
# locks Helm writes from them
DECLARING = ("Chart.yaml", "requirements.yaml", "requirements.yml")
LOCKS = ("Chart.lock", "requirements.lock")
_KEY = re.compile(rb"(?m)^([ \t]*)(?:-[ \t]+)?[\"']?([^\s:#\"'{}\[\],][^:#\"'{}\[\]\n]*?)[\"']?"
                  rb":(?:[ \t]|\r?$)")


def dependency_names(chart: bytes) -> dict[str, tuple[int, int]]:
    """Each dependency's name and alias in a Chart.yaml, with the span of its `name:` value (an
    alias: (0, 0)); a `condition:`'s span under its own text (never a values key: it has a dot)."""
    block = _DEPENDENCIES.search(chart)
    fields, start, end = _FIELD, *(block.span(1) if block else (0, 0))
    if block is None:
        flow = _FLOW.search(chart)
        if flow is None:
            return {}
        fields, start, end = _FLOW_FIELD, flow.end(), _flow_end(chart, flow.end() - 1)
    out: dict[str, tuple[int, int]] = {}
    for m in fields.finditer(chart, start, end):
        field, text = m.group(1), m.group(2).decode("ascii", "replace")
        if field == b"condition":
            out[f"condition:{text}"] = m.span(2)
        else:
            out[text] = m.span(2) if field == b"name" else (0, 0)
    return out


def _flow_end(data: bytes, at: int) -> int:
    """The offset after the `]` closing the flow sequence opened at `at` (quotes skipped)."""
    depth, quote = 0, 0
    for pos in range(at, len(data)):
        byte = data[pos]
        if quote:
            quote = 0 if byte == quote else quote
        elif byte in b"\"'":
            quote = byte
        elif byte in b"[{":
            depth += 1
        elif byte in b"]}":
            depth -= 1
            if depth == 0:
                return pos + 1
    return len(data)


def is_chart_file(rel: str) -> bool:
    """Does `rel` declare or lock a chart's dependencies (Chart.yaml, requirements.yaml, a lock)?"""
    return posixpath.basename(rel) in (*DECLARING, *LOCKS)


def is_values(rel: str) -> bool:
    name = posixpath.basename(rel)
    return name.startswith("values") and name.endswith((".yaml", ".yml"))


def held(root: Path, rel: str, data: bytes, matches: list[Match],
         cache: dict[str, bytes | None]) -> list[Match]:
    """`matches` with a chart's own names kept `chart` (module docstring)."""
    if is_chart_file(rel):
        spans = [span for span in dependency_names(data).values() if span != (0, 0)]
        return [_kept(m) if any(s <= m.start and m.end <= e for s, e in spans) else m for m in matches]
    if not is_values(rel):
        return inline_values(data, matches) if might_inline(data) else matches
    names: set[str] = set()
    for declaring in DECLARING:
        chart_rel = posixpath.join(posixpath.dirname(rel), declaring)
        if chart_rel not in cache:
            try:
                cache[chart_rel] = (root / chart_rel).read_bytes()
            except OSError:
                cache[chart_rel] = None
        chart = cache[chart_rel]
        names |= {n for n in dependency_names(chart) if not n.startswith("condition:")} if chart else set()
    if not names:
        return matches
    keys = _schema_keys(data, names)
    software = {n.lower() for n in names} | image_refs.WELL_KNOWN
    # only a software's name is its schema's: `frontend: {hosts: {pug: ...}}` is a host-keyed map
    # the subchart reads (sweep/key_index.py follows it), `grafana.ini:` is Grafana's
    return [_kept(m) if m.old.partition(".")[0].lower() in software
            and any(s <= m.start and m.end <= e for s, e in keys) else m for m in matches]


_INLINE = lazy_re.compile(rb"(?m)^(?P<i>[ \t]*)(?:-[ \t]+)?(?:values|valuesObject)[ \t]*:[ \t]*\r?$")
_CHART = lazy_re.compile(
    rb"(?m)^[ \t]*(?:-[ \t]+)?chart[ \t]*:[ \t]*[\"']?(?:[A-Za-z0-9._-]+/)?([A-Za-z0-9._-]+)")


def might_inline(data: bytes) -> bool:
    """Can `data` hold inline Helm values (inline_values)? Cheap byte tests first."""
    return b"alues" in data and (b"HelmRelease" in data or b"valuesObject" in data or b"releases:" in data
                                 or b"Application" in data)


def inline_values(data: bytes, matches: list[Match]) -> list[Match]:
    """`matches` with the keys of a software's block in inline Helm values kept `chart` (a Flux
    HelmRelease's `spec.values`, an Argo CD `valuesObject`, a helmfile release's `values:` list)."""
    software = set(image_refs.WELL_KNOWN) | {m.group(1).decode("ascii", "replace").lower()
                                             for m in _CHART.finditer(data)}
    keys: list[tuple[int, int]] = []
    for block in _INLINE.finditer(data):
        end = software_refs.block_end(data, block.end(), len(block.group("i")), dash=True)
        keys += _schema_keys(data, software, block.end(), end, lower=True)
    if not keys:
        return matches
    return [_kept(m) if m.old.partition(".")[0].lower() in software
            and any(s <= m.start and m.end <= e for s, e in keys) else m for m in matches]


def _schema_keys(data: bytes, names: set[str], start: int = 0, end: int | None = None, *,
                 lower: bool = False) -> list[tuple[int, int]]:
    """Spans of the mapping keys inside each dependency's top-level block of a values file; with
    `end`, of the inline values block start:end, whose top level is its first key's column (a
    list item's key counts from after its `- `)."""
    out: list[tuple[int, int]] = []
    inside = False
    top: int | None = 0 if end is None else None
    for m in _KEY.finditer(data, start, len(data) if end is None else end):
        indent, key = m.group(1), m.group(2).decode("utf-8", "replace").strip()
        dash = data[m.start() + len(indent):m.start() + len(indent) + 1] == b"-"
        if end is None:
            level = not indent and not dash
        else:
            column = len(indent) + (2 if dash else 0)
            top = column if top is None else top
            level = column == top
        if level:
            inside = (key.lower() if lower else key) in names
        if inside:
            out.append(m.span(2))
    return out


def _kept(m: Match) -> Match:
    if m.kind != "host" or m.refused is not None or m.kept is not None:
        return m
    return replace(m, kept=KEPT)
