"""Resolver, DNS server and DHCP server configuration and hosts files: text whose host names are DNS names.

DNS names are case-insensitive (RFC 4343): in `/etc/hosts`, a dnsmasq or an Unbound
configuration, `ANA-ML2` is the host `ana-ml2`, and a sweep that rewrote its address but not
its name would point the old name at the new address. So in a DHCP server's: ISC dhcpd's
`host PUG { fixed-address ...; option host-name "PUG"; }` and a Kea reservation's
`"hostname": "PUG"` are the names DDNS registers at the reservation's address (break-it round 8,
finding 11), and in a DNS server's (BIND's named.conf, NSD, Knot, CoreDNS's Corefile, PowerDNS).
These files are claimed by name (they have no content signature a first pass could test
cheaply); a zone file is claimed by its content (formats/zone.py) and reads host names the same
way (`dns_names`). A Kea configuration written as `.json` keeps the JSON format, its names read
in any case all the same (`names_dns`).
"""

from __future__ import annotations

from renamer.formats.text import Text

# `hosts` and its usual siblings (hosts.allow is no hosts file: tcp-wrappers' rules).
_HOSTS = frozenset({"hosts", "hosts.local", "hosts.dnsmasq"})
_FOLDERS = ("dnsmasq.d/", "unbound.conf.d/", "unbound/", "dnsmasq/", "dhcp/", "dhcpd/", "dhcpd.d/", "kea/",
            "bind/", "named/", "named.conf.d/", "nsd/", "knot/", "coredns/", "powerdns/", "pdns/")
# Servers whose configuration is named after them: dhcpd.conf, dhcpd6.conf, kea-dhcp4.conf,
# kea-dhcp-ddns.conf, named.conf.local, nsd.conf, knot.conf, pdns.conf, recursor.conf.
_SERVERS = ("dnsmasq", "unbound", "dhcpd", "kea-dhcp", "named.conf", "nsd", "knot", "pdns", "recursor")


def names_dns(path: str) -> bool:
    """Are host names in the file at `path` DNS names, whatever its format (a Kea `.json` too)?"""
    name = path.rsplit("/", 1)[-1].lower()
    if name in _HOSTS or name.endswith(".hosts") or name == "corefile":
        return True
    if name.startswith(_SERVERS) and (name.endswith((".conf", ".json")) or "." not in name
                                      or name.startswith("named.conf")):
        return True
    folder = f"/{path.lower()}"
    return name.endswith(".conf") and any(f"/{part}" in folder for part in _FOLDERS)


class DnsConfig(Text):
    name = "dns"  # text rules in every other respect
    dns_names = True

    def claims(self, path: str, name: str, data: bytes) -> bool:
        return names_dns(path)


FORMAT = DnsConfig()
