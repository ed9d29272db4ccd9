"""formats/map_calls.py: keys of a map built by a call, by position, infix pairs or pairs; end to end
in tests/cli/test_lang_t30.py (finding 10)."""

from __future__ import annotations

import pytest

from renamer.formats.entry_lists import map_collision
from renamer.formats.map_calls import entries


@pytest.mark.parametrize("text", [
    'Map.of("web01", 1, "app01", 2)',
    'ImmutableSortedMap.of("web01", 1, "app01", 2)',
    'Hash["web01", 1, "app01", 2]',
    'mapOf("web01" to 1, "app01" to 2)',
    'Map("web01" -> 1, "app01" -> 2)',
    'mapOf(Pair("web01", 1), Pair("app01", 2))',
    'Map.ofEntries(entry("web01", 1), Map.entry("app01", 2))',
    'dict([("web01", 1), ("app01", 2)])',
    'OrderedDict([("web01", 1), ("app01", 2)])',
    'new Map([["web01", 1], ["app01", 2]])',
    'Object.fromEntries([["web01", 1], ["app01", 2]])',
    'BTreeMap::from([("web01", 1), ("app01", 2)])',
    'maps:from_list([{"web01", 1}, {"app01", 2}])',  # Erlang (t31 sweep finding 03)
    'Map.new([{"web01", 1}, {"app01", 2}])',  # Elixir
])
def test_keys_of_one_map(text: str) -> None:
    assert [key for _, key, _ in entries(text)] == ["web01", "app01"]
    assert len({scope for scope, _, _ in entries(text)}) == 1
    assert map_collision(text, text.replace("web01", "app01")) is not None


@pytest.mark.parametrize("text", [
    'f("web01", "app01")',  # a plain call's arguments
    'listOf("web01", "app01")',
    'Map.of("a", "web01", "b", "app01")',  # values at odd positions
    'list(zip(["web01", "app01"], [1, 2]))',  # a list of pairs, no map (dict(zip(..)) is: map_spellings.py)
    'p->web01, q->app01',  # C's member access: no quoted key
    'mapOf("a" to "web01", "b" to "app01")',
])
def test_no_keys_named(text: str) -> None:
    assert map_collision(text, text.replace("web01", "app01")) is None


def test_a_key_twice_before_is_no_new_collision() -> None:
    text = 'mapOf("app01" to 1, "app01" to 2)'
    assert map_collision(text, text) is None
    assert map_collision('mapOf("web01" to 1)\nmapOf("app01" to 2)', 'mapOf("app01" to 1)\nmapOf("app01" to 2)') is None
