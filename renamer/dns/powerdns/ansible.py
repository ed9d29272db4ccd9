"""A PowerDNS resolver in the exported playbook: what its host in inventory.yml holds.

The playbook talks to the API from the control node (the host's connection is local, its
backup_dir on the control node, as the built-in engine keeps it) with ansible.builtin.uri; the
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

from renamer.dns.inventory import Inventory, Site
from renamer.dns.plan import ResolverPlan, backup_name
from renamer.dns.powerdns import rrsets
from renamer.dns.powerdns.api import LOCK_KIND, zone_id
from renamer.dns.powerdns.transport import ApiTransport, snippet_name


def state(rr: dict[str, Any] | None, site: Site) -> dict[str, Any] | None:
    """An RRset as the playbook compares it: None where there is none."""
    if rr is None:
        return None
    return {"ttl": int(rr.get("ttl", 0)), "records": list(rrsets.contents(rr)), "owned": rrsets.owned(rr, site)}


def _site_of(inventory: Inventory, name: str) -> Site:
    return next(s for s in inventory.sites if snippet_name(s) == name)


def site_entry(site: Site, name: str, text: str | None, had: bool,
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
                                 "comments": [{"content": rrsets.tag(site), "account": rrsets.ACCOUNT}]})
        if deletes or replaces:  # the DELETEs first (rrsets.patch_body says why)
            patch[zone_id(zone)] = deletes + replaces
    return {"name": name, "stored": backup_name(name), "tag": rrsets.tag(site), "had": had,
            "remove": text is None, "zones": [[zone, zone_id(zone)] for zone in rrsets.zones(site)],
            "keys": keys, "patch": patch}


def host_vars(inventory: Inventory, plan: ResolverPlan, transport: ApiTransport) -> dict[str, Any]:
    """`renamer_powerdns` of a PowerDNS resolver's host: where the API is, where its key is read
    (the name of the variable or file, never the key), the zones it locks, and each site of the
    plan (site_entry). Read from the zones as the transport fetched them for the plan."""
    api = plan.resolver.api
    assert api is not None
    sites = []
    for name, text in plan.desired.items():
        site = _site_of(inventory, name)
        live = transport.zones(rrsets.zones(site))
        assert all(found is not None for found in live.values()), name  # the plan's problem refused it
        sites.append(site_entry(site, name, text, plan.current.get(name) is not None,
                                {zone: found for zone, found in live.items() if found is not None}))
    zones = sorted({zone for s in inventory.sites if s.name in plan.resolver.sites for zone in rrsets.zones(s)}
                   | {zone for entry in sites for zone, _ in entry["zones"]})
    root = api.url if api.url.endswith("/api/v1") else f"{api.url}/api/v1"
    return {"api": f"{root}/servers/{api.server_id}", "key_env": api.key_env, "key_file": api.key_file,
            "lock_kind": LOCK_KIND, "zones": [[zone, zone_id(zone)] for zone in zones], "sites": sites}
