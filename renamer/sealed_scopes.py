"""A SealedSecret's namespace set from outside its file (break-it round 17, finding 3c): the seal
binds the namespace the object lands in (strict and namespace-wide scope), and that is often not
written in the SealedSecret at all but by whatever applies it:

* a kustomization's `namespace:` (kustomize sets it on every resource it builds, its own namespace
  or none; through `resources:`, `bases:` and `components:`, a base's kustomization too);
* a Flux `Kustomization`'s `spec.targetNamespace` over its `spec.path`;
* a Flux `HelmRelease`'s `targetNamespace` (or its own `namespace`) over a chart in the repo;
* an Argo CD `Application`'s `destination.namespace` over its `source.path`;
* a command line, `kubectl apply -n pug -f k8s/app`, `helm upgrade --install x ./chart
  --namespace=pug`, naming a path of the repo.

Where the applied path (a file, or a folder read whole, however deep) holds a SealedSecret not
sealed cluster-wide, that namespace value is sealed as the SealedSecret's own `namespace:` is:
each old value there is refused `sealed-secret`, never rewritten. Read only for a file whose
bytes say `namespace` and hold an old value; each applied path is read once per sweep.
"""

from __future__ import annotations

import itertools
import os
import posixpath
import re
import shlex
from dataclasses import replace
from typing import Any

from renamer import lazy_re
from renamer.formats.yaml_source import parse_yaml_text
from renamer.occurrences import Match
from renamer.sealed import SEALED_SECRET, sealed_secret_spans, value_end

KUSTOMIZATIONS = ("kustomization.yaml", "kustomization.yml", "Kustomization")
_GATE = lazy_re.compile(rb"[Nn]amespace")
_DOCUMENT = lazy_re.compile(rb"(?m)^---")
_READ = 1024 * 1024
_MAX_FILES = 5000  # a folder read whole: past this many manifests, bound (never an OK by omission)
_COMMAND = lazy_re.compile(rb"\b(?:kubectl|helm|kubeseal|oc)\b")
_NS_FLAG = lazy_re.compile(rb"(?:(?<=\s)|^)(?:-n|--namespace)(?:[ \t]+|=)[\"']?"
                      rb"(?P<value>[A-Za-z0-9][A-Za-z0-9.-]*)")


def _key_spans(data: bytes, keys: tuple[str, ...], start: int, stop: int, *,
               top: bool = False) -> list[tuple[int, int]]:
    indent = rb"" if top else rb"[ \t]*(?:-[ \t]+)*"
    pattern = re.compile(rb"(?m)(?:^" + indent + rb"|[{,][ \t]*)[\"']?(?P<key>"
                         + b"|".join(re.escape(k.encode()) for k in keys) + rb")[\"']?[ \t]*:")
    return [(m.start("key"), value_end(data, m.end(), stop)) for m in pattern.finditer(data, start, stop)]


