"""Transitional aliases: an old name kept as a CNAME to its host's new FQDN for a while after the
cutover (renamer.yaml's `options.dns_transition: 30d`, or `transition: 30d` on a host of its site
file), then retired like any other old name.

The old names are renamer.yaml's `renames.hosts` whose new value is a host of the inventory (its
name or its FQDN). Each is served in the domain it lived in: an old FQDN (`ana-ml2.ana.lan`) in
the site whose domain it ends in, an old one-label name (`ana-ml2`) in each site that lists it
under `retired:`. Its window ends at the cutover's 00:00 UTC plus the transition; `now` (the clock
the command read, renamer/clock.py) says which side of it we are on. Pure: values in, values out.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Sequence
from dataclasses import replace

from renamer.clock import at_start_of, shown_time
from renamer.dns.inventory import LABEL, Host, Inventory, Site, Transitional
from renamer.durations import shown_duration
from renamer.errors import ConfigError


def with_transitions(inventory: Inventory, pairs: Sequence[tuple[str, str]], cutover: dt.date | None,
                     default: dt.timedelta | None, now: dt.datetime,
                     config: str = "renamer.yaml", where: Callable[[str], str] | None = None) -> Inventory:
    """The inventory with each site's transitional aliases (those served now) and every one, served
    or expired, in `transitions`. A transition renamer cannot serve as asked is refused (ConfigError,
    exit 2): an old name in no site's domain, one no site retires, one that is still a current
    name, a host's `transition:` that no old name reaches or that has no cutover to count from, two
    old keys (`ana-ml2`, `ana-ml2.ana.lan`) that land on one name but become two hosts. `where(old)`
    says where renamer.yaml's key is (`renamer.yaml:7`); without it, `config`."""
    if where is None:
        def where(old: str) -> str:  # no line known: the file alone
            return config
    hosts: dict[str, tuple[Site, Host]] = {}
    for site in inventory.sites:
        for host in site.hosts:
            hosts.setdefault(host.name.lower(), (site, host))
            hosts[site.fqdn(host.name).lower()] = (site, host)
    current = {n.lower() for site in inventory.sites for h in site.hosts
               for name in (h.name, *h.aliases) for n in (name, site.fqdn(name))}
    by_domain = {site.domain.lower(): site for site in inventory.sites}
    problems: list[str] = []
    found: dict[tuple[str, str], Transitional] = {}
    reached: set[tuple[str, str]] = set()
    keys: dict[tuple[str, str], str] = {}  # the renamer.yaml key each alias comes from
    for old, new in pairs:
        hit = hosts.get(new.lower().rstrip("."))
        if hit is None:
            continue  # renamed to no host of the inventory: nothing to point at
        site_new, host = hit
        reached.add((site_new.name, host.name))
        window = host.transition or default
        if window is None:
            continue
        if cutover is None:  # options.dns_transition without it is refused at load (config_options.py)
            problems.append(f"{site_new.source}: hosts {host.name}: transition: needs `cutover:` in {config} "
                            "(the day of the move, where the window starts)")
            continue
        why = (f"{site_new.source}: transition {shown_duration(window)}" if host.transition
               else f"options.dns_transition {shown_duration(window)}")
        expires = at_start_of(cutover) + window
        # an alias whose window is over constrains nothing (t24-alias finding 17): the name may be
        # reused, un-retired, or its key left unplaceable; only its "retired since" line stays
        served = now < expires
        target = site_new.fqdn(host.name)
        key = f"{where(old)}: renames.hosts.{old}"
        name = old.lower().rstrip(".")
        if "." in name:
            label, _, domain = name.partition(".")
            home = by_domain.get(domain)
            if home is None or not LABEL.match(label):
                problems += [] if not served else [
                    f"{key}: a DNS transition would keep it as a CNAME to {target}, but {domain} is the "
                    "domain of no site of the DNS inventory: renamer cannot serve it (add that site, or "
                    "leave this host without a transition)"]
                continue
            places = [(home, label)]
        else:
            places = [(site, name) for site in inventory.sites if name in site.retired]
            if not places:
                problems += [] if not served else [
                    f"{key}: a DNS transition would keep it as a CNAME to {target}, but no site lists it "
                    "under `retired:`: list it in the site whose domain it lived in, so that renamer knows "
                    "where to serve it"]
                continue
        for site, label in places:
            fqdn = site.fqdn(label)
            if label in current or fqdn in current:
                problems += [] if not served else [f"{key}: a DNS transition would keep it as a CNAME to "
                                                   f"{target}, but {fqdn} is still a name of the inventory"]
                continue
            first = found.get((site.name, label))
            if first is not None and first.target != target and (served or first.served):
                # two keys of renamer.yaml for one old name (its short form and its FQDN): one CNAME can
                # be served, so one of them would be silently wrong (finding 18)
                problems.append(f"{key}: it and {keys[(site.name, label)]} are one old name, {fqdn}, "
                                f"but become {target} and {first.target}: a DNS transition serves one CNAME "
                                "there; give them one new host, or drop one")
                continue
            keys.setdefault((site.name, label), old)
            found.setdefault((site.name, label), Transitional(
                label, fqdn, target, host.name, host.addresses, expires, served, why, site_new.name))
    shorts: dict[str, str] = {}  # a one-label old name served in two domains would be two CNAMEs
    for (site_name, label), alias in found.items():
        if not alias.served:
            continue
        if label in shorts:
            problems.append(f"{config}: renames.hosts: a DNS transition would serve the old name {label} in "
                            f"the domains of sites {shorts[label]} and {site_name}: its one-label name would "
                            "be two CNAMEs (dnsmasq refuses to start); keep it in one of them only")
        shorts.setdefault(label, site_name)
    for site in inventory.sites:
        for host in site.hosts:
            if host.transition is not None and (site.name, host.name) not in reached:
                problems.append(f"{site.source}: hosts {host.name}: transition: no old name of {config}'s "
                                f"renames.hosts is renamed to {host.name} or {site.fqdn(host.name)}: "
                                "nothing to keep")
    if problems:
        raise ConfigError(problems[0], lines=problems)
    every = tuple(sorted(found.values(), key=lambda t: (t.expires, t.fqdn)))
    held = {id(alias): site for (site, _), alias in found.items()}  # the site each one is served in
    sites = tuple(replace(site, transitional=tuple(t for t in every if t.served and held[id(t)] == site.name))
                  for site in inventory.sites)
    return replace(inventory, sites=sites, transitions=every, now=now)


