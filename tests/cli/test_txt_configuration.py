"""`.txt` is the suffix of notes and of line-oriented configuration (break-it round 8, #10; issue 27
item 8): requirements.txt, CMakeLists.txt, robots.txt and hosts.txt whose first line is a dated `#`
comment were read as prose, the comment as a dated heading, and their live lines kept; the sweep
changed nothing and `verify --strict` exited 0. A `.txt` that is configuration by its name, or whose
every non-comment line reads as configuration, is no prose: its dated comment is a comment; unless it
is configuration by its lines only and a comment dated on or before the cutover heads them (round 9,
#12): that is a dated record, a retired-host list or a log, kept as before."""

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
    # by what every line is, with no dated comment heading the lines (break-it round 9, #12)
    "ops/upstreams.txt": "# the proxy's upstreams\n10.0.40.11 pug pug.lab.lan\n# 2025-03-01 added rex\n10.0.40.12 rex\n",
    "deploy/app-env.txt": "# the app's environment\nDB_HOST=pug.lab.lan\nDB_PORT = 5432\n",
    "ops/allow-from.txt": "## 2026-11-01 firewall, after the cutover\n10.0.40.11\n10.0.40.12/32\n",
}
# Configuration by its lines only, under a comment dated on or before the cutover that heads them:
# a retired-host list, a log, read as records as an operator reads them (break-it round 9, #12: round
# 8's content rule rewrote them). So is a host list whose name says it is gone.
DATED = {
    "retired.txt": "# 2025-03-03 decommissioned\npug.lab.lan\n",
    "maintenance.txt": "# 2025-01-01\nstatus=replaced disk on pug\n",
    "ops/log.txt": "\n# reboots\n## 2025-02-01\nreboot(pug)\n",
    "deploy/old-env.txt": "# 2025-03-01\nDB_HOST=pug.lab.lan\nDB_PORT = 5432\n",
    "retired-hosts.txt": "# 2025-03-03 decommissioned\npug\nrex\n",
    "decommissioned_nodes.txt": "# 2025-03-03\n10.0.40.11 pug\n",
}
# Configuration by its lines under a dated comment that says nothing is past: a date is no record
# (break-it round 22, #09: a pdsh group `# 2025-06-01 web tier, rebuilt on bookworm` over its hosts was
# kept while the same lines in a suffix-less `dsh/group/web` moved). Live, as that file is.
LIVE_DATED = {
    "pdsh/web.txt": "# 2025-06-01 web tier, rebuilt on bookworm\npug.lab.lan\nrex.lab.lan\n",
    "ops/proxy-upstreams.txt": "# 2025-03-01 moved behind the proxy\n10.0.40.11 pug pug.lab.lan\n10.0.40.12 rex\n",
    "batch/nodes.txt": "; 2025-05-01 batch nodes\n\n10.0.40.11\npug\n",
    "deploy/app.txt": "// 2025-04-01 added the cache\nDB_HOST=pug.lab.lan\n",
    "dsh/group/web": "# 2025-06-01 web tier, rebuilt on bookworm\npug.lab.lan\nrex.lab.lan\n",
}
# Notes stay prose: their dated sections keep what they say, whatever a line of them looks like.
NOTES = {
    "ops/log-notes.txt": "# 2025-03-01 moved the gateway\nssh pug was used then\n",
    "ops/migration.txt": "# 2025-03-01 cutover\nWe moved the database.\nDB_HOST=pug.lab.lan\n",
    "NOTES.md": "# 2025-03-01\nDB_HOST=pug\n",  # Markdown is prose whatever its lines are
    # in rst a `# ...` line is a paragraph, no heading (break-it round 11, #3): a bracketed date starts it
    "docs/hosts.rst": "[2025-03-01] nodes\npug\n",
}


def test_dated_txt_lists_and_logs_stay_records(repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    """The report's repo tx2 and variants: kept as dated sections, listed by audit; the files of
    CONFIGURATION beside them are still rewritten."""
    root = repo({**DATED, **CONFIGURATION}, config=CONFIG, allowlist=ALLOW)
    swept = run(root, "sweep", "--commit")
    assert swept.exit_code == 0, swept.stdout + swept.stderr
    for rel, text in DATED.items():
        assert (root / rel).read_text() == text, rel
    for rel in CONFIGURATION:
        assert "pug" not in (root / rel).read_text(), rel
    assert run(root, "verify", "--strict").exit_code == 0
    audited = run(root, "audit").stdout
    for rel in ("retired.txt", "maintenance.txt", "ops/log.txt", "retired-hosts.txt"):
        assert rel in audited, (rel, audited)


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


def test_a_dated_comment_alone_keeps_no_live_list(repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    """Round 22, #09 and variants: each list is rewritten like its suffix-less twin, the dated comment
    untouched; the lists that say they are past (DATED) are still kept beside them."""
    root = repo({**LIVE_DATED, **DATED}, config=CONFIG, allowlist=ALLOW)
    assert run(root, "verify", "--strict").exit_code == 1  # before: OK, every live list kept as a record
    swept = run(root, "sweep", "--commit")
    assert swept.exit_code == 0, swept.stdout + swept.stderr
    for rel, text in LIVE_DATED.items():
        after = (root / rel).read_text()
        assert "pug" not in after and "10.0.40.11" not in after, (rel, after)
        assert after.splitlines()[0] == text.splitlines()[0], (rel, after)
    for rel, text in DATED.items():
        assert (root / rel).read_text() == text, rel
    assert run(root, "verify", "--strict").exit_code == 0
