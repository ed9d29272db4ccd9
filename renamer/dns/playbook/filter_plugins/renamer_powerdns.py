# Written by renamer: do not edit, renamer rewrites this folder.
"""Filters for a PowerDNS resolver in renamer's playbook, run on the control node (plain Python:
no renamer import, the export runs on its own). renamer/dns/powerdns/ansible.py writes what
they read (`renamer_powerdns` of the host); an RRset's view here is its `state` there.

  zones | renamer_pdns_compare(sites)       per site: "want", "had" or "outdated: WHY"
  zones | renamer_pdns_restore(saved, sites) zone id -> the PATCH that puts the sites' keys back
  zones | renamer_pdns_unrestored(saved, sites)  the keys the server does not hold as saved
  metadata | renamer_pdns_without(mine)     the lock's entries but this run's
  entry | renamer_pdns_holder               who holds a lock entry, in words
  results | renamer_pdns_contested(mine)    the first lock read where this run's entry is not first
  result | renamer_pdns_call_failed         one line for a uri call that failed
  sites | renamer_pdns_backup_words(previous)  the backup script's words for the sites written

`zones` and `saved`: zone name -> the zone as GET returns it ({"rrsets": [...]}).
"""

from __future__ import annotations

import json


def _key(rr):
    return str(rr.get("name", "")).lower(), str(rr.get("type", "")).upper()


def _index(zone):
    return {_key(rr): rr for rr in (zone or {}).get("rrsets", []) or []}


def _owned(rr, tag):
    comments = rr.get("comments", []) or []
    return any(c.get("account") == "renamer" and c.get("content") == tag for c in comments)


def _state(rr, tag):
    if rr is None:
        return None
    contents = sorted(str(r.get("content")) for r in rr.get("records", []) or [] if not r.get("disabled"))
    return {"ttl": int(rr.get("ttl", 0)), "records": contents, "owned": _owned(rr, tag)}


def _shown(key, state):
    if state is None:
        return f"{key[0]} {key[1]} (none)"
    mine = "" if state["owned"] else " (not renamer's)"
    return f"{key[0]} {key[1]} {', '.join(state['records']) or '(empty)'}{mine}"


def compare(zones, sites):
    """Per site of the export: "want" (every key as the apply leaves it), "had" (every key as the
    export read it: the PATCH applies) or "outdated: ..." (the server changed since the export)."""
    out = []
    for site in sites:
        indexes = {zone: _index(zones.get(zone)) for zone, _ in site["zones"]}
        listed = {(zone, name, rdtype) for zone, name, rdtype, _, _ in site["keys"]}
        want = had = True
        first = ""
        for zone, name, rdtype, before, after in site["keys"]:
            now = _state(indexes[zone].get((name, rdtype)), site["tag"])
            want = want and now == after
            had = had and now == before
            if now != after and now != before and not first:
                first = f"{zone}: {_shown((name, rdtype), now)}"
        for zone, index in indexes.items():  # an RRset of the site's the export did not read
            for key, rr in index.items():
                if (zone, *key) not in listed and _owned(rr, site["tag"]):
                    want = had = False
                    first = first or f"{zone}: {_shown(key, _state(rr, site['tag']))}, written since"
        if want:
            out.append("want")
        elif had:
            out.append("had")
        else:
            first = first or "some RRsets hold what the export read, others what it writes"
            out.append(f"outdated: {site['name']}: {first}")
    return out


def _keys(sites):
    keys = ((zone, name, rdtype) for site in sites for zone, name, rdtype, _, _ in site["keys"])
    return list(dict.fromkeys(keys))


def _zone_ids(sites):
    return {zone: ident for site in sites for zone, ident in site["zones"]}


