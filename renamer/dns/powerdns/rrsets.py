"""A site's records as PowerDNS RRsets, and the plan: the diff against the zones as fetched. Pure.

Each site writes into its forward zone (`<domain>.`) and the reverse zone of each of its
networks (the octet boundary at or above an IPv4 prefix, 10.251.0.0/16 -> 251.10.in-addr.arpa.;
the nibble boundary for IPv6): per host an A (and an AAAA for a dual-stack host) at its FQDN and
a PTR at each address naming it, per alias a CNAME to the host's FQDN (an authoritative server
holds no one-label names: the short names stay the resolvers' business), and the canary TXT at
`_renamer.<site>.<domain>.` (a digest of the rest, so verify proves this very rendering is served).

Ownership: every RRset renamer writes carries a comment with account `renamer` and the text
`renamer site <site>`. The plan REPLACEs a desired RRset that differs, DELETEs an RRset owned by
the site that is no longer desired (a renamed host's old name), and never touches another RRset:
one that stands where renamer would write (hand-written, another site's) is a conflict, refused
before anything is written, unless it already holds exactly the desired records (adopted).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import ipaddress
import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Literal

from renamer.clock import shown_time
from renamer.dns.inventory import Site
from renamer.names import IPNetwork

TTL = 300
ACCOUNT = "renamer"
CANARY_LABEL = "_renamer"
Key = tuple[str, str]  # (owner name with the final dot, lower case; TYPE)


@dataclass(frozen=True)
class RRset:
    name: str  # lower case, with the final dot
    type: str
    records: tuple[str, ...]  # sorted contents
    ttl: int = TTL
    # a transitional alias's promise (`transitional until DATE: label, renamed host`), carried as a
    # second renamer comment on its RRset and rendered as a `;` line after it: what dns/plan.py's
    # early_retirements reads, as in the file backends' snippets (t24-alias finding 4, PowerDNS)
    note: str = ""

    @property
    def key(self) -> Key:
        return self.name, self.type


@dataclass(frozen=True)
class Change:
    zone: str
    action: Literal["REPLACE", "DELETE"]
    key: Key
    before: tuple[str, ...]  # () where the RRset does not exist yet
    after: tuple[str, ...]  # () for a DELETE
    note: str = ""  # RRset.note of what a REPLACE writes

    def shown(self) -> str:
        name, rdtype = self.key
        if self.action == "DELETE":
            return f"{self.zone}: delete {name} {rdtype} {', '.join(self.before)}"
        was = f" (was {', '.join(self.before)})" if self.before else ""
        return f"{self.zone}: {name} {rdtype} {', '.join(self.after)}{was}"


@dataclass
class Plan:
    changes: list[Change] = field(default_factory=list)
    conflicts: list[str] = field(default_factory=list)  # refused: RRsets renamer does not own
    # a clash with hand-written RRsets that `--retire-stale` deletes (`retirable`): (why, their keys);
    # refused unless the apply deletes them first (dns/plan._plan_one, t24-alias finding 19)
    deferred: list[tuple[str, list[Key]]] = field(default_factory=list)

    def by_zone(self) -> dict[str, list[Change]]:
        out: dict[str, list[Change]] = {}
        for change in self.changes:
            out.setdefault(change.zone, []).append(change)
        return out


@dataclass(frozen=True)
class Gone:
    """A site no longer in the inventory whose RRsets a server still holds (found by their comment,
    `renamer site <name>`, with the zones they stand in): an apply deletes them, a rollback puts
    them back; renamer writes nothing else for it."""

    name: str
    zone_names: tuple[str, ...]


Owner = Site | Gone  # whose RRsets: an inventory's site, or one removed from it


def tag(site: Owner) -> str:
    return f"renamer site {site.name}"


def tag_prefix() -> str:
    return "renamer site "


def site_of_tag(text: str) -> str | None:
    """The site a comment's text names (`renamer site fv` -> fv), or None."""
    head = "renamer site "
    return text[len(head):] if text.startswith(head) and text[len(head):] else None


def reverse_zone(network: IPNetwork) -> str:
    """The reverse zone that holds a network's PTRs: the label boundary at or above its prefix."""
    step = 8 if network.version == 4 else 4
    labels = network.network_address.reverse_pointer.split(".")
    keep = network.prefixlen // step  # labels of the address the zone keeps
    total = 4 if network.version == 4 else 32
    return ".".join(labels[total - keep:]) + "."


