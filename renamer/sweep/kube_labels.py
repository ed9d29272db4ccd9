"""An old host name as a label of a Kubernetes Service's DNS name (break-it round 20k, finding 4).

The plain rules match a host name standing whole; a Service's DNS name spells the names of two
objects in its labels: `api.pug.svc.cluster.local` (and `api.pug`, `api.pug:80` where the repo
defines Service api in namespace pug) names Namespace pug in its middle label, and
`prod-pug-v2.db.svc` names Service pug as a kustomization's `namePrefix: prod-` and
`nameSuffix: -v2` render it. Those spellings were near-misses only: under `--allow-identity` the
Namespace (or the Service) moved and its readers stayed, and verify said OK. Each is an occurrence
now: a `Match` of the old name, which kube_identities' `.svc` spans then hold as an `identity`
(moved with the object by `--allow-identity`, held where it stays: sweep/kube_fates.py).
"""

from __future__ import annotations

from collections.abc import Iterable

from renamer.kube_identities import SERVICE_DNS, SERVICE_SHORT, Services
from renamer.occurrences import Match


def label_matches(data: bytes, matches: list[Match], hosts: Iterable[tuple[str, str]],
                  known: Services) -> list[Match]:
    """`matches` with each Service DNS name's label spelling an old one-label host name added:
    the namespace label whole, the name label whole or inside a kustomization's prefix/suffix."""
    shorts = {old.lower(): new for old, new in hosts if "." not in old and old}
    if not shorts:
        return matches
    hits = list(SERVICE_DNS.finditer(data)) if b".svc" in data else []
    if known:
        hits += [h for h in SERVICE_SHORT.finditer(data)
                 if known.names(h.group("name").decode("ascii"), h.group("ns").decode("ascii"))]
    taken = [(m.start, m.end) for m in matches]
    added: dict[int, Match] = {}
    for hit in hits:
        whole = hit.group(0).decode("ascii", "replace")
        for group in ("name", "ns"):
            label = hit.group(group).decode("ascii").lower()
            at = hit.start(group)
            spans = [(at, old, new) for old, new in shorts.items() if label == old]
            if group == "name":
                spans += [(at + len(p), old, new) for p, s in known.affixes for old, new in shorts.items()
                          if (p or s) and label == p + old + s]
            for start, old, new in spans:
                end = start + len(old)
                if start in added or any(s < end and start < e for s, e in taken):
                    continue
                what = "namespace" if group == "ns" else "Service name"
                added[start] = Match(start, end, data[start:end].decode("ascii"), new, "host",
                                     note=f"`{whole}`: the {what} in a Kubernetes Service's DNS name")
    if not added:
        return matches
    return sorted([*matches, *added.values()], key=lambda m: m.start)
