"""hostlists.py's pure logic: a pdsh/Slurm/ClusterShell bracket expands as hostlist_expand does,
and host_sets.py reads it as a set (the CLI test, tests/cli/test_hostlists.py, runs the sweep)."""

from __future__ import annotations

import pytest

from renamer import hostlists
from renamer.match import Matcher

MATCHER = Matcher([("web01", "app01")], [("10.0.0.70", "10.0.1.70")])


@pytest.mark.parametrize(("body", "values"), [
    (b"01-05", [b"01", b"02", b"03", b"04", b"05"]),
    (b"1,3-5", [b"1", b"3", b"4", b"5"]),
    (b"01-03,07", [b"01", b"02", b"03", b"07"]),
    (b"1-9/4", [b"1", b"5", b"9"]),
    (b"08-10", [b"08", b"09", b"10"]),  # padded to the first number's width
    (b"5-3", []),  # descending: no hostlist
])
def test_a_bracket_expands_as_hostlist_expand(body: bytes, values: list[bytes]) -> None:
    assert list(hostlists.values(body)) == values


@pytest.mark.parametrize(("text", "old"), [
    (b"pdsh -w web[01-05] uptime", "web01"),
    (b"Nodes=web[00,01]", "web01"),
    (b"fping 10.0.0.[70-74]", "10.0.0.70"),
    (b"10.0.0.[1-9,70]", "10.0.0.70"),
])
def test_a_hostlist_covering_an_old_value_is_a_range(text: bytes, old: str) -> None:
    [found] = [m for m in MATCHER.find(text) if m.refused]
    assert (found.old, found.refused) == (old, "range")


@pytest.mark.parametrize("text", [b"web[02-05]", b"web[1-5]", b"x = web[1]", b"web0[12]x", b"a[1,2]",
                                  b"10.0.0.[71-74]", b"web[00-08/2]"])
def test_no_hostlist_of_an_old_value(text: bytes) -> None:
    assert not [m for m in MATCHER.find(text) if m.refused == "range"]