def forward_zone(site: Site) -> str:
    return site.domain.lower().rstrip(".") + "."


def zones(site: Owner) -> list[str]:
    if isinstance(site, Gone):
        return list(site.zone_names)
    return list(dict.fromkeys([forward_zone(site), *(reverse_zone(n) for n in site.networks)]))


def _zone_of(site: Site, address: ipaddress.IPv4Address | ipaddress.IPv6Address) -> str:
    for network in site.networks:
        if address.version == network.version and address in network:
            return reverse_zone(network)
    raise ValueError(f"{address} is in none of site {site.name}'s networks")  # sites.py refuses this


def desired(site: Owner) -> dict[str, dict[Key, RRset]]:
    """zone -> its RRsets for this site, the canary included (a site removed: none)."""
    if isinstance(site, Gone):
        return {zone: {} for zone in site.zone_names}
    wanted: dict[str, dict[Key, set[str]]] = {zone: {} for zone in zones(site)}
    fwd = forward_zone(site)

    notes: dict[Key, str] = {}

    def add(zone: str, name: str, rdtype: str, content: str) -> None:
        wanted[zone].setdefault((name.lower(), rdtype), set()).add(content)

    for host in site.hosts:
        fqdn = f"{site.fqdn(host.name)}."
        for address in host.addresses:
            add(fwd, fqdn, "AAAA" if address.version == 6 else "A", str(address))
            add(_zone_of(site, address), address.reverse_pointer + ".", "PTR", fqdn)
        for alias in host.aliases:
            add(fwd, f"{site.fqdn(alias)}.", "CNAME", fqdn)
    for moved in site.transitional:  # an old name, a CNAME to its new FQDN until its date (dns/transition.py)
        add(fwd, f"{moved.fqdn}.", "CNAME", f"{moved.target}.")
        notes[(f"{moved.fqdn}.".lower(), "CNAME")] = promise(moved.expires, moved.name, moved.host)
    out = {zone: {key: RRset(key[0], key[1], tuple(sorted(values)), note=notes.get(key, ""))
                  for key, values in sorted(rrsets.items())}
           for zone, rrsets in wanted.items()}
    name, digest = canary(site, out)
    out[fwd][(name, "TXT")] = RRset(name, "TXT", (f'"{digest}"',))
    return out


def render(rrsets: dict[str, dict[Key, RRset]]) -> str:
    """Zone-file lines of the RRsets, zone by zone in the given order, each zone's RRsets sorted
    (the canary last): one text for one set of RRsets, however they were gathered."""
    lines: list[str] = []
    for zone, found in rrsets.items():
        lines.append(f"; zone {zone}")
        for _, rr in sorted(found.items(), key=lambda kv: (kv[0][0].startswith(f"{CANARY_LABEL}."), kv[0])):
            lines += [f"{rr.name} {rr.ttl} IN {rr.type} {content}" for content in rr.records]
            lines += [f"; {rr.note}"] if rr.note else []
    return "\n".join(lines) + "\n"


PROMISE = "transitional until "


def promise(expires: dt.datetime, label: str, host: str) -> str:
    """A transitional alias's note, worded as the file backends' comment line."""
    return f"{PROMISE}{shown_time(expires)}: {label}, renamed {host}"


def note_of(rr: dict[str, Any]) -> str:
    """The promise renamer's comment on a fetched RRset carries, or ""."""
    return next((str(c.get("content", "")) for c in rr.get("comments", []) or []
                 if c.get("account") == ACCOUNT and str(c.get("content", "")).startswith(PROMISE)), "")


def comments(site: Owner, note: str = "") -> list[dict[str, str]]:
    """The comments renamer writes on an RRset: its ownership, and a transitional alias's promise."""
    own = [{"content": tag(site), "account": ACCOUNT}]
    return [*own, {"content": note, "account": ACCOUNT}] if note else own


def canary(site: Site, rrsets: dict[str, dict[Key, RRset]]) -> tuple[str, str]:
    """(TXT owner with the final dot, digest) of everything else the site writes."""
    body = render({zone: {k: v for k, v in found.items() if not k[0].startswith(f"{CANARY_LABEL}.")}
                   for zone, found in rrsets.items()})
    return f"{CANARY_LABEL}.{site.name}.{forward_zone(site)}", hashlib.sha256(body.encode()).hexdigest()[:16]


