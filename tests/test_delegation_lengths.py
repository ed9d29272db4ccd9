"""delegation_lengths.py's rules on text (t31-33 findings 14, 20): which length is tied to which pool,
refused or a residual, before the sweep and in a file the sweep (or a hand) has written."""

from __future__ import annotations

import ipaddress

import pytest

from renamer.delegation_lengths import TIED, TOOL, delegation_hits
from renamer.prefix_moves import PrefixMove


def _hits(old: str, new: str, text: str) -> list[tuple[str, str | None]]:
    move = PrefixMove(ipaddress.ip_network(old), ipaddress.ip_network(new))
    return [(h.old, h.refused) for h in delegation_hits(text.encode(), [move])]


ROS = "/ipv6 pool add name=pd prefix=2001:db8:a::/48 prefix-length=56\n"
ROS_REVERSED = "/ipv6 pool add prefix-length=56 prefix=2001:db8:a::/48 name=pd\n"
VYOS = "set service dhcpv6-server shared-network-name L subnet 2001:db8:a::/48 prefix-delegation start " \
       "2001:db8:a:: prefix-length 56\n"
BOOT = "subnet 2001:db8:a::/48 {\n  prefix-delegation {\n    start 2001:db8:a:: {\n      prefix-length 56\n" \
       "    }\n  }\n}\n"
UCI = "config globals 'g'\n\toption ula_prefix 'fd12:3456:789a::/48'\n\nconfig interface 'lan'\n" \
      "\toption ip6assign '60'\n"


@pytest.mark.parametrize("text", [ROS, ROS_REVERSED, VYOS, BOOT])
@pytest.mark.parametrize(("new", "expected"), [
    ("2001:db8:a::/58", [("56", TOOL)]),  # no /56 in a /58
    ("2001:db8:a::/56", [("2001:db8:a::/48", TIED)]),  # one /56 left: valid, a shrink
    ("2001:db8:a::/52", [("2001:db8:a::/48", TIED)]),
    ("2001:db8:10::/44", []),  # a grow: more delegations, no word
])
def test_routeros_and_vyos_pools(text: str, new: str, expected: list[tuple[str, str | None]]) -> None:
    assert _hits("2001:db8:a::/48", new, text) == expected


def test_a_written_pool_with_a_length_wider_than_it_is_refused() -> None:
    """After the sweep (or by hand): `prefix=NEW/58 prefix-length=56` is refused; at its new length
    with a length that fits, no word."""
    written = ROS.replace("2001:db8:a::/48", "2001:db8:a::/58")
    assert _hits("2001:db8:a::/48", "2001:db8:a::/58", written) == [("56", TOOL)]
    grown = ROS.replace("2001:db8:a::/48", "2001:db8:a::/52")
    assert _hits("2001:db8:a::/48", "2001:db8:a::/52", grown) == []


def test_openwrt_ip6assign() -> None:
    assert _hits("fd12:3456:789a::/48", "fd12:3456:789a::/62", UCI) == [("60", TOOL)]
    assert _hits("fd12:3456:789a::/48", "fd12:3456:789a::/56", UCI) == [("fd12:3456:789a::/48", TIED)]
    assert _hits("fd12:3456:789a::/48", "fd12:3456:7800::/40", UCI) == []
    # another network moved: the ula_prefix is none of its business
    assert _hits("fd00:1::/48", "fd00:1::/62", UCI) == []
    # a prefix-length with no pool on its line or block names nothing
    assert _hits("2001:db8:a::/48", "2001:db8:a::/58", "prefix-length 56\n") == []


# t33-33 finding 15: WIDE dhcp6c's sla-len beside the delegated prefix of its id-assoc pd

DHCP6C = ("interface wan0 {\n  send ia-pd 0;\n};\nid-assoc pd 0 {\n  prefix 2001:db8:a::/56 infinity;\n"
          "  prefix-interface lan0 {\n    sla-id 1;\n    sla-len 8;\n  };\n};\n")


@pytest.mark.parametrize(("old", "new", "sla"), [
    ("2001:db8:a::/56", "2001:db8:a::/60", 8),  # the repro: a /68 on lan0
    ("2001:db8:a::/56", "2001:db8::/52", 8),  # a grow: a /60, no SLAAC either
    ("2001:db8:a::/48", "2001:db8:a::/56", 16),  # /48 -> /56: a /72
    ("2001:db8:a::/64", "2001:db8:a::/60", 0),  # /64 -> /60 with no SLA bits: a /60
])
def test_dhcp6c_sla_len_follows_no_resize(old: str, new: str, sla: int) -> None:
    text = DHCP6C.replace("2001:db8:a::/56", old).replace("sla-len 8", f"sla-len {sla}")
    assert _hits(old, new, text) == [(str(sla), TOOL)]


def test_dhcp6c_sla_len_no_hit() -> None:
    assert _hits("2001:db8:b::/56", "2001:db8:b::/60", DHCP6C) == []  # another prefix moves
    hint = DHCP6C.replace("2001:db8:a::/56", "::/56")  # a length hint only: no network of it
    assert _hits("2001:db8:a::/56", "2001:db8:a::/60", hint) == []
    outside = "prefix 2001:db8:a::/56;\nprefix-interface lan0 {\n  sla-len 8;\n};\n"  # no id-assoc pd around
    assert _hits("2001:db8:a::/56", "2001:db8:a::/60", outside) == []
    # written by hand at the new prefix with sla-len 4: a /64 again, no word
    fixed = DHCP6C.replace("2001:db8:a::/56", "2001:db8:a::/60").replace("sla-len 8", "sla-len 4")
    assert _hits("2001:db8:a::/56", "2001:db8:a::/60", fixed) == []


# t33-33 finding 19: a RouterOS routing filter's prefix-length= is a match, no pool's delegation length

@pytest.mark.parametrize("text", [
    "/routing filter\nadd chain=bgp-in prefix=2001:db8:a::/48 prefix-length=56-64 action=accept\n",
    "/routing filter\nadd chain=bgp-in prefix=2001:db8:a::/48 prefix-length=56 action=accept\n",
    "/routing filter\nadd prefix=2001:db8:a::/48 prefix-length=56 action=accept\n",  # the section says it
])
def test_routeros_routing_filter_is_no_pool(text: str) -> None:
    assert _hits("2001:db8:a::/48", "2001:db8:a::/60", text) == []
    assert _hits("2001:db8:a::/48", "2001:db8:a::/52", text) == []
    assert _hits("2001:db8:a::/48", "2001:db8:a::/60", "/ipv6 pool\n" + text.split("\n", 1)[1]
                 .replace("chain=bgp-in ", "")) == ([("56", TOOL)] if "56-64" not in text else [])
