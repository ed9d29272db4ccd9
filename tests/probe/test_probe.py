"""renamer probe end to end: real HTTP servers and real dnsmasq resolvers on loopback."""

from __future__ import annotations

import http.server
import json
import socket
import subprocess
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from renamer.dns.dnsmasq import sandbox
from tests.testing.repos import make_repo


class _Handler(http.server.BaseHTTPRequestHandler):
    status = 200
    delay = 0.0

    def do_GET(self) -> None:
        time.sleep(self.delay)
        self.server.paths.append(self.path)  # type: ignore[attr-defined]
        self.send_response(self.status)
        self.send_header("Content-Length", "2")
        self.end_headers()
        self.wfile.write(b"ok")

    def log_message(self, *args: object) -> None:
        pass


class _QuietServer(http.server.ThreadingHTTPServer):
    def handle_error(self, request: object, client_address: object) -> None:
        """Nothing printed: a delayed answer to a probe gone (BrokenPipe) wrote its traceback to
        whatever sys.stderr was then, a later test's captured output (the non-DNS run here)."""


def _server(address: str, status: int, delay: float = 0.0) -> http.server.ThreadingHTTPServer:
    handler = type("Handler", (_Handler,), {"status": status, "delay": delay})
    server = _QuietServer((address, 0), handler)
    server.paths = []  # type: ignore[attr-defined]
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def _closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.4", 0))
        return int(probe.getsockname()[1])


SITE = """site: lab
domain: lab.test
network: 127.0.0.0/8
authoritative: true
hosts:
  - {name: web-ok, address: 127.0.0.1}
  - {name: web-bad, address: 127.0.0.2}
  - {name: web-slow, address: 127.0.0.3}
  - {name: web-closed, address: 127.0.0.4}
  - {name: web-stale, address: 127.0.0.5}
"""
CONFIG = """version: 1
name: lab-move
renames:
  hosts:
    ana-ok.lab.test: web-ok.lab.test
    ana-bad.lab.test: web-bad.lab.test
    ana-slow.lab.test: web-slow.lab.test
    ana-closed.lab.test: web-closed.lab.test
    ana-stale.lab.test: web-stale.lab.test
allowlist: allow.yaml
probe:
  health: {api_base: /health/liveliness}
  timeout: 2.5
"""


@pytest.fixture
def site(tmp_path: Path) -> Iterator[dict[str, object]]:
    """A repo whose LiteLLM config points at four HTTP servers, and two resolvers for its site,
    the second one serving a stale extra answer for web-stale."""
    ok, bad = _server("127.0.0.1", 200), _server("127.0.0.2", 500)
    # 2.5 s per step gives a loaded CI machine room; the slow server stays well past it.
    slow, stale = _server("127.0.0.3", 200, delay=8.0), _server("127.0.0.5", 200)
    closed = _closed_port()
    config = f"""model_list:
  - model_name: ok
    litellm_params:
      api_base: http://web-ok.lab.test:{ok.server_port}/v1
      api_key: os.environ/KEY
  - model_name: bad
    litellm_params:
      api_base: http://web-bad.lab.test:{bad.server_port}/v1
  - model_name: slow
    litellm_params:
      api_base: http://web-slow.lab.test:{slow.server_port}/v1
  - model_name: closed
    litellm_params:
      api_base: http://web-closed.lab.test:{closed}/v1
  - model_name: stale
    litellm_params:
      api_base: http://web-stale.lab.test:{stale.server_port}/v1
general_settings:
  pass_through_endpoints:
    - path: /score
      target: http://user:hunter2@web-ok.lab.test:{ok.server_port}/score?token=s3cret
"""
    root = make_repo(tmp_path / "repo", {
        "litellm/config.yaml": config,
        "notes/2026-10-01.md": f"web-ok.lab.test:{closed} was down (a record: never probed)\n",
        "dns/sites/lab.yaml": SITE,
    }, config=CONFIG, allowlist="version: 1\ncurrent: ['litellm/**', 'dns/**']\nrecords:\n"
                                 "  - {name: notes, paths: ['notes/**'], reason: dated notes}\n")
    instances = {name: sandbox.create(tmp_path / "run" / name) for name in ("ns-1", "ns-2")}
    (root / "dns" / "resolvers.yaml").write_text(
        sandbox.resolvers_yaml(instances, tmp_path / "backups", {n: {"dhcp": []} for n in instances}))
    try:
        for instance in instances.values():
            sandbox.start(instance.folder)
        applied = subprocess.run([_python(), "-m", "renamer", "dns", "apply",
                                  "--resolvers", "all"], cwd=root, capture_output=True, text=True)
        assert applied.returncode == 0, applied.stdout + applied.stderr
        (instances["ns-2"].snippet_dir / "stale.conf").write_text("host-record=web-stale.lab.test,127.0.0.9\n")
        sandbox.restart(instances["ns-2"].folder)
        yield {"root": root, "ok": ok, "bad": bad, "slow": slow, "closed": closed, "stale": stale}
    finally:
        for instance in instances.values():
            sandbox.stop(instance.folder)
        for server in (ok, bad, slow, stale):
            server.shutdown()
            server.server_close()


