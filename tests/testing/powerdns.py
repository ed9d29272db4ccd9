"""A real PowerDNS Authoritative (Debian's pdns-server, gsqlite3 backend) on loopback, its HTTP API
on a second loopback port: the tests' own process, no service, no packet off 127.0.0.1
(the security poll is off: it would ask the internet's DNS for the version's status)."""

from __future__ import annotations

import contextlib
import http.server
import json
import os
import shutil
import sqlite3
import subprocess
import tempfile
import threading
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from renamer.dns.dnsmasq import sandbox
from renamer.dns.powerdns.api import Client

SCHEMA = Path("/usr/share/doc/pdns-backend-sqlite3/schema.sqlite3.sql")  # Debian's pdns-backend-sqlite3
KEY = "renamer-test-key"


def lab_zones() -> list[str]:
    """The zones the shipped sites write (ana.lan., 250.10.in-addr.arpa., fv.lan., ...)."""
    from renamer.dns.load import load_sites
    from renamer.dns.powerdns import rrsets
    from renamer.shipped import shipped

    return sorted({zone for site in load_sites(shipped("dns")) for zone in rrsets.zones(site)})


def pdns_binary() -> str:
    found = shutil.which("pdns_server") or next((p for p in ("/usr/sbin/pdns_server",) if os.path.exists(p)), None)
    if found is None or not SCHEMA.exists():
        raise FileNotFoundError("pdns_server is not installed (Debian: apt-get install pdns-server "
                                "pdns-backend-sqlite3)")
    return found


@dataclass
class Server:
    folder: Path
    address: str
    port: int  # DNS
    api_port: int
    process: subprocess.Popen[bytes]
    log: BinaryIO
    sockets: Path  # a short folder of its own: a UNIX socket's path holds at most 107 bytes

    @property
    def url(self) -> str:
        return f"http://{self.address}:{self.api_port}"

    def client(self, server_id: str = "localhost") -> Client:
        return Client(self.url, KEY, server_id)

    def create_zone(self, zone: str) -> None:
        self.client().call("POST", "/zones", {"name": zone, "kind": "Native",
                                              "nameservers": [f"ns1.{zone}"]})

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.log.close()
        shutil.rmtree(self.sockets, ignore_errors=True)


def start(folder: Path, address: str = "127.0.0.1") -> Server:
    folder.mkdir(parents=True, exist_ok=True)
    database = folder / "pdns.sqlite3"
    with contextlib.closing(sqlite3.connect(database)) as db:
        db.executescript(SCHEMA.read_text())
    (folder / "pdns.conf").write_text("")  # every setting on the command line
    port, api_port = sandbox.free_port(address), sandbox.free_port(address)
    # the control socket in a short folder: under a test's tmp_path its path passed 107 bytes
    sockets = Path(tempfile.mkdtemp(prefix="pdns-"))
    argv = [pdns_binary(), f"--config-dir={folder}", f"--socket-dir={sockets}", "--guardian=no",
            "--daemon=no", "--disable-syslog", f"--local-address={address}", f"--local-port={port}",
            "--api=yes", f"--api-key={KEY}", "--webserver=yes", f"--webserver-address={address}",
            f"--webserver-port={api_port}", f"--webserver-allow-from={address}", "--launch=gsqlite3",
            f"--gsqlite3-database={database}", "--security-poll-suffix=", "--zone-cache-refresh-interval=0"]
    log = open(folder / "pdns.log", "wb")  # noqa: SIM115 (the daemon's for its lifetime)
    process = subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT)
    server = Server(folder, address, port, api_port, process, log, sockets)
    end = time.monotonic() + 15
    while time.monotonic() < end:
        if process.poll() is not None:
            raise RuntimeError(f"pdns_server exited: {(folder / 'pdns.log').read_text()[-2000:]}")
        try:
            request = urllib.request.Request(f"{server.url}/api/v1/servers/localhost", headers={"X-API-Key": KEY})
            with urllib.request.urlopen(request, timeout=1) as response:
                if json.loads(response.read()).get("daemon_type") == "authoritative":
                    return server
        except (urllib.error.URLError, OSError):
            time.sleep(0.1)
    server.stop()
    raise RuntimeError(f"pdns_server did not answer on {server.url}: {(folder / 'pdns.log').read_text()[-2000:]}")


