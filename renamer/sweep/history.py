"""The move in the repo's history: blame that skips the rewrite, and the moves a repo has had.

A sweep's rewrite commit changes hundreds of lines and explains none of them: listed in
`.git-blame-ignore-revs` (with a comment naming the move), `git blame` with
`blame.ignoreRevsFile` skips it. The pure-rename commit is not listed: `--follow` needs it.
Both commits carry trailers (`Renamer-Move:`, `Renamer-Commit:`, `Renamer-Changed:`,
`Renamer-Kept:`), which `renamer log` reads back.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from renamer import lazy_re, vcs, vcs_status
from renamer.atomic import save
from renamer.errors import RenamerError
from renamer.paths import problem
from renamer.sweep.messages import trailer_lines

BLAME_FILE = ".git-blame-ignore-revs"
_TRAILER = lazy_re.compile(r"^(Renamer-[A-Za-z]+): (.*)$", re.MULTILINE)


def wants_blame_file(root: Path, choice: bool | None) -> bool:
    """`choice` when given (--blame-ignore-revs / --no-blame-ignore-revs); else yes when the repo
    already keeps the file or git is told to read one (a new file is the user's call)."""
    if choice is not None:
        return choice
    return (os.path.lexists(root / BLAME_FILE)
            or vcs_status.config_value(root, "blame.ignoreRevsFile") is not None)


def record_rewrite(root: Path, sha: str, move: str, config: str, *, hooks: bool = True) -> str | None:
    """Append the rewrite commit to .git-blame-ignore-revs and commit that; the new sha."""
    why = problem(root, BLAME_FILE)
    if why is not None:
        raise RenamerError(f"{BLAME_FILE}: cannot write it: {why}")
    path = root / BLAME_FILE
    before = path.read_bytes() if path.exists() else b""
    newline = b"\r\n" if b"\r\n" in before else b"\n"  # the file's own line ending
    lines = [] if not before or before.endswith(b"\n") else [b""]
    lines += [f"# {move}: the rewrite of renamer sweep (git blame skips it with "
              f"blame.ignoreRevsFile={BLAME_FILE})".encode(), sha.encode(), b""]
    save(path, before + newline.join(lines))  # atomically: a kill leaves the old file or the new
    message = (f"{move}: git blame skips the rewrite commit {sha[:12]}\n\n"
               + "".join(f"{line}\n" for line in trailer_lines(move, config, "blame-ignore")))
    return vcs.commit(root, [BLAME_FILE], message, hooks=hooks)


@dataclass
class MoveRecord:
    move: str
    date: str  # of the move's first commit, YYYY-MM-DD
    commits: list[tuple[str, str]] = field(default_factory=list)  # (sha, role), oldest first
    changed: str | None = None
    kept: str | None = None
    config: str | None = None


def moves_in_history(root: Path) -> list[MoveRecord]:
    """Every move the history records through renamer's trailers, oldest first."""
    found: dict[str, MoveRecord] = {}
    for sha, date, body in reversed(vcs_status.log_bodies(root, "^Renamer-Move: ")):
        paragraph = body.strip().split("\n\n")[-1]  # git's trailers: the last paragraph
        trailers = dict(_TRAILER.findall(paragraph))
        move = trailers.get("Renamer-Move")
        if not move:
            continue
        record = found.setdefault(move, MoveRecord(move, date[:10]))
        record.commits.append((sha, trailers.get("Renamer-Commit", "?")))
        if trailers.get("Renamer-Commit") in ("rewrite", "undo"):  # undo: `renamer undo`'s one commit
            record.changed = trailers.get("Renamer-Changed")
            record.kept = trailers.get("Renamer-Kept")
        record.config = record.config or trailers.get("Renamer-Config")
    return list(found.values())


def move_parent(root: Path, move: str) -> str | None:
    """The revision just before move `move`'s first commit; None when the history records none."""
    record = next((m for m in moves_in_history(root) if m.move == move), None)
    if record is None or not record.commits:
        return None
    return f"{record.commits[0][0]}^"

