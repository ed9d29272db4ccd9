"""The tag on a `moved` block the sweep writes (issue 32, item 2): which move wrote it and until
when it is meant to stand.

    # renamer: move homelab expires 2027-01-03
    moved {
      from = terraform_data.pug
      to   = terraform_data.wolf
    }

A `moved` block is needed until every state of the configuration has been planned and applied
past it; kept forever, the configuration carries the old names. The expiry is the config's
`cutover` plus `options.moved_expiry` days (90), or, with no cutover, the sweep's day plus as
many. `renamer audit` lists the tagged blocks past their expiry. The tag line is part of the
block's history: an old name in the move's name there is kept, reason `terraform-moved`, never a
residual.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from pathlib import Path

from renamer import lazy_re, vcs_listing
from renamer.config import Config

# the tag line, and the `moved { from = A  to = B }` right after it (indented as written)
TAG = lazy_re.compile(rb"(?m)^[ \t]*# renamer: move (?P<name>[^\r\n]*?) expires (?P<date>\d{4}-\d{2}-\d{2})"
                 rb"[ \t]*\r?$")
# (matched at the tag line's end: `match` anchors there)
_BLOCK = lazy_re.compile(
    rb"\r?\n[ \t]*moved[ \t]*\{[ \t]*\r?\n[ \t]*from[ \t]*=[ \t]*(?P<from>[^\s#]+)[ \t]*\r?\n"
                    rb"[ \t]*to[ \t]*=[ \t]*(?P<to>[^\s#]+)[ \t]*\r?\n[ \t]*\}")


def expiry(config: Config, today: dt.date | None = None) -> dt.date:
    """The day a `moved` block written now expires."""
    start = config.cutover or today or dt.date.today()
    return start + dt.timedelta(days=config.moved_expiry)


def tag_line(config: Config, today: dt.date | None = None) -> bytes:
    """`# renamer: move NAME expires YYYY-MM-DD` (no newline)."""
    name = " ".join(config.name.split())
    return f"# renamer: move {name} expires {expiry(config, today).isoformat()}".encode("utf-8", "replace")


def tag_spans(data: bytes) -> list[tuple[int, int]]:
    """The byte spans of the tag lines in `data` that a `moved` block follows: a tag line alone
    is a comment like any other, no way to keep an old name."""
    if b"# renamer: move " not in data:
        return []
    return [(m.start(), m.end()) for m in TAG.finditer(data) if _BLOCK.match(data, m.end())]


@dataclass(frozen=True)
class TaggedMove:
    """A tagged `moved` block of a file: where it stands and when it expires."""

    path: str
    line: int  # of the tag, 1-based
    start: int  # the tag line's first byte
    end: int  # just after the block's `}`
    name: str
    expires: dt.date
    old: str  # from
    new: str  # to


def tagged_moves(path: str, data: bytes) -> list[TaggedMove]:
    """The tagged `moved` blocks of `data` (a tag not followed by its block is no move)."""
    out = []
    for m in TAG.finditer(data) if b"# renamer: move " in data else ():
        block = _BLOCK.match(data, m.end())
        if block is None:
            continue
        try:
            date = dt.date.fromisoformat(m.group("date").decode())
        except ValueError:
            continue
        start = data.rfind(b"\n", 0, m.start()) + 1
        out.append(TaggedMove(path, data.count(b"\n", 0, m.start()) + 1, start, block.end(),
                              m.group("name").decode("utf-8", "replace"), date,
                              block.group("from").decode("utf-8", "replace"),
                              block.group("to").decode("utf-8", "replace")))
    return out


def tagged_files(root: Path, git: bool) -> list[str]:
    """The repo's `.tf` files (tracked ones in a git repo), where tagged blocks may stand."""
    if git:
        # (renamer's git runs take pathspecs literally: `*.tf` would name one file)
        return sorted(p for p in vcs_listing.ls_files(root, "--cached") if p.endswith(".tf"))
    return sorted(p.relative_to(root).as_posix() for p in root.rglob("*.tf") if ".terraform" not in p.parts)


def expired_moves(root: Path, files: list[str], today: dt.date) -> list[TaggedMove]:
    """The tagged `moved` blocks of `files` whose expiry is before `today`."""
    out = []
    for rel in files:
        try:
            data = (root / rel).read_bytes()
        except OSError:
            continue
        out += [m for m in tagged_moves(rel, data) if m.expires < today]
    return out


def pending(move: TaggedMove, previous: set[str]) -> bool:
    """Whether a plan still moves from this block's `from` or from an address inside it
    (`previous`: the planned changes' previous addresses). The `from` is matched whole at address
    boundaries anywhere in one: `module.pug` holds `module.pug.terraform_data.h`, `module.m["pug"]`
    holds `module.m["pug"].x`, `terraform_data.x` holds `terraform_data.x[0]` and `module.m.terraform_data.x`
    (X in a called module: a move may be pending in any state that reads the module)."""
    inside = re.compile(r"(?:^|\.)" + re.escape(move.old) + r"(?:$|[.\[])")
    return any(inside.search(p) for p in previous)


def chains(moves: list[TaggedMove]) -> list[list[TaggedMove]]:
    """The moves grouped into chains: one whose `to` is another's `from` (either way) is in its
    chain. A chain stands or goes whole: state may still be at the first `from`."""
    parent = list(range(len(moves)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i, a in enumerate(moves):
        for j, b in enumerate(moves):
            if a.new == b.old or a.old == b.old or a.new == b.new:
                parent[find(i)] = find(j)
    groups: dict[int, list[TaggedMove]] = {}
    for i, move in enumerate(moves):
        groups.setdefault(find(i), []).append(move)
    return list(groups.values())


def without(data: bytes, move: TaggedMove) -> bytes:
    """`data` without the tagged block: as the sweep found it where it wrote the block (the blank
    line it added before the tag goes too)."""
    # (the newline before the tag, or, for a block at a moved.tf's start, the one ending it)
    nl = b"\r\n" if data[move.start - 2:move.start] == b"\r\n" or (
        move.start == 0 and data[move.end:move.end + 2] == b"\r\n") else b"\n"
    if data[:move.start].endswith(nl + nl):
        return data[:move.start - 2 * len(nl)] + data[move.end:]
    after = move.end + len(nl) if data[move.end:move.end + len(nl)] == nl else move.end
    return data[:move.start] + data[after:]
