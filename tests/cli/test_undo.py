"""renamer undo MOVE, end to end on real git repositories: the inverse of a recorded move, its
refusals, and that it is itself a recorded move."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

from renamer.cli.json_docs import DOCUMENTS
from tests.testing.repos import CURRENT_ALL, Repo, Run, git, write_files
from tests.testing.terminal import Terminal

RENAMER = str(Path(sys.executable).parent / "renamer")

FILES = {
    "runbook.md": "# Runbook\n\nssh root@ana-ml2\ncurl http://10.250.50.54:8016/v1\nThe hand-test ran on ana-ml2.\n",
    "stacks/app.env": "GPU_HOST=ana-ml2\r\nGPU_URL=http://10.250.50.54:8016\r\n",  # CRLF stays CRLF
    "stacks/host_vars/ana-ml2.yml": ("hostname: ana-ml2\naddress: 10.250.50.54\ngpus: 4\nrole: inference\n"
                                     "rack: r12\nowner: ml-team\n"),  # renamed by the move
    "incidents/2026-09-01.md": "ana-ml2 lost GPU 0\n",  # a record: never rewritten
    "servers.md": "| host | address |\n| ana-ml2 | 10.250.50.54 |\n",
    ".git-blame-ignore-revs": "# formatting\n",
}


def _tree(root: Path, rev: str) -> str:
    return git(root, "rev-parse", f"{rev}^{{tree}}").strip()


def _files(root: Path, rev: str) -> dict[str, str]:
    listed = git(root, "ls-tree", "-r", rev).splitlines()
    return {line.split("\t", 1)[1]: line.split()[2] for line in listed}


def _moved(repo: Repo, run: Run, files: dict[str, str | bytes] | None = None) -> tuple[Path, str]:
    """A repo with the fv-ml1 move committed (renames, rewrite, blame-ignore); the pre-move HEAD."""
    root = repo({**FILES, **(files or {})})
    before = git(root, "rev-parse", "HEAD").strip()
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    roles = [c["role"] for c in json.loads(run(root, "log", "--format", "json").stdout)["moves"][0]["commits"]]
    assert roles == ["renames", "rewrite", "blame-ignore"]
    assert "fv-ml1" in (root / "runbook.md").read_text()
    return root, before


def test_undo_after_an_unrelated_commit_gives_the_pre_move_tree_plus_that_commit(repo: Repo, run: Run) -> None:
    root, before = _moved(repo, run)
    write_files(root, {"notes/todo.md": "order more fans\n"})
    git(root, "add", "-A")
    git(root, "commit", "-qm", "unrelated")
    unrelated = git(root, "rev-parse", "HEAD").strip()
    done = run(root, "undo", "fv-ml1-move")
    assert done.exit_code == 0, done.stdout + done.stderr
    assert "undo: fv-ml1-move (" in done.stdout and "committed as " in done.stdout
    assert "undo: verify of the inverse renames: OK" in done.stdout
    # The tree is the pre-move tree plus the unrelated commit: built by git itself, compared by tree id.
    git(root, "checkout", "-q", "-b", "expected", before)
    git(root, "cherry-pick", unrelated)
    assert _tree(root, "expected") == _tree(root, "main")
    git(root, "checkout", "-q", "main")
    assert (root / "stacks/app.env").read_bytes() == FILES["stacks/app.env"].encode()  # CRLF, byte for byte
    assert (root / "stacks/host_vars/ana-ml2.yml").exists() and not (root / "stacks/host_vars/fv-ml1.yml").exists()
    assert (root / ".git-blame-ignore-revs").read_text() == "# formatting\n"  # the move's lines dropped
    assert git(root, "status", "--porcelain") == ""
    # The undo is a recorded move: renamer log shows it, its trailers say what it undoes.
    body = git(root, "log", "-1", "--format=%B")
    assert "Renamer-Move: undo-fv-ml1-move\n" in body and "Renamer-Undoes: fv-ml1-move\n" in body
    assert "Renamer-Commit: undo\n" in body
    listed = run(root, "log").stdout.splitlines()
    assert [line.split()[1] for line in listed] == ["fv-ml1-move", "undo-fv-ml1-move"]
    assert listed[1].endswith(" undo); 5 files, 1 renamed back")
    assert "renamer.yaml still describes fv-ml1-move: plain `renamer verify` now reports" in done.stderr


def test_a_second_undo_changes_nothing_and_an_undo_of_the_undo_is_refused(repo: Repo, run: Run) -> None:
    root, _ = _moved(repo, run)
    assert run(root, "undo", "fv-ml1-move").exit_code == 0
    head = git(root, "rev-parse", "HEAD").strip()
    again = run(root, "undo", "fv-ml1-move")
    assert again.exit_code == 0, again.stderr
    assert again.stdout.startswith(f"undo: nothing left to undo: fv-ml1-move was undone by {head[:12]}")
    data = json.loads(run(root, "undo", "fv-ml1-move", "--format", "json").stdout)
    assert data["status"] == "nothing" and data["undone_by"] == head and data["commit"] is None
    assert git(root, "rev-parse", "HEAD").strip() == head and git(root, "status", "--porcelain") == ""
    (root / "servers.md").write_text("being edited\n")  # nothing to write: a dirty work tree is no matter
    assert run(root, "undo", "fv-ml1-move").exit_code == 0
    refused = run(root, "undo", "undo-fv-ml1-move")
    assert refused.exit_code == 3
    assert "undoing an undo is refused; run the move again instead" in refused.stderr
    assert git(root, "rev-parse", "HEAD").strip() == head


def test_an_edit_of_a_rewritten_line_refuses_naming_it(repo: Repo, run: Run) -> None:
    root, _ = _moved(repo, run)
    text = (root / "runbook.md").read_text().replace("ssh root@fv-ml1", "ssh -p 2222 root@fv-ml1")
    (root / "runbook.md").write_text(text)
    git(root, "commit", "-qam", "ssh on another port")
    head = git(root, "rev-parse", "HEAD").strip()
    done = run(root, "undo", "fv-ml1-move")
    assert done.exit_code == 3, done.stdout + done.stderr
    assert done.stdout.splitlines()[0] == ("runbook.md:3: refused (conflict): a later commit changed this line, "
                                           "on or beside a line fv-ml1-move rewrote: the undo would overwrite "
                                           "that change")
    assert done.stdout.splitlines()[1] == "    ssh -p 2222 root@fv-ml1"
    assert "undo: REFUSED: 1 place where undoing fv-ml1-move" in done.stdout
    assert git(root, "rev-parse", "HEAD").strip() == head and git(root, "status", "--porcelain") == ""
    assert git(root, "worktree", "list").count("\n") == 1  # the scratch worktree is gone
    data = json.loads(run(root, "undo", "fv-ml1-move", "--dry-run", "--format", "json").stdout)
    assert list(data) == list(DOCUMENTS["renamer undo --format json"])
    assert data["status"] == "refused"
    assert data["refused"] == [{"path": "runbook.md", "line": 3, "kind": "conflict",
                                "message": data["refused"][0]["message"], "text": "ssh -p 2222 root@fv-ml1"}]


def test_a_new_value_used_since_in_a_file_the_move_never_touched_refuses(repo: Repo, run: Run) -> None:
    root, _ = _moved(repo, run)
    write_files(root, {"stacks/monitor.yaml": "targets:\n  - fv-ml1:9100\n  - nas:9100\n",
                       "incidents/2026-10-20.md": "fv-ml1 rebooted\n"})  # a record: history, not a use
    git(root, "add", "-A")
    git(root, "commit", "-qm", "monitor the GPU box")
    done = run(root, "undo", "fv-ml1-move")
    assert done.exit_code == 3, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("stacks/monitor.yaml:2: refused (dangling): fv-ml1 is used here since fv-ml1-move;")
    assert lines[1] == "    - fv-ml1:9100"
    assert not any("incidents/" in line for line in lines)
    git(root, "rm", "-q", "stacks/monitor.yaml")
    write_files(root, {"stacks/fv-ml1.env": "GPUS=8\n"})  # a file named for the new host
    git(root, "add", "-A")
    git(root, "commit", "-qm", "GPU vars")
    named = run(root, "undo", "fv-ml1-move")
    assert named.exit_code == 3, named.stdout + named.stderr
    assert named.stdout.splitlines()[0] == (
        "stacks/fv-ml1.env: refused (dangling): its path names fv-ml1, and it was added since "
        "fv-ml1-move: the undo would leave it named for what is no longer called so: rename or remove it first, "
        "or keep the move")
    assert "fv-ml1" in (root / "runbook.md").read_text()  # nothing written


def test_an_old_value_used_again_where_the_undo_writes_it_refuses(repo: Repo, run: Run) -> None:
    root, _ = _moved(repo, run)
    with (root / "runbook.md").open("a") as f:
        f.write("\n## Lab\nssh ana-ml2 (the new lab box)\n")  # a new machine took the old name
        f.write("\n## 2026-09-30 before the move\nana-ml2 had 4 GPUs\n")  # a dated section: on record
    git(root, "commit", "-qam", "a new ana-ml2")
    done = run(root, "undo", "fv-ml1-move")
    assert done.exit_code == 3, done.stdout + done.stderr
    assert done.stdout.splitlines()[:2] == [
        "runbook.md:8: refused (collision): ana-ml2 is used again here since fv-ml1-move, and the undo "
        "writes it back into this file: two things would share one name or address",
        "    ssh ana-ml2 (the new lab box)"]
    assert "undo: REFUSED: 1 place where" in done.stdout  # the dated section's line is on record, no collision


def test_an_old_address_given_to_another_host_in_a_file_the_undo_does_not_write_refuses(
        repo: Repo, run: Run) -> None:
    """The freed address handed to another box since the move, in a file the move never touched:
    the undo would give it back to ana-ml2 too. A collision, named as file:line; nothing written."""
    root, _ = _moved(repo, run, {"hosts/db1/vars.yml": "host: db1\naddr: 10.250.60.1\n"})
    (root / "hosts/db1/vars.yml").write_text("host: db1\naddr: 10.250.50.54\n")
    write_files(root, {"incidents/2026-10-06.md": "db1 took 10.250.50.54\n"})  # a record: history, no collision
    git(root, "add", "-A")
    git(root, "commit", "-qm", "db1 takes the freed address")
    head = git(root, "rev-parse", "HEAD").strip()
    done = run(root, "undo", "fv-ml1-move")
    assert done.exit_code == 3, done.stdout + done.stderr
    assert done.stdout.splitlines()[:2] == [
        "hosts/db1/vars.yml:2: refused (collision): 10.250.50.54 is used again here since fv-ml1-move, and the "
        "undo writes it back elsewhere: two things would share one name or address",
        "    addr: 10.250.50.54"]
    assert "undo: REFUSED: 1 place where" in done.stdout
    assert git(root, "rev-parse", "HEAD").strip() == head and git(root, "status", "--porcelain") == ""


def test_dry_run_prints_a_diff_git_applies_and_writes_nothing(repo: Repo, run: Run) -> None:
    root, before = _moved(repo, run)
    head = git(root, "rev-parse", "HEAD").strip()
    done = run(root, "undo", "fv-ml1-move", "--dry-run")
    assert done.exit_code == 0, done.stderr
    assert git(root, "rev-parse", "HEAD").strip() == head and git(root, "status", "--porcelain") == ""
    assert "rename from stacks/host_vars/fv-ml1.yml" in done.stdout
    assert "dry run: nothing written" in done.stdout
    patch = root / ".." / "undo.patch"
    patch.write_bytes(done.stdout_bytes.split(b"\nundo: ")[0] + b"\n")
    git(root, "apply", "--index", str(patch.resolve()))
    assert git(root, "write-tree").strip() == _tree(root, before)


def test_a_dirty_work_tree_a_move_on_another_branch_and_an_unknown_name_are_refused(repo: Repo, run: Run) -> None:
    root, before = _moved(repo, run)
    (root / "servers.md").write_text("edited\n")
    dirty = run(root, "undo", "fv-ml1-move")
    assert dirty.exit_code == 3 and "the work tree has changes (servers.md)" in dirty.stderr
    git(root, "checkout", "-q", "--", "servers.md")
    unknown = run(root, "undo", "lab-move")
    assert unknown.exit_code == 2
    assert unknown.stderr == ("renamer: error: move lab-move: no move of that name is recorded in this history; "
                              "recorded: fv-ml1-move\n")
    usage = run(root, "undo", "fv-ml1-move", "--force")
    assert (usage.exit_code, usage.stderr) == (2, "renamer: error: --resolvers and --force go with --dns "
                                                  "(see 'renamer undo --help')\n")
    git(root, "checkout", "-q", "-b", "before-the-move", before)
    elsewhere = run(root, "undo", "fv-ml1-move")
    assert elsewhere.exit_code == 3
    assert "are not in HEAD's history (they are on main)" in elsewhere.stderr


def test_keep_rules_of_an_interactive_sweep_go_and_moved_blocks_are_inverted_by_the_undo(repo: Repo, run: Run) -> None:
    tf = ('resource "terraform_data" "ana-ml2" {\n  input = "10.250.50.54"\n}\n\n'
          'output "ip" {\n  value = terraform_data.ana-ml2.input\n}\n')
    root = repo({"stacks/main.tf": tf, "runbook.md": "ssh ana-ml2\n\nlab note: ana-ml2 stays\n"},
                allowlist=CURRENT_ALL)
    before = git(root, "rev-parse", "HEAD").strip()
    term = Terminal([RENAMER, "sweep", "--interactive", "--commit"], root)
    asked = 0
    while True:  # every hunk rewritten, but the lab note: kept for good by a keep rule
        try:
            shown = term.expect("]? ", timeout=20)
        except AssertionError:
            break
        asked += 1
        if "lab note" in shown.splitlines()[-1] or "-lab note" in shown:
            term.send("k")
            term.expect("(the reason goes into the allowlist): ")
            term.send("the lab keeps its note")
        else:
            term.send("y")
    assert term.wait() == 0, term.text
    assert asked >= 3
    roles = [c["role"] for c in json.loads(run(root, "log", "--format", "json").stdout)["moves"][0]["commits"]]
    assert roles == ["rewrite", "decisions"], roles
    assert "the lab keeps its note" in (root / "allow.yaml").read_text()
    assert "# renamer: move fv-ml1-move expires" in (root / "stacks/moved.tf").read_text()  # the module's
    undone = run(root, "undo", "fv-ml1-move")
    assert undone.exit_code == 0, undone.stdout + undone.stderr
    # keep rule and the move's moved block gone with the rest; the undo's inverse block in their place
    assert git(root, "diff", "--name-only", before, "HEAD").split() == ["stacks/moved.tf"]
    assert (root / "allow.yaml").read_text() == CURRENT_ALL
    assert (root / "stacks/main.tf").read_text() == tf
    text = (root / "stacks/moved.tf").read_text()
    assert text.startswith("# renamer: move undo-fv-ml1-move expires ")
    assert text.endswith("\nmoved {\n  from = terraform_data.fv-ml1\n  to   = terraform_data.ana-ml2\n}\n")


def test_a_second_undo_of_a_move_that_wrote_a_moved_block_is_nothing_left(repo: Repo, run: Run) -> None:
    """t25-34 finding 03 (B): the undo's own inverse `moved` block stands where the move's block
    stood, so reverting the move again conflicted with it: exit 3 "a later commit changed this
    line". Set aside, the move reverts to nothing: "nothing left to undo", exit 0."""
    tf = 'resource "terraform_data" "ana-ml2" {\n  input = "ana-ml2"\n}\n'
    root = repo({"main.tf": tf}, allowlist=CURRENT_ALL)
    assert run(root, "sweep", "--commit").exit_code == 0
    assert "# renamer: move fv-ml1-move expires" in (root / "moved.tf").read_text()  # the module's moved.tf
    first = run(root, "undo", "fv-ml1-move")
    assert first.exit_code == 0, first.stdout + first.stderr
    assert "# renamer: move undo-fv-ml1-move expires" in (root / "moved.tf").read_text()
    head = git(root, "rev-parse", "HEAD").strip()
    again = run(root, "undo", "fv-ml1-move")
    assert again.exit_code == 0, again.stdout + again.stderr
    assert again.stdout.startswith("undo: nothing left to undo: fv-ml1-move was undone by"), again.stdout
    assert git(root, "rev-parse", "HEAD").strip() == head


