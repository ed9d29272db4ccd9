"""Tracked files a sparse checkout keeps out of the work tree (issue 27, round 22 finding 4): read
from the index; one spelling an old value refuses the sweep (exit 3, nothing written) and fails
verify; one holding none lets both pass. Real git sparse checkouts, cone and non-cone."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Result
from tests.testing.repos import git

CONFIG = "version: 1\nrenames:\n  hosts: {web01: app01}\nallowlist: allow.yaml\n"
ALLOW = "version: 1\ncurrent: ['**']\n"


def _sparse(root: Path, mode: str) -> None:
    if mode == "no-cone":
        git(root, "sparse-checkout", "set", "--no-cone", "/*", "!/deploy/")
    else:
        git(root, "sparse-checkout", "set", "--cone", "live")


@pytest.mark.parametrize("mode", ["no-cone", "cone"])
def test_a_hidden_file_naming_an_old_host_refuses_the_sweep(mode: str, repo: Callable[..., Path],
                                                             run: Callable[..., Result]) -> None:
    root = repo({"live/a.conf": "server web01.lab\n", "deploy/b.yml": "target: web01\n"},
                config=CONFIG, allowlist=ALLOW)
    _sparse(root, mode)
    assert not (root / "deploy/b.yml").exists()
    head = git(root, "rev-parse", "HEAD")
    swept = run(root, "sweep", "--commit")
    assert swept.exit_code == 3
    assert "deploy/b.yml: cannot read (outside the sparse checkout" in swept.stderr
    assert git(root, "rev-parse", "HEAD") == head  # nothing committed
    assert (root / "live/a.conf").read_text() == "server web01.lab\n"  # nothing written
    verify = run(root, "verify")
    assert verify.exit_code == 1
    assert "  deploy/b.yml: outside the sparse checkout (skip-worktree)" in verify.stdout
    assert "its index copy spells web01" in verify.stdout
    git(root, "sparse-checkout", "disable")
    assert run(root, "sweep", "--commit").exit_code == 0  # all of it in the work tree: swept whole
    assert (root / "deploy/b.yml").read_text() == "target: app01\n"
    assert run(root, "verify", "--strict").exit_code == 0


def test_a_hidden_file_naming_none_is_clean(repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    root = repo({"live/a.conf": "server web01.lab\n", "deploy/b.yml": "target: other\n"},
                config=CONFIG, allowlist=ALLOW)
    _sparse(root, "no-cone")
    assert run(root, "sweep", "--commit").exit_code == 0
    assert (root / "live/a.conf").read_text() == "server app01.lab\n"
    verify = run(root, "verify", "--strict")
    assert verify.exit_code == 0, verify.stdout


def test_a_hidden_record_is_not_listed(repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    allow = "version: 1\ncurrent: ['live/**']\nrecords:\n  - {name: old, paths: ['deploy/**'], reason: as deployed then}\n"
    root = repo({"live/a.conf": "server web01.lab\n", "deploy/b.yml": "target: web01\n"},
                config=CONFIG, allowlist=allow)
    _sparse(root, "no-cone")
    assert run(root, "sweep", "--commit").exit_code == 0
    assert run(root, "verify").exit_code == 0
