"""A commit of chosen contents, for a sweep over uncommitted work: the sweep's edits merged into a
file's committed version (`git merge-file`), and the commit made from a temporary index, so that
it holds HEAD plus the sweep's edits and nothing of what the user has not committed."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from renamer.errors import RenamerError
from renamer.vcs_command import LITERAL, CommitTimedOut, git_commit, git_dir, git_error, git_run


@dataclass(frozen=True)
class Chosen:
    """What one file's entry becomes: in the commit, and then in the user's index (blobs stored in
    git's object database before anything is written, so a journal can name them)."""

    mode: str  # git's file mode, `100644` or `100755`
    committed: str  # the blob of HEAD's version with the sweep's edits
    staged: str  # the blob of the index's version with the sweep's edits (the user's staged changes kept)


def store(root: Path, data: bytes) -> str:
    """`data` as a blob in the repository's object database (`git hash-object -w`): its id."""
    done = git_run(["git", "-C", str(root), "hash-object", "-w", "--stdin"], input=data, capture_output=True,
                   check=False)
    if done.returncode != 0:
        raise RenamerError(f"git hash-object failed: {git_error(os.fsdecode(done.stderr))}")
    return os.fsdecode(done.stdout).strip()


def merge_edits(before: bytes, after: bytes, other: bytes) -> bytes | None:
    """`other` with the change from `before` to `after` merged in (git's three-way merge of one
    file); None when the change touches lines `other` differs on (git would report a conflict)."""
    with tempfile.TemporaryDirectory(prefix="renamer-merge-") as folder:
        paths = [Path(folder) / name for name in ("after", "before", "other")]
        for path, data in zip(paths, (after, before, other), strict=True):
            path.write_bytes(data)
        done = git_run(["git", "merge-file", "-p", "-q", *map(str, paths)], capture_output=True, check=False)
    if done.returncode != 0:  # the number of conflicts, or an error: either way no clean merge
        return None
    return bytes(done.stdout)


def entry(root: Path, rev: str, path: str) -> tuple[str, bytes] | None:
    """(mode, bytes) of `path` in `rev` (`HEAD`) or in the index (`rev` ""); None where it has none."""
    spec = ["ls-files", "-s", "-z", "--", path] if not rev else ["ls-tree", "-z", rev, "--", path]
    done = git_run(["git", "-C", str(root), *spec], capture_output=True, check=False,
                   env={**os.environ, **LITERAL})
    fields = os.fsdecode(done.stdout).split("\0")[0].split()
    if done.returncode != 0 or len(fields) < 3:
        return None
    mode, sha = fields[0], fields[1] if not rev else fields[2]
    blob = git_run(["git", "-C", str(root), "cat-file", "blob", sha], capture_output=True, check=False)
    return (mode, bytes(blob.stdout)) if blob.returncode == 0 else None


def commit_chosen(root: Path, paths: Sequence[str], chosen: Mapping[str, Chosen], message: str, *,
                  hooks: bool = True) -> str | None:
    """Commit `paths` (their work-tree contents) and `chosen` (the contents given), nothing else of
    the index, through a temporary index with `git commit` (so the repo's hooks run); then the
    user's index gets the same paths, `chosen` ones as their `staged` version. Returns the sha."""
    folder = git_dir(root)
    if folder is None:
        raise RenamerError(f"{root}: --commit needs a git repository")
    handle, name = tempfile.mkstemp(prefix="renamer-index-", dir=folder)
    os.close(handle)
    os.unlink(name)  # git makes it: read-tree refuses an empty file as an index
    scratch = {**os.environ, **LITERAL, "GIT_INDEX_FILE": name}
    try:
        _git(root, ["read-tree", "HEAD"], scratch)
        plain = [p for p in paths if p not in chosen]
        if plain:
            _stage(root, plain, scratch)
        _set(root, {p: (c.mode, c.committed) for p, c in chosen.items()}, scratch)
        before = _git(root, ["rev-parse", "HEAD"], scratch).strip()
        if git_run(["git", "-C", str(root), "diff", "--cached", "--quiet"], env=scratch,
                   check=False).returncode == 0:
            return None  # nothing new (a sweep killed just after its commit, then run again)
        try:
            done = git_commit(root, ["-q", *([] if hooks else ["--no-verify"]), "-m", message], scratch)
        except CommitTimedOut:
            if _git(root, ["rev-parse", "HEAD"], scratch).strip() == before:
                raise
            done = None  # made; a post-commit hook was what hung
        if done is not None and done.returncode != 0:
            why = git_error(os.fsdecode(done.stderr) + "\n" + os.fsdecode(done.stdout))
            raise RenamerError(f"git commit failed: {why}")
        sha = _git(root, ["rev-parse", "HEAD"], scratch).strip()
    finally:
        if os.path.lexists(name):
            os.unlink(name)
    own = {**os.environ, **LITERAL}
    present = [p for p in plain if os.path.lexists(root / p)]
    if present:
        _stage(root, present, own)
    gone = [p for p in plain if p not in present]  # a rename's old path: the user's index may have none
    if gone:
        _git(root, ["rm", "--cached", "-q", "--ignore-unmatch", "--", *gone], own)
    _set(root, {p: (c.mode, c.staged) for p, c in chosen.items()}, own)
    return sha if sha != before else None


def _set(root: Path, entries: Mapping[str, tuple[str, str]], env: Mapping[str, str]) -> None:
    for path, (mode, sha) in entries.items():
        _git(root, ["update-index", "--add", "--cacheinfo", f"{mode},{sha},{path}"], env)


def _stage(root: Path, paths: Sequence[str], env: Mapping[str, str]) -> None:
    """`git add -A` of `paths`, a tracked one with `-u`: git refuses to add a tracked file under an
    ignored folder by name, and stages it with `-u` (break-it round 21, finding 01)."""
    tracked = set(_git(root, ["ls-files", "-z", "--", *paths], env).split("\0")) - {""}
    if tracked:
        _git(root, ["add", "-u", "--", *sorted(tracked)], env)
    others = [p for p in paths if p not in tracked]
    if others:
        _git(root, ["add", "-A", "--", *others], env)


def _git(root: Path, args: list[str], env: Mapping[str, str], what: str = "") -> str:
    done = git_run(["git", "-C", str(root), *args], capture_output=True, check=False, env=dict(env))
    if done.returncode != 0:
        why = git_error(os.fsdecode(done.stderr) + "\n" + os.fsdecode(done.stdout))
        raise RenamerError(f"git {what or args[0]} failed: {why}")
    return os.fsdecode(done.stdout)