def test_a_keep_rule_appended_since_beside_the_moves_own_is_kept_by_the_undo(repo: Repo, run: Run) -> None:
    """t25-34 finding 13 (was refused: allow.yaml, "a later commit changed this line"): the user
    appends a keep rule of their own after the one `sweep --interactive` added. The undo drops the
    move's rule by its name and keeps the user's, as it keeps a line appended to
    .git-blame-ignore-revs."""
    root = repo({"runbook.md": "ssh ana-ml2\n\nlab note: ana-ml2 stays\n", "legacy.md": "the photo caption\n"},
                allowlist=CURRENT_ALL)
    term = Terminal([RENAMER, "sweep", "--interactive", "--commit"], root)
    while True:
        try:
            shown = term.expect("]? ", timeout=20)
        except AssertionError:
            break
        if "lab note" in shown.splitlines()[-1] or "-lab note" in shown:
            term.send("k")
            term.expect("(the reason goes into the allowlist): ")
            term.send("the lab keeps its note")
        else:
            term.send("y")
    assert term.wait() == 0, term.text
    moved = (root / "allow.yaml").read_text()
    assert "the lab keeps its note" in moved and moved.startswith(CURRENT_ALL + "keep:\n  - name: "), moved
    mine = "  - name: photo-caption\n    path: /legacy.md\n    line_contains: 'photo caption'\n    reason: kept\n"
    (root / "allow.yaml").write_text(moved + mine)
    git(root, "commit", "-qam", "the user keeps the photo caption")
    undone = run(root, "undo", "fv-ml1-move")
    assert undone.exit_code == 0, undone.stdout + undone.stderr
    assert (root / "allow.yaml").read_text() == CURRENT_ALL + "keep:\n" + mine
    assert (root / "runbook.md").read_text() == "ssh ana-ml2\n\nlab note: ana-ml2 stays\n"
    assert git(root, "status", "--porcelain") == ""


