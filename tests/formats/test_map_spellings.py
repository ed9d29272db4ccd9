"""formats/map_spellings.py: the keys of maps built key by key or by word lists (the CLI behaviour:
tests/cli/test_map_spellings.py)."""

from __future__ import annotations

import pytest

from renamer.formats.map_spellings import entries


@pytest.mark.parametrize(("text", "keys"), [
    ("declare -A R=([web01]=a ['app01']=b)\n", ["web01", "app01"]),
    ('m["web01"] = 1\nm[app01]=2\n', ["web01", "app01"]),
    ("$r{web01} = 1;\n$r{'app01'} = 2;\n", ["web01", "app01"]),
    ("dict set r web01 a\ndict set r app01 b\n", ["web01", "app01"]),
    ('b.put("web01", 1)\n .put("app01", 2)\n .build();\n', ["web01", "app01"]),
    ('m.insert("web01", 1);\nm.insert("app01", 2);\n', ["web01", "app01"]),
    ('(hash-map "web01" "a" "app01" "b")\n', ["web01", "app01"]),
    ('(array-map "web01" [1 2] "app01" (f x))\n', ["web01", "app01"]),
    ("set r [dict create web01 a app01 b]\n", ["web01", "app01"]),
    ("array set r [list web01 a app01 b]\n", ["web01", "app01"]),
    ('d = dict(zip(["web01", "app01"], [1, 2]))\n', ["web01", "app01"]),
    ('d = dict.fromkeys(("web01", "app01"))\n', ["web01", "app01"]),
])
def test_keys(text: str, keys: list[str]) -> None:
    found = entries(text)
    assert [key for _, key, _ in found] == keys
    assert len({scope for scope, _, _ in found}) == 1  # one map


@pytest.mark.parametrize("text", [
    'if m["web01"] == 1: pass\n',  # a compare
    '(hash-map :a "web01" :b "app01")\n',  # values
    "set r [dict create a web01 b app01]\n",  # values
    'm.get("web01", 1)\n',  # no put
])
def test_no_key(text: str) -> None:
    assert [key for _, key, _ in entries(text) if key in ("web01", "app01")] == []


def test_two_maps_are_two_scopes() -> None:
    found = entries('a["web01"] = 1\nb["app01"] = 2\nx.put("k", 1);\ny.put("k", 2);\n')
    assert len({scope for scope, _, _ in found}) == 4
