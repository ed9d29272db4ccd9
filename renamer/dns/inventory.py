"""dns/resolvers.yaml and dns/sites/*.yaml -> a validated Inventory.

Every value that reaches a dnsmasq snippet or a command line is checked here,
before anything is written anywhere: names are plain DNS labels, so no value
can carry a newline, a comma or a `#` into the snippet.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any

from renamer.dns.ansible_inventory import hosts_of, resolver_entry
from renamer.errors import ConfigError
from renamer.formats.yaml_source import Problems, check_mapping, kind, list_at, load_yaml_file, shown
from renamer.names import IPAddress, IPNetwork, host_name_problem, parse_address, parse_network

_LABEL = re.compile(r"(?!-)[a-z0-9-]{1,63}(?<!-)\Z")
_SITE = re.compile(r"[a-z0-9][a-z0-9_-]{0,62}\Z")
_MAC = re.compile(r"[0-9a-f]{2}(:[0-9a-f]{2}){5}\Z")
SSH_TARGET = re.compile(r"ssh://(?:(?P<user>[a-z_][a-z0-9_.-]{0,31})@)?"
                        r"(?P<host>[A-Za-z0-9][A-Za-z0-9.-]*|\[[0-9a-fA-F:]+\])(?::(?P<port>\d{1,5}))?\Z")
_UNSAFE = re.compile(r"[\n\r\0]")
_PLAIN_PATH = re.compile(r"[A-Za-z0-9._/-]{1,255}\Z")

_SITE_KEYS = {"site", "domain", "network", "hosts", "retired", "authoritative"}
_HOST_KEYS = {"name", "address", "mac", "aliases", "role", "warning"}
_RESOLVER_KEYS = {"name", "address", "port", "backend", "target", "snippet_dir", "backup_dir", "test",
                  "reload", "sites", "dhcp", "ssh_config", "sudo", "timeout", "check_layout",
                  "conf_file", "python"}
BMC_WARNING = ("802.1q VLAN tagging must stay disabled on this BMC: it once shipped tagging "
               "VLAN 250 into an untagged port and vanished from every network-side diagnostic")


@dataclass(frozen=True)
class Host:
    name: str
    address: IPAddress
    mac: str | None = None
    aliases: tuple[str, ...] = ()
    role: str | None = None
    warning: str | None = None

    def warning_text(self) -> str | None:
        if self.warning:
            return self.warning
        return BMC_WARNING if self.role == "bmc" else None


@dataclass(frozen=True)
class Site:
    name: str
    domain: str
    network: IPNetwork
    hosts: tuple[Host, ...]
    retired: tuple[str, ...]
    source: str
    # true: the resolvers answer for the whole domain (dnsmasq `local=`), NXDOMAIN for any name
    # they do not hold. False (the default): names they do not hold are still forwarded.
    authoritative: bool = False

    def fqdn(self, name: str) -> str:
        return f"{name}.{self.domain}"


@dataclass(frozen=True)
class Resolver:
    name: str
    address: IPAddress
    port: int
    target: str
    snippet_dir: str
    backup_dir: str
    test: tuple[str, ...]
    reload: tuple[str, ...]
    sites: tuple[str, ...]
    dhcp: tuple[str, ...]
    ssh_config: str | None = None
    sudo: bool = False
    timeout: float = 2.0
    check_layout: bool = True  # prove before writing that dnsmasq reads snippet_dir (dns/layout.py)
    conf_file: str | None = None  # the daemon's main configuration; default: test's --conf-file
    python: str | None = None  # the interpreter the Ansible engine uses there; default: Ansible's choice

    @property
    def endpoint(self) -> str:
        host = f"[{self.address}]" if self.address.version == 6 else str(self.address)
        return f"{host}:{self.port}"


@dataclass(frozen=True)
class Inventory:
    folder: Path
    sites: tuple[Site, ...]
    resolvers: tuple[Resolver, ...]
    # renamer.yaml's old values, where there is one: they must resolve nowhere after the move
    old_hosts: tuple[str, ...] = ()
    old_addresses: tuple[str, ...] = ()

    def site(self, name: str) -> Site:
        return next(s for s in self.sites if s.name == name)

    def select(self, spec: str) -> list[Resolver]:
        """`all` or a comma-separated list of resolver names."""
        if spec.strip() == "all":
            return list(self.resolvers)
        names = [n.strip() for n in spec.split(",") if n.strip()]
        known = {r.name: r for r in self.resolvers}
        unknown = [n for n in names if n not in known]
        if unknown or not names:
            raise ConfigError(f"--resolvers: unknown resolver {', '.join(unknown) or repr(spec)} "
                              f"(known: {', '.join(known)}, or all)")
        return [known[n] for n in dict.fromkeys(names)]


def load_inventory(folder: Path, display: Any = str, resolvers_file: Path | None = None) -> Inventory:
    """Load and cross-check the inventory; every problem is reported, nothing is written.
    `resolvers_file` is read instead of the folder's resolvers.yaml."""
    if not folder.is_dir():
        raise ConfigError(f"{display(folder)}: DNS inventory folder not found")
    site_files = _site_files(folder)
    if not site_files:
        raise ConfigError(f"{display(folder / 'sites')}: no site files (*.yaml)")
    problems: list[str] = []
    sites = []
    for path in site_files:
        where = display(path)
        if not _PLAIN_PATH.match(where):  # it is written into the header of every snippet
            problems.append(f"{where!r}: a site file's path may hold only letters, digits, '.', '_', "
                            "'-' and '/' (rename the file or the folder)")
            continue
        try:
            sites.append(_load_site(path, where))
        except ConfigError as exc:
            problems += exc.lines
    resolvers: tuple[Resolver, ...] = ()
    # With a site file broken, site references cannot be checked without false alarms.
    known_sites = {s.name for s in sites} if not problems else None
    try:
        path = resolvers_file or folder / "resolvers.yaml"
        if resolvers_file is not None and not resolvers_file.is_file():
            raise ConfigError(f"--resolvers-file {resolvers_file}: file not found")
        resolvers = _load_resolvers(path, display(path), known_sites)
    except ConfigError as exc:
        problems += exc.lines
    problems += _cross_check(sites)
    if problems:
        raise ConfigError(problems[0], lines=problems)
    return Inventory(folder, tuple(sites), resolvers)


