"""host_sets.py's pure logic: what each pattern expands to, as Ansible and bash expand it, and which
names of it an old value's match makes a set (the CLI tests run the sweep on real repos)."""

from __future__ import annotations

import pytest

from renamer import host_sets
from renamer.match import Matcher
from renamer.occurrences import Match

MATCHER = Matcher([("ana-ml2", "fv-ml1"), ("ana-ml2.ana.lan", "fv-ml1.fv.lan")], [("10.250.50.54", "10.251.50.54")])


def _names(text: bytes) -> list[bytes]:
    found = host_sets._pattern_around(text, text.index(b"[") if b"[" in text else text.index(b"{"))
    assert found is not None
    return [b"".join(piece for piece, _ in name) for name in host_sets._expand(found[2], ends_only=False)]


@pytest.mark.parametrize(("text", "names"), [
    (b"ana-ml[1:3]", [b"ana-ml1", b"ana-ml2", b"ana-ml3"]),
    (b"ana-ml[:2]", [b"ana-ml0", b"ana-ml1", b"ana-ml2"]),
    (b"ana-ml[0:6:3]", [b"ana-ml0", b"ana-ml3", b"ana-ml6"]),
    (b"ana-ml[a:c]", [b"ana-mla", b"ana-mlb", b"ana-mlc"]),
    (b"db[01:02]", [b"db01", b"db02", b"db1", b"db2"]),  # padded, and read by value too
    (b"{a,b}-x", [b"a-x", b"b-x"]),
    (b"x{3..1}", [b"x3", b"x2", b"x1"]),
    (b"x{0..4..2}", [b"x0", b"x2", b"x4"]),
    (b"{a,b{1,2}}", [b"a", b"b1", b"b2"]),
    (b"h{a..c}", [b"ha", b"hb", b"hc"]),
])
def test_a_pattern_expands_as_ansible_or_bash_would(text: bytes, names: list[bytes]) -> None:
    assert _names(text) == names


@pytest.mark.parametrize(("text", "old"), [
    (b"ana-ml[1:3]", "ana-ml2"),
    (b"{ana,fv}-ml2", "ana-ml2"),
    (b"ana-ml[1:3].ana.lan", "ana-ml2.ana.lan"),
    (b"10.250.[0:255].[0:255]", "10.250.50.54"),  # 65,536 names: still expanded in full
])
def test_a_set_covering_an_old_value_is_refused(text: bytes, old: str) -> None:
    [found] = MATCHER.find(text)
    assert (found.start, found.end, found.old, found.refused) == (0, len(text), old, "range")


@pytest.mark.parametrize("text", [b"{ana-ml2,db}", b"x = names[1:3]", b"[ana:children]", b"ana-ml{3..5}",
                                  b"{xana,fv}-ml2", b'{"a":1,"b":2}'])
def test_no_set_or_a_list_naming_it_whole(text: bytes) -> None:
    assert all(m.refused is None for m in MATCHER.find(text))


def test_the_prefilter_needs_a_group_and_a_word() -> None:
    needles = host_sets.pieces(["ana-ml2"], ["10.250.50.54"])
    assert b"ana" in needles and b"10.250." in needles
    assert not host_sets.might_hold(b"ana-ml2 and [x]", needles)
    assert not host_sets.might_hold(b"web[1:3]", needles)
    assert host_sets.might_hold(b"{ana,fv}-ml2", needles)


def test_a_reverse_name_inside_a_covering_set_is_refused_as_a_host_is() -> None:
    """`_covered` flags a set whose expansion holds a reverse name; the reverse matches inside its
    span are refused too, not rewritten alone (review of round 4: the two kind lists differed)."""
    inside = Match(0, 25, "54.50.250.10.in-addr.arpa", "54.50.251.10.in-addr.arpa", "reverse")
    [out] = host_sets._refused([inside], [(0, 40, inside)])
    assert out.refused == "range" and inside.refused is None  # a copy: the match itself is unchanged
