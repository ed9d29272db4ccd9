"""formats/entry_lists.py: keys of one bracketed list on any layout, UCI sections; the behaviour end
to end is in tests/cli/test_structure_t28.py (finding 06)."""

from __future__ import annotations

from renamer.formats.entry_lists import collision, entries, sections


def test_entries_by_container() -> None:
    text = "x = { web01: {ip: 1}, 'db' => 2, [\"c\"] = 3; d = 4 }\ny = (e => 5)\n"
    assert entries(text) == [(1, "web01", 1), (2, "ip", 1), (1, "db", 1), (1, "c", 1), (1, "d", 1), (4, "e", 2)]
    # no keys: words with a colon inside, comparisons, strings holding brackets
    assert entries('[web01:80, "a:b", x == y, x >= y]\n"{ a: 1 }"\n') == []


def test_uci_sections_only_in_a_uci_file() -> None:
    assert sections("config host 'a'\n\toption ip '1'\nconfig host \"b\"\n") == [("host", "a", 1), ("host", "b", 3)]
    assert sections("config host 'a'\n") == []  # no option line: not UCI


def test_a_collision_is_a_key_more_often_than_before() -> None:
    assert collision("{a: 1, b: 2}", "{b: 1, b: 2}") is not None
    assert collision("{b: 1, b: 2}", "{b: 1, b: 2}") is None  # it stood twice already
    assert collision("{a: 1}\n{b: 2}", "{b: 1}\n{b: 2}") is None  # two lists
    said = collision("config host 'a'\n\toption ip '1'\nconfig host 'b'\n", "config host 'b'\n\toption ip '1'\nconfig host 'b'\n")
    assert said is not None and "UCI section host 'b'" in said and "lines 1, 3" in said
