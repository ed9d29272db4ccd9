"""possessives.py: `hermes'` in prose becomes `apollo's`; a quoted `'on hermes'` stays a string."""

from __future__ import annotations

from renamer.occurrences import Match
from renamer.possessives import rewritten


def _one(data: bytes, old: str = "hermes", new: str = "apollo") -> Match:
    start = data.index(old.encode())
    return rewritten(data, [Match(start, start + len(old), old, new, "host")])[0]


def test_a_possessive_in_prose() -> None:
    found = _one(b"it holds hermes' 192.168.0.0/24\n")
    assert (found.old, found.new, found.end) == ("hermes'", "apollo's", 16)


def test_a_string_a_new_name_in_s_a_kept_match() -> None:
    assert _one(b"msg: 'on hermes' x\n").new == "apollo"
    assert _one(b"it holds hermes' disks\n", new="ares").new == "ares"
    assert _one(b"it holds hermes'x\n").new == "apollo"
    assert _one(b"it's hermes' disk\n").new == "apollo's"  # `it's` is a word, no quote


def test_a_later_line_reads_its_own_quotes() -> None:
    data = b"first line\nmsg: 'on hermes' x\n"
    assert _one(data).new == "apollo"
    data = b"first 'quoted' line\nit holds hermes' disks\n"
    assert _one(data).new == "apollo's"
