"""A real Unbound on a loopback port that forwards a lab's domains to its dnsmasq resolvers: the
resolver a client at the new site actually asks (Pi-hole + Unbound, an OPNsense domain override).

Every packet stays on loopback: `.` goes to an empty dnsmasq of its own (a stand-in for the
internet's resolvers, answering nothing), never to the root servers.
"""

from __future__ import annotations

import subprocess
from dataclasses import dataclass
from pathlib import Path

from dns import message as dns_message
from dns import query as dns_query
from dns import rcode as dns_rcode
from dns import rdatatype as dns_rdatatype
from renamer.dns.dnsmasq import sandbox
from renamer.dns.unbound.sandbox import (
    Resolver,
    create_resolver,
    server_lines,
    start_resolver,
    stop_resolver,
    terminate,
    unbound_binary,
    wait_for_pid,
)

# The sandbox's names, re-exported: the tests know them from here.
__all__ = ["Resolver", "create_resolver", "server_lines", "start_resolver", "stop_resolver", "terminate", "unbound_binary", "wait_for_pid"]


@dataclass
class Forwarder:
    folder: Path
    address: str
    port: int
    upstream: sandbox.Instance  # the stand-in for `.`
    pid: int | None = None  # read once it started: Unbound deletes its pid file as it stops

    @property
    def pid_file(self) -> Path:
        return self.folder / "unbound.pid"

    def stop(self) -> None:
        if self.pid is not None:
            terminate(self.pid)
        sandbox.stop(self.upstream.folder)


def reverse_zone(network: str) -> str:
    """The in-addr.arpa zone of a /8, /16 or /24 IPv4 network: 10.251.0.0/16 -> 251.10.in-addr.arpa."""
    address, length = network.split("/")
    octets = address.split(".")[: int(length) // 8]
    return ".".join(reversed(octets)) + ".in-addr.arpa"


def start_forwarder(folder: Path, zones: dict[str, list[tuple[str, int]]], address: str = "127.0.0.1") -> Forwarder:
    """Unbound on `address`, forwarding each zone (a domain, a reverse zone) to its servers."""
    folder.mkdir(parents=True, exist_ok=True)
    upstream = sandbox.create(folder / "internet", address)
    sandbox.start(upstream.folder)
    port = sandbox.free_port(address)
    lines = [
        "server:",
        f"  interface: {address}", f"  port: {port}", "  do-ip6: no", "  do-daemonize: yes",
        f'  directory: "{folder}"', f'  pidfile: "{folder / "unbound.pid"}"', '  chroot: ""',
        '  username: ""', "  use-syslog: no", f'  logfile: "{folder / "unbound.log"}"',
        "  num-threads: 1", "  so-reuseport: no", "  access-control: 127.0.0.0/8 allow",
        '  module-config: "iterator"',  # no DNSSEC validation: no trust anchor on loopback
        "  do-not-query-localhost: no",  # its upstreams are on 127.0.0.1
        '  local-zone: "10.in-addr.arpa." nodefault',  # Unbound answers RFC 1918 reverse zones itself
        '  local-zone: "home.arpa." nodefault',
        '  local-zone: "lan." nodefault',
        '  domain-insecure: "."',
        "remote-control:", "  control-enable: no",
    ]
    for zone, servers in {**zones, ".": [(upstream.address, upstream.port)]}.items():
        lines += ["forward-zone:", f'  name: "{zone}."' if zone != "." else '  name: "."']
        lines += [f"  forward-addr: {host}@{server_port}" for host, server_port in servers]
    conf = folder / "unbound.conf"
    conf.write_text("\n".join(lines) + "\n")
    done = subprocess.run([unbound_binary(), "-c", str(conf)], capture_output=True, text=True, check=False)
    if done.returncode != 0:
        sandbox.stop(upstream.folder)
        raise RuntimeError(f"unbound failed to start: {done.stderr.strip()}")
    return Forwarder(folder, address, port, upstream, wait_for_pid(folder / "unbound.pid"))


def ask(forwarder: Forwarder, name: str, rdtype: str = "A") -> tuple[str, tuple[str, ...]]:
    """(rcode, each answer record as `TYPE value`) of one question to the forwarder, over DNS."""
    response = dns_query.udp(dns_message.make_query(name, rdtype), forwarder.address, port=forwarder.port,
                             timeout=3.0)
    records = tuple(f"{dns_rdatatype.to_text(rrset.rdtype)} {item}" for rrset in response.answer for item in rrset)
    return dns_rcode.to_text(response.rcode()), records