def test_a_later_edit_of_a_renamed_file_goes_back_with_it(repo: Repo, run: Run) -> None:
    root, _ = _moved(repo, run)
    path = root / "stacks/host_vars/fv-ml1.yml"
    path.write_text(path.read_text().replace("rack: r12", "rack: r14"))  # a line the move never wrote
    git(root, "commit", "-qam", "moved racks")
    done = run(root, "undo", "fv-ml1-move")
    assert done.exit_code == 0, done.stdout + done.stderr
    assert not path.exists()
    assert (root / "stacks/host_vars/ana-ml2.yml").read_text() == (
        "hostname: ana-ml2\naddress: 10.250.50.54\ngpus: 4\nrole: inference\nrack: r14\nowner: ml-team\n")
    assert "  stacks/host_vars/fv-ml1.yml -> stacks/host_vars/ana-ml2.yml" in git(root, "log", "-1", "--format=%B")


def test_a_file_removed_since_the_move_stays_removed_and_is_named(repo: Repo, run: Run) -> None:
    """t25-34 finding 17 (was refused, exit 3): a file the move rewrote that a later commit deleted
    has nothing to restore or lose: it stays deleted, the rest of the move is undone (the renamed
    file back), and the output names it. A second undo is then "nothing left" (finding 03)."""
    root, _ = _moved(repo, run)
    git(root, "rm", "-q", "servers.md")
    git(root, "commit", "-qm", "servers.md is in the wiki now")
    dry = run(root, "undo", "fv-ml1-move", "--dry-run", "--format", "json")
    assert dry.exit_code == 0, dry.stdout + dry.stderr
    assert json.loads(dry.stdout)["deleted"] == ["servers.md"]
    done = run(root, "undo", "fv-ml1-move")
    assert done.exit_code == 0, done.stdout + done.stderr
    assert ("undo: left deleted (the move changed them, a later commit deleted them): servers.md"
            in done.stdout), done.stdout
    assert not (root / "servers.md").exists() and git(root, "status", "--porcelain") == ""
    assert (root / "stacks/host_vars/ana-ml2.yml").exists() and not (root / "stacks/host_vars/fv-ml1.yml").exists()
    again = run(root, "undo", "fv-ml1-move")
    assert again.exit_code == 0, again.stdout + again.stderr
    assert again.stdout.startswith("undo: nothing left to undo: fv-ml1-move was undone by"), again.stdout


def test_a_second_undo_of_a_move_that_renamed_a_file_is_nothing_left(repo: Repo, run: Run) -> None:
    """t25-34 finding 03 (A): the move renamed stacks/host_vars/ana-ml2.yml; after the undo the
    renamed path is gone from HEAD, which read as "removed by a later commit": exit 3. Now the
    revert onto HEAD changes nothing: "nothing left to undo", exit 0, HEAD unchanged."""
    root, _ = _moved(repo, run)
    first = run(root, "undo", "fv-ml1-move")
    assert first.exit_code == 0, first.stdout + first.stderr
    head = git(root, "rev-parse", "HEAD").strip()
    again = run(root, "undo", "fv-ml1-move")
    assert again.exit_code == 0, again.stdout + again.stderr
    assert again.stdout.startswith("undo: nothing left to undo: fv-ml1-move was undone by"), again.stdout
    assert git(root, "rev-parse", "HEAD").strip() == head


