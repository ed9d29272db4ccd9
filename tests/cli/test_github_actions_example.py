"""examples/github-actions/renamer.yml, its shell steps run as GitHub runs them (bash -e, in order,
a step after a failure only with `if: always()`), on a real git repo with renamer on PATH."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
from ruamel.yaml import YAML

from tests.testing.repos import git

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "github-actions" / "renamer.yml"
BIN = str(Path(sys.executable).parent)


def _steps() -> list[dict[str, str]]:
    workflow = YAML(typ="safe").load(EXAMPLE.read_text())
    return list(workflow["jobs"]["verify"]["steps"])


@dataclass
class Ran:
    name: str
    code: int | None  # None: skipped


def _runs(step: dict[str, str], failed: bool, event: str, outcomes: dict[str, str]) -> bool:
    condition = step.get("if", "success()")
    always = "always()" in condition
    if failed and not always:
        return False
    if "github.event_name == 'pull_request'" in condition and event != "pull_request":
        return False
    return all(outcomes.get(step_id) == "success"
               for step_id in re.findall(r"steps\.(\w+)\.outcome == 'success'", condition))


def _run_workflow(root: Path, event: str = "pull_request") -> tuple[list[Ran], Path]:
    summary = root.parent / "summary.md"
    summary.write_text("")
    env = {**os.environ, "PATH": f"{BIN}:{os.environ['PATH']}", "GITHUB_STEP_SUMMARY": str(summary),
           "NO_COLOR": "1"}
    ran, failed = [], False
    outcomes: dict[str, str] = {}
    for step in _steps():
        if "run" not in step:
            if "upload-sarif" in step.get("uses", "") and _runs(step, failed, event, outcomes):
                ran.append(Ran("upload-sarif", 0 if (root / "renamer.sarif").is_file() else 1))
            continue  # an action (checkout, setup-python): GitHub's, not ours
        script = step["run"]
        assert "${{" not in script, script  # expressions reach a script through env: only
        step_env = {k: str(v).replace("${{ github.base_ref }}", "main") for k, v in step.get("env", {}).items()}
        if script.startswith("pip install"):
            assert re.search(r"RENAMER_REF: v\d+\.\d+\.\d+\b", EXAMPLE.read_text())
            continue  # installed already: renamer is on PATH
        if not _runs(step, failed, event, outcomes):
            ran.append(Ran(step.get("name", script), None))
            continue
        done = subprocess.run(["bash", "-e", "-c", script], cwd=root, env={**env, **step_env},
                              capture_output=True, text=True)
        ran.append(Ran(step.get("name", script), done.returncode))
        if "id" in step:
            outcomes[step["id"]] = "success" if done.returncode == 0 else "failure"
        failed = failed or done.returncode != 0
    return ran, summary


def _codes(ran: list[Ran]) -> dict[str, int | None]:
    return {r.name: r.code for r in ran}


@pytest.fixture
def pull_request(repo: Callable[..., Path], tmp_path: Path) -> Path:
    """A repo whose origin/main is the base of a pull request."""
    root = repo({"runbook.md": "ssh fv-ml1\n"})
    origin = tmp_path / "origin.git"
    git(tmp_path, "clone", "-q", "--bare", str(root), str(origin))
    git(root, "remote", "add", "origin", str(origin))
    git(root, "fetch", "-q", "origin")
    return root


def test_a_clean_pull_request_passes_every_step(pull_request: Path) -> None:
    ran, summary = _run_workflow(pull_request)
    assert set(_codes(ran).values()) == {0}
    sarif = json.loads((pull_request / "renamer.sarif").read_text())
    assert sarif["runs"][0]["results"] == []
    assert "Kept on purpose" in summary.read_text() or summary.read_text().strip()


def test_an_old_name_fails_the_gate_and_the_summary_still_comes(pull_request: Path) -> None:
    (pull_request / "runbook.md").write_text("ssh fv-ml1\nssh ana-ml2\n")
    git(pull_request, "commit", "-qam", "brings the old name back")
    ran, summary = _run_workflow(pull_request)
    codes = _codes(ran)
    assert codes["renamer verify (SARIF for code scanning)"] == 0  # a finding is no step failure
    assert codes["upload-sarif"] == 0
    assert codes["renamer verify (the gate)"] == 1
    assert codes["no old name comes back in this pull request (tombstones)"] == 1  # if: always(), and it fails
    assert codes["what stays on purpose, for the job summary"] == 0  # if: always()
    assert summary.read_text().strip()
    results = json.loads((pull_request / "renamer.sarif").read_text())["runs"][0]["results"]
    assert [r["ruleId"] for r in results] == ["residual"]


def test_a_configuration_error_fails_the_sarif_step_instead_of_uploading_nothing(pull_request: Path) -> None:
    (pull_request / "renamer.yaml").write_text("version: 2\n")
    ran, _ = _run_workflow(pull_request)
    assert _codes(ran)["renamer verify (SARIF for code scanning)"] == 2
    assert "upload-sarif" not in _codes(ran)  # skipped: the step did not succeed
    assert not (pull_request / "renamer.sarif").exists()


def test_the_tombstone_step_runs_on_a_pull_request_only(pull_request: Path) -> None:
    assert _codes(_run_workflow(pull_request, "push")[0])[
        "no old name comes back in this pull request (tombstones)"] is None
    assert _codes(_run_workflow(pull_request)[0])["no old name comes back in this pull request (tombstones)"] == 0
