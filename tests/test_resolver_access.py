"""resolver_access.py (issue 33, round 7, resolvers, IDS and multi-line lists): Unbound's
`access-control`, PowerDNS's netmask groups, Suricata/Snort address lists, BIND's address match lists
over several lines and its views, Postfix's and Exim's continued lists, judged by
except_blocks.covering."""

from __future__ import annotations

import ipaddress

import pytest

from renamer.except_blocks import TOOL, except_hits
from renamer.prefix_moves import PrefixMove
from renamer.resolver_access import rules

WANTED = {ipaddress.ip_network(n) for n in ("10.0.48.0/24", "10.0.48.0/25")}


def _refused(old: str, new: str, text: str) -> list[str]:
    move = PrefixMove(ipaddress.ip_network(old), ipaddress.ip_network(new))
    return [h.old for h in except_hits(text.encode(), [move]) if h.refused == TOOL]


@pytest.mark.parametrize(("text", "part"), [
    ("server:\n  access-control: 10.0.48.0/24 allow\n  access-control: 10.0.48.0/25 refuse\n", "10.0.48.0/25"),
    ("server:\n  access-control: 10.0.48.0/25 deny\n  access-control: 10.0.48.0/24 allow_snoop\n", "10.0.48.0/25"),
    ("allow-from=10.0.48.0/24, !10.0.48.0/25\n", "10.0.48.0/25"),
    # a netmask group: the `!` entry counts before the network too (the most specific decides)
    ("allow-axfr-ips=!10.0.48.0/25,10.0.48.0/24\n", "10.0.48.0/25"),
    ("webserver-allow-from=10.0.48.0/24,!10.0.48.0/25\n", "10.0.48.0/25"),
    ("incoming:\n  allow_from:\n    - 10.0.48.0/24\n    - '!10.0.48.0/25'\n", "10.0.48.0/25"),
    ('vars:\n  address-groups:\n    HOME_NET: "[10.0.48.0/24,!10.0.48.0/25]"\n', "10.0.48.0/25"),
    ("ipvar HOME_NET [10.0.48.0/24,!10.0.48.0/25]\n", "10.0.48.0/25"),
    ('alert ip [10.0.48.0/24,!10.0.48.0/25] any -> any any (msg:"x"; sid:1;)\n', "10.0.48.0/25"),
    ("acl lan {\n    !10.0.48.0/25;\n    10.0.48.0/24;\n};\n", "10.0.48.0/25"),
    ("options {\n  allow-query {\n    ! 10.0.48.0/25;\n    10.0.48.0/24;\n  };\n};\n", "10.0.48.0/25"),
    ('acl "printers" {\n  10.0.48.0/25;\n};\nacl lan {\n  !"printers";\n  10.0.48.0/24;\n};\n', "10.0.48.0/25"),
    ('view "a" {\n  match-clients { 10.0.48.0/25; };\n};\nview "b" IN {\n  match-clients {\n    10.0.48.0/24;\n'
     '  };\n};\n', "10.0.48.0/25"),
    ("mynetworks = 127.0.0.0/8,\n    !10.0.48.0/25,\n    10.0.48.0/24\n", "10.0.48.0/25"),
    ("mynetworks = 127.0.0.0/8\n    !10.0.48.0/25\n    10.0.48.0/24\n", "10.0.48.0/25"),
    ("mynetworks = !10.0.48.0/25\n    10.0.48.0/24\n", "10.0.48.0/25"),
    ("hostlist relay = 127.0.0.1 : \\\n  !10.0.48.0/25 : \\\n  10.0.48.0/24\n", "10.0.48.0/25"),
])
def test_a_shrink_onto_the_part_refuses(text: str, part: str) -> None:
    assert _refused("10.0.48.0/24", "10.0.48.0/25", text) == [part]
    assert _refused("10.0.48.0/24", "10.0.48.0/22", text) == []
    assert _refused("10.0.48.0/23", "10.0.48.0/24", text) == []


@pytest.mark.parametrize("text", [
    "server:\n  access-control: 10.0.48.0/24 allow\n  access-control: 10.0.48.0/25 allow\n",  # one action
    "acl lan {\n    10.0.48.0/24;\n    !10.0.48.0/25;\n};\n",  # the `!` after the network: dead
    'view "a" {\n  match-clients { 10.0.48.0/24; };\n};\nview "b" {\n  match-clients { 10.9.0.0/24; };\n};\n',
    "mynetworks = 10.0.48.0/24,\n    !10.0.48.0/25\n",  # the first match: the `!` comes after
    "key = value\n\n    !10.0.48.0/25\n    10.0.48.0/24\n",  # a blank line ends the continuation
    "allow-from=10.0.48.0/24,!10.9.0.0/25\n",  # the `!` outside the network
    "foo: [10.0.48.0/24, 10.0.48.0/25]\n",  # no `!`
])
def test_no_entry_takes_the_network_out(text: str) -> None:
    assert _refused("10.0.48.0/24", "10.0.48.0/25", text) == []


def test_an_acl_named_with_a_bang_stands_at_its_definition() -> None:
    text = b"acl printers {\n  10.0.48.0/25;\n};\nacl lan {\n  !printers;\n  10.0.48.0/24;\n};\n"
    [(included, excluded, _)] = list(rules(text, WANTED))
    assert included == [ipaddress.ip_network("10.0.48.0/24")]
    assert [text[s:e] for s, e, _ in excluded] == [b"10.0.48.0/25"]
    assert excluded[0][0] == text.index(b"10.0.48.0/25")


def test_unbound_a_tie_keeps_the_first() -> None:
    """Unbound ignores a second entry of one netblock: the first takes the later one's place."""
    text = b"server:\n  access-control: 10.0.48.0/25 allow\n  access-control: 10.0.48.0/25 refuse\n"
    [(_, excluded, _)] = list(rules(text, WANTED))
    assert excluded[0][0] == text.index(b"10.0.48.0/25")