def _site_files(folder: Path) -> list[Path]:
    return sorted((folder / "sites").glob("*.yaml")) + sorted((folder / "sites").glob("*.yml"))


def load_sites(folder: Path, display: Any = str) -> list[Site]:
    """The sites that load cleanly, without the resolvers (for the sweep's collision check:
    the DNS commands report a broken file)."""
    sites = []
    for path in _site_files(folder):
        try:
            sites.append(_load_site(path, display(path)))
        except ConfigError:
            continue
    return sites


def _label(value: Any, what: str) -> str | None:
    if not isinstance(value, str):
        return f"expected a {what}, got {kind(value)}"
    if not _LABEL.match(value):
        return (f"invalid {what} {shown(value)}: one DNS label of lower-case letters, digits and '-' "
                "(no dots, spaces, commas, '#' or newlines)")
    return None


def _load_site(path: Path, display: str) -> Site:
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
    if not isinstance(domain, str) or host_name_problem(domain) or _UNSAFE.search(domain):
        problems.add(top, "domain", "domain", f"invalid domain {shown(domain)}")
        domain = "invalid"
    domain = domain.lower().rstrip(".")
    network = parse_network(top["network"]) if isinstance(top.get("network"), str) else None
    if network is None:
        problems.add(top, "network", "network",
                     f"expected a network like 10.251.0.0/16, got {shown(top.get('network'))}")
    hosts = []
    raw_hosts = list_at(top, "hosts", "hosts", problems)
    for i, entry in enumerate(raw_hosts):
        host = _host(entry, i, raw_hosts, network, problems)
        if host is not None:
            hosts.append(host)
    retired = []
    raw_retired = list_at(top, "retired", "names", problems)
    for i, value in enumerate(raw_retired):
        why = _label(value, "retired name")
        if why:
            problems.add(raw_retired, i, f"retired[{i}]", why)
        else:
            retired.append(value)
    authoritative = top.get("authoritative", False)
    if not isinstance(authoritative, bool):
        problems.add(top, "authoritative", "authoritative",
                     f"expected true or false, got {shown(authoritative)}")
        authoritative = False
    problems.raise_if_any()
    assert network is not None
    return Site(name, domain, network, tuple(hosts), tuple(retired), display, authoritative)


def _host(entry: Any, i: int, container: list[Any], network: IPNetwork | None,
          problems: Problems) -> Host | None:
    keypath = f"hosts[{i}]"
    if check_mapping(entry, keypath, _HOST_KEYS, problems, container, i) is None:
        return None
    ok = True
    name = entry.get("name")
    why = _label(name, "host name")
    if why:
        problems.add(entry, "name" if "name" in entry else None, f"{keypath}.name", why)
        ok = False
    address = parse_address(entry["address"]) if isinstance(entry.get("address"), str) else None
    if address is None:
        problems.add(entry, "address" if "address" in entry else None, f"{keypath}.address",
                     f"invalid address {shown(entry.get('address'))}")
        ok = False
    elif network is not None and (address.version != network.version or address not in network):
        problems.add(entry, "address", f"{keypath}.address",
                     f"{address} is outside the site's network {network}")
        ok = False
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
        why = _label(alias, "alias")
        if why:
            problems.add(aliases, j, f"{keypath}.aliases[{j}]", why)
            ok = False
    role = entry.get("role")
    if role is not None and (not isinstance(role, str) or not _LABEL.match(role)):
        problems.add(entry, "role", f"{keypath}.role", f"invalid role {shown(role)}")
        ok = False
    warning = entry.get("warning")
    if warning is not None and (not isinstance(warning, str) or not warning.strip()
                                or _UNSAFE.search(warning.strip())
                                or not " ".join(warning.split()).isprintable()):
        problems.add(entry, "warning", f"{keypath}.warning",
                     "expected a one-line text of printable characters")
        ok = False
    if not ok:
        return None
    assert address is not None
    return Host(name, address, mac.lower() if mac else None, tuple(aliases), role,
                " ".join(warning.split()) if warning else None)


