"""A real BIND 9 (`named -g`) on a loopback port, holding the zones renamer writes (backend: bind).

No recursion, no forwarders, no root hints: it answers only the zones its named.conf declares
(REFUSED for every other name), so no packet leaves loopback. rndc reaches it on a loopback
control port with a key the lab writes; named runs as the tests' own process.
"""

from __future__ import annotations

import base64
import contextlib
import os
import secrets
import shutil
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

from dns import exception as dns_exception
from dns import message as dns_message
from dns import query as dns_query
from renamer.dns.dnsmasq import sandbox

_RUNNING: dict[Path, subprocess.Popen[bytes]] = {}  # folder -> its named, waited for by stop_resolver


def binary(name: str) -> str:
    found = shutil.which(name) or next((p for p in (f"/usr/sbin/{name}", f"/usr/bin/{name}")
                                        if os.path.exists(p)), None)
    if found is None:
        raise FileNotFoundError(f"{name} is not installed (Debian: apt-get install bind9 bind9-utils)")
    return found


@dataclass(frozen=True)
class Resolver(sandbox.Instance):
    control_port: int = 0
    backend: ClassVar[str] = "bind"

    @property
    def conf(self) -> Path:
        return self.folder / "named.conf"

    @property
    def snippet_dir(self) -> Path:
        return self.folder / "named.d"

    @property
    def pid_file(self) -> Path:
        return self.folder / "named.pid"

    @property
    def key_file(self) -> Path:
        return self.folder / "rndc.key"

    def test_command(self) -> list[str]:
        return [binary("named-checkconf"), "-z", str(self.conf)]

    def reload_command(self) -> list[str]:
        return [binary("rndc"), "-k", str(self.key_file), "-s", self.address, "-p", str(self.control_port),
                "reload"]

    def start(self) -> None:
        start_resolver(self)

    def stop(self) -> None:
        stop_resolver(self)


def conf_lines(resolver: Resolver) -> list[str]:
    folder = resolver.folder
    return [
        "options {",
        f'  directory "{folder}";', f'  pid-file "{resolver.pid_file}";',
        f'  session-keyfile "{folder}/session.key";', f'  managed-keys-directory "{folder}";',
        f"  listen-on port {resolver.port} {{ {resolver.address}; }};", "  listen-on-v6 { none; };",
        "  recursion no;", "  dnssec-validation no;", "  notify no;", '  version "none";',
        "};",
        f'include "{resolver.key_file}";',
        f"controls {{ inet {resolver.address} port {resolver.control_port} allow {{ {resolver.address}; }} "
        'keys { "rndc-key"; }; };',
    ]


def create_resolver(folder: Path, address: str = "127.0.0.1", include: bool = True) -> Resolver:
    """named.conf for a named on loopback; `include`: it includes renamer's zones file (empty
    until an apply writes it, so named starts)."""
    resolver = Resolver(folder, address, sandbox.free_port(address), sandbox.free_port(address))
    resolver.snippet_dir.mkdir(parents=True, exist_ok=True)
    secret = base64.b64encode(secrets.token_bytes(32)).decode()
    resolver.key_file.write_text(f'key "rndc-key" {{ algorithm hmac-sha256; secret "{secret}"; }};\n')
    lines = conf_lines(resolver)
    if include:
        zones = resolver.snippet_dir / "renamer-zones.conf"
        zones.touch()
        lines.append(f'include "{zones}";')
    resolver.conf.write_text("\n".join(lines) + "\n")
    return resolver


def start_resolver(resolver: Resolver) -> None:
    log = (resolver.folder / "named.log").open("ab")
    process = subprocess.Popen([binary("named"), "-g", "-c", str(resolver.conf)], stdout=log, stderr=log,
                               stdin=subprocess.DEVNULL, start_new_session=True)
    log.close()
    _RUNNING[resolver.folder] = process
    end = time.monotonic() + 15
    while time.monotonic() < end:
        if process.poll() is not None:
            raise RuntimeError(f"named failed to start: {(resolver.folder / 'named.log').read_text()[-2000:]}")
        try:
            dns_query.udp(dns_message.make_query("version.bind.", "TXT", "CH"), resolver.address,
                          port=resolver.port, timeout=0.2)
            if resolver.pid_file.exists():
                return
        except (dns_exception.Timeout, OSError):
            pass
        time.sleep(0.05)
    process.kill()
    process.wait()
    raise RuntimeError("named did not answer within 15 s")


def stop_resolver(resolver: Resolver) -> None:
    process = _RUNNING.pop(resolver.folder, None)
    if process is not None:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        return
    with contextlib.suppress(OSError, ValueError):  # one started elsewhere
        pid = int(resolver.pid_file.read_text().strip())
        os.kill(pid, 15)
        end = time.monotonic() + 10
        while time.monotonic() < end and sandbox._alive(pid):
            time.sleep(0.02)
