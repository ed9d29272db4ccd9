"""A network moved to another of any prefix length (prefix_moves.py, match.py): the pure mapping.

Every address keeps its host offset; the broadcast address follows where its line says so; the old
length after a moved address follows; a shrink that cannot place an address is refused; an address
a resize in place leaves where it is is no match (a second sweep finds nothing)."""

from __future__ import annotations

import ipaddress

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from renamer.match import Matcher
from renamer.prefix_moves import (
    BROADCAST,
    OUTSIDE,
    ZONE,
    PrefixMove,
    length_hits,
    masked_length,
    outside,
    resize_problem,
    zone_change,
    zone_name,
    zone_networks,
)


def _matcher(*pairs: tuple[str, str]) -> Matcher:
    return Matcher(networks=[(ipaddress.ip_network(a), ipaddress.ip_network(b)) for a, b in pairs])


GROW = _matcher(("10.0.48.0/29", "10.0.48.0/28"), ("192.168.40.0/24", "192.168.40.0/22"),
                ("2001:db8:a::/48", "2001:db8:b::/48"), ("10.9.0.0/24", "10.10.0.0/23"))


@pytest.mark.parametrize(("text", "found"), [
    # the old length after a moved address follows: the network's own, an interface's
    (b"lan: 10.0.48.0/29\n", [("10.0.48.0/29", "10.0.48.0/28", None)]),
    (b"Address=10.0.48.3/29\n", [("10.0.48.3/29", "10.0.48.3/28", None)]),
    (b"ip saddr 192.168.40.0/24 accept\n", [("192.168.40.0/24", "192.168.40.0/22", None)]),
    # the broadcast address where its line says so (any of the words), refused elsewhere
    (b"    broadcast 10.0.48.7\n", [("10.0.48.7", "10.0.48.15", None)]),
    (b"Broadcast=192.168.40.255\n", [("192.168.40.255", "192.168.43.255", None)]),
    (b"ip addr add 10.0.48.3/29 brd 10.0.48.7 dev eth0\n",
     [("10.0.48.3/29", "10.0.48.3/28", None), ("10.0.48.7", "10.0.48.15", None)]),
    (b"option broadcast-address 192.168.40.255;\n", [("192.168.40.255", "192.168.43.255", None)]),
    (b"bcast: 10.0.48.7\n", [("10.0.48.7", "10.0.48.15", None)]),
    (b"peer: 10.0.48.7\n", [("10.0.48.7", "10.0.48.15", BROADCAST)]),
    # the word says another address is a broadcast address: not this one
    (b"broadcast 172.16.0.255 peer 10.0.48.7\n", [("10.0.48.7", "10.0.48.15", BROADCAST)]),
    (b"address 10.0.48.3 broadcast 10.0.48.7\n", [("10.0.48.7", "10.0.48.15", None)]),
    (b"broadcastify 10.0.48.7\n", [("10.0.48.7", "10.0.48.15", BROADCAST)]),  # no word of its own
    # a resize in place keeps each host where it is: nothing to rewrite, nothing left
    (b"gateway 10.0.48.1\nrouter: 192.168.40.1\n", []),
    # the new network written already (a resize in place): no supernet, no match
    (b"lan: 10.0.48.0/28\n", []),
    # a wider network that holds the new one as it held the old: nothing to do (test_supernet_covers)
    (b"wide: 10.0.48.0/24\n", []),
    # one that the move leaves (10.10.0.0/23 is outside 10.9.0.0/16): decided by hand
    (b"wide: 10.9.0.0/16\n", [("10.9.0.0", "10.10.0.0", "supernet")]),
    # no length: a URL's path, a word, a path
    (b"http://10.0.48.3/29\n", []),
    (b"see 192.168.40.5/24hours\n", []),
    (b"dir 192.168.40.5/24/x\n", []),
    (b"a 192.168.40.5/24.\n", [("192.168.40.5/24", "192.168.40.5/22", None)]),  # a sentence's end
    # a subnet of the old network keeps its own length
    (b"dmz: 192.168.40.128/25\n", []),
    # a moved network to another address and length: offset and length
    (b"10.9.0.0/24 10.9.0.200 broadcast 10.9.0.255\n",
     [("10.9.0.0/24", "10.10.0.0/23", None), ("10.9.0.200", "10.10.0.200", None),
      ("10.9.0.255", "10.10.1.255", None)]),
    (b"v6 2001:db8:a::10/48\n", [("2001:db8:a::10", "2001:db8:b::10", None)]),
])
def test_a_grown_network(text: bytes, found: list[tuple[str, str, str | None]]) -> None:
    assert [(m.old, m.new, m.refused) for m in GROW.find(text)] == found


