"""Names of other things that equal the host's (issue 27, t36-sweep finding 20), end to end.

The sweep held the repository `acme/web01` in `git clone` and `pip install git+...`, but rewrote,
for the same repository, go.mod's `module git.lab.example/ops/web01` and the .go import of it
(`go get` then finds a module declaring another path), package.json's `"name": "web01"` (the
published package) and a Grafana link's dashboard UID (`/d/web01/overview`: a 404 after). Each is
kept now (`repository`, `package`, `dashboard`), and their neighbours with them; a host beside them,
and the same words where they name no such thing, follow.
"""

from __future__ import annotations

import json

from tests.testing.repos import Repo, Run

CONFIG = ("version: 1\nrenames:\n  hosts: {web01: app01, web01.lab.example: app01.lab.example}\n"
          "  addresses: {10.0.0.70: 10.0.1.90}\nallowlist: allow.yaml\n")
ALLOW = 'version: 1\ncurrent: ["**"]\n'

KEPT = {
    "go.mod": "module git.lab.example/ops/web01\n\ngo 1.22\n\nrequire (\n\tgit.lab.example/ops/tools v1.2.0\n"
              "\tgithub.com/acme/web01 v0.3.1\n)\n",
    "go.sum": "github.com/acme/web01 v0.3.1 h1:abc=\n",
    "cmd/main.go": 'package main\n\nimport (\n\t"fmt"\n\n\thealth "git.lab.example/ops/web01/internal/health"\n)\n\n'
                   'func main() { fmt.Println(health.Serve("10.0.0.70:8080")) }\n',
    "tool/tool.go": 'package tool\n\nimport "github.com/acme/web01/client"\n',
    "package.json": '{\n  "name": "web01",\n  "version": "1.0.0",\n  "private": false,\n'
                    '  "scripts": {"start": "node server.js --host web01"}\n}\n',
    "Cargo.toml": '[package]\nname = "web01"\nversion = "0.1.0"\n\n[dependencies]\n',
    "pyproject.toml": '[project]\nname = "web01"\nversion = "1.0"\n',
    "docs/links.md": "Dashboard: https://grafana.lab.example/d/web01/overview and "
                     "https://grafana.lab.example/d-solo/web01/overview?panelId=2\n",
}


def test_a_module_path_a_package_name_and_a_dashboard_uid_are_kept(repo: Repo, run: Run) -> None:
    root = repo(KEPT, config=CONFIG, allowlist=ALLOW)
    data = json.loads(run(root, "audit", "--format", "json").stdout)
    kept = {(f["path"], f["reason"]) for f in data["references"] if f["status"] == "kept"}
    assert {("go.mod", "repository"), ("go.sum", "repository"), ("cmd/main.go", "repository"),
            ("tool/tool.go", "repository"), ("package.json", "package"), ("Cargo.toml", "package"),
            ("pyproject.toml", "package"), ("docs/links.md", "dashboard")} <= kept, kept
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    # what the names are kept in stays; a host and an address beside them follow
    for path in ("go.mod", "go.sum", "tool/tool.go", "Cargo.toml", "pyproject.toml"):
        assert (root / path).read_text() == KEPT[path], path
    assert (root / "cmd/main.go").read_text() == KEPT["cmd/main.go"].replace("10.0.0.70", "10.0.1.90")
    assert (root / "package.json").read_text() == KEPT["package.json"].replace("--host web01", "--host app01")
    assert (root / "docs/links.md").read_text() == KEPT["docs/links.md"]
    assert run(root, "verify", "--strict").exit_code == 0


def test_the_same_words_where_they_name_no_such_thing_follow(repo: Repo, run: Run) -> None:
    files = {
        "inventory.json": '{\n  "name": "web01",\n  "address": "10.0.0.70"\n}\n',  # no manifest
        "pyproject.toml": '[tool.deploy]\nname = "web01"\n',  # not the package's table
        "go.mod": "module git.lab.example/ops/site\n\nreplace web01.lab.example/ops/lib => ../lib\n",
        "links.md": "Status: https://web01.lab.example/d/overview\n",  # the host in a URL
    }
    root = repo(files, config=CONFIG, allowlist=ALLOW)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    assert (root / "inventory.json").read_text() == '{\n  "name": "app01",\n  "address": "10.0.1.90"\n}\n'
    assert (root / "pyproject.toml").read_text() == '[tool.deploy]\nname = "app01"\n'
    assert (root / "go.mod").read_text() == files["go.mod"].replace("web01.lab.example", "app01.lab.example")
    assert (root / "links.md").read_text() == "Status: https://app01.lab.example/d/overview\n"
