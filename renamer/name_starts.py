"""Where a name starts although the byte before it is a name character.

DESIGN's left boundary refuses a name after `-` or `.`: `old-ana-ml2` and `sub.ana-ml2` are
other names. Two grammars say otherwise, and there the byte before is the grammar's, not the
name's:

* a shell parameter's default, alternative or error word without the colon: `${W-ana-ml2}`,
  `${W=ana-ml2}`, `${W+ana-ml2}`, `${W?ana-ml2}` (POSIX; only `-` needs this rule, the other
  three are no name characters), as `${W:-ana-ml2}` is (forms.SHELL_DEFAULT). Shell syntax
  stands in many files (scripts, `.env`, compose files, Dockerfiles), so it is looked for in any;
* a TOML key's part after a dot: `[servers.ana-ml2]`, `[[hosts.ana-ml2]]`,
  `servers.ana-ml2.port = 1` (the format says where, `Format.name_starts`).

* a fixed prefix its reader strips before the host (outside round 25, finding 11): Fabio's route
  tag `urlprefix-warden.qkroode.nl/` (a Consul or Nomad service tag; Fabio routes the host after
  `urlprefix-`), so the route follows the rename as the app's `DOMAIN` does. Looked for in any file
  (a tag stands in HCL, JSON, YAML, a compose label).

The right boundary still applies (`${W-ana-ml20}` is another name).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol

from renamer import lazy_re
from renamer.occurrences import Match

# `${NAME-`, `${1-`, `${@-` or `${HOSTS[0]-`: the `-` is the operator; what follows is a word.
_SHELL_DEFAULT = lazy_re.compile(rb"\$\{(?:[A-Za-z_][A-Za-z0-9_]*(?:\[[A-Za-z0-9_@*$]*\])?|[0-9]+|[@*?$!])-")


# prefixes a reader strips to read the host glued after them (Fabio's `urlprefix-`)
_GLUED = lazy_re.compile(rb"(?<![A-Za-z0-9_-])urlprefix-(?=[A-Za-z0-9])")


class Finder(Protocol):
    def match_at(self, data: bytes, pos: int) -> Match | None: ...


def shell_default_starts(data: bytes) -> list[int]:
    """Where the word of a `${NAME-word}` starts (the colon forms need no rule)."""
    if b"${" not in data:
        return []
    return [x.end() for x in _SHELL_DEFAULT.finditer(data)]


def glued_starts(data: bytes) -> list[int]:
    """Where the host after a fixed prefix its reader strips starts (`urlprefix-HOST/`)."""
    if b"urlprefix-" not in data:
        return []
    return [x.end() for x in _GLUED.finditer(data)]


def with_starts(finder: Finder, data: bytes, matches: list[Match], starts: Iterable[int]) -> list[Match]:
    """`matches` with the names that start at `starts` (or after a shell default's operator)
    added, where no match already covers them."""
    positions = sorted({*starts, *shell_default_starts(data), *glued_starts(data)})
    if not positions:
        return matches
    taken = [(m.start, m.end) for m in matches]
    added = []
    for pos in positions:
        if any(start <= pos < end for start, end in taken):
            continue
        found = finder.match_at(data, pos)
        if found is not None:
            added.append(found)
            taken.append((found.start, found.end))
    return sorted([*matches, *added], key=lambda m: m.start) if added else matches