def _cross_check(sites: list[Site]) -> list[str]:
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
            if host.address in addresses:
                problems.append(f"{site.source}: hosts: address {host.address} of {host.name!r} is "
                                f"defined twice ({addresses[host.address]})")
            addresses.setdefault(host.address, f"{host.name} in {site.source}")
    for site in sites:
        for name in site.retired:
            if name in names:
                problems.append(f"{site.source}: retired: {shown(name)} is retired but still defined "
                                f"({names[name]})")
    for name, where in names.items():
        if where.startswith("alias") and any(h.name == name for s in sites for h in s.hosts):
            problems.append(f"{where.split(' in ')[1]}: aliases: {shown(name)} is also a host")
    return problems


def _load_resolvers(path: Path, display: str, site_names: set[str] | None) -> tuple[Resolver, ...]:
    data = load_yaml_file(path, display)
    problems = Problems(display)
    top = check_mapping({} if data is None else data, "", {"resolvers", "from_ansible"}, problems, data,
                        None) or {}
    raw = top.get("resolvers", [] if "from_ansible" in top else None)
    entries: list[tuple[Any, str, Any, Any]] = []  # (entry, its key path, its container, its key there)
    if isinstance(raw, list):
        entries += [(entry, f"resolvers[{i}]", raw, i) for i, entry in enumerate(raw)]
    if "from_ansible" in top:
        entries += _from_ansible(top, path.parent, problems)
    if not isinstance(raw, list) or (not entries and not problems.items):
        problems.add(top, "resolvers" if "resolvers" in top else None, "resolvers",
                     "expected a non-empty list of resolvers (or from_ansible: naming a group with hosts)")
        problems.raise_if_any()
        return ()
    out = []
    seen: dict[str, int] = {}
    endpoints: dict[tuple[str, int], str] = {}
    for i, (entry, keypath, container, at) in enumerate(entries):
        resolver = _resolver(entry, keypath, container, at, site_names, problems)
        if resolver is None:
            continue
        if resolver.name in seen:
            problems.add(container, at, f"{keypath}.name", f"resolver {resolver.name!r} is listed twice")
            continue
        key = (str(resolver.address), resolver.port)
        if key in endpoints:
            problems.add(container, at, f"{keypath}.address",
                         f"{resolver.endpoint} is listed twice (also {endpoints[key]})")
            continue
        seen[resolver.name] = i
        endpoints[key] = resolver.name
        out.append(resolver)
    problems.raise_if_any()
    return tuple(out)


def _from_ansible(top: dict[str, Any], folder: Path, problems: Problems) -> list[tuple[Any, str, Any, Any]]:
    """`from_ansible: {inventory, group, defaults}`: one entry per host of the group, read with
    Ansible's own inventory loader (dns/ansible_inventory.py), checked as any other entry."""
    spec = check_mapping(top["from_ansible"], "from_ansible", {"inventory", "group", "defaults"}, problems,
                         top, "from_ansible")
    if spec is None:
        return []
    inventory, group, defaults = spec.get("inventory"), spec.get("group"), spec.get("defaults", {})
    wanted = (("inventory", inventory, str), ("group", group, str), ("defaults", defaults, dict))
    for key, value, want in wanted:
        if not isinstance(value, want):
            problems.add(spec, key if key in spec else None, f"from_ansible.{key}",
                         f"expected {'a mapping' if want is dict else 'a string'}, got {shown(value)}")
    if not isinstance(inventory, str) or not isinstance(group, str) or not isinstance(defaults, dict):
        return []
    defaults = {str(k): v for k, v in defaults.items()}
    unknown = sorted(set(defaults) - _RESOLVER_KEYS)
    if unknown:
        problems.add(defaults, unknown[0], f"from_ansible.defaults.{unknown[0]}",
                     f"unknown key (known: {', '.join(sorted(_RESOLVER_KEYS))})")
        return []
    out = []
    for host, values in hosts_of((folder / inventory).resolve(), group, problems.file):
        entry, why = resolver_entry(host, values, defaults)
        keypath = f"from_ansible[{host}]"
        for message in why:
            problems.add(spec, "inventory", keypath, message)
        if not why:
            out.append((entry, keypath, spec, "group"))
    return out


