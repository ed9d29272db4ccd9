"""A renamed resource's or module's `moved` block goes to `moved.tf` in its module (issue 32, item 2;
renamer/sweep/moved_files.py): appended where that file exists, created where it does not, never
through a link; listed in the dry run's diff and committed with the rewrite; read by `audit`,
`audit --prune` and `renamer undo`. The real terraform binary plans the swept tree: a move,
nothing destroyed."""

from __future__ import annotations

import json
import os
import re
import subprocess
from collections.abc import Callable
from pathlib import Path

from tests.cli.test_terraform_plan_guard import IGNORE, TERRAFORM, _terraform
from tests.conftest import Result
from tests.testing.repos import snapshot

CONFIG = ("version: 1\nname: pug move\ncutover: 2026-10-05\nrenames:\n  hosts: {pug: wolf, pug.ana.lan: wolf.fv.lan}\n"
          "options:\n  moved_expiry: 30\nallowlist: allow.yaml\n")
ALLOW = "version: 1\ncurrent: ['**']\n"
MAIN = ('resource "terraform_data" "pug" {\n  input = "pug.ana.lan"\n}\n'
        'output "o" {\n  value = terraform_data.pug.output\n}\n')
BLOCK = ("# renamer: move pug move expires 2026-11-04\n"
         'moved {\n  from = terraform_data.pug\n  to   = terraform_data.wolf\n}\n')
KEYED = 'resource "terraform_data" "x" {\n  for_each = toset(["pug"])\n}\n'
STANDING = 'moved {\n  from = terraform_data.a\n  to   = terraform_data.b\n}\n'


def _git(root: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=root, capture_output=True, text=True, check=True).stdout