def _python() -> str:
    import sys

    return sys.executable


def test_each_endpoint_gets_its_verdict(run, site) -> None:  # type: ignore[no-untyped-def]
    root = site["root"]
    result = run(root, "probe", "--no-system-resolver", "--format", "json")
    assert result.exit_code == 1, result.stdout + result.stderr
    data = json.loads(result.stdout)
    found = {item["endpoint"]: item for item in data["endpoints"]}
    port = site["ok"].server_port
    ok = found[f"http://web-ok.lab.test:{port}/v1"]
    assert ok["ok"] and ok["resolution"] == "agree" and ok["http"] == "200", ok
    assert ok["url"] == f"http://web-ok.lab.test:{port}/health/liveliness"  # probe.health for api_base
    assert ok["places"] == [{"path": "litellm/config.yaml", "line": 4,
                             "key": "model_list[0].litellm_params.api_base"}]
    assert ok["answers"] == {"ns-1": ["127.0.0.1"], "ns-2": ["127.0.0.1"]}
    assert "/health/liveliness" in site["ok"].paths
    bad = found[f"http://web-bad.lab.test:{site['bad'].server_port}/v1"]  # 127.0.0.2
    assert not bad["ok"] and bad["http"] == "500"
    assert bad["problems"] == [f"GET http://web-bad.lab.test:{site['bad'].server_port}/health/liveliness: "
                               "HTTP 500, expected 2xx"]
    slow = found[f"http://web-slow.lab.test:{site['slow'].server_port}/v1"]
    assert not slow["ok"] and slow["http"] == "timeout" and slow["connect"] == "ok"
    closed = found[f"http://web-closed.lab.test:{site['closed']}/v1"]
    assert not closed["ok"] and closed["connect"] == "refused"
    stale = found[f"http://web-stale.lab.test:{site['stale'].server_port}/v1"]
    assert not stale["ok"] and stale["resolution"] == "DIFFER" and stale["http"] == "200"
    assert stale["problems"] == ["resolvers disagree: ns-1 127.0.0.5; ns-2 127.0.0.5 127.0.0.9"]
    # The pass-through target: its own path, its secrets masked in every report.
    target = found[f"http://****@web-ok.lab.test:{port}/score?token=****"]
    assert target["ok"] and target["places"][0]["key"] == "general_settings.pass_through_endpoints[0].target"
    assert "hunter2" not in result.stdout and "s3cret" not in result.stdout
    assert "/score?token=s3cret" in site["ok"].paths  # the real URL was fetched, only its report is masked
    assert len(found) == 6  # the dated note is a record: never probed
    table = run(root, "probe", "--no-system-resolver")
    assert table.exit_code == 1
    assert table.stdout.splitlines()[0].split() == ["endpoint", "where", "resolvers", "connect", "http",
                                                   "latency", "result"]
    assert table.stdout.endswith("probe: FAILED: 4 of 6 endpoints did not answer as expected\n")
    markdown = run(root, "probe", "--no-system-resolver", "--format", "markdown")
    assert markdown.stdout.startswith("**probe: FAILED: 4 of 6 endpoints did not answer as expected**\n\n"
                                      "| endpoint | where |")


