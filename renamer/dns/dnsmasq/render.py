"""Render a site's dnsmasq snippet for one resolver: pure and deterministic."""

from __future__ import annotations

import hashlib
import posixpath
import textwrap

from renamer import lazy_re
from renamer.clock import shown_time
from renamer.dns.inventory import Inventory, Resolver, Site
from renamer.dns.transport import OwnFiles
from renamer.errors import ConfigError
from renamer.names import parse_address

PREFIX = "renamer-"
SNIPPET = lazy_re.compile(r"renamer-[a-z0-9][a-z0-9_-]{0,62}\.conf")  # as snippet_name names them
# A snippet's temporary file while it is written: atomic.write_atomic's `.NAME.XXXXXXXX.tmp`
# here, mktemp's `.NAME.XXXXXX` over ssh.
LEFTOVER = lazy_re.compile(r"\.renamer-[a-z0-9][a-z0-9_-]{0,62}\.conf\.[A-Za-z0-9_]{6,12}(?:\.tmp)?")
FILES = OwnFiles(SNIPPET, "renamer-*.conf", LEFTOVER, ".renamer-*.conf.?????? .renamer-*.conf.????????.tmp")
# With a resolver's hosts_dir: the site's addresses as a hosts file there (dnsmasq's hostsdir=,
# re-read on change through inotify: no restart, no gap in answers).
HOSTS = lazy_re.compile(r"renamer-[a-z0-9][a-z0-9_-]{0,62}\.hosts")
HOSTS_LEFTOVER = lazy_re.compile(r"\.renamer-[a-z0-9][a-z0-9_-]{0,62}\.hosts\.[A-Za-z0-9_]{6,12}(?:\.tmp)?")
HOSTS_FILES = OwnFiles(HOSTS, "renamer-*.hosts", HOSTS_LEFTOVER,
                       ".renamer-*.hosts.?????? .renamer-*.hosts.????????.tmp")


def snippet_name(site: Site) -> str:
    """The file name in snippet_dir. Site names are plain labels: no path can escape."""
    return f"{PREFIX}{site.name}.conf"


def hosts_name(site: Site) -> str:
    """The file name in a resolver's hosts_dir."""
    return f"{PREFIX}{site.name}.hosts"


def render_hosts(site: Site) -> str:
    """The site's addresses as a hosts file (A, AAAA and, from the first name, PTR)."""
    lines = [f"# Managed by renamer: site {site.name}, from {site.source}.",
             "# Do not edit: `renamer dns apply` overwrites this file. Change the inventory instead."]
    for host in site.hosts:
        warning = host.warning_text()
        if warning:
            wrapped = textwrap.wrap(f"WARNING {host.name}: {warning}", width=76)
            lines += [f"# {wrapped[0]}"] + [f"#   {part}" for part in wrapped[1:]]
        for address in host.addresses:  # one line each: a dual-stack host's A and AAAA, two PTRs
            lines.append(f"{address} {site.fqdn(host.name)} {host.name}")  # the FQDN first: the PTR
    for line in lines:
        if not line.isprintable():
            raise ConfigError(f"{site.source}: refusing to render a line with a control character: "
                              f"{line!r}")
    return "\n".join(lines) + "\n"


def render_site(site: Site, resolver: Resolver | None = None) -> str:
    """The snippet for `site`; `dhcp-host` lines only where `resolver` serves DHCP for it; no
    host-record where the resolver has a hosts_dir (render_hosts writes the addresses there)."""
    dhcp = resolver is None or site.name in resolver.dhcp
    in_hosts_file = resolver is not None and resolver.hosts_dir is not None
    lines = [
        f"# Managed by renamer: site {site.name}, from {site.source}.",
        "# Do not edit: `renamer dns apply` overwrites this file. Change the inventory instead.",
    ]
    if site.authoritative:  # NXDOMAIN for every other name of the domain, forwarded ones too
        lines.append(f"local=/{site.domain}/")
    for host in site.hosts:
        warning = host.warning_text()
        if warning and not in_hosts_file:
            wrapped = textwrap.wrap(f"WARNING {host.name}: {warning}", width=76)
            lines += [f"# {wrapped[0]}"] + [f"#   {part}" for part in wrapped[1:]]
        if not in_hosts_file:  # The FQDN first: dnsmasq's PTR answers the first name of a host-record.
            # A dual-stack host's two addresses on one line (IPv4, then IPv6): an A, an AAAA and
            # a PTR for each, all naming the FQDN.
            lines.append(f"host-record={site.fqdn(host.name)},{host.name},"
                         + ",".join(str(a) for a in host.addresses))
        if host.mac and dhcp:
            # dnsmasq reads an unbracketed IPv6 address there as a hardware address
            pinned = ",".join(f"[{a}]" if a.version == 6 else str(a) for a in host.addresses)
            lines.append(f"dhcp-host={host.mac},{pinned},{host.name}")
        for alias in host.aliases:
            # The target as an FQDN: a one-label target (`hq-nas.`) is NXDOMAIN to a client that
            # asks through a forwarding resolver (Pi-hole + Unbound, OPNsense), which forwards
            # only the site's domain here.
            lines.append(f"cname={alias},{site.fqdn(alias)},{site.fqdn(host.name)}")
    for moved in site.transitional:  # an old name, a CNAME to its new FQDN until its date (dns/transition.py)
        lines.append(f"# transitional until {shown_time(moved.expires)}: {moved.name}, renamed {moved.host}")
        lines.append(f"cname={moved.name},{moved.fqdn},{moved.target}")
    for line in lines:  # the inventory's grammar already refuses this: a second, independent guard
        if not line.isprintable():
            raise ConfigError(f"{site.source}: refusing to render a line with a control character: "
                              f"{line!r}")
    body = "\n".join(lines) + "\n"
    name, digest = canary(site, body)
    return body + f'# The canary: `renamer dns verify` asks for it to prove the resolver reads this file.\n' \
        f'txt-record={name},"{digest}"\n'


