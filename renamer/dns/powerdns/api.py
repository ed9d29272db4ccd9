"""A small client of the PowerDNS Authoritative HTTP API (urllib only, no dependency).

The calls renamer needs: a zone with its RRsets (GET /api/v1/servers/{server_id}/zones/{zone}),
a PATCH of RRsets (changetype REPLACE or DELETE), and a zone's metadata (the apply lock,
X-RENAMER-LOCK). Every failure is an ApiError with the HTTP status and PowerDNS's own message;
a zone the server does not hold is ZoneMissing. The key travels in the X-API-Key header only;
it is never part of a message.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass
from typing import Any

from renamer import work

DEFAULT_SERVER_ID = "localhost"
LOCK_KIND = "X-RENAMER-LOCK"


class ApiError(Exception):
    """A call that failed: `status` 0 when the server could not be reached at all."""

    def __init__(self, message: str, status: int = 0) -> None:
        super().__init__(message)
        self.status = status


class ZoneMissing(ApiError):
    """The server holds no such zone: renamer never creates one (it would shadow a delegation)."""


def zone_id(zone: str) -> str:
    """The zone's id in a URL: its name with the final dot, each character outside [a-z0-9.-]
    as PowerDNS escapes it (=XX), then percent-quoted."""
    name = zone.lower().rstrip(".") + "."
    escaped = "".join(c if c.isalnum() or c in ".-_" else f"={ord(c):02X}" for c in name)
    return urllib.parse.quote(escaped, safe="")


@dataclass(frozen=True)
class Client:
    url: str  # the API's base, http://127.0.0.1:8081 (with or without /api/v1)
    key: str
    server_id: str = DEFAULT_SERVER_ID
    timeout: float = 10.0

    @property
    def base(self) -> str:
        root = self.url.rstrip("/")
        if not root.endswith("/api/v1"):
            root += "/api/v1"
        return f"{root}/servers/{urllib.parse.quote(self.server_id, safe='')}"

    def call(self, method: str, path: str, body: Any = None) -> Any:
        work.add(f"api {method}")
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base + path, data=data, method=method,
                                         headers={"X-API-Key": self.key, "Accept": "application/json",
                                                  **({"Content-Type": "application/json"} if data else {})})
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as response:
                raw, status = response.read(), int(response.status)
        except urllib.error.HTTPError as exc:
            raise ApiError(f"{method} {path}: HTTP {exc.code}: {_message(exc.read())}", exc.code) from None
        except (urllib.error.URLError, OSError) as exc:
            reason = getattr(exc, "reason", exc)
            raise ApiError(f"{method} {path}: {self.url} not reachable: {reason}") from None
        if not raw.strip():
            return None
        try:
            return json.loads(raw)
        except ValueError:  # a login page, a proxy's error page: not the API `api` should name
            shown = raw.decode(errors="replace").strip().splitlines()[0][:80]
            # a status: it answered (a PATCH may have landed), unlike a server not reached (0)
            raise ApiError(f"{method} {path}: {self.url} answered HTTP {status} with something that is not "
                           f"JSON ({shown!r}): is `api` the PowerDNS API (webserver=yes, api=yes)?",
                           status) from None

    def zone(self, zone: str) -> dict[str, Any]:
        """The zone with its RRsets; ZoneMissing when the server holds no such zone."""
        try:
            found = self.call("GET", f"/zones/{zone_id(zone)}")
        except ApiError as exc:
            # 4.x answers 404 (newer) or 422 "Could not find domain" (older) for a zone it lacks
            if exc.status in (404, 422):
                raise ZoneMissing(f"zone {zone.rstrip('.')}. is not on server {self.server_id} "
                                  f"at {self.url}: create it there first (renamer never creates a zone)",
                                  exc.status) from None
            raise
        if not isinstance(found, dict) or not isinstance(found.get("rrsets"), list):
            raise ApiError(f"GET /zones/{zone_id(zone)}: not a zone: {str(found)[:200]}")
        return found

    def patch(self, zone: str, rrsets: list[dict[str, Any]]) -> None:
        if rrsets:
            self.call("PATCH", f"/zones/{zone_id(zone)}", {"rrsets": rrsets})

    def search_comments(self, query: str, limit: int = 1_000_000) -> list[dict[str, Any]]:
        """The comments matching `query` (`*` a wildcard) in every zone of the server, each with its
        zone, name and type (GET /search-data, object_type comment)."""
        query = urllib.parse.quote(query)
        found = self.call("GET", f"/search-data?q={query}&max={limit}&object_type=comment")
        return [hit for hit in found if isinstance(hit, dict)] if isinstance(found, list) else []

    def metadata(self, zone: str, kind: str = LOCK_KIND) -> list[str]:
        found = self.call("GET", f"/zones/{zone_id(zone)}/metadata/{kind}")
        values = found.get("metadata", []) if isinstance(found, dict) else []
        return [v for v in values if isinstance(v, str)]

    def add_metadata(self, zone: str, value: str, kind: str = LOCK_KIND) -> None:
        """POST: PowerDNS adds the value to the kind's list, keeping the others there."""
        self.call("POST", f"/zones/{zone_id(zone)}/metadata", {"kind": kind, "metadata": [value]})

    def set_metadata(self, zone: str, values: list[str], kind: str = LOCK_KIND) -> None:
        if values:
            self.call("PUT", f"/zones/{zone_id(zone)}/metadata/{kind}", {"kind": kind, "metadata": values})
        else:
            self.call("DELETE", f"/zones/{zone_id(zone)}/metadata/{kind}")


def _message(raw: bytes) -> str:
    try:
        found = json.loads(raw)
    except ValueError:
        return raw.decode(errors="replace").strip()[:200] or "(no message)"
    return str(found.get("error", found))[:200] if isinstance(found, dict) else str(found)[:200]
