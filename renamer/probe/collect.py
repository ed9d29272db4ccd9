"""Which endpoints the current-state files point at through a new name or address.

Only this repo's current-state files, only where a new value of the renames stands
(found with the same exact rules as the sweep, the new values as needles): a URL
(`http(s)://host:port/path`), a `host:port` pair, a compose `extra_hosts` pin
(`name:address`), or a bare host with a `port` key beside it in the same YAML
mapping. Never a network scan, never an address range: renamer probes only what
a file names.
"""

from __future__ import annotations

import bisect
import fnmatch
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from renamer import lazy_re
from renamer.formats import format_of
from renamer.masking import is_secret_name
from renamer.match import Matcher
from renamer.names import parse_address
from renamer.printable import printable

_URL = lazy_re.compile(r"(?P<scheme>https?)://(?P<userinfo>[^@/\s\"'<>]*@)?(?P<host>\[[0-9A-Fa-f:.]+\]|[^:/\s\"'<>?#\\]+)"
                  r"(?::(?P<port>\d{1,5}))?(?P<path>/[^\s\"'<>`)\]]*)?")
_HOST_PORT = lazy_re.compile(
    r"(?P<host>[A-Za-z0-9][A-Za-z0-9.-]*|\[[0-9A-Fa-f:.]+\]):(?P<port>\d{1,5})(?![\d.:])")
_PIN = lazy_re.compile(
    r"(?P<host>[A-Za-z0-9][A-Za-z0-9.-]*)[:=](?P<address>\d{1,3}(?:\.\d{1,3}){3})(?![\d.])")


@dataclass(frozen=True)
class Place:
    path: str
    line: int
    key: str | None  # the YAML key path, where the file is YAML

    def __str__(self) -> str:
        return f"{self.path}:{self.line}" + (f" [{self.key}]" if self.key else "")


@dataclass
class Endpoint:
    scheme: str | None  # http, https; None for a host:port or a pin
    host: str
    port: int | None
    path: str
    places: list[Place] = field(default_factory=list)
    pinned: str | None = None  # compose extra_hosts: the address the name must resolve to
    userinfo: bool = False

    @property
    def ident(self) -> tuple[str | None, str, int | None, str, str | None]:
        return (self.scheme, self.host, self.port, self.path, self.pinned)

    @property
    def effective_port(self) -> int | None:
        if self.port is not None:
            return self.port
        return {"http": 80, "https": 443}.get(self.scheme or "")

    def shown(self) -> str:
        """The endpoint as a URL or host:port, secrets masked, control characters escaped."""
        if self.pinned:
            return printable(f"{self.host} -> {self.pinned} (pinned)")
        host = f"[{self.host}]" if ":" in self.host else self.host
        port = f":{self.port}" if self.port is not None else ""
        if self.scheme is None:
            return printable(f"{host}{port}")
        user = "****@" if self.userinfo else ""
        return printable(f"{self.scheme}://{user}{host}{port}{mask_query(self.path)}")


def mask_query(path: str) -> str:
    """A URL path with the values of secret-looking query parameters masked."""
    if "?" not in path:
        return path
    head, _, query = path.partition("?")
    parts = []
    for pair in query.split("&"):
        name, sep, value = pair.partition("=")
        parts.append(f"{name}={'****' if value else ''}" if sep and is_secret_name(name) else pair)
    return head + "?" + "&".join(parts)


def endpoints_in(path: str, data: bytes, matcher: Matcher) -> Iterator[Endpoint]:
    """Every endpoint in one file that holds a new value, with where it stands."""
    matches = [m for m in matcher.find(data) if m.refused is None]
    if not matches:
        return
    text = data.decode("utf-8", "replace")
    starts = _line_starts(text)
    fmt = format_of(path, data)
    tree: Any = fmt.tree(text)  # a document whose values can be walked (YAML)
    keys = fmt.locate(text, [m.start for m in matches]) if fmt.keys else None
    for index, match in enumerate(matches):
        line_number = _line_of(starts, match.start)
        line_start = starts[line_number - 1]
        line = text[line_start:text.find("\n", line_start) if "\n" in text[line_start:] else len(text)]
        column = match.start - line_start
        key = keys[index][0] if keys else None
        place = Place(path, line_number, key)
        found = _from_line(line, column, match.end - line_start)
        if found is None and tree is not None and key is not None:
            found = _beside_port(tree, key, match.new)
        if found is not None:
            found.places.append(place)
            yield found


def _from_line(line: str, start: int, end: int) -> Endpoint | None:
    for url in _URL.finditer(line):
        if url.start("host") <= start and end <= url.end("host"):
            host = url["host"].strip("[]")
            parts = urlsplit(url[0])
            path = parts.path + (f"?{parts.query}" if parts.query else "")
            return Endpoint(url["scheme"], host, int(url["port"]) if url["port"] else None, path or "/",
                            userinfo=bool(url["userinfo"]))
    for pair in _HOST_PORT.finditer(line):
        if pair.start("host") <= start and end <= pair.end("host") and int(pair["port"]) <= 65535:
            return Endpoint(None, pair["host"].strip("[]"), int(pair["port"]), "")
    for pin in _PIN.finditer(line):  # compose extra_hosts: "name:address" (or name=address)
        if pin.start("host") <= start and end <= pin.end("host"):
            return Endpoint(None, pin["host"], None, "", pinned=pin["address"])
    return None


def _beside_port(tree: Any, key: str, value: str) -> Endpoint | None:
    """A bare host whose YAML mapping names a port beside it (`host: fv-ml1`, `port: 8016`)."""
    parent = _walk(tree, key.rsplit(".", 1)[0] if "." in key else "")
    if not isinstance(parent, dict):
        return None
    port = next((parent[k] for k in parent if isinstance(k, str) and fnmatch.fnmatch(k.lower(), "*port")),
                None)
    if isinstance(port, int) and not isinstance(port, bool) and 0 < port <= 65535:
        return Endpoint(None, value, port, "")
    if isinstance(port, str) and port.isdigit() and 0 < int(port) <= 65535:
        return Endpoint(None, value, int(port), "")
    return None


_STEP = lazy_re.compile(r"\.?([A-Za-z_][\w-]*)|\[(\d+)\]|\[\"([^\"]*)\"\]")


def _walk(tree: Any, key: str) -> Any:
    node = tree
    for name, index, quoted in _STEP.findall(key):
        if index:
            if not isinstance(node, list) or int(index) >= len(node):
                return None
            node = node[int(index)]
        else:
            if not isinstance(node, dict):
                return None
            node = node.get(name or quoted)
    return node




def _line_starts(text: str) -> list[int]:
    return [0, *(found.end() for found in re.finditer("\n", text))]


def _line_of(starts: list[int], offset: int) -> int:
    return bisect.bisect_right(starts, offset)


def merged(found: Iterable[Endpoint], exclude: Iterable[str] = ()) -> list[Endpoint]:
    """One endpoint per (scheme, host, port, path), with every place it stands; `exclude`
    (glob patterns on the endpoint as shown, or on its host) leaves some out."""
    patterns = list(exclude)
    out: dict[tuple[Any, ...], Endpoint] = {}
    for endpoint in found:
        if any(fnmatch.fnmatch(endpoint.shown(), p) or fnmatch.fnmatch(endpoint.host, p) for p in patterns):
            continue
        known = out.setdefault(endpoint.ident, endpoint)
        if known is not endpoint:
            known.places += [p for p in endpoint.places if p not in known.places]
    return sorted(out.values(), key=lambda e: (e.places[0].path, e.places[0].line, e.shown()))


def is_address(host: str) -> bool:
    return parse_address(host) is not None
