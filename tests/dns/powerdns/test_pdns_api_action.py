"""The playbook's PowerDNS API calls (action_plugins/renamer_pdns_api.py) through a real
ansible-playbook, against a loopback HTTP server: the results carry what the playbook reads
(status, json, msg, url), a failed call is said by renamer_pdns_call_failed as with uri, and
the key sent in a header never appears in a result."""

from __future__ import annotations

import http.server
import json
import os
import shutil
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import ClassVar

import pytest

from renamer.dns.ansible_export import STATIC

KEY = "s3cr3t-pdns-key"


class _Api(http.server.BaseHTTPRequestHandler):
    seen: ClassVar[list[dict[str, object]]] = []

    def _answer(self) -> None:
        size = int(self.headers.get("Content-Length") or 0)
        body = json.loads(self.rfile.read(size)) if size else None
        _Api.seen.append({"method": self.command, "path": self.path, "key": self.headers.get("X-API-Key"),
                          "type": self.headers.get("Content-Type"), "body": body})
        if self.path.endswith("/missing"):
            status, data = 404, {"error": "Could not find domain 'missing.'"}
        else:
            status, data = (204, None) if self.command == "PATCH" else (200, {"name": "fv.lan.", "rrsets": []})
        self.send_response(status)
        text = b"" if data is None else json.dumps(data).encode()
        if data is not None:
            self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(text)))
        self.end_headers()
        self.wfile.write(text)

    do_GET = do_PATCH = do_POST = do_DELETE = _answer

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def api() -> Iterator[str]:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Api)
    _Api.seen = []
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/api/v1/servers/localhost"
    finally:
        server.shutdown()
        server.server_close()


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


PLAYBOOK = """
- hosts: localhost
  gather_facts: false
  connection: local
  vars:
    ansible_python_interpreter: "{{ ansible_playbook_python }}"
    headers: {X-API-Key: "%(key)s", Accept: application/json}
  tasks:
    - renamer_pdns_api: {url: "%(api)s/zones/fv.lan.", headers: "{{ headers }}", timeout: 5}
      register: read
      no_log: true
    - renamer_pdns_api:
        url: "%(api)s/zones/fv.lan."
        method: PATCH
        headers: "{{ headers }}"
        body_format: json
        body: {rrsets: [{name: fv-gw.fv.lan., type: A, changetype: DELETE}]}
        status_code: [200, 204]
      register: patched
      no_log: true
    - renamer_pdns_api: {url: "%(api)s/zones/{{ item.1 }}", headers: "{{ headers }}"}
      loop: [[fv.lan., missing], [ana.lan., missing]]
      register: missing
      failed_when: false
      no_log: true
    - renamer_pdns_api: {url: "http://127.0.0.1:%(closed)s/api", headers: "{{ headers }}", timeout: 5}
      loop: [[fv.lan., fv.lan.]]
      register: unreachable
      failed_when: false
      no_log: true
    - ansible.builtin.copy:
        dest: "%(out)s"
        content: >-
          {{ {'read': read, 'patched': patched, 'missing': missing.results,
              'unreachable': unreachable.results,
              'said': (missing.results + unreachable.results) | map('renamer_pdns_call_failed') | list} | to_json }}
"""


def test_the_action_plugin_answers_as_uri_did_and_never_returns_the_key(api: str, tmp_path: Path) -> None:
    out = tmp_path / "results.json"
    (tmp_path / "playbook.yml").write_text(PLAYBOOK % {"key": KEY, "api": api, "closed": _closed_port(), "out": out})
    playbook = shutil.which("ansible-playbook", path=str(Path(sys.executable).parent)) or "ansible-playbook"
    (tmp_path / "ansible.cfg").write_text("[defaults]\n")  # none of the user's
    env = {**os.environ, "ANSIBLE_ACTION_PLUGINS": str(STATIC / "action_plugins"),
           "ANSIBLE_FILTER_PLUGINS": str(STATIC / "filter_plugins"), "ANSIBLE_CONFIG": str(tmp_path / "ansible.cfg"),
           "ANSIBLE_LOCALHOST_WARNING": "false", "ANSIBLE_INVENTORY_UNPARSED_WARNING": "false"}
    done = subprocess.run([playbook, "-i", "localhost,", "playbook.yml"], cwd=tmp_path, env=env,
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    results = json.loads(out.read_text())
    assert results["read"]["status"] == 200 and results["read"]["json"] == {"name": "fv.lan.", "rrsets": []}
    assert results["read"]["changed"] is False and results["read"]["url"].endswith("/zones/fv.lan.")
    assert results["patched"]["status"] == 204 and results["patched"]["changed"] is True
    assert [r["status"] for r in results["missing"]] == [404, 404]
    assert results["missing"][0]["json"] == {"error": "Could not find domain 'missing.'"}
    assert results["unreachable"][0]["status"] == -1
    said = results["said"]
    assert said[0].startswith("fv.lan.: ") and said[0].endswith("/zones/missing: HTTP 404: Could not find domain 'missing.'")
    assert said[2].startswith("fv.lan.: http://127.0.0.1:") and ": API not reachable: " in said[2]
    assert "Connection refused" in said[2]
    # What the server got: the key in its header, a JSON body for the PATCH.
    patch = next(s for s in _Api.seen if s["method"] == "PATCH")
    assert patch["key"] == KEY and patch["type"] == "application/json"
    assert patch["body"] == {"rrsets": [{"name": "fv-gw.fv.lan.", "type": "A", "changetype": "DELETE"}]}
    assert KEY not in out.read_text() and KEY not in done.stdout + done.stderr
