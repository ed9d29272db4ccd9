"""Virtual-host and ethers names in another case (break-it round 23, finding 05).

nginx `server_name WEB01.lab.example`, Apache `ServerName Web01.Lab.Example` / `ServerAlias WEB01`,
a Caddy site `WEB01.lab.example {` and ethers' `00:11:22:33:44:55 WEB01` were near-misses only while
the sweep moved the lower-case twin elsewhere: sweep 0, verify OK, and the vhost kept answering for
the old name only. A server compares these names in any case, so each is now a residual `dns-case`
(as an FQDN in another case in a URL already was), nothing rewritten, and verify fails.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Result

ALLOW = 'version: 1\ncurrent: ["**"]\n'
CONFIG = "version: 1\nrenames:\n  hosts: {web01.lab.example: app01.lab.example, web01: app01}\nallowlist: allow.yaml\n"
# name: (path, text, the lines held)
CASES = {
    "nginx": ("site.conf", "server {\n  listen 80;\n  server_name www.lab.example WEB01.lab.example;\n}\n", {3}),
    "apache": ("apache.conf", "<VirtualHost *:80>\n  ServerName Web01.Lab.Example\n  ServerAlias x.lab WEB01\n"
                              "</VirtualHost>\n", {2, 3}),
    "caddy": ("Caddyfile", "WEB01.lab.example, other.lab.example {\n  reverse_proxy 127.0.0.1:8080\n}\n", {1}),
    "ethers": ("ethers", "00:11:22:33:44:55 WEB01\n", {1}),
    "traefik-rule": ("compose.yaml", "services:\n  web:\n    labels:\n"
                                     "      - traefik.http.routers.web.rule=Host(`WEB01.lab.example`)\n", {4}),
}
# another case where no server compares names caselessly: near-miss, as before
QUIET = {
    "nginx-comment": ("notes.conf", "# WEB01 was rebuilt in May\nserver {\n  server_name other.lab.example;\n}\n"),
    "caddy-inside-a-block": ("Caddyfile", "other.lab.example {\n  respond \"WEB01\"\n}\n"),
}


def _residuals(root: Path, run: Callable[..., Result]) -> set[tuple[str, int]]:
    found = json.loads(run(root, "verify", "--format", "json").stdout)["findings"]
    return {(str(f["path"]), int(f["line"])) for f in found if f.get("reason") == "dns-case"}


@pytest.mark.parametrize("case", sorted(CASES))
def test_round23_a_vhost_name_in_another_case_is_a_residual(case: str, repo: Callable[..., Path],
                                                            run: Callable[..., Result]) -> None:
    path, text, lines = CASES[case]
    root = repo({path: text, "app.yml": "upstream: https://web01.lab.example/\n"}, config=CONFIG, allowlist=ALLOW)
    assert _residuals(root, run) == {(path, line) for line in lines}
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1
    assert (root / path).read_text() == text  # nothing rewritten in it: which case is the author's
    assert (root / "app.yml").read_text() == "upstream: https://app01.lab.example/\n"
    assert run(root, "verify").exit_code == 1


@pytest.mark.parametrize("case", sorted(QUIET))
def test_round23_another_case_elsewhere_is_no_residual(case: str, repo: Callable[..., Path],
                                                       run: Callable[..., Result]) -> None:
    path, text = QUIET[case]
    root = repo({path: text}, config=CONFIG, allowlist=ALLOW)
    assert _residuals(root, run) == set()
    assert run(root, "verify").exit_code == 0
