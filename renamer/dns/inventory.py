"""The DNS inventory's values: sites, their hosts, resolvers, and the Inventory of them.

dns/load.py reads them from dns/resolvers.yaml and dns/sites/*.yaml (dns/sites.py and
dns/resolvers.py check each entry). Every value that reaches a rendered snippet or a
command line is checked there, before anything is written anywhere: names are plain DNS
labels, so no value can carry a newline, a comma or a `#` into the snippet.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from renamer import lazy_re
from renamer.errors import ConfigError
from renamer.formats.yaml_source import kind, shown
from renamer.names import IPAddress, IPNetwork, address_like

LABEL = lazy_re.compile(r"(?!-)[a-z0-9-]{1,63}(?<!-)\Z")
SSH_TARGET = lazy_re.compile(r"ssh://(?:(?P<user>[a-z_][a-z0-9_.-]{0,31})@)?"
                        r"(?P<host>[A-Za-z0-9][A-Za-z0-9.-]*|\[[0-9a-fA-F:]+\])(?::(?P<port>\d{1,5}))?\Z")
UNSAFE = lazy_re.compile(r"[\n\r\0]")
BackendName = Literal["dnsmasq", "unbound", "bind", "powerdns"]  # the keys of dns/backend.py BACKENDS
BACKEND_NAMES: tuple[BackendName, ...] = ("dnsmasq", "unbound", "bind", "powerdns")  # the first: the default
# The keys of an API backend's resolver entry (powerdns): ApiSettings below. A file backend refuses them.
API_KEYS = frozenset({"api", "api_key_file", "api_key_env", "server_id", "allow_unchanged_serial"})
# Keys that would hold a secret itself: refused for every backend, the value never repeated.
SECRET_KEYS = frozenset({"api_key", "api-key", "key", "password", "token"})
NOT_SHOWN = "(the value is not repeated here)"
SECRET_REFUSED = ("the API key never goes in the inventory (it is committed and shared): name a file "
                  f"(api_key_file) or an environment variable (api_key_env) {NOT_SHOWN}")
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
    # a dual-stack host's IPv6 address (`address: [IPv4, IPv6]`); its `address` is then the IPv4
    address6: IPAddress | None = None
    # `transition: 30d`: how long after the cutover its old names stay CNAMEs to it (over
    # renamer.yaml's options.dns_transition); None: that option's, if any
    transition: dt.timedelta | None = None

    @property
    def addresses(self) -> tuple[IPAddress, ...]:
        """Its addresses, IPv4 first: one, or one of each family."""
        return (self.address,) if self.address6 is None else (self.address, self.address6)

    def warning_text(self) -> str | None:
        if self.warning:
            return self.warning
        return BMC_WARNING if self.role == "bmc" else None


@dataclass(frozen=True)
class Transitional:
    """An old name kept as a CNAME to its host's new FQDN until `expires` (dns/transition.py): a
    label of the site whose domain it lived in (its `retired:` name, or renamer.yaml's old FQDN)."""

    name: str  # one label, in the domain of the site that holds it
    fqdn: str  # name.domain
    target: str  # the new host's FQDN, no final dot
    host: str  # the new host's name
    addresses: tuple[IPAddress, ...]  # the new host's (a backend that writes no CNAME serves these)
    expires: dt.datetime  # aware, UTC: the cutover's 00:00 UTC plus the transition
    served: bool  # before `expires` (by the clock the command read): served; after: retired
    why: str  # where the window comes from: `options.dns_transition 30d` or `<site file>: transition 30d`
    target_site: str = ""  # the new host's site (a resolver that does not serve it holds no address for it)


@dataclass(frozen=True)
class Site:
    name: str
    domain: str
    network: IPNetwork
    hosts: tuple[Host, ...]
    retired: tuple[str, ...]
    source: str
    # true: the resolvers answer for the whole domain (a local zone), NXDOMAIN for any name
    # they do not hold. False (the default): names they do not hold are still forwarded.
    authoritative: bool = False
    # the IPv6 prefix of a dual-stack site (`network: [IPv4, IPv6]`); its `network` is the IPv4 one
    network6: IPNetwork | None = None
    # old names of its domain still served as CNAMEs to their new FQDN (dns/transition.py): only
    # those within their window; an expired one is a retired name like any other
    transitional: tuple[Transitional, ...] = ()

    @property
    def networks(self) -> tuple[IPNetwork, ...]:
        return (self.network,) if self.network6 is None else (self.network, self.network6)

    def fqdn(self, name: str) -> str:
        return f"{name}.{self.domain}"


@dataclass(frozen=True)
class ApiSettings:
    """Where an API backend's server is and where its key is read (never the key itself):
    dns/powerdns/config.py checks the entry's keys."""

    url: str  # http(s)://HOST:PORT, no final slash
    server_id: str = "localhost"
    key_file: str | None = None  # an absolute path on the machine running renamer
    key_env: str | None = None  # an environment variable's name
    # a primary zone whose soa_edit_api is empty is written to anyway (its SOA serial stays):
    # the operator's choice, never renamer's (powerdns/backend.py, finding 08 of DNS break-it round 2)
    allow_unchanged_serial: bool = False

    @property
    def folder(self) -> str:
        """The resolver's snippet_dir: a virtual folder, the server's zones (nothing is a file there)."""
        root = self.url if self.url.endswith("/api/v1") else f"{self.url}/api/v1"
        return f"{root}/servers/{self.server_id}/zones"


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
    check_layout: bool = True  # prove before writing that the daemon reads snippet_dir (Backend.inspect)
    conf_file: str | None = None  # the daemon's main configuration; default: test's --conf-file
    python: str | None = None  # the interpreter the Ansible engine uses there; default: Ansible's choice
    backend: BackendName = "dnsmasq"  # what serves the records there (dns/backend.py BACKENDS)
    # dnsmasq's hostsdir=: the sites' addresses go there as hosts files, re-read without a restart
    hosts_dir: str | None = None
    # false: a resolver renamer never writes, locks, backs up or restarts, only asks over DNS
    # (the forwarder a site's clients use: `dns verify` proves the records reach them)
    manage: bool = True
    # an API backend's server (backend: powerdns); its snippet_dir is then ApiSettings.folder
    api: ApiSettings | None = None
    # the daemon's query log on its machine (`dns who-asks` reads it): log-queries to this file
    query_log: str | None = None
    # backup_dir as the inventory gives it, where other resolvers of the same machine give the same
    # one: backup_dir is then `<it>/<name>`, so each keeps its own lock, record and pending marker
    shared_backup_dir: str | None = None

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
    # every transitional alias, served or expired (dns plan and audit list them with their dates)
    transitions: tuple[Transitional, ...] = ()
    # the clock the transitions were judged by (dns/transition.py), None where none was read
    now: dt.datetime | None = None
    # renamer.yaml's old names a window was asked for that get none, each a line saying why (a new
    # value that is no host or alias of the inventory): `dns plan` and `audit` list them
    no_window: tuple[str, ...] = ()

    @property
    def managed(self) -> tuple[Resolver, ...]:
        return tuple(r for r in self.resolvers if r.manage)

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



def label_problem(value: Any, what: str) -> str | None:
    if not isinstance(value, str):
        return f"expected a {what}, got {kind(value)}"
    if not LABEL.match(value):
        return (f"invalid {what} {shown(value)}: one DNS label of lower-case letters, digits and '-' "
                "(no dots, spaces, commas, '#' or newlines)")
    return None


def name_problem(value: Any, what: str) -> str | None:
    """label_problem, for a name the resolvers serve or must not (a host, an alias, a retired
    name): also never one a client reads as an address (`12345`, `0x1f`: names.address_like)."""
    why = label_problem(value, what)
    if why is None and address_like(value):
        return (f"invalid {what} {shown(value)}: all digits (or hex, 0x...), it reads as an address, "
                "never a host name (RFC 1123 2.1, RFC 3696 2); give it a letter")
    return why