def fetched(zone: dict[str, Any]) -> dict[Key, dict[str, Any]]:
    """A zone as GET returns it: (name, TYPE) -> the RRset's JSON."""
    return {(str(rr["name"]).lower(), str(rr["type"]).upper()): rr for rr in zone["rrsets"]}


def contents(rr: dict[str, Any]) -> tuple[str, ...]:
    return tuple(sorted(str(r["content"]) for r in rr.get("records", []) if not r.get("disabled")))


def adoptable(rr: dict[str, Any], records: tuple[str, ...]) -> bool:
    """An RRset renamer does not own that it may take over: it holds exactly `records`, no
    disabled record and no comment (a note of its owner's): taking it over loses nothing. One
    holding more than its enabled records says was written by a hand renamer must not replace."""
    return (contents(rr) == records and not any(r.get("disabled") for r in rr.get("records", []))
            and not rr.get("comments"))


def left_to_its_owner(site: Owner, key: Key, rr: dict[str, Any]) -> bool:
    """A hand-written RRset (not renamer's) that holds exactly a transitional alias renamer would
    write there: it serves the alias already, and renamer leaves it the operator's, never taking it
    over: renamer retires its own aliases when their window ends, and never deletes what it did not
    write (t24-alias finding 13). `dns apply --retire-stale` deletes it once its name is retired."""
    return (isinstance(site, Site) and key[1] == "CNAME" and not owned(rr, site)
            and key[0] in {f"{moved.fqdn}." for moved in site.transitional})


def owned(rr: dict[str, Any], site: Owner) -> bool:
    return any(c.get("account") == ACCOUNT and c.get("content") == tag(site) for c in rr.get("comments", []))


def plan(site: Site, live: dict[str, dict[str, Any]], retirable: frozenset[Key] = frozenset()) -> Plan:
    """The changes that make each zone (as fetched: zone -> GET's JSON) serve `site`. An RRset
    of another type beside a CNAME it writes is a conflict, or `deferred` where every such RRset is
    one of `retirable` (hand-written, naming an old value: `--retire-stale` deletes it first)."""
    result = Plan()
    for zone, want in desired(site).items():
        have = fetched(live[zone])
        names_with: dict[str, set[str]] = {}
        for name, rdtype in have:
            names_with.setdefault(name, set()).add(rdtype)
        for key, rr in want.items():
            current = have.get(key)
            if current is not None and left_to_its_owner(site, key, current) \
                    and adoptable(current, rr.records):
                continue  # the operator's, serving the alias already: left as it is
            if current is not None and not owned(current, site) and not adoptable(current, rr.records):
                shown = ", ".join(contents(current)) or "(empty)"
                extra = _extra(current)
                result.conflicts.append(f"{zone}: {key[0]} {key[1]} {shown}{extra} "
                                        f"is not renamer's (no comment '{tag(site)}'): it would be replaced")
                continue
            others = names_with.get(key[0], set()) - {key[1], "RRSIG", "NSEC", "NSEC3"}
            clash = others if key[1] == "CNAME" else others & {"CNAME"}
            clash = {t for t in clash if not owned(have[(key[0], t)], site)}
            if clash:
                why = (f"{zone}: {key[0]} has {', '.join(sorted(clash))} beside the {key[1]} renamer would "
                       "write (a CNAME stands alone, RFC 1034 3.6.2)")
                hand = [(key[0], t) for t in sorted(clash)]
                if not all(k in retirable for k in hand):
                    result.conflicts.append(why)
                    continue
                result.deferred.append((why, hand))
            if current is None or contents(current) != rr.records or int(current.get("ttl", 0)) != rr.ttl \
                    or not owned(current, site) or note_of(current) != rr.note:
                result.changes.append(Change(zone, "REPLACE", key,
                                             contents(current) if current is not None else (), rr.records,
                                             rr.note))
        for key, current in have.items():
            if key not in want and owned(current, site):
                result.changes.append(Change(zone, "DELETE", key, contents(current), ()))
    return result


def _extra(rr: dict[str, Any]) -> str:
    """What a hand-written RRset holds beyond its enabled records, for a conflict's line."""
    disabled = [str(r["content"]) for r in rr.get("records", []) if r.get("disabled")]
    parts = [f"disabled {', '.join(disabled)}"] if disabled else []
    parts += ["a comment"] if rr.get("comments") else []
    return f" (and {', '.join(parts)})" if parts else ""