def restore(zones, saved, sites):
    """zone id -> the PATCH's rrsets that put every key of `sites` back as `saved` holds it: an
    RRset saved is REPLACEd with its records, TTL and comments; one that was not is DELETEd (the
    DELETEs first). Keys already as saved are left out."""
    ids = _zone_ids(sites)
    out = {}
    for zone, name, rdtype in _keys(sites):
        then = _index(saved.get(zone)).get((name, rdtype))
        now = _index(zones.get(zone)).get((name, rdtype))
        if _same(now, then):
            continue
        body = out.setdefault(ids[zone], [])
        if then is None:
            body.insert(0, {"name": name, "type": rdtype, "changetype": "DELETE"})
        else:
            body.append({"name": then["name"], "type": then["type"], "ttl": then["ttl"],
                         "changetype": "REPLACE",
                         "records": [{"content": r["content"], "disabled": bool(r.get("disabled"))}
                                     for r in then.get("records", [])],
                         "comments": [{"content": c.get("content", ""), "account": c.get("account", "")}
                                      for c in then.get("comments", []) or []]})
    return out


def _same(now, then):
    def shape(rr):
        if rr is None:
            return None
        return (int(rr.get("ttl", 0)), sorted((str(r.get("content")), bool(r.get("disabled")))
                                              for r in rr.get("records", []) or []),
                sorted((c.get("account", ""), c.get("content", "")) for c in rr.get("comments", []) or []))
    return shape(now) == shape(then)


def unrestored(zones, saved, sites):
    """The keys of `sites` the server does not hold as `saved` does (records, TTL, comments)."""
    wrong = []
    for zone, name, rdtype in _keys(sites):
        then = _index(saved.get(zone)).get((name, rdtype))
        now = _index(zones.get(zone)).get((name, rdtype))
        if not _same(now, then):
            wrong.append(f"{zone}: {name} {rdtype} is not as the backup holds it")
    return wrong


def holder(entry):
    """Who holds an X-RENAMER-LOCK entry (the lock's JSON, as renamer and the playbook write it)."""
    try:
        data = json.loads(entry)
    except (TypeError, ValueError):
        data = None
    if not isinstance(data, dict):
        return "an unreadable holder"
    return (f"{data.get('user', '?')}@{data.get('host', '?')} pid {data.get('pid', '?')}, "
            f"since {data.get('started', '?')}")


def call_failed(result):
    """One line for a uri call that failed (`result` as registered, loop item included): the
    zone, the URL (never the key: it travels in a header) and what the API said."""
    item = result.get("item")
    zone = ""
    if isinstance(item, list) and item:
        zone = item[0]
    elif isinstance(item, dict):
        zone = item.get("key", "")
    status = result.get("status", -1)
    data = result.get("json")
    said = data.get("error") if isinstance(data, dict) and data.get("error") else result.get("msg", "failed")
    if status in (-1, None):
        return f"{zone}: {result.get('url', 'the API')}: API not reachable: {said}"
    return f"{zone}: {result.get('url', 'the API')}: HTTP {status}: {said}"


def backup_words(sites, previous):
    """The backup script's words for the sites written: "save FILE NAME" of each site's text as
    exported (in `previous`, the export's previous/<host>), "new - NAME" of a site that had none,
    "retired - NAME" of the hand-written RRsets `--retire-stale` deletes (the RETIRED list)."""
    words = []
    for site in sites:
        if site["had"]:
            words += ["save", f"{previous}/{site['stored']}", site["stored"]]
        else:
            words += ["new", "-", site["name"]]
        if site.get("retired"):  # hand-written RRsets deleted: a killed run's `--resume` restores them
            words += ["retired", "-", site["name"]]
    return words


def contested(results, mine):
    """The first read of an X-RENAMER-LOCK list (uri results, loop items) where `mine` is not the
    first entry (another run's came first, or a racing write dropped it), or None."""
    for result in results:
        data = result.get("json")
        if not isinstance(data, dict):
            continue
        values = data.get("metadata", [])
        if not values or values[0] != mine:
            return result
    return None


def without(metadata, mine):
    """The entries of an X-RENAMER-LOCK list but `mine`."""
    values = (metadata or {}).get("metadata", []) if isinstance(metadata, dict) else []
    return [v for v in values if v != mine]


class FilterModule:
    def filters(self):
        return {"renamer_pdns_compare": compare, "renamer_pdns_restore": restore,
                "renamer_pdns_unrestored": unrestored, "renamer_pdns_without": without,
                "renamer_pdns_contested": contested,
                "renamer_pdns_holder": holder,
                "renamer_pdns_call_failed": call_failed, "renamer_pdns_backup_words": backup_words}