SHRINK = _matcher(("10.0.48.0/28", "10.0.48.0/29"), ("10.1.0.0/24", "10.2.0.0/25"),
                  ("2001:db8:a::/48", "2001:db8:b::/56"))


@pytest.mark.parametrize(("text", "found"), [
    (b"a: 10.0.48.3\n", []),
    # outside the new network: refused, its new value is its old (nothing is written)
    (b"b: 10.0.48.12\n", [("10.0.48.12", "10.0.48.12", OUTSIDE)]),
    (b"broadcast 10.0.48.15\n", [("10.0.48.15", "10.0.48.7", None)]),
    # a host whose offset is the new network's broadcast address has no place either
    (b"c: 10.0.48.7\n", [("10.0.48.7", "10.0.48.7", OUTSIDE)]),
    (b"broadcast 10.0.48.7\n", []),  # the new broadcast address: written already
    (b"net: 10.0.48.0/28\n", [("10.0.48.0/28", "10.0.48.0/29", None)]),
    (b"10.1.0.5/24 10.1.0.126 10.1.0.127 10.1.0.128\n",
     [("10.1.0.5/24", "10.2.0.5/25", None), ("10.1.0.126", "10.2.0.126", None),
      ("10.1.0.127", "10.2.0.127", OUTSIDE), ("10.1.0.128", "10.1.0.128", OUTSIDE)]),
    (b"10.1.0.0/25\n", [("10.1.0.0", "10.2.0.0", None)]),  # a subnet the new network holds: its length stays
    (b"10.1.0.128/25\n", [("10.1.0.128", "10.1.0.128", OUTSIDE)]),
    (b"2001:db8:a::5/48\n", [("2001:db8:a::5/48", "2001:db8:b::5/56", None)]),
    (b"2001:db8:a:100::5\n", [("2001:db8:a:100::5", "2001:db8:a:100::5", OUTSIDE)]),
])
def test_a_shrunk_network(text: bytes, found: list[tuple[str, str, str | None]]) -> None:
    assert [(m.old, m.new, m.refused) for m in SHRINK.find(text)] == found


@pytest.mark.parametrize(("old", "new", "why"), [
    ("10.0.48.0/29", "10.0.48.0/28", None),
    ("10.0.48.0/28", "10.0.48.0/29", None),
    ("10.0.0.0/24", "10.1.0.0/16", None),
    ("2001:db8:a::/48", "2001:db8:b::/56", None),
    ("10.0.48.0/24", "10.0.48.128/25", "overlaps"),
    ("10.0.48.0/24", "10.0.0.0/16", "overlaps"),
    ("10.0.48.0/24", "2001:db8::/64", "one family"),
])
def test_which_moves_are_taken(old: str, new: str, why: str | None) -> None:
    problem = resize_problem(ipaddress.ip_network(old), ipaddress.ip_network(new))
    assert (problem is None) if why is None else (problem is not None and why in problem)


@st.composite
def _moves(draw: st.DrawFn) -> tuple[PrefixMove, list[int]]:
    """A random IPv4 or IPv6 network, moved to a random other one of a random length, and
    random offsets in use inside the old one."""
    version = draw(st.sampled_from([4, 6]))
    bits = 32 if version == 4 else 128
    old_len = draw(st.integers(bits - 12, bits - 2))
    new_len = draw(st.integers(bits - 12, bits - 2))
    size = 2 ** (bits - old_len)

    kind = ipaddress.IPv4Network if version == 4 else ipaddress.IPv6Network

    def network(base: int, length: int) -> ipaddress.IPv4Network | ipaddress.IPv6Network:
        return kind((base >> (bits - length) << (bits - length), length))

    old = network(draw(st.integers(0, 2 ** bits - 1)), old_len)
    in_place = draw(st.booleans())
    new = network(int(old.network_address) if in_place else draw(st.integers(0, 2 ** bits - 1)), new_len)
    if new == old:  # refused at load: old and new are the same
        new = network(int(old.network_address), new_len - 1)
    offsets = draw(st.lists(st.integers(0, size - 1), min_size=1, max_size=12, unique=True))
    return PrefixMove(old, new), offsets