class Scopes:
    """The namespaces a tree's kustomizations, Flux and Argo CD objects and command lines set on
    SealedSecrets, found per file on demand (sealed_scopes.held)."""

    def __init__(self, root: str) -> None:
        self.root = root
        self._bound: dict[str, bool] = {}

    # -- what a path applies --------------------------------------------------------------

    def _read(self, rel: str) -> bytes | None:
        try:
            with open(os.path.join(self.root, rel), "rb") as f:
                return f.read(_READ)
        except OSError:
            return None

    def _file_binds(self, rel: str) -> bool:
        data = self._read(rel)
        return data is not None and b"SealedSecret" in data and bool(sealed_secret_spans(data))

    def binds(self, rel: str, seen: frozenset[str] = frozenset()) -> bool:
        """Whether applying `rel` (a manifest, a kustomization's folder, a folder read whole)
        lands a SealedSecret whose seal binds its namespace."""
        rel = posixpath.normpath(rel or ".")
        if rel == ".." or rel.startswith(("../", "/")):
            return False
        cached = self._bound.get(rel)
        if cached is not None:
            return cached
        if rel in seen:
            return False
        self._bound[rel] = False  # a cycle of kustomizations reads as nothing more
        path = os.path.join(self.root, rel)
        if os.path.isfile(path):
            found = (self._kustomization_binds(rel, seen | {rel})
                     if posixpath.basename(rel) in KUSTOMIZATIONS else self._file_binds(rel))
        elif os.path.isdir(path):
            inner = next((posixpath.join(rel, k) for k in KUSTOMIZATIONS
                          if os.path.isfile(os.path.join(path, k))), None)
            found = (self._kustomization_binds(inner, seen | {rel}) if inner is not None
                     else self._folder_binds(rel))
        else:
            found = False
        self._bound[rel] = found
        return found

    def _folder_binds(self, rel: str) -> bool:
        count = 0
        for folder, dirs, files in os.walk(os.path.join(self.root, rel)):
            dirs[:] = sorted(d for d in dirs if d != ".git")
            for name in sorted(files):
                if not name.endswith((".yaml", ".yml", ".json", ".tpl")):
                    continue
                count += 1
                if count > _MAX_FILES:
                    return True
                if self._file_binds(os.path.relpath(os.path.join(folder, name), self.root)):
                    return True
        return False

    def _entries(self, rel: str) -> list[str]:
        data = self._read(rel)
        parsed = parse_yaml_text(data.decode("utf-8", "replace")) if data is not None else None
        if not isinstance(parsed, dict):
            return []
        folder = posixpath.dirname(rel)
        out = []
        for key in ("resources", "bases", "components"):
            entries = parsed.get(key)
            for entry in entries if isinstance(entries, list) else []:
                if not isinstance(entry, str) or "://" in entry or entry.startswith(("/", "github.com/")):
                    continue
                out.append(posixpath.join(folder, entry))
        return out

    def _kustomization_binds(self, rel: str, seen: frozenset[str]) -> bool:
        return any(self.binds(entry, seen) for entry in self._entries(rel))

    # -- where a file sets a namespace ----------------------------------------------------

    def spans(self, rel: str, data: bytes) -> list[tuple[int, int]]:
        """The namespace values `data` (the file `rel`) sets on a SealedSecret it applies."""
        if b"amespace" not in data or _GATE.search(data) is None:  # `in` first: a fast scan
            return []
        out: list[tuple[int, int]] = []
        if posixpath.basename(rel) in KUSTOMIZATIONS:
            if self._kustomization_binds(rel, frozenset({rel})):
                out += _key_spans(data, ("namespace", "nameSuffix", "namePrefix"), 0, len(data), top=True)
                out += _patch_spans(data)  # break-it round 19, finding 7: a patch setting the namespace
        elif rel.endswith((".yaml", ".yml", ".json", ".gotmpl")):
            out += self._object_spans(data)
            if b"releases" in data:
                out += self._helmfile_spans(rel, data)
        if _COMMAND.search(data) is not None:
            out += self._command_spans(data)
        return out

    def _object_spans(self, data: bytes) -> list[tuple[int, int]]:
        if not any(word in data for word in (b"targetNamespace", b"destination", b"HelmRelease")):
            return []
        out = []
        bounds = [0, *(m.start() for m in _DOCUMENT.finditer(data)), len(data)]
        for start, stop in itertools.pairwise(bounds):
            document = parse_yaml_text(data[start:stop].decode("utf-8", "replace"))
            paths = _applied_paths(document)
            if paths and any(self.binds(path) for path in paths):
                out += _key_spans(data, ("namespace", "targetNamespace"), start, stop)
                # An ApplicationSet's `namespace: "{{ns}}"`: the generator's elements give it
                params = _namespace_params(document)
                if params:
                    out += _key_spans(data, params, start, stop)
        return out

    def _helmfile_spans(self, rel: str, data: bytes) -> list[tuple[int, int]]:
        """A helmfile's release `namespace:` over a chart folder of the repo (break-it round 19,
        finding 7): each release whose chart binds, by its place among the releases."""
        out: list[tuple[int, int]] = []
        bounds = [0, *(m.start() for m in _DOCUMENT.finditer(data)), len(data)]
        folder = posixpath.dirname(rel)
        for start, stop in itertools.pairwise(bounds):
            document = parse_yaml_text(data[start:stop].decode("utf-8", "replace"))
            releases = document.get("releases") if isinstance(document, dict) else None
            if not isinstance(releases, list):
                continue
            heads = list(_ITEM.finditer(data, start, stop))
            at = data.find(b"releases", start, stop)
            heads = [h for h in heads if h.start() > at]
            if heads:  # the release items: the list items at the first item's indent
                indent = heads[0].group(1)
                heads = [h for h in heads if h.group(1) == indent]
            for i, release in enumerate(releases):
                chart = release.get("chart") if isinstance(release, dict) else None
                if not isinstance(chart, str) or not chart.startswith(("./", "../")):
                    continue
                if not self.binds(posixpath.join(folder, chart)):
                    continue
                if len(heads) != len(releases):  # items not told apart: every namespace of the file
                    return _key_spans(data, ("namespace",), start, stop)
                end = heads[i + 1].start() if i + 1 < len(heads) else stop
                out += _key_spans(data, ("namespace",), heads[i].start(), end)
        return out

    def _command_spans(self, data: bytes) -> list[tuple[int, int]]:
        out = []
        for line in re.finditer(rb"(?m)^.*$", data):
            text = line.group()
            if _COMMAND.search(text) is None or (flag := _NS_FLAG.search(text)) is None:
                continue
            try:
                words = shlex.split(text.decode("utf-8", "replace"), comments=True)
            except ValueError:
                words = text.decode("utf-8", "replace").split()
            paths = [w.split("=", 1)[1] if w.startswith("--") and "=" in w else w for w in words]
            if any(self._is_applied(p) for p in paths):
                out.append((line.start() + flag.start("value"), line.start() + flag.end("value")))
        return out

    def _is_applied(self, word: str) -> bool:
        word = word.strip("\"'")
        if not word or word.startswith("-") or "$" in word:
            return False
        if not os.path.exists(os.path.join(self.root, word)):
            return False
        return posixpath.normpath(word) not in (".", "") and self.binds(word)


