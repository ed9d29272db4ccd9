"""Host enumerations with an ellipsis (t31 round 24, finding 26): under `web01 -> app01`,
`web01, web02, ..., web05` (prose, a YAML flow list with `…`, a Python list, HTML `&hellip;` with
FQDNs, CRLF and Latin-1 files) is a `range` residual, nothing of it rewritten (before: `app01, web02,
..., web05`, verify --strict OK); a list of unrelated names with an ellipsis is rewritten as before."""

from __future__ import annotations

import ast
from collections.abc import Callable
from pathlib import Path

import yaml

from tests.conftest import Result

ALLOW = 'version: 1\ncurrent: ["**"]\n'
CONFIG = ("version: 1\nrenames:\n  hosts: {web01: app01, web01.lab.example: app01.lab.example, pug: dog}\n"
          "allowlist: allow.yaml\n")
HELD: dict[str, bytes] = {
    "RUNBOOK.md": b"The web nodes web01, web02, ..., web05 serve the site.\n",  # report
    "notes.yaml": "web_nodes: [web01, web02, \u2026, web05]\n".encode(),  # report
    "nodes.py": b'NODES = ["web01", "web02", ..., "web05"]\r\n',  # variant: quoted, CRLF
    "index.html": b"<p>web01.lab.example, web02.lab.example, &hellip;, web05.lab.example</p>\n",  # variant
    "LISEZMOI.txt": "Nœuds numérotés : web01, web02, web03, ...\n".encode("latin-1", "replace"),  # Latin-1
}


def test_an_enumeration_with_an_ellipsis_is_a_range_residual(repo: Callable[..., Path],
                                                               run: Callable[..., Result]) -> None:
    files = {**HELD, "team.md": "On call: pug, rex, ... and others.\n"}
    root = repo(files, config=CONFIG, allowlist=ALLOW)
    swept = run(root, "sweep", "--commit")
    assert swept.exit_code == 1, swept.stdout + swept.stderr  # written, residuals left for a decision
    for rel, data in HELD.items():
        assert (root / rel).read_bytes() == data, rel
    assert (root / "team.md").read_text() == "On call: dog, rex, ... and others.\n"  # no stem: no range
    yaml.safe_load((root / "notes.yaml").read_text())
    ast.parse((root / "nodes.py").read_text())
    verify = run(root, "verify", "--strict")
    assert verify.exit_code == 1, verify.stdout
    for rel in HELD:
        assert f"{rel}:1:" in verify.stdout and "a member of an enumeration with an ellipsis" in verify.stdout, rel
    assert verify.stdout.count("residual (range)") == len(HELD), verify.stdout
