"""A plain sweep's rewrite, left uncommitted, for the `--commit` run that follows (issue 27 item 9).

`renamer sweep` writes and stops, so that the rewrite can be reviewed (`git diff`); then
`renamer sweep --commit`. That second run plans nothing (the tree is swept already), and it
must never say "nothing to change" while the rewrite is uncommitted. So a plain sweep in a git
repository leaves a record beside the journal (in git's folder, never in the work tree): HEAD
as it was, each path it wrote with the SHA-1 of what it wrote (a re-pointed link: its target
text), its renames, and the two commit messages a `--commit` sweep would have made. The next
`--commit` run, before it plans:

- commits that rewrite (the renames first, in a commit of their own, then the rewrite, as a
  `--commit` sweep does) where it is provably the sweep's own edit: HEAD has not moved, and
  every path it wrote holds exactly what it wrote;
- refuses (exit 3, nothing written, the files named) where a path it wrote holds something
  else now, neither what the sweep wrote nor HEAD's version (edited since), or where HEAD moved
  while the rewrite stayed uncommitted: commit it with git, or undo it, then sweep again;
- forgets the record where nothing of it is uncommitted (committed by hand, or undone).

A second plain sweep adds what it writes to the record. The dry run says how many files the
record holds uncommitted.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from renamer import vcs, vcs_listing, vcs_status
from renamer.atomic import write_atomic
from renamer.errors import UnsafeError
from renamer.state import state_folder
from renamer.vcs_command import LITERAL, git_run
from renamer.vcs_index import Chosen, commit_chosen
from renamer.words import plural

RECORD_NAME = "renamer-uncommitted.json"
_SHOWN = 5


def record_path(root: Path) -> Path:
    return state_folder(root) / RECORD_NAME


def _current(root: Path, path: str) -> bytes | None:
    """What stands at `path`: a link's target text, a file's bytes; None where nothing does."""
    full = root / path
    if os.path.islink(full):
        return os.fsencode(os.readlink(full))
    if full.is_file():
        return full.read_bytes()
    return None


def _digest(data: bytes) -> str:
    return hashlib.sha1(data).hexdigest()


def _at_head(root: Path, path: str) -> tuple[str, str, bytes] | None:
    """(mode, blob id, bytes) of `path` in HEAD; None where HEAD has no such path."""
    done = git_run(["git", "-C", str(root), "ls-tree", "-z", "HEAD", "--", path], capture_output=True,
                   check=False, env={**os.environ, **LITERAL})
    fields = os.fsdecode(done.stdout).split("\0")[0].split()
    if done.returncode != 0 or len(fields) < 3 or fields[1] != "blob":
        return None
    blob = git_run(["git", "-C", str(root), "cat-file", "blob", fields[2]], capture_output=True, check=False)
    return (fields[0], fields[2], bytes(blob.stdout)) if blob.returncode == 0 else None


def _load(root: Path) -> dict[str, Any] | None:
    try:
        data = json.loads(record_path(root).read_text())
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) and isinstance(data.get("files"), dict) else None


def forget(root: Path) -> None:
    with contextlib.suppress(FileNotFoundError):
        record_path(root).unlink()


def remember(root: Path, head: str | None, paths: list[str], renames: list[tuple[str, str]],
             message: str | None, renames_message: str | None,
             read: dict[str, tuple[str, bytes]] | None = None) -> None:
    """After a plain sweep wrote `paths` (and made `renames`) over HEAD `head`: the record, with
    what an earlier plain sweep over the same HEAD left uncommitted. `read`: per written path, the
    path it was read from and the bytes read; a file that differed from HEAD then (uncommitted work
    under `--allow-dirty`) is recorded as mixed (never committed as the sweep's), an untracked one
    not at all (a `--commit` sweep leaves those uncommitted too)."""
    if head is None:
        return
    earlier = _load(root)
    files: dict[str, str] = {}
    mixed: list[str] = []
    pairs: list[tuple[str, str]] = []
    if earlier is not None and earlier.get("head") == head:
        files.update({str(p): str(d) for p, d in earlier["files"].items()})
        mixed += [str(p) for p in earlier.get("mixed") or []]
        pairs += [(str(a), str(b)) for a, b in earlier.get("renames") or []]
        message = message or earlier.get("message")
        renames_message = renames_message or earlier.get("renames_message")
    read = read or {}
    then = vcs_status.blobs(root, [f"{head}:{source}" for source, _ in read.values()])
    # A file git ignores (`--include-ignored`), moved or rewritten: never the sweep's to commit.
    ignored = vcs_listing.ignored_untracked(root, paths + [new for _, new in renames])
    renames = [(old, new) for old, new in renames if new not in ignored]
    for path in paths + [new for _, new in renames]:
        if path in ignored:
            continue
        if path in read:
            source, data_read = read[path]
            committed = then.get(f"{head}:{source}")
            if committed is None:
                continue  # untracked: rewritten in the work tree, never committed by a sweep
            if committed != data_read:
                mixed.append(path)
                files.pop(path, None)
                continue
        data = _current(root, path)
        if data is not None:
            files[path] = _digest(data)
    pairs += [pair for pair in renames if pair not in pairs]
    if not (files or mixed):
        return
    write_atomic(record_path(root), json.dumps({
        "head": head, "files": files, "mixed": sorted(set(mixed)), "renames": pairs, "message": message,
        "renames_message": renames_message}).encode(), suffix=".uncommitted-tmp")


@dataclass(frozen=True)
class Pending:
    """What a plain sweep left uncommitted, as the work tree holds it now."""

    head: str
    files: tuple[str, ...]  # written by the sweep and holding exactly that, not committed
    renames: tuple[tuple[str, str], ...]  # made by the sweep, not committed
    changed: tuple[str, ...]  # written by the sweep, holding something else now (edited since)
    moved: bool  # HEAD is no longer the commit the sweep wrote over
    message: str | None
    renames_message: str | None
    mixed: tuple[str, ...] = ()  # the sweep's rewrite over uncommitted work (--allow-dirty), uncommitted

    @property
    def count(self) -> int:
        return len(set(self.files) | {new for _, new in self.renames} | set(self.mixed))


def pending_rewrite(root: Path, *, tidy: bool = True) -> Pending | None:
    """The record, checked against the work tree; None where there is none or nothing of it is
    left uncommitted (then it is forgotten, with `tidy`)."""
    data = _load(root)
    if data is None:
        return None
    head = str(data.get("head"))
    renames = [(str(a), str(b)) for a, b in data.get("renames") or []]
    recorded = {str(p): str(d) for p, d in data["files"].items()}
    mixed_paths = [str(p) for p in data.get("mixed") or []]
    committed = vcs_status.blobs(root, [f"HEAD:{path}" for path in [*recorded, *mixed_paths]])
    files, changed = [], []
    for path, digest in sorted(recorded.items()):
        now = _current(root, path)
        if now is not None and committed.get(f"HEAD:{path}") == now:
            continue  # committed by hand, or undone: nothing of the sweep's uncommitted here
        if now is None and any(new == path and os.path.lexists(root / old) for old, new in renames):
            continue  # the rename undone
        if now is not None and _digest(now) == digest:
            files.append(path)
        else:
            changed.append(path)
    mixed = [path for path in sorted(mixed_paths)
             if (now := _current(root, path)) is not None and committed.get(f"HEAD:{path}") != now]
    olds = vcs_status.blobs(root, [f"HEAD:{old}" for old, _ in renames])
    moves = [(old, new) for old, new in renames
             if not os.path.lexists(root / old) and os.path.lexists(root / new) and f"HEAD:{old}" in olds]
    if not (files or moves or changed or mixed):
        if tidy:
            forget(root)
        return None
    return Pending(head, tuple(files), tuple(moves), tuple(changed), vcs_status.head_sha(root) != head,
                   data.get("message") if isinstance(data.get("message"), str) else None,
                   data.get("renames_message") if isinstance(data.get("renames_message"), str) else None,
                   tuple(mixed))


def _named(paths: list[str] | tuple[str, ...]) -> str:
    shown = ", ".join(paths[:_SHOWN])
    return shown + (f" and {len(paths) - _SHOWN} more" if len(paths) > _SHOWN else "")


def refuse_unprovable(pending: Pending) -> None:
    """A rewrite left uncommitted that is no longer provably the sweep's own edit: refused, so that
    no run says "nothing to change" over it, nor commits what someone else wrote."""
    if pending.changed:
        raise UnsafeError(
            f"{_named(pending.changed)}: rewritten by an earlier `renamer sweep`, not committed, and changed "
            "since (neither what the sweep wrote nor HEAD's version): the rewrite is in the work tree, "
            "uncommitted; review it and commit it with git (`git add` and `git commit`), or undo it "
            "(`git restore` those files), then run `renamer sweep --commit` again; nothing written")
    if pending.mixed:
        raise UnsafeError(
            f"{_named(pending.mixed)}: rewritten by an earlier `renamer sweep` over uncommitted changes of "
            "yours, not committed: the rewrite is in the work tree, mixed with your changes; commit what you "
            "mean to with git (`git add -p` and `git commit`), then run `renamer sweep --commit` again; "
            "nothing written")
    if pending.moved:
        paths = sorted(set(pending.files) | {new for _, new in pending.renames})
        raise UnsafeError(
            f"{_named(paths)}: rewritten by an earlier `renamer sweep` over another HEAD "
            f"({pending.head[:12]}), not committed: the rewrite is in the work tree, uncommitted; commit it "
            "with git (`git add` and `git commit`), or undo it, then run `renamer sweep --commit` again; "
            "nothing written")


def commit_pending_rewrite(root: Path, pending: Pending, *, hooks: bool = True) -> list[str]:
    """Commit what a plain sweep wrote and left uncommitted: the renames in a commit of their own
    (HEAD's contents under the new names), then the rewrite. The record goes once both are made;
    after the first alone, it names the new HEAD, for the next run to finish."""
    refuse_unprovable(pending)
    made: list[str] = []
    if pending.renames:
        chosen = {}
        for old, new in pending.renames:
            mode, blob, _ = _at_head(root, old) or ("", "", b"")
            chosen[new] = Chosen(mode, blob, blob)
        sha = commit_chosen(root, [old for old, _ in pending.renames], chosen,
                            pending.renames_message or "renamer: renames", hooks=hooks)
        if sha:
            made.append(sha)
            data = _load(root) or {}
            write_atomic(record_path(root), json.dumps({**data, "head": sha, "renames": []}).encode(),
                         suffix=".uncommitted-tmp")
    if pending.files and pending.message:
        sha = vcs.commit(root, list(pending.files), pending.message, hooks=hooks)
        made += [sha] if sha else []
    forget(root)
    return made


def describe(pending: Pending) -> str:
    return (f"an earlier `renamer sweep` rewrote {plural(pending.count, 'file')}, not committed: "
            "`renamer sweep --commit` commits them")
