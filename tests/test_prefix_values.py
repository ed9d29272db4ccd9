"""prefix_values.Prefixes: which dotted tokens are a moved network's prefix value (pure logic; the
CLI cases, with the consumers run, are tests/cli/test_prefix_values.py)."""

from __future__ import annotations

import ipaddress

import pytest

from renamer.occurrences import Match
from renamer.prefix_values import Prefixes, prefix_matches


def _prefixes(moves: dict[str, str], addresses: dict[str, str] | None = None) -> Prefixes:
    return Prefixes([(ipaddress.ip_network(a), ipaddress.ip_network(b)) for a, b in moves.items()],
                    (addresses or {}).items())


@pytest.mark.parametrize(("moves", "text", "found"), [
    ({"192.168.2.0/24": "192.168.4.0/24"}, 'base: "192.168.2"\n', ["192.168.2"]),
    ({"192.168.2.0/24": "192.168.4.0/24"}, "BASE=192.168.2 # lab\n", ["192.168.2"]),
    ({"192.168.2.0/24": "192.168.4.0/24"}, "  - 192.168.2\n", ["192.168.2"]),
    ({"192.168.2.0/24": "192.168.4.0/24"}, "octets: [192, 168, 2]\n", ["[192, 168, 2]"]),
    ({"192.168.178.0/24": "192.168.179.0/24"}, "netaddress: '192.168.178.'\n", ["192.168.178."]),
    ({"192.168.2.0/24": "192.168.4.0/24"}, "addr: 192.168.2.X/24\n", ["192.168.2."]),
    ({"10.1.0.0/16": "10.2.0.0/16"}, 'net: "10.1"\nother: "10.1.7"\n', ["10.1", "10.1.7"]),
    ({"10.0.40.0/22": "10.0.60.0/22"}, 'a: "10.0.41"\nb: "10.0.44"\nc: "10.0"\n', ["10.0.41"]),
    ({"fd00:250:0:1::/64": "fd00:251:0:1::/64"}, "PREFIX=fd00:250:0:1\nP=FD00:0250:0:1\n",
     ["fd00:250:0:1", "FD00:0250:0:1"]),
    # A head wider than the moved network, holding it (round 21 finding 25's rest): three groups on.
    ({"fd00:250:0:1::/64": "fd00:251:0:1::/64"}, 'prefix48: "fd00:250:0"\nP=fd00:250:0:\n',
     ["fd00:250:0", "fd00:250:0:"]),
    ({"2001:db8:5:6:7::/80": "2001:db8:5:6:9::/80"}, 'a: "2001:db8:5"\nb: "2001:db8:5:6"\nc: 2001:db8:5:6:7\n',
     ["2001:db8:5", "2001:db8:5:6", "2001:db8:5:6:7"]),
    ({"fd00:250:0:100::/56": "fd00:250:0:200::/56"}, 'p: "fd00:250:0"\n', ["fd00:250:0"]),
])
def test_a_prefix_value_is_found(moves: dict[str, str], text: str, found: list[str]) -> None:
    assert [h.text for h in _prefixes(moves).find(text.encode())] == found


@pytest.mark.parametrize(("moves", "text"), [
    ({"10.0.0.0/24": "10.0.9.0/24"}, "version: 10.0.0\nimage_tag: '10.0.0'\nrelease: 10.0.0\n"),
    ({"10.0.0.0/24": "10.0.9.0/24"}, "image: nginx:10.0.0\npin: pkg==10.0.0\nurl: /opt/10.0.0/bin\n"),
    ({"10.0.0.0/24": "10.0.9.0/24"}, "ip: 10.0.0.5\nnet: 10.0.0.0/24\nlonger: 10.0.0.5.1\n"),
    ({"10.0.0.0/24": "10.0.9.0/24"}, "Upgraded to 10.0.0 last week.\nv10.0.0\nfoo-10.0.0\n"),
    ({"1.3.6.0/24": "1.3.9.0/24"}, "oid: 1.3.6.1.2.1\nview .1.3.6.1\n"),
    ({"10.0.0.0/24": "10.0.9.0/24"}, "ratio: 10.0\ncount: [10, 0]\n"),
    ({"10.0.1.0/24": "10.0.2.0/24"}, 'base: "10.0.0"\n'),
    ({"10.0.0.0/25": "10.0.9.0/25"}, 'base: "10.0.0"\n'),  # a /25: no three-octet head lies inside it
    # Wider IPv6 heads: two groups are a time or a port as often; a sibling's head; a longer address.
    ({"fd00:250:0:1::/64": "fd00:251:0:1::/64"}, 'at: "fd00:250"\nsib: "fd00:250:0:2"\nn: fd00:250:0::/48\n'),
    ({"fd00:250:0:1::/64": "fd00:251:0:1::/64"}, 'a: "fd00:250:1"\nb: fd00:250:0:1:5\n'),
])
def test_a_dotted_number_that_is_no_prefix_value_is_left(moves: dict[str, str], text: str) -> None:
    assert _prefixes(moves).find(text.encode()) == []


def test_a_renamed_address_head_counts_only_before_a_placeholder() -> None:
    prefixes = _prefixes({}, {"10.0.0.70": "10.0.1.70"})
    text = b'base: "10.0.0"\nseq -f "10.0.0.%g" 70 74\nformat=10.0.0.%02d\n- 10.0.0.X/24\nip: 10.0.0.7\n'
    assert [h.text for h in prefixes.find(text)] == ["10.0.0.%g", "10.0.0.%02d", "10.0.0.X"]
    assert all("may spell 10.0.0.70 (renamed 10.0.1.70)" in h.note for h in prefixes.find(text))


def test_a_format_given_a_literal_number_is_left_to_the_computed_reader() -> None:
    prefixes = _prefixes({}, {"10.0.40.5": "10.0.41.5"})
    data = b"printf '10.0.40.%d' 11\nseq -f '10.0.40.%g' 1 9\n"
    found = prefix_matches(data, [], prefixes)
    assert [(m.old, m.refused) for m in found] == [("10.0.40.%g", "prefix")]


def test_a_place_another_reader_decided_is_not_reported_twice() -> None:
    prefixes = _prefixes({"192.168.2.0/24": "192.168.4.0/24"})
    data = b'base: "192.168.2"\n'
    decided = [Match(7, 16, "192.168.2", "192.168.2", "network", refused="composed-address")]
    assert prefix_matches(data, decided, prefixes) == decided


def test_the_note_names_the_new_head_where_the_move_maps_it() -> None:
    [head] = _prefixes({"192.168.2.0/24": "192.168.4.0/24"}).find(b'base: "192.168.2."\n')
    assert "(`192.168.4.` in the new network 192.168.4.0/24)" in head.note
    [resized] = _prefixes({"192.168.2.0/24": "10.9.0.0/23"}).find(b'base: "192.168.2"\n')
    assert "(it moves to 10.9.0.0/23)" in resized.note


def test_a_renamed_address_head_in_documentation_is_left_a_moved_networks_is_not() -> None:
    text = b"Give each node its address, 10.0.0.X/24, in network-config.\n"
    renamed = _prefixes({}, {"10.0.0.12": "10.0.0.42"})
    assert [m.old for m in prefix_matches(text, [], renamed, "docs/node.md")] == []
    assert [m.old for m in prefix_matches(text, [], renamed, "cloud-init/network-config")] == ["10.0.0.X"]
    moved = _prefixes({"10.0.0.0/24": "10.0.5.0/24"})
    assert [m.old for m in prefix_matches(text, [], moved, "docs/node.md")] == ["10.0.0."]
