"""verify and audit through the CLI: exit codes, locations, masking, every format."""

from __future__ import annotations

import json
from pathlib import Path

from tests.testing.repos import snapshot
from tests.testing.said import once
from tests.testing.story import STORY


def test_verify_fails_before_and_passes_after(repo, run) -> None:
    root = repo(STORY)
    result = run(root, "verify")
    assert result.exit_code == 1
    once(result.stdout, "litellm/config.yaml:13:22: residual: 10.250.50.54 -> 10.251.50.54 "
         "[general_settings.pass_through_endpoints[0].target]", "current-state file: `renamer sweep` rewrites it")
    assert "docs/unlisted.md:1:1: unclassified: ana-ml2 -> fv-ml1: no allowlist rule covers" in result.stdout
    assert result.stdout.rstrip().endswith("files scanned")
    assert "FAILED" in result.stdout.splitlines()[-1]
    (root / "docs/unlisted.md").unlink()
    assert run(root, "sweep", "--allow-dirty").exit_code == 0
    after = run(root, "verify")
    assert after.exit_code == 0, after.stdout
    assert after.stdout.splitlines()[-1].startswith("verify: OK: 0 residual, 0 unclassified")


def test_verify_masks_secrets(repo, run) -> None:
    files = {"stacks/app.env": "DB_PASSWORD=hunter2@ana-ml2\nURL=postgres://u:s3cr3t@ana-ml2/db\n",
             "stacks/c.yaml": "api_key: sk@ana-ml2 zzz\nauth_token: 'tok ana-ml2'\nhost: ana-ml2\n",
             "stacks/c.json": '{"client_secret": "x@ana-ml2", "host": "ana-ml2"}\n'}
    root = repo(files)
    for args in (["verify"], ["verify", "--format", "json"], ["audit"], ["audit", "--format", "json"],
                 ["audit", "--format", "markdown"], ["verify", "--format", "sarif"]):
        out = run(root, *args).stdout
        for secret in ("hunter2", "s3cr3t", "sk@ana", "tok ana", "x@ana"):
            assert secret not in out, (args, secret)
    text = run(root, "verify").stdout
    assert "    DB_PASSWORD=****" in text
    assert "    URL=postgres://u:****@ana-ml2/db" in text
    assert "    api_key: ****" in text
    assert '    {"client_secret": "****", "host": "ana-ml2"}' in text
    dry = run(root, "sweep", "--dry-run")
    assert "hunter2" not in dry.stdout and "diff lines hold secrets, masked" in dry.stderr
    assert "hunter2@fv-ml1" in run(root, "sweep", "--dry-run", "--show-secrets").stdout  # exact, asked for


def test_near_misses_warn_and_fail_under_strict(repo, run) -> None:
    root = repo({"stacks/a.md": "ANA-ML2 and ana_ml2 and 10-250-50-54 and ana-ml2-ipmi and sub.ana-ml2\n"})
    result = run(root, "verify")
    assert result.exit_code == 0
    lines = [line for line in result.stdout.splitlines() if ": warning: " in line]
    assert lines == [
        "stacks/a.md:1:42: warning: derived-name: 'ana-ml2-ipmi' looks like 'ana-ml2' but the exact rules do not match it",
        "stacks/a.md:1:1: warning: near-miss (case): 'ANA-ML2' looks like 'ana-ml2' but the exact rules do not match it",
        "stacks/a.md:1:13: warning: near-miss (separator): 'ana_ml2' looks like 'ana-ml2' but the exact rules do not match it",
        "stacks/a.md:1:25: warning: near-miss (separator): '10-250-50-54' looks like '10.250.50.54' but the exact rules do not match it",
        "stacks/a.md:1:63: warning: near-miss (part-of-name): 'sub.ana-ml2' holds 'ana-ml2' inside a longer name, which the exact rules do not match",
    ]
    strict = run(root, "verify", "--strict")
    assert strict.exit_code == 1
    assert ": error: near-miss (case): 'ANA-ML2'" in strict.stdout


def test_audit_json_is_the_documented_interface(repo, run) -> None:
    root = repo(STORY)
    run(root, "sweep")
    data = json.loads(run(root, "audit", "--format", "json").stdout)
    assert data["name"] == "fv-ml1-move"
    assert data["summary"] == {
        "kept": {"persistent-memory": 2, "dated-file": 1, "dated-section": 1, "hand-test-site": 1,
                 "incidents": 1, "inline": 1},
        "residual": 0, "unclassified": 1, "skipped": 0, "files_scanned": 11, "near_misses": 0,
        "ignored_with_references": 0,
    }
    first = data["references"][0]
    assert set(first) >= {"path", "line", "column", "old", "new", "status", "reason", "note"}
    kept = {(r["path"], r["line"], r["reason"]) for r in data["references"] if r["status"] == "kept"}
    assert kept == {
        ("persistent-memory.d/2026-09-14-kv.md", 1, "persistent-memory"),
        ("persistent-memory.d/2026-09-14-kv.md", 2, "persistent-memory"),
        ("stacks/app/.env.bak-20261005-rebal", 1, "dated-file"),
        ("runbook.md", 5, "hand-test-site"), ("runbook.md", 6, "inline"),
        ("runbook.md", 10, "dated-section"), ("incidents/bmc.md", 1, "incidents"),
    }
    inline = next(r for r in data["references"] if r["reason"] == "inline")
    assert inline["note"] == "retired board"
    incident = next(r for r in data["references"] if r["reason"] == "incidents")
    assert (incident["old"], incident["column"]) == ("ana-ml2-bmc", 1)  # its own key
    assert data["stale_exemptions"] == []