def _applied_paths(document: Any) -> list[str]:
    """The repo paths a Flux Kustomization, a HelmRelease or an Argo CD Application applies."""
    if not isinstance(document, dict) or not isinstance(document.get("spec"), dict):
        return []
    kind, spec = document.get("kind"), document["spec"]
    out: list[object] = []
    if kind == "Kustomization":
        out.append(spec.get("path"))
    elif kind == "HelmRelease":
        chart = spec.get("chart")
        inner = chart.get("spec") if isinstance(chart, dict) else None
        out.append(inner.get("chart") if isinstance(inner, dict) else None)
        chart_ref = spec.get("chartRef")
        out.append(chart_ref.get("path") if isinstance(chart_ref, dict) else None)
    elif kind in ("Application", "ApplicationSet"):
        if kind == "ApplicationSet" and isinstance(spec.get("template"), dict) \
                and isinstance(spec["template"].get("spec"), dict):
            spec = spec["template"]["spec"]  # break-it round 19, finding 7: the template's source
        sources = [spec.get("source"), *(spec.get("sources") or [])]
        out += [s.get("path") for s in sources if isinstance(s, dict)]
    return [posixpath.normpath(p) for p in out if isinstance(p, str) and p and "://" not in p]


_ITEM = lazy_re.compile(rb"(?m)^([ \t]*)-[ \t]+")
_PARAM = lazy_re.compile(r"\{\{-?\s*\.?([A-Za-z_][A-Za-z0-9_]*)\s*-?\}\}")
# A JSON6902 patch setting the namespace (`- op: add`, `path: /metadata/namespace`, `value: pug`),
# inline or inside a `patch: |-` block; and a strategic-merge patch's `namespace:`.
_NS_PATCH = lazy_re.compile(rb"path[\"']?[ \t]*:[ \t]*[\"']?/metadata/namespace[\"']?[ \t]*[,}\n]")
_PATCH_VALUE = lazy_re.compile(rb"(?:^|[{,\s])[\"']?value[\"']?[ \t]*:[ \t]*")


def _patch_spans(data: bytes) -> list[tuple[int, int]]:
    """The namespace values a kustomization's patches set (break-it round 19, finding 7)."""
    if b"patch" not in data:
        return []
    out = []
    first = re.search(rb"(?m)^[\"']?(?:patches|patchesJson6902|patchesStrategicMerge)[\"']?[ \t]*:", data)
    if first is None:
        return []
    for found in _NS_PATCH.finditer(data, first.start()):
        # the operation's value: the nearest `value:` within the operation (a few lines either side)
        lo, hi = max(first.start(), found.start() - 200), min(len(data), found.end() + 200)
        values = list(_PATCH_VALUE.finditer(data, lo, hi))
        if values:
            value = min(values, key=lambda v: abs(v.end() - found.end()))
            out.append((value.end(), value_end(data, value.end(), len(data))))
    out += _key_spans(data, ("namespace",), first.start(), len(data))
    return out


def _namespace_params(document: Any) -> tuple[str, ...]:
    """The generator parameters an ApplicationSet's destination namespace is made of (`{{ns}}`,
    `{{.ns}}`)."""
    spec = document.get("spec") if isinstance(document, dict) else None
    template = spec.get("template") if isinstance(spec, dict) else None
    inner = template.get("spec") if isinstance(template, dict) else None
    destination = inner.get("destination") if isinstance(inner, dict) else None
    namespace = destination.get("namespace") if isinstance(destination, dict) else None
    if not isinstance(namespace, str):
        return ()
    return tuple(dict.fromkeys(_PARAM.findall(namespace)))


def held(scopes: Scopes, rel: str, data: bytes, matches: list[Match]) -> list[Match]:
    """`matches` with each one inside a namespace set on a SealedSecret refused `sealed-secret`."""
    if not matches or all(m.kept is not None or m.refused is not None for m in matches):
        return matches
    spans = scopes.spans(rel, data)
    if not spans:
        return matches
    note = "the namespace set here on a SealedSecret it applies"
    return [replace(m, refused=SEALED_SECRET, note=note) if m.kept is None and m.refused is None
            and any(start <= m.start and m.end <= end for start, end in spans) else m for m in matches]
