"""Tombstones when a change ends an exemption (break-it round 10, finding 9): `verify --since` and
`--staged` read the lines a change adds, but a change that removes a dated heading, adds a heading
that closes a dated section, or edits the configuration (a keep rule, a record class, the cutover)
makes old values live on lines it never touches. Each touched file is now read whole, before and
after; a configuration change re-checks the whole repo; the verdict line says which."""

from __future__ import annotations

import json
from pathlib import Path

from tests.testing.repos import ALLOWLIST, CONFIG, git

NOTES = "# Notes\n\n## 2026-09-01 migration\n\nssh ana-ml2\n\n## Other\n\nssh fv-ml1\n"
FILES = {
    "runbook.md": "# Runbook\n\nssh fv-ml1\nssh ana-ml2 # hand-test\n",
    "servers.md": NOTES,
    "stacks/hosts.txt": "web01-web03 10.250.50.54-10.250.50.60\n",  # a range: a residual before and after
}


def _branch(root: Path) -> None:
    git(root, "checkout", "-q", "-b", "feature")


def _commit(root: Path, message: str = "change") -> None:
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", message)


def test_removing_a_dated_heading_makes_its_lines_live(repo, run) -> None:
    root = repo(FILES)
    _branch(root)
    (root / "servers.md").write_text(NOTES.replace("## 2026-09-01 migration\n\n", ""))
    _commit(root)
    result = run(root, "verify", "--since", "main")
    assert result.exit_code == 1, result.stdout
    assert result.stdout.splitlines() == [
        "servers.md:3:5: live again: ana-ml2 is live again (kept before as dated-section, an exemption the "
        "change ends); it was renamed to fv-ml1 on 2026-10-05 (fv-ml1-move): use fv-ml1",
        "verify: FAILED: 1 old value back in the change since main (1 changed file re-checked whole)"]
    data = json.loads(run(root, "verify", "--since", "main", "--format", "json").stdout)
    assert [(t["path"], t["line"], t["old"]) for t in data["live_again"]] == [("servers.md", 3, "ana-ml2")]
    assert data["ok"] is False and data["tombstones"] == []
    assert run(root, "verify").exit_code == 1  # the full verify agrees


def test_a_heading_that_closes_a_dated_section_early_is_caught_staged(repo, run) -> None:
    root = repo(FILES)
    (root / "servers.md").write_text(NOTES.replace("migration\n\n", "migration\n\n## Current\n\n"))
    git(root, "add", "-A")
    result = run(root, "verify", "--staged")
    assert result.exit_code == 1
    assert result.stdout.startswith("servers.md:7:5: live again: ana-ml2 is live again (kept before as "
                                    "dated-section")


def test_a_change_that_keeps_every_exemption_is_ok_and_says_what_it_read(repo, run) -> None:
    root = repo(FILES)
    _branch(root)
    (root / "servers.md").write_text(NOTES + "\n## More\n\nssh fv-ml1\n")
    # A file holding a residual already (a range left for a decision): not the change's doing.
    (root / "stacks/hosts.txt").write_text(FILES["stacks/hosts.txt"] + "# the web pool\n")
    _commit(root)
    result = run(root, "verify", "--since", "main")
    assert result.exit_code == 0, result.stdout
    assert result.stdout == ("verify: OK: no old value in the 5 lines the change since main adds "
                             "(1 move checked; 2 changed files re-checked whole)\n")


def test_removing_a_keep_rule_rechecks_the_whole_repo(repo, run) -> None:
    root = repo(FILES)
    _branch(root)
    allow = ALLOWLIST.split("keep:\n")[0]
    (root / "allow.yaml").write_text(allow)  # the hand-test keep rule gone; runbook.md untouched
    _commit(root)
    result = run(root, "verify", "--since", "main")
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    assert lines[0] == ("runbook.md:4:5: live again: ana-ml2 is live again (the change edits allow.yaml, so "
                        "every exemption was read again); it was renamed to fv-ml1 on 2026-10-05 "
                        "(fv-ml1-move): use fv-ml1")
    assert lines[-1].endswith("(allow.yaml changed: every file of the work tree re-checked, as "
                              "`renamer verify` does)")


def test_moving_the_cutover_or_dropping_a_record_class_rechecks_the_whole_repo(repo, run) -> None:
    root = repo({**FILES, "incidents/outage.md": "ana-ml2 was down\n"})
    _branch(root)
    (root / "renamer.yaml").write_text(CONFIG.replace("cutover: 2026-10-05", "cutover: 2026-08-01"))
    _commit(root, "move the cutover")
    moved = run(root, "verify", "--since", "main")
    assert moved.exit_code == 1 and "servers.md:5:5: live again:" in moved.stdout
    assert "renamer.yaml changed: every file of the work tree re-checked" in moved.stdout
    git(root, "checkout", "-q", "main")
    git(root, "checkout", "-q", "-b", "records")
    (root / "allow.yaml").write_text(ALLOWLIST.replace(
        "  - name: incidents\n    paths: [incidents/**]\n    reason: incident notes describe the system at "
        "the time of the incident\n", "").replace("current: [", "current: [incidents/**, "))
    _commit(root, "incidents are current now")
    dropped = run(root, "verify", "--since", "main")
    assert dropped.exit_code == 1 and "incidents/outage.md:1:1: live again:" in dropped.stdout


def test_an_added_range_stays_the_tombstone_rules_to_decide(repo, run) -> None:
    """A range on an added line is a refusal, no tombstone; reading the file whole does not make
    it one (nor any other line the change adds)."""
    root = repo(FILES)
    (root / "stacks/pool.txt").write_text("pool web01-web03 ana-ml1-ana-ml4\n")
    git(root, "add", "-A")
    result = run(root, "verify", "--staged")
    assert result.exit_code == 0, result.stdout
