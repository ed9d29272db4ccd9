"""`renamer verify --render DIR`, end to end with the real kubectl (issue 32, item 4).

kustomize pulls text from places a file-by-file verify judges apart (a generator's `files:` that
the allowlist calls a record, a base in another folder), and an identity can change under it. The
guard renders DIR at the move's base commit (a worktree, always removed) and now, and fails on an
old value left in a rendered object or an identity changed without --allow-identity; kubectl
missing, a kustomize error or no base: exit 2, one line.
"""

from __future__ import annotations

import json
import shutil
import tempfile
from pathlib import Path

import pytest

from tests.testing.repos import Repo, Run, git

CONFIG = """\
version: 1
name: fv-ml1-move
renames:
  hosts: {ana-ml2: fv-ml1, ana-ml2.ana.lan: fv-ml1.fv.lan}
allowlist: allow.yaml
"""
ALLOW = """\
version: 1
current: ['**']
records:
  - {name: history, paths: ['**/history/**'], reason: dated notes of what the box was}
"""
DEPLOY = ("apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: ana-ml2\nspec:\n  template:\n    spec:\n"
          "      containers:\n        - name: app\n          image: nginx\n          env:\n"
          "            - name: PEER\n              value: ana-ml2.ana.lan\n")
FILES = {
    "k8s/base/kustomization.yaml": "resources: [deploy.yaml]\n",
    "k8s/base/deploy.yaml": DEPLOY,
    "k8s/prod/kustomization.yaml": "resources: [../base]\nnamespace: prod\nconfigMapGenerator:\n"
                                   "  - name: notes\n    files: [history/2026-01-01.conf]\n",
    "k8s/prod/history/2026-01-01.conf": "served from ana-ml2.ana.lan until the move\n",
    # a generated ConfigMap: its name's hash suffix changes with the rewritten content, the object stays
    "k8s/clean/kustomization.yaml": "resources: [../base]\nnamespace: clean\nconfigMapGenerator:\n"
                                    "  - name: peers\n    files: [app.conf]\n",
    "k8s/clean/app.conf": "peer=ana-ml2.ana.lan\n",
}


def _render(run: Run, root: Path, *args: str) -> tuple[int, list[tuple[str, str, str]]]:
    done = run(root, "verify", "--format", "json", *args)
    data = json.loads(done.stdout)
    return done.exit_code, [(f["folder"], f"{f['kind']} {f['namespace']}/{f['name']}", f["message"])
                            for f in data["render"]]


def _worktrees(root: Path) -> int:
    return git(root, "worktree", "list").count("\n")


