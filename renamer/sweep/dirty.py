"""A sweep's commit over uncommitted work (`--allow-dirty --commit`) holds the sweep's edits and
nothing of the user's: decided before anything is written.

* A tracked file with uncommitted changes: the sweep's edits are merged into HEAD's version
  (the commit) and into the index's (the user's staged changes kept there); the work tree keeps
  the user's changes plus the edits. Where the user's changes touch the lines the sweep rewrites,
  or sit right next to one (git's merge would conflict), or the sweep also renames the file, it is
  refused by name, saying which line meets which.
* An untracked file (or one only added to the index): rewritten in the work tree, never
  committed; listed as left uncommitted.
* A file git ignores (`--include-ignored`: a live `.env`): the same, whether the tree is clean or
  not. git refuses to add it, and it often holds secrets: written (or moved with its folder) in
  the same all-or-nothing step as the rest, never staged (break-it round 16, finding 20).
"""

from __future__ import annotations

import difflib
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from renamer import vcs_status
from renamer.errors import UnsafeError
from renamer.sweep.model import FileResult
from renamer.vcs_index import Chosen, entry, merge_edits, store


@dataclass(frozen=True)
class Uncommitted:
    chosen: dict[str, Chosen] = field(default_factory=dict)  # target -> what its commit and index get
    carrying: tuple[str, ...] = ()  # rewritten files whose own uncommitted changes stay out of the commit
    untracked: tuple[str, ...] = ()  # rewritten (or renamed) in the work tree, left uncommitted

    def leaves(self, path: str) -> bool:
        """Whether `path` stays out of the sweep's commits."""
        return path in self.untracked

    def to_json(self) -> dict[str, Any]:
        """For the journal: an interrupted sweep's commit, made by the next run, holds the same."""
        return {"chosen": {p: [c.mode, c.committed, c.staged] for p, c in self.chosen.items()},
                "carrying": list(self.carrying), "untracked": list(self.untracked)}

    @classmethod
    def from_json(cls, data: Any) -> Uncommitted:
        """What `to_json` wrote; nothing set apart for a journal from before it was kept."""
        if not isinstance(data, dict):
            return cls()
        chosen = {str(p): Chosen(*map(str, v)) for p, v in dict(data.get("chosen") or {}).items()
                  if isinstance(v, list) and len(v) == 3}
        carrying, untracked = data.get("carrying") or (), data.get("untracked") or ()
        return cls(chosen, tuple(map(str, carrying)), tuple(map(str, untracked)))


def uncommitted_work(root: Path, edited: Sequence[FileResult], befores: Sequence[bytes],
                     afters: Sequence[bytes], renames: Sequence[tuple[str, str]]) -> Uncommitted:
    """What the commit of a sweep over a dirty work tree holds instead of the work tree's files."""
    olds = [c.path for c in edited] + [old for old, _ in renames]
    states = vcs_status.path_states(root, sorted(set(olds)), ignored=True)
    if not states:
        return Uncommitted()
    renamed = dict(renames)
    chosen: dict[str, Chosen] = {}
    carrying, untracked = [], []
    for old, new in renames:
        state = states.get(old)
        if state is None:
            continue
        if state in ("??", "!!") or state[0] == "A":
            untracked.append(new)
        else:
            raise UnsafeError(f"{old}: carries uncommitted changes and the sweep renames it to {new}: the "
                              "rename commit would hold them; commit or stash them first; nothing written")
    for change, before, after in zip(edited, befores, afters, strict=True):
        state = states.get(change.path)
        target = change.new_path or renamed.get(change.path) or change.path
        if state is None or target in untracked:
            continue
        head, index = entry(root, "HEAD", change.path), entry(root, "", change.path)
        if state in ("??", "!!") or state[0] == "A" or head is None:
            untracked.append(target)
            continue
        committed = merge_edits(before, after, head[1])
        staged = committed if index == head else merge_edits(before, after, index[1]) if index else None
        if committed is None or staged is None:
            other = head[1] if committed is None or index is None else index[1]
            meet = where_they_meet(other, before, after)
            raise UnsafeError(f"{change.path}: your uncommitted changes {meet}, so its "
                              "commit cannot hold the sweep's edits without them: commit or stash "
                              "them first, or sweep without --commit; nothing written")
        chosen[target] = Chosen(head[0], store(root, committed), store(root, staged))
        carrying.append(target)
    return Uncommitted(chosen, tuple(carrying), tuple(untracked))


def where_they_meet(other: bytes, before: bytes, after: bytes) -> str:
    """Where the user's changes (`other` -> `before`) meet the sweep's (`before` -> `after`), as
    git's merge sees it: on a line the sweep rewrites, or on the line next to one (a three-way
    merge needs an unchanged line between two changes; break-it round 8: a WIP edit on the line
    after a rewritten one was said to touch it)."""
    lines = before.split(b"\n")
    theirs = [(j1, j2) for tag, _, _, j1, j2 in
              difflib.SequenceMatcher(None, other.split(b"\n"), lines, autojunk=False).get_opcodes()
              if tag != "equal"]
    ours = sorted({i for tag, i1, i2, _, _ in
                   difflib.SequenceMatcher(None, lines, after.split(b"\n"), autojunk=False).get_opcodes()
                   if tag != "equal" for i in range(i1, max(i2, i1 + 1))})
    for j1, j2 in theirs:
        touched = [i for i in ours if j1 <= i < j2]
        if touched:
            return f"touch line {touched[0] + 1}, which the sweep rewrites"
    for j1, j2 in theirs:
        near = [i for i in ours if j1 - 1 <= i <= j2]
        if near:
            mine = j1 + 1 if j2 > j1 else j1
            return (f"on line {mine} sit right next to line {near[0] + 1}, which the sweep rewrites (git's "
                    f"merge needs an unchanged line between two changes)")
    return "meet the lines the sweep rewrites where git's merge cannot keep them apart"


NOTHING_UNCOMMITTED = Uncommitted()  # a clean work tree: the commit is the work tree's files
