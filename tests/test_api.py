"""The library API, driven alone through the whole fv-ml1 move, and docs/api.md run as written."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

import renamer
from renamer.shipped import build_example
from tests.testing.repos import CURRENT_ALL, git, make_repo

DOCS = Path(__file__).resolve().parent.parent / "docs"


@pytest.fixture
def example(tmp_path: Path) -> Path:
    return build_example(tmp_path / "fv-ml1")


def test_the_fv_ml1_move_through_the_api_alone(example: Path, run) -> None:
    project = renamer.open_project(example)
    before = project.verify()
    assert not before.ok
    assert before.data() == json.loads(run(example, "verify", "--format", "json").stdout)
    assert any(f.get("key_path") == "general_settings.pass_through_endpoints[0].target"
               for f in before.data()["findings"])

    plan = project.plan()
    dry_run = run(example, "sweep", "--dry-run", "--show-secrets")
    assert dry_run.stdout_bytes.startswith(plan.diff_bytes())
    assert plan.diff() == plan.diff_bytes().decode("utf-8", "surrogateescape")
    assert plan.data() == json.loads(run(example, "sweep", "--dry-run", "--format", "json").stdout)
    assert plan.renames == [("playbooks/host_vars/ana-ml2.yml", "playbooks/host_vars/fv-ml1.yml")]
    assert {r.reason for r in plan.kept} >= {"archival-memory", "backups", "incidents", "inline"}
    assert {r.path for r in plan.skipped} == {"assets/rack-label.bin"}
    # as verify counts them; ANA_ML2 in ANA_ML2_URL is an identifier's word (docs/matching.md)
    assert {m.text for m in plan.near_misses} == {"ana-ml2-ipmi"}

    applied = project.apply(plan, commit=True)
    assert applied.renamed == 1 and len(applied.commits) == 2
    assert git(example, "status", "--porcelain") == ""
    assert git(example, "log", "--format=%H", "-2").split() == list(reversed(applied.commits))

    after = project.verify()
    assert after.ok and after.verdict.residual == 0
    audit = project.audit()
    assert audit.data() == json.loads(run(example, "audit", "--format", "json").stdout)
    assert audit.data()["summary"]["kept"]["archival-memory"] == 5
    assert not audit.failed


def test_apply_refuses_a_dirty_tree_and_a_stale_plan(example: Path) -> None:
    project = renamer.open_project(example)
    plan = project.plan()
    (example / "stray.txt").write_text("not committed\n")
    with pytest.raises(renamer.UnsafeError) as dirty:
        project.apply(plan)
    assert dirty.value.exit_code == 3 and "uncommitted changes (stray.txt)" in str(dirty.value)
    (example / "stray.txt").unlink()
    target = example / plan.changes[-1].path
    target.write_bytes(target.read_bytes() + b"\n")
    with pytest.raises(renamer.UnsafeError, match="changed during the sweep"):
        project.apply(plan, allow_dirty=True)


def test_errors_carry_their_exit_code(tmp_path: Path) -> None:
    (tmp_path / "renamer.yaml").write_text("version: 1\nrenames: {hosts: {ana-ml2: 'bad name'}}\n")
    with pytest.raises(renamer.ConfigError) as failed:
        renamer.open_project(tmp_path)
    assert failed.value.exit_code == 2
    assert failed.value.lines[0].startswith("renamer.yaml:2: ")


def test_plan_of_some_paths_only(example: Path) -> None:
    plan = renamer.open_project(example).plan(["stacks"])
    assert plan.changes and all(c.path.startswith("stacks/") for c in plan.changes)


def test_docs_api_example_runs_as_written(tmp_path: Path) -> None:
    blocks = re.findall(r"```python\n(.*?)```", (DOCS / "api.md").read_text(), re.DOTALL)
    assert blocks
    done = subprocess.run([sys.executable, "-c", blocks[0]], capture_output=True, text=True, errors="replace",
                          cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "files to change;" in done.stdout and "commits" in done.stdout


def test_apply_without_commit_then_with_commits_the_rewrite(example: Path) -> None:
    """Round 8 #15 through the library: `apply(commit=False)`, then `apply()` of a new plan."""
    project = renamer.open_project(example)
    first = project.apply(project.plan(), commit=False)
    assert first.files_written and not first.commits
    again = project.apply(project.plan())
    assert again.commits  # the earlier rewrite, committed as the sweep's own
    assert git(example, "status", "--porcelain") == ""
    assert project.verify().ok


def test_plan_moves_kubernetes_identities_only_when_allowed(tmp_path: Path) -> None:
    """As `sweep --allow-identity`: a Service's name and its `.svc` readers, a residual `identity`
    by default, are edits of the plan when allowed."""
    config = "version: 1\nrenames:\n  hosts: {pug: wolf}\nallowlist: allow.yaml\n"
    files = {"k8s/svc.yaml": "apiVersion: v1\nkind: Service\nmetadata:\n  name: pug\n  namespace: db\n",
             "app.env": "DB=pug.db.svc.cluster.local\n"}
    root = make_repo(tmp_path / "repo", files, config=config, allowlist=CURRENT_ALL)
    held = renamer.open_project(root).plan()
    assert not held.changes
    assert sorted((r.path, r.reason) for f in held.plan.scan.files for r in f.references) == [
        ("app.env", "identity"), ("k8s/svc.yaml", "identity")]
    moved = renamer.open_project(root).plan(allow_identity=True)
    assert sorted(c.path for c in moved.changes) == ["app.env", "k8s/svc.yaml"]
