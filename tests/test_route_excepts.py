"""route_excepts.py (t33-33 finding 08): a more specific route or an excluded capture range inside a
routed network, the longest match deciding, judged by except_blocks.covering."""

from __future__ import annotations

import ipaddress

import pytest

from renamer.except_blocks import TOOL, except_hits
from renamer.prefix_moves import PrefixMove
from renamer.route_excepts import rules


def _refused(old: str, new: str, text: str) -> list[str]:
    move = PrefixMove(ipaddress.ip_network(old), ipaddress.ip_network(new))
    return [h.old for h in except_hits(text.encode(), [move]) if h.refused == TOOL]


ISTIO = ("metadata:\n  annotations:\n    traffic.sidecar.istio.io/includeOutboundIPRanges: \"10.0.48.0/24,10.9.0.0/16\"\n"
         "    traffic.sidecar.istio.io/excludeOutboundIPRanges: \"10.0.48.0/25\"\n")


@pytest.mark.parametrize(("text", "part"), [
    ("ip route add 10.0.48.0/24 via 192.0.2.1\nip route add unreachable 10.0.48.0/25\n", "10.0.48.0/25"),
    ("ip -4 route replace blackhole 10.0.48.0/25 table 7\nip route add 10.0.48.0/24 dev eth1 table 7\n",
     "10.0.48.0/25"),
    ("iface eth1 inet static\n    up ip route add 10.0.48.0/24 via 192.0.2.1\n"
     "    up ip route add 10.0.48.0/25 via 192.0.2.9\n", "10.0.48.0/25"),  # any more specific route
    ("route add -net 10.0.48.0 netmask 255.255.255.0 gw 192.0.2.1\nroute add -net 10.0.48.0/25 reject\n",
     "10.0.48.0/25"),
    ("ip route 10.0.48.0/24 192.0.2.1\nip route 10.0.48.0/25 Null0\n", "10.0.48.0/25"),
    ("ip route 10.0.48.0 255.255.255.0 192.0.2.1\nip route 10.0.48.0 255.255.255.128 Null0\n",
     "10.0.48.0 255.255.255.128"),
    ("vrf lan\n ip route 10.0.48.0/24 192.0.2.1\n ip route 10.0.48.0/25 blackhole\nexit-vrf\n", "10.0.48.0/25"),
    ("client\nroute 10.0.48.0 255.255.255.0\nroute 10.0.48.0 255.255.255.128 net_gateway\n",
     "10.0.48.0 255.255.255.128"),
    ('push "route 10.0.48.0 255.255.255.0"\npush "route 10.0.48.0 255.255.255.128 net_gateway"\n',
     "10.0.48.0 255.255.255.128"),
    (ISTIO, "10.0.48.0/25"),
    ("global:\n  proxy:\n    includeIPRanges: 10.0.48.0/24\n    excludeIPRanges: 10.0.48.0/25\n", "10.0.48.0/25"),
])
def test_a_more_specific_route_or_range_refuses_a_shrink(text: str, part: str) -> None:
    assert _refused("10.0.48.0/24", "10.0.48.0/25", text) == [part]
    assert _refused("10.0.48.0/24", "10.0.60.0/25", text) == [part]
    assert _refused("10.0.48.0/24", "10.0.48.0/22", text) == []
    if "/" in part:
        assert _refused("10.0.48.0/24", "10.0.48.0/25", text.replace("10.0.48.0/25", "10.0.48.0/26")) == []


def test_other_lengths_ipv6_and_a_written_file() -> None:
    frr = "ipv6 route 2001:db8:a::/48 2001:db8:ffff::1\nipv6 route 2001:db8:a::/56 blackhole\n"
    assert _refused("2001:db8:a::/48", "2001:db8:a::/56", frr) == ["2001:db8:a::/56"]
    assert _refused("2001:db8:a::/48", "2001:db8::/44", frr) == []
    grow = "ip -6 route add 2001:db8:a:b::/64 dev eth1\nip -6 route add unreachable 2001:db8:a:b::/66\n"
    assert _refused("2001:db8:a:b::/64", "2001:db8:a:b0::/60", grow) == []
    shrink = "ip route add 10.0.48.0/23 via 192.0.2.1\nip route add blackhole 10.0.48.0/24\n"
    assert _refused("10.0.48.0/23", "10.0.48.0/24", shrink) == ["10.0.48.0/24"]
    small = "ip route add 10.0.48.8/29 via 192.0.2.1\nip route add blackhole 10.0.48.8/30\n"
    assert _refused("10.0.48.8/29", "10.0.48.16/28", small) == []
    # written by main's sweep: the route and its blackhole of one prefix
    written = "ip route add 10.0.48.0/25 via 192.0.2.1\nip route add unreachable 10.0.48.0/25\n"
    assert _refused("10.0.48.0/24", "10.0.48.0/25", written) == ["10.0.48.0/25"]


@pytest.mark.parametrize("text", [
    # failover: one prefix twice, neither rejecting
    "ip route add 10.0.48.0/24 via 192.0.2.1 metric 10\nip route add 10.0.48.0/24 via 192.0.2.9 metric 20\n",
    # another table, another vrf
    "ip route add 10.0.48.0/24 via 192.0.2.1\nip route add unreachable 10.0.48.0/25 table 7\n",
    "vrf a\n ip route 10.0.48.0/24 192.0.2.1\nexit-vrf\nvrf b\n ip route 10.0.48.0/25 Null0\nexit-vrf\n",
    # the upper half: outside the new network, another check's
    "ip route add 10.0.48.0/24 via 192.0.2.1\nip route add unreachable 10.0.48.128/25\n",
    # Istio: the include and exclude keys of two mappings
    "a:\n  includeOutboundIPRanges: 10.0.48.0/24\nb:\n  excludeOutboundIPRanges: 10.0.48.0/25\n",
])
def test_no_exclusion_of_the_network_is_none(text: str) -> None:
    assert _refused("10.0.48.0/24", "10.0.48.0/25", text) == []


def test_the_rule_words() -> None:
    [(included, excluded, what)] = list(rules(ISTIO.encode()))
    assert included == [ipaddress.ip_network("10.0.48.0/24"), ipaddress.ip_network("10.9.0.0/16")]
    assert [str(net) for _, _, net in excluded] == ["10.0.48.0/25"]
    assert what == "`excludeOutboundIPRanges` beside `includeOutboundIPRanges`"
