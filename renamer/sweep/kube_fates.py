"""One name, one fate for a Kubernetes Service moved by `sweep --allow-identity` (issue 32, item 4).

A Service's name is read by every `NAME.NS.svc[.cluster.local]` that connects to it. Where the
sweep moves identities, a Service whose name moves takes each of those with it; where any one of
them stays (a keep rule, the inline marker, a residual of another kind), or the Service's own
`metadata.name` stays while a `.svc` name would move, readers would name a Service that does not
exist: then none of them is rewritten, each a residual `identity` naming what stays.
"""

from __future__ import annotations

from dataclasses import replace

from renamer import kube_identities
from renamer.classify import CURRENT
from renamer.project import LoadedProject
from renamer.sweep.content import read_content
from renamer.sweep.held_paths import _line_starts, _offset, codec
from renamer.sweep.model import RESIDUAL, FileResult, Reference, ScanResult
from renamer.sweep.scan import REFUSED_HINTS

_FIELDS = ("name", "service-dns")


def _service_refs(data: bytes, found: FileResult) -> list[tuple[Reference, str, int, int]]:
    """The references of `found` in a Service's name or a `.svc` name: (reference, the Service's
    namespace or "" where none is given, start, end)."""
    spans = [(i.start, i.end, i.namespace) for i in kube_identities.identities(found.path, data)
             if i.field == "service-dns" or (i.field == "name" and i.kind == "Service")]
    if not spans:
        return []
    starts, read = _line_starts(data), codec(data)
    out = []
    for ref in found.references:
        if ref.role == "path" or ref.line < 1 or ref.line > len(starts):
            continue
        offset = _offset(data, starts[ref.line - 1], ref.column, read)
        end = offset + len(ref.old.encode())
        namespace = next((ns for s, e, ns in spans if s <= offset and end <= e), None)
        if namespace is not None:
            out.append((ref, namespace, offset, end))
    return out


def one_fate(project: LoadedProject, scan: ScanResult) -> ScanResult:
    """`scan` with every Service name and `.svc` name of one old name held where any is held."""
    found_refs: dict[str, list[tuple[Reference, str, int, int]]] = {}
    for found in scan.files:
        if found.status != CURRENT or found.kind != "text" or not found.references:
            continue
        content = read_content(project.root / found.path, project.config.max_file_size)
        if content is None or content.kind != "text" or not kube_identities.might_hold(content.data):
            continue
        found_refs[found.path] = _service_refs(content.data, found)
    held: dict[str, list[tuple[str, Reference]]] = {}  # name -> (namespace, the reference that stays)
    for spans_of in found_refs.values():
        for ref, namespace, _, _ in spans_of:
            if not ref.rewritable:
                held.setdefault(ref.old.lower(), []).append((namespace, ref))
    if not held:
        return scan

    def staying(ref: Reference, namespace: str) -> Reference | None:
        """What holds `ref` back: a reference that stays of its name, in its namespace (none given
        is any)."""
        return next((r for ns, r in held.get(ref.old.lower(), ())
                     if not ns or not namespace or ns == namespace), None)

    files = []
    for found in scan.files:
        doomed = {id(ref): (stay, s, e) for ref, ns, s, e in found_refs.get(found.path, ())
                  if ref.rewritable and (stay := staying(ref, ns)) is not None}
        if not doomed:
            files.append(found)
            continue
        spans = [(s, e) for _, s, e in doomed.values()]
        refs: list[Reference] = []
        for ref in found.references:
            if id(ref) in doomed:
                stay = doomed[id(ref)][0]
                why = stay.reason or "kept"
                ref = replace(ref, status=RESIDUAL, reason=kube_identities.IDENTITY,
                              note=f"Service {ref.old}'s name or one of its `.svc` names stays "
                                   f"({stay.path}:{stay.line}, {why}): one name, one fate, so none of them "
                                   f"moves; {REFUSED_HINTS[kube_identities.IDENTITY]}")
            refs.append(ref)
        edits = tuple(e for e in found.edits
                      if not any(e.start < end and start < e.end for start, end in spans))
        files.append(replace(found, references=tuple(refs), edits=edits))
    return replace(scan, files=tuple(files))
