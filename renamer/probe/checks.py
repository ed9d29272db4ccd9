"""The checks of one endpoint: resolution (each resolver of its site, and the system's), a TCP
connect, and for http(s) one GET, the TLS name checked against the host the file names.

Safe by construction: GET only, no body, no redirect followed (http.client follows none),
one connection per endpoint, every step bounded by the timeout.
"""

from __future__ import annotations

import fnmatch
import http.client
import socket
import ssl
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Literal

from renamer.dns.answers import NoAnswer, Querier
from renamer.dns.inventory import Inventory, Resolver, Site
from renamer.probe.collect import Endpoint, is_address

GOOD = ("2xx", "3xx", "4xx")  # a server that answers at all; a configured health path wants 2xx


@dataclass(frozen=True)
class Limits:
    timeout: float = 3.0
    health: tuple[tuple[str, str], ...] = ()  # (key pattern, path)
    expect: tuple[str, ...] | None = None  # status classes; default: GOOD, or 2xx on a health path
    # (host:port as the file says it, address, port); an empty host or port matches any
    connect_to: tuple[tuple[str, str, int], ...] = ()
    system_resolver: bool = True


# What the resolvers said of the endpoint's host ("-": not asked yet).
Resolution = Literal["-", "agree", "address", "DIFFER", "STALE", "NO ANSWER", "NO RESOLVER", "pinned ok",
                     "PIN DIFFERS"]
Connect = Literal["-", "ok", "no address", "timeout", "refused", "failed", "not probed"]


@dataclass
class EndpointCheck:
    endpoint: Endpoint
    answers: dict[str, list[str] | str] = field(default_factory=dict)  # who -> addresses, or why none
    resolution: Resolution = "-"
    connect: Connect = "-"
    http: str = "-"
    latency_ms: float | None = None
    url: str | None = None  # what was fetched (health path applied), secrets masked
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


def resolvers_for(inventory: Inventory | None, host: str) -> tuple[str, list[Resolver], str | None]:
    """(the name to ask, the inventory's resolvers serving its site, the address the inventory
    gives it); (host, [], None) when no site of the inventory holds it."""
    if inventory is None:
        return host, [], None
    for site in inventory.sites:
        if _holds(site, host):
            name = host if "." in host else f"{host}.{site.domain}"
            short = name.lower()[:-len(site.domain) - 1] if name.lower().endswith("." + site.domain) else ""
            expected = next((str(h.address) for h in site.hosts if short == h.name.lower()
                             or short in (a.lower() for a in h.aliases)), None)
            return name, [r for r in inventory.resolvers if site.name in r.sites], expected
    return host, [], None


def _holds(site: Site, host: str) -> bool:
    domain = site.domain.lower()
    lowered = host.lower().rstrip(".")
    if lowered.endswith("." + domain) or lowered == domain:
        return True
    names = {h.name.lower() for h in site.hosts} | {a.lower() for h in site.hosts for a in h.aliases}
    return lowered in names


def check(endpoint: Endpoint, inventory: Inventory | None, limits: Limits,
          make_querier: Callable[[Resolver], Querier]) -> EndpointCheck:
    verdict = EndpointCheck(endpoint)
    addresses = _resolve(endpoint, inventory, limits, make_querier, verdict)
    port = endpoint.effective_port
    if port is None:  # a pin: resolution is the whole check
        return verdict
    target = _connect_target(endpoint, port, addresses, limits)
    if target is None:
        verdict.connect = "no address"
        return verdict
    start = time.perf_counter()
    if endpoint.scheme in ("http", "https"):
        _fetch(endpoint, target, limits, verdict)
    else:
        _connect(target, limits, verdict)
    verdict.latency_ms = (time.perf_counter() - start) * 1000
    return verdict


def _resolve(endpoint: Endpoint, inventory: Inventory | None, limits: Limits,
             make_querier: Callable[[Resolver], Querier], verdict: EndpointCheck) -> list[str]:
    if is_address(endpoint.host):
        verdict.resolution = "address"
        return [endpoint.host]
    name, resolvers, expected = resolvers_for(inventory, endpoint.host)
    for resolver in resolvers:
        try:
            answer = make_querier(resolver)(f"{name}.", "A")
        except NoAnswer as exc:
            verdict.answers[resolver.name] = f"no answer ({exc})"
            continue
        found = sorted(v for kind, v in answer.records if kind == "A")
        verdict.answers[resolver.name] = found or answer.rcode
    if limits.system_resolver:
        verdict.answers["system"] = _system_answer(endpoint.host, limits.timeout)
    sets = [tuple(a) for a in verdict.answers.values() if isinstance(a, list)]
    missing = [who for who, a in verdict.answers.items() if not isinstance(a, list)]
    if not verdict.answers:
        verdict.resolution = "NO RESOLVER"
        verdict.problems.append(f"{endpoint.host}: no resolver of the inventory serves it and the "
                                "system resolver is off")
        return []
    if missing:
        verdict.resolution = "NO ANSWER"
        verdict.problems.append("; ".join(f"{who}: {verdict.answers[who]}" for who in missing))
    elif len(set(sets)) > 1:
        verdict.resolution = "DIFFER"
        verdict.problems.append("resolvers disagree: " + "; ".join(
            f"{who} {' '.join(a)}" for who, a in verdict.answers.items() if isinstance(a, list)))
    elif expected is not None and sets and list(sets[0]) != [expected]:
        # Every resolver agrees, on something else than the inventory: all of them are stale.
        verdict.resolution = "STALE"
        verdict.problems.append(f"every resolver answers {' '.join(sets[0])}; the inventory says {expected}")
    else:
        verdict.resolution = "agree"
    if endpoint.pinned is not None and verdict.resolution == "agree":
        if sets and list(sets[0]) != [endpoint.pinned]:
            verdict.resolution = "PIN DIFFERS"
            verdict.problems.append(f"pinned to {endpoint.pinned}, DNS says {' '.join(sets[0])}")
        else:
            verdict.resolution = "pinned ok"
    return list(sets[0]) if sets else []


