"""One site file (dns/sites/<site>.yaml) -> a checked Site, and the checks across sites."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from renamer import lazy_re
from renamer.dns.inventory import LABEL, UNSAFE, Host, Site, name_problem
from renamer.durations import EXPECTED, parse_duration
from renamer.errors import ConfigError
from renamer.formats.yaml_source import Problems, check_mapping, kind, list_at, load_yaml_file, shown
from renamer.names import IPAddress, IPNetwork, host_name_problem, parse_address, parse_network

_SITE = lazy_re.compile(r"[a-z0-9][a-z0-9_-]{0,62}\Z")
_MAC = lazy_re.compile(r"[0-9a-f]{2}(:[0-9a-f]{2}){5}\Z")
_SITE_KEYS = {"site", "domain", "network", "hosts", "retired", "authoritative"}
_HOST_KEYS = {"name", "address", "mac", "aliases", "role", "warning", "transition"}


def load_site(path: Path, display: str) -> Site:
    """Fast without positions; on any problem, again with them, so messages name lines."""
    try:
        return _site_from(load_yaml_file(path, display, fast=True), path, display)
    except ConfigError:
        return _site_from(load_yaml_file(path, display), path, display)


def _site_from(data: Any, path: Path, display: str) -> Site:
    problems = Problems(display)
    top = check_mapping({} if data is None else data, "", _SITE_KEYS, problems, data, None) or {}
    name = top.get("site")
    if not isinstance(name, str) or not _SITE.match(name):
        problems.add(top, "site", "site", f"expected a plain site name (letters, digits, '-', '_'), "
                     f"got {shown(name)}")
        name = path.stem
    domain = top.get("domain")
    why = host_name_problem(domain) if isinstance(domain, str) and not UNSAFE.search(domain) else None
    if not isinstance(domain, str) or UNSAFE.search(domain) or why:
        # the reason where there is one: a domain whose last label is all digits (`fv.10`)
        # would make every FQDN of the site read as an address
        prefix = f"invalid host name {domain!r}"
        detail = "" if not why else why.removeprefix(prefix) if why.startswith(prefix) else f": {why}"
        problems.add(top, "domain", "domain", f"invalid domain {shown(domain)}{detail}")
        domain = "invalid"
    domain = domain.lower().rstrip(".")
    networks = _networks(top, problems)
    network = networks[0] if networks else None
    hosts = []
    raw_hosts = list_at(top, "hosts", "hosts", problems)
    for i, entry in enumerate(raw_hosts):
        host = _host(entry, i, raw_hosts, networks, problems)
        if host is not None:
            hosts.append(host)
    retired = []
    raw_retired = list_at(top, "retired", "names", problems)
    for i, value in enumerate(raw_retired):
        why = name_problem(value, "retired name")
        if why:
            problems.add(raw_retired, i, f"retired[{i}]", why)
        else:
            retired.append(value)
    authoritative = top.get("authoritative", False)
    if not isinstance(authoritative, bool):
        problems.add(top, "authoritative", "authoritative",
                     f"expected true or false, got {shown(authoritative)}")
        authoritative = False
    _check_lengths(name, domain, top, raw_hosts, hosts, raw_retired, retired, problems)
    problems.raise_if_any()
    assert network is not None and networks is not None
    return Site(name, domain, network, tuple(hosts), tuple(retired), display, authoritative,
                networks[1] if len(networks) > 1 else None)


MAX_NAME = 253  # octets of a name's text form, without the final dot (255 on the wire)


def _check_lengths(site: str, domain: str, top: dict[str, Any], raw_hosts: list[Any], hosts: list[Host],
                   raw_retired: list[Any], retired: list[str], problems: Problems) -> None:
    """Every name renamer writes or asks for (the canary, each host's, alias's and retired name's
    FQDN) fits in a DNS name: checked at load, so that no apply fails halfway through on one."""
    def long(name: str) -> str | None:
        return None if len(name) <= MAX_NAME else f"{name[:40]}...: {len(name)} octets, over DNS's {MAX_NAME}"

    canary = long(f"_renamer.{site}.{domain}")
    if canary and domain != "invalid":
        problems.add(top, "domain", "domain", f"the canary name {canary} (shorten the site or the domain)")
    by_name = {entry.get("name"): (i, entry) for i, entry in enumerate(raw_hosts) if isinstance(entry, dict)}
    for host in hosts:
        i, entry = by_name.get(host.name, (0, {}))
        for label, what in [(host.name, "name"), *((a, "aliases") for a in host.aliases)]:
            why = long(f"{label}.{domain}")
            if why:
                problems.add(entry, what, f"hosts[{i}].{what}", f"the FQDN {why}")
    for j, name in enumerate(retired):
        why = long(f"{name}.{domain}")
        if why:
            problems.add(raw_retired, j, f"retired[{j}]", f"the FQDN {why}")


def _host(entry: Any, i: int, container: list[Any], networks: tuple[IPNetwork, ...] | None,
          problems: Problems) -> Host | None:
    keypath = f"hosts[{i}]"
    if check_mapping(entry, keypath, _HOST_KEYS, problems, container, i) is None:
        return None
    ok = True
    name = entry.get("name")
    why = name_problem(name, "host name")
    if why:
        problems.add(entry, "name" if "name" in entry else None, f"{keypath}.name", why)
        ok = False
    addresses = _addresses(entry, keypath, networks, problems)
    ok = ok and bool(addresses)
    mac = entry.get("mac")
    if mac is not None and (not isinstance(mac, str) or not _MAC.match(mac.lower())):
        problems.add(entry, "mac", f"{keypath}.mac",
                     f"invalid MAC address {shown(mac)} (expected 3c:ec:ef:12:34:56)")
        ok = False
    aliases = entry.get("aliases", [])
    if not isinstance(aliases, list):
        problems.add(entry, "aliases", f"{keypath}.aliases", f"expected a list of names, got {kind(aliases)}")
        aliases, ok = [], False
    for j, alias in enumerate(aliases):
        why = name_problem(alias, "alias")
        if why:
            problems.add(aliases, j, f"{keypath}.aliases[{j}]", why)
            ok = False
    role = entry.get("role")
    if role is not None and (not isinstance(role, str) or not LABEL.match(role)):
        problems.add(entry, "role", f"{keypath}.role", f"invalid role {shown(role)}")
        ok = False
    warning = entry.get("warning")
    if warning is not None and (not isinstance(warning, str) or not warning.strip()
                                or UNSAFE.search(warning.strip())
                                or not " ".join(warning.split()).isprintable()):
        problems.add(entry, "warning", f"{keypath}.warning",
                     "expected a one-line text of printable characters")
        ok = False
    transition = parse_duration(entry["transition"]) if "transition" in entry else None
    if "transition" in entry and transition is None:
        problems.add(entry, "transition", f"{keypath}.transition",
                     f"{EXPECTED}, got {shown(entry['transition'])}")
        ok = False
    if not ok:
        return None
    return Host(name, addresses[0], mac.lower() if mac else None, tuple(aliases), role,
                " ".join(warning.split()) if warning else None,
                addresses[1] if len(addresses) > 1 else None, transition)


# A site's `network` and a host's `address`: one value, or a list of one IPv4 and one IPv6
# (a dual-stack site or host); any other list is refused, so that "which address is the A
# record" never needs guessing.
PAIR = "a list of one IPv4 and one IPv6"


def _networks(top: dict[str, Any], problems: Problems) -> tuple[IPNetwork, ...] | None:
    """The site's prefixes, IPv4 first; None (noted) when `network` is missing or wrong."""
    raw = top.get("network")
    example = "10.251.0.0/16"
    if isinstance(raw, str):
        network = parse_network(raw)
        if network is None:
            problems.add(top, "network", "network", f"expected a network like {example}, got {shown(raw)}")
            return None
        return (network,)
    if not isinstance(raw, list):
        problems.add(top, "network", "network",
                     f"expected a network like {example} or {PAIR} network, got {shown(raw)}")
        return None
    found = _pair(raw, (top, "network"), parse_network, "network", "network", problems)
    return found or None


