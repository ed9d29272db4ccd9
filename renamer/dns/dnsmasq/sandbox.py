"""A real dnsmasq on a loopback port, in a folder: for `renamer demo` and the tests.

The folder holds dnsmasq.conf (listening address and port, no upstream, no
/etc/hosts, `domain-needed`, a pid file, and conf-dir=<folder>/dnsmasq.d,*.conf
as Debian's drop-in folder is loaded). `python -m renamer.dns.dnsmasq.sandbox restart
FOLDER` is the resolver's `reload`: dnsmasq re-reads host-record, cname and
dhcp-host lines only on a restart, not on SIGHUP.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar


@dataclass(frozen=True)
class Instance:
    folder: Path
    address: str
    port: int
    backend: ClassVar[str] = "dnsmasq"  # resolvers.yaml's `backend:` for it

    @property
    def conf(self) -> Path:
        return self.folder / "dnsmasq.conf"

    @property
    def snippet_dir(self) -> Path:
        return self.folder / "dnsmasq.d"

    @property
    def pid_file(self) -> Path:
        return self.folder / "dnsmasq.pid"

    def test_command(self) -> list[str]:
        return [dnsmasq_binary(), "--test", f"--conf-file={self.conf}"]

    def reload_command(self) -> list[str]:
        return [sys.executable, "-m", "renamer.dns.dnsmasq.sandbox", "restart", str(self.folder)]

    def start(self) -> None:
        start(self.folder)

    def stop(self) -> None:
        stop(self.folder)


def dnsmasq_binary() -> str:
    found = shutil.which("dnsmasq") or next(
        (p for p in ("/usr/sbin/dnsmasq", "/sbin/dnsmasq") if os.path.exists(p)), None)
    if found is None:
        raise FileNotFoundError("dnsmasq is not installed (Debian: apt-get install dnsmasq-base)")
    return found


def free_port(address: str = "127.0.0.1") -> int:
    """A port free for both UDP and TCP on `address`, picked below the kernel's ephemeral range
    where it can: every outgoing connection and DNS query takes its source port from that range,
    so a port found free there could be taken by one before the daemon binds it (a test's
    dnsmasq once failed so, "Address already in use"). Never the same port twice in one process:
    nothing is bound between two calls, so a resolver's DNS and control ports once came out equal
    (unbound: "can't bind socket ... port 27469" then "cannot open control interface ... 27469")."""
    low = _ephemeral_low()
    if low > _LOWEST + 1000:
        pick = random.SystemRandom()
        for _ in range(200):
            port = pick.randrange(_LOWEST, low)
            if port not in _HANDED_OUT and _bindable(address, port) and _reserve(port):
                _HANDED_OUT.add(port)
                return port
    for _ in range(50):
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as udp:
            udp.bind((address, 0))
            port = int(udp.getsockname()[1])
            with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as tcp:
                try:
                    tcp.bind((address, port))
                except OSError:
                    continue
            if port in _HANDED_OUT or not _reserve(port):
                continue
            _HANDED_OUT.add(port)
            return port
    raise OSError("no free port found")


def _reserve(port: int) -> bool:
    """Claim `port` for this process against every other process of this user that picks ports
    here (the test suite's parallel workers each start daemons): a file per port in a private
    folder, naming the pid that holds it. Two workers once picked the same free port, one's
    dnsmasq bound it first, the other's failed ("Address already in use"). A claim whose process
    has ended is taken over; where the folder cannot be used, the port is taken unclaimed."""
    folder = Path(tempfile.gettempdir()) / f"renamer-ports-{os.getuid()}"
    try:
        folder.mkdir(mode=0o700, exist_ok=True)
        if folder.is_symlink() or folder.stat().st_uid != os.getuid():
            return True
    except OSError:
        return True
    claim = folder / str(port)
    for _ in range(2):
        try:
            fd = os.open(claim, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
        except FileExistsError:
            try:
                holder = int(claim.read_text() or "-1")  # -1: its pid not written yet
            except (OSError, ValueError):
                holder = 0
            if holder < 0 or holder == os.getpid() or (holder and _alive(holder)):
                return False
            with contextlib.suppress(OSError):
                claim.unlink()
            continue
        except OSError:
            return True
        with os.fdopen(fd, "w") as out:
            out.write(str(os.getpid()))
        return True
    return False


_HANDED_OUT: set[int] = set()  # ports this process was given: a daemon may not have bound them yet


_LOWEST = 10000  # below this, the well-known and registered services people run


def _ephemeral_low() -> int:
    """The first port of Linux's ephemeral range (32768 by default); 0 where it is unknown."""
    try:
        return int(Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return 0


def _bindable(address: str, port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as udp, \
            socket.socket(socket.AF_INET, socket.SOCK_STREAM) as tcp:
        try:
            udp.bind((address, port))
            tcp.bind((address, port))
        except OSError:
            return False
    return True


def create(folder: Path, address: str = "127.0.0.1", port: int | None = None) -> Instance:
    instance = Instance(folder, address, port or free_port(address))
    instance.snippet_dir.mkdir(parents=True, exist_ok=True)
    lines = [
        f"listen-address={address}", f"port={instance.port}", "bind-interfaces",
        "no-resolv", "no-hosts", "domain-needed",
        f"pid-file={instance.pid_file}", f"conf-dir={instance.snippet_dir},*.conf",
    ]
    if os.geteuid() == 0:
        lines.append("user=root")  # no privilege drop: the sandbox folders stay readable
    instance.conf.write_text("\n".join(lines) + "\n")
    return instance


def create_forwarder(folder: Path, domains: list[str], networks: list[str],
                     upstreams: list[Instance], address: str = "127.0.0.1") -> Instance:
    """A dnsmasq that holds no records and forwards `domains` and the reverse zones of `networks`
    to `upstreams`: the forwarder a site's clients ask, which renamer never writes (manage:
    false). No cache, so it never answers from before a change."""
    instance = create(folder, address)
    lines = ["cache-size=0"]
    for upstream in upstreams:
        server = f"{upstream.address}#{upstream.port}"
        lines += [f"server=/{domain}/{server}" for domain in domains]
        lines += [f"rev-server={network},{server}" for network in networks]
    with instance.conf.open("a") as conf:
        conf.write("\n".join(lines) + "\n")
    return instance


def resolvers_yaml(instances: dict[str, Instance], backup_root: Path,
                   extra: dict[str, dict[str, object]] | None = None, timeout: float = 1.0,
                   asked: dict[str, Instance] | None = None) -> str:
    """A resolvers.yaml for `instances`, each with its own test and restart commands, then the
    `asked` ones (forwarders, `manage: false`)."""
    blocks = []
    for name, instance in instances.items():
        entry: dict[str, object] = {
            "name": name, "address": instance.address, "port": instance.port, "backend": instance.backend,
            "target": "local", "snippet_dir": str(instance.snippet_dir),
            "backup_dir": str(backup_root / name), "test": instance.test_command(),
            "reload": instance.reload_command(), "timeout": timeout, "conf_file": str(instance.conf),
        }
        entry.update((extra or {}).get(name, {}))
        # JSON is YAML: every value is quoted safely whatever the folder names hold.
        blocks.append("  - " + json.dumps(entry))
    for name, instance in (asked or {}).items():  # manage: false: only asked over DNS
        blocks.append("  - " + json.dumps({"name": name, "address": instance.address, "port": instance.port,
                                           "manage": False, "timeout": timeout}))
    return "resolvers:\n" + "\n".join(blocks) + "\n"


def start(folder: Path) -> None:
    conf = folder / "dnsmasq.conf"
    done = subprocess.run([dnsmasq_binary(), f"--conf-file={conf}"], capture_output=True, text=True,
                          check=False)
    if done.returncode != 0:
        raise RuntimeError(f"dnsmasq failed to start: {done.stderr.strip()}")


def stop(folder: Path, timeout: float = 5.0) -> None:
    pid_file = folder / "dnsmasq.pid"
    try:
        pid = int(pid_file.read_text().strip())
    except (OSError, ValueError):
        return
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGTERM)
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if not _alive(pid):
            break
        time.sleep(0.01)
    else:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
    with contextlib.suppress(OSError):
        pid_file.unlink()


def _alive(pid: int) -> bool:
    """Running, and not a zombie: a daemon's parent is init, which may not reap it at once."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:
        with open(f"/proc/{pid}/stat") as handle:
            return handle.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return True


def restart(folder: Path) -> None:
    stop(folder)
    start(folder)


def main(argv: list[str]) -> int:
    if len(argv) != 2 or argv[0] not in {"start", "stop", "restart"}:
        print("usage: python -m renamer.dns.dnsmasq.sandbox start|stop|restart FOLDER", file=sys.stderr)
        return 2
    action, folder = argv[0], Path(argv[1])
    try:
        {"start": start, "stop": stop, "restart": restart}[action](folder)
    except (RuntimeError, FileNotFoundError) as exc:
        print(f"sandbox: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