def _system_answer(host: str, timeout: float) -> list[str] | str:
    """This machine's resolver (getaddrinfo: /etc/hosts, nsswitch, search domains), within
    `timeout`: getaddrinfo itself takes no timeout, so it runs in a daemon thread that is
    left behind when it does not answer in time."""
    answer: list[list[str] | str] = []

    def ask() -> None:
        try:
            infos = socket.getaddrinfo(host, None, socket.AF_INET, socket.SOCK_STREAM)
            answer.append(sorted({str(info[4][0]) for info in infos}))
        except (OSError, UnicodeError) as exc:
            answer.append(f"no answer ({exc.args[-1] if exc.args else exc})")

    worker = threading.Thread(target=ask, daemon=True)
    worker.start()
    worker.join(timeout)
    return answer[0] if answer else f"no answer within {timeout:g} s"


def _connect_target(endpoint: Endpoint, port: int, addresses: Sequence[str],
                    limits: Limits) -> tuple[str, int] | None:
    for pair, address, new_port in limits.connect_to:
        host, _, wanted = pair.rpartition(":")
        if host in ("", endpoint.host) and wanted in ("", str(port)):
            return address, new_port
    return (addresses[0], port) if addresses else None


def _open(target: tuple[str, int], limits: Limits, verdict: EndpointCheck) -> socket.socket | None:
    """A TCP connection to `target`, its outcome in `verdict.connect` (and a problem if none)."""
    try:
        sock = socket.create_connection(target, timeout=limits.timeout)
    except TimeoutError:
        verdict.connect = "timeout"
        verdict.problems.append(f"connect {target[0]}:{target[1]}: no answer in {limits.timeout:g} s")
        return None
    except OSError as exc:
        verdict.connect = "refused" if isinstance(exc, ConnectionRefusedError) else "failed"
        verdict.problems.append(f"connect {target[0]}:{target[1]}: {exc.strerror or exc}")
        return None
    verdict.connect = "ok"
    return sock


def _connect(target: tuple[str, int], limits: Limits, verdict: EndpointCheck) -> None:
    sock = _open(target, limits, verdict)
    if sock is not None:
        sock.close()


def health_path(endpoint: Endpoint, limits: Limits) -> str | None:
    for pattern, path in limits.health:
        for place in endpoint.places:
            key = place.key or ""
            last = key.rsplit(".", 1)[-1]
            if key and (fnmatch.fnmatch(key, pattern) or fnmatch.fnmatch(last, pattern)):
                return path
    return None


def _fetch(endpoint: Endpoint, target: tuple[str, int], limits: Limits, verdict: EndpointCheck) -> None:
    health = health_path(endpoint, limits)
    path = health or endpoint.path or "/"
    expect = limits.expect or (("2xx",) if health else GOOD)
    shown = endpoint.shown() if health is None else Endpoint(
        endpoint.scheme, endpoint.host, endpoint.port, health, userinfo=endpoint.userinfo).shown()
    verdict.url = shown
    sock = _open(target, limits, verdict)
    if sock is None:
        return
    host_header = endpoint.host if endpoint.port is None else f"{endpoint.host}:{endpoint.port}"
    try:
        if endpoint.scheme == "https":
            try:
                # The certificate must name the host the file names (the new one), whatever
                # address the connection went to.
                sock = ssl.create_default_context().wrap_socket(sock, server_hostname=endpoint.host)
            except (ssl.SSLError, ssl.CertificateError, OSError) as exc:
                verdict.http = "TLS"
                verdict.problems.append(f"TLS: {getattr(exc, 'verify_message', None) or exc}")
                return
            connection: http.client.HTTPConnection = http.client.HTTPSConnection(
                endpoint.host, target[1], timeout=limits.timeout)
        else:
            connection = http.client.HTTPConnection(endpoint.host, target[1], timeout=limits.timeout)
        connection.sock = sock
        connection.request("GET", path, headers={"Host": host_header, "User-Agent": "renamer-probe",
                                                 "Connection": "close"})
        response = connection.getresponse()
        status = response.status
        response.close()
    except TimeoutError:
        verdict.http = "timeout"
        verdict.problems.append(f"GET {shown}: no answer in {limits.timeout:g} s")
        return
    except (OSError, http.client.HTTPException) as exc:
        verdict.http = "failed"
        verdict.problems.append(f"GET {shown}: {exc}")
        return
    finally:
        sock.close()
    verdict.http = str(status)
    if f"{status // 100}xx" not in expect:
        verdict.problems.append(f"GET {shown}: HTTP {status}, expected {' or '.join(expect)}")
