"""acl_rules.py (t33-33 finding 22): router ACLs and JunOS filter terms, the first match deciding: a
deny of part of a network before the permit of the whole, judged by except_blocks.covering."""

from __future__ import annotations

import ipaddress

import pytest

from renamer.acl_rules import rules
from renamer.except_blocks import TOOL, except_hits
from renamer.prefix_moves import PrefixMove


def _refused(old: str, new: str, text: str) -> list[str]:
    move = PrefixMove(ipaddress.ip_network(old), ipaddress.ip_network(new))
    return [h.old for h in except_hits(text.encode(), [move]) if h.refused == TOOL]


IOS = "access-list 110 deny   ip 10.0.48.0 0.0.0.127 any\naccess-list 110 permit ip 10.0.48.0 0.0.0.255 any\n"
JUNOS_BRACES = """firewall {
    family inet {
        filter LAN {
            term printers {
                from {
                    source-address {
                        10.0.48.0/25;
                    }
                }
                then discard;
            }
            term lan {
                from {
                    source-address {
                        10.0.48.0/24;
                    }
                }
                then {
                    accept;
                }
            }
        }
    }
}
"""

CALICO = """apiVersion: projectcalico.org/v3
kind: NetworkPolicy
spec:
  ingress:
    - action: Deny
      source:
        nets:
          - 10.0.48.0/25
    - action: Allow
      protocol: TCP
      source:
        nets: [10.0.48.0/24]
      destination:
        ports: [443]
"""


@pytest.mark.parametrize(("text", "denied"), [
    (IOS, "10.0.48.0 0.0.0.127"),
    ("access-list 10 deny 10.0.48.0 0.0.0.127\naccess-list 10 permit 10.0.48.0 0.0.0.255\n", "10.0.48.0 0.0.0.127"),
    ("access-list OUT extended deny ip 10.0.48.0 255.255.255.128 any\n"
     "access-list OUT extended permit ip 10.0.48.0 255.255.255.0 any\n", "10.0.48.0 255.255.255.128"),
    ("access-list OUT extended deny ip any4 10.0.48.0 255.255.255.128 log\n"
     "access-list OUT extended permit tcp any4 10.0.48.0 255.255.255.0 eq 443\n", "10.0.48.0 255.255.255.128"),
    ("ip access-list LAN\n   10 deny ip 10.0.48.0/25 any\n   20 permit ip 10.0.48.0/24 any\n", "10.0.48.0/25"),
    ("ip access-list extended LAN\n deny ip 10.0.48.0 0.0.0.127 any\n permit tcp 10.0.48.0 0.0.0.255 any eq 22\n",
     "10.0.48.0 0.0.0.127"),
    ("ipv4 access-list LAN\n 10 deny ipv4 10.0.48.0/25 any\n 20 permit ipv4 10.0.48.0/24 any\n", "10.0.48.0/25"),
    ("ip access-list standard LAN\n   10 deny 10.0.48.0/25\n   20 permit 10.0.48.0/24\n", "10.0.48.0/25"),
    # the sequence numbers decide, not the lines' order
    ("ip access-list LAN\n   20 permit ip 10.0.48.0/24 any\n   10 deny ip 10.0.48.0/25 any\n", "10.0.48.0/25"),
    ("set firewall family inet filter LAN term printers from source-address 10.0.48.0/25\n"
     "set firewall family inet filter LAN term printers then discard\n"
     "set firewall family inet filter LAN term lan from source-address 10.0.48.0/24\n"
     "set firewall family inet filter LAN term lan then accept\n", "10.0.48.0/25"),
    (JUNOS_BRACES, "10.0.48.0/25"),
    (CALICO, "10.0.48.0/25"),
])
def test_a_deny_of_part_before_the_permit_of_the_whole_refuses_a_shrink(text: str, denied: str) -> None:
    assert _refused("10.0.48.0/24", "10.0.48.0/25", text) == [denied]
    assert _refused("10.0.48.0/24", "10.0.60.0/25", text) == [denied]  # lands on the new network by offset
    assert _refused("10.0.48.0/24", "10.0.48.0/22", text) == []  # a grow keeps it a part
    # a file already written: the permit at the new network, the deny covering it
    written = text.replace("0.0.0.255", "0.0.0.127").replace("255.255.255.0 ", "255.255.255.128 ")
    written = written.replace("10.0.48.0/24", "10.0.48.0/25")
    assert _refused("10.0.48.0/24", "10.0.48.0/25", written) == [denied]


