"""The tag on a `moved` block the sweep writes (renamer/moved_tags.py): its date, reading the
tagged blocks back, removing one, and whether a plan still needs it."""

from __future__ import annotations

import datetime as dt
from dataclasses import replace
from pathlib import Path

import pytest

from renamer.config import Config, Renames
from renamer.moved_tags import expiry, pending, tag_line, tagged_moves, without

BLOCK = b"# renamer: move m expires 2026-01-02\nmoved {\n  from = a.pug\n  to   = a.wolf\n}"


def _config(cutover: dt.date | None, days: int = 90, name: str = "lab") -> Config:
    return Config(path=Path("renamer.yaml"), root=Path("."), name=name, cutover=cutover, renames=Renames((), (), ()),
                  derived_names=False, variants=False, max_file_size=1, allowlist_paths=(), dns_dir=Path("dns"),
                  moved_expiry=days)


def test_the_expiry_is_the_cutover_or_the_day_plus_the_days() -> None:
    assert expiry(_config(dt.date(2026, 10, 5), 30)) == dt.date(2026, 11, 4)
    assert expiry(_config(None), today=dt.date(2026, 12, 31)) == dt.date(2027, 3, 31)
    assert tag_line(_config(None, 1, name="two\n words"), dt.date(2026, 1, 1)) == (
        b"# renamer: move two words expires 2026-01-02")


@pytest.mark.parametrize("nl", [b"\n", b"\r\n"])
def test_a_tagged_block_is_read_back_and_removed_as_the_sweep_found_the_file(nl: bytes) -> None:
    found = b'resource "a" "wolf" {' + nl + b"}" + nl
    data = (b'resource "a" "wolf" {' + nl + b"}" + nl + nl + BLOCK.replace(b"\n", nl) + nl
            + b"  # renamer: move m expires 2026-13-40" + nl + b"moved {" + nl + b"}" + nl)
    moves = tagged_moves("main.tf", data)
    assert [(m.line, m.name, m.expires, m.old, m.new) for m in moves] == [
        (4, "m", dt.date(2026, 1, 2), "a.pug", "a.wolf")]  # a bad date, a block with no from: no move
    assert without(data, moves[0]) == found + b"  # renamer: move m expires 2026-13-40" + nl + b"moved {" + nl + b"}" + nl
    # a tagged block with no blank line before it (moved by hand): its lines go
    alone = BLOCK + b"\nrest\n"
    assert without(alone, tagged_moves("x.tf", alone)[0]) == b"rest\n"


def test_a_move_is_pending_while_a_plan_moves_from_its_address() -> None:
    move = tagged_moves("m.tf", BLOCK + b"\n")[0]
    assert pending(move, {"a.pug"}) and pending(move, {"module.m.a.pug"})
    assert not pending(move, {"a.pug2", "b.a.pugx", "xa.pug"}) and not pending(replace(move, old="a.x"), {"a.pug"})