def patch_body(site: Site, changes: Iterable[Change]) -> list[dict[str, Any]]:
    """The PATCH's rrsets for a zone's changes (each REPLACE carries the ownership comment), the
    DELETEs first: PowerDNS checks a CNAME against the other data at its name RRset by RRset, so
    a CNAME moving onto a name whose A goes in the same PATCH must come after that DELETE."""
    out: list[dict[str, Any]] = []
    for change in sorted(changes, key=lambda c: c.action != "DELETE"):
        name, rdtype = change.key
        if change.action == "DELETE":
            out.append({"name": name, "type": rdtype, "changetype": "DELETE"})
        else:
            out.append({"name": name, "type": rdtype, "ttl": TTL, "changetype": "REPLACE",
                        "records": [{"content": c, "disabled": False} for c in change.after],
                        "comments": comments(site, change.note)})
    return out


def parse(text: str) -> dict[str, dict[Key, RRset]]:
    """render's text read back (zone -> RRsets): what a Backend's records, host_records and
    canary_of read, as the file backends read their files. Lines of another shape are skipped."""
    out: dict[str, dict[Key, RRset]] = {}
    zone: str | None = None
    last: Key | None = None
    for line in text.splitlines():
        if line.startswith("; zone "):
            zone, last = line[len("; zone "):].strip(), None
            out.setdefault(zone, {})
            continue
        if line.startswith(f"; {PROMISE}") and zone is not None and last in out[zone]:
            rr = out[zone][last]
            out[zone][last] = RRset(rr.name, rr.type, rr.records, rr.ttl, line[2:].strip())
            continue
        words = line.split(None, 4)
        if zone is None or len(words) != 5 or not words[1].isdigit() or words[2] != "IN":
            continue
        key = (words[0].lower(), words[3].upper())
        before = out[zone].get(key)
        records = tuple(sorted((*(before.records if before else ()), words[4])))
        out[zone][key] = RRset(key[0], key[1], records, int(words[1]), before.note if before else "")
        last = key
    return out


def canary_of(text: str) -> tuple[str, str] | None:
    """(TXT owner without the final dot, digest) of a rendered text, or None."""
    for found in parse(text).values():
        for (name, rdtype), rr in found.items():
            if rdtype == "TXT" and name.startswith(f"{CANARY_LABEL}.") and rr.records:
                return name.rstrip("."), rr.records[0].strip('"')
    return None


def host_records(text: str) -> list[tuple[list[str], str]]:
    """([owner without the final dot], address) of each A and AAAA record."""
    return [([name.rstrip(".")], value) for found in parse(text).values()
            for (name, rdtype), rr in found.items() if rdtype in ("A", "AAAA") for value in rr.records]


def records(text: str) -> dict[str, str]:
    """name -> what it points at (plan summaries), keyed as the file backends' records are."""
    out: dict[str, str] = {}
    for found in parse(text).values():
        for (name, rdtype), rr in found.items():
            owner = name.rstrip(".")
            if rdtype in ("A", "AAAA"):
                out[f"{owner} AAAA" if rdtype == "AAAA" else owner] = f"{rdtype} {' '.join(rr.records)}"
            elif rdtype == "CNAME":
                out[owner] = f"CNAME {rr.records[0].rstrip('.')}"
    return out


def view(site: Owner, live: dict[str, dict[str, Any]]) -> str:
    """What the zones (as fetched) hold of the site, rendered as `render` writes the desired
    state: at each desired key the live RRset when it is the site's own or holds exactly the
    desired records, and every other RRset the site owns (one the plan would delete). Equal to
    render(desired(site)) exactly when the plan changes nothing: the text a file backend would
    read back from its snippet, for a Backend of PowerDNS (plan.py compares them)."""
    want = desired(site)
    out: dict[str, dict[Key, RRset]] = {}
    for zone in want:
        have = fetched(live[zone])
        found: dict[Key, RRset] = {}
        for key, rr in have.items():
            mine = owned(rr, site)
            if mine or (key in want[zone] and adoptable(rr, want[zone][key].records)):
                ttl = int(rr.get("ttl", TTL)) if mine else want[zone][key].ttl
                note = note_of(rr) if mine else want[zone][key].note  # an adoptable one: as the TTL
                found[key] = RRset(key[0], key[1], contents(rr), ttl, note)
        out[zone] = found
    return render(out)


