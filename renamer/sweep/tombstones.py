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

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from renamer import vcs
from renamer.config import Config, load_config, matcher_of
from renamer.errors import ConfigError
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


def added_lines(root: Path, *, staged: bool, since: str | None) -> dict[str, list[tuple[int, bytes]]]:
    """{path: [(line number, bytes)]} of the lines the change adds."""
    if staged:
        spec = ["--cached"]
    else:
        assert since is not None
        if since.startswith("-"):
            raise ConfigError(f"--since {since!r}: expected a commit, a branch or a tag")
        spec = [f"{since}...HEAD"]
    out: dict[str, list[tuple[int, bytes]]] = {}
    path: str | None = None
    number = 0
    for raw in vcs.diff_zero_context(root, *spec).split(b"\n"):
        if raw.startswith(b"+++ "):
            name = raw[4:]
            if name.endswith(b"\t"):  # git ends a name holding a space with a tab
                name = name[:-1]
            path = None if name == b"/dev/null" else _unquote(name)[2:]  # drop "b/"
        elif raw.startswith(b"@@ "):
            found = re.match(rb"@@ -\d+(?:,\d+)? \+(\d+)", raw)
            number = int(found[1]) if found else 0
        elif raw.startswith(b"+") and path is not None:
            out.setdefault(path, []).append((number, raw[1:]))
            number += 1
    return out


def _unquote(name: bytes) -> str:
    """A path as git prints it: C-style quoted when it holds a quote, a backslash or a control."""
    if not name.startswith(b'"'):
        return name.decode("utf-8", "surrogateescape")
    body = name[1:-1]
    out = bytearray()
    index = 0
    escapes = {ord("n"): 10, ord("t"): 9, ord('"'): 34, ord("\\"): 92, ord("a"): 7, ord("b"): 8,
               ord("f"): 12, ord("r"): 13, ord("v"): 11}
    while index < len(body):
        char = body[index]
        if char == 92 and index + 1 < len(body):
            following = body[index + 1]
            if 48 <= following <= 55:  # \ooo
                out.append(int(body[index + 1:index + 4], 8))
                index += 4
                continue
            out.append(escapes.get(following, following))
            index += 2
            continue
        out.append(char)
        index += 1
    return out.decode("utf-8", "surrogateescape")


def new_version(root: Path, path: str, *, staged: bool) -> bytes:
    """The file as the change leaves it: in the index (--staged), at HEAD (--since)."""
    return vcs.show(root, f"{':' if staged else 'HEAD:'}{path}") or b""


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