def _addresses(entry: dict[str, Any], keypath: str, networks: tuple[IPNetwork, ...] | None,
               problems: Problems) -> tuple[IPAddress, ...]:
    """The host's addresses, IPv4 first, each inside the site's network of its family; () (noted)
    on any problem."""
    raw = entry.get("address")
    where = f"{keypath}.address"
    if isinstance(raw, str):
        address = parse_address(raw)
        if address is None:
            problems.add(entry, "address", where, f"invalid address {shown(raw)}")
            return ()
        found: tuple[IPAddress, ...] = (address,)
    elif isinstance(raw, list):
        found = _pair(raw, (entry, "address"), parse_address, "address", where, problems)
        if not found:
            return ()
    else:
        problems.add(entry, "address" if "address" in entry else None, where,
                     f"expected one address or {PAIR} address, got {shown(raw)}")
        return ()
    if networks is None:  # the site's network is wrong: that problem is reported already
        return found
    ok = True
    for address in found:
        # where it is written: the key, or its place in the list (as written, not as sorted)
        j = 0 if isinstance(raw, str) else [parse_address(item) for item in raw].index(address)
        at, shown_at = (entry, "address") if isinstance(raw, str) else (raw, j)
        keyed = where if isinstance(raw, str) else f"{where}[{j}]"
        network = next((n for n in networks if n.version == address.version), None)
        if network is None and len(networks) == 1 and isinstance(raw, str):
            problems.add(at, shown_at, keyed, f"{address} is outside the site's network {networks[0]}")
            ok = False
        elif network is None:
            # Decided: an address of a family the site has no prefix for is refused, not left
            # unchecked: the check is what catches an address typed into the wrong site.
            family = f"IPv{address.version}"
            problems.add(at, shown_at, keyed,
                         f"{address} is {family} but the site declares no {family} network "
                         f"(give the site's network as {PAIR} network)")
            ok = False
        elif address not in network:
            problems.add(at, shown_at, keyed, f"{address} is outside the site's network {network}")
            ok = False
    return found if ok else ()


