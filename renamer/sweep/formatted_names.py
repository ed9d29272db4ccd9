"""A host name made by a format with a number (break-it round 17, finding 1; the grammar is
renamer/formatted_names.py): `format("pve%02d", 1)`, `seq -f 'pve%02g' 1 3`, `with_sequence:
format=pve%02d`. No byte spells the old name, so nothing is rewritten; each format that makes an
old host name (its literal number, or a literal sequence spanning it), or may make it (its number
cannot be told), is a `composed-name` residual naming what it makes and the rename, which verify
fails on until the format is written for the new name (or the line kept on purpose)."""

from __future__ import annotations

import re

from renamer import formatted_names
from renamer.occurrences import Match
from renamer.sweep.composed import REASON


def formatted_matches(data: bytes, matches: list[Match], hosts: tuple[tuple[str, str], ...]) -> list[Match]:
    """`matches` with a `composed-name` residual for each format making (or able to make) an old
    host name, where no match stands on it already."""
    renamed = dict(hosts)
    added: list[Match] = []
    for found in formatted_names.find(data, renamed):
        if any(m.start < found.end and found.start < m.end for m in [*matches, *added]):
            continue
        new = renamed[found.old]
        if found.exact and re.fullmatch(r"-?[0-9]+\.\.-?[0-9]+", found.number):
            what = f"walks {found.number}, which makes {found.old}"
        elif found.exact:
            what = f"is given {found.number}: it makes {found.old}"
        else:
            what = f"is given a number that cannot be told here: it may make {found.old}"
        note = (f"`{found.text}` {what} (renamed {new}); no byte spells the old name, so the sweep "
                "rewrites nothing here: write the format (or its numbers) for the new name, then keep the "
                "line with the inline marker where it no longer makes the old one")
        added.append(Match(found.start, found.end, found.old, new, "host", refused=REASON, note=note))
    if not added:
        return matches
    return sorted([*matches, *added], key=lambda m: m.start)
