"""Symlinks into renamed folders (issue 27 item 10, adversarial B-5): re-pointed with the
renames, or refused with a reason; never left dangling; verify fails on a dangling link that
names an old path."""

from __future__ import annotations

import json
import os
from pathlib import Path

from tests.testing.repos import git, make_repo, snapshot

ALLOW = "version: 1\ncurrent: ['**']\nrecords:\n  - {name: incidents, paths: [incidents/**], reason: history}\n"
FILES = {"stacks/ana-ml2/compose.yaml": "h: ana-ml2\n", "stacks/ana-ml2/conf/app.env": "A=1\n",
         "docs/readme.md": "docs\n"}


def _repo(tmp_path: Path, links: dict[str, str], files: dict[str, str] | None = None) -> Path:
    root = make_repo(tmp_path / "repo", files or FILES, allowlist=ALLOW, commit=False)
    for rel, target in links.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        os.symlink(target.replace("ROOT", str(root)), root / rel)
    git(root, "add", "-A")
    git(root, "commit", "-qm", "initial")
    return root


LINKS = {
    "current.yaml": "stacks/ana-ml2/compose.yaml",  # B-5: relative, from the top
    "docs/c.yaml": "../stacks/ana-ml2/compose.yaml",  # with ..
    "a/b/conf": "../../stacks/ana-ml2/conf",  # nested, to a folder
    "docs/via-link.yaml": "../current.yaml",  # a link to a link: follows without a change
    "abs": "ROOT/stacks/ana-ml2",  # absolute, inside the repo
    "stacks/ana-ml2/self.yaml": "compose.yaml",  # inside the folder: moves with it, unchanged
    "stacks/ana-ml2-current": "ana-ml2/compose.yaml",  # a derived name: stays, re-pointed
    "links/ana-ml2/current": "../../stacks/ana-ml2/compose.yaml",  # renamed itself, and re-pointed
    "top.yaml": "links/ana-ml2/current",  # a link to a renamed link
    "out.conf": "/etc/ana-ml2.conf",  # out of the repository: left alone, reported
}
AFTER = {
    "current.yaml": "stacks/fv-ml1/compose.yaml",
    "docs/c.yaml": "../stacks/fv-ml1/compose.yaml",
    "a/b/conf": "../../stacks/fv-ml1/conf",
    "docs/via-link.yaml": "../current.yaml",
    "abs": "ROOT/stacks/fv-ml1",
    "stacks/fv-ml1/self.yaml": "compose.yaml",
    "stacks/ana-ml2-current": "fv-ml1/compose.yaml",
    "links/fv-ml1/current": "../../stacks/fv-ml1/compose.yaml",
    "top.yaml": "links/fv-ml1/current",
    "out.conf": "/etc/ana-ml2.conf",
}


def test_links_follow_the_renamed_folder_and_are_committed_with_the_rewrite(tmp_path, run) -> None:
    root = _repo(tmp_path, LINKS)
    dry = run(root, "sweep", "--dry-run", "--format", "json")
    relinks = {r["path"]: r["to"] for r in json.loads(dry.stdout)["relinks"]}
    assert relinks == {rel: AFTER[rel].replace("ROOT", str(root)) for rel in
                       ("current.yaml", "docs/c.yaml", "a/b/conf", "abs", "stacks/ana-ml2-current",
                        "links/fv-ml1/current", "top.yaml")}
    assert os.readlink(root / "current.yaml") == LINKS["current.yaml"]  # a dry run writes nothing
    # Its diff, applied with git apply to a clone, re-points the same links.
    diff = run(root, "sweep", "--dry-run", "--show-secrets").stdout_bytes
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", str(root), str(clone))
    (tmp_path / "sweep.diff").write_bytes(diff)
    git(clone, "apply", str(tmp_path / "sweep.diff"))
    assert {rel: os.readlink(clone / rel) for rel in AFTER if rel != "abs"} == {
        rel: target for rel, target in AFTER.items() if rel != "abs"}
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    assert "  re-point link current.yaml: stacks/ana-ml2/compose.yaml -> stacks/fv-ml1/compose.yaml" in done.stdout
    for rel, target in AFTER.items():
        assert os.readlink(root / rel) == target.replace("ROOT", str(root)), rel
        if rel != "out.conf":
            assert (root / rel).exists(), f"{rel} dangles"
    assert (root / "docs" / "via-link.yaml").read_text() == "h: fv-ml1\n"
    assert git(root, "status", "--porcelain") == ""
    # The renames first (git log --follow), then the rewrite with the links that follow them.
    assert "stacks/fv-ml1/compose.yaml" in git(root, "show", "--name-only", "--format=", "HEAD~1").split()
    rewrite = git(root, "show", "--name-only", "--format=", "HEAD").split()
    assert {"current.yaml", "docs/c.yaml", "a/b/conf", "abs", "top.yaml", "links/fv-ml1/current"} <= set(rewrite)
    verify = run(root, "verify")
    assert verify.exit_code == 0
    assert "  out.conf (symlink, 1)" in verify.stdout  # the link out of the repo, reported
    head = git(root, "rev-parse", "HEAD")
    assert run(root, "sweep", "--commit").exit_code == 0  # again: nothing left to change
    assert git(root, "rev-parse", "HEAD") == head


def test_without_commit_the_links_are_re_pointed_in_the_work_tree(tmp_path, run) -> None:
    root = _repo(tmp_path, {"current.yaml": LINKS["current.yaml"]})
    assert run(root, "sweep").exit_code == 0
    assert os.readlink(root / "current.yaml") == "stacks/fv-ml1/compose.yaml"
    assert (root / "current.yaml").read_text() == "h: fv-ml1\n"


