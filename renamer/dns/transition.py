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
from renamer.dns.inventory import LABEL, Host, Inventory, Resolver, Site, Transitional
from renamer.durations import shown_duration
from renamer.errors import ConfigError


def with_transitions(inventory: Inventory, pairs: Sequence[tuple[str, str]], cutover: dt.date | None,
                     default: dt.timedelta | None, now: dt.datetime,
                     config: str = "renamer.yaml", where: Callable[[str], str] | None = None, *,
                     derived_names: bool = False,
                     short_names: Callable[[Resolver], bool] | None = None) -> Inventory:
    """The inventory with each site's transitional aliases (those served now) and every one, served
    or expired, in `transitions`. A transition renamer cannot serve as asked is refused (ConfigError,
    exit 2): an old name in no site's domain, one no site retires, one that is still a current
    name, a one-label name that a resolver would serve twice, a host's `transition:` that no old
    name reaches or that has no cutover to count from, two old keys (`ana-ml2`, `ana-ml2.ana.lan`)
    that land on one name but become two hosts. `where(old)` says where renamer.yaml's key is
    (`renamer.yaml:7`); without it, `config`. An old name renamed to a host's alias is kept as a
    CNAME to that host's FQDN; with `derived_names` (renamer.yaml's option), a retired name the
    sweep renames through it (`ana-ml2-bmc` of `ana-ml2`) is an old name too; one a window was asked
    for that gets none (renamed to no host or alias) is said in `no_window`. `short_names(resolver)`:
    whether its backend serves one-label names (dns/backend.py; without it, every resolver is taken
    to)."""
    if where is None:
        def where(old: str) -> str:  # no line known: the file alone
            return config
    short = short_names or (lambda resolver: True)
    hosts: dict[str, tuple[Site, Host]] = {}
    for site in inventory.sites:
        for host in site.hosts:
            hosts.setdefault(host.name.lower(), (site, host))
            hosts[site.fqdn(host.name).lower()] = (site, host)
    for site in inventory.sites:  # a host's alias reaches its host (t24-alias finding 3)
        for host in site.hosts:
            for alias_name in host.aliases:
                hosts.setdefault(alias_name.lower(), (site, host))
                hosts.setdefault(site.fqdn(alias_name).lower(), (site, host))
    fqdns = {site.fqdn(name).lower() for site in inventory.sites for h in site.hosts
             for name in (h.name, *h.aliases)}
    labels: dict[str, list[Site]] = {}  # a current one-label name -> the sites it is a name of
    for site in inventory.sites:
        for h in site.hosts:
            for name in (h.name, *h.aliases):
                labels.setdefault(name.lower(), []).append(site)
    by_domain = {site.domain.lower(): site for site in inventory.sites}

    def both(first: Site, second: Site) -> list[str]:
        """The managed resolvers that serve one-label names of both sites."""
        return [r.name for r in inventory.managed
                if first.name in r.sites and second.name in r.sites and short(r)]

    problems: list[str] = []
    no_window: list[str] = []
    found: dict[tuple[str, str], Transitional] = {}
    reached: set[tuple[str, str]] = set()
    keys: dict[tuple[str, str], str] = {}  # the renamer.yaml key each alias comes from
    for old, new, origin, note in _old_names(inventory, pairs, derived_names):
        hit = hosts.get(new.lower().rstrip("."))
        if hit is None:
            if default is not None:  # a window was asked for every old name: say which gets none
                no_window.append(f"{old} -> {new}{note}: no window: {new} is no host or alias of the DNS "
                                 "inventory, so there is nothing to point a CNAME at")
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
        key = f"{where(origin)}: renames.hosts.{origin}{note}"
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
            if fqdn in fqdns:
                problems += [] if not served else [f"{key}: a DNS transition would keep it as a CNAME to "
                                                   f"{target}, but {fqdn} is still a name of the inventory"]
                continue
            # its one-label name is another site's name: a clash only on a resolver that serves both
            # sites' one-label names (dnsmasq, Unbound); BIND, PowerDNS hold FQDNs (finding 5)
            clash = [(other, names) for other in labels.get(label, ()) if (names := both(site, other))]
            if clash and served:
                other, names = clash[0]
                problems.append(f"{key}: a DNS transition would serve its one-label name {label} as a CNAME "
                                f"to {target}, but {label} is also the one-label name of "
                                f"{other.fqdn(label)}, and {', '.join(names)} serve both sites' one-label "
                                "names: one name, two answers; serve the two sites on separate resolvers, or "
                                "leave this host without a transition")
                continue
            first = found.get((site.name, label))
            if first is not None and first.target != target and (served or first.served):
                # two keys of renamer.yaml for one old name (its short form and its FQDN): one CNAME can
                # be served, so one of them would be silently wrong (finding 18)
                problems.append(f"{key}: it and {keys[(site.name, label)]} are one old name, {fqdn}, "
                                f"but become {target} and {first.target}: a DNS transition serves one CNAME "
                                "there; give them one new host, or drop one")
                continue
            keys.setdefault((site.name, label), origin)
            found.setdefault((site.name, label), Transitional(
                label, fqdn, target, host.name, host.addresses, expires, served, why, site_new.name))
    shorts: dict[str, Site] = {}  # one label served in two domains: two CNAMEs where one resolver serves both
    for (site_name, label), alias in found.items():
        if not alias.served:
            continue
        site = inventory.site(site_name)
        if label in shorts and (names := both(shorts[label], site)):
            problems.append(f"{config}: renames.hosts: a DNS transition would serve the old name {label} "
                            f"in the domains of sites {shorts[label].name} and {site_name}, and "
                            f"{', '.join(names)} serve both sites' one-label names: its one-label name would "
                            "be two CNAMEs there (dnsmasq refuses to start); keep it in one of them only, or "
                            "serve the two sites on separate resolvers")
        shorts.setdefault(label, site)
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
    return replace(inventory, sites=sites, transitions=every, now=now, no_window=tuple(no_window))