@settings(max_examples=60, deadline=None)
@given(_moves())
def test_the_mapping_is_a_bijection_on_the_addresses_in_use(drawn: tuple[PrefixMove, list[int]]) -> None:
    move, offsets = drawn
    used = [move.old.network_address + o for o in offsets]
    placed = {address: move.moved(address, broadcast=True) for address in used}
    refused = outside([move], used)
    if move.new.num_addresses >= move.old.num_addresses:  # a grow: every address placed
        assert refused == []
    for address in used:
        # an address is placed inside the new network, or listed as refused, never both
        assert (placed[address] is None) == (address in refused)
        if placed[address] is not None:
            assert placed[address] in move.new
    images = [p for p in placed.values() if p is not None]
    assert len(images) == len(set(images))  # one to one
    if not refused:  # every offset kept, the broadcast address aside
        for address in used:
            if not move.is_broadcast(address):
                assert int(placed[address]) - int(move.new.network_address) == move.offset_of(address)  # type: ignore[arg-type]


@settings(max_examples=40, deadline=None)
@given(_moves())
def test_the_matcher_places_or_refuses_every_address(drawn: tuple[PrefixMove, list[int]]) -> None:
    """Through the matcher, one address a line: rewritten into the new network by its offset, or
    refused (outside the new network; the broadcast address, whose line says nothing), never
    rewritten outside; an address a resize in place leaves where it is is not found."""
    move, offsets = drawn
    if move.old.overlaps(move.new) and move.old.network_address != move.new.network_address:
        return  # refused at load (resize_problem)
    matcher = Matcher(networks=[(move.old, move.new)])
    used = [move.old.network_address + o for o in offsets]
    data = "".join(f"host {address}\n" for address in used).encode()
    found = {m.old: m for m in matcher.find(data)}
    for address in used:
        m = found.get(str(address))
        if m is None:
            assert move.mapped(address) == address and move.fits(address) and not move.is_broadcast(address)
            continue
        if m.refused is None:
            assert ipaddress.ip_address(m.new) == move.mapped(address) and ipaddress.ip_address(m.new) in move.new
        else:
            assert m.refused in (OUTSIDE, BROADCAST)
            assert m.refused == BROADCAST or not move.fits(address)


LENGTHS = _matcher(("10.0.48.0/29", "10.0.48.0/28"), ("192.168.40.0/24", "192.168.40.0/22"))


