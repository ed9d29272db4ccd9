"""A Traefik router's service and middlewares, as references to the file provider's keys
(break-it round 9, finding 3).

In a file provider's dynamic configuration, `http: {middlewares: {pug: ...}}` defines the
middleware `pug`; a router's `middlewares: ["pug"]` (or `- pug@file`) and `service: pug` read it
by name, as does a docker label `traefik.http.routers.r.service=pug@file`. With the definition
kept on purpose (`pug:  # renamer: keep`), the plain rules rewrote the readers, and Traefik
reported the router's middleware missing. Each such name is a reference (`KeyRef`) to the key
`http.middlewares.pug` (`http.services.pug`, `tcp.services.pug`...), decided as every key
reference is (renamer/sweep/key_index.py): it follows a renamed definition, keeps a kept one.
A name of another provider (`@docker`, `@kubernetescrd`) is not read here. Pure: bytes in, spans out.
"""

from __future__ import annotations

import re
from collections.abc import Collection

from renamer import lazy_re
from renamer.key_refs import KeyRef

_TOP = lazy_re.compile(rb"^(?P<proto>http|tcp|udp)[ \t]*:", re.MULTILINE)
_ANY_TOP = lazy_re.compile(rb"^[A-Za-z_]", re.MULTILINE)
_SERVICE = lazy_re.compile(
    rb"""^[ \t]*service[ \t]*:[ \t]*(?P<q>["']?)(?P<name>[A-Za-z0-9_.-]+)(?:@file)?(?P=q)"""
                      rb"""[ \t]*(?:#.*)?$""", re.MULTILINE)
_MIDDLEWARES = lazy_re.compile(rb"^(?P<indent>[ \t]*)middlewares[ \t]*:[ \t]*(?P<flow>\[[^\]\n]*\])?[ \t]*"
                          rb"(?:#.*)?$", re.MULTILINE)
_ITEM = lazy_re.compile(rb"""(?P<q>["']?)(?P<name>[A-Za-z0-9_.-]+)(?P<at>@[A-Za-z0-9_-]+)?(?P=q)""")
_BLOCK_ITEM = lazy_re.compile(
    rb"""[ \t]*-[ \t]*(?P<q>["']?)(?P<name>[A-Za-z0-9_.-]+)(?P<at>@[A-Za-z0-9_-]+)?"""
                         rb"""(?P=q)[ \t]*(?:#.*)?$""")
# A docker label naming a file provider's service or middleware: `...routers.r.service=pug@file`.
_LABEL = lazy_re.compile(rb"""traefik\.(?P<proto>http|tcp|udp)\.routers\.[A-Za-z0-9_.-]+\."""
                    rb"""(?P<kind>service|middlewares)["']?[ \t]*[=:][ \t]*["']?(?P<value>[^"'\n]*)""")


def might_hold(data: bytes) -> bool:
    return b"routers" in data


def traefik_refs(data: bytes, names: Collection[str]) -> list[KeyRef]:
    """Each old name a router reads as a file provider's service or middleware."""
    wanted = {n.encode() for n in names}
    out: list[KeyRef] = []

    def add(start: int, end: int, proto: bytes, kind: str, shown: bytes) -> None:
        name = data[start:end]
        if name in wanted:
            out.append(KeyRef(start, end, name.decode(), (proto.decode(), kind, name.decode()),
                              shown.strip().decode("utf-8", "replace"), True))

    tops = [(m.start(), m.group("proto")) for m in _TOP.finditer(data)]
    if tops:
        others = [m.start() for m in _ANY_TOP.finditer(data)]

        def proto_at(at: int) -> bytes | None:
            top = max((t for t in tops if t[0] <= at), default=None)
            if top is None or any(top[0] < o <= at for o in others):
                return None
            return top[1]

        for found in _SERVICE.finditer(data):
            proto = proto_at(found.start())
            if proto is not None:  # `service: pug` or `pug@file`: this provider's (another's never matches)
                add(found.start("name"), found.end("name"), proto, "services", found.group())
        for found in _MIDDLEWARES.finditer(data):
            proto = proto_at(found.start())
            if proto is None or proto != b"http":
                continue
            items: list[re.Match[bytes]] = []
            if found.group("flow") is not None:
                items = list(_ITEM.finditer(data, found.start("flow") + 1, found.end("flow") - 1))
            else:
                at = found.end() + 1
                while at < len(data):
                    line_end = data.find(b"\n", at)
                    line_end = len(data) if line_end < 0 else line_end
                    item = _BLOCK_ITEM.match(data, at, line_end)
                    if item is None:
                        break
                    items.append(item)
                    at = line_end + 1
            for item in items:
                if item.group("at") in (None, b"@file"):
                    add(item.start("name"), item.end("name"), proto, "middlewares", found.group())
    for found in _LABEL.finditer(data):
        kind = "services" if found.group("kind") == b"service" else "middlewares"
        for item in _ITEM.finditer(data, found.start("value"), found.end("value")):
            if item.group("at") == b"@file":
                add(item.start("name"), item.end("name"), found.group("proto"), kind, found.group())
    return sorted(out, key=lambda r: r.start)