class Proxy:
    """A loopback HTTP proxy in front of a server's API, the PowerDNS lab's fault hook (an API
    backend runs no `test` command a lab could break, and has no ssh target): every call is
    forwarded as it is, but a PATCH of RRsets as `mode` says:

    * "swallow": answered 204 and never forwarded (the server does not hold what renamer wrote:
      renamer's read-back, the backend's `test`, fails);
    * "fail": answered HTTP 500 (the PATCH itself fails); with `fail_at`, only the PATCHes of
      those numbers (1: the first), the others forwarded (a PATCH failing midway, on the second
      zone of an apply; and the first of its rollback);
    * "html": every request answered 200 with a login page (no PowerDNS API at that URL);
    * "hold": the first PATCH forwarded (the server holds it), its answer held until `stop`
      (an apply hanging midway, for the kill -9 and the two-applies cases); later ones pass;
      with `hold_after` N, the first request of any kind once N PATCHes were answered (an apply
      held after its writes, before it reads them back).

    `patches`: each PATCH asked for, in order: (its path, the status answered).

    `lock_delay`: seconds each answer to a GET of zone metadata (the X-RENAMER-LOCK) is held after
    the server gave it: what an apply reads of the lock is then that old when it acts on it (two
    applies racing for the lock, tests/dns/powerdns/test_lock_race.py)."""

    def __init__(self, upstream: str, mode: str, address: str = "127.0.0.1", lock_delay: float = 0.0,
                 fail_at: tuple[int, ...] = (), hold_after: int | None = None) -> None:
        self.upstream, self.mode, self.lock_delay = upstream, mode, lock_delay
        self.fail_at, self.hold_after = fail_at, hold_after
        self.patches: list[tuple[str, int]] = []
        self.lock = threading.Lock()
        self.release = threading.Event()
        self.held = threading.Event()  # set once a PATCH is being held
        proxy = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: object) -> None:  # the base names it `format`
                return None

            def relay(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                patch = self.command == "PATCH"
                if proxy.mode == "html":
                    return self.answer(200, b"<html><body>Please log in</body></html>", "text/html")
                with proxy.lock:
                    if patch:
                        proxy.patches.append((self.path, 0))
                    number = len(proxy.patches)
                    answered = sum(1 for _, status in proxy.patches if status)
                if patch and proxy.mode == "swallow":
                    return self.patched(204, b"", "")
                if patch and proxy.mode == "fail" and (not proxy.fail_at or number in proxy.fail_at):
                    return self.patched(500, b'{"error": "injected by the lab proxy"}', "application/json")
                hold = proxy.mode == "hold" and not proxy.held.is_set() and (
                    patch if proxy.hold_after is None else answered >= proxy.hold_after)
                request = urllib.request.Request(proxy.upstream + self.path, data=body or None,
                                                 method=self.command,
                                                 headers={k: v for k, v in self.headers.items()
                                                          if k.lower() in ("x-api-key", "content-type", "accept")})
                try:
                    with urllib.request.urlopen(request, timeout=60) as response:
                        status, raw = response.status, response.read()
                        kind = response.headers.get("Content-Type", "")
                except urllib.error.HTTPError as exc:
                    status, raw, kind = exc.code, exc.read(), exc.headers.get("Content-Type", "")
                if proxy.lock_delay and self.command == "GET" and "/metadata" in self.path:
                    time.sleep(proxy.lock_delay)
                if hold:
                    proxy.held.set()
                    proxy.release.wait(300)
                if patch:
                    return self.patched(status, raw, kind)
                self.answer(status, raw, kind)

            def patched(self, status: int, raw: bytes, kind: str) -> None:
                with proxy.lock:  # this request's entry: the last one of its path not answered yet
                    at = max(i for i, (path, done) in enumerate(proxy.patches) if path == self.path and not done)
                    proxy.patches[at] = (self.path, status)
                self.answer(status, raw, kind)

            def answer(self, status: int, raw: bytes, kind: str) -> None:
                with contextlib.suppress(OSError):  # the client may be gone (killed)
                    self.send_response(status)
                    if kind:
                        self.send_header("Content-Type", kind)
                    self.send_header("Content-Length", str(len(raw)))
                    self.end_headers()
                    self.wfile.write(raw)

            do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = relay

        self.server = http.server.ThreadingHTTPServer((address, 0), Handler)
        self.url = f"http://{address}:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def stop(self) -> None:
        self.release.set()
        self.server.shutdown()
        self.server.server_close()