def test_a_move_run_twice_is_undone_whole(repo: Repo, run: Run) -> None:
    """A second `sweep --commit` of the same move (a file added since) records more commits under
    its name, apart from the first ones: each run is reverted, the commit between them kept."""
    root, before = _moved(repo, run)
    write_files(root, {"stacks/late.env": "LATE=ana-ml2\n"})
    git(root, "add", "-A")
    git(root, "commit", "-qm", "a late stack")
    late = git(root, "rev-parse", "HEAD").strip()
    assert run(root, "sweep", "--commit").exit_code == 0
    assert (root / "stacks/late.env").read_text() == "LATE=fv-ml1\n"
    done = run(root, "undo", "fv-ml1-move")
    assert done.exit_code == 0, done.stdout + done.stderr
    assert (root / "stacks/late.env").read_text() == "LATE=ana-ml2\n"
    git(root, "checkout", "-q", "-b", "expected", before)
    git(root, "cherry-pick", late)
    assert _tree(root, "expected") == _tree(root, "main")


def test_the_repo_s_hooks_run_renamer_s_own_pass_and_a_refusing_hook_leaves_nothing(repo: Repo, run: Run) -> None:
    root, _ = _moved(repo, run)
    hook = root / ".git" / "hooks" / "pre-commit"
    hook.write_text(f"#!/bin/sh\n{RENAMER} verify --staged || exit 1\n{RENAMER} verify -q\n")
    hook.chmod(0o755)
    head = git(root, "rev-parse", "HEAD").strip()
    (root / ".git" / "hooks" / "commit-msg").write_text("#!/bin/sh\necho 'no commits today' >&2\nexit 1\n")
    (root / ".git" / "hooks" / "commit-msg").chmod(0o755)
    refused = run(root, "undo", "fv-ml1-move")
    assert refused.exit_code == 2, refused.stdout + refused.stderr
    assert refused.stderr == ("renamer: error: git commit failed: verify: passed for renamer undo's commit; the "
                              "undo verifies the inverse renames after it; no commits today; the work tree and "
                              "index are back as HEAD has them (checked with git status)\n")  # the pre-commit hook's renamer passed; commit-msg refused
    assert git(root, "rev-parse", "HEAD").strip() == head and git(root, "status", "--porcelain") == ""
    assert "fv-ml1" in (root / "runbook.md").read_text()
    (root / ".git" / "hooks" / "commit-msg").unlink()
    # renamer's own verify hooks pass the undo's commit: its old values are current again on purpose.
    done = run(root, "undo", "fv-ml1-move")
    assert done.exit_code == 0, done.stdout + done.stderr
    assert git(root, "log", "-1", "--format=%s").startswith("undo-fv-ml1-move: undo fv-ml1-move")


def test_a_failing_hook_that_edits_files_is_undone_and_what_it_left_is_named(repo: Repo, run: Run) -> None:
    """A formatter hook edits a file the undo wrote, writes a file of its own, and fails: the
    undo's changes go back (checked, not assumed) and what the hook left is named."""
    root, _ = _moved(repo, run)
    head = git(root, "rev-parse", "HEAD").strip()
    runbook = (root / "runbook.md").read_bytes()
    hook = root / ".git" / "hooks" / "pre-commit"
    hook.write_text("#!/bin/sh\necho formatted >> runbook.md\nexit 1\n")
    hook.chmod(0o755)
    refused = run(root, "undo", "fv-ml1-move")
    assert refused.exit_code == 2, refused.stdout + refused.stderr
    assert refused.stderr == ("renamer: error: git commit failed: it exited 1 and printed nothing (a hook that "
                              "refused it?); the work tree and index are back as HEAD has them (checked with "
                              "git status)\n")
    assert git(root, "rev-parse", "HEAD").strip() == head and git(root, "status", "--porcelain") == ""
    assert (root / "runbook.md").read_bytes() == runbook
    assert not (root / "stacks/host_vars/ana-ml2.yml").exists() and (root / "stacks/host_vars/fv-ml1.yml").exists()
    hook.write_text("#!/bin/sh\necho formatted >> runbook.md\necho done > hook.log\nexit 1\n")
    refused = run(root, "undo", "fv-ml1-move")
    assert refused.exit_code == 2, refused.stdout + refused.stderr
    assert ("the undo's changes were taken back, but the work tree is not as HEAD has it: hook.log changed "
            "by the hook") in refused.stderr
    assert git(root, "status", "--porcelain") == "?? hook.log\n"
    assert git(root, "rev-parse", "HEAD").strip() == head and (root / "runbook.md").read_bytes() == runbook


def test_a_renamed_folder_and_a_link_into_it_go_back_and_a_file_added_there_since_refuses(
        repo: Repo, run: Run) -> None:
    compose = "services:\n  app:\n    hostname: ana-ml2\n    image: nginx\n    restart: always\n"
    root = repo({"stacks/ana-ml2/compose.yaml": compose, "stacks/ana-ml2/vars.yaml": "a: 1\nb: 2\nc: 3\n"},
                allowlist=CURRENT_ALL)
    os.symlink("stacks/ana-ml2/compose.yaml", root / "current.yaml")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "the link")
    before = git(root, "rev-parse", "HEAD").strip()
    assert run(root, "sweep", "--commit").exit_code == 0
    assert os.readlink(root / "current.yaml") == "stacks/fv-ml1/compose.yaml"
    write_files(root, {"stacks/fv-ml1/extra.yaml": "x: 1\n"})
    git(root, "add", "-A")
    git(root, "commit", "-qm", "extra")
    done = run(root, "undo", "fv-ml1-move")
    assert done.exit_code == 3, done.stdout + done.stderr
    assert done.stdout.splitlines()[0] == (
        "stacks/fv-ml1/extra.yaml: refused (conflict): added by a later commit inside a folder fv-ml1-move "
        "renamed: the undo renames that folder back, and where this file goes is for you to decide (git "
        "suggests stacks/ana-ml2/extra.yaml): move or remove it first, or keep the move")
    git(root, "rm", "-q", "stacks/fv-ml1/extra.yaml")
    git(root, "commit", "-qm", "no extra after all")
    done = run(root, "undo", "fv-ml1-move")
    assert done.exit_code == 0, done.stdout + done.stderr
    assert os.readlink(root / "current.yaml") == "stacks/ana-ml2/compose.yaml"
    assert _tree(root, "HEAD") == _tree(root, before)