def test_other_lengths_and_ipv6() -> None:
    """/23 -> /24 with a /24 deny, IPv6 /48 -> /56 with a /56 deny: refused; /29 -> /28 and /64 -> /60
    (grows): not."""
    shrink = ("access-list 120 deny ip 10.0.48.0 0.0.0.255 any\naccess-list 120 permit ip 10.0.48.0 0.0.1.255 any\n")
    assert _refused("10.0.48.0/23", "10.0.48.0/24", shrink) == ["10.0.48.0 0.0.0.255"]
    v6 = "ipv6 access-list V6\n deny ipv6 2001:db8:a::/56 any\n permit ipv6 2001:db8:a::/48 any\n"
    assert _refused("2001:db8:a::/48", "2001:db8:a::/56", v6) == ["2001:db8:a::/56"]
    grow = "ipv6 access-list V6\n deny ipv6 2001:db8:a:b::/66 any\n permit ipv6 2001:db8:a:b::/64 any\n"
    assert _refused("2001:db8:a:b::/64", "2001:db8:a:b0::/60", grow) == []
    small = "ip access-list LAN\n 10 deny ip 10.0.48.8/30 any\n 20 permit ip 10.0.48.8/29 any\n"
    assert _refused("10.0.48.8/29", "10.0.48.16/28", small) == []


@pytest.mark.parametrize("text", [
    IOS.replace("/25", "/26").replace("0.0.0.127", "0.0.0.63"),  # still a part of the new network
    # the permit first: a dead deny
    "ip access-list LAN\n   10 permit ip 10.0.48.0/24 any\n   20 deny ip 10.0.48.0/25 any\n",
    # a deny of ssh alone, of one protocol, toward one host: no exclusion of the network
    "access-list 110 deny tcp 10.0.48.0 0.0.0.127 any eq 22\naccess-list 110 permit ip 10.0.48.0 0.0.0.255 any\n",
    "access-list 110 deny udp 10.0.48.0 0.0.0.127 any\naccess-list 110 permit ip 10.0.48.0 0.0.0.255 any\n",
    "access-list 110 deny ip 10.0.48.0 0.0.0.127 host 10.9.0.1\naccess-list 110 permit ip 10.0.48.0 0.0.0.255 any\n",
    # another list, another side
    "access-list 110 deny ip 10.0.48.0 0.0.0.127 any\naccess-list 120 permit ip 10.0.48.0 0.0.0.255 any\n",
    "access-list 110 deny ip 10.0.48.0 0.0.0.127 any\naccess-list 110 permit ip any 10.0.48.0 0.0.0.255\n",
    "ip access-list A\n 10 deny ip 10.0.48.0/25 any\nip access-list B\n 20 permit ip 10.0.48.0/24 any\n",
    # JunOS: another filter, a term with a port, a term that only counts
    "set firewall filter A term p from source-address 10.0.48.0/25\nset firewall filter A term p then discard\n"
    "set firewall filter B term l from source-address 10.0.48.0/24\nset firewall filter B term l then accept\n",
    "set firewall filter A term p from source-address 10.0.48.0/25\nset firewall filter A term p from port 22\n"
    "set firewall filter A term p then discard\n"
    "set firewall filter A term l from source-address 10.0.48.0/24\nset firewall filter A term l then accept\n",
    "set firewall filter A term p from source-address 10.0.48.0/25\nset firewall filter A term p then count c\n"
    "set firewall filter A term l from source-address 10.0.48.0/24\nset firewall filter A term l then accept\n",
    # Calico: a deny of one port, a deny in the egress list, the allow first
    CALICO.replace("    - action: Deny\n", "    - action: Deny\n      protocol: UDP\n"),
    CALICO.replace("    - action: Allow\n", "  egress:\n    - action: Allow\n"),
    CALICO.replace("action: Deny", "action: Swap").replace("action: Allow", "action: Deny").replace(
        "action: Swap", "action: Allow"),
])
def test_no_exclusion_of_the_network_is_none(text: str) -> None:
    assert _refused("10.0.48.0/24", "10.0.48.0/25", text) == []


def test_the_rule_words() -> None:
    [(included, excluded, what)] = list(rules(IOS.encode()))
    assert included == [ipaddress.ip_network("10.0.48.0/24")]
    assert [str(net) for _, _, net in excluded] == ["10.0.48.0/25"]
    assert what == "an ACL's `deny` before its permit, the first match deciding"
