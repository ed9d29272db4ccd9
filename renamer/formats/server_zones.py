"""Which zone a zone file holds, as a name server's configuration says: BIND's (and PowerDNS's bind
backend's) `zone "NAME" { file "PATH"; };` and `include "PATH";`, NSD's and Unbound's `zone:` /
`auth-zone:` with `name:` and `zonefile:`, Knot's `zone:` list with `domain:` and `file:`.

A zone file needs no `$ORIGIN` when named.conf names its zone (`db.10.250.50` holding `54 IN PTR
host.`): without this, its relative owners mean nothing to the sweep. Pure: bytes in, pairs out;
the paths are only strings here, matched against the repo's own file list (sweep/zone_origins.py),
never opened as written.
"""

from __future__ import annotations

import re

from renamer import lazy_re

__all__ = ["bind_includes", "presentation_config", "server_zone_files"]

# BIND's three comment styles; a quoted string may hold any of their markers.
_BIND_TOKEN = lazy_re.compile(
    rb'"(?:[^"\\\n]|\\.)*"|/\*.*?\*/|//[^\n]*|#[^\n]*|[{};]|[^\s{};"#/]+|/', re.DOTALL)
_ZONE_NAME = lazy_re.compile(r"[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)*\.?")
# NSD, Unbound (auth-zone) and Knot: one key a line; a value quoted or bare, a comment after `#`.
_KEYED = lazy_re.compile(rb'(?m)^[ \t]*(?:-[ \t]*)?(name|domain|zonefile|file)[ \t]*:[ \t]*"?([^"\s#]+)"?')


# A name server's configuration by its file name (named.conf.local, nsd.conf, unbound.conf and their
# templates) or folder (unbound.conf.d/): names there are in presentation format, as in a zone.
_SERVER_CONFIG = lazy_re.compile(r"(?:[^/]*/)*(?:(?:named|nsd|unbound|knot)[^/]*\.conf[^/]*"
                            r"|unbound\.conf\.d/[^/]+\.conf)", re.IGNORECASE)


def presentation_config(path: str) -> bool:
    """Whether `path` (a repo path) is a name server's configuration, where a name's `\\DDD` is a
    decimal byte (RFC 1035 5.1) as in a zone file."""
    return _SERVER_CONFIG.fullmatch(path) is not None


def _bind_tokens(data: bytes) -> list[str]:
    out = []
    for m in _BIND_TOKEN.finditer(data):
        token = m.group()
        if token.startswith((b"/*", b"//", b"#")):
            continue
        out.append(token.decode("utf-8", "replace"))
    return out


def _unquoted(token: str) -> str | None:
    return token[1:-1] if len(token) >= 2 and token[0] == token[-1] == '"' else None


def _origin(name: str) -> str | None:
    """A zone's name as an origin (lower case, final dot); None for anything that is not one."""
    if not _ZONE_NAME.fullmatch(name):
        return None
    return name.lower().rstrip(".") + "."


def server_zone_files(data: bytes) -> list[tuple[str, str]]:
    """(zone origin, file path as written) for each zone statement that names a file."""
    out = _bind_zones(_bind_tokens(data)) if b"zone" in data else []
    if b"zonefile" in data or b"domain" in data:
        out += _keyed_zones(data)
    return out


def _bind_zones(tokens: list[str]) -> list[tuple[str, str]]:
    out = []
    for i, token in enumerate(tokens):
        if token != "zone" or i + 1 >= len(tokens):
            continue
        name = _unquoted(tokens[i + 1]) or tokens[i + 1]
        origin = _origin(name)
        j = i + 2
        while j < len(tokens) and tokens[j] not in ("{", ";"):
            j += 1  # the class, or a view's name
        if origin is None or j >= len(tokens) or tokens[j] != "{":
            continue
        depth, k = 0, j
        while k < len(tokens):
            if tokens[k] == "{":
                depth += 1
            elif tokens[k] == "}":
                depth -= 1
                if depth == 0:
                    break
            elif depth == 1 and tokens[k] == "file" and k + 1 < len(tokens):
                path = _unquoted(tokens[k + 1])
                if path:
                    out.append((origin, path))
            k += 1
    return out


def _keyed_zones(data: bytes) -> list[tuple[str, str]]:
    out = []
    origin: str | None = None
    for m in _KEYED.finditer(data):
        key, value = m.group(1), m.group(2).decode("utf-8", "replace")
        if key in (b"name", b"domain"):
            origin = _origin(value)
        elif origin is not None and "%" not in value:  # Knot's template `file: "%s.zone"`
            out.append((origin, value))
            origin = None
    return out


def bind_includes(data: bytes) -> list[str]:
    """The paths of BIND `include "PATH";` statements, as written."""
    tokens = _bind_tokens(data) if b"include" in data else []
    return [path for i, token in enumerate(tokens[:-1])
            if token == "include" and (path := _unquoted(tokens[i + 1]))]
