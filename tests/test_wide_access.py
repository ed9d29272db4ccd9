"""wide_access: the wider networks a move leaves (access rules, routes) and lands inside."""

from __future__ import annotations

import ipaddress

from renamer.occurrences import Match
from renamer.wide_access import WideNets, covering, covering_blocks, left_blocks

V4 = ipaddress.IPv4Network


def _move(old: str, new: str) -> tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...]:
    return ipaddress.ip_network(old), ipaddress.ip_network(new)


def test_left_blocks_hold_the_old_network_and_not_all_of_the_new() -> None:
    blocks = left_blocks(*_move("192.168.40.0/24", "192.168.50.0/24"))
    assert V4("192.168.32.0/20") in blocks and V4("192.168.40.0/23") in blocks
    assert V4("192.168.0.0/16") not in blocks and V4("192.168.32.0/19") not in blocks  # 192.168.50.0 inside
    assert left_blocks(*_move("10.0.0.0/24", "10.0.0.0/22")) == [V4("10.0.0.0/23")]  # a grow in place
    assert left_blocks(*_move("10.0.0.0/24", "fd00::/64")) == []


def _found(data: bytes, old: str = "192.168.40.0/24", new: str = "10.20.0.0/22", rel: str = "") -> list[str]:
    wide = WideNets([_move(old, new)])  # type: ignore[list-item]
    return [m.old for m in wide.wide_matches(data, [], rel) if m.refused == "wide-set"]


def test_rule_and_route_spellings() -> None:
    assert _found(b"allow 192.168.0.0/16;\n") == ["192.168.0.0/16"]
    assert _found(b"allow 192.168.0.0/255.255.0.0;\n") == ["192.168.0.0/255.255.0.0"]
    assert _found(b"ip route 192.168.0.0 255.255.0.0 Tunnel0\n") == ["192.168.0.0 255.255.0.0"]
    assert _found(b"permit 192.168.0.0 0.0.255.255\n") == ["192.168.0.0 0.0.255.255"]
    assert _found(b"Require ip 192.168\n") == ["192.168"]
    assert _found(b"sshd: 192.168.\n", rel="hosts.allow") == ["192.168."]
    assert _found(b"allow 192.168.0.0/17;\n") == ["192.168.0.0/17"]
    assert _found(b"allow 192.168.128.0/17;\n") == []  # the other half: it never held the old network
    assert _found(b"address 192.168.0.0/16\n") == []  # no rule, no route
    assert _found(b"allow 1192.168.0.0/16;\n") == []
    assert _found(b"Require ip 192.168.4\n") == []  # another head
    assert _found(b"allow 2001:db8::/32;\n", "2001:db8:a::/48", "2a01:4f8::/48") == ["2001:db8::/32"]
    assert _found(b"ipv6 route 2001:db8::/32 Tunnel0\n", "2001:db8:a::/48", "2a01:4f8::/48") == ["2001:db8::/32"]
    assert _found(b"allow 2001:db8::1/32;\n", "2001:db8:a::/48", "2a01:4f8::/48") == []


def test_a_literal_already_matched_stays_the_matchers() -> None:
    wide = WideNets([_move("192.168.40.0/24", "10.20.0.0/22")])  # type: ignore[list-item]
    data = b"allow 192.168.0.0/16;\n"
    held = [Match(6, 20, "192.168.0.0/16", "x", "network", refused="supernet")]
    assert wide.wide_matches(data, held) == held


def test_covering_blocks_and_literals() -> None:
    moves = [_move("10.42.0.0/21", "10.60.8.0/21")]
    blocks = covering_blocks(moves)  # type: ignore[arg-type]
    assert V4("10.60.0.0/16") in blocks and V4("10.60.0.0/20") in blocks
    assert V4("10.0.0.0/8") not in blocks  # an aggregate
    assert V4("10.32.0.0/11") not in blocks  # it overlaps the old network too
    data = b"pod: 10.60.0.0/16\nallow 10.60.0.0/16;\nroute 10.60.0.0 255.255.240.0\n"
    assert [(str(c[2]), c[0]) for c in covering(data, moves)] == [  # type: ignore[arg-type]
        ("10.60.0.0/16", 5), ("10.60.0.0/20", 44)]
    iface = b"address 10.60.0.1/20\naddress 10.60.0.1/24\nallow 10.60.0.1/20;\n"  # the /24 is no block
    assert [(str(c[2]), c[0]) for c in covering(iface, moves)] == [("10.60.0.0/20", 8)]  # type: ignore[arg-type]


def test_might_hold_asks_for_a_head_alone() -> None:
    wide = WideNets([_move("192.168.40.0/24", "10.20.0.0/22")])  # type: ignore[list-item]
    assert not wide.might_hold(b"proxy_pass http://192.168.1.5;\n")  # a longer address: no head
    assert wide.might_hold(b"Require ip 192.168\n") and wide.might_hold(b"sshd: 192.168.\n")
    assert wide.might_hold(b"allow 192.168.0.0/16;\n") and wide.might_hold(b"route 192.168.0.0 255.255.0.0\n")


def test_a_list_that_admits_the_new_network_beside_the_wide_one_loses_nothing() -> None:
    """t37-break, finding 08: the everyday "all private ranges" list admits hosts moved from one
    private range to another; said once per list where it does not."""
    move = ("192.168.42.0/24", "10.20.42.0/24")
    kept = [
        b"mynetworks = 127.0.0.0/8 192.168.0.0/16 10.0.0.0/8\n",
        b"Match Address 192.168.0.0/16,10.0.0.0/8\n",
        b"hosts allow = 192.168. 10. 127.\n",
        b"location / {\n  allow 192.168.0.0/16;\n  allow 10.0.0.0/8;\n  deny all;\n}\n",
        b"-A INPUT -s 192.168.0.0/16 -j ACCEPT\n-A INPUT -s 10.20.0.0/16 -j ACCEPT\n",
        b"trustedIPs:\n  - 192.168.0.0/16\n  - 10.0.0.0/8\n",
        b"deny 192.168.0.0/16;\ndeny 10.0.0.0/8;\n",  # still denied, by the other line
    ]
    for data in kept:
        assert _found(data, *move) == [], data
    lost = [
        b"mynetworks = 127.0.0.0/8 192.168.0.0/16\n",
        b"mynetworks = 192.168.0.0/16 !10.0.0.0/8\n",  # kept out, not admitted
        b"allow 192.168.0.0/16;\ndeny 10.0.0.0/8;\n",  # another verb
        b"-A INPUT -s 192.168.0.0/16 -j ACCEPT\n-A INPUT -s 10.0.0.0/8 -j DROP\n",  # another target
        b"allow 192.168.0.0/16;\n\nallow 10.0.0.0/8;\n",  # a blank line: another block
        b"trustedIPs:\n  - 192.168.0.0/16\n  - 172.16.0.0/12\n",
        b"allow 192.168.0.0/16 10.20.0.0/28;\n",  # holds part of the new network, not all of it
        b"allow 192.168.0.0/16; deny 10.0.0.0/8;\n",  # another statement of the line
    ]
    for data in lost:
        assert _found(data, *move) == ["192.168.0.0/16"], data