def test_render_finds_a_record_a_generator_reads_and_an_identity_that_changed(repo: Repo, run: Run) -> None:
    root = repo(FILES, config=CONFIG, allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 1  # the Deployment's name held: an identity
    code, found = _render(run, root, "--render", "k8s/prod", "--render", "k8s/clean")
    assert code == 1
    # the record the generator reads survives in the ConfigMap; the held name is the identity rule's
    assert [(folder, what.rsplit("-", 1)[0]) for folder, what, _ in found] == [("k8s/prod", "ConfigMap prod/notes")]
    assert found[0][2] == "an old value survives in the rendered object: ana-ml2.ana.lan"
    assert _worktrees(root) == 1
    # the identities moved too: without --allow-identity each renamed object is a finding
    assert run(root, "sweep", "--commit", "--allow-identity").exit_code == 0
    code, found = _render(run, root, "--render", "k8s/clean")
    assert code == 1
    assert found == [("k8s/clean", "Deployment clean/ana-ml2",
                      "identity changed: renamed to Deployment clean/fv-ml1: `kubectl apply` creates it anew and "
                      "a pruning apply deletes the old one (`renamer sweep --allow-identity` and `verify --render "
                      "--allow-identity` accept it)")]
    done = run(root, "verify", "--render", "k8s/clean", "--allow-identity")
    assert done.exit_code == 0, done.stdout
    assert "render: 1 kustomization rendered alike" in done.stdout
    # an object renamed otherwise than by the move's names is never accepted
    (root / "k8s/clean/kustomization.yaml").write_text(FILES["k8s/clean/kustomization.yaml"] + "nameSuffix: -x\n")
    code, found = _render(run, root, "--render", "k8s/clean", "--allow-identity")
    assert code == 1 and [(what.split("-")[0], m.split(":")[1].strip()) for _, what, m in found] == [
        ("ConfigMap clean/peers", "gone from the current render"),
        ("Deployment clean/ana", "gone from the current render"),
        ("ConfigMap clean/peers", "new in the current render, in no object of the base's"),
        ("Deployment clean/fv", "new in the current render, in no object of the base's")]
    assert _worktrees(root) == 1


def test_render_refuses_in_one_line_and_cleans_up(repo: Repo, run: Run, tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    # A private temporary folder: another worker's render may hold its own `renamer-render-*` in /tmp.
    private = tmp_path / "tmp"
    private.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(private))
    root = repo(FILES, config=CONFIG, allowlist=ALLOW)
    done = run(root, "verify", "--render", "k8s/clean")  # no commit of the move yet, no --base
    assert done.exit_code == 2 and done.stdout == ""
    assert done.stderr == ("renamer: error: verify --render: no commit of this move is recorded, so there is no "
                           "base to render (pass --base REV: the commit before the sweep)\n")
    assert run(root, "verify", "--render", "k8s/clean", "--base", "HEAD").exit_code == 1  # the residuals
    done = run(root, "verify", "--render", "k8s/clean", "--base", "no-such-rev")
    assert done.exit_code == 2 and done.stderr.startswith("renamer: error: verify --render: the base no-such-rev:")
    (root / "k8s/clean/kustomization.yaml").write_text("resources: [../missing]\n")
    done = run(root, "verify", "--render", "k8s/clean", "--base", "HEAD")
    assert done.exit_code == 2 and done.stderr.count("\n") == 1
    assert done.stderr.startswith("renamer: error: verify --render: k8s/clean: kubectl kustomize failed: ")
    assert _worktrees(root) == 1 and not list(private.glob("renamer-render-*"))
    bare = tmp_path / "bin"
    bare.mkdir()
    (bare / "git").symlink_to(shutil.which("git") or "git")
    monkeypatch.setenv("PATH", str(bare))
    done = run(root, "verify", "--render", "k8s/clean", "--base", "HEAD")
    assert done.exit_code == 2
    assert done.stderr == ("renamer: error: verify --render: kubectl not found on PATH (it renders "
                           "kustomizations: install kubectl, or leave out --render)\n")
    assert _worktrees(root) == 1


def test_render_finds_a_folder_the_move_renamed_at_its_old_path(repo: Repo, run: Run) -> None:
    """Found on a real GitOps repo (onedr0p/home-ops, `apps/default/plex/app/`): the kustomization's
    folder is named by the host and the sweep moves it; at the base it is rendered at its old path."""
    files = {"k8s/ana-ml2/kustomization.yaml": "resources: [deploy.yaml]\n", "k8s/ana-ml2/deploy.yaml": DEPLOY}
    root = repo(files, config=CONFIG, allowlist=ALLOW)
    assert run(root, "sweep", "--commit", "--allow-identity").exit_code == 0
    assert (root / "k8s/fv-ml1/deploy.yaml").exists()
    done = run(root, "verify", "--render", "k8s/fv-ml1", "--allow-identity")
    assert done.exit_code == 0, done.stdout + done.stderr
    code, found = _render(run, root, "--render", "k8s/fv-ml1")
    assert code == 1 and [what for _, what, _ in found] == ["Deployment /ana-ml2"]
    assert _worktrees(root) == 1


def test_render_accepts_a_prefixed_name_the_move_renamed(repo: Repo, run: Run) -> None:
    """Break-it round 20k, finding 15: `namePrefix: prod-`, `nameSuffix: -v2` render Deployment
    ana-ml2 as `prod-ana-ml2-v2`; `verify --render --allow-identity` said "gone ... the move removed
    the object" and "new" for `prod-fv-ml1-v2`, the very rename it accepts. The old name as a run
    of the rendered name's parts is moved now: accepted with the flag, "renamed to" without."""
    files = {**{k: v for k, v in FILES.items() if k.startswith("k8s/base/")},
             "k8s/prod/kustomization.yaml": "resources: [../base]\nnamePrefix: prod-\nnameSuffix: -v2\n"}
    root = repo(files, config=CONFIG, allowlist=ALLOW)
    assert run(root, "sweep", "--commit", "--allow-identity").exit_code == 0
    done = run(root, "verify", "--render", "k8s/prod", "--allow-identity")
    assert done.exit_code == 0, done.stdout
    code, found = _render(run, root, "--render", "k8s/prod")
    assert code == 1 and found == [("k8s/prod", "Deployment /prod-ana-ml2-v2",
                                    "identity changed: renamed to Deployment prod-fv-ml1-v2: `kubectl apply` "
                                    "creates it anew and a pruning apply deletes the old one (`renamer sweep "
                                    "--allow-identity` and `verify --render --allow-identity` accept it)")], found


def test_render_after_an_uncommitted_sweep_says_head_is_the_base(repo: Repo, run: Run) -> None:
    """Break-it round 20k, finding 16: `sweep` written without --commit, then `verify --render`:
    exit 2 "no commit of this move is recorded" with no word that HEAD is the base; it says so now
    (not assumed: that the changes are the sweep's is not provable), and `--base HEAD` renders."""
    root = repo(FILES, config=CONFIG, allowlist=ALLOW)
    assert run(root, "sweep", "--allow-identity").exit_code == 0
    done = run(root, "verify", "--render", "k8s/clean", "--allow-identity")
    assert done.exit_code == 2 and done.stderr == (
        "renamer: error: verify --render: no commit of this move is recorded, so there is no base to render "
        "(pass --base REV: the commit before the sweep; the work tree holds uncommitted changes: where they are "
        "this sweep's, HEAD is the base (`--base HEAD`))\n"), done.stderr
    done = run(root, "verify", "--render", "k8s/clean", "--allow-identity", "--base", "HEAD")
    assert done.exit_code == 0, done.stdout + done.stderr
