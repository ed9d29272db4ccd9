"""except_lines.py (t32-33 finding 21): the included and excluded networks of rules written in
their own syntax, judged by except_blocks.covering under a move."""

from __future__ import annotations

import ipaddress

import pytest

from renamer.except_blocks import TOOL, except_hits
from renamer.except_lines import rules
from renamer.prefix_moves import PrefixMove


def _refused(old: str, new: str, text: str) -> list[str]:
    move = PrefixMove(ipaddress.ip_network(old), ipaddress.ip_network(new))
    return [h.old for h in except_hits(text.encode(), [move]) if h.refused == TOOL]


JUNOS = "source-address {\n    10.0.48.0/24;\n    10.0.48.0/25 except;\n}\n"


@pytest.mark.parametrize("text", [
    JUNOS,
    "source-address { 10.0.48.0/24; 10.0.48.0/25 except; }\n",
    "set firewall filter F term t from address 10.0.48.0/24\nset firewall filter F term t from address "
    "10.0.48.0/25 except\n",
    "create lan hash:net\nadd lan 10.0.48.0/24\nadd lan 10.0.48.0/25 nomatch\n",
    "ipset add lan 10.0.48.0/24\nipset add lan 10.0.48.0/25 timeout 0 nomatch\n",
    "ip saddr 10.0.48.0/24 ip saddr != 10.0.48.0/25 accept\n",
    "ip daddr { 10.0.48.0/24, 10.9.0.0/16 } ip daddr != { 10.0.48.0/25, 10.9.1.0/24 } drop\n",
    "table <lan> { 10.0.48.0/24, !10.0.48.0/25 }\n",
    'lan = "{ 10.0.48.0/24 ! 10.0.48.0/25 }"\n',
    # the first match decides: a `!` entry before the network, a deny of part of it before the allow
    "mynetworks = 127.0.0.0/8, !10.0.48.0/25, 10.0.48.0/24\n",
    "hostlist relay_from_hosts = !10.0.48.0/25 : 10.0.48.0/24\n",
    "location / {\n    deny 10.0.48.0/25;\n    allow 10.0.48.0/24;\n    deny all;\n}\n",
    "deny 10.0.48.0/25;\nallow 10.0.48.0/24;\n",
    "*filter\n-A INPUT -s 10.0.48.0/25 -j DROP\n-A INPUT -s 10.0.48.0/24 -j ACCEPT\nCOMMIT\n",
    "iptables -A FORWARD -d 10.0.48.0/25 -j REJECT --reject-with icmp-port-unreachable\n"
    "iptables -A FORWARD -d 10.0.48.0/24 -j ACCEPT\n",
    "<RequireAll>\n    Require ip 10.0.48.0/24\n    Require not ip 10.0.48.0/25\n</RequireAll>\n",
])
def test_an_exclusion_a_shrink_makes_cover_its_network(text: str) -> None:
    assert _refused("10.0.48.0/24", "10.0.48.0/25", text) == ["10.0.48.0/25"]
    assert _refused("10.0.48.0/24", "10.0.60.0/25", text) == ["10.0.48.0/25"]  # lands there by offset
    assert _refused("10.0.48.0/24", "10.0.48.0/22", text) == []  # a grow keeps it inside
    assert _refused("10.0.48.0/24", "10.0.48.0/25", text.replace("/25", "/26")) == []  # still inside


@pytest.mark.parametrize("text", [
    "ip saddr 10.0.48.0/24 ip daddr != 10.0.48.0/25 accept\n",  # another selector
    "pass in from 10.0.48.0/24 to !10.0.48.0/25\n",  # pf: from and to are two fields
    "a {\n  source-address {\n    10.0.48.0/24;\n  }\n  destination-address {\n    10.0.48.0/25 except;\n  }\n}\n",
    "ipset add lan 10.0.48.0/24\nipset add other 10.0.48.0/25 nomatch\n",  # another set
    "location / {\n    allow 10.0.48.0/24;\n    deny 10.0.48.0/25;\n}\n",  # the allow first: a dead deny
    "mynetworks = 10.0.48.0/24, !10.0.48.0/25\n",  # the network first: a dead `!`
    'x = "10.0.48.0/24" if y != "10.0.48.0/25" else z\n',  # code's `!=`
    "a {\n    deny 10.0.48.0/25;\n}\nb {\n    allow 10.0.48.0/24;\n}\n",  # two blocks
    "-A INPUT -s 10.0.48.0/25 -p tcp --dport 22 -j DROP\n-A INPUT -s 10.0.48.0/24 -j ACCEPT\n",  # ssh only
    "-A INPUT -s 10.0.48.0/25 -j DROP\n-A FORWARD -s 10.0.48.0/24 -j ACCEPT\n",  # another chain
    "-A INPUT -s 10.0.48.0/25 -j DROP\n-A INPUT -d 10.0.48.0/24 -j ACCEPT\n",  # another field
    "<RequireAny>\n Require ip 10.0.48.0/24\n</RequireAny>\n<RequireAll>\n Require not ip 10.0.48.0/25\n"
    " Require all granted\n</RequireAll>\n",
])
def test_an_exclusion_of_another_rule_is_none(text: str) -> None:
    assert _refused("10.0.48.0/24", "10.0.48.0/25", text) == []


def test_ipv6_and_the_rule_words() -> None:
    text = b"ip6 saddr 2001:db8:a::/48 ip6 saddr != 2001:db8:a::/56 accept\n"
    [(included, excluded, what)] = list(rules(text))
    assert included == [ipaddress.ip_network("2001:db8:a::/48")]
    assert [str(net) for _, _, net in excluded] == ["2001:db8:a::/56"]
    assert what == "nftables `ip6 saddr !=`"
    assert _refused("2001:db8:a::/48", "2001:db8:a::/56", text.decode()) == ["2001:db8:a::/56"]
    assert _refused("2001:db8:a::/48", "2001:db8::/44", text.decode()) == []


NAMED = ("table inet f {\n  set lan {\n    type ipv4_addr\n    flags interval\n"
         "    elements = { 10.0.48.0/24, 10.9.0.0/16 }\n  }\n  set half {\n    type ipv4_addr\n"
         "    flags interval\n    elements = {\n      10.0.48.0/25,\n    }\n  }\n  chain input {\n"
         "    type filter hook input priority 0;\n    ip saddr @lan ip saddr != @half accept\n  }\n}\n")


def test_nft_named_sets_of_the_file() -> None:
    assert _refused("10.0.48.0/24", "10.0.48.0/25", NAMED) == ["10.0.48.0/25"]
    assert _refused("10.0.48.0/24", "10.0.48.0/22", NAMED) == []
    assert _refused("10.0.48.0/24", "10.0.48.0/25", NAMED.replace("@half", "@other")) == []  # not defined here
