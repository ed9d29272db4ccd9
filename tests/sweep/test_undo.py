"""sweep/undo.py on real git repositories: where a refusal points, what planning leaves behind
(nothing), and which commits a move's undo takes."""

from __future__ import annotations

import ipaddress
import os
import subprocess
import tempfile
from pathlib import Path

import pytest

from renamer.config import Renames
from renamer.project import load_project
from renamer.sweep import undo
from tests.testing.repos import CURRENT_ALL, Repo, Run, git

FILES = {
    "runbook.md": "# Runbook\n\nssh root@ana-ml2\n\nplain text\n",
    "stacks/app.env": b"GPU_HOST=ana-ml2\r\nMODE=prod\r\n\r\nGPU_URL=http://10.250.50.54:8016\r\n",
}


def _moved(repo: Repo, run: Run) -> Path:
    root = repo(FILES, allowlist=CURRENT_ALL)
    assert run(root, "sweep", "--commit").exit_code == 0
    return root


def _plan(root: Path) -> undo.UndoPlan:
    return undo.plan_undo(load_project(root, None, root), "fv-ml1-move")


def test_a_conflict_is_named_by_its_line_in_head_after_lines_added_above(repo: Repo, run: Run) -> None:
    root = _moved(repo, run)
    text = (root / "runbook.md").read_text()
    text = "<!-- owner: ml-team -->\n<!-- reviewed 2026-11 -->\n" + text.replace("ssh root@fv-ml1", "ssh fv-ml1")
    (root / "runbook.md").write_text(text)
    git(root, "commit", "-qam", "header, and ssh as the default user")
    plan = _plan(root)
    assert plan.tree is None
    assert [(r.path, r.line, r.kind, r.text) for r in plan.refusals] == [("runbook.md", 5, "conflict", "ssh fv-ml1")]
    assert text.splitlines()[4] == "ssh fv-ml1"


def test_an_edit_beside_the_rewrite_in_a_crlf_file_goes_back_with_it(repo: Repo, run: Run) -> None:
    """An edit on the line beside one the move rewrote (git's 3-way merge calls it a conflict) is
    merged line by line (t24-undo 07, f25-undoconf): no refusal, the edit kept, CRLF kept; a
    real conflict in the same file (the rewritten line edited too) is named by that line only."""
    root = _moved(repo, run)
    data = (root / "stacks/app.env").read_bytes()
    (root / "stacks/app.env").write_bytes(data.replace(b"MODE=prod", b"MODE=staging"))  # beside the rewrite
    git(root, "commit", "-qam", "staging")
    plan = _plan(root)
    assert plan.tree is not None and not plan.refusals
    crlf = FILES["stacks/app.env"]
    assert isinstance(crlf, bytes)
    undone = subprocess.run(["git", "-C", str(root), "cat-file", "-p", f"{plan.tree}:stacks/app.env"],
                            capture_output=True, check=True).stdout
    assert undone == crlf.replace(b"MODE=prod", b"MODE=staging")
    data = (root / "stacks/app.env").read_bytes()
    (root / "stacks/app.env").write_bytes(data.replace(b"GPU_HOST=fv-ml1", b"GPU_HOST=fv-ml1.lab"))
    git(root, "commit", "-qam", "fqdn")
    again = _plan(root)
    assert [(r.path, r.line, r.text) for r in again.refusals] == [("stacks/app.env", 1, "GPU_HOST=fv-ml1.lab")]


def test_planning_leaves_no_worktree_no_folder_and_runs_no_hook(repo: Repo, run: Run, tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    root = _moved(repo, run)
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))
    marker = tmp_path / "post-checkout-ran"
    hook = root / ".git" / "hooks" / "post-checkout"
    hook.write_text(f"#!/bin/sh\ntouch {marker}\n")
    hook.chmod(0o755)
    head = git(root, "rev-parse", "HEAD").strip()
    plan = _plan(root)
    assert plan.tree is not None and not plan.refusals
    assert b"-ssh root@fv-ml1\n+ssh root@ana-ml2\n" in plan.diff
    assert git(root, "worktree", "list", "--porcelain").count("worktree ") == 1
    assert not os.listdir(scratch) and not marker.exists()
    assert git(root, "rev-parse", "HEAD").strip() == head and git(root, "status", "--porcelain") == ""
    assert git(root, "stash", "list") == ""