@pytest.mark.parametrize(("text", "found"), [
    # the same line: the nearest address before the mask (else after it) says whose it is
    (b"interface Gi0/1\n ip address 10.0.48.1 255.255.255.248\n", [("255.255.255.248", "255.255.255.240", None)]),
    (b"access-list 10 permit 10.0.48.0 0.0.0.7\n", [("0.0.0.7", "0.0.0.15", None)]),
    (b"router ospf 1\n network 10.0.48.0 0.0.0.7 area 0\n", [("0.0.0.7", "0.0.0.15", None)]),
    (b"permit ip 10.0.48.0 0.0.0.7 192.168.1.0 0.0.0.7\n", [("0.0.0.7", "0.0.0.15", None)]),
    (b"-A INPUT -s 10.0.48.0/255.255.255.248 -j ACCEPT\n", [("255.255.255.248", "255.255.255.240", None)]),
    (b"route add -net 192.168.40.0 netmask 255.255.255.0 gw 10.9.9.1\n",
     [("255.255.255.0", "255.255.252.0", None)]),
    (b"- {address: 192.168.40.2, prefix: 24}\n", [("24", "22", None)]),
    # the stanza: its address keys (or its header) name only the moved network
    (b"iface eth0 inet static\n    address 10.0.48.3\n    netmask 255.255.255.248\n    gateway 10.0.48.1\n",
     [("255.255.255.248", "255.255.255.240", None)]),
    (b"lan:\n  address: 192.168.40.2\n  netmask: 255.255.255.0\n  prefix: 24\n",
     [("255.255.255.0", "255.255.252.0", None), ("24", "22", None)]),
    (b"[lan]\naddress=192.168.40.2\nprefix=24\n[wan]\naddress=203.0.113.5\nprefix=24\n", [("24", "22", None)]),
    (b'{"lan": {"ip": "192.168.40.2",\n         "cidr": "24"}}\n', [("24", "22", None)]),
    (b"subnet 192.168.40.0 netmask 255.255.255.0 {\n  option subnet-mask 255.255.255.0;\n}\n",
     [("255.255.255.0", "255.255.252.0", None), ("255.255.255.0", "255.255.252.0", None)]),
    # another network's mask: not rewritten, not reported
    (b"wan:\n  address: 203.0.113.5\n  netmask: 255.255.255.0\nlan: 192.168.40.0/24\n",
     [("192.168.40.0/24", "192.168.40.0/22", None)]),
    (b"ip address 172.16.0.1 255.255.255.248\nhost 10.0.48.1\n", []),
    (b"only: 255.255.255.0\nprefix: 24\n", []),  # a file naming no moved network
    # a gateway with no address key beside it: on the link, its network's mask (the lead's trial on
    # khaddict/homelab); beside a route's destination key, whose it is is not certain
    (b"gateway: 192.168.40.1\nnetmask: 255.255.255.0\n", [("255.255.255.0", "255.255.252.0", None)]),
    (b"destination: '{{ remote }}'\ngateway: 192.168.40.1\nnetmask: 255.255.255.0\n",
     [("255.255.255.0", "255.255.252.0", "mask")]),
    # the file names the moved network, but nothing ties this mask to it: a residual, whose new value
    # is what the one network of that length named becomes (f28, finding 21: never `X -> X`)
    (b"x: 192.168.40.2\n\nmask: 255.255.255.0\n", [("255.255.255.0", "255.255.252.0", "mask")]),
    (b"x: 192.168.40.2\n\nprefix: 24\n", [("24", "22", "mask")]),
    # other numbers are no lengths
    (b"address: 192.168.40.2\nport: 24\nmtu: 1500\nprefix: 24h\numask: 24\n", []),
])
def test_what_depends_on_the_length_follows(text: bytes, found: list[tuple[str, str, str | None]]) -> None:
    assert [(m.old, m.new, m.refused) for m in LENGTHS.find(text)] == found


def test_an_equal_length_move_leaves_masks_alone() -> None:
    same = _matcher(("10.0.48.0/29", "10.1.48.0/29"))
    assert [(m.old, m.new) for m in same.find(b"ip address 10.0.48.1 255.255.255.248\n")] == \
        [("10.0.48.1", "10.1.48.1")]


RANGES = _matcher(("10.9.0.0/24", "10.10.0.0/23"), ("10.7.0.0/24", "10.8.0.0/24"))


@pytest.mark.parametrize(("text", "found"), [
    (b"dhcp-range=10.9.0.100,10.9.0.200,12h\n",
     [("10.9.0.100", "10.10.0.100", None), ("10.9.0.200", "10.10.0.200", None)]),
    (b'"pool": "10.9.0.100 - 10.9.0.200"\n', [("10.9.0.100", "10.10.0.100", None), ("10.9.0.200", "10.10.0.200", None)]),
    (b"start: 10.9.0.5\nend: 10.9.0.9\n", [("10.9.0.5", "10.10.0.5", None), ("10.9.0.9", "10.10.0.9", None)]),
    # one end moved alone: both refused
    (b"range 10.9.0.100 10.9.1.50;\n", [("10.9.0.100", "10.10.0.100", "range")]),
    (b"dhcp-range=10.9.0.10,10.7.0.20,12h\n", [("10.9.0.10", "10.10.0.10", "range"), ("10.7.0.20", "10.8.0.20", "range")]),
    (b"start: 10.9.0.5\nend: 10.11.0.9\n", [("10.9.0.5", "10.10.0.5", "range")]),
    # two addresses that are no range
    (b"servers: 10.9.0.5, 10.11.0.9\n", [("10.9.0.5", "10.10.0.5", None)]),
])
def test_a_declared_range_moves_whole_or_not_at_all(text: bytes, found: list[tuple[str, str, str | None]]) -> None:
    assert [(m.old, m.new, m.refused) for m in RANGES.find(text)] == found


