"""Exemptions that do not rot: `expires:` and `owner:`, verify failing after expiry, audit --prune."""

from __future__ import annotations

import json

from tests.testing.repos import ALLOWLIST, git

FILES = {
    "runbook.md": "# Runbook\n\nhand-test ran on ana-ml2.\n",
    "incidents/2026-09-01.md": "ana-ml2 was down\n",
    "stacks/app.env": "HOST=fv-ml1\n",
}

EXPIRING = ALLOWLIST.replace(
    "    reason: records where the hand-test was run\n",
    "    reason: records where the hand-test was run\n    owner: netops\n    expires: 2026-01-31\n"
    "  # a rule nobody needs any more, with its own comment\n"
    "  - name: old-dashboard\n    path: stacks/dashboard.yaml\n    reason: it used to pin the old box\n",
)


def test_an_expired_keep_rule_fails_verify_naming_it_and_its_owner(repo, run) -> None:
    root = repo(FILES, allowlist=EXPIRING)
    result = run(root, "verify")
    assert result.exit_code == 1
    assert result.stdout.splitlines()[0] == (
        "allow.yaml:16: error: keep rule hand-test-site (owner: netops) expired on 2026-01-31: renew its "
        "`expires:`, or remove it (`renamer audit --prune`) and sweep what it keeps")
    assert result.stdout.splitlines()[-1].startswith("verify: FAILED: 0 residual, 0 unclassified, "
                                                     "0 near-misses, 1 expired exemption")
    data = json.loads(run(root, "verify", "--format", "json").stdout)
    assert data["ok"] is False
    assert data["expired"] == [{"kind": "keep", "name": "hand-test-site", "source": "allow.yaml", "line": 16,
                                "reason": "records where the hand-test was run", "owner": "netops",
                                "expires": "2026-01-31"}]
    assert run(root, "audit", "--strict").exit_code == 1
    # Renewed, it passes again.
    (root / "allow.yaml").write_text(EXPIRING.replace("2026-01-31", "2999-12-31"))
    assert run(root, "verify").exit_code == 0


def test_a_record_class_expires_too_and_a_bad_date_is_a_config_error(repo, run) -> None:
    allow = ALLOWLIST.replace("    paths: [incidents/**]\n", "    paths: [incidents/**]\n    expires: 2025-06-01\n")
    root = repo(FILES, allowlist=allow)
    result = run(root, "verify")
    assert "allow.yaml:7: error: record class incidents expired on 2025-06-01" in result.stdout
    (root / "allow.yaml").write_text(allow.replace("2025-06-01", "next spring"))
    bad = run(root, "verify")
    assert bad.exit_code == 2
    assert bad.stderr == ("renamer: error: allow.yaml:9: records[1].expires: expected a date like 2027-06-30, "
                          "got 'next spring'\n")
    (root / "allow.yaml").write_text(allow.replace("    expires: 2025-06-01\n", "    owner: [a, b]\n"))
    assert "records[1].owner: expected a one-line string, got a list" in run(root, "verify").stderr


def test_prune_is_a_dry_run_by_default_then_writes_keeping_comments(repo, run) -> None:
    root = repo(FILES, allowlist=EXPIRING)
    before = (root / "allow.yaml").read_text()
    dry = run(root, "audit", "--prune")
    assert dry.exit_code == 0
    assert (root / "allow.yaml").read_text() == before
    assert "-  - name: old-dashboard\n" in dry.stdout and "-  - name: hand-test-site\n" in dry.stdout
    assert "allow.yaml:16: would remove keep rule hand-test-site: expired on 2026-01-31\n" in dry.stdout
    assert "allow.yaml:23: would remove keep rule old-dashboard: matched nothing\n" in dry.stdout
    assert dry.stdout.endswith("audit --prune: dry run, nothing written: 2 exemptions to remove; "
                               "--write removes them\n")
    data = json.loads(run(root, "audit", "--prune", "--format", "json").stdout)
    assert [(r["name"], r["why"]) for r in data["removed"]] == [
        ("hand-test-site", "expired on 2026-01-31"), ("old-dashboard", "matched nothing")]
    assert data["written"] is False
    done = run(root, "audit", "--prune", "--write")
    assert done.exit_code == 0
    after = (root / "allow.yaml").read_text()
    # Only the two entries went; the rest is byte for byte as it was, comments and quoting included.
    assert after == before.split("keep:\n")[0]
    assert run(root, "audit", "--prune").stdout.startswith("audit --prune: nothing to prune")
    # With the keep rule gone, its line is a live reference again: verify says so.
    assert "runbook.md:3:18: residual" in run(root, "verify").stdout


def test_prune_keeps_other_entries_and_their_comments(repo, run) -> None:
    allow = EXPIRING.replace("    expires: 2026-01-31\n", "") + (
        "  # the lab, until it moves too\n  - name: lab\n    path: runbook.md\n    line_contains: lab\n"
        "    reason: 'the lab: still on the old name'\n")
    root = repo({**FILES, "runbook.md": FILES["runbook.md"] + "lab ana-ml2\n"}, allowlist=allow)
    assert run(root, "audit", "--prune", "--write").exit_code == 0
    after = (root / "allow.yaml").read_text()
    assert "old-dashboard" not in after
    assert "  - name: hand-test-site\n" in after
    assert "  # the lab, until it moves too\n  - name: lab\n" in after
    assert "    reason: 'the lab: still on the old name'\n" in after
    assert run(root, "verify").exit_code == 0


def test_prune_needs_its_flag_and_never_touches_presets(repo, run) -> None:
    root = repo(FILES)
    assert run(root, "audit", "--write").exit_code == 2
    assert run(root, "audit", "--prune", "--format", "markdown").exit_code == 2
    preset = "version: 1\ncurrent: ['**']\nextends: [records-common]\n"
    (root / "allow.yaml").write_text(preset)
    git(root, "commit", "-qam", "preset")
    result = run(root, "audit", "--prune", "--write")
    assert result.stdout.startswith("audit --prune: nothing to prune")
    assert (root / "allow.yaml").read_text() == preset


def test_prune_keeps_the_allowlists_mode_line_endings_and_bom(repo, run) -> None:
    import os
    import stat

    root = repo(FILES, allowlist=EXPIRING)
    path = root / "allow.yaml"
    path.write_bytes(b"\xef\xbb\xbf" + EXPIRING.replace("\n", "\r\n").encode())
    os.chmod(path, 0o640)
    assert run(root, "audit", "--prune", "--write").exit_code == 0
    after = path.read_bytes()
    assert after.startswith(b"\xef\xbb\xbfversion: 1\r\n") and b"old-dashboard" not in after
    assert b"\n" not in after.replace(b"\r\n", b"")
    assert stat.S_IMODE(path.stat().st_mode) == 0o640
