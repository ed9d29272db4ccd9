"""The sweep journal on real files: prepare, discard, commit, and recovery after a kill."""

from __future__ import annotations

import hashlib
import json
import os
import re
import stat
from pathlib import Path

import pytest

from renamer.errors import RenamerError, UnsafeError
from renamer.state import JOURNAL_NAME, LOCK_NAME, journal_path, lock_path, state_folder
from renamer.sweep.journal import COMMITTING, PREPARING, Journal, Recovery, pending, recover, temp_name
from tests.testing.repos import git, make_repo, write_files

OLD = {"a.env": b"HOST=ana-ml2\n", "stacks/app/b.yaml": b"host: ana-ml2\n"}
NEW = {"a.env": b"HOST=fv-ml1\n", "stacks/app/b.yaml": b"host: fv-ml1\n"}


@pytest.mark.parametrize(("target", "sweep_id", "expected"), (
    pytest.param("a.env", "abc123", ".renamer-abc123-cf43d774866073da.renamer-tmp", id="top-level"),
    pytest.param("stacks/app/b.yaml", "abc123", "stacks/app/.renamer-abc123-0f9a30d3bea9d99c.renamer-tmp",
                 id="in-a-folder"),
    pytest.param(".env", "0f", ".renamer-0f-e9cbb0224c4a3d23.renamer-tmp", id="hidden-target"),
    pytest.param("a/b/c", "x", "a/b/.renamer-x-2e7d2c03a9507ae2.renamer-tmp", id="no-extension"),
))
def test_temp_name_finds(target: str, sweep_id: str, expected: str) -> None:
    assert temp_name(target, sweep_id) == expected


def test_temp_name_is_of_fixed_length_whatever_the_target() -> None:
    """A name near the 255-byte limit still has room for its temporary file (adversarial B-12)."""
    long, short = "x" * 250 + ".txt", "a"
    assert len(temp_name(long, "0123456789ab")) == len(temp_name(short, "0123456789ab")) < 64
    assert temp_name(long, "0123456789ab") != temp_name(long + "y", "0123456789ab")