def _resolver(entry: Any, keypath: str, container: Any, at: Any, site_names: set[str] | None,
              problems: Problems) -> Resolver | None:
    if check_mapping(entry, keypath, _RESOLVER_KEYS, problems, container, at) is None:
        return None
    start = len(problems.items)

    def bad(key: str, message: str) -> None:
        problems.add(entry, key if key in entry else None, f"{keypath}.{key}", message)

    name = entry.get("name")
    if _label(name, "resolver name"):
        bad("name", _label(name, "resolver name") or "")
    address = parse_address(entry["address"]) if isinstance(entry.get("address"), str) else None
    if address is None:
        bad("address", f"invalid address {shown(entry.get('address'))}")
    port = entry.get("port", 53)
    if not isinstance(port, int) or isinstance(port, bool) or not 1 <= port <= 65535:
        bad("port", f"expected a port number 1-65535, got {shown(port)}")
    if entry.get("backend", "dnsmasq") != "dnsmasq":
        bad("backend", f"unsupported backend {shown(entry.get('backend'))} (supported: dnsmasq)")
    target = entry.get("target", "local")
    if not isinstance(target, str) or not (target == "local" or SSH_TARGET.match(target)):
        bad("target", f"expected local or ssh://user@host[:port], got {shown(target)}")
    folders = {}
    for key in ("snippet_dir", "backup_dir"):
        value = entry.get(key)
        if not isinstance(value, str) or not value.startswith("/") or _UNSAFE.search(value) \
                or ".." in PurePosixPath(value).parts:
            bad(key, f"expected an absolute folder path, got {shown(value)}")
        else:
            folders[key] = str(PurePosixPath(value))
    if len(folders) == 2:
        snippet, backup = PurePosixPath(folders["snippet_dir"]), PurePosixPath(folders["backup_dir"])
        if backup == snippet or snippet in backup.parents:
            bad("backup_dir", "must lie outside snippet_dir (dnsmasq would load the backups)")
    commands = {}
    for key in ("test", "reload"):
        value = entry.get(key)
        if not isinstance(value, list) or not value or not all(
                isinstance(a, str) and a and not _UNSAFE.search(a) for a in value):
            bad(key, "expected a command as a list of arguments, e.g. [systemctl, restart, dnsmasq]")
        else:
            commands[key] = tuple(value)
    sites = _names(entry, "sites", site_names, bad, default=tuple(sorted(site_names or ())))
    dhcp = _names(entry, "dhcp", set(sites) if site_names is not None else None, bad, default=sites)
    ssh_config = entry.get("ssh_config")
    if ssh_config is not None and (not isinstance(ssh_config, str) or _UNSAFE.search(ssh_config)):
        bad("ssh_config", f"expected a file path, got {kind(ssh_config)}")
    sudo = entry.get("sudo", False)
    if not isinstance(sudo, bool):
        bad("sudo", f"expected true or false, got {shown(sudo)}")
    conf_file = entry.get("conf_file")
    if conf_file is not None and (not isinstance(conf_file, str) or not conf_file.startswith("/")
                                  or _UNSAFE.search(conf_file)):
        bad("conf_file", f"expected an absolute file path, got {shown(conf_file)}")
    python = entry.get("python")
    if python is not None and (not isinstance(python, str) or not python.startswith("/")
                               or _UNSAFE.search(python)):
        bad("python", f"expected an absolute file path, got {shown(python)}")
    check_layout = entry.get("check_layout", True)
    if not isinstance(check_layout, bool):
        bad("check_layout", f"expected true or false, got {shown(check_layout)}")
    timeout = entry.get("timeout", 2.0)
    if isinstance(timeout, bool) or not isinstance(timeout, int | float) or not 0 < timeout <= 60:
        bad("timeout", f"expected seconds between 0 and 60, got {shown(timeout)}")
    if len(problems.items) > start:
        return None
    assert address is not None
    return Resolver(name, address, port, target, folders["snippet_dir"], folders["backup_dir"],
                    commands["test"], commands["reload"], sites, dhcp, ssh_config, sudo, float(timeout),
                    check_layout, conf_file, python)


def _names(entry: dict[str, Any], key: str, known: set[str] | None, bad: Any,
           default: tuple[str, ...]) -> tuple[str, ...]:
    if key not in entry:
        return default
    value = entry[key]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        bad(key, f"expected a list of site names, got {kind(value)}")
        return ()
    unknown = [v for v in value if known is not None and v not in known]
    if unknown:
        bad(key, f"unknown site {', '.join(map(repr, unknown))} (known: {', '.join(sorted(known or ()))})")
        return ()
    return tuple(dict.fromkeys(value))