def _old_names(inventory: Inventory, pairs: Sequence[tuple[str, str]],
               derived_names: bool) -> list[tuple[str, str, str, str]]:
    """(old, new, renamer.yaml's key, a note) for each old name: renamer.yaml's renames.hosts, and
    with `derived_names` each retired name of a site that the sweep renames through a short key
    (`ana-ml2-bmc` by `ana-ml2: fv-ml1` becomes `fv-ml1-bmc`; the longest key first, as the sweep
    matches; an FQDN's derived names are not renamed), unless it is a key itself."""
    out = [(old, new, old, "") for old, new in pairs]
    if not derived_names:
        return out
    keys = {old.lower().rstrip(".") for old, _ in pairs}
    seen: set[str] = set()
    for old, new in sorted(pairs, key=lambda p: -len(p[0])):
        stem, to = old.lower(), new.lower().rstrip(".")
        if "." in stem or "." in to:
            continue
        for site in inventory.sites:
            for retired in site.retired:
                if retired.startswith(stem + "-") and retired not in keys and retired not in seen:
                    seen.add(retired)
                    out.append((retired, to + retired[len(stem):], old,
                                f" (options.derived_names: {retired} of {old})"))
    return out


def transition_dict(alias: Transitional, asked: bool = True) -> dict[str, object]:
    """One alias as `dns plan` and `audit` print it in JSON. `asked`: the command's resolvers are
    read (the plan: served, or retired by it); audit's are not (`asked=False`): what the clock
    alone tells, its window open or over (t24-alias finding 8)."""
    states = ("served", "retired") if asked else ("in-window", "expired")
    state = states[0] if alias.served else states[1]
    return {"name": alias.fqdn, "short": alias.name, "target": alias.target, "host": alias.host,
            "expires": alias.expires.isoformat().replace("+00:00", "Z"), "state": state, "from": alias.why}


def transitions_text(transitions: Sequence[Transitional], asked: bool = True,
                     no_window: Sequence[str] = ()) -> str:
    """`dns plan`'s (and `audit`'s) lines for the transitional aliases: each old name, its new
    FQDN, and what happens when: served until its date, or retired since (the plan removes it
    where it is still served); then each old name a window was asked for that gets none, and why
    (`no_window`: Inventory.no_window)."""
    out = []
    if transitions:
        out.append(f"transitional aliases: {len(transitions)} (an old name kept as a CNAME to its new FQDN "
                   "until its date, then retired)\n")
    for alias in transitions:
        if not asked:  # audit reads the site files, never a resolver: the window, not what is served
            when = (f"window open until {shown_time(alias.expires)}" if alias.served else
                    f"window over since {shown_time(alias.expires)}: `dns apply` retires it where served")
        else:
            when = (f"served until {shown_time(alias.expires)}" if alias.served
                    else f"retired since {shown_time(alias.expires)}")
        out.append(f"  {alias.fqdn} -> {alias.target}: {when} ({alias.why})\n")
    if no_window:
        out.append(f"no transitional alias: {len(no_window)} (old names options.dns_transition asks a window "
                   "for that get none: retired at once)\n")
        out += [f"  {line}\n" for line in no_window]
    return "".join(out)
