"""The PowerDNS backend's own transport: this machine's files, and a virtual snippet folder.

Everything the generic rollout keeps in backup_dir (the backups, the pending marker,
renamer-apply-last, the lock file) is a file on the machine running renamer, as LocalTransport
keeps it. The resolver's snippet_dir is virtual (ApiSettings.folder, the server's zones): a
"file" there is one site's RRsets, `renamer-<site>.rrsets`, in rrsets.render's text.

* read: rrsets.view of the site's zones as the server holds them now (None: the site owns
  nothing there), which equals the rendering exactly when nothing is to change;
* write: make the RRsets the site owns exactly those of the text, one PATCH per zone of the
  difference (REPLACE with the ownership comment, DELETE of the site's own RRsets the text
  lacks); an RRset that is not the site's standing in the way is refused, nothing written;
* remove: DELETE every RRset the site owns in its zones;
* the lock file's create and remove also take and give back X-RENAMER-LOCK in each zone the
  apply may write (ops.take): its sites' zones, and those holding RRsets of a site the plan
  deletes (one removed from the inventory, or one this resolver no longer serves); a PATCH of a
  zone not held yet (a rollback putting back a removed site whose RRsets were all deleted) takes
  its lock first: two operators on two machines collide on the server in every zone written.

The server is read through the API at each step (a zone is fetched once until the next write).
A server that cannot be reached is Unreachable, as an ssh failure is for a file backend.
"""

from __future__ import annotations

import json
import posixpath
from typing import Any

from renamer import debug, lazy_re
from renamer.dns import lock as local_lock
from renamer.dns.inventory import Inventory, Resolver, Site
from renamer.dns.powerdns import config, ops, rrsets
from renamer.dns.powerdns.api import ApiError, Client, ZoneMissing
from renamer.dns.transport import CommandResult, LocalTransport, OwnFiles, TransportError, Unreachable
from renamer.errors import UnsafeError

API_TIMEOUT = 30.0  # seconds for one API call (a PATCH of a few thousand RRsets included)
SUFFIX = ".rrsets"
SITE_NAME = lazy_re.compile(r"[a-z0-9-]+")  # a site's name in a snippet's (FILES in backend.py)


def snippet_name(site: Site) -> str:
    return f"renamer-{site.name}{SUFFIX}"


