"""`renamer undo` of a Terraform move whose module's moved.tf later moves appended their blocks to
(break-it t26-32, finding 12: refused, exit 3, on git's "CONFLICT (modify/delete)"; every later
Terraform move in a module blocked the undo of every earlier one). The undo takes out its own tagged
blocks, keeps the others' and the hand-written ones byte for byte, and appends its inverse block;
real terraform plans the state back with nothing destroyed. Through the CLI, on real git repos."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

from tests.testing.repos import CURRENT_ALL, Repo, Run, git
from tests.testing.terraform import needs_terraform

_MOVE = "version: 1\nname: {name}\nrenames:\n  hosts: {{{old}: {new}}}\nallowlist: allow.yaml\n"
_IGNORE = ".terraform/\n*.tfstate\n*.tfstate.*\n.terraform.lock.hcl\n"
_MAIN = "".join(f'resource "terraform_data" "{n}" {{\n  input = "{n}-x"\n}}\n' for n in ("pug", "cat", "fox"))


def _terraform(root: Path, *args: str) -> str:
    env = {**os.environ, "TF_CLI_CONFIG_FILE": os.devnull, "TF_IN_AUTOMATION": "1",
           "CHECKPOINT_DISABLE": "1"}
    flags = [] if args[0] == "state" else ["-input=false", "-no-color"]
    done = subprocess.run(["terraform", *args, *flags], cwd=root, env=env, capture_output=True, text=True,
                          check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def _moves(root: Path, run: Run, moves: list[tuple[str, str, str]]) -> None:
    """Each move swept, committed and applied, one after the other."""
    _terraform(root, "init")
    _terraform(root, "apply", "-auto-approve")
    for name, old, new in moves:
        (root / "renamer.yaml").write_text(_MOVE.format(name=name, old=old, new=new))
        git(root, "commit", "-qam", f"the move {name}")
        done = run(root, "sweep", "--commit")
        assert done.exit_code == 0, done.stdout + done.stderr
        assert "0 destroyed" in _terraform(root, "apply", "-auto-approve")


def _block(name: str, old: str, new: str, nl: str = "\n") -> str:
    return (f"# renamer: move {name} expires \\d{{4}}-\\d\\d-\\d\\d{nl}moved \\{{{nl}  from = terraform_data\\.{old}"
            f"{nl}  to   = terraform_data\\.{new}{nl}\\}}")


@needs_terraform
def test_the_undo_of_an_earlier_move_takes_its_own_block_out_and_keeps_the_later_ones(repo: Repo, run: Run) -> None:
    root = repo({"main.tf": _MAIN, ".gitignore": _IGNORE}, allowlist=CURRENT_ALL)
    _moves(root, run, [("pugmove", "pug", "wolf"), ("catmove", "cat", "dog")])
    done = run(root, "undo", "pugmove")
    assert done.exit_code == 0, done.stdout + done.stderr
    text = (root / "moved.tf").read_text()
    assert re.fullmatch(_block("catmove", "cat", "dog") + "\n\n" + _block("undo-pugmove", "wolf", "pug") + "\n",
                        text), text
    assert 'resource "terraform_data" "pug"' in (root / "main.tf").read_text()
    plan = _terraform(root, "plan")
    assert "terraform_data.wolf has moved to terraform_data.pug" in plan and "destroy" not in plan.split(
        "Plan:")[0], plan
    assert "0 to destroy" in plan, plan
    assert "0 destroyed" in _terraform(root, "apply", "-auto-approve")
    assert sorted(_terraform(root, "state", "list").split()) == [
        "terraform_data.dog", "terraform_data.fox", "terraform_data.pug"]


@needs_terraform
def test_a_middle_move_undone_among_hand_blocks_in_crlf_keeps_every_other_byte(repo: Repo, run: Run) -> None:
    """A hand-written moved.tf (CRLF, a comment, no final newline) before three moves: the undo of
    the middle one removes exactly its block; the hand block, the others' and the CRLF stay."""
    hand = "# hand moves\r\nmoved {\r\n  from = terraform_data.older\r\n  to   = terraform_data.fox\r\n}"
    root = repo({"main.tf": _MAIN, ".gitignore": _IGNORE, "moved.tf": hand.encode()}, allowlist=CURRENT_ALL)
    _moves(root, run, [("pugmove", "pug", "wolf"), ("catmove", "cat", "dog"), ("foxmove", "fox", "vixen")])
    before = (root / "moved.tf").read_bytes()
    done = run(root, "undo", "catmove")
    assert done.exit_code == 0, done.stdout + done.stderr
    after = (root / "moved.tf").read_bytes()
    assert b"\r\n" in after and b"\n" not in after.replace(b"\r\n", b""), after
    text = after.decode()
    assert text.startswith(hand + "\r\n"), text  # the hand block as written (a chain: older -> fox -> vixen)
    assert "move catmove" not in text and re.search(_block("pugmove", "pug", "wolf", "\r\n"), text), text
    assert re.search(_block("foxmove", "fox", "vixen", "\r\n"), text), text
    assert re.search(_block("undo-catmove", "dog", "cat", "\r\n") + "\r\n$", text), text
    removed = before.decode().replace(text.split("# renamer: move undo-catmove")[0].rstrip("\r\n"), "")
    assert "move catmove" in removed  # the bytes gone are the catmove block's (and its blank line)
    plan = _terraform(root, "plan")
    assert "terraform_data.dog has moved to terraform_data.cat" in plan and "0 to destroy" in plan, plan


def test_a_pruned_block_stays_refused_with_a_later_move_beside_it(repo: Repo, run: Run) -> None:
    """Where the move's own block is gone (pruned) no inverse can be derived from it: still refused,
    in renamer's words, nothing written (tests/sweep/test_undo.py has the case without a later move)."""
    root = repo({"main.tf": _MAIN}, config=_MOVE.format(name="pugmove", old="pug", new="wolf"),
                allowlist=CURRENT_ALL)
    assert run(root, "sweep", "--commit").exit_code == 0
    (root / "moved.tf").write_text("")
    git(root, "commit", "-qam", "prune")
    (root / "renamer.yaml").write_text(_MOVE.format(name="catmove", old="cat", new="dog"))
    git(root, "commit", "-qam", "the next move")
    assert run(root, "sweep", "--commit").exit_code == 0
    head = git(root, "rev-parse", "HEAD")
    done = run(root, "undo", "pugmove")
    assert done.exit_code == 3, done.stdout + done.stderr
    assert "moved.tf: refused (conflict)" in done.stdout + done.stderr and "CONFLICT (" not in done.stdout
    assert git(root, "rev-parse", "HEAD") == head and git(root, "status", "--porcelain") == ""
