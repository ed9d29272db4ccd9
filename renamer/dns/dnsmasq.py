"""Render a site's dnsmasq snippet for one resolver: pure and deterministic."""

from __future__ import annotations

import textwrap

from renamer.dns.inventory import Inventory, Resolver, Site
from renamer.errors import ConfigError

PREFIX = "renamer-"


def snippet_name(site: Site) -> str:
    """The file name in snippet_dir. Site names are plain labels: no path can escape."""
    return f"{PREFIX}{site.name}.conf"


def render_site(site: Site, resolver: Resolver | None = None) -> str:
    """The snippet for `site`; `dhcp-host` lines only where `resolver` serves DHCP for it."""
    dhcp = resolver is None or site.name in resolver.dhcp
    lines = [
        f"# Managed by renamer: site {site.name}, from {site.source}.",
        "# Do not edit: `renamer dns apply` overwrites this file. Change the inventory instead.",
        f"local=/{site.domain}/",
    ]
    for host in site.hosts:
        warning = host.warning_text()
        if warning:
            wrapped = textwrap.wrap(f"WARNING {host.name}: {warning}", width=76)
            lines += [f"# {wrapped[0]}"] + [f"#   {part}" for part in wrapped[1:]]
        lines.append(f"host-record={host.name},{site.fqdn(host.name)},{host.address}")
        if host.mac and dhcp:
            # dnsmasq reads an unbracketed IPv6 address there as a hardware address
            address = f"[{host.address}]" if host.address.version == 6 else str(host.address)
            lines.append(f"dhcp-host={host.mac},{address},{host.name}")
        for alias in host.aliases:
            lines.append(f"cname={alias},{site.fqdn(alias)},{host.name}")
    for line in lines:  # the inventory's grammar already refuses this: a second, independent guard
        if not line.isprintable():
            raise ConfigError(f"{site.source}: refusing to render a line with a control character: "
                              f"{line!r}")
    return "\n".join(lines) + "\n"


def render_resolver(inventory: Inventory, resolver: Resolver) -> dict[str, str]:
    """file name -> content, for every site the resolver serves."""
    return {snippet_name(site): render_site(site, resolver)
            for site in inventory.sites if site.name in resolver.sites}


RENDERED_KEYS = frozenset({"local", "host-record", "dhcp-host", "cname"})  # all render_site writes


def drift(snippet: str) -> list[str]:
    """Lines of a managed snippet that renamer never writes: someone edited it by hand, and an
    apply replaces them (the backup keeps them)."""
    return [line for line in snippet.splitlines()
            if line.strip() and not line.startswith("#") and line.partition("=")[0] not in RENDERED_KEYS]


def host_records(snippet: str) -> list[tuple[list[str], str]]:
    """(names, address) of each host-record line in a snippet."""
    out = []
    for line in snippet.splitlines():
        key, _, value = line.partition("=")
        parts = value.split(",")
        if key == "host-record" and len(parts) >= 2:
            out.append((parts[:-1], parts[-1]))
    return out


def records(snippet: str) -> dict[str, str]:
    """name -> what it points at, from a snippet's record lines (for plan summaries)."""
    out: dict[str, str] = {}
    for names, address in host_records(snippet):
        for name in names:
            out[name] = f"A {address}"
    for line in snippet.splitlines():
        key, _, value = line.partition("=")
        parts = value.split(",")
        if key == "cname" and len(parts) >= 2:
            for name in parts[:-1]:
                out[name] = f"CNAME {parts[-1]}"
        elif key == "dhcp-host" and len(parts) >= 3:
            out[f"dhcp:{parts[2]}"] = f"DHCP {parts[0]} {parts[1]}"
        elif key in ("address", "server", "ptr-record", "txt-record", "srv-host", "mx-host"):
            out[f"{key}:{value}"] = line  # a line renamer never writes (drift): counted too
    return out