@pytest.mark.parametrize("v6", [False, True], ids=["v4-only", "with-v6-network"])
@pytest.mark.parametrize(("text", "found"), [
    (b"m: ::ffff:0a00:300c\n", [("::ffff:0a00:300c", "::ffff:0a00:300c", OUTSIDE)]),
    (b"m: ::ffff:0a00:3003\n", []),  # stays where it is
    (b"m: ::ffff:0a01:0005\n", [("::ffff:0a01:0005", "::ffff:0a02:0005", None)]),
    (b"m: ::ffff:10.0.48.12\n", [("10.0.48.12", "10.0.48.12", OUTSIDE)]),
])
def test_an_ipv4_mapped_address_is_held_to_the_shrink(v6: bool, text: bytes,
                                                      found: list[tuple[str, str, str | None]]) -> None:
    pairs = [("10.0.48.0/28", "10.0.48.0/29"), ("10.1.0.0/24", "10.2.0.0/25")]
    matcher = _matcher(*pairs, *([("2001:db8:a::/48", "2001:db8:b::/48")] if v6 else []))
    assert [(m.old, m.new, m.refused) for m in matcher.find(text)] == found


V6_LENGTHS = _matcher(("2001:db8:a::/48", "2001:db8:b::/56"), ("10.0.48.0/29", "10.0.48.0/28"))


@pytest.mark.parametrize(("text", "found"), [
    (b"lan6:\n  address: 2001:db8:a::10\n  prefix: 48\n",
     [("2001:db8:a::10", "2001:db8:b::10", None), ("48", "56", None)]),
    (b'- {ip: "2001:DB8:A::1", prefixlen: 48}\n', [("2001:DB8:A::1", "2001:DB8:B::1", None), ("48", "56", None)]),
    (b"ipv6 address 2001:db8:a::1/48\n", [("2001:db8:a::1/48", "2001:db8:b::1/56", None)]),
    (b"x: 2001:db8:c::1\nprefix: 48\n", []),  # another network's file
    # another network's stanza: its length stays, unreported
    (b"wan6:\n  address: 2001:db8:c::10\n  prefix: 48\n  other: 2001:db8:a::5\n",
     [("2001:db8:a::5", "2001:db8:b::5", None)]),
    (b"a: 2001:db8:a::5\n\nprefix: 48\n", [("2001:db8:a::5", "2001:db8:b::5", None), ("48", "56", "mask")]),
    (b"mac: aa:bb:cc:dd:ee:ff\nat: 12:30:45\nprefix: 48\n", []),
])
def test_an_ipv6_length_key_follows_its_stanza(text: bytes, found: list[tuple[str, str, str | None]]) -> None:
    assert [(m.old, m.new, m.refused) for m in V6_LENGTHS.find(text)] == found


ZONES = _matcher(("10.1.0.0/24", "10.2.0.0/25"), ("10.0.0.0/16", "10.5.128.0/17"), ("10.9.0.0/24", "10.10.0.0/23"))


@pytest.mark.parametrize(("text", "found"), [
    # the new network cannot hold the zone on an octet boundary: a residual, never a wider zone
    (b'zone "0.1.10.in-addr.arpa" {\n', [("0.1.10.in-addr.arpa", "0.1.10.in-addr.arpa", "reverse-zone")]),
    (b'zone "0.10.in-addr.arpa" {\n', [("0.10.in-addr.arpa", "0.10.in-addr.arpa", "reverse-zone")]),
    (b"$ORIGIN 0.1.10.in-addr.arpa.\n", [("0.1.10.in-addr.arpa", "0.1.10.in-addr.arpa", "reverse-zone")]),
    # a /24 zone that the new network holds follows by its offset
    (b'zone "3.0.10.in-addr.arpa" {\n', [("3.0.10.in-addr.arpa", "131.5.10.in-addr.arpa", None)]),
    (b'zone "0.9.10.in-addr.arpa" {\n', [("0.9.10.in-addr.arpa", "0.10.10.in-addr.arpa", None)]),
])
def test_a_reverse_zone_follows_only_where_the_new_network_holds_it(
        text: bytes, found: list[tuple[str, str, str | None]]) -> None:
    assert [(m.old, m.new, m.refused) for m in ZONES.find(text)] == found