def transition_dict(alias: Transitional, asked: bool = True) -> dict[str, object]:
    """One alias as `dns plan` and `audit` print it in JSON. `asked`: the command's resolvers are
    read (the plan: served, or retired by it); audit's are not (`asked=False`): what the clock
    alone tells, its window open or over (t24-alias finding 8)."""
    states = ("served", "retired") if asked else ("in-window", "expired")
    state = states[0] if alias.served else states[1]
    return {"name": alias.fqdn, "short": alias.name, "target": alias.target, "host": alias.host,
            "expires": alias.expires.isoformat().replace("+00:00", "Z"), "state": state, "from": alias.why}


def transitions_text(transitions: Sequence[Transitional], asked: bool = True) -> str:
    """`dns plan`'s (and `audit`'s) lines for the transitional aliases: each old name, its new
    FQDN, and what happens when: served until its date, or retired since (the plan removes it
    where it is still served)."""
    if not transitions:
        return ""
    out = [f"transitional aliases: {len(transitions)} (an old name kept as a CNAME to its new FQDN "
           "until its date, then retired)\n"]
    for alias in transitions:
        if not asked:  # audit reads the site files, never a resolver: the window, not what is served
            when = (f"window open until {shown_time(alias.expires)}" if alias.served else
                    f"window over since {shown_time(alias.expires)}: `dns apply` retires it where served")
        else:
            when = (f"served until {shown_time(alias.expires)}" if alias.served
                    else f"retired since {shown_time(alias.expires)}")
        out.append(f"  {alias.fqdn} -> {alias.target}: {when} ({alias.why})\n")
    return "".join(out)
