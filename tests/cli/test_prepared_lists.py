"""t37-break, finding 09: allow lists prepared for a move (the new network added beside the old one
before the sweep) admit the moved host before and after: no `access-set` residual at the old
network ("no longer admits") and no `captured` one at the new ("falls under a rule written for
others"). Where the list holds only one of them, each is still said."""

from __future__ import annotations

import json

import pytest

from tests.testing.repos import Repo, Run

CONFIG = "version: 1\nrenames:\n  addresses: {192.0.2.25: 198.51.100.25}\nallowlist: allow.yaml\n"
ALLOW = 'version: 1\ncurrent: ["**"]\n'
PREPARED = {
    "dns.tf": 'resource "aws_route53_record" "spf" { records = ["v=spf1 ip4:192.0.2.0/24 ip4:198.51.100.0/24 -all"] }\n',
    "main.cf": "mynetworks = 192.0.2.0/24 198.51.100.0/24\nrelayhost = [192.0.2.25]\n",
    "nginx.conf": "location /admin {\n  allow 192.0.2.0/24;\n  allow 198.51.100.0/24;\n  deny all;\n}\n",
    "traefik.yml": "trustedIPs:\n  - 192.0.2.0/24\n  - 198.51.100.0/24\n",
}


def _reasons(root, run: Run) -> list[tuple[str, str]]:  # type: ignore[no-untyped-def]
    done = run(root, "verify", "--format", "json")
    return sorted((f["path"], f["reason"]) for f in json.loads(done.stdout)["findings"]
                  if f["status"] == "residual")


def test_a_list_prepared_for_the_move_says_nothing(repo: Repo, run: Run) -> None:
    root = repo(PREPARED, config=CONFIG, allowlist=ALLOW)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    assert (root / "main.cf").read_text() == "mynetworks = 192.0.2.0/24 198.51.100.0/24\nrelayhost = [198.51.100.25]\n"
    assert _reasons(root, run) == []
    assert run(root, "verify", "--strict").exit_code == 0


@pytest.mark.parametrize("text, reason", [
    ("mynetworks = 192.0.2.0/24 203.0.113.0/24\nrelayhost = [192.0.2.25]\n", "access-set"),  # the new one not beside
    ("mynetworks = 198.51.100.0/24 203.0.113.0/24\nrelayhost = [192.0.2.25]\n", "captured"),  # the old one not beside
])
def test_a_list_holding_only_one_side_is_still_said(repo: Repo, run: Run, text: str, reason: str) -> None:
    root = repo({"main.cf": text}, config=CONFIG, allowlist=ALLOW)
    run(root, "sweep", "--commit")
    assert ("main.cf", reason) in _reasons(root, run)
