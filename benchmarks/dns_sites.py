"""The large synthetic DNS site the DNS benchmarks write (bench_backends.py, bench_powerdns.py):
one place, so each measures the same kind of inventory.

Host n of `hosts` is `<prefix>n` at 10.60.<n // 250>.<n % 250 + 1> (an A and a PTR); every
`alias_every`-th host has an alias (a CNAME to its FQDN); with `ipv6_every`, every such host
also has 2001:db8:60::<n + 1> (an AAAA and an ip6.arpa PTR: the site then names both
networks); one retired name (`old-box`: verify asks that it resolves nowhere). `moved`: hosts
whose IPv4 address is another one (10.60.200.<n % 250 + 1>): a change of one host's A and PTR.
"""

from __future__ import annotations

from collections.abc import Collection

NETWORK4, NETWORK6 = "10.60.0.0/16", "2001:db8:60::/64"


def address(n: int, moved: Collection[int] = ()) -> str:
    return f"10.60.{200 if n in moved else n // 250}.{n % 250 + 1}"


def site_yaml(hosts: int, prefix: str = "host", alias_every: int = 5, ipv6_every: int = 0,
              moved: Collection[int] = ()) -> str:
    if hosts > 250 * 200:
        raise ValueError("at most 50,000 hosts: 10.60.200.0/24 is where moved hosts go")
    network = f"[{NETWORK4}, {NETWORK6}]" if ipv6_every else NETWORK4
    lines = ["site: big", "domain: big.lan", f"network: {network}", "hosts:"]
    for n in range(hosts):
        lines.append(f"  - name: {prefix}{n}")
        if ipv6_every and n % ipv6_every == 0:
            lines.append(f"    address: [{address(n, moved)}, 2001:db8:60::{n + 1:x}]")
        else:
            lines.append(f"    address: {address(n, moved)}")
        if alias_every and n % alias_every == 0:
            lines.append(f"    aliases: [alias{n}]")
    lines.append("retired: [old-box]")
    return "\n".join(lines) + "\n"

