"""`.txt` is the suffix of notes and of line-oriented configuration (break-it round 8, #10; issue 27
item 8): requirements.txt, CMakeLists.txt, robots.txt and hosts.txt whose first line is a dated `#`
comment were read as prose, the comment as a dated heading, and their live lines kept; the sweep
changed nothing and `verify --strict` exited 0. A `.txt` that is configuration by its name, or whose
every non-comment line reads as configuration, is no prose: its dated comment is a comment."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Result
from tests.testing.repos import init_and_commit

CONFIG = ("version: 1\ncutover: 2026-10-05\nrenames:\n  hosts: {pug: wolf, pug.lab.lan: wolf.lab.lan}\n"
          "  addresses: {10.0.40.11: 10.0.50.21}\nallowlist: allow.yaml\n")
ALLOW = 'version: 1\nextends: [records-common]\ncurrent: ["**"]\n'
PAIRS = ("--from", "pug=wolf", "--from", "pug.lab.lan=wolf.lab.lan", "--from", "10.0.40.11=10.0.50.21")

CONFIGURATION = {
    # by name (the report's four, and their kin)
    "requirements.txt": "# 2025-03-01 pinned\ngit+ssh://git@pug/lib.git#egg=lib\n",
    "CMakeLists.txt": "# 2025-03-01 build\ncmake_minimum_required(VERSION 3.20)\nset(SERVER pug)\n"
                      "target_compile_definitions(app PRIVATE HOST=\"pug\")\n",
    "robots.txt": "# 2025-03-01 added\nUser-agent: *\nSitemap: https://pug.lab.lan/sitemap.xml\n",
    "hosts.txt": "# 2025-03-01 nodes\npug\nrex\n",
    "requirements-dev.txt": "# 2025-03-01 dev\n-r requirements.txt\nlib @ git+ssh://git@pug/lib.git\n",
    "requirements/base.txt": "# 2025-03-01\n--index-url https://pug.lab.lan/simple\nrequests==2.31\n",
    "constraints.txt": "# 2025-03-01 the mirror\n--extra-index-url http://10.0.40.11/simple\n",
    ".well-known/security.txt": "# 2025-03-01 contact\nContact: mailto:ops@pug.lab.lan\n",
    # by what every line is
    "ops/upstreams.txt": "# 2025-03-01 moved behind the proxy\n10.0.40.11 pug pug.lab.lan\n10.0.40.12 rex\n",
    "deploy/app-env.txt": "# 2025-03-01\nDB_HOST=pug.lab.lan\nDB_PORT = 5432\n",
    "ops/allow-from.txt": "## 2025-03-01 firewall\n10.0.40.11\n10.0.40.12/32\n",
}
# Notes stay prose: their dated sections keep what they say, whatever a line of them looks like.
NOTES = {
    "ops/log.txt": "# 2025-03-01 moved the gateway\nssh pug was used then\n",
    "ops/migration.txt": "# 2025-03-01 cutover\nWe moved the database.\nDB_HOST=pug.lab.lan\n",
    "NOTES.md": "# 2025-03-01\nDB_HOST=pug\n",  # Markdown is prose whatever its lines are
    "docs/hosts.rst": "# 2025-03-01 nodes\npug\n",
}


def test_txt_configuration_is_swept_and_verified(repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    root = repo({**CONFIGURATION, **NOTES}, config=CONFIG, allowlist=ALLOW)
    assert run(root, "verify", "--strict").exit_code == 1  # the live references are found
    swept = run(root, "sweep", "--commit")
    assert swept.exit_code == 0, swept.stdout + swept.stderr
    for rel, text in CONFIGURATION.items():
        after = (root / rel).read_text()
        assert "pug" not in after and "10.0.40.11" not in after, (rel, after)
        assert after.splitlines()[0] == text.splitlines()[0]  # the dated comment itself is untouched
    for rel, text in NOTES.items():
        assert (root / rel).read_text() == text, rel
    verified = run(root, "verify", "--strict")
    assert verified.exit_code == 0, verified.stdout
    assert f"dated-section ({len(NOTES)})" in run(root, "audit").stdout


@pytest.mark.parametrize("path", ("requirements.txt", "CMakeLists.txt", "robots.txt", "hosts.txt"))
def test_the_reports_cases_after_init(path: str, repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    """init's proposal on the bare repo, then the sweep and verify --strict."""
    root = repo({path: CONFIGURATION[path], "NOTES.md": NOTES["NOTES.md"]}, config=None, allowlist=None)
    init_and_commit(root, run, PAIRS)
    assert run(root, "verify").exit_code == 1  # before: OK, "dated-section"
    swept = run(root, "sweep", "--commit")
    assert swept.exit_code == 0, swept.stdout + swept.stderr
    assert "pug" not in (root / path).read_text()
    assert (root / "NOTES.md").read_text() == NOTES["NOTES.md"]
    assert run(root, "verify", "--strict").exit_code == 0
