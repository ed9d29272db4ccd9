"""An aligned HCL run after a rename of another length (break-it round 22, finding 12): `web01 =`
beside `db02  =` renamed to `application01` kept the old column, and `terraform fmt -check` passed
before the sweep and failed after it (rc 3). The sweep now keeps terraform fmt's alignment of `=`
and of trailing comments where it was there; each case is judged by terraform fmt itself."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest

from renamer.sweep.hcl_align import realign
from renamer.sweep.model import Edit, apply_edits
from tests.testing.repos import CURRENT_ALL, Repo, Run

NESTED = '''resource "terraform_data" "x" {
  input = {
    web01 = "10.0.0.7"
    db02  = "10.0.0.8"
  }
  dynamic "rule" {
    for_each = []
    content {
      web01 = 1
      zz    = 2
    }
  }
}
'''
COMMENTS = '''locals {
  web01 = "10.0.0.7" # the web tier
  db    = "x"        # the database
  # web01 is renamed here too
  ports = { web01 = 80 }
  other = "x"
}
'''
HEREDOC = '''locals {
  web01 = <<EOT
web01 = 1
  x = 2
EOT
  d     = 3
  mm    = { a = 1 }
}
'''
LONGEST_KEPT = '''locals {
  web01       = 1
  not_renamed = 2
}
'''
MAP = '''locals {
  hosts = {
    "web01" = "10.0.0.7"
    "db"    = "10.0.0.8"
  }
  rules = { for k, v in var.m : k => v if v == "web01" }
  x     = 1
}

variable "region" {
  default = "web01"
}
'''
TFVARS = 'web01 = "a"\nx     = 1\n\nzz = 2\ny  = "web01"\n'
CASES = {"nested.tf": NESTED, "comments.tf": COMMENTS, "heredoc.tf": HEREDOC, "longest_kept.tf": LONGEST_KEPT,
         "map.tf": MAP, "env/prod.tfvars": TFVARS, "crlf.tf": LONGEST_KEPT.replace("\n", "\r\n")}


def _env() -> dict[str, str]:
    return {**os.environ, "TF_CLI_CONFIG_FILE": os.devnull, "CHECKPOINT_DISABLE": "1"}


def _fmt_check(path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["terraform", "fmt", "-check", "-diff", "-no-color", str(path)], capture_output=True,
                          text=True, check=False, env=_env(), timeout=60)


def _config(new: str) -> str:
    return (f"version: 1\nrenames:\n  hosts: {{web01: {new}}}\n  addresses: {{10.0.0.7: 10.0.100.107}}\n"
            "allowlist: allow.yaml\n")


@pytest.mark.parametrize("new", ["application01", "a1", "app01"], ids=["longer", "shorter", "same-length"])
def test_aligned_runs_stay_as_terraform_fmt_writes_them(new: str, repo: Repo, run: Run) -> None:
    root = repo(CASES, config=_config(new), allowlist=CURRENT_ALL)
    for rel in CASES:
        before = _fmt_check(root / rel)
        assert before.returncode == 0, (rel, before.stdout, before.stderr)
    swept = run(root, "sweep", "--commit")
    assert swept.exit_code == 0, swept.stdout + swept.stderr
    for rel in CASES:
        text = (root / rel).read_bytes().decode()
        assert new in text and "web01" not in text, (rel, text)
        after = _fmt_check(root / rel)
        assert after.returncode == 0, (rel, after.stdout, text)  # before the fix: 3 (longer, shorter)
    assert "\r\n" in (root / "crlf.tf").read_bytes().decode()
    checked = run(root, "verify")
    assert checked.exit_code == 0, checked.stdout


def test_the_dry_run_shows_the_realigned_lines(repo: Repo, run: Run) -> None:
    root = repo({"main.tf": NESTED}, config=_config("application01"), allowlist=CURRENT_ALL)
    shown = run(root, "sweep", "--dry-run")
    assert shown.exit_code == 0, shown.stdout + shown.stderr
    assert '+    db02          = "10.0.0.8"' in shown.stdout, shown.stdout
    assert (root / "main.tf").read_text() == NESTED


def test_a_run_fmt_did_not_align_is_left_as_it_was(repo: Repo, run: Run) -> None:
    odd = 'locals {\n  web01 = 1\n  db02 =   2\n}\n'
    root = repo({"odd.tf": odd}, config=_config("application01"), allowlist=CURRENT_ALL)
    swept = run(root, "sweep", "--commit")
    assert swept.exit_code == 0, swept.stdout + swept.stderr
    assert (root / "odd.tf").read_text() == odd.replace("web01", "application01")


def _renamed(source: bytes, new: bytes) -> bytes:
    edits = [Edit(m.start(), m.end(), new) for m in re.finditer(rb"web01", source)]
    return apply_edits(source, [*edits, *realign(source, edits)])


@pytest.mark.parametrize("source", [
    'locals {\n  web01 = "${lookup(m, "web01")}-x" # c\n  db    = "y"                         # d\n}\n',
    'locals {\n  web01 = 1 /* c */\n  db    = 2\n}\n',
    'locals {\n  web01 = [\n    "web01",\n  ]\n  db = 1\n  ab = 2\n}\n',
    'resource "x" "web01" { # c\n  q = 1                 # d\n}\n',
])
def test_realign_writes_what_fmt_writes(source: str, tmp_path: Path) -> None:
    """Pure logic over more shapes (interpolations holding quotes, block comments, a multi-line
    value ending a run, a comment run across a block's header), each judged by terraform fmt."""
    path = tmp_path / "x.tf"
    path.write_text(source)
    subprocess.run(["terraform", "fmt", str(path)], capture_output=True, check=True, env=_env(), timeout=60)
    canonical = path.read_bytes()
    for new in (b"application01", b"a1"):
        out = _renamed(canonical, new)
        path.write_bytes(out)
        assert _fmt_check(path).returncode == 0, out.decode()


def test_the_undo_takes_the_realigned_lines_back(repo: Repo, run: Run) -> None:
    """A line the move only realigned (after a heredoc, so a diff hunk of its own) holds no old
    value: the undo explains it by its blanks and reverts it with the rest, fmt-aligned again."""
    config = _config("application01").replace("version: 1\n", "version: 1\nname: m12\n")
    root = repo({"heredoc.tf": HEREDOC}, config=config, allowlist=CURRENT_ALL)
    swept = run(root, "sweep", "--commit")
    assert swept.exit_code == 0, swept.stdout + swept.stderr
    assert "  d             = 3\n" in (root / "heredoc.tf").read_text()
    undone = run(root, "undo", "m12")
    assert undone.exit_code == 0, undone.stdout + undone.stderr  # before: 3, `unexplained` (line 6)
    assert (root / "heredoc.tf").read_text() == HEREDOC
    assert _fmt_check(root / "heredoc.tf").returncode == 0