@pytest.fixture(autouse=True)
def state_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A plain folder's state goes under XDG_STATE_HOME: keep it inside the test's folder."""
    home = tmp_path / "state-home"
    monkeypatch.setenv("XDG_STATE_HOME", str(home))
    return home


def test_state_folder_of_a_git_repo_is_its_git_folder(tmp_path: Path) -> None:
    root = _root(tmp_path)
    assert state_folder(root).resolve() == (root / ".git").resolve()
    assert journal_path(root).resolve() == (root / ".git" / "renamer-journal.json").resolve()
    assert lock_path(root).resolve() == (root / ".git" / "renamer.lock").resolve()


def test_state_folder_of_a_linked_worktree(tmp_path: Path) -> None:
    root = make_repo(tmp_path / "main", {"a.env": "x\n"}, config=None, allowlist=None)
    git(root, "worktree", "add", "-q", str(tmp_path / "linked"))
    assert state_folder(tmp_path / "linked").resolve() == (root / ".git" / "worktrees" / "linked").resolve()


def test_state_folder_of_a_plain_folder_is_per_user(tmp_path: Path, state_home: Path) -> None:
    root = _root(tmp_path, git=False)
    key = hashlib.sha256(os.fsencode(root.resolve())).hexdigest()[:16]
    folder = state_home / "renamer" / key
    assert state_folder(root) == folder
    assert journal_path(root) == folder / JOURNAL_NAME
    assert lock_path(root) == folder / LOCK_NAME
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    assert not (root / JOURNAL_NAME).exists()


def test_state_folder_refuses_a_broken_git_file(tmp_path: Path) -> None:
    root = _root(tmp_path, git=False)
    (root / ".git").write_text("gitdir: ../nowhere\n")
    with pytest.raises(UnsafeError, match="git refuses this repository"):
        state_folder(root)


def _root(tmp_path: Path, *, git: bool = True) -> Path:
    root = tmp_path / "repo"
    if git:
        return make_repo(root, dict(OLD), config=None, allowlist=None, commit=False)
    write_files(root, dict(OLD))
    return root


def _write_temps(journal: Journal) -> None:
    for target, tmp in journal.writes:
        (journal.root / tmp).write_bytes(NEW[target])


def _temps(root: Path) -> list[str]:
    return sorted(str(p.relative_to(root)) for p in root.rglob("*.renamer-tmp"))


def _contents(root: Path) -> dict[str, bytes]:
    return {rel: (root / rel).read_bytes() for rel in OLD}


def test_journal_writes_and_id(tmp_path: Path) -> None:
    journal = Journal(_root(tmp_path), list(OLD))
    assert re.fullmatch(r"[0-9a-f]{12}", journal.id)
    assert journal.writes == [("a.env", temp_name("a.env", journal.id)),
                              ("stacks/app/b.yaml", temp_name("stacks/app/b.yaml", journal.id))]
    assert all(tmp.rsplit("/", 1)[-1].startswith(f".renamer-{journal.id}-") for _, tmp in journal.writes)
    assert Journal(journal.root, list(OLD)).id != journal.id


@pytest.mark.parametrize("in_git", (
    pytest.param(True, id="git-repo"),
    pytest.param(False, id="plain-folder"),
))
def test_prepare_commit_finish_save_the_journal(tmp_path: Path, in_git: bool) -> None:
    root = _root(tmp_path, git=in_git)
    journal = Journal(root, list(OLD))
    journal.prepare()
    path = journal_path(root)
    saved = json.loads(path.read_text())
    assert saved == {"id": journal.id, "state": PREPARING, "writes": [list(w) for w in journal.writes],
                     "renames": [], "folders": [], "head": None,
                     "commit": None, "message": None, "replacements": 0, "digests": {}}
    assert pending(root) == saved
    journal.commit()
    assert json.loads(path.read_text())["state"] == COMMITTING
    journal.finish()
    assert not path.exists()
    assert pending(root) is None
    assert _contents(root) == OLD  # the journal alone never touches a target
    assert not (root / JOURNAL_NAME).exists()


def test_prepare_then_discard_leaves_nothing(tmp_path: Path) -> None:
    root = _root(tmp_path)
    journal = Journal(root, list(OLD))
    journal.prepare()
    _write_temps(journal)
    assert len(_temps(root)) == 2
    journal.discard()
    assert _temps(root) == []
    assert not journal_path(root).exists()
    assert _contents(root) == OLD
    assert recover(root) is None


def test_discard_with_temps_missing(tmp_path: Path) -> None:
    root = _root(tmp_path)
    journal = Journal(root, list(OLD))
    journal.prepare()  # killed before any temporary file was written
    journal.discard()
    assert not journal_path(root).exists()
    assert _contents(root) == OLD


def test_finish_twice_is_harmless(tmp_path: Path) -> None:
    journal = Journal(_root(tmp_path), list(OLD))
    journal.finish()
    journal.finish()
    assert not journal_path(journal.root).exists()


@pytest.mark.parametrize("in_git", (
    pytest.param(True, id="git-repo"),
    pytest.param(False, id="plain-folder"),
))
def test_killed_while_committing_rolls_forward(tmp_path: Path, in_git: bool) -> None:
    root = _root(tmp_path, git=in_git)
    journal = Journal(root, list(OLD))
    journal.prepare()
    _write_temps(journal)
    journal.commit()
    first_target, first_tmp = journal.writes[0]
    os.replace(root / first_tmp, root / first_target)  # then the process is killed
    assert _contents(root) == {"a.env": NEW["a.env"], "stacks/app/b.yaml": OLD["stacks/app/b.yaml"]}

    assert recover(root) == Recovery(targets=("a.env", "stacks/app/b.yaml"),
                                     rolled_forward=("stacks/app/b.yaml",), rolled_back=())
    assert _contents(root) == NEW
    assert _temps(root) == []
    assert not journal_path(root).exists()
    assert recover(root) is None


def test_killed_while_preparing_rolls_back(tmp_path: Path) -> None:
    root = _root(tmp_path)
    journal = Journal(root, list(OLD))
    journal.prepare()
    _write_temps(journal)  # then the process is killed, before commit

    assert recover(root) == Recovery(targets=("a.env", "stacks/app/b.yaml"), rolled_forward=(),
                                     rolled_back=("a.env", "stacks/app/b.yaml"))
    assert _contents(root) == OLD
    assert _temps(root) == []
    assert not journal_path(root).exists()


def test_killed_while_preparing_with_one_temp_written(tmp_path: Path) -> None:
    root = _root(tmp_path)
    journal = Journal(root, list(OLD))
    journal.prepare()
    target, tmp = journal.writes[0]
    (root / tmp).write_bytes(NEW[target])

    assert recover(root) == Recovery(targets=("a.env", "stacks/app/b.yaml"), rolled_forward=(),
                                     rolled_back=("a.env",))
    assert _contents(root) == OLD
    assert _temps(root) == []


@pytest.mark.parametrize(("text", "expected"), (
    pytest.param("[]", {}, id="a-list"),
    pytest.param('"committing"', {}, id="a-string"),
    pytest.param('{"id": "x", "state": "preparing", "writes": []}', {"id": "x", "state": "preparing", "writes": []},
                 id="a-mapping"),
))
def test_pending_reads(tmp_path: Path, text: str, expected: dict[str, object]) -> None:
    root = _root(tmp_path)
    journal_path(root).write_text(text)
    assert pending(root) == expected


@pytest.mark.parametrize("in_git", (
    pytest.param(True, id="git-repo"),
    pytest.param(False, id="plain-folder"),
))
def test_pending_without_journal(tmp_path: Path, in_git: bool) -> None:
    root = _root(tmp_path, git=in_git)
    assert pending(root) is None
    assert recover(root) is None


@pytest.mark.parametrize("text", (
    pytest.param("{not json", id="garbage"),
    pytest.param("", id="empty"),
    pytest.param('{"id": "x", "state": ', id="truncated"),
))
def test_pending_on_garbage_raises(tmp_path: Path, text: str) -> None:
    root = _root(tmp_path)
    path = journal_path(root)
    path.write_text(text)
    with pytest.raises(RenamerError, match="unreadable sweep journal") as raised:
        pending(root)
    assert str(raised.value).startswith(f"{path}: unreadable sweep journal (")
    assert str(raised.value).endswith("); inspect it, then delete it")
    assert raised.value.exit_code == 2
    with pytest.raises(RenamerError, match="unreadable sweep journal"):
        recover(root)
    assert path.read_text() == text  # never deleted for the user
    assert _contents(root) == OLD


def _journal_of(sweep_id: object = "0123456789ab", state: object = COMMITTING,
                writes: object = None) -> dict[str, object]:
    if writes is None:
        writes = [["a.env", temp_name("a.env", "0123456789ab")]]
    return {"id": sweep_id, "state": state, "writes": writes}


@pytest.mark.parametrize(("data", "message"), (
    pytest.param([], "not a journal renamer wrote (bad id)", id="not-a-mapping"),
    pytest.param(_journal_of(sweep_id="../x"), "not a journal renamer wrote (bad id)", id="bad-id"),
    pytest.param(_journal_of(state="done"), "not a journal renamer wrote (bad state or writes)", id="bad-state"),
    pytest.param(_journal_of(writes={"a.env": "x"}), "not a journal renamer wrote (bad state or writes)",
                 id="writes-not-a-list"),
    pytest.param(_journal_of(writes=[["a.env"]]), "a write that is not a (target, temporary file) pair",
                 id="not-a-pair"),
    pytest.param(_journal_of(writes=[["../a.env", temp_name("../a.env", "0123456789ab")]]),
                 "a path with '..', '.' or an empty part", id="target-outside"),
    pytest.param(_journal_of(writes=[["/etc/passwd", ".x.renamer-tmp"]]), "an absolute path", id="absolute-target"),
    pytest.param(_journal_of(writes=[["a.env", "stacks/app/b.yaml"]]), "is not named as renamer names them",
                 id="tmp-not-ours"),
))
def test_recover_refuses_and_leaves_alone(tmp_path: Path, data: object, message: str) -> None:
    root = _root(tmp_path)
    (root / temp_name("a.env", "0123456789ab")).write_bytes(NEW["a.env"])
    journal_path(root).write_text(json.dumps(data))
    with pytest.raises(UnsafeError, match=re.escape(message)):
        recover(root)
    assert _contents(root) == OLD
    assert journal_path(root).exists()
    assert _temps(root) == [temp_name("a.env", "0123456789ab")]


def _sha1(data: bytes) -> str:
    return hashlib.sha1(data).hexdigest()


SAVED = b"HOST=ana-ml2\nUSER EDIT\n"
OTHER = b"HOST=something else\n"


def _killed_in_the_swaps(root: Path, target: bytes, tmp: bytes) -> Journal:
    """A `committing` journal for a.env (the plan's digests kept), killed with `target` at
    a.env and `tmp` at its temporary name: one of the moments of a swap."""
    journal = Journal(root, ["a.env"], digests=[(_sha1(OLD["a.env"]), _sha1(NEW["a.env"]))])
    journal.prepare()
    journal.commit()
    (root / "a.env").write_bytes(target)
    (root / journal.writes[0][1]).write_bytes(tmp)
    return journal


@pytest.mark.parametrize(("target", "tmp", "after", "kept_tmp", "forward"), (
    pytest.param(OLD["a.env"], NEW["a.env"], NEW["a.env"], False, True, id="before-the-swap"),
    pytest.param(SAVED, NEW["a.env"], SAVED, False, False, id="a-save-before-the-swap"),
    pytest.param(NEW["a.env"], OLD["a.env"], NEW["a.env"], False, True, id="swapped-not-yet-cleaned"),
    pytest.param(NEW["a.env"], SAVED, SAVED, False, False, id="a-save-swapped-out-not-yet-put-back"),
    pytest.param(OTHER, SAVED, OTHER, True, False, id="both-someone-elses"),
))
def test_recovery_never_replaces_a_newer_save(tmp_path: Path, target: bytes, tmp: bytes, after: bytes,
                                              kept_tmp: bool, forward: bool) -> None:
    root = _root(tmp_path)
    journal = _killed_in_the_swaps(root, target, tmp)
    recovery = recover(root)
    assert recovery is not None
    assert (root / "a.env").read_bytes() == after
    assert (root / journal.writes[0][1]).exists() == kept_tmp
    assert (recovery.rolled_forward, recovery.saved) == ((("a.env",), ()) if forward else ((), ("a.env",)))
    assert recovery.targets == (("a.env",) if forward else ())
    assert pending(root) is None


def test_recovery_refuses_digests_renamer_never_wrote(tmp_path: Path) -> None:
    root = _root(tmp_path)
    _killed_in_the_swaps(root, OLD["a.env"], NEW["a.env"])
    data = json.loads(journal_path(root).read_text())
    journal_path(root).write_text(json.dumps({**data, "digests": {"a.env": ["../x", "y"]}}))
    with pytest.raises(UnsafeError, match="digests that are not SHA-1 pairs; nothing touched"):
        recover(root)
    assert (root / "a.env").read_bytes() == OLD["a.env"]


def test_a_commit_still_to_make_keeps_the_journal_until_it_is_made(tmp_path: Path) -> None:
    root = _root(tmp_path)
    journal = Journal(root, ["a.env"], "move: rewrite\n",
                      digests=[(_sha1(OLD["a.env"]), _sha1(NEW["a.env"]))], replacements=1)
    journal.prepare()
    (root / journal.writes[0][1]).write_bytes(NEW["a.env"])
    journal.commit()
    recovery = recover(root, commit=True)
    assert recovery is not None and recovery.commit_message == "move: rewrite\n" and recovery.replacements == 1
    kept = pending(root)
    assert kept is not None and kept["state"] == "written" and kept["commit"] == "move: rewrite\n"
    assert (root / "a.env").read_bytes() == NEW["a.env"]


@pytest.mark.parametrize(("linked", "someone"), (
    pytest.param(False, None, id="killed-before-the-link"),
    pytest.param(True, None, id="linked-not-yet-cleaned"),
    pytest.param(False, b"theirs\n", id="someone-made-it-meanwhile"),
))
def test_a_created_file_is_rolled_forward_only_where_nothing_else_stands(
        tmp_path: Path, linked: bool, someone: bytes | None) -> None:
    """A file the sweep creates (a module's moved.tf, sweep/moved_files.py): as read, "not there"
    (the empty file's digest); recovery links it in, finishes a link cut short, and never writes
    over a file someone else made meanwhile."""
    root = _root(tmp_path)
    made = b"# renamer: move m expires 2030-01-01\nmoved {\n  from = a.b\n  to   = a.c\n}\n"
    journal = Journal(root, ["moved.tf"], digests=[(_sha1(b""), _sha1(made))])
    journal.prepare()
    journal.commit()
    tmp = root / journal.writes[0][1]
    tmp.write_bytes(made)
    if linked:
        os.link(tmp, root / "moved.tf")
    if someone is not None:
        (root / "moved.tf").write_bytes(someone)
    recovery = recover(root)
    assert recovery is not None and not tmp.exists()
    assert (root / "moved.tf").read_bytes() == (someone if someone is not None else made)
    assert (recovery.rolled_forward, recovery.saved) == ((), ("moved.tf",)) if someone else (("moved.tf",), ())