@pytest.mark.parametrize(("pairs", "text", "found"), [
    # the tail spells the second end's new address: the first end alone follows
    ([("10.9.0.0/24", "10.10.0.0/23")], b"r: 10.9.0.100-200\n", [("10.9.0.100", "10.10.0.100", None)]),
    ([("10.1.0.0/24", "10.2.0.0/25")], b"r: 10.1.0.100 - .126\n", [("10.1.0.100", "10.2.0.100", None)]),
    # a shrink leaves the second end outside: refused, naming it
    ([("10.1.0.0/24", "10.2.0.0/25")], b"r: 10.1.0.100-200\n", [("10.1.0.100", "10.2.0.100", OUTSIDE)]),
    # an equal-length move that shifts the last octet: the tail would name another address
    ([("10.1.0.0/25", "10.2.0.128/25")], b"r: 10.1.0.10-20\n", [("10.1.0.10", "10.2.0.138", "range")]),
    # no range: a word after a dash
    ([("10.1.0.0/25", "10.2.0.128/25")], b"r: 10.1.0.5-x\n", [("10.1.0.5", "10.2.0.133", None)]),
])
def test_a_range_written_with_the_last_octet_moves_whole_or_is_said(
        pairs: list[tuple[str, str]], text: bytes, found: list[tuple[str, str, str | None]]) -> None:
    assert [(m.old, m.new, m.refused) for m in _matcher(*pairs).find(text)] == found


@pytest.mark.parametrize(("pairs", "text", "found"), [
    # a brace set or an Ansible range completing a moved network's octets: a residual, never silence
    ([("10.1.0.0/24", "10.3.0.0/24")], b"web: 10.1.0.{100..102}\n", [("10.1.0.{100..102}", "10.1.0.{100..102}", "range")]),
    ([("10.1.0.0/24", "10.3.0.0/24")], b"web: 10.1.0.{5,6}\n", [("10.1.0.{5,6}", "10.1.0.{5,6}", "range")]),
    ([("10.1.0.0/24", "10.3.0.0/24")], b"h: 10.1.0.[5:6]\n", [("10.1.0.[5:6]", "10.1.0.[5:6]", "range")]),
    ([("10.1.0.0/24", "10.3.0.0/24")], b"x: 10.2.0.{5,6}\n", []),  # another network's
    # a resize in place keeps every member where it is
    ([("10.1.0.0/24", "10.1.0.0/23")], b"web: 10.1.0.{100..102}\n", []),
    ([("10.1.0.0/24", "10.1.0.0/25")], b"web: 10.1.0.{100..200}\n", [("10.1.0.{100..200}", "10.1.0.{100..200}", "range")]),
])
def test_a_set_completing_a_moved_network_is_said(
        pairs: list[tuple[str, str]], text: bytes, found: list[tuple[str, str, str | None]]) -> None:
    assert [(m.old, m.new, m.refused) for m in _matcher(*pairs).find(text)] == found


# -- reverse zones of any length (issue 33 item 3) ----------------------------------------------

def _zones(old: str, new: str) -> tuple[tuple[tuple[str, str], ...], tuple[str, ...], tuple[str, ...], tuple[str, ...]]:
    change = zone_change(PrefixMove(ipaddress.ip_network(old), ipaddress.ip_network(new)))
    return change.renamed, change.add, change.remove, change.classless


