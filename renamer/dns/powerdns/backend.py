"""PowerDNS Authoritative behind dns/backend.py's Protocol: an API backend, no file on the server.

A site's "snippet" is `renamer-<site>.rrsets`, its RRsets as rrsets.render writes them, in the
resolver's virtual snippet_dir (ApiSettings.folder); its own transport (transport.py) reads
one as rrsets.view of the zones as fetched and writes one as a PATCH of the difference. So the
generic rollout plans, backs up (in backup_dir, on the machine running renamer), writes, rolls
back and locks as for any backend. `test` reads back what was written; `activate` does nothing:
the API purges PowerDNS's caches for the zone, so a PATCH is served at once (`live`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from renamer.dns.answers import Check
from renamer.dns.inventory import ApiSettings, Inventory, Resolver, Site
from renamer.dns.logged import Logged
from renamer.dns.powerdns import config, rrsets
from renamer.dns.powerdns.transport import SUFFIX, ApiTransport, snippet_name
from renamer.dns.transport import CommandResult, OwnFiles, Transport, TransportError

FILES = OwnFiles(re.compile(r"renamer-[a-z0-9-]+\.rrsets"), f"renamer-*{SUFFIX}",
                 re.compile(r"(?!)"), "")  # virtual files: no temporary file is ever left


@dataclass(frozen=True)
class HandRRset:
    """A hand-written RRset naming an old value (rrsets.stale): line `line` of the virtual file
    rrsets.HAND, which `--retire-stale` comments out (its RRset deleted; a rollback puts it back)."""

    file: str
    line: int  # 1-based
    rr: dict[str, Any] = field(hash=False)


@dataclass
class Inspection:
    problem: str | None = None
    warnings: list[str] = field(default_factory=list)
    stale: list[HandRRset] = field(default_factory=list)
    # (why, the hand-written RRsets of `stale` in the way): refused unless `--retire-stale` deletes
    # them in the same apply, before renamer's RRset is written (dns/plan._plan_one)
    needs_retired: list[tuple[str, list[HandRRset]]] = field(default_factory=list)


def _hand_rrsets(transport: ApiTransport) -> list[HandRRset]:
    """The hand-written RRsets naming old values, as the lines of the virtual file rrsets.HAND."""
    return [HandRRset(rrsets.HAND, number, rr) for number, rr in enumerate(transport.hand_written(), 1)]


SECONDARY_KINDS = frozenset({"slave", "secondary", "consumer"})  # their content is a primary's
PRIMARY_KINDS = frozenset({"master", "primary", "producer"})  # their secondaries transfer by serial


def zone_kind(resolver: Resolver, zone: str, found: dict[str, Any]) -> tuple[str | None, str | None]:
    """(problem, warning) of writing into `zone` as the server holds it (GET /zones/ZONE):
    a secondary zone is refused (its primary's transfer replaces it, or a serial moved past the
    primary's stops the transfers); a zone whose soa_edit_api is empty keeps its SOA serial on
    an API PATCH (PowerDNS moves it only per SOA-EDIT-API), so a primary's secondaries never
    transfer the change: refused unless the resolver says allow_unchanged_serial: true; a Native
    zone (replicated by the database) gets a warning."""
    api = resolver.api
    assert api is not None
    where = f"{resolver.name}: zone {zone} on server {api.server_id} at {api.url}"
    kind = str(found.get("kind", ""))
    if kind.lower() in SECONDARY_KINDS:
        primaries = ", ".join(str(m) for m in found.get("masters") or []) or "none named"
        return (f"{where} is a secondary zone (kind {kind}, primaries: {primaries}): write to its primary "
                "(renamer changes only a Native or Primary zone)"), None
    if str(found.get("soa_edit_api", "")).strip():
        return None, None
    why = (f"{where}: soa_edit_api is empty (kind {kind or 'unknown'}): PowerDNS leaves the SOA serial as it "
           "is on renamer's PATCH, so a secondary transferring this zone never sees the change")
    if kind.lower() in PRIMARY_KINDS and not api.allow_unchanged_serial:
        return (f"{why}: set it (pdnsutil set-meta {zone} SOA-EDIT-API DEFAULT, or the zone's soa_edit_api "
                "in the API), or say allow_unchanged_serial: true on the resolver"), None
    return None, why


def _shadowed(resolver: Resolver, site: Site, transport: ApiTransport) -> str | None:
    """Why a name renamer would write into one of the site's zones would not be served, or None:
    the server holds a narrower zone under it (60.250.10.in-addr.arpa. inside 250.10.in-addr.arpa.)
    and PowerDNS answers every name under that one from it alone."""
    api = resolver.api
    assert api is not None
    held = transport.server_zones()
    for zone, wanted in rrsets.desired(site).items():
        for inner in (z for z in held if z != zone and z.endswith("." + zone)):
            hidden = sorted(name for name, _ in wanted if name == inner or name.endswith("." + inner))
            if hidden:
                more = f" (and {len(hidden) - 1} more)" if len(hidden) > 1 else ""
                where = f"{resolver.name}: zone {inner} on server {api.server_id} at {api.url}"
                return (f"{where} lies inside zone {zone}, where renamer would write {hidden[0]}{more}: "
                        f"PowerDNS answers that name from {inner} alone, so renamer's record would never be "
                        f"served: remove {inner}, or serve the site elsewhere")
    return None


class PowerDNS:
    name = "powerdns"
    has_files = False
    restores_past = False
    loads_late = False  # a PATCH is served at once
    files: OwnFiles = FILES
    restored_glob = f"renamer-*{SUFFIX}"
    unused_keys = config.UNUSED
    cname_aliases = True  # PowerDNS answers the CNAME and its in-zone target's address
    follows_other_zones = True  # PowerDNS follows a CNAME into another zone it holds
    short_names = False  # an authoritative zone holds FQDNs only
    comment = ";"

    def check_keys(self, entry: dict[str, Any], bad: Callable[[str, str], None]) -> ApiSettings | None:
        return config.check(entry, bad)

    def transport(self, inventory: Inventory, resolver: Resolver) -> Transport:
        return ApiTransport(inventory, resolver)

    def default_commands(self, conf_file: str | None) -> tuple[tuple[str, ...], tuple[str, ...]] | None:
        # no command runs: these name the steps in messages ("test failed (read back through the API)")
        return (("read", "back", "through", "the", "API"),
                ("none:", "PowerDNS", "serves", "a", "PATCH", "at", "once"))

    def snippet_name(self, site: Site) -> str:
        return snippet_name(site)

    def render(self, site: Site, resolver: Resolver | None = None) -> str:
        return rrsets.render(rrsets.desired(site))

    def desired(self, inventory: Inventory, resolver: Resolver) -> dict[str, str]:
        return {snippet_name(s): self.render(s, resolver)
                for s in inventory.sites if s.name in resolver.sites}

    def settle(self, desired: dict[str, str | None],
               current: dict[str, bytes | None]) -> dict[str, str | None]:
        return desired

    def restored(self, name: str, saved: bytes, now: bytes | None) -> bytes:
        return saved  # PowerDNS moves the SOA serial itself on each PATCH (soa_edit_api)

    def inspect(self, inventory: Inventory, resolver: Resolver, transport: Transport) -> Inspection:
        """Before anything is written: every zone the sites write is on the server, and no RRset
        renamer does not own stands where it would write (rrsets.plan's conflicts)."""
        api = resolver.api
        assert isinstance(transport, ApiTransport) and api is not None
        warnings: list[str] = []
        needs: list[tuple[str, list[HandRRset]]] = []
        stale: list[HandRRset] | None = None
        for site in (s for s in inventory.sites if s.name in resolver.sites):
            missing = transport.missing_problem(site)
            if missing is not None:
                return Inspection(missing)
            live = {zone: found for zone, found in transport.zones(rrsets.zones(site)).items()
                    if found is not None}
            shadow = _shadowed(resolver, site, transport)
            if shadow is not None:
                return Inspection(shadow)
            for zone, found in live.items():
                problem, warning = zone_kind(resolver, zone, found)
                if problem is not None:
                    return Inspection(problem)
                if warning is not None and warning not in warnings:
                    warnings.append(warning)
            if stale is None:  # hand-written RRsets naming old values (`--retire-stale` deletes them)
                stale = _hand_rrsets(transport)
            keyed = {(str(h.rr["name"]).lower(), str(h.rr["type"]).upper()): h for h in stale}
            planned = rrsets.plan(site, live, frozenset(keyed))
            conflicts = planned.conflicts
            if conflicts:
                more = f" (and {len(conflicts) - 1} more)" if len(conflicts) > 1 else ""
                return Inspection(f"{resolver.name}: {conflicts[0]}{more}: remove it, or make it renamer's "
                                  f"(comment account {rrsets.ACCOUNT!r}, text {rrsets.tag(site)!r})")
            needs += [(f"{resolver.name}: {why}", [keyed[k] for k in keys]) for why, keys in planned.deferred]
        # hand-written RRsets naming old values: listed, as a file backend's hand-written lines are
        if stale is None:
            stale = _hand_rrsets(transport)
        return Inspection(warnings=warnings, stale=stale, needs_retired=needs)

    def reads(self, resolver: Resolver) -> tuple[list[str], list[str], list[list[str]]]:
        return [], [], []  # nothing to fetch ahead: the API is read where it is needed

    def shown(self, line: object) -> str:
        assert isinstance(line, HandRRset)
        rr = line.rr
        values = ", ".join(str(r.get("content")) + (" (disabled)" if r.get("disabled") else "")
                           for r in rr.get("records", []))
        return f"{rr['zone']}: {rr['name']} {rr['type']} {values} (hand-written RRset)"

    def answers(self, line: object) -> list[tuple[str, str, str]]:
        assert isinstance(line, HandRRset)
        return rrsets.hand_answers(line.rr)

    def canary(self, site: Site, resolver: Resolver) -> tuple[str, str]:
        name, digest = rrsets.canary(site, rrsets.desired(site))
        return name.rstrip("."), digest

    def canary_of(self, text: str) -> tuple[str, str] | None:
        return rrsets.canary_of(text)

    def host_records(self, text: str) -> list[tuple[list[str], str]]:
        return rrsets.host_records(text)

    def records(self, text: str) -> dict[str, str]:
        return rrsets.records(text)

    def drift(self, text: str) -> list[str]:
        return []  # the view holds only what renamer owns or would write: nothing edited by hand

    def test(self, resolver: Resolver, transport: Transport) -> CommandResult:
        if not isinstance(transport, ApiTransport):
            raise TransportError(f"{resolver.name}: backend powerdns needs its own transport")
        return transport.read_back()

    def activate(self, resolver: Resolver, transport: Transport, names: Sequence[str] = ()) -> CommandResult:
        return CommandResult(0, "served at once: the API purges PowerDNS's caches for the zone")

    def activation(self, resolver: Resolver, names: Sequence[str],
                   present: Sequence[str]) -> list[tuple[str, ...]]:
        return []  # no command: the PATCH is what activates

    def loaded(self, resolver: Resolver, transport: Transport) -> str | None:
        return None

    def live_files(self, resolver: Resolver) -> tuple[str, OwnFiles] | None:
        return None

    def live(self, resolver: Resolver, names: Sequence[str]) -> bool:
        return True  # a PATCH is served at once: no restart, and the rollout's verify waits for it

    def checks(self, inventory: Inventory, resolver: Resolver, transport: Transport) -> list[Check]:
        return []

    def settle_retired(self, changes: dict[str, tuple[bytes, str]], retired: Sequence[Any],
                       transport: Transport) -> dict[str, tuple[bytes, str]]:
        return changes  # the API moves the zone's SOA itself (soa_edit_api)

    def query(self, line: str) -> Logged | None:
        return None  # no query log: `query_log` is refused here (config.UNUSED)


POWERDNS = PowerDNS()
