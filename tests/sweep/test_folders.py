"""A folder renamed after an old name takes what git does not track with it (sweep/folders.py),
or the sweep refuses before writing; undone whole, by a refused commit and after a kill."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

from tests.testing.repos import git, make_repo

CONFIG = """\
version: 1
renames:
  hosts: {pug: wolf, pug.ana.lan: wolf.fv.lan}
  addresses: {10.0.0.5: 10.1.0.5}
allowlist: allow.yaml
"""
CURRENT = "version: 1\ncurrent: ['**']\n"
LATIN1 = os.fsdecode(b"caf\xe9.txt")  # a file name that is not UTF-8


def _terraform(tmp_path: Path) -> Path:
    root = make_repo(tmp_path / "repo", {
        "tf/pug/main.tf": 'resource "terraform_data" "x" {\n  input = "pug.ana.lan"\n}\n',
        "tf/pug/modules/net/vars.tf": 'variable "ip" { default = "10.0.0.5" }\n',
        ".gitignore": "terraform.tfstate*\n.terraform/\n"}, config=CONFIG, allowlist=CURRENT)
    (root / "tf/pug/terraform.tfstate").write_text('{"version": 4, "serial": 7}\n')
    (root / "tf/pug/.terraform/providers").mkdir(parents=True)
    (root / "tf/pug/.terraform/providers/lock").write_text("x\n")
    return root


def _stack(tmp_path: Path) -> Path:
    """A compose stack: tracked files (one renamed by its own name too), an ignored .env of
    secrets, a data volume, certificates, a venv, symlinks and a non-UTF-8 name, all ignored (a clean tree)."""
    root = make_repo(tmp_path / "repo", {
        "stacks/pug/compose.yml": "services:\n  app:\n    hostname: pug\n",
        "stacks/pug/pug.conf": "server pug.ana.lan\n",
        ".gitignore": ".env\ndata/\ncerts/\n.venv/\nlatest.yml\n*.txt\n"}, config=CONFIG, allowlist=CURRENT)
    stack = root / "stacks/pug"
    (stack / ".env").write_text("DB_PASSWORD=hunter2\n")
    (stack / "data/db/base").mkdir(parents=True)
    (stack / "data/db/base/16384").write_bytes(b"\x00\x01pages")
    (stack / "certs").mkdir()
    (stack / "certs/tls.key").write_text("-----BEGIN PRIVATE KEY-----\n")
    (stack / ".venv/bin").mkdir(parents=True)
    (stack / "data/current").symlink_to("db/base")
    os.symlink("compose.yml", stack / "latest.yml")  # a link to a tracked file, ignored
    (stack / LATIN1).write_bytes(b"notes\n")
    return root


def _tree(folder: Path) -> dict[str, str]:
    """Every entry under `folder` (.git aside): a file's bytes, a link's target, a folder as 'dir'."""
    out = {}
    for path in sorted(folder.rglob("*")):
        rel = path.relative_to(folder).as_posix()
        if rel == ".git" or rel.startswith(".git/"):
            continue
        out[rel] = ("-> " + os.readlink(path) if path.is_symlink() else "dir" if path.is_dir()
                    else path.read_bytes().hex())
    return out


def test_a_terraform_folder_moves_whole_with_its_state_in_the_commit(tmp_path: Path, run) -> None:  # type: ignore[no-untyped-def]
    root = _terraform(tmp_path)
    before = _tree(root / "tf/pug")
    result = run(root, "sweep", "--commit")
    assert result.exit_code == 0, result.stderr
    assert not (root / "tf/pug").exists()
    after = _tree(root / "tf/wolf")
    assert after["terraform.tfstate"] == before["terraform.tfstate"]  # the state is where plan looks
    assert after["main.tf"] != before["main.tf"]
    assert {k for k in after if k.startswith(".terraform")} == {k for k in before if k.startswith(".terraform")}
    assert ("moved with its folder, not tracked by git: tf/pug/.terraform/, tf/pug/terraform.tfstate"
            in result.stdout)
    assert git(root, "status", "--porcelain") == ""
    assert git(root, "ls-files").split() == [".gitignore", "allow.yaml", "renamer.yaml",
                                              "tf/wolf/main.tf", "tf/wolf/modules/net/vars.tf"]
    renames = git(root, "show", "--stat", "--format=", "-M", "HEAD~1")
    assert "tf/{pug => wolf}/main.tf" in renames
    assert run(root, "verify").exit_code == 0


def test_the_dry_run_and_json_name_what_moves_with_its_folder_and_write_nothing(tmp_path: Path, run) -> None:  # type: ignore[no-untyped-def]
    root = _terraform(tmp_path)
    before = _tree(root)
    text = run(root, "sweep", "--dry-run")
    assert text.exit_code == 0, text.stderr
    assert ("folder tf/pug/ -> tf/wolf/ moved whole; moved with its folder, not tracked by git: "
            "tf/pug/.terraform/, tf/pug/terraform.tfstate") in text.stdout
    machine = run(root, "sweep", "--dry-run", "--format", "json")
    assert json.loads(machine.stdout)["folders"] == [
        {"from": "tf/pug", "to": "tf/wolf", "untracked": ["tf/pug/.terraform/", "tf/pug/terraform.tfstate"]}]
    assert _tree(root) == before


def test_a_stack_moves_whole_without_commit_links_volumes_and_odd_names_included(tmp_path: Path, run) -> None:  # type: ignore[no-untyped-def]
    root = _stack(tmp_path)
    before = _tree(root / "stacks/pug")
    result = run(root, "sweep")
    assert result.exit_code == 0, result.stderr
    after = _tree(root / "stacks/wolf")
    renamed = {"pug.conf": "wolf.conf"}
    assert set(after) == {renamed.get(k, k) for k in before}
    for rel in (".env", "data/db/base/16384", "certs/tls.key", "data/current", "latest.yml", LATIN1):
        assert after[rel] == before[rel], rel
    assert (root / "stacks/wolf/data/current/16384").read_bytes() == b"\x00\x01pages"  # the link still resolves
    assert not (root / "stacks/pug").exists()
    staged = git(root, "status", "--porcelain").splitlines()
    assert "RM stacks/pug/pug.conf -> stacks/wolf/wolf.conf" in staged  # renamed in the index, then edited
    assert not any(".env" in line or "data/" in line for line in staged)  # still not tracked


def test_a_folder_whose_new_name_exists_is_refused_naming_what_would_stay(tmp_path: Path, run) -> None:  # type: ignore[no-untyped-def]
    root = _terraform(tmp_path)
    (root / "tf/wolf").mkdir()
    (root / "tf/wolf/README").write_text("someone else's\n")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "a folder of that name already")
    before = _tree(root)
    for args in (("sweep", "--commit"), ("sweep", "--dry-run")):
        result = run(root, *args)
        assert result.exit_code == 3, result.stderr
        assert result.stderr.count("\n") == 1
        assert result.stderr.startswith("renamer: error: tf/pug/: the sweep renames its files to tf/wolf/ "
                                        "but would leave behind what git does not track: tf/pug/.terraform/, "
                                        "tf/pug/terraform.tfstate (tf/wolf/ exists already)")
        assert "nothing changed" in result.stderr
    assert _tree(root) == before
    assert git(root, "status", "--porcelain") == ""


def test_part_of_a_folder_staying_behind_is_refused(tmp_path: Path, run) -> None:  # type: ignore[no-untyped-def]
    allow = ("version: 1\ncurrent: ['**']\nrecords:\n"
             "  - {name: notes, paths: ['stacks/pug/NOTES.md'], reason: dated notes of the old box}\n")
    root = _stack(tmp_path)
    (root / "allow.yaml").write_text(allow)
    (root / "stacks/pug/NOTES.md").write_text("2026-01-01: pug rebooted\n")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "notes")
    before = _tree(root)
    result = run(root, "sweep", "--commit")
    assert result.exit_code == 3, result.stderr
    assert "stacks/pug/: the sweep renames its files to stacks/wolf/" in result.stderr
    assert "stacks/pug/.env" in result.stderr and "part of it stays: stacks/pug/NOTES.md" in result.stderr
    assert _tree(root) == before


def test_folders_with_nothing_untracked_rename_file_by_file_as_before(tmp_path: Path, run) -> None:  # type: ignore[no-untyped-def]
    root = make_repo(tmp_path / "repo", {"hosts/pug/a.conf": "pug\n", "hosts/pug/NOTES.md": "pug\n"},
                     config=CONFIG, allowlist="version: 1\ncurrent: ['**/*.conf']\nrecords:\n"
                     "  - {name: notes, paths: ['**/NOTES.md'], reason: dated notes}\n")
    result = run(root, "sweep", "--commit")
    assert result.exit_code == 0, result.stderr
    assert "moved whole" not in result.stdout
    assert (root / "hosts/wolf/a.conf").read_text() == "wolf\n"


def _hook(root: Path, body: str) -> None:
    path = root / ".git/hooks/pre-commit"
    path.write_text("#!/bin/sh\n" + body)
    path.chmod(path.stat().st_mode | stat.S_IXUSR)


def test_a_refused_rename_commit_moves_the_folder_back_whole(tmp_path: Path, run) -> None:  # type: ignore[no-untyped-def]
    root = _stack(tmp_path)
    before = _tree(root)
    _hook(root, '[ "$RENAMER_SWEEP_PHASE" = renames ] && exit 1\nexit 0\n')
    result = run(root, "sweep", "--commit")
    assert result.exit_code != 0
    assert _tree(root) == before  # .env, data/, the link and the odd name back in stacks/pug/
    assert git(root, "status", "--porcelain") == ""


def test_a_sweep_killed_after_the_folder_moved_is_undone_whole_and_rerun(tmp_path: Path) -> None:
    root = _stack(tmp_path)
    before = _tree(root)
    # The hook kills renamer (git's parent) between the folder's move and the rename commit.
    _hook(root, '[ "$RENAMER_SWEEP_PHASE" = renames ] || exit 0\n'
                'kill -9 "$(ps -o ppid= -p "$PPID" | tr -d " ")"\nexit 1\n')
    sweep = [sys.executable, "-m", "renamer", "sweep", "--commit"]
    killed = subprocess.run(sweep, cwd=root, capture_output=True, text=True)
    assert killed.returncode == -9
    assert (root / ".git/renamer-journal.json").exists()
    assert (root / "stacks/wolf/.env").exists() and not (root / "stacks/pug").exists()  # never split
    _hook(root, '[ "$RENAMER_SWEEP_PHASE" = renames ] && exit 1\nexit 0\n')
    refused = subprocess.run(sweep, cwd=root, capture_output=True, text=True)  # recovers, then is refused
    assert refused.returncode != 0 and "Traceback" not in refused.stderr
    assert _tree(root) == before
    (root / ".git/hooks/pre-commit").unlink()
    done = subprocess.run(sweep, cwd=root, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert (root / "stacks/wolf/.env").read_text() == "DB_PASSWORD=hunter2\n"
    assert not (root / "stacks/pug").exists()
    assert git(root, "status", "--porcelain") == ""
