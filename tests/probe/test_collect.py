"""Which endpoints a file names through a new value (pure: bytes in, endpoints out)."""

from __future__ import annotations

from renamer.match import new_values_matcher
from renamer.probe.collect import Endpoint, endpoints_in, merged

MATCHER = new_values_matcher([("ana-ml2", "fv-ml1")], [("10.250.50.54", "10.251.50.54")])


def _found(path: str, text: str) -> list[Endpoint]:
    return merged(endpoints_in(path, text.encode(), MATCHER))


def test_urls_pairs_pins_and_ports_beside() -> None:
    found = _found("stack/compose.yaml", """services:
  app:
    environment:
      URL: http://fv-ml1:8016/v1
      TOKEN_URL: https://u:pw@fv-ml1.example:8443/x?api_key=abc&page=2
    extra_hosts:
      - "fv-ml1:10.251.51.54"
  db:
    host: fv-ml1
    port: 5432
  other:
    upstream: 10.251.50.54:9000
  noport:
    host: fv-ml1
""")
    shown = {e.shown(): [str(p) for p in e.places] for e in found}
    assert shown == {
        "http://fv-ml1:8016/v1": ["stack/compose.yaml:4 [services.app.environment.URL]"],
        "https://****@fv-ml1.example:8443/x?api_key=****&page=2":
            ["stack/compose.yaml:5 [services.app.environment.TOKEN_URL]"],
        "fv-ml1 -> 10.251.51.54 (pinned)": ["stack/compose.yaml:7 [services.app.extra_hosts[0]]"],
        "fv-ml1:5432": ["stack/compose.yaml:9 [services.db.host]"],
        "10.251.50.54:9000": ["stack/compose.yaml:12 [services.other.upstream]"],
    }


def test_once_per_endpoint_with_every_place_and_excludes() -> None:
    text = "A=http://fv-ml1:8016/v1\nB=http://fv-ml1:8016/v1\nC=http://fv-ml1:9/v1\n"
    found = _found("app.env", text)
    assert [(e.shown(), [str(p) for p in e.places]) for e in found] == [
        ("http://fv-ml1:8016/v1", ["app.env:1", "app.env:2"]), ("http://fv-ml1:9/v1", ["app.env:3"])]
    assert [e.shown() for e in merged(endpoints_in("app.env", text.encode(), MATCHER), ["*:9/*"])] == [
        "http://fv-ml1:8016/v1"]


def test_old_values_near_misses_and_bare_names_are_not_endpoints() -> None:
    text = "old http://ana-ml2:8016/v1\nname fv-ml1 alone\nfv-ml10:80 is another host\n"
    assert _found("notes.txt", text) == []


def test_a_repos_escape_sequences_never_reach_the_terminal() -> None:
    endpoint = Endpoint("http", "fv-ml1", 80, "/\x1b[31mred")
    assert endpoint.shown() == "http://fv-ml1:80/\\x1b[31mred"


def test_the_system_resolver_is_bounded_by_the_timeout(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    import socket
    import threading
    import time

    from renamer.probe import checks

    release = threading.Event()

    def stuck(*args: object, **kwargs: object) -> object:
        release.wait(10)  # a resolver that never answers (a dead nameserver in resolv.conf)
        raise socket.gaierror(-3, "Temporary failure in name resolution")

    monkeypatch.setattr(socket, "getaddrinfo", stuck)
    start = time.monotonic()
    assert checks._system_answer("fv-ml1.example", 0.2) == "no answer within 0.2 s"
    assert time.monotonic() - start < 2
    release.set()
    monkeypatch.setattr(socket, "getaddrinfo", lambda *a, **k: [(0, 0, 0, "", ("127.0.0.1", 0))])
    assert checks._system_answer("localhost", 1.0) == ["127.0.0.1"]
