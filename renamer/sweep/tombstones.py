"""Tombstones: after the move, an old name must not creep back in.

`renamer verify --staged` (the index against HEAD) and `--since REF` (the commits since
REF) read only the lines a change adds, so the cost follows the diff, not the repo. An
old value of this move, or of any past move (`moves/*.yaml` beside renamer.yaml, each a
renamer.yaml of its own), on an added line of a current-state (or unclassified) file is
a tombstone: `ana-ml2 was renamed to fv-ml1 on 2026-10-05 (fv-ml1-move): use fv-ml1`.
Records, excluded files, exempt lines (dated sections, the inline marker, keep rules)
and the matcher's own refusals (a range, an account) are left alone, as verify does.

A change can also make an old value live without adding it (break-it round 10, finding 9): it
removes a dated heading, the inline marker or a keep rule's text from a line, or adds a heading
that ends a dated section. So each file the change touches is read whole, as it was and as the
change leaves it, by verify's own scanner: a live reference the file did not hold before is
`live again`. Where the change touches the configuration (renamer.yaml, an allowlist: a keep
rule, a record class, the cutover, the inline marker), no file's exemptions can be trusted, and
the whole repo is verified as `renamer verify` does; the output says which of the two it did.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from renamer.config import Config, matcher_of
from renamer.config_load import load_config
from renamer.match import Matcher
from renamer.project import LoadedProject
from renamer.sweep.model import KEPT, RESIDUAL, UNCLASSIFIED, FileResult, Reference

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


@dataclass(frozen=True)
class LiveAgain(Tombstone):
    """An old value on a line the change did not add, which the change made live (an exemption
    gone), or which the whole repo holds where the change touches the configuration."""

    why: str

    def message(self) -> str:
        when = f" on {self.date}" if self.date else ""
        return (f"{self.old} is live again ({self.why}); it was renamed to {self.new}{when} "
                f"({self.move}): use {self.new}")


def _live(result: FileResult | None) -> list[Reference]:
    return [r for r in result.references if r.status in (RESIDUAL, UNCLASSIFIED)] if result else []


def live_again(project: LoadedProject, move: Move, paths: Iterable[str],
               scan: Callable[[str, bytes], FileResult | None], new: Callable[[str], bytes],
               old: Callable[[str], bytes], reported: set[tuple[str, int]]) -> list[LiveAgain]:
    """Live references of each changed file (as the change leaves it) that the file did not hold
    live before it (the same old value on the same line text), on lines not reported already."""
    found: list[LiveAgain] = []
    for path in paths:
        if project.classifier.classify(path).status not in ("current", "unclassified"):
            continue
        after = _live(scan(path, new(path)))
        if not after:
            continue
        earlier = scan(path, old(path))
        before = Counter((r.old, r.text) for r in _live(earlier))
        kept = {(r.old, r.text): r.reason for r in (earlier.references if earlier else ())
                if r.status == KEPT}
        for ref in after:
            if before[(ref.old, ref.text)] > 0:
                before[(ref.old, ref.text)] -= 1
                continue
            if (path, ref.line) in reported:
                continue
            reason = kept.get((ref.old, ref.text))
            why = (f"kept before as {reason}, an exemption the change ends" if reason else
                   "the change alters what the rules read around this line")
            found.append(LiveAgain(path, ref.line, ref.column, ref.old, ref.new, move.name, move.date, why))
    return found


def live_in_repo(references: Iterable[Reference], move: Move, changed: Sequence[str],
                 reported: set[tuple[str, int]]) -> list[LiveAgain]:
    """The whole repo's live references, where the change touches the configuration."""
    why = f"the change edits {', '.join(changed)}, so every exemption was read again"
    return [LiveAgain(r.path, r.line, r.column, r.old, r.new, move.name, move.date, why)
            for r in references if (r.path, r.line) not in reported]


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
        if not classifier.path_kept(path):  # a file added under an old name: its path (line 0) as
            for move in moves:  # verify reads it (break-it round 12, #3: `hosts/pug/compose.yaml`)
                found += [Tombstone(path, 0, m.start + 1, m.old, m.new, move.name, move.date)
                          for m in move.matcher.find(os.fsencode(path)) if not (m.refused or m.kept)]
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
