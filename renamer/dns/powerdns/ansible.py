"""A PowerDNS resolver in the exported playbook: what its host in inventory.yml holds.

The playbook talks to the API from the control node (the host's connection is local, its
backup_dir on the control node, as the built-in engine keeps it) with the playbook's action
plugin renamer_pdns_api (uri's arguments, in Ansible's own process: no module process per call); the
key is read there at run time (`lookup('env')` / `lookup('file')`), never written in the export.
What the export decides, per site of the plan (a "file" of the virtual snippet folder):

* `keys`: every RRset the site writes or owns in its zones, each with HAD (as the export read
  it) and WANT (as the apply leaves it), each `null` or {ttl, records, owned} (rrsets' view of
  an RRset: its enabled contents sorted, and whether it carries the site's comment);
* `patch`: zone -> the PATCH's rrsets that take the site from HAD to WANT (the DELETEs first).

At run time (playbook/filter_plugins/renamer_powerdns.py) the playbook reads the zones again:
a site whose keys all hold WANT is unchanged, one whose keys all hold HAD gets its PATCH, and
anything else is an export older than the server (refused, nothing written), as a file backend's
digest is compared with WANT and HAD. The filter computes the same view of an RRset as `state`
here (tests/dns/powerdns/test_ansible_powerdns.py holds them equal).
"""

from __future__ import annotations

from typing import Any

from renamer.dns.inventory import Inventory
from renamer.dns.plan import ResolverPlan, backup_name
from renamer.dns.powerdns import rrsets
from renamer.dns.powerdns.api import LOCK_KIND, zone_id
from renamer.dns.powerdns.transport import ApiTransport


def state(rr: dict[str, Any] | None, site: rrsets.Owner) -> dict[str, Any] | None:
    """An RRset as the playbook compares it: None where there is none."""
    if rr is None:
        return None
    return {"ttl": int(rr.get("ttl", 0)), "records": list(rrsets.contents(rr)),
            "owned": rrsets.owned(rr, site)}


def site_entry(site: rrsets.Owner, name: str, text: str | None, had: bool,
               live: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """One site of the plan: its keys (HAD, WANT) and the PATCH from HAD to WANT, zone by zone."""
    want = rrsets.parse(text) if text is not None else {}
    keys: list[list[Any]] = []
    patch: dict[str, list[dict[str, Any]]] = {}
    for zone in rrsets.zones(site):
        have = rrsets.fetched(live[zone])
        wanted = want.get(zone, {})
        owned = {key for key, rr in have.items() if rrsets.owned(rr, site)}
        deletes, replaces = [], []
        for key in sorted(set(wanted) | owned):
            now, rr = have.get(key), wanted.get(key)
            after = None if rr is None else {"ttl": rr.ttl, "records": list(rr.records), "owned": True}
            keys.append([zone, key[0], key[1], state(now, site), after])
            if rr is None:
                deletes.append({"name": key[0], "type": key[1], "changetype": "DELETE"})
            elif state(now, site) != after:
                replaces.append({"name": rr.name, "type": rr.type, "ttl": rr.ttl, "changetype": "REPLACE",
                                 "records": [{"content": c, "disabled": False} for c in rr.records],
                                 "comments": rrsets.comments(site, rr.note)})
        if deletes or replaces:  # the DELETEs first (rrsets.patch_body says why)
            patch[zone_id(zone)] = deletes + replaces
    return {"name": name, "stored": backup_name(name), "tag": rrsets.tag(site), "had": had,
            "remove": text is None, "retired": False,
            "zones": [[zone, zone_id(zone)] for zone in rrsets.zones(site)], "keys": keys, "patch": patch}


def hand_entry(zones: list[str], before: str, after: str) -> dict[str, Any]:
    """The hand-written RRsets `--retire-stale` deletes (rrsets.HAND: `before` as read, `after` with
    the lines of those it deletes commented out): each a key whose WANT is none, the PATCH their
    DELETEs; its backup is the built-in engine's (a RETIRED file: `--resume` puts them back)."""
    nobody = rrsets.Gone("", tuple(zones))  # a tag no RRset carries: hand-written ones are nobody's
    kept = {(str(rr["zone"]), str(rr["name"]).lower(), str(rr["type"]).upper())
            for on, rr in rrsets.hand_lines(after) if on}
    keys: list[list[Any]] = []
    patch: dict[str, list[dict[str, Any]]] = {}
    for _, rr in rrsets.hand_lines(before):
        zone, key = str(rr["zone"]), (str(rr["name"]).lower(), str(rr["type"]).upper())
        now = state(rr, nobody)
        keys.append([zone, key[0], key[1], now, now if (zone, *key) in kept else None])
        if (zone, *key) not in kept:
            patch.setdefault(zone_id(zone), []).append({"name": rr["name"], "type": key[1],
                                                        "changetype": "DELETE"})
    return {"name": rrsets.HAND, "stored": backup_name(rrsets.HAND), "tag": rrsets.tag(nobody), "had": True,
            "remove": False, "retired": True, "zones": [[zone, zone_id(zone)] for zone in zones],
            "keys": keys,
            "patch": patch}


def host_vars(inventory: Inventory, plan: ResolverPlan, transport: ApiTransport) -> dict[str, Any]:
    """`renamer_powerdns` of a PowerDNS resolver's host: where the API is, where its key is read
    (the name of the variable or file, never the key), the zones it locks, and each site of the
    plan (site_entry). Read from the zones as the transport fetched them for the plan."""
    api = plan.resolver.api
    assert api is not None
    sites = []
    for name, text in plan.desired.items():
        if name == rrsets.HAND:  # --retire-stale
            before = plan.current.get(name)
            sites.append(hand_entry(transport.served_zones(), (before or b"").decode("utf-8"), text or ""))
            continue
        site = transport.owner(plan.path(name))
        live = transport.zones(rrsets.zones(site))
        assert all(found is not None for found in live.values()), name  # the plan's problem refused it
        sites.append(site_entry(site, name, text, plan.current.get(name) is not None,
                                {zone: found for zone, found in live.items() if found is not None}))
    served = {zone for s in inventory.sites if s.name in plan.resolver.sites for zone in rrsets.zones(s)}
    zones = sorted(served | {zone for entry in sites for zone, _ in entry["zones"]})
    root = api.url if api.url.endswith("/api/v1") else f"{api.url}/api/v1"
    return {"api": f"{root}/servers/{api.server_id}", "key_env": api.key_env, "key_file": api.key_file,
            "lock_kind": LOCK_KIND, "zones": [[zone, zone_id(zone)] for zone in zones], "sites": sites}