def test_a_move_run_again_after_its_undo_is_undone_again(repo: Repo, run: Run) -> None:
    root = _moved(repo, run)
    assert run(root, "undo", "fv-ml1-move").exit_code == 0
    undone_at = git(root, "rev-parse", "HEAD").strip()
    assert run(root, "sweep", "--commit").exit_code == 0  # "run the move again instead"
    again = git(root, "rev-parse", "HEAD").strip()
    plan = _plan(root)
    assert plan.run is not None and [sha for sha, _ in plan.run.commits] == [again]
    assert plan.parent == f"{again}^"
    assert run(root, "undo", "fv-ml1-move").exit_code == 0
    assert git(root, "rev-parse", "HEAD^{tree}") == git(root, "rev-parse", f"{undone_at}^{{tree}}")
    nothing = _plan(root)
    assert nothing.run is None and nothing.already == git(root, "rev-parse", "HEAD").strip()
    assert nothing.undone is not None and [sha for sha, _ in nothing.undone.commits] == [again]


def test_the_inverse_project_looks_for_the_new_values(repo: Repo) -> None:
    root = repo(FILES, allowlist=CURRENT_ALL)
    project = load_project(root, None, root)
    renames = Renames((("ana-ml2", "fv-ml1"),), (("10.250.50.54", "10.251.50.54"),), ())
    inverse = undo.inverse_project(project, "fv-ml1-move", renames)
    assert inverse.config.name == "undo-fv-ml1-move"
    assert inverse.config.renames.pairs() == (("fv-ml1", "ana-ml2"), ("10.251.50.54", "10.250.50.54"))
    found = inverse.matcher.find(b"ssh fv-ml1; ana-ml2 at 10.251.50.54\n")
    assert [(m.old, m.new) for m in found] == [("fv-ml1", "ana-ml2"), ("10.251.50.54", "10.250.50.54")]


def test_a_move_commit_s_lines_are_explained_by_its_values_in_any_spelling_and_nothing_else() -> None:
    """The line-level `unexplained` check (t24-undo 05), pure logic: a zone's serial moved on, a
    reverse zone renamed with its network, a Terraform address, an upper-case `_` spelling and a
    PTR owner are the move's work; the one unrelated line beside them is named, by its line."""
    renames = Renames((("ana-ml2", "fv-ml1"),), (("10.250.50.54", "10.251.50.54"),),
                      ((ipaddress.ip_network("10.250.0.0/16"), ipaddress.ip_network("10.251.0.0/16")),))
    was = (b"$ORIGIN 250.10.in-addr.arpa.\n2026120600 ; serial\n54.50 PTR host.lan.\n"
           b"value = terraform_data.ana-ml2.input\nGPU=ANA_ML2\n54.50.250.10.in-addr.arpa. PTR x.\n"
           b"owner: ml-team\n")
    now = (b"$ORIGIN 251.10.in-addr.arpa.\n2026120601 ; serial\n54.50 PTR host.lan.\n"
           b"value = terraform_data.fv-ml1.input\nGPU=FV_ML1\n54.50.251.10.in-addr.arpa. PTR x.\n"
           b"owner: gpu-team\n")
    found = undo._unexplained_lines(undo._needles(renames), was, now, "zone.db", "0" * 40, "rewrite", "m")
    assert [(r.path, r.line, r.kind, r.text) for r in found] == [("zone.db", 7, "unexplained", "owner: gpu-team")]


_MOVE = "version: 1\nname: {name}\nrenames:\n  hosts: {{{old}: {new}}}\nallowlist: allow.yaml\n"


def test_a_moved_tf_emptied_since_is_refused_in_renamers_words(repo: Repo, run: Run) -> None:
    main = 'resource "terraform_data" "pug" {\n  input = "x"\n}\n'
    root = repo({"main.tf": main}, config=_MOVE.format(name="pugmove", old="pug", new="wolf"),
                allowlist=CURRENT_ALL)
    assert run(root, "sweep", "--commit").exit_code == 0
    (root / "moved.tf").write_text("")  # as `audit --prune --write` leaves it
    git(root, "commit", "-qam", "prune expired moved blocks")
    done = run(root, "undo", "pugmove")
    assert done.exit_code == 3, done.stdout + done.stderr
    assert ("moved.tf: refused (conflict): no longer holds the `moved` blocks pugmove wrote (`audit --prune` or "
            "a hand edit took them out since)") in done.stdout + done.stderr, done.stdout + done.stderr