class ApiTransport(LocalTransport):
    def __init__(self, inventory: Inventory, resolver: Resolver) -> None:
        assert resolver.api is not None  # resolvers.py sets it for backend: powerdns
        self.inventory, self.resolver, self.settings = inventory, resolver, resolver.api
        self.folder = resolver.snippet_dir
        self._client: Client | None = None
        self._zones: dict[str, dict[str, Any] | None] = {}  # as fetched since the last write; None: missing
        self._written: dict[str, str | None] = {}  # name -> what this transport wrote there (None: removed)
        self._lock = posixpath.join(resolver.backup_dir, local_lock.LOCK)
        self._held: list[str] = []  # zones whose X-RENAMER-LOCK holds this apply's entry
        self._gone: dict[str, tuple[str, ...]] = {}  # a site removed from the inventory -> its zones here
        self._mine = ""
        self._all: list[str] | None = None  # every zone's name on the server (server_zones)

    # -- the API ------------------------------------------------------------------------------

    @property
    def client(self) -> Client:
        if self._client is None:  # the key is read at the first call: never at load
            self._client = config.client(self.settings, API_TIMEOUT)
        return self._client

    def _failed(self, exc: ApiError) -> TransportError:
        if exc.status == 0:  # connection refused, timed out: nothing was read or written there
            return Unreachable(f"{self.resolver.name} ({self.settings.url}): API not reachable: {exc}")
        return TransportError(f"{self.resolver.name}: {exc}")

    def zones(self, names: list[str]) -> dict[str, dict[str, Any] | None]:
        """zone -> its JSON as the server holds it (None: the server has no such zone)."""
        for zone in names:
            if zone not in self._zones:
                try:
                    self._zones[zone] = self.client.zone(zone)
                except ZoneMissing:
                    self._zones[zone] = None
                except ApiError as exc:
                    raise self._failed(exc) from None
        return {zone: self._zones[zone] for zone in names}

    def server_zones(self) -> list[str]:
        """The names of every zone the server holds (GET /zones), lower case, with the final dot."""
        if self._all is None:
            try:
                found = self.client.call("GET", "/zones")
            except ApiError as exc:
                raise self._failed(exc) from None
            self._all = sorted({str(z.get("name", "")).lower() for z in found if isinstance(z, dict)}
                               if isinstance(found, list) else set())
        return self._all

    def missing_problem(self, site: Site) -> str | None:
        """Why the site cannot be written here for a zone the server lacks, or None: the line names
        the resolver, and a wider zone the server serves that range from (break-it round 2, 06)."""
        missing = self.missing(site)
        if not missing:
            return None
        zone, api = missing[0], self.settings
        where = f"{self.resolver.name}: zone {zone} is not on server {api.server_id} at {api.url}"
        wider = sorted((z for z in self.server_zones() if zone.endswith("." + z)), key=len, reverse=True)
        if not wider:
            return f"{where}: create it there first (renamer never creates a zone: it could shadow one)"
        outer = wider[0]
        return (f"{where}, which serves that range from its zone {outer}: renamer writes a site's records "
                f"only into the zone it computes ({zone}), never into a wider one it does not own; creating "
                f"{zone} there would hide every other name {outer} holds under it: move those names into "
                f"{zone} when you create it, or serve the site elsewhere")

    def missing(self, site: Site) -> list[str]:
        return [zone for zone, found in self.zones(rrsets.zones(site)).items() if found is None]

    # -- the virtual snippet folder --------------------------------------------------------------

    def _site(self, path: str, text: bytes | None = None) -> rrsets.Owner | None:
        """The site whose virtual file `path` is: the inventory's, or one removed from it whose
        RRsets the server still holds (list_snippets found them; a rollback's `text` names their
        zones); None for a path outside the folder."""
        folder, name = posixpath.split(path)
        if folder != self.folder:
            return None
        site = next((s for s in self.inventory.sites if snippet_name(s) == name), None)
        if site is not None:
            return site
        mine = name.startswith("renamer-") and name.endswith(SUFFIX)
        gone = name[len("renamer-"):-len(SUFFIX)] if mine else ""
        zones = self._gone.get(gone) or (tuple(rrsets.parse(text.decode("utf-8", "replace"))) if text else ())
        if not gone or not zones:
            raise TransportError(f"{self.resolver.name}: {name}: no site of that name in the inventory, and "
                                 "no RRset of it on the server")
        return rrsets.Gone(gone, tuple(zones))

    def owner(self, path: str) -> rrsets.Owner:
        """The site (or the site removed from the inventory) whose virtual file `path` is."""
        site = self._site(path)
        if site is None:
            raise TransportError(f"{self.resolver.name}: {path} is no site's file")
        return site

    def served_zones(self) -> list[str]:
        """The zones of the sites this resolver serves (where hand-written RRsets are looked for)."""
        return list(dict.fromkeys(zone for s in self.inventory.sites if s.name in self.resolver.sites
                                  for zone in rrsets.zones(s)))

    def hand_written(self) -> list[dict[str, Any]]:
        """The hand-written RRsets naming old values in the served zones (rrsets.stale)."""
        live = {zone: found for zone, found in self.zones(self.served_zones()).items() if found is not None}
        served = [s for s in self.inventory.sites if s.name in self.resolver.sites]
        inventory = self.inventory
        return rrsets.stale(inventory.sites, served, inventory.old_hosts, inventory.old_addresses, live)

    def _write_hand(self, data: bytes) -> None:
        """HAND written: each RRset of a line kept put back as the line holds it (a rollback), each
        of a line commented out deleted (`--retire-stale`), zone by zone."""
        bodies: dict[str, list[dict[str, Any]]] = {}
        for kept, rr in rrsets.hand_lines(data.decode("utf-8", "replace")):
            body = bodies.setdefault(str(rr["zone"]), [])
            if kept:
                body.append({"name": rr["name"], "type": rr["type"], "ttl": rr["ttl"],
                             "changetype": "REPLACE",
                             "records": rr.get("records", []), "comments": rr.get("comments", [])})
            else:
                body.insert(0, {"name": rr["name"], "type": rr["type"], "changetype": "DELETE"})
        self._zones.clear()
        self._patch(bodies)
        kept_text = "".join(json.dumps(rr, sort_keys=True) + "\n"
                            for kept, rr in rrsets.hand_lines(data.decode("utf-8", "replace")) if kept)
        self._written[rrsets.HAND] = kept_text or None

    def read(self, path: str) -> bytes | None:
        if path == rrsets.HAND:
            text = rrsets.hand_text(self.hand_written())
            return None if text is None else text.encode()
        if posixpath.dirname(path) != self.folder:
            return super().read(path)
        site = self._site(path)
        assert site is not None
        live = self.zones(rrsets.zones(site))
        if any(found is None for found in live.values()):
            return None  # the plan's problem says which zone is missing (backend.inspect)
        text = rrsets.view(site, {zone: found for zone, found in live.items() if found is not None})
        return text.encode() if any(rrsets.parse(text).values()) else None

    def write(self, path: str, data: bytes) -> None:
        if path == rrsets.HAND:
            self._write_hand(data)
            return
        site = self._site(path, data)
        if site is None:
            super().write(path, data)
            return
        text = data.decode("utf-8")
        self._set(site, rrsets.parse(text))
        self._written[posixpath.basename(path)] = text

    def remove(self, path: str) -> None:
        if path == rrsets.HAND:  # never planned: its RRsets go one by one (_write_hand)
            return
        site = self._site(path)
        if site is not None:
            self._set(site, {})
            self._written[posixpath.basename(path)] = None
            return
        if path == self._lock and self._held:
            ops.give_back(self.client, self._held, self._mine)
            self._held = []
        super().remove(path)

    def _set(self, site: rrsets.Owner, target: dict[str, dict[rrsets.Key, rrsets.RRset]]) -> None:
        """Make the RRsets `site` owns exactly `target`'s (zone -> RRsets), zone by zone."""
        self._zones.clear()  # the server as it is now, not as the plan read it
        names = list(dict.fromkeys([*rrsets.zones(site), *target]))
        live = self.zones(names)
        missing = [zone for zone, found in live.items() if found is None]
        if missing:
            raise TransportError(f"{self.resolver.name}: zone {missing[0]} is not on the server: "
                                 "nothing written")
        bodies: dict[str, list[dict[str, Any]]] = {}
        in_the_way: list[str] = []
        for zone in names:
            found = live[zone]
            assert found is not None
            have, want = rrsets.fetched(found), target.get(zone, {})
            # the DELETEs first (rrsets.patch_body says why: a CNAME onto a name whose A goes)
            body = bodies.setdefault(zone, [{"name": key[0], "type": key[1], "changetype": "DELETE"}
                                            for key, now in have.items()
                                            if key not in want and rrsets.owned(now, site)])
            for key, rr in want.items():
                now = have.get(key)
                mine = now is not None and rrsets.owned(now, site)
                if now is not None and not mine and not rrsets.adoptable(now, rr.records):
                    in_the_way.append(f"{zone}: {key[0]} {key[1]} {', '.join(rrsets.contents(now))}")
                elif now is not None and rrsets.left_to_its_owner(site, key, now):
                    continue  # a hand-written twin of a transitional alias: the operator's, never taken over
                elif now is None or not mine or rrsets.contents(now) != rr.records \
                        or int(now.get("ttl", 0)) != rr.ttl or rrsets.note_of(now) != rr.note:
                    body.append({"name": rr.name, "type": rr.type, "ttl": rr.ttl, "changetype": "REPLACE",
                                 "records": [{"content": c, "disabled": False} for c in rr.records],
                                 "comments": rrsets.comments(site, rr.note)})
        if in_the_way:
            raise TransportError(f"{self.resolver.name}: {len(in_the_way)} RRset(s) not renamer's in the way "
                                 f"(written since the plan?): {in_the_way[0]}: nothing written")
        self._patch(bodies)

    def _patch(self, bodies: dict[str, list[dict[str, object]]]) -> None:
        """One PATCH per zone, each under this apply's X-RENAMER-LOCK there (_hold); the first that
        fails stops the writes (the caller rolls back); the zones read are read again after it,
        whatever happened."""
        self._hold([zone for zone, body in bodies.items() if body])
        try:
            for zone, body in bodies.items():
                self.client.patch(zone, body)
        except ApiError as exc:
            raise self._failed(exc) from None
        finally:
            self._zones.clear()

    def list_snippets(self, folder: str, files: OwnFiles) -> list[str]:
        if folder != self.folder:
            return super().list_snippets(folder, files)
        # the inventory's sites that own (or are served by) RRsets on this server: a site this
        # resolver no longer serves is listed, so that the plan removes its RRsets; and a site no
        # longer in the inventory whose RRsets the server holds (found by their comment), so that
        # the plan removes them too, as a file backend's plan removes a removed site's file
        known = {s.name for s in self.inventory.sites}
        try:
            hits = self.client.search_comments(f"{rrsets.tag_prefix()}*")
        except ApiError as exc:
            raise self._failed(exc) from None
        gone: dict[str, list[str]] = {}
        for hit in hits:
            name = rrsets.site_of_tag(str(hit.get("content", "")))
            if name is not None and name not in known and SITE_NAME.fullmatch(name) and hit.get("zone"):
                gone.setdefault(name, [])
                if str(hit["zone"]) not in gone[name]:
                    gone[name].append(str(hit["zone"]))
        self._gone = {name: tuple(sorted(zones)) for name, zones in gone.items()}
        names = [snippet_name(s) for s in self.inventory.sites if not self.missing(s)]
        names += [f"renamer-{name}{SUFFIX}" for name in sorted(self._gone)]
        return sorted(n for n in names if self.read(posixpath.join(self.folder, n)) is not None)

    def remove_leftovers(self, folder: str, files: OwnFiles) -> None:
        if folder != self.folder:
            super().remove_leftovers(folder, files)  # a PATCH leaves no temporary file

    # -- the lock -------------------------------------------------------------------------------

    def create(self, path: str, data: bytes) -> bool:
        if not super().create(path, data):
            return False
        if path != self._lock:
            return True
        notes = list[str]()
        mine = self._mine = ops.entry(data.decode("utf-8", "replace"))
        try:
            for site in (s for s in self.inventory.sites if s.name in self.resolver.sites):
                missing = self.missing_problem(site)
                if missing is not None:  # refused as the plan refuses it, naming this resolver
                    raise UnsafeError(missing)
            self._held = ops.take_all(self.client, self._written_zones(), mine, notes)
        except BaseException as exc:  # refused, unreachable, or the key unreadable: no lock at all
            self._held = []
            super().remove(path)
            if isinstance(exc, ApiError):
                raise self._failed(exc) from None
            raise
        for note in notes:
            debug.say(f"{self.resolver.name}: {note}")
        return True

    def _written_zones(self) -> list[str]:
        """The zones an apply here may write: those of the sites this resolver serves, and each zone
        holding an RRset of a site it does not serve (removed from the inventory, or served
        elsewhere): the plan deletes those RRsets (list_snippets)."""
        served = {s.name for s in self.inventory.sites if s.name in self.resolver.sites}
        zones = {_zone(zone) for zone in self.served_zones()}
        for hit in self.client.search_comments(f"{rrsets.tag_prefix()}*"):
            if rrsets.site_of_tag(str(hit.get("content", ""))) not in (None, *served) and hit.get("zone"):
                zones.add(_zone(str(hit["zone"])))
        return sorted(zones)

    def _hold(self, zones: list[str]) -> None:
        """Before a PATCH of `zones` under this apply's lock: take X-RENAMER-LOCK in each one not held
        yet (a zone no RRset of renamer's stood in when the lock was taken); refused (one another
        apply holds): a TransportError, nothing written there. Outside a lock (no lock file taken
        through this transport) nothing is taken."""
        if not self._mine:
            return
        held = {_zone(zone) for zone in self._held}
        more = sorted({_zone(zone) for zone in zones} - held)
        if not more:
            return
        notes = list[str]()
        try:
            self._held += ops.take_all(self.client, more, self._mine, notes)
        except ApiError as exc:
            raise self._failed(exc) from None
        except UnsafeError as exc:  # another apply holds one: this write fails, the rollout rolls back
            raise TransportError(f"{self.resolver.name}: {exc}") from None
        for note in notes:
            debug.say(f"{self.resolver.name}: {note}")

    # -- what the backend's test reads back ---------------------------------------------------------

    def read_back(self) -> CommandResult:
        """Whether the server holds each site this transport wrote exactly as written (the PATCH
        taken whole), read back through the API; before any write, that the API answers."""
        if not self._written:
            try:
                self.client.call("GET", "")
            except ApiError as exc:
                return CommandResult(1, str(self._failed(exc)))
            return CommandResult(0, "the API answers")
        self._zones.clear()
        for name, text in self._written.items():
            now = self.read(posixpath.join(self.folder, name))
            if now != (None if text is None else text.encode()):
                return CommandResult(1, f"{name}: the server does not hold what was written: "
                                        f"{_first_difference(text or '', (now or b'').decode())}")
        return CommandResult(0, f"read back: {len(self._written)} site(s) as written")


def _zone(name: str) -> str:
    return name.lower().rstrip(".") + "."


def _first_difference(wanted: str, held: str) -> str:
    want, have = wanted.splitlines(), held.splitlines()
    missing = [line for line in want if line not in have and not line.startswith(";")]
    extra = [line for line in have if line not in want and not line.startswith(";")]
    if missing:
        return f"{missing[0]} is not there" + (f" (+{len(missing) - 1} more)" if len(missing) > 1 else "")
    if extra:
        return f"{extra[0]} is there" + (f" (+{len(extra) - 1} more)" if len(extra) > 1 else "")
    return "the records differ"
