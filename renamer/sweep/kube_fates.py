"""One name, one fate for a Kubernetes object moved by `sweep --allow-identity` (issue 32, item 4).

A Service's name is read by every `NAME.NS.svc[.cluster.local]` that connects to it and by a
StatefulSet's `serviceName`; a PersistentVolumeClaim's by every `claimName`. Where the sweep moves
identities, an object whose name moves takes each of those with it; where any one of them stays
(a keep rule, the inline marker, a residual of another kind), or the object's own `metadata.name`
stays while a reader would move, readers would name an object that does not exist: then none of
them is rewritten, each a residual `identity` naming what stays.
"""

from __future__ import annotations

from dataclasses import replace

from renamer import kube_identities
from renamer.classify import CURRENT
from renamer.project import LoadedProject
from renamer.sweep.content import read_content
from renamer.sweep.held_paths import _line_starts, _offset, codec
from renamer.sweep.model import RESIDUAL, FileResult, Reference, ScanResult
from renamer.sweep.scan import REFUSED_HINTS, repo_services


def _family(identity: kube_identities.Identity) -> str | None:
    """The kind of object an identity field names, where others name it too: its own
    `metadata.name`, a field naming it (an Ingress backend's `service.name`, `configMapRef`,
    `secretName`, ...), a Service's `.svc` name and a StatefulSet's `serviceName`, a claim's
    `claimName`, a Namespace's every `namespace:` and `.svc` label (round 20k, finding 4)."""
    if identity.field in ("name", "ref"):
        return identity.kind
    if identity.field in ("service-dns", "serviceName"):
        return "Service"
    if identity.field == "claimName":
        return "PersistentVolumeClaim"
    if identity.field in ("namespace", "service-dns-namespace"):  # an object's, a `.svc` name's
        return "Namespace"
    return None


def _named_refs(data: bytes, found: FileResult,
                known: kube_identities.Services) -> list[tuple[Reference, str, str, int, int]]:
    """The references of `found` in a field naming a Service or a claim: (reference, the family,
    the namespace or "" where none is given, start, end)."""
    spans = [(i.start, i.end, family, i.namespace)
             for i in kube_identities.identities(found.path, data, known)
             if (family := _family(i)) is not None]
    if not spans:
        return []
    starts, read = _line_starts(data), codec(data)
    out = []
    for ref in found.references:
        if ref.role == "path" or ref.line < 1 or ref.line > len(starts):
            continue
        offset = _offset(data, starts[ref.line - 1], ref.column, read)
        end = offset + len(ref.old.encode())
        hit = next(((family, ns) for s, e, family, ns in spans if s <= offset and end <= e), None)
        if hit is not None:
            out.append((ref, *hit, offset, end))
    return out


def one_fate(project: LoadedProject, scan: ScanResult) -> ScanResult:
    """`scan` with every Service name and `.svc` name of one old name held where any is held."""
    found_refs: dict[str, list[tuple[Reference, str, str, int, int]]] = {}
    known = repo_services(project)
    for found in scan.files:
        if found.status != CURRENT or found.kind != "text" or not found.references:
            continue
        content = read_content(project.root / found.path, project.config.max_file_size)
        if content is None or content.kind != "text" \
                or not (kube_identities.might_hold(content.data) or known):
            continue
        found_refs[found.path] = _named_refs(content.data, found, known)
    # (family, name) -> (namespace, the reference that stays)
    held: dict[tuple[str, str], list[tuple[str, Reference]]] = {}
    for spans_of in found_refs.values():
        for ref, family, namespace, _, _ in spans_of:
            if not ref.rewritable:
                held.setdefault((family, ref.old.lower()), []).append((namespace, ref))
    if not held:
        return scan

    def staying(ref: Reference, family: str, namespace: str) -> Reference | None:
        """What holds `ref` back: a reference that stays of its object's name, in its namespace
        (none given is any)."""
        return next((r for ns, r in held.get((family, ref.old.lower()), ())
                     if not ns or not namespace or ns == namespace), None)

    files = []
    for found in scan.files:
        doomed = {id(ref): (stay, family, s, e) for ref, family, ns, s, e in found_refs.get(found.path, ())
                  if ref.rewritable and (stay := staying(ref, family, ns)) is not None}
        if not doomed:
            files.append(found)
            continue
        spans = [(s, e) for _, _, s, e in doomed.values()]
        refs: list[Reference] = []
        for ref in found.references:
            if id(ref) in doomed:
                stay, family = doomed[id(ref)][:2]
                why = stay.reason or "kept"
                ref = replace(ref, status=RESIDUAL, reason=kube_identities.IDENTITY,
                              note=f"{family} {ref.old}'s name stays where a field names it "
                                   f"({stay.path}:{stay.line}, {why}): one name, one fate, so none of them "
                                   f"moves; {REFUSED_HINTS[kube_identities.IDENTITY]}")
            refs.append(ref)
        edits = tuple(e for e in found.edits
                      if not any(e.start < end and start < e.end for start, end in spans))
        files.append(replace(found, references=tuple(refs), edits=edits))
    return replace(scan, files=tuple(files))
