"""Tombstones: after the move, verify --staged and --since catch an old name coming back."""

from __future__ import annotations

import json

from tests.testing.repos import git

FILES = {
    "stacks/app.env": "HOST=fv-ml1\n",
    "incidents/2026-09-01.md": "ana-ml2 was down for an hour\n",
    "runbook.md": "# Runbook\n\nThe box is fv-ml1.\n",
}


def test_a_staged_old_name_fails_with_the_moves_message(repo, run) -> None:
    root = repo(FILES)
    (root / "stacks" / "app.env").write_text("HOST=fv-ml1\nBACKUP=ana-ml2\n")
    (root / "incidents" / "2026-11-01.md").write_text("ana-ml2 again, in a record: fine\n")
    git(root, "add", "-A")
    result = run(root, "verify", "--staged")
    assert result.exit_code == 1, result.stdout
    assert result.stdout.splitlines() == [
        "stacks/app.env:2:8: tombstone: ana-ml2 was renamed to fv-ml1 on 2026-10-05 (fv-ml1-move): use fv-ml1",
        "verify: FAILED: 1 old value back in the staged change"]
    # Unstaged edits are not the commit's: only the index counts.
    git(root, "reset", "-q", "stacks/app.env")
    clean = run(root, "verify", "--staged")
    assert clean.exit_code == 0, clean.stdout
    assert clean.stdout == ("verify: OK: no old value in the 1 line the staged change adds (1 move checked; "
                            "1 changed file re-checked whole)\n")


def test_exempt_lines_stay_exempt(repo, run) -> None:
    root = repo(FILES)
    (root / "runbook.md").write_text("# Runbook\n\nThe box is fv-ml1 (it was ana-ml2).  # renamer: keep\n")
    git(root, "add", "-A")
    assert run(root, "verify", "--staged").exit_code == 0


def test_since_a_branch_point_and_json(repo, run) -> None:
    root = repo(FILES)
    git(root, "checkout", "-q", "-b", "feature")
    (root / "stacks" / "new.yaml").write_text("upstream: http://10.250.50.54:8016/v1\n")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "add a stack")
    result = run(root, "verify", "--since", "main", "--format", "json")
    assert result.exit_code == 1
    data = json.loads(result.stdout)
    assert data["tombstones"] == [{"path": "stacks/new.yaml", "line": 1, "column": 18, "old": "10.250.50.54",
                                   "new": "10.251.50.54", "move": "fv-ml1-move", "date": "2026-10-05",
                                   "message": "10.250.50.54 was renamed to 10.251.50.54 on 2026-10-05 "
                                              "(fv-ml1-move): use 10.251.50.54"}]
    assert data["files"] == 1 and data["lines"] == 1
    assert run(root, "verify", "--since", "feature").exit_code == 0  # nothing since itself
    bad = run(root, "verify", "--since", "no-such-branch")
    assert bad.exit_code != 0 and bad.stderr.startswith("renamer: error: git diff failed:")
    both = run(root, "verify", "--staged", "--since", "main")
    assert both.exit_code == 2 and "--staged and --since exclude each other" in both.stderr


def test_past_moves_are_remembered_too(repo, run) -> None:
    root = repo({**FILES, "moves/2025-lab.yaml": "version: 1\nname: lab-move\ncutover: 2025-03-01\n"
                                                 "renames:\n  hosts:\n    old-lab: ana-ml2\n"
                                                 "allowlist: ../allow.yaml\n"})
    (root / "stacks" / "lab.env").write_text("LAB=old-lab\n")
    (root / "stacks" / "quoted \"name\".env").write_text("X=ana-ml2\n")
    git(root, "add", "-A")
    result = run(root, "verify", "--staged")
    assert result.exit_code == 1
    assert result.stdout.splitlines()[:2] == [
        "stacks/lab.env:1:5: tombstone: old-lab was renamed to ana-ml2 on 2025-03-01 (lab-move): use ana-ml2",
        'stacks/quoted "name".env:1:3: tombstone: ana-ml2 was renamed to fv-ml1 on 2026-10-05 '
        "(fv-ml1-move): use fv-ml1"]
    # The past move's own config names old values: never a finding, never swept.
    assert "moves/2025-lab.yaml" not in run(root, "verify").stdout


def test_a_file_added_under_an_old_name_fails_by_its_path(repo, run) -> None:  # type: ignore[no-untyped-def]
    """Break-it round 12, #3: `hosts/ana-ml2/compose.yaml` and `ana-ml2.env` added, their content
    holding no old value, passed `verify --staged` while a full verify failed on both paths."""
    root = repo(FILES)
    (root / "hosts" / "ana-ml2").mkdir(parents=True)
    (root / "hosts" / "ana-ml2" / "compose.yaml").write_text("services:\n  app:\n    image: nginx\n")
    (root / "stacks" / "ana-ml2.env").write_text("PORT=80\n")
    git(root, "add", "-A")
    result = run(root, "verify", "--staged")
    assert result.exit_code == 1, result.stdout
    assert "hosts/ana-ml2/compose.yaml:0:7: tombstone: ana-ml2 was renamed to fv-ml1" in result.stdout
    assert "stacks/ana-ml2.env:0:8: tombstone: ana-ml2 was renamed to fv-ml1" in result.stdout
    assert result.stdout.endswith("verify: FAILED: 2 old values back in the staged change\n")
    assert run(root, "verify").exit_code == 1  # the full verify says it too