def _plan(root: Path) -> str:
    env = {**os.environ, "TF_CLI_CONFIG_FILE": os.devnull, "TF_IN_AUTOMATION": "1"}
    done = subprocess.run([TERRAFORM, "plan", "-input=false", "-no-color", "-refresh=false", "-lock=false"],
                          cwd=root, env=env, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def test_a_new_moved_tf_is_created_in_the_module_shown_in_the_diff_committed_and_planned_as_a_move(
        repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    root = repo({"main.tf": MAIN, ".gitignore": IGNORE + ".terraform.lock.hcl\n"}, config=CONFIG, allowlist=ALLOW)
    _terraform(root, "init")
    _terraform(root, "apply", "-auto-approve")
    dry = run(root, "sweep", "--dry-run", "--format", "diff")
    assert dry.exit_code == 0, dry.stdout + dry.stderr
    assert ("diff --git a/moved.tf b/moved.tf\nnew file mode 100644\n--- /dev/null\n+++ b/moved.tf\n"
            "@@ -0,0 +1,5 @@\n" + "".join("+" + line + "\n" for line in BLOCK.splitlines())) in dry.stdout
    patch = root.parent / "sweep.diff"
    patch.write_text(dry.stdout[:dry.stdout.index("Summary:")])
    subprocess.run(["git", "apply", "--check", str(patch)], cwd=root, check=True)  # git reads it as made
    assert not (root / "moved.tf").exists()  # a dry run writes nothing
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    # the label and its references renamed in place; the block beside them no more, in moved.tf
    assert (root / "main.tf").read_text() == MAIN.replace("pug.ana.lan", "wolf.fv.lan").replace("pug", "wolf")
    assert (root / "moved.tf").read_text() == BLOCK
    assert (root / "moved.tf").stat().st_mode & 0o777 == (root / "main.tf").stat().st_mode & 0o777
    assert _git(root, "show", "--name-status", "--format=", "HEAD").split() == ["M", "main.tf", "A", "moved.tf"]
    assert _git(root, "status", "--porcelain") == ""
    plan = _plan(root)
    assert "terraform_data.pug has moved to terraform_data.wolf" in plan or "(moved from terraform_data.pug)" in plan
    assert "0 to destroy" in plan and "will be destroyed" not in plan, plan
    assert run(root, "verify", "--strict").exit_code == 0
    before = snapshot(root)
    again = run(root, "sweep", "--commit")
    assert again.exit_code == 0 and snapshot(root) == before  # a second sweep adds nothing


def test_an_existing_moved_tf_is_appended_to_in_its_own_newlines_and_each_module_gets_its_own(
        repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    root = repo({"main.tf": MAIN, "net/main.tf": KEYED, "net/moved.tf": STANDING.replace("\n", "\r\n")},
                config=CONFIG, allowlist=ALLOW)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    assert (root / "moved.tf").read_text() == BLOCK
    assert (root / "net/moved.tf").read_bytes() == (STANDING + "\n# renamer: move pug move expires 2026-11-04\n"
                                                    'moved {\n  from = terraform_data.x["pug"]\n'
                                                    '  to   = terraform_data.x["wolf"]\n}\n').replace(
        "\n", "\r\n").encode()
    assert "moved" not in (root / "net/main.tf").read_text() and "moved" not in (root / "main.tf").read_text()
    # audit reads the blocks where they stand now
    audit = json.loads(run(root, "audit", "--format", "json").stdout)
    assert sorted((m["path"], m["line"], m["from"]) for m in audit["moved_expired"]) == [
        ("moved.tf", 1, "terraform_data.pug"), ("net/moved.tf", 6, 'terraform_data.x["pug"]')]


def test_a_moved_tf_that_is_a_symlink_is_refused_and_nothing_is_written(
        repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    root = repo({"main.tf": MAIN, "elsewhere.txt": "x\n"}, config=CONFIG, allowlist=ALLOW)
    (root / "moved.tf").symlink_to("elsewhere.txt")
    _git(root, "add", "moved.tf")
    _git(root, "commit", "-qm", "link")
    before = snapshot(root)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 3, done.stdout + done.stderr
    assert "moved.tf: is a symlink: the sweep writes the module's `moved` blocks only into a regular file" in (
        done.stdout + done.stderr)
    assert snapshot(root) == before and (root / "elsewhere.txt").read_text() == "x\n"
    dry = run(root, "sweep", "--dry-run")  # the dry run lists what the sweep would refuse on
    assert "moved.tf: is a symlink" in dry.stdout, dry.stdout


def test_audit_prune_removes_an_expired_block_from_moved_tf(repo: Callable[..., Path],
                                                          run: Callable[..., Result]) -> None:
    root = repo({"main.tf": MAIN, ".gitignore": IGNORE + ".terraform.lock.hcl\n"},
                config=CONFIG + "terraform: ['.']\n", allowlist=ALLOW)
    _terraform(root, "init")
    assert run(root, "sweep", "--commit").exit_code == 0
    shown = run(root, "audit", "--prune")
    assert "moved.tf:1" in shown.stdout and (root / "moved.tf").read_text() == BLOCK, shown.stdout
    done = run(root, "audit", "--prune", "--write")
    assert done.exit_code == 0, done.stdout + done.stderr
    assert (root / "moved.tf").read_text() == ""  # nothing applied: no plan moves from it
    assert json.loads(run(root, "audit", "--format", "json").stdout)["moved_expired"] == []


def test_undo_takes_the_created_moved_tf_back_and_writes_the_inverse_move_there(
        repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    root = repo({"main.tf": MAIN, ".gitignore": IGNORE + ".terraform.lock.hcl\n"}, config=CONFIG, allowlist=ALLOW)
    _terraform(root, "init")
    _terraform(root, "apply", "-auto-approve")
    assert run(root, "sweep", "--commit").exit_code == 0
    _terraform(root, "apply", "-auto-approve")  # the state at the new address
    done = run(root, "undo", "pug move")
    assert done.exit_code == 0, done.stdout + done.stderr
    assert (root / "main.tf").read_text() == MAIN
    text = (root / "moved.tf").read_text()
    assert "from = terraform_data.pug\n" not in text  # the move's own block gone
    assert re.fullmatch(r"# renamer: move undo-pug move expires \d{4}-\d\d-\d\d\nmoved \{\n  from = "
                        r"terraform_data\.wolf\n  to   = terraform_data\.pug\n\}\n", text), text
    plan = _plan(root)
    assert "will be destroyed" not in plan and "0 to destroy" in plan, plan


def test_a_module_folder_renamed_with_the_move_gets_its_moved_tf_there(
        repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    # infra/pug/ (no moved.tf: created in infra/wolf/ once the renames made it) and other/pug/
    # (its moved.tf renamed with the folder and appended to)
    box = 'resource "terraform_data" "pug" {\n  input = "x"\n}\n'
    root = repo({"infra/pug/main.tf": box, "other/pug/main.tf": box, "other/pug/moved.tf": STANDING,
                 "main.tf": 'module "m" {\n  source = "./infra/pug"\n}\nmodule "n" {\n  source = "./other/pug"\n}\n'},
                config=CONFIG, allowlist=ALLOW)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    assert (root / "infra/wolf/moved.tf").read_text() == BLOCK
    assert (root / "other/wolf/moved.tf").read_text() == STANDING + "\n" + BLOCK
    assert not (root / "infra/pug").exists() and not (root / "other/pug").exists()
    assert _git(root, "status", "--porcelain") == ""
    assert run(root, "verify", "--strict").exit_code == 0


def test_a_moved_tf_the_allowlist_does_not_make_current_is_refused(
        repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    # only main.tf is current state: moved.tf would be unclassified (and a record is never written)
    for allow in ("version: 1\ncurrent: [main.tf]\n",
                  "version: 1\ncurrent: ['**']\nrecords:\n  - name: moves\n    paths: [moved.tf]\n    reason: r\n"):
        root = repo({"main.tf": MAIN}, config=CONFIG, allowlist=allow)
        before = snapshot(root)
        done = run(root, "sweep", "--commit")
        assert done.exit_code == 3, done.stdout + done.stderr
        assert "moved.tf: the `moved` blocks of the root module go here, and the allowlist makes it" in done.stderr
        assert snapshot(root) == before
        subprocess.run(["rm", "-rf", str(root)], check=True)


def test_a_moved_tf_git_ignores_is_refused_naming_the_rule_and_nothing_is_written(
        repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    # break-it t26-32, finding 02: the commit never carried an ignored moved.tf, so every clone
    # planned a destroy while the sweep said "committed"; a tracked moved.tf under an ignore rule
    # is carried, and written
    root = repo({"main.tf": MAIN, ".gitignore": "moved.tf\n", "net/main.tf": KEYED, "net/.gitignore": "moved.*\n"},
                config=CONFIG, allowlist=ALLOW)
    (root / "net/moved.tf").write_text(STANDING)  # an existing, untracked, ignored one
    before = snapshot(root)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 3, done.stdout + done.stderr
    assert "moved.tf: ignored by git (.gitignore:1: moved.tf): the `moved` blocks of the root module go here" in (
        done.stderr), done.stderr
    assert "net/moved.tf: ignored by git (net/.gitignore:1: moved.*)" in done.stderr, done.stderr
    assert snapshot(root) == before and not (root / "moved.tf").exists()
    assert (root / "net/moved.tf").read_text() == STANDING
    dry = run(root, "sweep", "--dry-run")
    assert "moved.tf: ignored by git (.gitignore:1: moved.tf)" in dry.stdout, dry.stdout  # listed, as a symlink is
    # tracked despite the rule: git carries it, so the sweep appends to it
    _git(root, "add", "-f", "net/moved.tf")
    _git(root, "commit", "-qm", "track it")
    (root / ".gitignore").write_text("")
    _git(root, "commit", "-qam", "no rule")
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    assert "net/moved.tf" in _git(root, "show", "--name-only", "--format=", "HEAD").split()
    assert (root / "moved.tf").read_text() == BLOCK
