"""audit --prune --write never writes outside the repo (issue 27, item 16e): an allowlist that
renamer.yaml names by `..` or an absolute path, one reached through a symlinked folder, or one that
is itself a symlink out of the repo is refused, exit 3, nothing written anywhere; the dry run still
shows what pruning would do, and an allowlist inside the repo is pruned as before."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Result
from tests.testing.repos import make_repo

ALLOW = """version: 1
current: ["**"]
keep:
  - name: gone
    path: runbook.md
    line_contains: nothing matches this
    reason: kept a line that is no longer there
"""
CONFIG = "version: 1\nrenames:\n  hosts: {{ana-ml2: fv-ml1}}\nallowlist: {allowlist}\n"


def _outside(tmp_path: Path) -> Path:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "allow.yaml").write_text(ALLOW)
    return outside


@pytest.mark.parametrize("how", ("dot-dot", "absolute", "symlinked-folder", "symlinked-file"))
def test_prune_write_refuses_an_allowlist_outside_the_repo(how: str, tmp_path: Path,
                                                           run: Callable[..., Result]) -> None:
    outside = _outside(tmp_path)
    allowlist = {"dot-dot": "../outside/allow.yaml", "absolute": str(outside / "allow.yaml"),
                 "symlinked-folder": "lists/allow.yaml", "symlinked-file": "allow.yaml"}[how]
    root = tmp_path / "repo"
    root.mkdir()
    if how == "symlinked-folder":
        os.symlink(outside, root / "lists")
    elif how == "symlinked-file":
        os.symlink(outside / "allow.yaml", root / "allow.yaml")
    make_repo(root, {"runbook.md": "ssh fv-ml1\n"}, config=CONFIG.format(allowlist=allowlist), allowlist=None)
    dry = run(root, "audit", "--prune")
    assert dry.exit_code == 0 and "-  - name: gone" in dry.stdout
    result = run(root, "audit", "--prune", "--write")
    assert result.exit_code == 3, result.stdout + result.stderr
    assert result.stderr.startswith("renamer: error: ") and "refused to write the allowlist" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert (outside / "allow.yaml").read_text() == ALLOW
    assert sorted(p.name for p in outside.iterdir()) == ["allow.yaml"]  # no temporary file left


def test_prune_write_inside_the_repo_still_prunes(repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    root = repo({"runbook.md": "ssh fv-ml1\n"}, config=CONFIG.format(allowlist="allow.yaml"), allowlist=ALLOW)
    result = run(root, "audit", "--prune", "--write")
    assert result.exit_code == 0, result.stderr
    assert "name: gone" not in (root / "allow.yaml").read_text()
