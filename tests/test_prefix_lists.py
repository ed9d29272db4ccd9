"""Prefix-list bounds and nftables interval sets under a resized network (prefix_lists.py), through
the Matcher (t26-33 findings 08, 10): refused where the tool would refuse the result, a
`tied-length` residual over the whole entry where its meaning changes, followed where it does not."""

from __future__ import annotations

import ipaddress

import pytest

from renamer.match import Matcher
from renamer.prefix_pools import TIED, TOOL


def _found(pairs: list[tuple[str, str]], text: str) -> list[tuple[str, str, str | None]]:
    matcher = Matcher(networks=[(ipaddress.ip_network(a), ipaddress.ip_network(b)) for a, b in pairs])
    return [(m.old, m.new, m.refused) for m in matcher.find(text.encode())]


@pytest.mark.parametrize(("pairs", "text", "found"), [
    # FRR / IOS: the new length passes ge: refused; a grow keeps it loadable, other prefixes: residual
    ([("10.0.48.0/24", "10.0.60.0/26")], "ip prefix-list LAN seq 5 permit 10.0.48.0/24 ge 25 le 28\n",
     [("10.0.48.0/24 ge 25 le 28", "10.0.48.0/24 ge 25 le 28", TOOL)]),
    ([("10.0.48.0/24", "10.0.48.0/22")], "ip prefix-list LAN seq 5 permit 10.0.48.0/24 ge 25 le 28\n",
     [("10.0.48.0/24 ge 25 le 28", "10.0.48.0/24 ge 25 le 28", TIED)]),
    ([("10.0.48.0/29", "10.0.48.0/28")], " seq 10 permit 10.0.48.0/29 ge 30 le 32\n",
     [("10.0.48.0/29 ge 30 le 32", "10.0.48.0/29 ge 30 le 32", TIED)]),
    ([("10.0.48.0/23", "10.0.48.0/24")], "ip prefix-list L permit 10.0.48.0/23 ge 24\n",  # IOS: len < ge
     [("10.0.48.0/23 ge 24", "10.0.48.0/23 ge 24", TIED)]),
    ([("10.0.48.0/23", "10.0.48.0/24")], "ip prefix-list L permit 10.0.48.0/23 le 23\n",
     [("10.0.48.0/23 le 23", "10.0.48.0/23 le 23", TOOL)]),
    # every prefix inside, at any length: the network follows
    ([("10.0.48.0/24", "10.0.48.0/22")], "ip prefix-list ALL seq 5 permit 10.0.48.0/24 le 32\n",
     [("10.0.48.0/24", "10.0.48.0/22", None)]),
    ([("10.0.48.0/24", "10.0.48.0/22")], "ip prefix-list H permit 10.0.48.0/24 ge 32\n",
     [("10.0.48.0/24", "10.0.48.0/22", None)]),
    # no bounds: the network alone, as anywhere
    ([("10.0.48.0/24", "10.0.48.0/22")], "ip prefix-list N seq 5 permit 10.0.48.0/24\n",
     [("10.0.48.0/24", "10.0.48.0/22", None)]),
    # IPv6
    ([("2001:db8:a::/48", "2001:db8:a::/56")], "ipv6 prefix-list V6 seq 5 permit 2001:db8:a::/48 ge 49 le 64\n",
     [("2001:db8:a::/48 ge 49 le 64", "2001:db8:a::/48 ge 49 le 64", TOOL)]),
    ([("2001:db8:a::/64", "2001:db8:a::/60")], "ipv6 prefix-list V6 permit 2001:db8:a::/64 le 128\n",
     [("2001:db8:a::/64", "2001:db8:a::/60", None)]),
    # JunOS and BIRD
    ([("2001:db8:a::/48", "2001:db8:a::/56")], "route-filter 2001:db8:a::/48 prefix-length-range /49-/64;\n",
     [("2001:db8:a::/48 prefix-length-range /49-/64", "2001:db8:a::/48 prefix-length-range /49-/64", TOOL)]),
    ([("10.0.48.0/24", "10.0.60.0/26")], "route-filter 10.0.48.0/24 upto /28;\nroute-filter 10.0.48.0/24 orlonger;\n",
     [("10.0.48.0/24 upto /28", "10.0.48.0/24 upto /28", TIED), ("10.0.48.0/24", "10.0.60.0/26", None)]),
    ([("10.0.48.0/24", "10.0.60.0/26")], "  if net ~ [ 10.0.48.0/24{25,28} ] then accept;\n",
     [("10.0.48.0/24{25,28}", "10.0.48.0/24{25,28}", TOOL)]),
    # after a sweep that wrote the entry: still refused where its tool refuses it, else nothing
    ([("10.0.48.0/24", "10.0.60.0/26")], "ip prefix-list LAN seq 5 permit 10.0.60.0/26 ge 25 le 28\n",
     [("10.0.60.0/26 ge 25 le 28", "10.0.60.0/26 ge 25 le 28", TOOL)]),
    ([("10.0.48.0/24", "10.0.60.0/26")], "ip prefix-list LAN seq 5 permit 10.0.60.0/26 ge 27 le 30\n", []),
])
def test_prefix_list_bounds(pairs: list[tuple[str, str]], text: str, found: list[tuple[str, str, str | None]]) -> None:
    assert _found(pairs, text) == found


