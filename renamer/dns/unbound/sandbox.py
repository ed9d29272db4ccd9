"""A real Unbound on a loopback port, in a folder, holding a site's records (backend: unbound):
for `renamer demo`'s mixed fleet and the tests.

The folder holds unbound.conf: listening address and port, no daemon user or chroot, `.` a
static local zone (every name it holds no data for is NXDOMAIN: no packet ever leaves the
process), `include: <folder>/unbound.conf.d/*.conf` (renamer's snippet_dir) and
unbound-control on a loopback port without certificates (the resolver's `reload`).
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

from renamer.dns.dnsmasq import sandbox


def unbound_binary() -> str:
    found = shutil.which("unbound") or next((p for p in ("/usr/sbin/unbound",) if os.path.exists(p)), None)
    if found is None:
        raise FileNotFoundError("unbound is not installed (Debian: apt-get install unbound)")
    return found


def wait_for_pid(pid_file: Path, timeout: float = 10.0) -> int | None:
    """The daemon's pid once its pid file holds one (None after `timeout`). Unbound's parent
    returns before the daemon writes the file: a stop that read it too early would kill nothing,
    and a resolver said to be stopped would go on answering."""
    end = time.monotonic() + timeout
    while True:
        with contextlib.suppress(OSError, ValueError):
            return int(pid_file.read_text().strip())
        if time.monotonic() >= end:
            return None
        time.sleep(0.02)


def terminate(pid: int) -> None:
    """SIGTERM, then SIGKILL if it still runs 5 s later."""
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGTERM)
    end = time.monotonic() + 5
    while time.monotonic() < end and sandbox._alive(pid):  # a zombie counts as gone
        time.sleep(0.02)
    if sandbox._alive(pid):
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)


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
        control = shutil.which("unbound-control") or "/usr/sbin/unbound-control"
        return [control, "-c", str(self.conf), "reload"]

    def start(self) -> None:
        start_resolver(self)

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
    wait_for_pid(resolver.pid_file)


def stop_resolver(resolver: Resolver) -> None:
    pid = wait_for_pid(resolver.pid_file, timeout=0.5)  # started and waited for: it is there, or gone
    if pid is not None:
        terminate(pid)
