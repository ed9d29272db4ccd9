"""Edits saved while the sweep replaces files (issue 27 item 1, adversarial pass 2 A-1).

Each target is swapped in with renameat2(RENAME_EXCHANGE) and what the swap displaced is
compared with what was read: a save that lands during the replace loop is swapped back and
kept, the sweep fails naming the file, and nothing else of that file is written. The saves
here are real (an editor's write-and-rename, an in-place append, a deletion, a link) at a
real point of the loop: just before that file's swap. The last test races a real writer
thread against `renamer sweep` in a subprocess, as the report's reproduction does."""

from __future__ import annotations

import errno
import json
import os
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path

import pytest

from renamer.exchange import Unsupported
from renamer.sweep import swap as swap_module
from tests.testing.repos import git

Save = Callable[[Path], None]
FILES = {f"stacks/f{i}.env": f"HOST=ana-ml2 {i}\r\n".encode() for i in range(5)}
FILES["stacks/f1.env"] = b"# caf\xe9 latin-1\r\nHOST=ana-ml2 1\r\n"  # CRLF, not UTF-8
OLD_F1 = FILES["stacks/f1.env"]


def _rewritten(data: bytes) -> bytes:
    return data.replace(b"ana-ml2", b"fv-ml1")


def _editor(path: Path) -> None:  # vim, VS Code: write a new file, rename it over
    tmp = path.with_name(".f1.env.swp")
    tmp.write_bytes(OLD_F1 + b"USER EDIT\r\n")
    os.replace(tmp, path)


def _append(path: Path) -> None:  # echo >> : the same inode
    with open(path, "ab") as handle:
        handle.write(b"USER EDIT\r\n")


def _same_size(path: Path) -> None:  # an in-place edit that keeps the size (and, maybe, the mtime)
    with open(path, "r+b") as handle:
        handle.write(b"#")


def _delete(path: Path) -> None:
    path.unlink()


def _link(path: Path) -> None:
    path.unlink()
    path.symlink_to("f0.env")


def _state(path: Path) -> bytes | str | None:
    if path.is_symlink():
        return f"-> {os.readlink(path)}"
    return path.read_bytes() if path.exists() else None


def _save_before_its_swap(monkeypatch: pytest.MonkeyPatch, root: Path, save: Save) -> list[bytes | str | None]:
    """Make `save` happen to stacks/f1.env just before the sweep swaps it in; what it left."""
    real = swap_module.exchange
    left: list[bytes | str | None] = []

    def saving_first(new: Path, target: Path) -> None:
        if target == root / "stacks/f1.env" and not left:
            save(target)
            left.append(_state(target))
        real(new, target)

    monkeypatch.setattr(swap_module, "exchange", saving_first)
    return left


@pytest.mark.parametrize("save", [
    pytest.param(_editor, id="editor-save"),
    pytest.param(_append, id="append-same-inode"),
    pytest.param(_same_size, id="same-size-in-place"),
    pytest.param(_delete, id="deleted"),
    pytest.param(_link, id="replaced-by-a-link"),
])
def test_a_save_during_the_replace_loop_is_kept_and_named(repo, run, monkeypatch, save: Save) -> None:
    root = repo(FILES)
    left = _save_before_its_swap(monkeypatch, root, save)
    result = run(root, "sweep")
    assert result.exit_code == 3
    assert result.stderr == ("renamer: error: stacks/f1.env: saved by someone else while the sweep replaced "
                             "it: that save is kept and the file is not rewritten; the other 4 files are "
                             "rewritten: check it, then run the sweep again\n")
    assert _state(root / "stacks/f1.env") == left[0]  # byte for byte, or still deleted, or still the link
    for rel, data in FILES.items():
        if rel != "stacks/f1.env":
            assert (root / rel).read_bytes() == _rewritten(data)
    assert not list(root.rglob("*.renamer-tmp"))
    assert not (root / ".git/renamer-journal.json").exists()