def canary(site: Site, body: str) -> tuple[str, str]:
    """(TXT name, value) that prove a resolver serves this very snippet: a digest of the rest."""
    return f"_renamer.{site.name}.{site.domain}", hashlib.sha256(body.encode()).hexdigest()[:16]


def canary_of(snippet: str) -> tuple[str, str] | None:
    """The (name, value) a rendered snippet carries, or None (an older renamer wrote it)."""
    for line in snippet.splitlines():
        if line.startswith(CANARY):
            name, _, value = line[len("txt-record="):].partition(",")
            return name, value.strip('"')
    return None


def render_resolver(inventory: Inventory, resolver: Resolver) -> dict[str, str]:
    """file name -> content, for every site the resolver serves; with a hosts_dir, also each
    site's hosts file, named by its absolute path there."""
    out = {snippet_name(site): render_site(site, resolver)
           for site in inventory.sites if site.name in resolver.sites}
    if resolver.hosts_dir is not None:
        out.update({posixpath.join(resolver.hosts_dir, hosts_name(site)): render_hosts(site)
                    for site in inventory.sites if site.name in resolver.sites})
    return out


RENDERED_KEYS = frozenset({"local", "host-record", "dhcp-host", "cname"})  # all render_site writes, and
CANARY = "txt-record=_renamer."  # its canary


def drift(snippet: str) -> list[str]:
    """Lines of a managed snippet that renamer never writes: someone edited it by hand, and an
    apply replaces them (the backup keeps them)."""
    return [line for line in snippet.splitlines()
            if line.strip() and not line.startswith(("#", CANARY))
            and line.partition("=")[0] not in RENDERED_KEYS]


def host_records(snippet: str) -> list[tuple[list[str], str]]:
    """(names, address) of each address of each host-record line in a snippet (a dual-stack
    line gives two), or of each line of a hosts file."""
    out = []
    for line in snippet.splitlines():
        key, _, value = line.partition("=")
        parts = value.split(",")
        if key == "host-record" and len(parts) >= 2:
            # host-record=<name>[,<name>...],[<IPv4>],[<IPv6>][,<TTL>]: the names end where the
            # addresses begin
            names = [p for p in parts if parse_address(p) is None and not p.isdigit()]
            out += [(names, p) for p in parts if parse_address(p) is not None]
        elif not value and not line.startswith("#") and len(words := line.split()) >= 2 \
                and (":" in words[0] or words[0][:1].isdigit()):  # ADDRESS NAME... (a hosts file)
            out.append((words[1:], words[0]))
    return out


def records(snippet: str) -> dict[str, str]:
    """name -> what it points at, from a snippet's record lines (for plan summaries)."""
    out: dict[str, str] = {}
    for names, address in host_records(snippet):
        # One key per name and family: a dual-stack host's AAAA is a record of its own, so adding
        # or dropping it is an add or a delete, and renumbering either address an update.
        v6 = ":" in address
        for name in names:
            out[f"{name} AAAA" if v6 else name] = f"{'AAAA' if v6 else 'A'} {address}"
    for line in snippet.splitlines():
        key, _, value = line.partition("=")
        parts = value.split(",")
        if key == "cname" and len(parts) >= 2:
            for name in parts[:-1]:
                out[name] = f"CNAME {parts[-1]}"
        elif key == "dhcp-host" and len(parts) >= 3:
            out[f"dhcp:{parts[2]}"] = f"DHCP {parts[0]} {parts[1]}"
        elif key in ("address", "server", "ptr-record", "txt-record", "srv-host", "mx-host") \
                and not line.startswith(CANARY):
            out[f"{key}:{value}"] = line  # a line renamer never writes (drift): counted too
    return out
