"""DHCP reservations, checked where they take effect: the configuration and the lease file.

A `dhcp-host` line that dnsmasq never reads hands out a pool address while DNS says the
pinned one; a stale lease keeps an old name alive on the network (dnsmasq answers a
lease's hostname in DNS). For each host with a `mac` on a resolver that serves its
site's DHCP, verify checks that the effective configuration holds its `dhcp-host` line,
and that the lease file (`dhcp-leasefile`, default /var/lib/misc/dnsmasq.leases) holds no
lease for an old or retired name and none for that MAC at another address.
"""

from __future__ import annotations

from renamer.dns.answers import Check, Expectation
from renamer.dns.dnsmasq.config import read_effective
from renamer.dns.dnsmasq.effective import Effective, reader_for
from renamer.dns.dnsmasq.layout import daemon_files
from renamer.dns.dnsmasq.leases import parse_leases
from renamer.dns.dnsmasq.syntax import bare_mac, dhcp_host_fields
from renamer.dns.inventory import Inventory, Resolver
from renamer.dns.transport import Transport, TransportError
from renamer.names import parse_address

DHCP = "DHCP"


def dhcp_checks(inventory: Inventory, resolver: Resolver, transport: Transport) -> list[Check]:
    hosts = [(site, host) for site in inventory.sites if site.name in resolver.dhcp
             for host in site.hosts if host.mac]
    if not hosts:
        return []
    main, extra, options = daemon_files(resolver, transport)
    effective = read_effective(reader_for(transport), main, extra=extra, options=options)
    out = [_reservation(effective, host.name, host.mac or "", [str(a) for a in host.addresses])
           for _, host in hosts]
    path = effective.lease_file()
    try:
        data = transport.read(path)
    except TransportError as exc:
        label = Expectation(f"leases {path}", path, DHCP, ("readable",))
        return [*out, Check(label, str(exc), False)]
    leases = parse_leases(data or b"")
    gone = {n.lower() for n in inventory.old_hosts}
    for site in inventory.sites:
        gone |= {n for name in site.retired for n in (name, site.fqdn(name))}
    for lease in leases:
        shown = f"{path}:{lease.line}: {lease.mac} {lease.address} {lease.hostname}"
        if lease.hostname.lower() in gone:
            label = Expectation(f"lease of {lease.hostname}", lease.hostname, DHCP, ("no lease",))
            out.append(Check(label, shown, False))
        for _, host in hosts:
            pinned = [str(a) for a in host.addresses]
            if lease.mac and lease.mac.lower() == (host.mac or "").lower() and lease.address not in pinned:
                label = Expectation(f"lease of {host.mac} ({host.name})", host.name, DHCP, tuple(pinned))
                out.append(Check(label, shown, False))
    return out


def _reservation(effective: Effective, name: str, mac: str, addresses: list[str]) -> Check:
    label = Expectation(f"dhcp-host {name}", name, DHCP, (",".join([mac, *addresses]),))
    found = None
    for directive in effective.values("dhcp-host"):
        parts = dhcp_host_fields(directive.value)
        if not any(bare_mac(p) == mac.lower() for p in parts):
            continue
        if all(a.lower() in parts for a in addresses):
            found = found or directive
        elif any(parse_address(p) is not None for p in parts):
            # dnsmasq hands out whichever line for the MAC it read first: not proved to be ours
            return Check(label, f"{directive.file}:{directive.line} reserves {mac} for another address too "
                                f"(dhcp-host={directive.value})", False)
    if found is not None:
        return Check(label, f"{found.file}:{found.line}", True)
    return Check(label, "no dhcp-host line in the configuration dnsmasq reads", False)
