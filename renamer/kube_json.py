"""Kubernetes identities in a JSON manifest (break-it round 20k, finding 7).

`kubectl apply -f x.json` reads one object, a `kind: List`, or an array of them: each is a
manifest as a YAML document is. Parsed here with each string's byte span kept (`_JsonStr`), and
read as kube_identities.py reads a YAML document: `metadata.name` and `metadata.namespace`, the
fields naming another object (its tables `_NAMED_BY`, `_LISTED`, `_NAMED_AS`), a workload's
selector, a StatefulSet's claim templates. Pure: bytes in, spans out; no JSON, no identity.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from renamer import lazy_re
from renamer.kube_identities import (
    _LISTED,
    _NAMED_AS,
    _NAMED_BY,
    _NAMESPACE_NOTE,
    _REF_NOTE,
    _SAME,
    _SELECTOR_NOTE,
    _WORKLOADS,
    Identity,
    _name_note,
)


@dataclass(frozen=True)
class _JsonStr:
    value: str
    start: int
    end: int


_JSON_WS = lazy_re.compile(r"[ \t\n\r]+")
_JSON_STRING = lazy_re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_JSON_ATOM = lazy_re.compile(r"-?[0-9][0-9.eE+-]*|true|false|null")
JsonNode = dict[str, "JsonNode"] | list["JsonNode"] | _JsonStr | None


def _skip(text: str, pos: int) -> int:
    """Past the white space at `pos`."""
    found = _JSON_WS.match(text, pos)
    return pos if found is None else found.end()


def _string(text: str, pos: int) -> tuple[str, int]:
    """The JSON string at `pos` (its opening quote): its value and where it ends."""
    found = _JSON_STRING.match(text, pos)
    if found is None:
        raise ValueError(pos)
    value = json.loads(found.group(0))
    if not isinstance(value, str):
        raise ValueError(pos)
    return value, found.end()


def _json_parse(text: str, pos: int) -> tuple[JsonNode, int]:
    pos = _skip(text, pos)
    head = text[pos:pos + 1]
    if head == '"':
        said, after = _string(text, pos)
        return _JsonStr(said, pos + 1, after - 1), after
    if head in ("{", "["):
        close = "}" if head == "{" else "]"
        mapping: dict[str, JsonNode] = {}
        items: list[JsonNode] = []
        pos = _skip(text, pos + 1)
        if text[pos:pos + 1] == close:
            return (mapping if head == "{" else items), pos + 1
        while True:
            if head == "{":
                pos = _skip(text, pos)
                if text[pos:pos + 1] != '"':
                    raise ValueError(pos)
                key, pos = _string(text, pos)
                pos = _skip(text, pos)
                if text[pos:pos + 1] != ":":
                    raise ValueError(pos)
                value, pos = _json_parse(text, pos + 1)
                mapping.setdefault(key, value)
            else:
                value, pos = _json_parse(text, pos)
                items.append(value)
            pos = _skip(text, pos)
            if text[pos:pos + 1] == ",":
                pos += 1
                continue
            if text[pos:pos + 1] == close:
                return (mapping if head == "{" else items), pos + 1
            raise ValueError(pos)
    atom = _JSON_ATOM.match(text, pos)
    if atom is None:
        raise ValueError(pos)
    return None, atom.end()


def json_identities(data: bytes) -> list[Identity]:
    """The identities of a JSON manifest (nothing where `data` is no JSON or holds none)."""
    try:  # latin-1: a character per byte, so the spans are byte offsets
        tree, _ = _json_parse(data.decode("latin-1"), 0)
    except (ValueError, IndexError, RecursionError):
        return []
    out: list[Identity] = []
    _json_objects(tree, out)
    return out


def _json_objects(node: JsonNode, out: list[Identity]) -> None:
    if isinstance(node, list):
        for item in node:
            _json_objects(item, out)
        return
    if not isinstance(node, dict):
        return
    kind, version = node.get("kind"), node.get("apiVersion")
    if not isinstance(kind, _JsonStr) or not isinstance(version, _JsonStr):
        return
    if kind.value.endswith("List") and isinstance(node.get("items"), list):
        _json_objects(node["items"], out)
        return
    meta = node.get("metadata")
    given = ""
    if isinstance(meta, dict):
        ns, name = meta.get("namespace"), meta.get("name")
        given = ns.value if isinstance(ns, _JsonStr) else ""
        called = name.value if isinstance(name, _JsonStr) else "NAME"
        if isinstance(ns, _JsonStr):
            out.append(Identity(ns.start, ns.end, kind.value, "namespace",
                                f"renaming the namespace of {kind.value} {called} moves it to another "
                                "namespace: `kubectl apply` creates it there and the old one stays (or a "
                                "pruning apply deletes it)"))
        if isinstance(name, _JsonStr):
            out.append(Identity(name.start, name.end, kind.value, "name",
                                _name_note(kind.value, given or "NS", []), given))
    spec = node.get("spec")
    if isinstance(spec, dict):
        if kind.value in _WORKLOADS:
            note = _SELECTOR_NOTE.format(kind=kind.value)
            out += [Identity(s.start, s.end, kind.value, "selector", note, given)
                    for s in _json_selector(spec)]
        claims = spec.get("volumeClaimTemplates")
        for claim in claims if kind.value == "StatefulSet" and isinstance(claims, list) else []:
            named = _json_path(claim, "metadata", "name")
            if isinstance(named, _JsonStr):
                out.append(Identity(named.start, named.end, kind.value, "claim-template",
                                    "a StatefulSet's volume claim template's name: its pods' claims are "
                                    "named from it; renamed, every pod starts with a new, empty claim"))
    for key, value in node.items():
        if key != "metadata":
            _json_refs(key, value, given, kind.value, out)


def _json_path(node: JsonNode, *keys: str) -> JsonNode:
    for key in keys:
        if not isinstance(node, dict):
            return None
        node = node.get(key)
    return node


def _json_selector(spec: dict[str, JsonNode]) -> list[_JsonStr]:
    chosen = _json_path(spec, "selector", "matchLabels")
    if not isinstance(chosen, dict):
        return []
    out = [v for v in chosen.values() if isinstance(v, _JsonStr)]
    labels = _json_path(spec, "template", "metadata", "labels")
    if isinstance(labels, dict):
        out += [v for k, v in labels.items() if k in chosen and isinstance(v, _JsonStr)]
    return out


def _json_refs(key: str, node: JsonNode, namespace: str, own: str, out: list[Identity]) -> None:
    """The fields naming another object under `key` (the tables of the YAML reader), recursively."""
    raw = key.encode("utf-8", "replace")
    if raw in _NAMED_AS and isinstance(node, _JsonStr):
        out.append(Identity(node.start, node.end, _NAMED_AS[raw], "ref",
                            _REF_NOTE.format(kind=_NAMED_AS[raw], key=key), namespace))
        return
    if raw == b"claimName" and isinstance(node, _JsonStr):
        out.append(Identity(node.start, node.end, "PersistentVolumeClaim", "claimName",
                            "a PersistentVolumeClaim's name (`claimName`): the claim holds the data; "
                            "renamed, the pod waits for a claim that does not exist, or mounts a new, empty "
                            "one", namespace))
        return
    named: list[JsonNode] = []
    if raw in _NAMED_BY and isinstance(node, dict):
        named, default = [node], _NAMED_BY[raw]
    elif raw in _LISTED and isinstance(node, list):
        named, default = list(node), own if _LISTED[raw] == _SAME else _LISTED[raw]
    for item in named:
        if not isinstance(item, dict) or not isinstance(item.get("name"), _JsonStr):
            continue
        name, said, given = item["name"], item.get("kind"), item.get("namespace")
        assert isinstance(name, _JsonStr)
        kind = said.value if isinstance(said, _JsonStr) else default
        out.append(Identity(name.start, name.end, kind, "ref", _REF_NOTE.format(kind=kind, key=key),
                            given.value if isinstance(given, _JsonStr) else namespace))
        if isinstance(given, _JsonStr):
            out.append(Identity(given.start, given.end, "Namespace", "ref", _NAMESPACE_NOTE.format(
                field=f"the namespace of {kind} {name.value} (`{key}`)")))
    if isinstance(node, dict):
        for child, value in node.items():
            if not (named and child in ("name", "kind", "namespace")):
                _json_refs(child, value, namespace, own, out)
    elif isinstance(node, list):
        for value in node:
            if isinstance(value, dict):
                for child, inner in value.items():
                    if not (named and child in ("name", "kind", "namespace")):
                        _json_refs(child, inner, namespace, own, out)
