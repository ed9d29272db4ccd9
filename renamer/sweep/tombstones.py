"""Tombstones: after the move, an old name must not creep back in.

`renamer verify --staged` (the index against HEAD) and `--since REF` (the commits since
REF) read only the lines a change adds, so the cost follows the diff, not the repo. An
old value of this move, or of any past move (`moves/*.yaml` beside renamer.yaml, each a
renamer.yaml of its own), on an added line of a current-state (or unclassified) file is
a tombstone: `ana-ml2 was renamed to fv-ml1 on 2026-10-05 (fv-ml1-move): use fv-ml1`.
Records, excluded files, exempt lines (dated sections, the inline marker, keep rules)
and the matcher's own refusals (a range, an account) are left alone, as verify does.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from renamer.config import Config, matcher_of
from renamer.config_load import load_config
from renamer.match import Matcher
from renamer.project import LoadedProject

MOVES = "moves"  # beside renamer.yaml: one renamer config per past move


@dataclass(frozen=True)
class Move:
    name: str
    date: str | None
    matcher: Matcher


@dataclass(frozen=True)
class Tombstone:
    path: str
    line: int
    column: int
    old: str
    new: str
    move: str
    date: str | None

    def message(self) -> str:
        when = f" on {self.date}" if self.date else ""
        return f"{self.old} was renamed to {self.new}{when} ({self.move}): use {self.new}"


def moves_of(project: LoadedProject) -> list[Move]:
    """This move and every past one kept beside renamer.yaml (moves/*.yaml), newest first."""
    configs: list[Config] = [project.config]
    folder = project.config.path.parent / MOVES
    for path in sorted(folder.glob("*.yaml")) + sorted(folder.glob("*.yml")) if folder.is_dir() else []:
        configs.append(load_config(path, project.root))
    return [Move(c.name, c.cutover.isoformat() if c.cutover else None, matcher_of(c)) for c in configs]


def tombstones(project: LoadedProject, moves: Sequence[Move], added: dict[str, list[tuple[int, bytes]]],
               read: Callable[[str], bytes]) -> list[Tombstone]:
    """Every old value of any move on an added line that verify would count as live. `read`
    gives a changed file's whole new text: a dated section or a keep rule spans more lines
    than the change adds."""
    classifier = project.classifier
    found: list[Tombstone] = []
    for path in sorted(added):
        status = classifier.classify(path).status
        if status not in ("current", "unclassified"):
            continue  # a record keeps its old names; an excluded file is not ours
        lines = added[path]
        if not any(move.matcher.find(data) for move in moves for _, data in lines):
            continue
        whole = read(path).decode("utf-8", "replace").splitlines()
        exempt = classifier.line_exemptions(path, whole, [n - 1 for n, _ in lines if 0 < n <= len(whole)])
        for number, data in lines:
            if number - 1 in exempt:
                continue
            for move in moves:
                for match in move.matcher.find(data):
                    if match.refused or match.kept:
                        continue
                    column = len(data[:match.start].decode("utf-8", "replace")) + 1
                    found.append(Tombstone(path, number, column, match.old, match.new, move.name, move.date))
    return found