def test_with_commit_nothing_is_committed_and_the_rerun_commits_the_rest(repo, run, monkeypatch) -> None:
    root = repo(FILES)
    head = git(root, "rev-parse", "HEAD")
    _save_before_its_swap(monkeypatch, root, _editor)
    result = run(root, "sweep", "--commit")
    monkeypatch.undo()
    assert result.exit_code == 3
    assert result.stderr == ("renamer: error: stacks/f1.env: saved by someone else while the sweep replaced "
                             "it: that save is kept and the file is not rewritten; the other 4 files are "
                             "rewritten, not committed: check it, then `renamer sweep --commit` commits "
                             "them (journal: .git/renamer-journal.json)\n")
    assert git(root, "rev-parse", "HEAD") == head
    git(root, "commit", "-qm", "my edit", "--", "stacks/f1.env")  # the user keeps their save
    again = run(root, "sweep", "--commit")
    assert again.exit_code == 0, again.stderr
    assert "an interrupted sweep was completed: 0 files finished now; its rewrite (4 files, 4 replacements)" \
        in again.stderr
    rewrite = git(root, "log", "--format=%B", "-1", "HEAD~1")
    assert "Rewrote 4 references in 4 files" in rewrite
    assert git(root, "show", "--stat", "--format=", "HEAD~1").count("stacks/") == 4
    assert (root / "stacks/f1.env").read_bytes() == _rewritten(OLD_F1 + b"USER EDIT\r\n")  # then swept itself
    assert git(root, "status", "--porcelain") == ""


def test_a_save_just_after_its_swap_wins_and_nothing_is_lost(repo, run, monkeypatch) -> None:
    root = repo(FILES)
    real = swap_module.exchange

    def swap_then_save(new: Path, target: Path) -> None:
        real(new, target)
        if target == root / "stacks/f1.env":
            _editor(target)

    monkeypatch.setattr(swap_module, "exchange", swap_then_save)
    assert run(root, "sweep").exit_code == 0
    assert (root / "stacks/f1.env").read_bytes() == OLD_F1 + b"USER EDIT\r\n"  # the save, whole


def _writer(journal: Path, done: threading.Event, saved: list[str]) -> None:
    """Save the sweep's last target once, as an editor does, as soon as the swaps have begun."""
    while not done.is_set():
        try:  # a cheap look first: parsing 2,500 entries each time once let the swaps finish unseen (CI)
            raw = journal.read_bytes()
            if b'"state": "committing"' not in raw:
                continue
            data = json.loads(raw)
        except (OSError, ValueError):
            continue
        if data.get("state") == "committing":
            target = journal.parent.parent / data["writes"][-1][0]
            tmp = target.with_name(".user-save")
            tmp.write_bytes(target.read_bytes() + b"USER EDIT\n")
            os.replace(tmp, target)
            saved.append(data["writes"][-1][0])
            return


def test_a_real_writer_racing_the_sweep_never_loses_its_save(repo) -> None:
    root = repo({f"s/f{i:04d}.txt": f"host ana-ml2 {i}\n" for i in range(2500)},
                allowlist="version: 1\ncurrent: ['**']\n")
    caught = 0
    for _ in range(12):
        git(root, "reset", "-q", "--hard")
        done, saved = threading.Event(), []
        writer = threading.Thread(target=_writer, args=(root / ".git/renamer-journal.json", done, saved))
        writer.start()
        sweep = subprocess.run([sys.executable, "-m", "renamer", "sweep"], cwd=root, capture_output=True,
                               text=True, check=False)
        done.set()
        writer.join()
        if not saved:  # on a loaded machine the writer may not see the replace loop at all: try again
            assert sweep.returncode == 0, sweep.stderr
            continue
        data = (root / saved[0]).read_bytes()
        assert data.endswith(b"USER EDIT\n"), f"the save was lost: {data!r} (exit {sweep.returncode})"
        if sweep.returncode == 3:  # caught by its swap: the save kept over the old text
            assert data == b"host ana-ml2 %d\nUSER EDIT\n" % int(saved[0][3:7])
            assert sweep.stderr.startswith(f"renamer: error: {saved[0]}: saved by someone else while the sweep")
            caught += 1
            break
        assert sweep.returncode == 0, sweep.stderr  # the save landed after its swap: over the new text
        assert not list(root.rglob("*.renamer-tmp"))
    assert caught, "the save never landed inside the replace loop"


@pytest.mark.parametrize(("refuses", "method"), [pytest.param(False, "exchange", id="exchange"),
                                                 pytest.param(True, "check-then-rename", id="fallback")])
def test_vv_names_the_swap_that_ran_and_the_fallback_writes_as_well(repo, run, monkeypatch,
                                                                          refuses: bool, method: str) -> None:
    root = repo(FILES)
    if refuses:  # as a file system without RENAME_EXCHANGE answers
        def einval(new: Path, target: Path) -> None:
            raise Unsupported(errno.EINVAL, os.strerror(errno.EINVAL))

        monkeypatch.setattr(swap_module, "exchange", einval)
    done = run(root, "-vv", "sweep")
    assert done.exit_code == 0, done.stderr
    assert f"renamer: debug: swap: 5 files by {method}\n" in done.stderr
    assert all((root / rel).read_bytes() == _rewritten(data) for rel, data in FILES.items())
