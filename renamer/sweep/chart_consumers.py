"""A Helm chart's names where a chart is consumed, outside the files chart_schema.py reads (break-it
round 25, finding 04).

A host named after its software (`grafana -> dash01`) made the chart and its values keys `dash01`
wherever a chart is installed: Kustomize's `helmCharts:` (the chart's `name:`, `valuesInline:`),
an Argo CD source's `helm.values: |` (YAML inside a string), a helmfile release's `chart:
grafana/grafana` (the repository alias and the chart) with its `repositories:` alias, Terraform's
`helm_release` (`chart =`, a `set { name = "grafana.enabled" }` values path), Argo CD's
`helm.parameters` `name:` and `helm --set grafana.enabled=false`: "chart not found", or a values key
Helm ignores silently (the subchart's default `enabled: true` deploys a second Grafana). Each is
the software's name, not the host's: kept `chart` (chart_schema.KEPT), as a Chart.yaml dependency
is. Pure: bytes in.
"""

from __future__ import annotations

import re
from dataclasses import replace

from renamer import image_refs, lazy_re, software_refs
from renamer.occurrences import Match
from renamer.sweep import chart_schema

WORDS = (b"helmCharts", b"helm_release", b"releases:", b"--set", b"parameters:", b"values: |", b"values: >",
         b"values:|", b"chart:")

_KUSTOMIZE = lazy_re.compile(rb"(?m)^(?P<i>[ \t]*)helmCharts[ \t]*:[ \t]*\r?$")
_ITEM_NAME = lazy_re.compile(
    rb"(?m)^[ \t]*(?:-[ \t]+)?(?:name|chart)[ \t]*:[ \t]*[\"']?(?P<v>[A-Za-z0-9._/-]+)")
_VALUES_INLINE = lazy_re.compile(
    rb"(?m)^(?P<i>[ \t]*)(?:-[ \t]+)?(?:valuesInline|valuesObject)[ \t]*:[ \t]*\r?$")
# a values block scalar: Argo CD's `helm.values: |`, a Flux/helmfile `values: |`
_VALUES_TEXT = lazy_re.compile(rb"(?m)^(?P<i>[ \t]*)(?:-[ \t]+)?values[ \t]*:[ \t]*[|>][+-]?[0-9]?[ \t]*\r?$")
# a helmfile release's or an Argo source's `chart: REPO/CHART` or `chart: CHART`
_CHART = lazy_re.compile(rb"(?m)^[ \t]*(?:-[ \t]+)?chart[ \t]*:[ \t]*[\"']?"
                    rb"(?P<v>[A-Za-z0-9._-]+(?:/[A-Za-z0-9._-]+)?)[\"']?[ \t]*(?:#.*)?\r?$")
_REPOSITORIES = lazy_re.compile(rb"(?m)^(?P<i>[ \t]*)repositories[ \t]*:[ \t]*\r?$")
# Terraform's helm_release: `chart = "grafana"`, a `set {}` block's `name = "grafana.enabled"`
_HELM_RELEASE = lazy_re.compile(rb"(?m)^[ \t]*resource[ \t]+\"helm_release\"[ \t]+\"[^\"]*\"[ \t]*\{")
_TF_CHART = lazy_re.compile(rb"(?m)^[ \t]*chart[ \t]*=[ \t]*\"(?P<v>[^\"\n]*)\"")
_TF_SET = lazy_re.compile(
    rb"(?m)^[ \t]*(?:set|set_sensitive|set_list|set_string)[ \t]*(?:=[ \t]*\[?)?[ \t]*\{")
_TF_SET_NAME = lazy_re.compile(rb"(?:^|[{,\s])name[ \t]*=[ \t]*\"(?P<v>[^\"\n]*)\"")
# Argo CD `helm.parameters: - name: grafana.enabled`; `helm ... --set grafana.enabled=false`
_PARAMETERS = lazy_re.compile(rb"(?m)^(?P<i>[ \t]*)parameters[ \t]*:[ \t]*\r?$")
_PARAM_NAME = lazy_re.compile(rb"(?m)^[ \t]*(?:-[ \t]+)?name[ \t]*:[ \t]*[\"']?(?P<v>[A-Za-z0-9._\[\]\\-]+)")
_HELM_SET = lazy_re.compile(rb"--set(?:-string|-file|-json|-literal)?(?:=|[ \t]+)[\"']?"
                       rb"(?P<v>[A-Za-z0-9._\[\]\\-]+)=")


