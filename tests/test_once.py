"""renamer/once.py: a value computed once per scope, across forked workers."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

from renamer import once, vcs_status
from renamer.forked import fork_map
from tests.testing.repos import make_repo


def _counted(log: Path, value: str):  # type: ignore[no-untyped-def]
    def compute() -> str:
        with open(log, "a") as out:
            out.write(f"{os.getpid()}\n")
        return value
    return compute


def test_forked_workers_share_one_computation(tmp_path: Path) -> None:
    log = tmp_path / "computed"
    with once.scope():
        answers = list(fork_map(lambda _: once.shared("k", _counted(log, "v")), range(16), 4))
        assert once.shared("k", _counted(log, "v")) == "v"  # the parent reads the workers' value
    assert answers == ["v"] * 16
    assert len(log.read_text().splitlines()) == 1


def test_each_key_and_each_scope_computes_again(tmp_path: Path) -> None:
    log = tmp_path / "computed"
    with once.scope():
        assert once.shared("a", _counted(log, "1")) == "1"
        assert once.shared("b", _counted(log, "2")) == "2"
        assert once.shared("a", _counted(log, "x")) == "1"
        with once.scope():  # nested: the same scope
            assert once.shared("a", _counted(log, "x")) == "1"
    with once.scope():
        assert once.shared("a", _counted(log, "3")) == "3"
    assert once.shared("a", _counted(log, "4")) == "4"  # outside a scope: no sharing
    assert once.shared("a", _counted(log, "5")) == "5"
    assert len(log.read_text().splitlines()) == 5


def test_a_failed_computation_is_not_kept(tmp_path: Path) -> None:
    def fails() -> str:
        raise OSError("no")
    with once.scope():
        with contextlib.suppress(OSError):
            once.shared("k", fails)
        assert once.shared("k", lambda: "later") == "later"


def test_one_tree_grep_per_scope_however_many_workers_ask(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    root = make_repo(tmp_path / "repo", {"a.txt": "pug\n", "b.txt": "rex\n"})
    log = tmp_path / "walks"
    walk = vcs_status._walk_grep

    def logged(*args):  # type: ignore[no-untyped-def]
        with open(log, "a") as out:
            out.write(f"{os.getpid()}\n")
        return walk(*args)
    monkeypatch.setattr(vcs_status, "_walk_grep", logged)
    with once.scope():
        found = list(fork_map(lambda _: vcs_status.worktree_files_holding(root, "pug"), range(8), 4))
        again = vcs_status.worktree_files_holding(root, "pug")
        other = vcs_status.worktree_files_holding(root, "rex")
    assert found == [frozenset({"a.txt"})] * 8 and again == frozenset({"a.txt"})
    assert other == frozenset({"b.txt"})
    assert len(log.read_text().splitlines()) == 2  # one walk per pattern, not one per worker
