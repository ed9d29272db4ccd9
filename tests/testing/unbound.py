"""A real Unbound on a loopback port that forwards a lab's domains to its dnsmasq resolvers: the
resolver a client at the new site actually asks (Pi-hole + Unbound, an OPNsense domain override).

Every packet stays on loopback: `.` goes to an empty dnsmasq of its own (a stand-in for the
internet's resolvers, answering nothing), never to the root servers.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

from dns import message as dns_message
from dns import query as dns_query
from dns import rcode as dns_rcode
from dns import rdatatype as dns_rdatatype
from renamer.dns.dnsmasq import sandbox


def unbound_binary() -> str:
    found = shutil.which("unbound") or next((p for p in ("/usr/sbin/unbound",) if os.path.exists(p)), None)
    if found is None:
        raise FileNotFoundError("unbound is not installed (Debian: apt-get install unbound)")
    return found


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
            _terminate(self.pid)
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
    return Forwarder(folder, address, port, upstream, _wait_for_pid(folder / "unbound.pid"))


def _wait_for_pid(pid_file: Path, timeout: float = 10.0) -> int | None:
    """The daemon's pid once its pid file holds one. Unbound's parent returns before the daemon
    writes the file: a stop that read it too early found nothing, killed nothing, and the
    forwarder a test had "stopped" went on answering (a plan then saw it up, on a loaded CI)."""
    end = time.monotonic() + timeout
    while True:
        with contextlib.suppress(OSError, ValueError):
            return int(pid_file.read_text().strip())
        if time.monotonic() >= end:
            return None
        time.sleep(0.02)


def _terminate(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGTERM)
    end = time.monotonic() + 5
    while time.monotonic() < end and sandbox._alive(pid):  # a zombie counts as gone
        time.sleep(0.02)
    if sandbox._alive(pid):
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)


def ask(forwarder: Forwarder, name: str, rdtype: str = "A") -> tuple[str, tuple[str, ...]]:
    """(rcode, each answer record as `TYPE value`) of one question to the forwarder, over DNS."""
    response = dns_query.udp(dns_message.make_query(name, rdtype), forwarder.address, port=forwarder.port,
                             timeout=3.0)
    records = tuple(f"{dns_rdatatype.to_text(rrset.rdtype)} {item}" for rrset in response.answer for item in rrset)
    return dns_rcode.to_text(response.rcode()), records


@dataclass(frozen=True)
class Resolver(sandbox.Instance):
    """A real Unbound holding a site's records (backend: unbound), on loopback: its unbound.conf
    includes `unbound.conf.d/*.conf` (renamer's snippet_dir), `.` is a static local zone (the
    stand-in for the internet knows nothing, so no packet ever leaves the process), and
    unbound-control answers on a loopback port without certificates."""

    control_port: int = 0
    backend: ClassVar[str] = "unbound"

    @property
    def conf(self) -> Path:
        return self.folder / "unbound.conf"

    @property
    def snippet_dir(self) -> Path:
        return self.folder / "unbound.conf.d"

    @property
    def pid_file(self) -> Path:
        return self.folder / "unbound.pid"

    def test_command(self) -> list[str]:
        return [shutil.which("unbound-checkconf") or "/usr/sbin/unbound-checkconf", str(self.conf)]

    def reload_command(self) -> list[str]:
        return [shutil.which("unbound-control") or "/usr/sbin/unbound-control", "-c", str(self.conf), "reload"]

    def stop(self) -> None:
        stop_resolver(self)


def server_lines(folder: Path, address: str, port: int) -> list[str]:
    return [
        "server:",
        f"  interface: {address}", f"  port: {port}", "  do-ip6: no", "  do-daemonize: yes",
        f'  directory: "{folder}"', f'  pidfile: "{folder / "unbound.pid"}"', '  chroot: ""',
        '  username: ""', "  use-syslog: no", f'  logfile: "{folder / "unbound.log"}"',
        "  num-threads: 1", "  so-reuseport: no", "  access-control: 127.0.0.0/8 allow",
        '  module-config: "iterator"',
        '  local-zone: "." static',  # every name it holds no data for: NXDOMAIN, never recursion
        "  do-not-query-address: 0.0.0.0/0",  # and should it ever recurse: no server to ask
        "  do-not-query-address: ::/0",
    ]


def create_resolver(folder: Path, address: str = "127.0.0.1") -> Resolver:
    resolver = Resolver(folder, address, sandbox.free_port(address), sandbox.free_port(address))
    resolver.snippet_dir.mkdir(parents=True, exist_ok=True)
    lines = [*server_lines(folder, address, resolver.port),
             f'include: "{resolver.snippet_dir}/*.conf"',
             "remote-control:", "  control-enable: yes", f"  control-interface: {address}",
             f"  control-port: {resolver.control_port}", "  control-use-cert: no"]
    resolver.conf.write_text("\n".join(lines) + "\n")
    return resolver


def start_resolver(resolver: Resolver) -> None:
    done = subprocess.run([unbound_binary(), "-c", str(resolver.conf)], capture_output=True, text=True,
                          check=False)
    if done.returncode != 0:
        raise RuntimeError(f"unbound failed to start: {done.stderr.strip()}")
    _wait_for_pid(resolver.pid_file)


def stop_resolver(resolver: Resolver) -> None:
    pid = _wait_for_pid(resolver.pid_file, timeout=0.5)  # started and waited for: it is there, or gone
    if pid is not None:
        _terminate(pid)