# ---- hand-written RRsets naming old values (`--retire-stale`) -------------------------------------

HAND = "/renamer-powerdns/hand-written.rrsets"  # their virtual file: one RRset a line, as JSON


def _pointer(address: str) -> str:
    try:
        return ipaddress.ip_address(address).reverse_pointer
    except ValueError:
        return address


def stale(sites: Iterable[Site], served: Iterable[Site], old_hosts: Iterable[str],
          old_addresses: Iterable[str], live: dict[str, dict[str, Any]]) -> list[dict[str, Any]]:
    """The RRsets no renamer site owns, in the zones `live` (as fetched), that answer an old or
    retired name, point at or from an old address, point at an old or retired name, or give a
    current name an address family renamer does not write there: as the
    file backends list hand-written lines (dns/unbound/layout.stale_lines). Each as JSON with its
    zone, sorted: the lines of the virtual file HAND. `sites`: every site of the inventory (their
    retired names), `served`: the resolver's (a bare old name is read in each one's domain)."""
    served = list(served)
    gone = {n.lower().rstrip(".") for n in old_hosts}
    for site in sites:
        gone |= {n.lower() for name in site.retired for n in (name, site.fqdn(name))}
    domains = {site.domain.lower().rstrip(".") for site in served}
    gone |= {f"{n}.{d}" for n in list(gone) if "." not in n for d in domains}
    old = {str(a) for a in old_addresses}
    pointers = {_pointer(a) for a in old}
    # a current name's RRset of a type renamer does not write there (which it would REPLACE): an
    # AAAA of a v4-only host, an A or AAAA beside an alias's CNAME
    families = {"A": 4, "AAAA": 6}
    written: dict[str, set[int]] = {}
    for site in served:
        for host in site.hosts:
            written[site.fqdn(host.name).lower()] = {a.version for a in host.addresses}
            written.update({site.fqdn(alias).lower(): set() for alias in host.aliases})
        written.update({moved.fqdn: set() for moved in site.transitional})
    out = []
    for zone, found in sorted(live.items()):
        for rr in sorted(found["rrsets"], key=lambda r: (str(r["name"]).lower(), str(r["type"]).upper())):
            rdtype, name = str(rr["type"]).upper(), str(rr["name"]).lower().rstrip(".")
            if rdtype in ("SOA", "NS") or any(c.get("account") == ACCOUNT for c in rr.get("comments", [])):
                continue
            values = [str(r["content"]) for r in rr.get("records", [])]
            targets = {v.lower().rstrip(".") for v in values} if rdtype in ("CNAME", "PTR") else set()
            if name in gone or name in pointers or targets & gone \
                    or (rdtype in ("A", "AAAA") and any(v in old for v in values)) \
                    or (rdtype in families and name in written and families[rdtype] not in written[name]):
                out.append({"zone": zone, "name": str(rr["name"]), "type": rdtype,
                            "ttl": int(rr.get("ttl", 0)),
                            "records": rr.get("records", []),
                            "comments": [{"content": c.get("content", ""), "account": c.get("account", "")}
                                         for c in rr.get("comments", [])]})
    return out


def hand_text(found: list[dict[str, Any]]) -> str | None:
    """HAND's text: one RRset a line (None: there is none)."""
    return "".join(json.dumps(rr, sort_keys=True) + "\n" for rr in found) or None


def hand_lines(text: str) -> list[tuple[bool, dict[str, Any]]]:
    """HAND's text read back: (kept, RRset) a line; a line commented out (`;`, as `--retire-stale`
    writes it) is an RRset to delete."""
    out = []
    for line in text.splitlines():
        start = line.find("{")
        if start < 0:
            continue
        try:
            rr = json.loads(line[start:])
        except ValueError:
            continue
        if isinstance(rr, dict) and {"zone", "name", "type"} <= set(rr):
            out.append((not line.lstrip().startswith(";"), rr))
    return out


def hand_answers(rr: dict[str, Any]) -> list[tuple[str, str, str]]:
    """(name, type, value) a hand-written RRset makes the server answer (its enabled records)."""
    name = str(rr["name"]).lower().rstrip(".")
    return [(name, str(rr["type"]), str(r["content"]).rstrip(".") if rr["type"] in ("CNAME", "PTR")
             else str(r["content"])) for r in rr.get("records", []) if not r.get("disabled")]
