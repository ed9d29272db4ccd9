"""Names under a renamed host written with a leading dot or as a regex's escaped-dot tail (issue 27,
break-it round 22, finding 15): nginx `server_name .web01.lab` (the host and every name under it),
squid `dstdomain .web01.lab`, `NO_PROXY=localhost,.web01.lab`, nginx `~^(?<sub>.+)\\.web01\\.lab$`,
Traefik's HostRegexp(`^.+\\\\.web01\\\\.lab$`) in a YAML string were near-misses only (verify OK)
while `*.web01.lab` was a `subdomain` residual. Each is now a `subdomain` residual; with
`options.subdomains: follow` the leading-dot names follow the host, the regex spellings stay residuals
(no name to follow); a dot after a label (`x.web01.lab` of another name) is unchanged."""

from __future__ import annotations

import json
import re

from tests.testing.repos import CURRENT_ALL, Repo, Run

CONFIG = "version: 1\nrenames:\n  hosts: {{web01.lab: app01.lab, db01: pg01}}\n{options}allowlist: allow.yaml\n"
FILES = {
    "nginx.conf": "server { server_name .web01.lab; }\nserver {\n  server_name ~^(?<sub>.+)\\.web01\\.lab$;\n}\n",
    "squid.conf": "acl internal dstdomain .web01.lab .other.lab\n",
    "proxy.env": "NO_PROXY=localhost,.web01.lab\nno_proxy=\".web01.lab\"\n",
    "compose.yml": "services:\n  app:\n    labels:\n"
                   "      - \"traefik.http.routers.app.rule=HostRegexp(`^.+\\\\.web01\\\\.lab$`)\"\n",
    "rules.py": "import re\nSUB = re.compile(r'[a-z]+\\.web01\\.lab')\n",
}
EXPECTED = {("nginx.conf", 1), ("nginx.conf", 3), ("squid.conf", 1), ("proxy.env", 1), ("proxy.env", 2),
            ("compose.yml", 4), ("rules.py", 2)}


def test_the_consumers_read_these_as_names_under_the_host() -> None:
    assert re.fullmatch(r"^(?<sub>.+)\.web01\.lab$".replace("?<", "?P<"), "grafana.web01.lab")
    assert re.fullmatch(r"[a-z]+\.web01\.lab", "grafana.web01.lab")
    assert "grafana.web01.lab".endswith(".web01.lab")  # NO_PROXY's and squid's leading-dot suffix match


def test_round22_15_leading_dot_and_escaped_dot_names_are_subdomain_residuals(repo: Repo, run: Run) -> None:
    root = repo(FILES, config=CONFIG.format(options=""), allowlist=CURRENT_ALL)
    done = run(root, "verify", "--format", "json")
    assert done.exit_code == 1
    findings = json.loads(done.stdout)["findings"]
    assert {(f["path"], f["line"]) for f in findings} == EXPECTED
    assert {f["reason"] for f in findings} == {"subdomain"}
    before = {path: (root / path).read_bytes() for path in FILES}
    assert run(root, "sweep", "--commit").exit_code == 1
    assert {path: (root / path).read_bytes() for path in FILES} == before


def test_round22_15_leading_dot_names_follow_with_the_option(repo: Repo, run: Run) -> None:
    options = "options:\n  subdomains: follow\n"
    root = repo(FILES, config=CONFIG.format(options=options), allowlist=CURRENT_ALL)
    assert run(root, "sweep", "--commit").exit_code == 1  # the regex spellings still need a decision
    assert (root / "squid.conf").read_text() == "acl internal dstdomain .app01.lab .other.lab\n"
    assert (root / "proxy.env").read_text() == "NO_PROXY=localhost,.app01.lab\nno_proxy=\".app01.lab\"\n"
    assert (root / "nginx.conf").read_text().startswith("server { server_name .app01.lab; }\n")
    findings = json.loads(run(root, "verify", "--format", "json").stdout)["findings"]
    assert {(f["path"], f["line"], f["reason"]) for f in findings} == {
        ("nginx.conf", 3, "subdomain"), ("compose.yml", 4, "subdomain"), ("rules.py", 2, "subdomain")}


def test_a_dot_after_a_label_of_another_name_is_unchanged(repo: Repo, run: Run) -> None:
    files = {"hosts.txt": "grafana.web01.lab.example\nmy.web01.labs\n"}
    root = repo(files, config=CONFIG.format(options=""), allowlist=CURRENT_ALL)
    assert run(root, "verify").exit_code == 0