def test_the_first_of_two_moves_is_undone_past_the_second_s_blame_lines(repo: Repo, run: Run) -> None:
    """The second move appends its lines to .git-blame-ignore-revs right after the first's, which
    git's revert takes for a conflict: the undo drops exactly the first move's lines."""
    root = repo({"runbook.md": "ssh ana-ml2\n\n\n\nweb: web01\n"}, allowlist=CURRENT_ALL)
    assert run(root, "sweep", "--commit", "--blame-ignore-revs").exit_code == 0  # the move creates the file
    (root / "renamer.yaml").write_text("version: 1\nname: web-move\nrenames:\n  hosts:\n    web01: web02\n"
                                       "allowlist: allow.yaml\n")
    git(root, "commit", "-qam", "the next move")
    assert run(root, "sweep", "--commit").exit_code == 0
    second = git(root, "log", "-1", "--format=%H", "--grep", "^Renamer-Commit: rewrite", "--", "runbook.md").strip()
    done = run(root, "undo", "fv-ml1-move")
    assert done.exit_code == 0, done.stdout + done.stderr
    assert (root / "runbook.md").read_text() == "ssh ana-ml2\n\n\n\nweb: web02\n"
    assert (root / ".git-blame-ignore-revs").read_text() == (
        "# web-move: the rewrite of renamer sweep (git blame skips it with "
        f"blame.ignoreRevsFile=.git-blame-ignore-revs)\n{second}\n")
    undone = run(root, "undo", "web-move")  # and the second, after it: nothing of either is left
    assert undone.exit_code == 0, undone.stdout + undone.stderr
    assert (root / ".git-blame-ignore-revs").read_text() == ""  # it stood before web-move: it stays, empty
    assert (root / "runbook.md").read_text() == "ssh ana-ml2\n\n\n\nweb: web01\n"


def test_an_unrelated_change_amended_into_a_move_commit_is_refused_by_name(repo: Repo, run: Run) -> None:
    """A file that holds none of the move's values, amended into its last commit: the undo would
    revert the whole commit and delete it; refused, naming it, nothing written."""
    root, _ = _moved(repo, run)
    write_files(root, {"deploy.md": "fixed typo in deploy notes\n"})
    git(root, "add", "deploy.md")
    git(root, "commit", "-q", "--amend", "--no-edit")
    head = git(root, "rev-parse", "HEAD").strip()
    refused = run(root, "undo", "fv-ml1-move")
    assert refused.exit_code == 3, refused.stdout + refused.stderr
    assert refused.stdout.startswith("deploy.md: refused (unexplained): changed by fv-ml1-move's blame-ignore "
                                     f"commit {head[:12]}, but neither its path nor its content holds")
    assert git(root, "rev-parse", "HEAD").strip() == head and (root / "deploy.md").exists()
    assert git(root, "status", "--porcelain") == ""
    data = json.loads(run(root, "undo", "fv-ml1-move", "--dry-run", "--format", "json").stdout)
    assert [(r["path"], r["kind"]) for r in data["refused"]] == [("deploy.md", "unexplained")]


def test_a_reverted_undo_is_undone_again(repo: Repo, run: Run) -> None:
    """Already undone is decided by the tree: a `git revert` of the undo puts the move back in
    effect, so the undo runs again; a move reverted by hand leaves nothing to undo (exit 0)."""
    root, before = _moved(repo, run)
    assert run(root, "undo", "fv-ml1-move").exit_code == 0
    git(root, "revert", "--no-edit", "HEAD")  # the undo reverted: every line and rename of the move stands
    assert "fv-ml1" in (root / "runbook.md").read_text()
    again = run(root, "undo", "fv-ml1-move", "--format", "json")
    assert again.exit_code == 0, again.stdout + again.stderr
    data = json.loads(again.stdout)
    assert data["status"] == "undone" and data["commit"] == git(root, "rev-parse", "HEAD").strip()
    assert _tree(root, "HEAD") == _tree(root, before)
    third = run(root, "undo", "fv-ml1-move")
    assert third.exit_code == 0, third.stdout + third.stderr
    assert third.stdout.startswith(f"undo: nothing left to undo: fv-ml1-move was undone by "
                                   f"{data['commit'][:12]} (undo-fv-ml1-move), and that undo is still in effect")


def test_a_move_reverted_by_hand_leaves_nothing_to_undo(repo: Repo, run: Run) -> None:
    by_hand, _ = _moved(repo, run)  # the move's commits reverted with git revert
    git(by_hand, "revert", "--no-edit", "HEAD~3..HEAD")
    head = git(by_hand, "rev-parse", "HEAD").strip()
    done = run(by_hand, "undo", "fv-ml1-move")
    assert done.exit_code == 0, done.stdout + done.stderr
    assert done.stdout == ("undo: nothing left to undo: HEAD holds none of fv-ml1-move's changes (its commits "
                           "were reverted by hand); reverting them again would change nothing\n")
    assert git(by_hand, "rev-parse", "HEAD").strip() == head


def test_terraform_the_undo_writes_the_inverse_moved_block_so_the_state_moves_back(repo: Repo, run: Run) -> None:
    """The move applied with terraform (the state at the new address): the undo renames the
    resource back and writes `moved { from = new, to = old }`, tagged as the undo's; terraform
    then moves the state back: nothing destroyed, nothing created."""
    from tests.cli.test_terraform_plan_guard import IGNORE, TERRAFORM
    main = 'resource "terraform_data" "ana-ml2" {\n  input = "ana-ml2"\n}\n'
    root = repo({"main.tf": main, ".gitignore": IGNORE + ".terraform.lock.hcl\n"}, allowlist=CURRENT_ALL)
    env = {**os.environ, "TF_CLI_CONFIG_FILE": os.devnull, "TF_IN_AUTOMATION": "1"}

    def terraform(*args: str) -> str:
        flags = [] if args[0] == "state" else ["-input=false", "-no-color"]
        done = subprocess.run([TERRAFORM, *args, *flags], cwd=root, env=env,
                              capture_output=True, text=True, check=False)
        assert done.returncode == 0, done.stdout + done.stderr
        return done.stdout

    terraform("init")
    terraform("apply", "-auto-approve")
    assert run(root, "sweep", "--commit").exit_code == 0
    assert "0 added, 1 changed, 0 destroyed" in terraform("apply", "-auto-approve")  # the input follows
    assert terraform("state", "list").split() == ["terraform_data.fv-ml1"]
    done = run(root, "undo", "fv-ml1-move")
    assert done.exit_code == 0, done.stdout + done.stderr
    text = (root / "moved.tf").read_text()  # the module's moved.tf, made again for the inverse block
    assert (root / "main.tf").read_text() == main and "to   = terraform_data.fv-ml1" not in text
    assert re.search(r"# renamer: move undo-fv-ml1-move expires \d{4}-\d\d-\d\d\nmoved \{\n  from = "
                     r"terraform_data\.fv-ml1\n  to   = terraform_data\.ana-ml2\n\}\n", text), text
    assert "undo: verify of the inverse renames: OK" in done.stdout
    plan = terraform("plan")
    assert "# (moved from terraform_data.fv-ml1)" in plan and "will be destroyed" not in plan, plan
    assert "Plan: 0 to add, 1 to change, 0 to destroy." in plan, plan  # its input goes back; no rebuild
    assert "0 added, 1 changed, 0 destroyed" in terraform("apply", "-auto-approve")
    assert terraform("state", "list").split() == ["terraform_data.ana-ml2"]
    # t25-34 finding 02: the move run again (the way to redo an undo) drops the undo's inverse block,
    # which with the move's own would be a cycle, and `terraform plan` then works
    again = run(root, "sweep", "--commit")
    assert again.exit_code == 0, again.stdout + again.stderr
    text = (root / "moved.tf").read_text()
    assert "moved {" not in (root / "main.tf").read_text()
    assert "undo-fv-ml1-move" not in text and "to   = terraform_data.ana-ml2" not in text, text
    assert text.count("moved {") == 1 and "from = terraform_data.ana-ml2\n  to   = terraform_data.fv-ml1" in text
    assert run(root, "verify").exit_code == 0
    plan = terraform("plan")
    assert "# (moved from terraform_data.ana-ml2)" in plan and "will be destroyed" not in plan, plan
    assert "0 added, 1 changed, 0 destroyed" in terraform("apply", "-auto-approve")
    assert terraform("state", "list").split() == ["terraform_data.fv-ml1"]


