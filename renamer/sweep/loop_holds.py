"""Lists whose words a loop elsewhere walks, held where the loop's composed name is a residual.

`nodes: [pug, rex]` in group_vars beside a play's `loop: "{{ nodes }}"` and `"{{ item }}.ana.lan"`
(pug moves to fv.lan, rex stays): the play's name is a `composed-name` residual, and rewriting pug
where the list is defined would make wolf.ana.lan all the same (break-it round 7, finding 10e).
The file defining the list is scanned on its own, so the loops that walk a list are found once per
scan (one git grep for loop headers, each hit read and decided by sweep/composed.py), and each
word they hold is refused `composed-name` wherever its list is defined, naming the loop.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Protocol

from renamer import composed_names, vcs_status
from renamer.occurrences import Match
from renamer.sweep.composed import Known, held_list_words, hold_list_words

# A line that may open a loop over a list variable: a shell or Jinja `for`, Ansible's loop keys,
# Terraform's for_each, Helm's range, Make's foreach (git grep's extended regex).
_HEADERS = (r"(^|[^A-Za-z0-9_])for[[:space:]]+[A-Za-z_][A-Za-z0-9_,[:space:]]*[[:space:]]in[[:space:]]"
            r"|(loop|with_items|with_list)[[:space:]]*:|for_each[[:space:]]*=")
# Go templates' `range $h := .Values.hosts` and Make's `$(foreach h,$(HOSTS),...)` (break-it round 8, #5).
_HEADERS += r"|range[[:space:]]+\$|foreach[[:space:]]+[A-Za-z_]"
# A dot range, Make's list functions and substitution references, formatlist, a shell's printf over
# its arguments (break-it round 9, finding 8).
_HEADERS += (r"|range[[:space:]]+\(?[[:space:]]*(tuple|list|splitList|\.|\$\.)"
             r"|(addsuffix|patsubst|formatlist)[[:space:](]|\$\([A-Za-z_][A-Za-z0-9_]*:[^=)]*="
             r"|printf[[:space:]]+['\"][^'\"]*%s|regex_replace|product[[:space:]]*\(")


class Finds(Protocol):
    """The matcher's exact pass and its host renames (match.Matcher)."""

    hosts: tuple[tuple[str, str], ...]

    def find(self, data: bytes) -> list[Match]: ...


class LoopHolds:
    """Every held list word of the work tree, by the path and line spelling it; asked lazily."""

    def __init__(self, root: Path, matcher: Finds, definitions: Known, live: Callable[[str], bool],
                 max_size: int) -> None:
        self.root = root
        self.max_size = max_size  # a file the sweep would not rewrite holds no loop it decides
        self.matcher = matcher
        self.definitions = definitions
        self.live = live
        self._held: dict[str, list[tuple[int, str, str]]] | None = None

    def hold(self, rel: str, data: bytes, matches: list[Match]) -> list[Match]:
        """`matches` of `rel` with each rewrite of a word a residual loop walks refused."""
        if not matches or all(m.refused is not None for m in matches):
            return matches
        return hold_list_words(data, matches, self._index().get(rel, []))

    def _index(self) -> dict[str, list[tuple[int, str, str]]]:
        if self._held is None:
            held: dict[str, list[tuple[int, str, str]]] = {}
            tails = composed_names.tails_of(self.matcher.hosts)
            literals = composed_names.literals(tails)
            # No renamed name with a domain: no loop composes one, and none is grepped for (issue 30).
            lines = (vcs_status.worktree_lines_matching(self.root, _HEADERS) or []) if tails else []
            for rel in dict.fromkeys(path for path, _, _ in lines):
                if not self.live(rel):
                    continue
                try:
                    if (self.root / rel).stat().st_size > self.max_size:
                        continue
                    data = (self.root / rel).read_bytes()
                except OSError:
                    continue  # gone since git listed it: nothing of it to hold
                if not (tails and composed_names.might_hold(data, literals, tails)):
                    continue  # no composed name in it (its body's): held_list_words finds nothing
                found = held_list_words(data, self.matcher.find(data), self.matcher.hosts,
                                        self.definitions, rel)
                for path, line, item, note in found:
                    held.setdefault(path, []).append((line, item, note))
            self._held = held
        return self._held