def _pair(raw: list[Any], key: tuple[Any, str], parse: Any, what: str, keypath: str,
          problems: Problems) -> tuple[Any, ...]:
    """A YAML list (at `key`: its mapping and key) of one IPv4 and one IPv6 value, either order
    -> (IPv4, IPv6); () (noted) otherwise: empty, one, more than two, two of a family, an item
    that is not a `what`."""
    if len(raw) != 2:
        got = {0: "an empty list", 1: f"1 item (one {what} needs no list)"}.get(len(raw), f"{len(raw)} items")
        problems.add(*key, keypath, f"expected {PAIR} {what}, got {got}")
        return ()
    values: list[IPAddress | IPNetwork] = []
    for j, item in enumerate(raw):
        value = parse(item) if isinstance(item, str) else None
        if value is None:
            problems.add(raw, j, f"{keypath}[{j}]", f"invalid {what} {shown(item)}")
        else:
            values.append(value)
    if len(values) < 2:
        return ()
    if values[0].version == values[1].version:
        family = f"IPv{values[0].version}"
        problems.add(*key, keypath, f"expected {PAIR} {what}, got two {family} ones "
                     f"({values[0]}, {values[1]})")
        return ()
    return tuple(sorted(values, key=lambda v: v.version))


def cross_check(sites: list[Site]) -> list[str]:
    """Names and addresses defined once across all sites; retired names truly gone."""
    problems = []
    names: dict[str, str] = {}
    addresses: dict[IPAddress, str] = {}
    seen_sites: dict[str, str] = {}
    for site in sites:
        if site.name in seen_sites:
            problems.append(f"{site.source}: site: {site.name!r} is also defined in {seen_sites[site.name]}")
        seen_sites[site.name] = site.source
        for host in site.hosts:
            for name, what in [(host.name, "host"), *((a, "alias") for a in host.aliases)]:
                if name in names:
                    problems.append(f"{site.source}: hosts: {what} {shown(name)} is defined twice "
                                    f"({names[name]})")
                names.setdefault(name, f"{what} in {site.source}")
            for address in host.addresses:
                if address in addresses:
                    problems.append(f"{site.source}: hosts: address {address} of {host.name!r} is "
                                    f"defined twice ({addresses[address]})")
                addresses.setdefault(address, f"{host.name} in {site.source}")
    for site in sites:
        for name in site.retired:
            if name in names:
                problems.append(f"{site.source}: retired: {shown(name)} is retired but still defined "
                                f"({names[name]})")
    for name, where in names.items():
        if where.startswith("alias") and any(h.name == name for s in sites for h in s.hosts):
            problems.append(f"{where.split(' in ')[1]}: aliases: {shown(name)} is also a host")
    return problems