def test_all_answering_exits_0_and_excludes_hold(run, site) -> None:  # type: ignore[no-untyped-def]
    root = site["root"]
    config = root / "renamer.yaml"
    config.write_text(config.read_text() + "  exclude: ['web-bad.*', 'web-slow.*', 'web-closed.*', "
                                           "'web-stale.*']\n")
    result = run(root, "probe", "--no-system-resolver")
    assert result.exit_code == 0, result.stdout
    assert result.stdout.endswith("probe: OK: 2 endpoints resolve and answer\n")


def test_dry_run_contacts_nothing(run, site, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("a dry run opened a socket")

    monkeypatch.setattr(socket.socket, "__init__", refuse)
    monkeypatch.setattr(socket, "getaddrinfo", refuse)
    result = run(site["root"], "probe", "--dry-run")
    assert result.exit_code == 0, result.stdout + result.stderr
    assert result.stdout.endswith("probe: 6 endpoints would be probed (dry run: nothing contacted)\n")
    assert "litellm/config.yaml:4 [model_list[0].litellm_params.api_base]" in result.stdout
    assert site["ok"].paths == []


def test_connect_to_and_the_system_resolver(run, site) -> None:  # type: ignore[no-untyped-def]
    root = site["root"]
    port = site["ok"].server_port
    (root / "litellm" / "config.yaml").write_text(
        f"model_list:\n  - litellm_params:\n      api_base: http://web-ok.lab.test:{port}/v1\n"
        "  - litellm_params:\n      api_base: http://web-closed.lab.test:9/v1\n")
    subprocess.run(["git", "-C", str(root), "commit", "-qam", "two"], check=True)
    # web-closed.lab.test:9 goes to the healthy server instead, as curl's --connect-to does.
    result = run(root, "probe", "--no-system-resolver", "--connect-to", f"web-closed.lab.test:9:127.0.0.1:{port}")
    assert result.exit_code == 0, result.stdout
    # With this machine's resolver asked too, the lab's names are unknown there: said, and a failure.
    system = run(root, "probe", "--format", "json")
    items = json.loads(system.stdout)["endpoints"]
    assert system.exit_code == 1
    assert all(item["resolution"] == "NO ANSWER" and "system" in item["answers"] for item in items)


def test_bad_connect_to_is_a_usage_error(run, site) -> None:  # type: ignore[no-untyped-def]
    result = run(site["root"], "probe", "--connect-to", "nonsense")
    assert result.exit_code == 2
    assert "--connect-to 'nonsense': expected HOST:PORT:ADDRESS:PORT" in result.stderr


def test_resolvers_that_all_agree_on_a_stale_address_fail(run, site) -> None:  # type: ignore[no-untyped-def]
    root = site["root"]
    lab_site = root / "dns" / "sites" / "lab.yaml"  # the inventory moved web-ok; no apply since
    lab_site.write_text(lab_site.read_text().replace("{name: web-ok, address: 127.0.0.1}",
                                                     "{name: web-ok, address: 127.0.0.8}"))
    result = run(root, "probe", "--no-system-resolver", "--format", "json")
    items = {i["endpoint"]: i for i in json.loads(result.stdout)["endpoints"]}
    ok = items[f"http://web-ok.lab.test:{site['ok'].server_port}/v1"]
    assert ok["resolution"] == "STALE" and not ok["ok"]
    assert ok["problems"][0] == "every resolver answers 127.0.0.1; the inventory says 127.0.0.8"


def test_the_whole_run_is_bounded(run, site) -> None:  # type: ignore[no-untyped-def]
    start = time.monotonic()
    result = run(site["root"], "probe", "--no-system-resolver", "--format", "json", "--timeout", "10",
                 "--total-timeout", "1")
    assert time.monotonic() - start < 8  # the slow server answers after 3 s; the run does not wait
    items = {i["endpoint"]: i for i in json.loads(result.stdout)["endpoints"]}
    slow = items[f"http://web-slow.lab.test:{site['slow'].server_port}/v1"]
    assert slow["connect"] == "not probed"
    assert slow["problems"] == ["not probed: the run's limit of 1 s was reached"]
    assert result.exit_code == 1