def might_hold(data: bytes) -> bool:
    return any(word in data for word in WORDS)


def _block(data: bytes, m: re.Match[bytes]) -> tuple[int, int]:
    return m.end(), software_refs.block_end(data, m.end(), len(m.group("i")) + 1, dash=True)


def _software(data: bytes) -> set[str]:
    """The charts `data` installs (their last path part, lower-cased), and the well-known names."""
    names = {m.group("v").decode("ascii", "replace").rsplit("/", 1)[-1].lower()
             for m in _CHART.finditer(data)}
    names |= {m.group("v").decode("ascii", "replace").lower() for m in _TF_CHART.finditer(data)}
    return names | set(image_refs.WELL_KNOWN)


def _in_kustomize(data: bytes, software: set[str]) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for block in _KUSTOMIZE.finditer(data):
        start, end = _block(data, block)
        for item in _ITEM_NAME.finditer(data, start, end):
            line = data[data.rfind(b"\n", 0, item.start()) + 1:item.start("v")]
            depth = len(line) - len(line.lstrip(b" \t-"))
            if depth <= len(block.group("i")) + 4:  # the entry's own `name:`, not a nested one
                out.append(item.span("v"))
                software.add(item.group("v").decode("ascii", "replace").rsplit("/", 1)[-1].lower())
    return out


def _values_keys(data: bytes, software: set[str]) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for pattern in (_VALUES_INLINE, _VALUES_TEXT):
        for block in pattern.finditer(data):
            start, end = _block(data, block)
            out += chart_schema._schema_keys(data, software, start, end, lower=True)
    return out


def _helmfile(data: bytes) -> list[tuple[int, int]]:
    out = [m.span("v") for m in _CHART.finditer(data)]
    aliases = {m.group("v").split(b"/")[0] for m in _CHART.finditer(data) if b"/" in m.group("v")}
    for block in _REPOSITORIES.finditer(data):
        start, end = _block(data, block)
        out += [m.span("v") for m in _ITEM_NAME.finditer(data, start, end) if m.group("v") in aliases]
    return out


def _terraform(data: bytes) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for resource in _HELM_RELEASE.finditer(data):
        end = _brace_end(data, resource.end() - 1)
        out += [m.span("v") for m in _TF_CHART.finditer(data, resource.end(), end)]
        for block in _TF_SET.finditer(data, resource.end(), end):
            stop = _brace_end(data, block.end() - 1)
            out += [m.span("v") for m in _TF_SET_NAME.finditer(data, block.end(), stop)]
    return out


def _brace_end(data: bytes, at: int) -> int:
    depth, quote = 0, False
    for pos in range(at, len(data)):
        byte = data[pos]
        if byte == 0x22 and data[pos - 1] != 0x5C:
            quote = not quote
        elif quote:
            continue
        elif byte == 0x7B:
            depth += 1
        elif byte == 0x7D:
            depth -= 1
            if depth == 0:
                return pos + 1
    return len(data)


def _parameters(data: bytes) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    if b"parameters:" in data and b"helm" in data:
        for block in _PARAMETERS.finditer(data):
            start, end = _block(data, block)
            out += [m.span("v") for m in _PARAM_NAME.finditer(data, start, end)]
    if b"--set" in data:
        for m in _HELM_SET.finditer(data):
            line = data[data.rfind(b"\n", 0, m.start()) + 1:m.start()]
            if b"helm" in line or b"helmfile" in line:
                out.append(m.span("v"))
    return out


def held(data: bytes, matches: list[Match]) -> list[Match]:
    """`matches` with a chart's names where a chart is consumed kept `chart` (module docstring)."""
    if not any(m.kind == "host" and m.refused is None and m.kept is None for m in matches):
        return matches
    software = _software(data)
    whole = _in_kustomize(data, software) + _helmfile(data) + _terraform(data) + _parameters(data)
    keys = _values_keys(data, software)
    if not whole and not keys:
        return matches
    out = []
    for m in matches:
        if m.kind == "host" and m.refused is None and m.kept is None and (
                any(s <= m.start and m.end <= e for s, e in whole)
                or (m.old.partition(".")[0].lower() in software and any(s <= m.start and m.end <= e
                                                                           for s, e in keys))):
            m = replace(m, kept=chart_schema.KEPT)
        out.append(m)
    return out
