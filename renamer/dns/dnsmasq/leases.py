"""dnsmasq's DHCP lease file, read as dnsmasq writes it (for `dns verify`'s DHCP checks)."""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass

DEFAULT_LEASE_FILE = "/var/lib/misc/dnsmasq.leases"  # LEASEFILE, as `dnsmasq --help` prints it


@dataclass(frozen=True)
class Lease:
    line: int
    expiry: int  # epoch seconds (or the lease length on HAVE_BROKEN_RTC builds)
    mac: str  # "" for a DHCPv6 lease: that field holds the IAID there
    address: str
    hostname: str  # "" where dnsmasq wrote *
    client_id: str  # "" where dnsmasq wrote *



def parse_leases(data: bytes) -> list[Lease]:
    """The leases in a dnsmasq lease file (src/lease.c lease_update_file / read_leases).

    IPv4: `<expiry> <mac> <ip> <hostname or *> <client-id or *>`; the `duid <server duid>`
    line, then IPv6: `<expiry> <[T]iaid> <ip6> <hostname or *> <client-id or *>`. As in
    read_leases, a line is IPv6 by its address, not by its position; `vendorclass` and
    `agent-info` extra lines and malformed lines are skipped."""
    leases = []
    for number, raw in enumerate(data.decode("utf-8", "replace").split("\n"), 1):
        fields = raw.split()
        if len(fields) < 5 or fields[0] in ("duid", "vendorclass", "agent-info"):
            continue
        expiry, second, address, hostname, client_id = fields[:5]
        try:
            version = ipaddress.ip_address(address).version
            seconds = int(expiry)
        except ValueError:
            continue
        leases.append(Lease(number, seconds, second if version == 4 else "", address,
                            "" if hostname == "*" else hostname, "" if client_id == "*" else client_id))
    return leases
