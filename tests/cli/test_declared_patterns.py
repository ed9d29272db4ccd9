"""Patterns that match an old value, end to end through the CLI (break-it round 21, finding 12;
issue 27 item 12).

nginx `server_name ~^web0[1-3]\\.lab$` (a short name's pattern with a literal domain), bash extglob
`web0@(1|2)`, SQL `LIKE 'web0%'` / `LIKE '10.0.0.7_'`: neither rewritten nor reported before, verify
OK. Now each is a `pattern` residual. The guard is the class: a pattern at a position its format
declares (nginx `server_name ~`, `if ($host ~ ...)`, `location ~`, HAProxy `hdr_reg`/`-m reg`,
Apache `RewriteCond %{HTTP_HOST}`, bash `=~`, SQL `LIKE`/`SIMILAR TO`) is compiled in that grammar
whatever syntax it holds, and a short name's pattern is tried on the name's FQDN in the pattern's
own domain. The real bash and SQLite say what the patterns match; patterns that match no old value,
or the new value as well, stay silent.
"""

from __future__ import annotations

import json
import sqlite3
import subprocess

from tests.testing.repos import CURRENT_ALL, Repo, Run

CONFIG = """\
version: 1
renames:
  hosts: {web01: app01}
  addresses: {10.0.0.70: 10.0.1.70}
allowlist: allow.yaml
"""

FILES = {
    "nginx.conf": "server {\n  server_name ~^web0[1-3]\\.lab$;\n}\nserver {\n  server_name ~^web0.\\.lab$ www;\n"
                  '  if ($host ~* "^web0[12]\\.") { return 301; }\n}\n',
    "c.sh": "shopt -s extglob\nif [[ $h == web0@(1|2) ]]; then echo match; fi\n"
            "if [[ $h =~ ^web0.$ ]]; then echo m; fi\n",
    "q.sql": "SELECT * FROM hosts WHERE name LIKE 'web0%';\nDELETE FROM leases WHERE ip LIKE '10.0.0.7_';\n",
    "haproxy.cfg": "frontend f\n  acl old hdr_reg(host) -i ^web0[1-3]\\.lab$\n",
    ".htaccess": "RewriteCond %{HTTP_HOST} ^web0.\\.lab$ [NC]\n",
}
EXPECTED = {("nginx.conf", 2, "web01"), ("nginx.conf", 5, "web01"), ("nginx.conf", 6, "web01"),
            ("c.sh", 2, "web01"), ("c.sh", 3, "web01"), ("q.sql", 1, "web01"), ("q.sql", 2, "10.0.0.70"),
            ("haproxy.cfg", 2, "web01"), (".htaccess", 1, "web01")}
QUIET = {
    "quiet.conf": "server_name ~^www\\.lab$;\nlocation ~ \\.php$ { }\n",
    "quiet.sql": "SELECT 1 WHERE name LIKE 'db%';\nSELECT 1 WHERE name LIKE '%';\n",  # `%` matches app01 too
    "quiet.sh": "case $h in db0@(1|2)) ;; esac\n",
    "quiet.md": "We like 'web' servers; **bold** text.\n",
}


def test_the_consumers_match_the_old_value() -> None:
    with sqlite3.connect(":memory:") as db:
        assert db.execute("SELECT 'web01' LIKE 'web0%', '10.0.0.70' LIKE '10.0.0.7_'").fetchone() == (1, 1)
    script = "shopt -s extglob\nh=web01\nif [[ $h == web0@(1|2) ]]; then echo match; fi\n"
    assert subprocess.run(["bash", "-c", script], capture_output=True, text=True, check=True).stdout == "match\n"


def test_round21_12_patterns_matching_an_old_value_are_pattern_residuals(repo: Repo, run: Run) -> None:
    root = repo({**FILES, **QUIET}, config=CONFIG, allowlist=CURRENT_ALL)
    done = run(root, "verify", "--format", "json")
    assert done.exit_code == 1
    findings = json.loads(done.stdout)["findings"]
    assert {(f["path"], f["line"], f["old"]) for f in findings} == EXPECTED
    assert {f["reason"] for f in findings} == {"pattern"}
    before = {path: (root / path).read_bytes() for path in (*FILES, *QUIET)}
    assert run(root, "sweep", "--commit").exit_code == 1
    assert {path: (root / path).read_bytes() for path in before} == before
