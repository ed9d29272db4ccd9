"""Resolver configuration and hosts files: plain text whose host names are DNS names.

DNS names are case-insensitive (RFC 4343): in `/etc/hosts`, a dnsmasq or an Unbound
configuration, `ANA-ML2` is the host `ana-ml2`, and a sweep that rewrote its address but not
its name would point the old name at the new address. These files are claimed by name (they
have no content signature a first pass could test cheaply); a zone file is claimed by its
content (formats/zone.py) and reads host names the same way (`dns_names`).
"""

from __future__ import annotations

from renamer.formats.text import Text

# `hosts` and its usual siblings (hosts.allow is no hosts file: tcp-wrappers' rules).
_HOSTS = frozenset({"hosts", "hosts.local", "hosts.dnsmasq"})
_FOLDERS = ("dnsmasq.d/", "unbound.conf.d/", "unbound/", "dnsmasq/")


class DnsConfig(Text):
    name = "dns"  # text rules in every other respect
    dns_names = True

    def claims(self, path: str, name: str, data: bytes) -> bool:
        lowered, folder = name.lower(), f"/{path.lower()}"
        if lowered in _HOSTS or lowered.endswith(".hosts"):
            return True
        if lowered.startswith(("dnsmasq", "unbound")) and (lowered.endswith(".conf") or "." not in lowered):
            return True
        return lowered.endswith(".conf") and any(f"/{part}" in folder for part in _FOLDERS)


FORMAT = DnsConfig()