SET = "table inet f {\n  set lans { type ipv4_addr; FLAGS elements = { ELEMENTS } }\n}\n"


@pytest.mark.parametrize(("pairs", "flags", "elements", "found"), [
    ([("10.0.48.0/24", "10.0.48.0/23")], "flags interval;", "10.0.48.0/24, 10.0.49.0/24",
     [("10.0.48.0/24", "10.0.48.0/24", TOOL)]),
    ([("10.0.48.0/24", "10.0.48.0/22")], "flags interval;", "10.0.48.0/24, 10.0.50.10-10.0.50.20",
     [("10.0.48.0/24", "10.0.48.0/24", TOOL)]),
    ([("10.0.48.0/24", "10.0.48.0/22")], "flags interval;", "10.0.48.0/24, 10.0.51.7",
     [("10.0.48.0/24", "10.0.48.0/24", TOOL)]),
    # auto-merge: nft merges the overlap itself
    ([("10.0.48.0/24", "10.0.48.0/23")], "flags interval; auto-merge;", "10.0.48.0/24, 10.0.49.0/24",
     [("10.0.48.0/24", "10.0.48.0/23", None)]),
    # a sibling outside the grown network, a shrink, a move elsewhere of one length: nothing overlaps
    ([("10.0.48.0/24", "10.0.48.0/23")], "flags interval;", "10.0.48.0/24, 10.0.50.0/24",
     [("10.0.48.0/24", "10.0.48.0/23", None)]),
    ([("10.0.48.0/23", "10.0.48.0/24")], "flags interval;", "10.0.48.0/23, 10.0.50.0/24",
     [("10.0.48.0/23", "10.0.48.0/24", None)]),
    # after the sweep: the grown element overlaps
    ([("10.0.48.0/24", "10.0.48.0/23")], "flags interval;", "10.0.48.0/23, 10.0.49.0/24",
     [("10.0.48.0/23", "10.0.48.0/23", TOOL)]),
    # IPv6 /64 -> /60
    ([("2001:db8:a::/64", "2001:db8:a::/60")], "flags interval;", "2001:db8:a::/64, 2001:db8:a:1::/64",
     [("2001:db8:a::/64", "2001:db8:a::/64", TOOL)]),
])
def test_interval_sets(pairs: list[tuple[str, str]], flags: str, elements: str,
                       found: list[tuple[str, str, str | None]]) -> None:
    assert _found(pairs, SET.replace("FLAGS", flags).replace("ELEMENTS", elements)) == found