def test_audit_reports_stale_exemptions_and_strict(repo, run) -> None:
    from tests.testing.repos import ALLOWLIST

    allow = ALLOWLIST + "  - name: never-used\n    path: nowhere.md\n    reason: nothing\n"
    root = repo({"stacks/a.env": "H=fv-ml1\n"}, allowlist=allow)
    data = json.loads(run(root, "audit", "--format", "json").stdout)
    assert data["stale_exemptions"] == [
        {"kind": "record", "name": "persistent-memory", "source": "allow.yaml", "files": 0, "stale": True},
        {"kind": "record", "name": "incidents", "source": "allow.yaml", "files": 0, "stale": True},
        {"kind": "keep", "name": "hand-test-site", "source": "allow.yaml", "files": 0, "stale": True},
        {"kind": "keep", "name": "never-used", "source": "allow.yaml", "files": 0, "stale": True},
    ]
    assert run(root, "audit").exit_code == 0
    assert run(root, "audit", "--strict").exit_code == 1
    assert "keep never-used (allow.yaml): matched nothing" in run(root, "audit").stdout


def test_audit_table_markdown_and_output_file(repo, run, tmp_path: Path) -> None:
    root = repo(STORY)
    table = run(root, "audit").stdout
    assert "persistent-memory (2): dated entries record what the box was when they were written" in table
    assert "  persistent-memory.d/2026-09-14-kv.md:1  ana-ml2  [2026-09-14] ana-ml2 KV sized" in table
    assert "Per file:" in table and "Stale exemptions: 0" in table
    markdown = run(root, "audit", "--format", "markdown").stdout
    assert markdown.startswith("## renamer audit: fv-ml1-move\n")
    assert "| persistent-memory | 2 | dated entries record what the box was when they were written |" in markdown
    before = snapshot(root)
    target = tmp_path / "audit.json"
    result = run(root, "audit", "--format", "json", "--output", str(target))
    assert result.exit_code == 0 and result.stdout == ""
    assert json.loads(target.read_text())["name"] == "fv-ml1-move"
    assert snapshot(root) == before


def _check_github_sarif(document: dict) -> None:
    """What GitHub code scanning requires of an upload (its documented required properties)."""
    from sarif_pydantic import Sarif

    Sarif.model_validate(document)
    assert document["version"] == "2.1.0"
    for run_ in document["runs"]:
        assert run_["tool"]["driver"]["name"]
        rule_ids = {rule["id"] for rule in run_["tool"]["driver"]["rules"]}
        for result in run_["results"]:
            assert result["ruleId"] in rule_ids
            assert result["message"]["text"]
            assert result["level"] in {"none", "note", "warning", "error"}
            for location in result["locations"]:
                physical = location["physicalLocation"]
                assert not physical["artifactLocation"]["uri"].startswith("/")
                assert physical["region"]["startLine"] >= 1
            assert result["partialFingerprints"]
            for suppression in result.get("suppressions", []):
                assert suppression["kind"] in {"inSource", "external"}
                assert suppression["status"] == "accepted" and suppression["justification"]


def test_sarif_outputs(repo, run) -> None:
    root = repo(STORY)
    verify = json.loads(run(root, "verify", "--format", "sarif").stdout)
    _check_github_sarif(verify)
    assert {r["ruleId"] for r in verify["runs"][0]["results"]} == {"residual", "unclassified"}
    audit = json.loads(run(root, "audit", "--format", "sarif").stdout)
    _check_github_sarif(audit)
    kept = [r for r in audit["runs"][0]["results"] if r["ruleId"] == "kept"]
    assert len(kept) == 7 and all(r["suppressions"] for r in kept)
    prints = [r["partialFingerprints"]["renamerReference/v1"] for r in kept]
    moved = repo.__wrapped__ if hasattr(repo, "__wrapped__") else None
    assert moved is None and len(prints) == 7


def test_fingerprints_survive_line_moves(repo, run) -> None:
    root = repo({"stacks/a.md": "ana-ml2 here\n"})
    first = json.loads(run(root, "verify", "--format", "sarif").stdout)
    (root / "stacks/a.md").write_text("new line on top\n\nana-ml2 here\n")
    second = json.loads(run(root, "verify", "--format", "sarif").stdout)

    def prints(doc: dict) -> list[str]:
        return [r["partialFingerprints"]["renamerReference/v1"] for r in doc["runs"][0]["results"]]

    assert prints(first) == prints(second)


def test_verify_json(repo, run) -> None:
    root = repo({"stacks/a.yaml": "h: ana-ml2\n"})
    data = json.loads(run(root, "verify", "--format", "json").stdout)
    assert data["ok"] is False
    assert data["findings"] == [{
        "path": "stacks/a.yaml", "line": 1, "column": 4, "old": "ana-ml2", "new": "fv-ml1",
        "status": "residual", "reason": None,
        "note": "current-state file: `renamer sweep` rewrites it", "text": "h: ana-ml2",
        "key_path": "h", "role": "value"}]