def test_ctrl_c_while_the_commit_hook_runs_is_exit_130_and_after_the_commit_it_is_said(
        repo: Repo, run: Run) -> None:
    """Ctrl-C to the whole process group (a terminal's) while the pre-commit hook runs: git and
    the hook stop, no commit, the tree put back, exit 130. A SIGINT to renamer alone waits for
    the commit, which is made, then exit 130 naming it."""
    import signal
    import time
    root, _ = _moved(repo, run)
    head = git(root, "rev-parse", "HEAD").strip()
    marker = root / ".git" / "hook-started"
    hook = root / ".git" / "hooks" / "pre-commit"
    hook.write_text(f"#!/bin/sh\ntouch '{marker}'\nsleep 5\nexit 0\n")
    hook.chmod(0o755)

    def interrupted(group: bool) -> tuple[int, str]:
        marker.unlink(missing_ok=True)
        proc = subprocess.Popen([RENAMER, "undo", "fv-ml1-move"], cwd=root, start_new_session=True,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        for _ in range(600):
            if marker.exists():
                break
            time.sleep(0.05)
        assert marker.exists(), proc.communicate()
        if group:
            os.killpg(proc.pid, signal.SIGINT)
        else:
            os.kill(proc.pid, signal.SIGINT)
        out, err = proc.communicate(timeout=60)
        return proc.returncode, out + err

    code, said = interrupted(group=True)
    assert code == 130, said
    assert "interrupted while git commit ran: no commit was made; the work tree and index are back as HEAD" in said
    assert git(root, "rev-parse", "HEAD").strip() == head and git(root, "status", "--porcelain") == ""
    code, said = interrupted(group=False)
    assert code == 130, said
    made = git(root, "rev-parse", "HEAD").strip()
    assert made != head and f"interrupted after the undo's commit {made[:12]}: the undo is complete" in said
    assert git(root, "status", "--porcelain") == ""


def test_a_small_renamed_file_whose_content_changed_counts_as_renamed_back(repo: Repo, run: Run) -> None:
    """A 3-line host_vars file the move renamed and rewrote: git's rename detection of the final
    diff misses it; the count comes from the move's own renames (output, trailer, renamer log)."""
    root, _ = _moved(repo, run, {"stacks/ana-ml2/vars.yml": "host: ana-ml2\naddr: 10.250.50.54\nrole: gpu\n"})
    done = run(root, "undo", "fv-ml1-move")
    assert done.exit_code == 0, done.stdout + done.stderr
    assert ": 6 files, 2 renamed back, " in done.stdout.splitlines()[0], done.stdout
    body = git(root, "log", "-1", "--format=%B")
    assert "Renamer-Changed: 6 files, 2 renamed back\n" in body
    assert "  stacks/fv-ml1/vars.yml -> stacks/ana-ml2/vars.yml\n" in body
    assert run(root, "log").stdout.splitlines()[-1].endswith(" undo); 6 files, 2 renamed back")
    assert (root / "stacks/ana-ml2/vars.yml").read_text() == "host: ana-ml2\naddr: 10.250.50.54\nrole: gpu\n"


def test_an_unrelated_untracked_file_does_not_stop_the_undo_but_one_where_it_writes_does(
        repo: Repo, run: Run) -> None:
    root, _ = _moved(repo, run)
    write_files(root, {"stacks/host_vars/ana-ml2.yml": "mine\n"})  # untracked, where the undo puts the file back
    head = git(root, "rev-parse", "HEAD").strip()
    refused = run(root, "undo", "fv-ml1-move")
    assert refused.exit_code == 3, refused.stdout + refused.stderr
    assert "the work tree has changes (stacks/host_vars/ana-ml2.yml)" in refused.stderr
    assert git(root, "rev-parse", "HEAD").strip() == head
    (root / "stacks/host_vars/ana-ml2.yml").unlink()
    write_files(root, {"notes-to-self.txt": "scratch\n"})  # untracked, nowhere near the undo
    done = run(root, "undo", "fv-ml1-move")
    assert done.exit_code == 0, done.stdout + done.stderr
    assert (root / "notes-to-self.txt").read_text() == "scratch\n"
    assert git(root, "status", "--porcelain") == "?? notes-to-self.txt\n"
    assert git(root, "show", "--name-only", "--format=", "HEAD").split().count("notes-to-self.txt") == 0


def test_an_ignored_file_where_the_undo_writes_refuses_it_and_is_kept(repo: Repo, run: Run) -> None:
    """t25-34 finding 11: a later commit ignores `stacks/host_vars/*.yml` (local copies kept out of git; the
    tracked ones stay tracked); the operator's local copy sits where the undo puts the moved file
    back. git's checkout would overwrite it: refused, naming it, the file kept byte for byte."""
    root, _ = _moved(repo, run)
    write_files(root, {".gitignore": "stacks/host_vars/*.yml\n"})
    git(root, "add", ".gitignore")
    git(root, "commit", "-qm", "local host_vars copies stay out of git")
    write_files(root, {"stacks/host_vars/ana-ml2.yml": "LOCAL EDIT, never committed\n"})
    assert git(root, "status", "--porcelain") == ""  # ignored: git status does not show it
    head = git(root, "rev-parse", "HEAD").strip()
    refused = run(root, "undo", "fv-ml1-move")
    assert refused.exit_code == 3, refused.stdout + refused.stderr
    assert "stacks/host_vars/ana-ml2.yml: a file git ignores is where the undo writes" in refused.stderr
    assert (root / "stacks/host_vars/ana-ml2.yml").read_text() == "LOCAL EDIT, never committed\n"
    assert git(root, "rev-parse", "HEAD").strip() == head
    (root / "stacks/host_vars/ana-ml2.yml").unlink()  # moved away: the undo goes on
    done = run(root, "undo", "fv-ml1-move")
    assert done.exit_code == 0, done.stdout + done.stderr


def test_a_small_renamed_file_edited_since_goes_back_with_the_edit(repo: Repo, run: Run) -> None:
    """A 5-line host_vars file the move renamed and rewrote on 3 lines, edited since two lines
    below: the rewrite is reverted first, then the pure renames (100 % alike), so git pairs the
    rename and keeps the edit, instead of a whole-file modify/delete conflict."""
    small = "host: ana-ml2\naddr: 10.250.50.54\nfqdn: ana-ml2.ana.lan\ngpus: 4\nrole: gpu\n"
    root, _ = _moved(repo, run, {"stacks/ana-ml2/vars.yml": small})
    path = root / "stacks/fv-ml1/vars.yml"
    path.write_text(path.read_text().replace("role: gpu", "role: cpu"))
    git(root, "commit", "-qam", "role change")
    done = run(root, "undo", "fv-ml1-move")
    assert done.exit_code == 0, done.stdout + done.stderr
    assert (root / "stacks/ana-ml2/vars.yml").read_text() == small.replace("role: gpu", "role: cpu")
    assert not path.exists() and git(root, "status", "--porcelain") == ""


def test_an_undo_left_staged_by_a_killed_run_is_finished_by_the_next(repo: Repo, run: Run) -> None:
    """The state a SIGKILL between the undo's checkout and its commit leaves (the index and tree
    exactly the undo, nothing else): the re-run finishes it, says so, and commits it with its
    trailers (t24-undo 10: it used to refuse with the way back only)."""
    root, before = _moved(repo, run)
    diff = run(root, "undo", "fv-ml1-move", "--dry-run", "--show-secrets").stdout
    patch = diff[:diff.rindex("\nundo: fv-ml1-move (") + 1]
    subprocess.run(["git", "apply", "--index"], input=patch, text=True, cwd=root, check=True)
    done = run(root, "undo", "fv-ml1-move")
    assert done.exit_code == 0, done.stdout + done.stderr
    assert "hold exactly this undo of fv-ml1-move, uncommitted" in done.stderr and "finishing it" in done.stderr
    assert _tree(root, "HEAD") == _tree(root, before) and git(root, "status", "--porcelain") == ""
    assert "Renamer-Undoes: fv-ml1-move\n" in git(root, "log", "-1", "--format=%B")
    # run again: the undo is in effect, nothing left
    assert run(root, "undo", "fv-ml1-move").stdout.startswith("undo: nothing left to undo")


def test_an_undo_killed_in_its_commit_hook_is_finished_by_the_next_run(repo: Repo, run: Run, tmp_path: Path) -> None:
    """t24-undo 10, as the tester did it: the undo is SIGKILLed (its whole process group) while its
    pre-commit hook runs, after the checkout; the hook is then removed and the undo run again: it
    finishes the undo (exit 0, the pre-move tree, its trailers, `renamer log` lists it), where it
    used to refuse, exit 3, "the work tree has changes"."""
    root, before = _moved(repo, run)
    mark = tmp_path / "in-hook"
    hook = root / ".git" / "hooks" / "pre-commit"
    hook.write_text(f"#!/bin/sh\ntouch {mark}\nsleep 60\n")
    hook.chmod(0o755)
    killed = subprocess.Popen([RENAMER, "undo", "fv-ml1-move"], cwd=root, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        for _ in range(600):
            if mark.exists() or killed.poll() is not None:
                break
            time.sleep(0.1)
        assert mark.exists(), "the undo reached its commit hook"
    finally:
        os.killpg(killed.pid, signal.SIGKILL)
        killed.wait()
    hook.unlink()
    assert git(root, "status", "--porcelain") != ""  # the undo, checked out and not committed
    done = run(root, "undo", "fv-ml1-move")
    assert done.exit_code == 0, done.stdout + done.stderr
    assert "finishing it" in done.stderr
    assert _tree(root, "HEAD") == _tree(root, before) and git(root, "status", "--porcelain") == ""
    assert "Renamer-Commit: undo\n" in git(root, "log", "-1", "--format=%B")
    assert [line.split()[1] for line in run(root, "log").stdout.splitlines()] == ["fv-ml1-move", "undo-fv-ml1-move"]


def test_a_link_made_since_whose_target_names_the_new_value_refuses_before_writing(repo: Repo, run: Run) -> None:
    root, _ = _moved(repo, run)
    (root / "current.yml").symlink_to("stacks/host_vars/fv-ml1.yml")
    git(root, "add", "current.yml")
    git(root, "commit", "-qm", "a link to the box's vars")
    head = git(root, "rev-parse", "HEAD").strip()
    refused = run(root, "undo", "fv-ml1-move")
    assert refused.exit_code == 3, refused.stdout + refused.stderr
    assert refused.stdout.splitlines()[0] == (
        "current.yml: refused (dangling): a link whose target names fv-ml1 (stacks/host_vars/fv-ml1.yml), made "
        "since fv-ml1-move: the undo would leave it pointing at what is no longer called so: re-point or remove "
        "it first, or keep the move")
    assert git(root, "rev-parse", "HEAD").strip() == head and git(root, "status", "--porcelain") == ""


# Outside pass t24-undo, the rest (f25-undoconf): each failed before its fix.


def test_the_freed_address_given_since_in_a_big_endian_utf16_file_is_a_collision(repo: Repo, run: Run) -> None:
    """t25-34 finding 04 (fixed already by the UTF-16 reading of the collision check, f25-undoconf):
    the tester's own variant, `[db1] addr=10.250.50.54` in a UTF-16 win.ini with a big-endian BOM,
    CRLF, committed after the move: refused (collision) at win.ini:2, nothing written."""
    root, _ = _moved(repo, run)
    (root / "win.ini").write_bytes(b"\xfe\xff" + "[db1]\r\naddr=10.250.50.54\r\n".encode("utf-16-be"))
    git(root, "add", "-A")
    git(root, "commit", "-qm", "db1 (Windows box) gets the freed address")
    head = git(root, "rev-parse", "HEAD").strip()
    refused = run(root, "undo", "fv-ml1-move")
    assert refused.exit_code == 3, refused.stdout + refused.stderr
    assert refused.stdout.splitlines()[0].startswith(
        "win.ini:2: refused (collision): 10.250.50.54 is used again here since fv-ml1-move"), refused.stdout
    assert git(root, "rev-parse", "HEAD").strip() == head and git(root, "status", "--porcelain") == ""


def test_a_new_value_used_since_in_a_utf16_file_refuses_before_writing(repo: Repo, run: Run) -> None:
    """Finding 13, UTF-16 part: git grep takes a UTF-16 file for binary, so a use of the new name
    added since in one (a Windows .ini, a PowerShell script) was found only by the verify after
    the undo's commit. The pre-check reads files as the sweep does (UTF-16/32 as text): refused,
    exit 3, file and line, nothing written; and an old address given since to another box in a
    UTF-16 file is a collision the same way."""
    root, _ = _moved(repo, run)
    (root / "win.ini").write_bytes("[gpu]\r\ntarget=fv-ml1\r\n".encode("utf-16"))  # BOM, little-endian
    (root / "deploy.ps1").write_bytes("$Box = 'nas'\r\n".encode("utf-16-le"))  # no BOM, nothing to say
    git(root, "add", "-A")
    git(root, "commit", "-qm", "utf16 ini")
    head = git(root, "rev-parse", "HEAD").strip()
    refused = run(root, "undo", "fv-ml1-move")
    assert refused.exit_code == 3, refused.stdout + refused.stderr
    lines = refused.stdout.splitlines()
    assert lines[0].startswith("win.ini:2: refused (dangling): fv-ml1 is used here since fv-ml1-move;"), lines
    assert lines[1] == "    target=fv-ml1"
    assert not any("deploy.ps1" in line for line in lines)
    assert git(root, "rev-parse", "HEAD").strip() == head and git(root, "status", "--porcelain") == ""
    git(root, "rm", "-q", "win.ini")
    (root / "lab.ini").write_bytes("[lab]\r\nbox=10.250.50.54\r\n".encode("utf-16"))  # the freed address reused
    git(root, "add", "-A")
    git(root, "commit", "-qm", "a lab box on the freed address")
    again = run(root, "undo", "fv-ml1-move")
    assert again.exit_code == 3, again.stdout + again.stderr
    assert again.stdout.splitlines()[0].startswith(
        "lab.ini:2: refused (collision): 10.250.50.54 is used again here since fv-ml1-move, and the undo writes "
        "it back elsewhere"), again.stdout
    assert "fv-ml1" in (root / "runbook.md").read_text()  # nothing written


def test_an_edit_beside_a_rewritten_line_goes_back_with_both_edits(repo: Repo, run: Run) -> None:
    """Finding 07 (rest): the tester's 3-line host_vars file, line 3 edited since, beside line 2
    the move rewrote (and a line added beside a rewritten one in runbook.md): git's 3-way merge
    takes the neighbour for a conflict, so it was refused. The sides are merged line by line
    where they touch different lines: the undo goes through with both edits kept."""
    small = "host: ana-ml2\naddr: 10.250.50.54\nrole: gpu\n"
    root, _ = _moved(repo, run, {"stacks/ana-ml2/vars.yml": small})
    path = root / "stacks/fv-ml1/vars.yml"
    path.write_text(path.read_text().replace("role: gpu", "role: cpu"))
    book = root / "runbook.md"
    book.write_text(book.read_text().replace("# Runbook\n\n", "# Runbook\nOwner: ml-team\n"))  # beside line 3
    git(root, "commit", "-qam", "role change, runbook owner")
    done = run(root, "undo", "fv-ml1-move")
    assert done.exit_code == 0, done.stdout + done.stderr
    assert (root / "stacks/ana-ml2/vars.yml").read_text() == small.replace("role: gpu", "role: cpu")
    assert not path.exists() and git(root, "status", "--porcelain") == ""
    assert book.read_text() == FILES["runbook.md"].replace("# Runbook\n\n", "# Runbook\nOwner: ml-team\n")
    assert "undo: verify of the inverse renames: OK" in done.stdout


def test_beside_a_real_conflict_only_the_real_one_is_named(repo: Repo, run: Run) -> None:
    """Finding 05/07's other side: the neighbour edit of runbook.md line 2, with a real conflict
    on line 3 (a line the move rewrote, edited since): refused, naming line 3 only."""
    again, _ = _moved(repo, run)
    book = again / "runbook.md"
    book.write_text(book.read_text().replace("# Runbook\n\n", "# Runbook\nOwner: ml-team\n")
                    .replace("ssh root@fv-ml1", "ssh -p 2222 root@fv-ml1"))
    git(again, "commit", "-qam", "owner, and a port on the rewritten line")
    refused = run(again, "undo", "fv-ml1-move", "--format", "json")
    assert refused.exit_code == 3, refused.stdout + refused.stderr
    named = [(r["path"], r["line"], r["text"]) for r in json.loads(refused.stdout)["refused"]]
    assert named == [("runbook.md", 3, "ssh -p 2222 root@fv-ml1")], named


def test_an_unrelated_edit_amended_into_a_file_the_move_rewrote_is_refused_by_line(repo: Repo, run: Run) -> None:
    """Finding 05 (rest): an unrelated edit amended into a move commit inside a file the move also
    rewrote (runbook.md holds the move's values, so the file-level check passed it) was reverted
    with the move, exit 0, without a word. Each changed line of a move commit is now checked:
    one that holds none of the move's values (in any spelling) and is not a number moved on is
    refused, naming the line; the move's own lines (and a zone-like serial bump) are not."""
    root, _ = _moved(repo, run)
    book = root / "runbook.md"
    book.write_text(book.read_text().replace("# Runbook\n", "# Runbook of the GPU lab\n"))
    git(root, "commit", "-q", "--amend", "--no-edit", "-a")
    head = git(root, "rev-parse", "HEAD").strip()
    refused = run(root, "undo", "fv-ml1-move", "--format", "json")
    assert refused.exit_code == 3, refused.stdout + refused.stderr
    data = json.loads(refused.stdout)
    assert [(r["path"], r["line"], r["kind"], r["text"]) for r in data["refused"]] == [
        ("runbook.md", 1, "unexplained", "# Runbook of the GPU lab")], data["refused"]
    assert f"changed by fv-ml1-move's blame-ignore commit {head[:12]} on a line that holds no name" in \
        data["refused"][0]["message"]
    assert git(root, "rev-parse", "HEAD").strip() == head and git(root, "status", "--porcelain") == ""
    assert book.read_text().startswith("# Runbook of the GPU lab\n")


def test_a_stop_sent_to_the_group_during_the_checkout_lets_it_finish(repo: Repo, run: Run, tmp_path: Path) -> None:
    """t38-break finding 10: SIGTERM to renamer's process group while `git read-tree -m -u` ran
    killed git halfway (exit 2, "git read-tree failed: unknown error", the work tree half
    reverted, HEAD unchanged). The checkout runs in a session of its own now: it finishes, the
    commit is made, and the stop is answered after it (130, naming the commit). A git wrapper holds
    the checkout for a moment and says when it started, so the stop lands inside it every time."""
    root, before = _moved(repo, run)
    real = subprocess.run(["sh", "-c", "command -v git"], capture_output=True, text=True, check=True).stdout.strip()
    wrapper = tmp_path / "bin" / "git"
    wrapper.parent.mkdir()
    started = tmp_path / "read-tree-started"
    wrapper.write_text(f'#!/bin/sh\ncase " $* " in *" read-tree -m -u "*) : > "{started}"; sleep 1;; esac\n'
                       f'exec "{real}" "$@"\n')
    wrapper.chmod(0o755)
    env = {**os.environ, "PATH": f"{wrapper.parent}:{os.environ['PATH']}", "NO_COLOR": "1"}
    process = subprocess.Popen([RENAMER, "undo", "fv-ml1-move"], cwd=root, env=env, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, start_new_session=True)
    deadline = time.monotonic() + 60
    while not started.exists() and process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.01)
    assert started.exists(), process.communicate()
    os.killpg(process.pid, signal.SIGTERM)
    _, err = process.communicate(timeout=60)
    assert process.returncode == 130, err
    assert "interrupted after the undo's commit" in err.decode() and "the undo is complete" in err.decode()
    assert git(root, "status", "--porcelain") == ""  # nothing half reverted
    assert (root / "runbook.md").read_text() == FILES["runbook.md"]  # the whole undo, committed
    assert (root / "stacks/host_vars/ana-ml2.yml").exists() and git(root, "rev-parse", "HEAD").strip() != before