@pytest.mark.parametrize(("old", "new", "renamed", "add", "remove", "classless"), [
    ("192.168.40.0/24", "192.168.40.0/22", (), ("41.168.192.in-addr.arpa", "42.168.192.in-addr.arpa",
                                                 "43.168.192.in-addr.arpa"), (), ()),
    ("10.250.0.0/16", "10.251.0.0/16", (("250.10.in-addr.arpa", "251.10.in-addr.arpa"),), (), (), ()),
    ("192.168.40.0/22", "192.168.40.0/24", (), (), ("41.168.192.in-addr.arpa", "42.168.192.in-addr.arpa",
                                                     "43.168.192.in-addr.arpa"), ()),
    ("10.9.0.0/24", "10.10.0.0/23", (("0.9.10.in-addr.arpa", "0.10.10.in-addr.arpa"),),
     ("1.10.10.in-addr.arpa",), (), ()),
    # each network's own zone: the one becomes the other, as the sweep writes it (f28, finding 13)
    ("10.9.0.0/24", "10.9.0.0/16", (("0.9.10.in-addr.arpa", "9.10.in-addr.arpa"),), (), (), ()),
    ("10.0.48.0/24", "10.1.0.0/16", (("48.0.10.in-addr.arpa", "1.10.in-addr.arpa"),), (), (), ()),
    ("10.250.0.0/16", "10.251.0.0/24", (("250.10.in-addr.arpa", "0.251.10.in-addr.arpa"),), (), (), ()),
    ("2001:db8:a::/56", "2001:db8:b::/48",
     (("0.0.a.0.0.0.8.b.d.0.1.0.0.2.ip6.arpa", "b.0.0.0.8.b.d.0.1.0.0.2.ip6.arpa"),), (), (), ()),
    ("2001:db8:a::/64", "2001:db8:a::/60",
     (("0.0.0.0.a.0.0.0.8.b.d.0.1.0.0.2.ip6.arpa", "0.0.0.a.0.0.0.8.b.d.0.1.0.0.2.ip6.arpa"),), (), (), ()),
    ("10.1.0.0/24", "10.2.0.0/25", (), (), ("0.1.10.in-addr.arpa",), ("0/25.0.2.10.in-addr.arpa",)),
    ("10.0.48.0/29", "10.0.48.0/28", (), (), (), ("0/29.48.0.10.in-addr.arpa", "0/28.48.0.10.in-addr.arpa")),
    ("2001:db8:a::/48", "2001:db8:c::/46", (("a.0.0.0.8.b.d.0.1.0.0.2.ip6.arpa", "c.0.0.0.8.b.d.0.1.0.0.2.ip6.arpa"),),
     tuple(f"{n}.0.0.0.8.b.d.0.1.0.0.2.ip6.arpa" for n in "def"), (), ()),
    ("2001:db8:a::/48", "2001:db8:b::/48", (("a.0.0.0.8.b.d.0.1.0.0.2.ip6.arpa", "b.0.0.0.8.b.d.0.1.0.0.2.ip6.arpa"),),
     (), (), ()),
])
def test_zone_change(old: str, new: str, renamed: tuple[tuple[str, str], ...], add: tuple[str, ...],
                     remove: tuple[str, ...], classless: tuple[str, ...]) -> None:
    assert _zones(old, new) == (renamed, add, remove, classless)


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 2**24 - 1), st.integers(8, 24), st.integers(8, 24), st.booleans())
def test_zone_change_covers_the_new_network_once(at: int, old_len: int, new_len: int, in_place: bool) -> None:
    """The zones the new network ends with (carried ones and those to add) are its zone set, each
    once; an old zone is carried or removed, never both."""
    old = ipaddress.IPv4Network((at << 8 >> (32 - old_len) << (32 - old_len), old_len))
    start = int(old.network_address) >> (32 - new_len) << (32 - new_len) if in_place else (int(old.network_address) ^ (1 << 31)) >> (32 - new_len) << (32 - new_len)
    new = ipaddress.IPv4Network((start, new_len))
    change = zone_change(PrefixMove(old, new))
    needed = {zone_name(z) for z in zone_networks(new)}
    carried = {new for _, new in change.renamed} | ({zone_name(z) for z in zone_networks(old)} - set(change.remove)
                                                     - {o for o, _ in change.renamed})
    assert set(change.add) <= needed and not set(change.add) & carried
    assert needed <= set(change.add) | carried
    assert not set(change.remove) & {o for o, _ in change.renamed}
    assert all(ipaddress.ip_network(_net_of(z)).subnet_of(new) for z in carried)  # type: ignore[arg-type]