def test_a_record_linking_into_a_renamed_folder_refuses_the_sweep(tmp_path, run) -> None:
    root = _repo(tmp_path, {"incidents/2026-09-01-compose.yaml": "../stacks/ana-ml2/compose.yaml"})
    before = snapshot(root)
    data = json.loads(run(root, "sweep", "--dry-run", "--format", "json").stdout)
    assert [(r["path"], r["line"]) for r in data["refused"]] == [("incidents/2026-09-01-compose.yaml", 0)]
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 3
    assert done.stderr == (
        "renamer: error: 1 file would no longer parse, would collide or would dangle: "
        "incidents/2026-09-01-compose.yaml: links to stacks/ana-ml2/compose.yaml, which the sweep renames to "
        "stacks/fv-ml1/compose.yaml, and is a record: it would dangle; keep the target (keep_paths) or move "
        "the link by hand; nothing written: edit them by hand, or keep them with a keep rule or the inline "
        "marker, then sweep again\n")
    assert snapshot(root) == before


def test_a_link_to_a_folder_the_sweep_splits_is_refused(tmp_path, run) -> None:
    files = {**FILES, "stacks/ana-ml2/2026-09-01-notes.md": "ana-ml2 was here\n"}  # a dated record: stays
    allow = ALLOW + "dated:\n  filenames: true\n"
    root = make_repo(tmp_path / "repo", files, allowlist=allow, commit=False)
    os.symlink("stacks/ana-ml2", root / "stack")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "initial")
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 3
    assert ("stack: links to stacks/ana-ml2, a folder the sweep splits (stacks/ana-ml2/2026-09-01-notes.md "
            "stays, other files move)") in done.stderr
    assert os.readlink(root / "stack") == "stacks/ana-ml2" and (root / "stacks/ana-ml2/compose.yaml").exists()


def test_verify_fails_on_a_dangling_link_that_names_an_old_path(tmp_path, run) -> None:
    files = {"stacks/fv-ml1/compose.yaml": "h: fv-ml1\n"}  # moved by hand, the link forgotten
    root = _repo(tmp_path, {"current.yaml": "stacks/ana-ml2/compose.yaml", "gone.yaml": "stacks/nothing.yaml",
                            "incidents/old.yaml": "../stacks/ana-ml2/compose.yaml"}, files)
    verify = run(root, "verify")
    assert verify.exit_code == 1
    assert ("current.yaml:1:8: residual (dangling-link): ana-ml2 -> fv-ml1: symlink to stacks/ana-ml2/compose.yaml: "
            "stacks/ana-ml2/compose.yaml does not exist; re-point it at the renamed path") in verify.stdout
    assert "gone.yaml" not in verify.stdout  # dangling, but names no old value: not this move's business
    assert "incidents/old.yaml" not in verify.stdout.split("Skipped")[0]  # a record keeps its history
    # The sweep re-points it where the renamed path exists (also what completes a sweep killed
    # between its renames and its links); the record's link stays as it was.
    assert run(root, "sweep", "--commit").exit_code == 0
    assert os.readlink(root / "current.yaml") == "stacks/fv-ml1/compose.yaml"
    assert os.readlink(root / "incidents/old.yaml") == "../stacks/ana-ml2/compose.yaml"
    assert run(root, "verify").exit_code == 0


def test_a_re_pointed_link_is_reported_once_as_re_pointed_never_as_skipped(tmp_path, run) -> None:
    """Issue 27 item 10 (break-it pass): the scan lists every link whose target holds an old value as
    skipped; the ones the sweep re-points leave that list, in every output; a link it does not
    re-point (out of the repo) stays listed; a dangling one it re-points is no residual."""
    files = {**FILES, "stacks/fv-ml2/x.yaml": "x\n"}
    links = {"current.yaml": LINKS["current.yaml"], "docs/c.yaml": LINKS["docs/c.yaml"],
             "out.conf": LINKS["out.conf"], "late.yaml": "stacks/ana-ml2/conf/app.env"}
    root = _repo(tmp_path, links, files)
    summary = run(root, "sweep", "--dry-run", "--format", "summary").stdout
    skipped = summary.split("Skipped, holding old values")[1]
    assert "current.yaml" not in skipped and "docs/c.yaml" not in skipped and "late.yaml" not in skipped
    assert "(1 file):\n  out.conf (symlink, 1)\n" in skipped
    assert summary.count("current.yaml") == 1 and "re-point link current.yaml" in summary
    data = json.loads(run(root, "sweep", "--dry-run", "--format", "json").stdout)
    assert {r["path"] for r in data["relinks"]} == {"current.yaml", "docs/c.yaml", "late.yaml"}
    assert data["summary"]["skipped"] == 1  # out.conf
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    assert done.stdout.count("current.yaml") == 1 and "(1 file)" in done.stdout.split("Skipped")[1]
    assert "skipped: 1" in git(root, "log", "-1", "--format=%B")


def test_a_dangling_link_the_sweep_re_points_is_no_residual(tmp_path, run) -> None:
    files = {"stacks/fv-ml1/compose.yaml": "h: fv-ml1\n"}  # moved by hand, the link forgotten
    root = _repo(tmp_path, {"current.yaml": "stacks/ana-ml2/compose.yaml"}, files)
    dry = run(root, "sweep", "--dry-run", "--format", "summary")
    assert "dangling-link" not in dry.stdout and "Skipped" not in dry.stdout, dry.stdout
    assert "re-point link current.yaml: stacks/ana-ml2/compose.yaml -> stacks/fv-ml1/compose.yaml" in dry.stdout
    data = json.loads(run(root, "sweep", "--dry-run", "--format", "json").stdout)
    assert data["summary"]["left"] == 0 and data["summary"]["skipped"] == 0