@pytest.mark.parametrize(("text", "found"), [
    # an `add element` command for a set declared with flags interval in the file
    ("table inet f {\n  set lans { type ipv4_addr; flags interval; elements = { 10.0.49.0/24 } }\n}\n"
     "add element inet f lans { 10.0.48.0/24 }\n", [("10.0.48.0/24", "10.0.48.0/24", TOOL)]),
    # one declared elsewhere: its prefixes make it an interval set
    ("add element inet f lans { 10.0.48.0/24, 10.0.49.0/24 }\n", [("10.0.48.0/24", "10.0.48.0/24", TOOL)]),
    # declared here with auto-merge: merged
    ("table inet f {\n  set lans { type ipv4_addr; flags interval; auto-merge; }\n}\n"
     "add element inet f lans { 10.0.48.0/24, 10.0.49.0/24 }\n", [("10.0.48.0/24", "10.0.48.0/23", None)]),
    # another set's element does not count
    ("add element inet f a { 10.0.48.0/24 }\nadd element inet f b { 10.0.49.0/24 }\n",
     [("10.0.48.0/24", "10.0.48.0/23", None)]),
])
def test_add_element_commands(text: str, found: list[tuple[str, str, str | None]]) -> None:
    assert _found([("10.0.48.0/24", "10.0.48.0/23")], text) == found


VYOS_SET = ("set policy prefix-list LAN rule 5 action 'permit'\nset policy prefix-list LAN rule 5 ge '25'\n"
            "set policy prefix-list LAN rule 5 le '28'\nset policy prefix-list LAN rule 5 prefix '10.0.48.0/24'\n"
            "set policy prefix-list LAN rule 10 prefix '10.0.48.0/24'\n")
VYOS_BOOT = ("policy {\n    prefix-list LAN {\n        rule 5 {\n            action permit\n            ge 25\n"
             "            le 28\n            prefix 10.0.48.0/24\n        }\n        rule 10 {\n"
             "            action permit\n            prefix 10.0.48.0/24\n        }\n    }\n}\n")


@pytest.mark.parametrize(("new", "text", "found"), [
    # VyOS: the bounds on lines of their own, the network's rule tells which (rule 10 has none: it follows)
    ("10.0.60.0/26", VYOS_SET, [("10.0.48.0/24", "10.0.48.0/24", TOOL), ("10.0.48.0/24", "10.0.60.0/26", None)]),
    ("10.0.48.0/22", VYOS_SET, [("10.0.48.0/24", "10.0.48.0/24", TIED), ("10.0.48.0/24", "10.0.48.0/22", None)]),
    ("10.0.60.0/26", VYOS_BOOT, [("10.0.48.0/24", "10.0.48.0/24", TOOL), ("10.0.48.0/24", "10.0.60.0/26", None)]),
    ("10.0.48.0/22", VYOS_BOOT.replace("ge 25", "ge 32").replace("le 28", "le 32"),
     [("10.0.48.0/24", "10.0.48.0/22", None), ("10.0.48.0/24", "10.0.48.0/22", None)]),
])
def test_vyos_prefix_list_rules(new: str, text: str, found: list[tuple[str, str, str | None]]) -> None:
    assert _found([("10.0.48.0/24", new)], text) == found


# -- t31-33 finding 04: length ranges written apart (GoBGP, RouterOS v6 and v7; length_ranges.py) --

GOBGP = ('[[defined-sets.prefix-sets]]\n  prefix-set-name = "lan"\n  [[defined-sets.prefix-sets.prefix-list]]\n'
         '    ip-prefix = "NET"\n    masklength-range = "RANGE"\n')
GOBGP_YAML = "prefix-sets:\n  - prefix-set-name: lan\n    prefix-list:\n      - ip-prefix: NET\n        masklength-range: RANGE\n"
ROS6 = "/routing filter add chain=bgp-in prefix=NET prefix-length=RANGE action=accept\n"
ROS7 = '/routing filter rule add chain=bgp-in rule="if (dst in NET && dst-len in RANGE) { accept }"\n'