def _net_of(zone: str) -> str:
    octets = zone[: -len(".in-addr.arpa")].split(".")
    return ".".join([*reversed(octets), *["0"] * (4 - len(octets))]) + f"/{8 * len(octets)}"


@pytest.mark.parametrize(("text", "classless"), [
    (b'zone "0/26.50.168.192.in-addr.arpa" {', True),
    (b"$GENERATE 0-63 $ CNAME $.0/26.50.168.192.in-addr.arpa.", True),
    (b"70 IN CNAME 70.0-63.50.168.192.in-addr.arpa.", True),
    (b"5.50.168.192.in-addr.arpa. IN PTR db.", False),  # an address's reverse name
    (b"path/26.50.168.192.in-addr.arpa", False),
])
def test_classless_names_are_reverse_zone_residuals(text: bytes, classless: bool) -> None:
    matcher = _matcher(("192.168.50.0/26", "192.168.51.0/26"))
    found = matcher.find(text)
    assert any(m.refused == ZONE for m in found) == classless, found
    assert all(m.new == m.old for m in found if m.refused == ZONE)


def test_masked_length_reads_masks_and_wildcards_right_after_an_address() -> None:
    """break-it round 20p, finding 7: the length a mask or wildcard after an address spells."""
    cases = {b"10.9.0.0 255.255.0.0 Null0": 16, b"10.9.0.0 0.0.255.255 area 0": 16,
             b"10.9.0.0/255.255.0.0 -j": 16, b"10.9.0.0 netmask 255.255.254.0 {": 23,
             b"10.9.0.0 mask 255.255.255.128": 25, b"10.9.0.0 10.9.0.1": None, b"10.9.0.0 0.0.0.0": None,
             b"10.9.0.0 255.255.255.255": None, b"10.9.0.0 via 255.255.0.0": None, b"10.9.0.0": None}
    for text, length in cases.items():
        assert masked_length(text, len(b"10.9.0.0")) == length, text


def _grow_hits(line: str) -> list[tuple[str, str, str | None]]:
    move = PrefixMove(ipaddress.ip_network("192.168.40.0/24"), ipaddress.ip_network("192.168.40.0/22"))
    return [(h.old, h.new, h.refused) for h in length_hits(line.encode(), [move])]


@pytest.mark.parametrize("line", [
    '{"gateway": "192.168.40.1", "mask": "255.255.255.0", "dest": "10.99.0.0"}',
    "{'gw': '192.168.40.1', 'mask': '255.255.255.0', 'dest': '10.99.0.0'}",
    '{ next_hop = "192.168.40.1", netmask = "255.255.255.0", to = "10.99.0.0" }',
    "[:gateway => '192.168.40.1', :mask => '255.255.255.0', :dest => '10.99.0.0']",
    '{"mask": "255.255.255.0", "default_gw": "192.168.40.1", "dest": "10.99.0.0"}',
    'route add -net 10.99.0.0 gw 192.168.40.1 netmask 255.255.255.0',
])
def test_a_quoted_or_assigned_gateway_owns_no_mask_on_its_line(line: str) -> None:
    """t36-33 finding 01: the mask is the destination's (another network): no hit."""
    assert _grow_hits(line) == []


@pytest.mark.parametrize("line", [
    '{"address": "192.168.40.5", "mask": "255.255.255.0", "gateway": "192.168.40.1"}',
    '{ mask = "255.255.255.0", gateway = "192.168.40.1" }',  # the only address: the gateway's network
])
def test_the_moved_networks_own_mask_on_a_one_line_object_follows(line: str) -> None:
    assert _grow_hits(line) == [("255.255.255.0", "255.255.252.0", None)]


def test_a_gateway_alone_on_its_line_owns_the_length_of_its_name_unless_a_destination_is_named() -> None:
    assert _grow_hits('{"lan_gateway": "192.168.40.1", "lan_mask": "255.255.255.0"}') == \
        [("255.255.255.0", "255.255.252.0", None)]
    hits = _grow_hits("lan: 192.168.40.0/24\nroute add -net remote gw 192.168.40.1 netmask 255.255.255.0\n")
    assert [h[2] for h in hits if h[0] == "255.255.255.0"] == ["mask"]  # said, never rewritten
