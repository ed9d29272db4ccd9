"""Helm values naming a Kubernetes object (break-it round 20k, finding 6).

A chart's templates make an object's name, or a field naming another object, from its values:
`serviceAccount.name` (the ServiceAccount the chart creates, or the one it uses with
`create: false`), `service.name`, `persistence.*.existingClaim`, `existingSecret`,
`existingConfigMap`, a pod's `serviceAccountName`/`priorityClassName`, an Ingress's
`className`/`ingressClassName` (round 24, finding 25), and bjw-s app-template's
`controllers:` keys (each a Deployment's name suffix, named by `service.*.controller`). Renamed
alone, the value names an object that does not exist, or the chart renames its object (a delete
and a create). Conventions, not a rendering: the templates may live outside the repo (a remote
chart, a Flux HelmRelease's `spec.values`, an Argo CD Application's `helm.values` text).

Pure: the block of YAML text between two offsets, walked line by line by indentation (keys
under list items too, flow mappings on one line, block scalars skipped), never parsed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from renamer import lazy_re

# the value's last key -> the kind of object it names
_KEYS = {b"existingClaim": "PersistentVolumeClaim", b"existingSecret": "Secret",
         b"existingConfigMap": "ConfigMap", b"serviceAccountName": "ServiceAccount",
         b"priorityClassName": "PriorityClass", b"controller": "app-template controller",
         # round 24, finding 25: the IngressClass a chart's Ingress names (`ingress.className`)
         b"className": "IngressClass", b"ingressClassName": "IngressClass"}
# the value's last two keys -> the kind of object it names
_PAIRS = {(b"serviceAccount", b"name"): "ServiceAccount", (b"service", b"name"): "Service"}
CONTROLLER = "app-template controller"
NOTE = ("a chart's value naming {kind} NAME (`{path}`): the chart's templates make an object's name or a "
        "field naming one from it, and the object keeps its name unless the sweep moves identities "
        "(`--allow-identity`); rewritten alone, it names an object that does not exist, or the chart "
        "deletes its object and creates another")
CONTROLLER_NOTE = ("an app-template controller's key (`controllers.NAME`): the chart names the controller's "
                   "Deployment from it (`RELEASE-NAME` where it differs from the release) and selects its "
                   "pods by it; renamed, the Deployment is deleted and another created, and each "
                   "`service.*.controller: NAME` must follow it")
_LINE = lazy_re.compile(rb"(?m)^(?P<indent>[ \t]*)(?P<rest>[^\s#][^\n]*)$")
_DASHES = lazy_re.compile(rb"(?:-[ \t]+)+|-$")
_KEY = re.compile(rb"""(?P<q>["']?)(?P<key>[^\s:"'#{}\[\],][^:"'#{}\[\],]*?)(?P=q)[ \t]*:(?:[ \t]+|$)""")
_VALUE = lazy_re.compile(
    rb"""(?P<q>["']?)(?P<v>[^\s"'#,{}\[\]|>&*!][^\s"'#,{}\[\]]*)(?P=q)[ \t]*(?:#.*)?\r?$""")
_FLOW = lazy_re.compile(
    rb"""(?:^|[{,])[ \t]*["']?(?P<k>[^\s:"'{},]+)["']?[ \t]*:[ \t]*["']?(?P<v>[^\s,}"'#]+)""")


@dataclass(frozen=True)
class ValueName:
    """A value (or an app-template controller's key) naming an object: bytes start:end, its kind,
    the note."""

    start: int
    end: int
    kind: str
    note: str


def _judge(path: tuple[bytes, ...], start: int, end: int) -> ValueName | None:
    kind = _KEYS.get(path[-1]) or (_PAIRS.get((path[-2], path[-1])) if len(path) > 1 else None)
    if kind is None:
        return None
    return ValueName(start, end, kind, NOTE.format(kind=kind, path=".".join(p.decode("utf-8", "replace")
                                                                             for p in path)))


def value_names(data: bytes, start: int, end: int) -> list[ValueName]:
    """The values naming an object in the YAML block between `start` and `end` (a values file, a
    HelmRelease's `spec.values`): paths are read from the block's own left edge."""
    out: list[ValueName] = []
    stack: list[tuple[int, bytes]] = []  # (column, key) of the keys above the line
    literal: int | None = None  # a block scalar's key column: deeper lines are its text
    for line in _LINE.finditer(data, start, end):
        column = len(line.group("indent"))
        if literal is not None:
            if column > literal:
                continue
            literal = None
        at = line.start("rest")
        dashes = _DASHES.match(data, at, line.end())
        if dashes is not None:  # a list item: its key stands after the dash
            stack = [s for s in stack if s[0] <= column]
            column += dashes.end() - at
            at = dashes.end()
        else:
            stack = [s for s in stack if s[0] < column]
        key = _KEY.match(data, at, line.end())
        if key is None:
            continue
        name = key.group("key")
        path = (*(k for _, k in stack), name)
        value_at = key.end()
        rest = data[value_at:line.end()].strip()
        if len(path) == 2 and path[0] == b"controllers" and (not rest or rest[:1] in (b"#", b"{")):
            out.append(ValueName(key.start("key"), key.end("key"), CONTROLLER, CONTROLLER_NOTE))
        if not rest or rest.startswith(b"#"):
            stack.append((column, name))
        elif rest[:1] in (b"|", b">"):
            literal = column
        elif rest.startswith(b"{"):
            for item in _FLOW.finditer(data, value_at, line.end()):
                found = _judge((*path, item.group("k")), item.start("v"), item.end("v"))
                out += [found] if found is not None else []
        else:
            value = _VALUE.match(data, value_at, line.end())
            found = _judge(path, value.start("v"), value.end("v")) if value is not None else None
            out += [found] if found is not None else []
    return out