@pytest.mark.parametrize(("pairs", "template", "net", "ranged", "found"), [
    # a shrink the range's low end passes: the tool refuses (GoBGP rejects the set, RouterOS never matches)
    ([("10.0.48.0/24", "10.0.48.0/26")], GOBGP, "10.0.48.0/24", "25..28", [("10.0.48.0/24", "10.0.48.0/24", TOOL)]),
    ([("10.0.48.0/24", "10.0.48.0/26")], GOBGP_YAML, "10.0.48.0/24", "25..28",
     [("10.0.48.0/24", "10.0.48.0/24", TOOL)]),
    ([("10.0.48.0/24", "10.0.48.0/26")], ROS6, "10.0.48.0/24", "25-28",
     [("10.0.48.0/24 prefix-length=25-28", "10.0.48.0/24 prefix-length=25-28", TOOL)]),
    ([("10.0.48.0/24", "10.0.48.0/26")], ROS7, "10.0.48.0/24", "25-28",
     [("10.0.48.0/24 && dst-len in 25-28", "10.0.48.0/24 && dst-len in 25-28", TOOL)]),
    ([("10.0.48.0/23", "10.0.48.0/24")], ROS6, "10.0.48.0/23", "23-24",
     [("10.0.48.0/23 prefix-length=23-24", "10.0.48.0/23 prefix-length=23-24", TOOL)]),
    # a grow: loadable, other routes selected: a tied-length residual over the network
    ([("10.0.48.0/24", "10.0.60.0/22")], GOBGP, "10.0.48.0/24", "25..28", [("10.0.48.0/24", "10.0.48.0/24", TIED)]),
    ([("10.0.48.0/29", "10.0.48.0/28")], ROS6, "10.0.48.0/29", "30-32",
     [("10.0.48.0/29 prefix-length=30-32", "10.0.48.0/29 prefix-length=30-32", TIED)]),
    ([("10.0.48.0/24", "10.0.60.0/22")], ROS7.replace("dst-len in RANGE", "dst-len>=25 && dst-len<=28"),
     "10.0.48.0/24", "", [("10.0.48.0/24 && dst-len>=25 && dst-len<=28",
                         "10.0.48.0/24 && dst-len>=25 && dst-len<=28", TIED)]),
    ([("2001:db8:a::/48", "2001:db8:a::/56")], GOBGP, "2001:db8:a::/48", "49..64",
     [("2001:db8:a::/48", "2001:db8:a::/48", TOOL)]),
    ([("2001:db8:a::/64", "2001:db8:a::/60")], ROS6, "2001:db8:a::/64", "64-64",
     [("2001:db8:a::/64 prefix-length=64-64", "2001:db8:a::/64 prefix-length=64-64", TIED)]),
    # every prefix inside (the network's own length to the longest): the low end follows the new length
    ([("10.0.48.0/24", "10.0.60.0/22")], GOBGP, "10.0.48.0/24", "24..32",
     [("10.0.48.0/24", "10.0.60.0/22", None), ("24", "22", None)]),
    ([("10.0.48.0/24", "10.0.48.0/25")], ROS6, "10.0.48.0/24", "24-32",
     [("10.0.48.0/24", "10.0.48.0/25", None), ("24", "25", None)]),
    ([("2001:db8:a::/64", "2001:db8:a::/60")], ROS7, "2001:db8:a::/64", "64-128",
     [("2001:db8:a::/64", "2001:db8:a::/60", None), ("64", "60", None)]),
    # another network's entry: nothing of this rule
    ([("10.0.48.0/24", "10.0.60.0/22")], ROS6, "10.9.0.0/24", "25-28", []),
])
def test_length_ranges_written_apart(pairs: list[tuple[str, str]], template: str, net: str, ranged: str,
                                     found: list[tuple[str, str, str | None]]) -> None:
    assert _found(pairs, template.replace("NET", net).replace("RANGE", ranged)) == found


# -- t31-33 finding 21: an anonymous map or verdict map whose keys a grow makes overlap ------------

RULE = "table inet f {\n  chain input {\n    type filter hook input priority 0;\n    BODY\n  }\n}\n"


