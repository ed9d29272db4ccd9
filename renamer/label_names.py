"""Traefik's router, service and middleware names in labels (break-it round 8, finding 9).

`traefik.http.services.pug.loadbalancer.server.port=80` defines a service named `pug`, and
`traefik.http.routers.pug.service=pug` reads it by that name (so do `middlewares=a,pug@docker`
and a TCP or UDP router's `service=`). The name inside the label key stands after a `.`, so the
plain rules never rename it, while the value's `pug` was rewritten: the router then asked for a
service `wolf` that no label defines. The names are identities of the labels, joined by
reference: a reference to a name the same file defines in a label key is kept with it. Pure:
bytes in, spans out.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from renamer import lazy_re

_DEFINED = lazy_re.compile(rb"traefik\.(?P<proto>http|tcp|udp)\.(?P<kind>routers|services|middlewares)\."
                      rb"(?P<name>[A-Za-z0-9_-]+)\.")
_READ = lazy_re.compile(rb"traefik\.(?P<proto>http|tcp|udp)\.routers\.[A-Za-z0-9_-]+\."
                   rb"(?P<kind>service|middlewares)"
                   rb"""[ \t]*[=:][ \t]*["']?(?P<value>[A-Za-z0-9_@,. -]+)""")
_KINDS = {b"service": b"services", b"middlewares": b"middlewares"}


@dataclass(frozen=True)
class LabelRef:
    """A name at [start, end) that a label's value reads, and the line defining it."""

    start: int
    end: int
    name: str
    kind: str  # services | middlewares
    defined_at: int  # the offset of the defining label


def label_refs(data: bytes, names: Collection[str]) -> list[LabelRef]:
    if b"traefik." not in data:
        return []
    defined: dict[tuple[bytes, bytes, bytes], int] = {}
    for found in _DEFINED.finditer(data):
        defined.setdefault((found.group("proto"), found.group("kind"), found.group("name")), found.start())
    wanted = {n.encode() for n in names}
    out: list[LabelRef] = []
    for found in _READ.finditer(data):
        pos = found.start("value")
        for item in found.group("value").split(b","):
            name = item.strip().split(b"@")[0]
            start = pos + item.index(name) if name else pos
            kind = _KINDS[found.group("kind")]
            at = defined.get((found.group("proto"), kind, name))
            if name in wanted and at is not None:
                out.append(LabelRef(start, start + len(name), name.decode(), kind.decode(), at))
            pos += len(item) + 1
    return out
