"""Kubernetes objects' identities (issue 32, item 4): names a text rename must not move alone.

A Kubernetes object is known by its kind, namespace and name. Renaming `metadata.name` in a
manifest is no rename to the cluster: `kubectl apply` creates a second object beside the first
(a Deployment's pods start again, a Service's DNS name changes under its readers, a StatefulSet
starts with empty volume claims: its pods' claims are `TEMPLATE-NAME-0`), and a pruning apply
deletes the old one. So the fields that make an identity are residuals `identity`, with the
consequence said, unless the sweep is asked to move them (`--allow-identity`):

* `metadata.name` and `metadata.namespace` of any document holding `apiVersion` and `kind` (a
  plain manifest, a chart's `templates/*.yaml` read as text, a kustomize base, an overlay's patch);
* a StatefulSet's `serviceName` and its `volumeClaimTemplates[].metadata.name`;
* a pod volume's `persistentVolumeClaim.claimName` (the claim holds the data);
* a kustomization's patch `target:` `name:` (it selects an object by its name);
* a field naming another object by its name, in a mapping or each item of a list (`_NAMED_BY`,
  `_LISTED`, `_NAMED_AS`: a binding's subjects, pull secrets, Flux dependencies, a route's
  backends...), and the `namespace:` beside such a `name:` (a Namespace's name);
* a chart's `fullnameOverride` / `nameOverride` in a `values*.yaml` (every object is named from it);
* a Service's DNS name, `NAME.NS.svc` or `NAME.NS.svc.cluster.local`, in any file: the Service's
  name, read by whoever connects to it (one name, one fate: it moves only with the Service); and
  its short spellings `NAME.NS` (`NAME.NS:5432`) and `NAME.NS.svc.cluster`, which a pod's search
  list completes to the same name, where a manifest of the repo defines Service NAME in namespace
  NS (`Services`, break-it round 20, finding 1).

Everything else an object says (an Ingress `host`, `tls.hosts`, env values, ConfigMap data, an
`externalName`, `hostAliases`) is a reference to a host, and follows as any text does.

Pure: bytes in, spans out. Read as text, line by line by indentation, never parsed: a Helm
template is no YAML until rendered, and its `{{ }}` regions hold no identity of their own.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from renamer import kube_values, lazy_re

IDENTITY = "identity"
STORED = "external-key"  # an item of an external secret store: state outside the repo, `state-name`
_STORED_NOTE = ("an item of the external secret store (`remoteRef.key`, `extract.key`): it keeps its name "
                "in the store, so rewritten alone the secret reads an item that does not exist; rename the "
                "item in the store first")
_EXTERNAL = frozenset({"ExternalSecret", "ClusterExternalSecret", "PushSecret"})
_KEY = re.compile(rb"(?m)(?:^[ \t]*(?:-[ \t]+)?|[{,][ \t]*)[\"']?key[\"']?[ \t]*:")
_TARGET = lazy_re.compile(rb"(?m)^(?P<indent>[ \t-]*)target[ \t]*:[ \t]*(?P<flow>\{[^\n]*)?")
_DOC = lazy_re.compile(rb"(?m)^---[^\n]*\n?")
_TOP = lazy_re.compile(rb"(?m)^(?P<key>[A-Za-z_][\w.-]*)[ \t]*:[ \t]*(?P<value>[^\n#]*)")
# A scalar; one that a template action opens (`{{ .Release.Name }}-pug`, quoted or not) runs to
# its closing quote or the line's end (a comment aside): the whole name is the identity.
_VALUE = lazy_re.compile(
    rb"""[ \t]*(?:(?P<q>["'])(?P<t>\{\{[^\n]*?)(?P=q)|(?P<a>\{\{[^\n#]*?)[ \t]*(?:\s\#|$)"""
                    rb"""|["']?(?P<v>[^\s"'#,}\]]+))""", re.MULTILINE)
_LINE_KEY = lazy_re.compile(rb"""^(?P<indent>[ \t]*)(?P<dash>-[ \t]+)?["']?(?P<key>[A-Za-z_][\w.-]*)["']?"""
                       rb"""[ \t]*:(?:[ \t]+|$)""")
_CLAIM = lazy_re.compile(rb"""(?m)(?:^[ \t-]*|[{,][ \t]*)["']?claimName["']?[ \t]*:""")
_FLOW_NAME = lazy_re.compile(rb"""(?:^|[{,\s])["']?name["']?[ \t]*:[ \t]*["']?(?P<v>[^\s,}"'#]+)""")
# `pug.db.svc`, `pug.db.svc.cluster.local`: a Service's DNS name, its first label the name
SERVICE_DNS = lazy_re.compile(
    rb"(?P<name>[a-z0-9](?:[-a-z0-9]{0,61}[a-z0-9])?)\.(?P<ns>[a-z0-9](?:[-a-z0-9]{0,61}"
                         rb"[a-z0-9])?)\.svc(?:\.cluster\.local)?(?!\.?[-A-Za-z0-9_])", re.IGNORECASE)
# (`pug.lab.svc.home.arpa` is a name under a domain that has a `svc` label: no Service's)
# `pug.db`, `pug.db:5432`, `pug.db.svc.cluster`: the short spellings a pod's search list completes;
# a Service's only where the repo defines Service pug in namespace db (`Services`)
SERVICE_SHORT = lazy_re.compile(rb"(?<![-A-Za-z0-9_.@])(?P<name>[a-z0-9](?:[-a-z0-9]{0,61}[a-z0-9])?)\."
                           rb"(?P<ns>[a-z0-9](?:[-a-z0-9]{0,61}[a-z0-9])?)(?:\.svc\.cluster)?"
                           rb"(?![-A-Za-z0-9_]|\.[-A-Za-z0-9_])", re.IGNORECASE)
# A chart's values that name every object it renders (`{{ include "chart.fullname" . }}`)
_OVERRIDE_NOTE = ("a chart's name override (`fullnameOverride`, `nameOverride`): every object the chart "
                  "renders is named from it, so renaming it deletes and recreates each (a StatefulSet's "
                  "claims stranded, a Service's `.svc` name changed)")
_OVERRIDE = lazy_re.compile(rb"""(?m)^(?:fullnameOverride|nameOverride)[ \t]*:[ \t]*["']?(?P<v>[^\s"'#]+)""")


@dataclass(frozen=True)
class Identity:
    """One identity field's value: bytes start:end of the file, the object's kind, what it is
    (`name`, `serviceName`, `claim-template`, `claimName`, `target`, `service-dns`), the note."""

    start: int
    end: int
    kind: str
    field: str
    note: str
    # the namespace of the object it names, where given (the document's metadata, a DNS name's
    # second label)
    namespace: str = ""


_MANIFESTS = (".yaml", ".yml", ".json")


@dataclass
class Services:
    """The Services the repo's live manifests define: (name, namespace) pairs, the names of those
    whose namespace is set from outside (a kustomization), and every namespace the manifests name."""

    pairs: set[tuple[str, str]] = field(default_factory=set)
    unplaced: set[str] = field(default_factory=set)
    namespaces: set[str] = field(default_factory=set)
    # a kustomization's (`namePrefix`, `nameSuffix`): the rendered names of the objects it applies
    affixes: set[tuple[str, str]] = field(default_factory=set)
    # the Flux `postBuild` variables a manifest puts in a `name:` or `namespace:` (`name: ${APP}`)
    variables: set[bytes] = field(default_factory=set)
    # the Flux Operator ResourceSet inputs a ResourceSet reading `inputsFrom` puts in a `name:` or
    # `namespace:` (`name: << inputs.app >>`): a ResourceSetInputProvider's `defaultValues` of those keys
    inputs: set[bytes] = field(default_factory=set)

    def names(self, name: str, namespace: str) -> bool:
        """Whether `NAME.NS` names a Service of the repo (as written, or as a kustomization's
        `namePrefix`/`nameSuffix` renders it)."""
        name, namespace = name.lower(), namespace.lower()
        return any((base, namespace) in self.pairs or (base in self.unplaced and namespace in self.namespaces)
                   for base in self.bases(name))

    def bases(self, name: str) -> list[str]:
        """`name`, and each name a kustomization's prefix and suffix render as `name`."""
        name = name.lower()
        return [name, *(name[len(p):len(name) - len(s)] for p, s in self.affixes
                        if len(name) > len(p) + len(s) and name.startswith(p) and name.endswith(s))]

    def __bool__(self) -> bool:
        return bool(self.pairs or self.unplaced)


def services(root: str, live: Callable[[str], bool], max_size: int,
             files: Iterable[str] | None = None) -> Services:
    """The Services of the repo's manifests (`.yaml`/`.yml`/`.json` files `live` says are current)."""
    found = Services()
    if files is None:
        listed = []
        for folder, dirs, names in os.walk(root):
            dirs[:] = [d for d in dirs if d not in (".git", "node_modules", ".terraform", ".venv")]
            listed += [os.path.relpath(os.path.join(folder, n), root) for n in names
                       if n.endswith(_MANIFESTS)]
        files = listed
    for rel in files:
        rel = rel.replace(os.sep, "/")
        if not rel.endswith(_MANIFESTS) or not live(rel):
            continue
        try:
            with open(os.path.join(root, rel), "rb") as handle:
                data = handle.read(max_size + 1)
        except OSError:
            continue
        if len(data) > max_size:
            continue
        if rel.rpartition("/")[2] in ("kustomization.yaml", "kustomization.yml") and b"name" in data:
            keys = top_keys(data, 0, len(data))
            prefix, suffix = (_scalar(data, keys[k][1], keys[k][2]) if k in keys else None
                              for k in (b"namePrefix", b"nameSuffix"))
            if prefix or suffix:
                found.affixes.add((prefix[2].decode("utf-8", "replace").lower() if prefix else "",
                                   suffix[2].decode("utf-8", "replace").lower() if suffix else ""))
        if b"kind" not in data or b"apiVersion" not in data:
            continue
        if b"${" in data:
            found.variables |= {v.group("k") for line in _PARAMETER.finditer(data)
                                for v in _VARIABLE.finditer(line.group("v"))}
        if b"inputsFrom" in data and b"inputs." in data:
            found.inputs |= _template_keys("ResourceSet", data, 0, len(data))
        # only a namespace (a field, or a Namespace's name) and a Service's name are kept below:
        # a manifest that spells neither word is not parsed (most of a repo's manifests)
        if b"amespace" not in data and b"Service" not in data:
            continue
        for i in identities(rel, data):
            value = data[i.start:i.end].decode("utf-8", "replace").lower()
            if i.field == "namespace" or (i.field == "name" and i.kind == "Namespace"):
                found.namespaces.add(value)
            elif i.field == "name" and i.kind == "Service":
                if i.namespace:
                    found.pairs.add((value, i.namespace.lower()))
                    found.namespaces.add(i.namespace.lower())
                else:
                    found.unplaced.add(value)
    return found


def might_hold(data: bytes) -> bool:
    return (b"kind" in data and b"apiVersion" in data) or b".svc" in data or b"target" in data \
        or b"nameOverride" in data or b"namespace:" in data or b"existing" in data or b"service" in data \
        or b"controller" in data or b"Generator" in data or b"replicas" in data or b"substitute" in data \
        or b"className" in data  # round 24, finding 25: `ingress.className: nginx` in a chart's values


def identities(rel: str, data: bytes, known: Services | None = None) -> list[Identity]:
    """Every identity field of `data` (see the module's doc); `rel` decides nothing yet but a
    kustomization's patch targets; `known`: the repo's Services, whose short DNS names are theirs."""
    out: list[Identity] = []
    if known:
        for h in SERVICE_SHORT.finditer(data):
            name, ns = h.group("name").decode("ascii"), h.group("ns").decode("ascii")
            if not known.names(name, ns):
                continue
            spelled = h.group(0).decode("ascii", "replace")
            out.append(Identity(h.start("name"), h.end("name"), "Service", "service-dns",
                                f"a Kubernetes Service's short DNS name (`{spelled}`, which a pod's search "
                                f"list completes to `{name}.{ns}.svc.cluster.local`): it reads Service NAME, "
                                "which keeps its name unless the sweep moves identities "
                                "(`--allow-identity`); rewritten alone, it names no Service", ns.lower()))
            out.append(Identity(h.start("ns"), h.end("ns"), "Namespace", "service-dns-namespace",
                                f"the namespace of a Kubernetes Service's short DNS name (`{spelled}`): the "
                                "Service's namespace keeps its name unless the sweep moves identities "
                                "(`--allow-identity`); rewritten alone, it names no Service"))
    if b".svc" in data:
        out += [Identity(h.start("name"), h.end("name"), "Service", "service-dns",
                         f"a Kubernetes Service's DNS name (`{h.group(0).decode('ascii', 'replace')}`): it "
                         "reads Service NAME, which keeps its name unless the sweep moves identities "
                         "(`--allow-identity`); rewritten alone, it names no Service",
                         h.group("ns").decode("ascii").lower())
                for h in SERVICE_DNS.finditer(data)]
        # its namespace, `db.pug.svc`: a Namespace's name, which moves every object of it
        out += [Identity(h.start("ns"), h.end("ns"), "Namespace", "service-dns-namespace",
                         "the namespace of a Kubernetes Service's DNS name "
                         f"(`{h.group(0).decode('ascii', 'replace')}`): the Service's namespace keeps its "
                         "name unless the sweep moves identities "
                         "(`--allow-identity`); rewritten alone, it names no Service")
                for h in SERVICE_DNS.finditer(data)]
    if rel.endswith(".json") and b'"apiVersion"' in data and b'"kind"' in data:
        from renamer.kube_json import json_identities  # (it reads this module's tables)
        return out + json_identities(data)
    if not rel.endswith((".yaml", ".yml")):
        return out
    if rel.rpartition("/")[2].startswith("values") and b"nameOverride" in data:
        out += [Identity(h.start("v"), h.end("v"), "chart", "override", _OVERRIDE_NOTE)
                for h in _OVERRIDE.finditer(data)]
    if rel.rpartition("/")[2].startswith("values") and b"apiVersion" not in data:
        out += _values(data, 0, len(data))
    if rel.rpartition("/")[2] in ("kustomization.yaml", "kustomization.yml") and b"namespace" in data:
        top = top_keys(data, 0, len(data)).get(b"namespace")
        got = _scalar(data, top[1], top[2]) if top is not None else None
        if got is not None:
            out.append(Identity(got[0], got[1], "Namespace", "ref", _NAMESPACE_NOTE.format(
                field="a kustomization's `namespace:`")))
    if rel.rpartition("/")[2] in ("kustomization.yaml", "kustomization.yml"):
        out += _generated(data)
    if b"kind" not in data:
        return out
    starts = [0, *(d.end() for d in _DOC.finditer(data))]
    for i, start in enumerate(starts):
        end = starts[i + 1] if i + 1 < len(starts) else len(data)
        out += _document(rel, data, start, end, 0, known)
    return out


_KEYED = lazy_re.compile(rb"(?m)^(?P<lead>[ \t]*(?:-[ \t]+)?)(?P<key>[A-Za-z_][\w.-]*)[ \t]*:[ \t]*"
                    rb"(?P<value>[^\n#]*)")


def top_keys(data: bytes, start: int, end: int, column: int = 0) -> dict[bytes, tuple[int, int, int]]:
    """A document's top-level keys: key -> (line start, value start, block end); `column`: where a
    `kind: List` item's keys stand (its first one after the item's dash)."""
    if column:
        hits = [h for h in _KEYED.finditer(data, start, end) if len(h.group("lead")) == column]
    else:
        hits = list(_TOP.finditer(data, start, end))
    out: dict[bytes, tuple[int, int, int]] = {}
    for j, h in enumerate(hits):
        block_end = hits[j + 1].start() if j + 1 < len(hits) else end
        out.setdefault(h.group("key"), (h.start(), h.start("value"), block_end))
    return out


def _scalar(data: bytes, at: int, end: int) -> tuple[int, int, bytes] | None:
    hit = _VALUE.match(data, at, end)
    if hit is None:
        return None
    group = next(g for g in ("t", "a", "v") if hit.group(g) is not None)
    if group == "v" and hit.group("v").startswith((b"{", b"[", b"|", b">", b"&", b"*")):
        return None
    return hit.start(group), hit.end(group), hit.group(group)


def _document(rel: str, data: bytes, start: int, end: int, column: int = 0,
              known: Services | None = None) -> list[Identity]:
    keys = top_keys(data, start, end, column)
    out: list[Identity] = []
    given = ""  # the document's own namespace, where it says one
    if b"kind" in keys and b"apiVersion" in keys:
        _, at, _ = keys[b"kind"]
        got = _scalar(data, at, end)
        kind = got[2].decode("ascii", "replace") if got else "object"
        if kind.endswith("List") and b"items" in keys:  # `kind: List`: each item a manifest (round 20k, 7)
            return _list_documents(rel, data, keys[b"items"], column, known)
        namespace, given = b"NS", ""
        meta = keys.get(b"metadata")
        names: list[tuple[int, int]] = []
        if meta is not None:
            names = _child_names(data, meta[1], meta[2])
            ns = child_value(data, meta[1], meta[2], b"namespace")
            if ns is not None:
                namespace, given = ns[2], ns[2].decode("utf-8", "replace")
                called = data[names[0][0]:names[0][1]].decode("utf-8", "replace") if names else "NAME"
                out.append(Identity(ns[0], ns[1], kind, "namespace",
                                    f"renaming the namespace of {kind} {called} moves it to another "
                                    "namespace: `kubectl apply` creates it there and the old one stays (or a "
                                    "pruning apply deletes it)"))
        templates = _claim_templates(data, keys) if kind == "StatefulSet" else []
        own = data[names[0][0]:names[0][1]].decode("utf-8", "replace") if names else "STATEFULSET"
        for s, e in names:
            out.append(Identity(s, e, kind, "name", _name_note(kind, namespace.decode("ascii", "replace"),
                                                               [data[a:b].decode() for a, b in templates]),
                                given))
        if kind == "StatefulSet":
            for s, e in templates:
                out.append(Identity(s, e, kind, "claim-template",
                                    "a StatefulSet's volume claim template's name: its pods' claims are "
                                    f"named from it (`NAME-{own}-0`); renamed, every pod starts with a "
                                    "new, empty claim and the data stays in the old one"))
            for hit in re.finditer(rb"(?m)^[ \t]+serviceName[ \t]*:", data[start:end]):
                got = _scalar(data, start + hit.end(), end)
                if got is not None:
                    out.append(Identity(got[0], got[1], kind, "serviceName",
                                        "a StatefulSet's `serviceName`, its governing Service (its pods' DNS "
                                        "names are `POD.NAME.NS.svc`): the field is immutable, so renamed, "
                                        "`kubectl apply` is refused until the StatefulSet is deleted and "
                                        "created again", given))
        out += _namespace_refs(data, keys, kind)
        out += _inline_values(data, keys, kind)
        if known and given:
            out += _bare_services(data, keys, kind, start, end, given, known)
        if kind in _GENERATORS:
            out += _set_elements(data, start, end, kind)
        if kind == "Kustomization" and known is not None and known.variables:
            out += _substituted(data, keys, known.variables)
        if kind == "ResourceSetInputProvider" and known is not None and known.inputs:
            out += _provided(data, keys, known.inputs)
        if kind in _WORKLOADS:
            out += [Identity(a, b, kind, "selector", _SELECTOR_NOTE.format(kind=kind), given)
                    for a, b in _selector_values(data, keys)]
        out += _references(data, start, end, given, {i.start for i in out}, kind)
        if kind in _EXTERNAL:
            for hit in _KEY.finditer(data, start, end):
                got = _scalar(data, hit.end(), end)
                if got is not None:
                    out.append(Identity(got[0], got[1], kind, STORED, _STORED_NOTE))
    for hit in _CLAIM.finditer(data[start:end]):
        got = _scalar(data, start + hit.end(), end)
        if got is not None:
            out.append(Identity(got[0], got[1], "PersistentVolumeClaim", "claimName",
                                "a PersistentVolumeClaim's name (`claimName`): the claim holds the data; "
                                "renamed, the pod waits for a claim that does not exist, or mounts a new, "
                                "empty one", given))
    if rel.rpartition("/")[2] in ("kustomization.yaml", "kustomization.yml") and b"target" in data:
        for hit in _TARGET.finditer(data[start:end]):
            at = start + hit.end()
            if hit.group("flow"):
                found = _FLOW_NAME.search(data, start + hit.start("flow"), start + hit.end("flow"))
                spans = [] if found is None else [(found.start("v"), found.end("v"))]
            else:
                spans = _child_names(data, at, _block_end(data, at, end, len(hit.group("indent"))))
            out += [Identity(s, e, "patch target", "target",
                             "a kustomize patch's `target` `name:`: it selects the object NAME by its "
                             "name, which keeps it unless the sweep moves identities; rewritten alone, the "
                             "patch applies to nothing") for s, e in spans]
    return out


def _list_documents(rel: str, data: bytes, items: tuple[int, int, int], column: int,
                    known: Services | None) -> list[Identity]:
    """The identities of each item of a `kind: List`'s `items:` (its key at `column`), each read as
    a document whose keys stand at the column after its dash."""
    out = []
    _, at, stop = items
    for dash, item_end in _list_items(data, at, _list_end(data, at, stop, column)):
        if data[dash:item_end].lstrip(b"- \t").startswith(b"{"):
            continue  # a flow item: `- {apiVersion: v1, ...}` (not read)
        first = data.rfind(b"\n", 0, dash) + 1
        after = dash + 1 + len(data[dash + 1:item_end]) - len(data[dash + 1:item_end].lstrip(b" \t"))
        out += _document(rel, data, first, item_end, after - first, known)
    return out


# Fields that name another object by its name, one table: the key -> the kind of object named
# (break-it rounds 20 and 20k, finding 2). A mapping whose `name:` it is (an Ingress backend's
# `service:`, `configMapRef:`, a volume's `configMap:`, a projected `secret:`, an HPA's
# `scaleTargetRef:`, a binding's `roleRef:`, a patch's `target:`), each item of a list whose
# `name:` it is (`subjects`, `imagePullSecrets`, Flux `dependsOn`/`healthChecks`/`valuesFrom`, Gateway API
# `parentRefs`/`backendRefs`), or a scalar (`_NAMED_AS`). The kind is the default: a mapping's own
# `kind:` says, where it has one; `_SAME`: the document's own kind (a Flux `dependsOn`). A
# `namespace:` beside such a `name:` names a Namespace (a subject's, a `sourceRef`'s, a `claimRef`'s).
_SAME = "="
_NAMED_BY = {b"service": "Service", b"configMapRef": "ConfigMap", b"configMapKeyRef": "ConfigMap",
             b"configMap": "ConfigMap", b"secretRef": "Secret", b"secretKeyRef": "Secret",
             b"secret": "Secret",
             b"scaleTargetRef": "object", b"roleRef": "object", b"targetRef": "object", b"chartRef": "object",
             b"sourceRef": "object", b"secretStoreRef": "object", b"storeRef": "object", b"target": "object",
             b"claimRef": "PersistentVolumeClaim"}
_LISTED = {b"subjects": "ServiceAccount", b"imagePullSecrets": "Secret", b"dependsOn": _SAME,
           b"healthChecks": "object", b"parentRefs": "Gateway", b"backendRefs": "Service",
           b"valuesFrom": "ConfigMap"}
_NAMED_AS = {b"serviceName": "Service", b"secretName": "Secret", b"serviceAccountName": "ServiceAccount",
             b"resourceClaimTemplateName": "ResourceClaimTemplate",
             # break-it round 20, finding 2: a claim's PersistentVolume, the classes a pod or claim names
             b"volumeName": "PersistentVolume", b"priorityClassName": "PriorityClass",
             b"runtimeClassName": "RuntimeClass", b"storageClassName": "StorageClass",
             # round 24, finding 25: the class an Ingress or a Gateway is served by
             b"ingressClassName": "IngressClass", b"kubernetes.io/ingress.class": "IngressClass",
             b"gatewayClassName": "GatewayClass",
             # break-it round 20k, finding 18: a Flux HelmRelease's, an Argo CD source's Helm release
             b"releaseName": "Helm release"}
_NOTES = {b"releaseName": ("a Helm release's name (`releaseName`): Helm knows every object the chart makes "
                           "by it, and it keeps its name unless the sweep moves identities "
                           "(`--allow-identity`); renamed alone, the release is uninstalled and installed "
                           "again (a StatefulSet's claims stranded, each Service's readers broken)")}
_PARENT = lazy_re.compile(rb"(?m)(?:^[ \t]*(?:-[ \t]+)?|[{,][ \t]*)[\"']?(?P<key>"
                     + b"|".join(re.escape(k) for k in sorted({*_NAMED_BY, *_LISTED, *_NAMED_AS}, key=len,
                                                             reverse=True))
                     + rb")[\"']?[ \t]*:")
_REF_NOTE = ("names {kind} NAME by its name (`{key}`), which keeps it unless the sweep moves identities "
             "(`--allow-identity`); rewritten alone, it names an object that does not exist")


def _references(data: bytes, start: int, end: int, namespace: str, taken: set[int],
                own: str = "object") -> list[Identity]:
    """A manifest's fields naming another object by its name (`_NAMED_BY`, `_LISTED`, `_NAMED_AS`)
    and the namespaces they give; `own`: the document's kind."""
    out = []
    for hit in _PARENT.finditer(data, start, end):
        key = hit.group("key")
        if key in _NAMED_AS:
            got = _scalar(data, hit.end(), end)
            if got is not None and got[0] not in taken:
                note = _NOTES.get(key) or _REF_NOTE.format(kind=_NAMED_AS[key], key=key.decode())
                out.append(Identity(got[0], got[1], _NAMED_AS[key], "ref", note, namespace))
            continue
        line_start = data.rfind(b"\n", 0, hit.start()) + 1
        indent = len(data[line_start:hit.start("key")])
        if key in _LISTED:
            default = own if _LISTED[key] == _SAME else _LISTED[key]
            blocks = _list_items(data, hit.end(), _list_end(data, hit.end(), end, indent))
        else:
            default = _NAMED_BY[key]
            blocks = [(hit.end(), _block_end(data, hit.end(), end, indent))]
        for at, stop in blocks:
            got = _entry(data, at, stop, b"name")
            if got is None or got[0] in taken:
                continue
            said = _entry(data, at, stop, b"kind")
            kind = said[2].decode("utf-8", "replace") if said else default
            given = _entry(data, at, stop, b"namespace")
            where = given[2].decode("utf-8", "replace") if given else namespace
            note = _REF_NOTE.format(kind=kind, key=key.decode())
            out.append(Identity(got[0], got[1], kind, "ref", note, where))
            if given is not None and given[0] not in taken:
                out.append(Identity(given[0], given[1], "Namespace", "ref", _NAMESPACE_NOTE.format(
                    field=f"the namespace of {kind} {got[2].decode('utf-8', 'replace')} (`{key.decode()}`)")))
    return out


# A kustomization's lists naming an object by each item's `name:` (break-it round 20k, finding 18): a
# generator's is the generated object's own name (`NAME-HASH`), `replicas` names a workload.
_GENERATED = {b"configMapGenerator": ("ConfigMap", "name"), b"secretGenerator": ("Secret", "name"),
              b"replicas": ("object", "ref")}
_GENERATED_NOTE = ("a kustomize {key}'s `name:`: {what}, which keeps its name unless the sweep moves "
                   "identities (`--allow-identity`); rewritten alone, {harm}")


def _generated(data: bytes) -> list[Identity]:
    out = []
    for key, (_, value_at, stop) in top_keys(data, 0, len(data)).items():
        if key not in _GENERATED:
            continue
        kind, what = _GENERATED[key]
        for start, end in _list_items(data, value_at, _list_end(data, value_at, stop, 0)):
            got = _entry(data, start, end, b"name")
            if got is None:
                continue
            said = _entry(data, start, end, b"kind") if what == "ref" else None
            named = said[2].decode("utf-8", "replace") if said else kind
            if what == "name":
                note = _GENERATED_NOTE.format(key=key.decode(), what=f"the generated {kind}'s name",
                                              harm="each reader names an object that does not exist, and the "
                                                   "old one is pruned")
            else:
                note = _GENERATED_NOTE.format(key=key.decode(), what="the workload it scales",
                                              harm="the count applies to nothing")
            out.append(Identity(got[0], got[1], named, what, note))
    return out


def _list_end(data: bytes, at: int, end: int, indent: int) -> int:
    """Where a list's block after the key ending at `at` ends: its items may stand at the key's own
    indentation (`subjects:` then `- kind: ...` at column 0)."""
    pos = data.find(b"\n", at)
    while 0 <= pos < end:
        line_end = data.find(b"\n", pos + 1)
        line = data[pos + 1: end if line_end < 0 or line_end > end else line_end]
        stripped = line.lstrip(b" ")
        if stripped.strip() and not stripped.startswith(b"#"):
            depth = len(line) - len(stripped)
            if depth < indent or (depth == indent and not stripped.startswith(b"-")):
                return pos + 1
        pos = line_end
    return end


_FLOW_MAP = lazy_re.compile(rb"\{[^{}]*\}")
_DASH = lazy_re.compile(rb"(?m)^(?P<indent>[ \t]*)-(?:[ \t]+|$)")


def _list_items(data: bytes, at: int, end: int) -> list[tuple[int, int]]:
    """The items of a list of mappings (the block after a key ending at `at`, to `end`): each as
    (start, end), a flow mapping's `{...}` or a block item from its dash, read by `_entry`."""
    line_end = data.find(b"\n", at)
    rest_end = end if line_end < 0 or line_end > end else line_end
    if data[at:rest_end].lstrip().startswith(b"["):  # `subjects: [{kind: X, name: pug}, ...]`
        return [(h.start(), h.end()) for h in _FLOW_MAP.finditer(data, at, end)]
    dashes = list(_DASH.finditer(data, at, end))
    if not dashes:
        return []
    column = len(dashes[0].group("indent"))
    starts = [h.start() + column for h in dashes if len(h.group("indent")) == column]
    return [(s, starts[j + 1] if j + 1 < len(starts) else end) for j, s in enumerate(starts)]


def _entry(data: bytes, at: int, end: int, key: bytes) -> tuple[int, int, bytes] | None:
    """The scalar of `key` in one mapping between `at` and `end`: a flow mapping (`{name: pug}`,
    a list item `- {name: pug}`), a block list item (`- kind: X` and the lines at its column), or
    the block after a key ending at `at` (`child_value`)."""
    head = data[at:end].lstrip(b" \t")
    if head.startswith(b"-"):
        head = head[1:].lstrip(b" \t")
        if not head.startswith(b"{"):
            return _item_value(data, at, end, key)
    if head.startswith(b"{"):
        flow = _FLOW_MAP.search(data, at, end)
        if flow is None:
            return None
        pattern = re.compile(rb"""(?:^|[{,\s])["']?""" + re.escape(key)
                             + rb"""["']?[ \t]*:[ \t]*["']?(?P<v>[^\s,}"'#]+)""")
        found = pattern.search(data, flow.start(), flow.end())
        return None if found is None else (found.start("v"), found.end("v"), found.group("v"))
    return child_value(data, at, end, key)


def _item_value(data: bytes, at: int, end: int, key: bytes) -> tuple[int, int, bytes] | None:
    """The scalar of `key` in a block list item starting at its dash (`at`): the dash line's key and
    those of the following lines at the column after the dash."""
    dash = data.index(b"-", at)
    line_start = data.rfind(b"\n", 0, dash) + 1
    content = dash + 1 + len(data[dash + 1:end]) - len(data[dash + 1:end].lstrip(b" \t"))
    column = content - line_start
    pos = line_start
    while pos < end:
        line_end = data.find(b"\n", pos)
        stop = end if line_end < 0 or line_end > end else line_end
        line = data[pos:stop]
        if pos == line_start:
            hit = _LINE_KEY.match(b" " * column + data[content:stop])
        else:
            hit = _LINE_KEY.match(line)
            if hit is not None and (hit.group("dash") or len(hit.group("indent")) != column):
                hit = None
        if hit is not None and hit.group("key") == key:
            return _scalar(data, pos + hit.end() if pos != line_start else content + hit.end() - column, stop)
        if line_end < 0:
            break
        pos = line_end + 1
    return None


def _block_end(data: bytes, at: int, end: int, indent: int) -> int:
    """Where the block after the key ending at `at` ends: the first line not deeper than `indent`."""
    pos = data.find(b"\n", at)
    while 0 <= pos < end:
        line_end = data.find(b"\n", pos + 1)
        line = data[pos + 1: end if line_end < 0 or line_end > end else line_end]
        blank = not line.strip() or line.lstrip().startswith(b"#")
        if not blank and len(line) - len(line.lstrip(b" ")) <= indent:
            return pos + 1
        pos = line_end
    return end


def _child_names(data: bytes, at: int, end: int) -> list[tuple[int, int]]:
    got = child_value(data, at, end, b"name")
    return [] if got is None else [(got[0], got[1])]


def child_value(data: bytes, at: int, end: int, key: bytes) -> tuple[int, int, bytes] | None:
    """The scalar of `key` among a mapping's direct children: the block after a key ending at `at`
    (its first line's indentation is the children's), or a flow mapping on the key's line."""
    rest = data[at:data.find(b"\n", at) if 0 <= data.find(b"\n", at) < end else end]
    if rest.lstrip().startswith(b"{"):
        pattern = re.compile(rb"""(?:^|[{,\s])["']?""" + re.escape(key)
                             + rb"""["']?[ \t]*:[ \t]*["']?(?P<v>[^\s,}"'#]+)""")
        found = pattern.search(rest)
        return None if found is None else (at + found.start("v"), at + found.end("v"), found.group("v"))
    indent: int | None = None
    pos = data.find(b"\n", at)
    while 0 <= pos < end:
        line_end = data.find(b"\n", pos + 1)
        stop = end if line_end < 0 or line_end > end else line_end
        line = data[pos + 1:stop]
        stripped = line.lstrip(b" ")
        if stripped.strip() and not stripped.startswith(b"#"):
            depth = len(line) - len(stripped)
            if indent is None:
                indent = depth
            if depth < indent or depth == 0:
                return None
            hit = _LINE_KEY.match(line)
            if depth == indent and hit is not None and not hit.group("dash") and hit.group("key") == key:
                return _scalar(data, pos + 1 + hit.end(), stop)
        pos = line_end
    return None


def _claim_templates(data: bytes, keys: dict[bytes, tuple[int, int, int]]) -> list[tuple[int, int]]:
    """The `metadata.name` of each item of a StatefulSet's `spec.volumeClaimTemplates`."""
    spec = keys.get(b"spec")
    if spec is None:
        return []
    out = []
    block = re.compile(rb"(?m)^(?P<indent>[ \t]*)volumeClaimTemplates[ \t]*:[ \t]*$")
    found = block.search(data, spec[1], spec[2])
    if found is None:
        return []
    stop = _block_end(data, found.end(), spec[2], len(found.group("indent")))
    for meta in re.finditer(rb"(?m)^(?P<indent>[ \t]*)(?:-[ \t]+)?metadata[ \t]*:", data[found.end():stop]):
        at = found.end() + meta.end()
        end = _block_end(data, at, stop, len(meta.group(0)) - len(meta.group(0).lstrip(b" \t-")))
        out += _child_names(data, at, end)
    return out


# A workload's `spec.selector` is immutable (break-it round 20, finding 5): `kubectl apply` refuses a
# changed one; its pod template's labels of the same keys must match it.
_WORKLOADS = frozenset({"Deployment", "StatefulSet", "DaemonSet", "ReplicaSet", "Job"})
_SELECTOR_NOTE = ("a {kind}'s `spec.selector.matchLabels` (or the pod template's label it selects): the "
                  "selector is immutable, so renamed, `kubectl apply` is refused (`field is immutable`) "
                  "until the {kind} is deleted and created again, and a template label alone stops matching "
                  "it")
_LINE = lazy_re.compile(rb"(?m)^(?P<indent>[ \t]*)(?P<rest>[^\s#][^\n]*)$")
# a label's key: `app`, `app.kubernetes.io/instance` (quoted or not)
_ENTRY = lazy_re.compile(rb"""[ \t]*["']?(?P<key>[^\s:"'#{}\[\],-][^\s:"'#]*)["']?[ \t]*:(?:[ \t]+|$)""")
_ITEM = lazy_re.compile(
    rb"""(?:^|[{,])[ \t]*["']?(?P<k>[^\s:"'{},]+)["']?[ \t]*:[ \t]*["']?(?P<v>[^\s,}"'#]+)""")


def _sub_block(data: bytes, at: int, end: int, key: bytes) -> tuple[int, int] | None:
    """The block (or flow mapping) of the first `key:` between `at` and `end`: (after the colon, end)."""
    line_end = data.find(b"\n", at)
    rest_end = end if line_end < 0 or line_end > end else line_end
    if data[at:rest_end].lstrip().startswith(b"{"):  # a flow mapping: `selector: {matchLabels: {...}}`
        flow = re.compile(rb"[{,][ \t]*[\"']?" + re.escape(key) + rb"[\"']?[ \t]*:")
        found_flow = flow.search(data, at, rest_end)
        return None if found_flow is None else (found_flow.end(), rest_end)
    found = re.compile(rb"(?m)^(?P<indent>[ \t]*)" + re.escape(key) + rb"[ \t]*:").search(data, at, end)
    if found is None:
        return None
    return found.end(), _block_end(data, found.end(), end, len(found.group("indent")))


def _items(data: bytes, at: int, end: int) -> list[tuple[bytes, int, int]]:
    """A mapping's scalar entries (key, value start, value end): block or flow."""
    line_end = data.find(b"\n", at)
    rest_end = end if line_end < 0 or line_end > end else line_end
    if data[at:rest_end].lstrip().startswith(b"{"):
        return [(h.group("k"), h.start("v"), h.end("v")) for h in _ITEM.finditer(data, at, rest_end)]
    brace = end - len(data[at:end].lstrip())  # a flow mapping on the lines below the key
    if data[brace:brace + 1] == b"{" and (flow := _FLOW_MAP.match(data, brace, end)) is not None:
        return [(h.group("k"), h.start("v"), h.end("v"))
                for h in _ITEM.finditer(data, flow.start(), flow.end())]
    out = []
    indent: int | None = None
    for line in _LINE.finditer(data, rest_end, end):
        depth = len(line.group("indent"))
        indent = depth if indent is None else indent
        if depth != indent:
            continue
        hit = _ENTRY.match(data, line.start(), line.end())
        if hit is None:
            continue
        got = _scalar(data, hit.end(), line.end())
        if got is not None:
            out.append((hit.group("key"), got[0], got[1]))
    return out


def _selector_values(data: bytes, keys: dict[bytes, tuple[int, int, int]]) -> list[tuple[int, int]]:
    """A workload's `spec.selector.matchLabels` values, and its pod template's labels of those keys."""
    spec = keys.get(b"spec")
    if spec is None:
        return []
    selector = _sub_block(data, spec[1], spec[2], b"selector")
    labels = _sub_block(data, selector[0], selector[1], b"matchLabels") if selector else None
    if labels is None:
        return []
    chosen = _items(data, *labels)
    out = [(a, b) for _, a, b in chosen]
    template = _sub_block(data, spec[1], spec[2], b"template")
    meta = _sub_block(data, template[0], template[1], b"metadata") if template else None
    own = _sub_block(data, meta[0], meta[1], b"labels") if meta else None
    if own is not None:
        names = {k for k, _, _ in chosen}
        out += [(a, b) for k, a, b in _items(data, *own) if k in names]
    return out


def _values(data: bytes, start: int, end: int) -> list[Identity]:
    """Helm values naming an object (kube_values.py): `ref` identities of the kind each names, an
    app-template controller's key its `name`."""
    return [Identity(v.start, v.end, v.kind, "name" if v.kind == kube_values.CONTROLLER else "ref", v.note)
            for v in kube_values.value_names(data, start, end)]


_HELM = lazy_re.compile(rb"(?m)^[ \t]*(?:-[ \t]+)?helm[ \t]*:")


def _inline_values(data: bytes, keys: dict[bytes, tuple[int, int, int]], kind: str) -> list[Identity]:
    """The values a Flux HelmRelease (`spec.values`) or an Argo CD Application / ApplicationSet
    (`helm.values` text, `helm.valuesObject`) gives its chart."""
    spec = keys.get(b"spec")
    if spec is None or kind not in ("HelmRelease", "Application", "ApplicationSet"):
        return []
    if kind == "HelmRelease":
        where = _sub_block(data, spec[1], spec[2], b"values")
        return [] if where is None else _values(data, *where)
    out = []
    for helm in _HELM.finditer(data, spec[1], spec[2]):
        stop = _block_end(data, helm.end(), spec[2], len(helm.group(0)) - len(helm.group(0).lstrip(b" \t-")))
        for key in (b"values", b"valuesObject"):
            where = _sub_block(data, helm.end(), stop, key)
            out += [] if where is None else _values(data, *where)
    return out


# An ApplicationSet's template parameter in a name (`name: "{{name}}-web"`, `namespace: '{{.cluster}}'`);
# a StatefulSet's `serviceName` is an identity too (break-it t26-32, finding 07)
_PARAMETER = lazy_re.compile(rb"""(?m)(?:^|[{,\s])["']?(?:name|namespace|serviceName)["']?[ \t]*:[ \t]*"""
                        rb"""(?P<v>"[^"\n]*"|'[^'\n]*'|[^,}\n#]*)""")
# A workload's selector (`selector:`, `matchLabels:`): its labels are immutable identities too
_SELECTOR = lazy_re.compile(
    rb"(?m)(?:^(?P<indent>[ \t]*)|[{,][ \t]*)[\"']?(?:selector|matchLabels)[\"']?[ \t]*:")
# A ResourceSet template's action (`<< inputs.app >>`, `<< inputs.app | slugify >>`, `<< printf "%s"
# inputs.app >>`) and the inputs it reads (`inputs.apps.app` under the Permute strategy: each part)
_ACTION = lazy_re.compile(rb"<<-?(?P<body>(?:(?!>>)[^\n])*)-?>>")
_INPUT = lazy_re.compile(rb"(?<![\w.$])inputs\.(?P<k>[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)")


def _template_keys(kind: str, data: bytes, start: int, end: int) -> set[bytes]:
    """The parameters a generator's template puts in an identity field: a `name:`, `namespace:` or
    `serviceName:`, or (a ResourceSet) a label of a workload's selector (break-it t26-32, finding 07:
    a piped input, the Permute strategy's `inputs.PROVIDER.KEY`, `serviceName`, selector labels)."""
    parameters = _GENERATORS[kind][1]
    values = [line.group("v") for line in _PARAMETER.finditer(data, start, end)]
    if kind != "ResourceSet":
        return {p.group("k") for v in values for p in parameters.finditer(v)}
    for hit in _SELECTOR.finditer(data, start, end):
        line_end = data.find(b"\n", hit.end(), end)
        line_end = end if line_end < 0 else line_end
        if hit.group("indent") is None or data[hit.end():line_end].strip():
            values.append(data[hit.end():line_end])  # a flow mapping on the key's line
        else:
            values.append(data[hit.end():_block_end(data, hit.end(), end, len(hit.group("indent")))])
    return {part for v in values for action in _ACTION.finditer(v)
            for found in _INPUT.finditer(action.group("body")) for part in found.group("k").split(b".")}
# A generator's list of parameter sets and how its templates spell a parameter: an Argo CD
# ApplicationSet's list generator `elements` (`{{name}}`, `{{ .name }}`), a Flux Operator
# ResourceSet's `inputs` (`<< inputs.app >>`)
_GENERATORS = {
    "ApplicationSet": (re.compile(rb"(?m)(?:^[ \t]*(?:-[ \t]+)?|[{,][ \t]*)elements[ \t]*:"),
                       re.compile(rb"\{\{-?[ \t]*\.?(?P<k>[A-Za-z_][\w.]*)[ \t]*-?\}\}")),
    "ResourceSet": (re.compile(rb"(?m)(?:^[ \t]*(?:-[ \t]+)?|[{,][ \t]*)inputs[ \t]*:"),
                    re.compile(rb"<<-?[ \t]*inputs\.(?P<k>[A-Za-z_]\w*)[ \t]*-?>>")),
}
_ELEMENT_NOTE = ("a {kind}'s parameter `{key}`, which its template makes an object's name or namespace "
                 "from (an Application, a generated object): that object keeps its name unless the sweep "
                 "moves identities (`--allow-identity`); renamed alone, the generated object is deleted and "
                 "another created, and a field naming another object from it names one that does not exist")


# Where a pod (or its config) reads a host: an env `value:`, `args`/`command` items, a ConfigMap's
# or Secret's `data`/`stringData` (break-it round 20k, finding 8)
_READS = lazy_re.compile(rb"(?m)(?:^[ \t]*(?:-[ \t]+)?|[{,][ \t]*)(?P<key>value|args|command)[ \t]*:")
_BARE_NOTE = ("a Kubernetes Service's name standing alone (`{name}`), which a pod of namespace {ns} "
              "resolves through its search list to `{name}.{ns}.svc.cluster.local`: it reads Service {name}, "
              "which keeps its name unless the sweep moves identities (`--allow-identity`); rewritten alone, "
              "it names no Service")


def _bare_services(data: bytes, keys: dict[bytes, tuple[int, int, int]], kind: str, start: int, end: int,
                   namespace: str, known: Services) -> list[Identity]:
    """A Service's bare name (`pug`, `pug:6379`, `redis://pug:6379/0`) read in a document of its own
    namespace (break-it round 20k, finding 8): its DNS name there, as `NAME.NS` is."""
    names = sorted({n for n, ns in known.pairs if ns == namespace.lower()}, key=len, reverse=True)
    if not names:
        return []
    regions = []
    for hit in _READS.finditer(data, start, end):
        line_end = data.find(b"\n", hit.end())
        line_end = end if line_end < 0 or line_end > end else line_end
        if hit.group("key") == b"value" or data[hit.end():line_end].strip():
            regions.append((hit.end(), line_end))  # a scalar, a flow list on the key's line
        else:
            line_start = data.rfind(b"\n", 0, hit.start()) + 1
            indent = len(data[line_start:hit.start("key")])
            regions.append((hit.end(), _list_end(data, hit.end(), end, indent)))
    if kind in ("ConfigMap", "Secret"):
        regions += [(keys[k][1], keys[k][2]) for k in (b"data", b"stringData") if k in keys]
    pattern = re.compile(rb"(?<![-A-Za-z0-9_.])(?P<n>" + b"|".join(re.escape(n.encode()) for n in names)
                         + rb")(?![-A-Za-z0-9_]|\.[-A-Za-z0-9_]|:[ \t]|:$)", re.IGNORECASE | re.MULTILINE)
    out = []
    for a, b in regions:
        for hit in pattern.finditer(data, a, b):
            name = hit.group("n").decode("ascii", "replace")
            out.append(Identity(hit.start(), hit.end(), "Service", "service-dns",
                                _BARE_NOTE.format(name=name, ns=namespace), namespace.lower()))
    return out


# A Flux variable in a manifest (`${APP}`, `${APP:=default}`, `${APP:-default}`), substituted from a
# Flux Kustomization's `spec.postBuild.substitute` (found on onedr0p/home-ops: shared components'
# `name: ${APP}`, a PVC among them)
_VARIABLE = lazy_re.compile(rb"\$\{(?P<k>[A-Za-z_]\w*)(?:[:=-][^}]*)?\}")
_SUBSTITUTE_NOTE = ("a Flux Kustomization's `postBuild.substitute` variable `{key}`, which a manifest of "
                    "the repo puts in an object's `name:` or `namespace:` (`${{{key}}}`): those objects keep "
                    "their names unless the sweep moves identities (`--allow-identity`); renamed alone, each "
                    "is deleted and another created (a claim new and empty)")


def _substituted(data: bytes, keys: dict[bytes, tuple[int, int, int]],
                 variables: set[bytes]) -> list[Identity]:
    """The values of a Flux Kustomization's `spec.postBuild.substitute` whose variable names an object."""
    spec = keys.get(b"spec")
    build = _sub_block(data, spec[1], spec[2], b"postBuild") if spec else None
    where = _sub_block(data, build[0], build[1], b"substitute") if build else None
    if where is None:
        return []
    return [Identity(a, b, "object", "ref", _SUBSTITUTE_NOTE.format(key=k.decode("utf-8", "replace")))
            for k, a, b in _items(data, *where) if k in variables]


_PROVIDED_NOTE = ("a Flux Operator ResourceSetInputProvider's `defaultValues` input `{key}`, which a "
                  "ResourceSet reading it (`inputsFrom`) puts in an object's `name:`, `namespace:`, "
                  "`serviceName:` or selector label (`<< inputs.{key} >>`): those objects keep their names "
                  "unless the sweep moves identities (`--allow-identity`); renamed alone, each is deleted "
                  "and another created")


def _provided(data: bytes, keys: dict[bytes, tuple[int, int, int]], inputs: set[bytes]) -> list[Identity]:
    """The values of a ResourceSetInputProvider's `spec.defaultValues` whose input a ResourceSet's
    template makes an object's name or namespace from (billimek/k8s-gitops; break-it round 20k)."""
    spec = keys.get(b"spec")
    where = _sub_block(data, spec[1], spec[2], b"defaultValues") if spec else None
    if where is None:
        return []
    return [Identity(a, b, "generated object", "ref", _PROVIDED_NOTE.format(key=k.decode("utf-8", "replace")))
            for k, a, b in _items(data, *where) if k in inputs]


def _set_elements(data: bytes, start: int, end: int, kind: str) -> list[Identity]:
    """The values of a generator's parameter sets (break-it round 20k, findings 18 and 13) whose key
    the template puts in a `name:` or `namespace:`."""
    elements, _parameters = _GENERATORS[kind]
    made = "Application" if kind == "ApplicationSet" else "generated object"
    used = _template_keys(kind, data, start, end)
    out = []
    for hit in elements.finditer(data, start, end) if used else ():
        line_start = data.rfind(b"\n", 0, hit.start()) + 1
        indent = len(data[line_start:hit.end()]) - len(data[line_start:hit.end()].lstrip(b" \t-"))
        at = hit.end()
        rest = data[at:data.find(b"\n", at) if data.find(b"\n", at) >= 0 else end].lstrip()
        if rest.startswith(b"["):  # a flow list on the key's line, inside a flow mapping or not
            close = data.find(b"]", at, end)
            items = [(f.start(), f.end()) for f in _FLOW_MAP.finditer(data, at, close if close > 0 else end)]
        else:
            items = _list_items(data, at, _list_end(data, at, end, indent))
        for item_start, item_end in items:
            for key in sorted(used):
                got = _entry(data, item_start, item_end, key)
                if got is not None:
                    out.append(Identity(got[0], got[1], made, "ref",
                                        _ELEMENT_NOTE.format(kind=kind, key=key.decode())))
    return out


_NAMESPACE_NOTE = ("{field}: every object it applies lands in namespace NAME, which keeps its name unless "
                   "the sweep moves identities (`--allow-identity`); rewritten alone, each object is created "
                   "again in a new, empty namespace at the next sync and the old ones stay (or are pruned)")


def _namespace_refs(data: bytes, keys: dict[bytes, tuple[int, int, int]], kind: str) -> list[Identity]:
    """The namespace a GitOps object applies into (break-it round 20, finding 3): Flux's
    Kustomization/HelmRelease `spec.targetNamespace`, Argo CD's Application `spec.destination.namespace`."""
    spec = keys.get(b"spec")
    if spec is None or kind not in ("Kustomization", "HelmRelease", "Application"):
        return []
    if kind == "Application":
        where = _sub_block(data, spec[1], spec[2], b"destination")
        got = child_value(data, where[0], where[1], b"namespace") if where else None
        field = "an Argo CD Application's `spec.destination.namespace`"
    else:
        got = child_value(data, spec[1], spec[2], b"targetNamespace")
        field = f"a Flux {kind}'s `spec.targetNamespace`"
    if got is None:
        return []
    return [Identity(got[0], got[1], "Namespace", "ref", _NAMESPACE_NOTE.format(field=field))]


def _name_note(kind: str, namespace: str, templates: list[str]) -> str:
    consequences = {
        "StatefulSet": "strands PVC {claims}: its pods' volume claims are named from it, so a new "
                       "StatefulSet starts with empty ones beside the old".format(
                           claims=", ".join(f"{t}-NAME-0" for t in templates) or "TEMPLATE-NAME-0"),
        "Service": f"breaks NAME.{namespace}.svc.cluster.local readers: the Service's DNS name is its name",
        "PersistentVolumeClaim": "binds a new, empty volume: the data stays in the old claim",
        "Namespace": "creates an empty namespace: every object of the old one stays there, or is deleted "
                     "with it",
    }
    said = consequences.get(kind, "deletes and recreates it: `kubectl apply` creates a second object beside "
                                  "the first, and a pruning apply (or Argo CD, Flux) deletes the old one")
    return f"renaming {kind} NAME {said}"