@pytest.mark.parametrize(("pairs", "body", "found"), [
    ([("10.0.48.0/24", "10.0.48.0/23")], "ip saddr vmap { 10.0.48.0/24 : accept, 10.0.49.0/24 : drop }",
     [("10.0.48.0/24", "10.0.48.0/24", TOOL)]),
    ([("10.0.48.0/24", "10.0.48.0/22")], "ip saddr vmap { 10.0.51.7 : drop, 10.0.48.0/24 : accept }",
     [("10.0.48.0/24", "10.0.48.0/24", TOOL)]),
    ([("10.0.48.0/24", "10.0.48.0/22")], "dnat to ip saddr map { 10.0.48.0/24 : 192.0.2.1, 10.0.50.0/24 : 192.0.2.2 }",
     [("10.0.48.0/24", "10.0.48.0/24", TOOL)]),
    ([("2001:db8:a::/64", "2001:db8:a::/60")],
     "ip6 saddr vmap { 2001:db8:a::/64 : accept, 2001:db8:a:1::/64 : drop }",
     [("2001:db8:a::/64", "2001:db8:a::/64", TOOL)]),
    # an anonymous set: nft merges it; a map whose keys stay apart; a shrink
    ([("10.0.48.0/24", "10.0.48.0/23")], "ip saddr { 10.0.48.0/24, 10.0.49.0/24 } accept",
     [("10.0.48.0/24", "10.0.48.0/23", None)]),
    ([("10.0.48.0/24", "10.0.48.0/23")], "ip saddr vmap { 10.0.48.0/24 : accept, 10.0.50.0/24 : drop }",
     [("10.0.48.0/24", "10.0.48.0/23", None)]),
    ([("10.0.48.0/23", "10.0.48.0/24")], "ip saddr vmap { 10.0.48.0/23 : accept, 10.0.50.0/24 : drop }",
     [("10.0.48.0/23", "10.0.48.0/24", None)]),
    # after the sweep: the grown key overlaps its sibling
    ([("10.0.48.0/24", "10.0.48.0/23")], "ip saddr vmap { 10.0.48.0/23 : accept, 10.0.49.0/24 : drop }",
     [("10.0.48.0/23", "10.0.48.0/23", TOOL)]),
])
def test_anonymous_maps(pairs: list[tuple[str, str]], body: str, found: list[tuple[str, str, str | None]]) -> None:
    assert _found(pairs, RULE.replace("BODY", body)) == found


# -- t33-33 finding 03: FortiGate prefix-list rules, `set ge` / `set le` on lines of their own --------

FORTI = ("config router prefix-list\n    edit \"LAN\"\n        config rule\n            edit 1\n"
         "                set prefix 10.0.48.0 255.255.255.0\n                set ge 25\n                set le 28\n"
         "            next\n            edit 2\n                set prefix 10.0.48.0 255.255.255.0\n"
         "            next\n        end\n    next\nend\n")


@pytest.mark.parametrize(("pairs", "text", "found"), [
    # rule 1's bounds are its own; rule 2 (no bounds: the exact network) follows
    ([("10.0.48.0/24", "10.0.48.0/26")], FORTI,
     [("10.0.48.0 255.255.255.0", "10.0.48.0 255.255.255.0", TOOL),
      ("255.255.255.0", "255.255.255.192", None)]),
    ([("10.0.48.0/24", "10.0.48.0/25")], FORTI,  # ge 25 still loads: other prefixes, a residual
     [("10.0.48.0 255.255.255.0", "10.0.48.0 255.255.255.0", TIED),
      ("255.255.255.0", "255.255.255.128", None)]),
    ([("10.0.48.0/23", "10.0.48.0/24")], FORTI.replace("255.255.255.0", "255.255.254.0").replace("ge 25", "ge 24"),
     [("10.0.48.0 255.255.254.0", "10.0.48.0 255.255.254.0", TIED),
      ("255.255.254.0", "255.255.255.0", None)]),
    ([("2001:db8:a::/48", "2001:db8:a::/60")],
     "config router prefix-list6\n    edit \"L6\"\n        config rule\n            edit 1\n"
     "                set prefix6 2001:db8:a::/48\n                set ge 56\n                set le 64\n"
     "            next\n        end\n    next\nend\n",
     [("2001:db8:a::/48", "2001:db8:a::/48", TOOL)]),
    ([("10.0.48.0/24", "10.0.48.0/26")],  # the `A/N` spelling FortiOS accepts too, quoted
     "config router prefix-list\n    edit \"L\"\n        config rule\n            edit 1\n"
     "                set prefix \"10.0.48.0/24\"\n                set le 28\n            next\n        end\n"
     "    next\nend\n",
     [("10.0.48.0/24", "10.0.48.0/24", TIED)]),
])
def test_fortigate_prefix_list_rules(pairs: list[tuple[str, str]], text: str,
                                     found: list[tuple[str, str, str | None]]) -> None:
    assert _found(pairs, text) == found
