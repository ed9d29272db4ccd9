"""numbered_rules.py (t33-33 finding 18): cloud firewall rules ordered by a number (AWS NACL
`rule_number`, Azure NSG `priority`, GCP firewall `priority`, CloudFormation, ARM): a deny of part of
a network numbered before the allow of the whole, judged by except_blocks.covering."""

from __future__ import annotations

import ipaddress

import pytest

from renamer.except_blocks import TOOL, except_hits
from renamer.prefix_moves import PrefixMove


def _refused(old: str, new: str, text: str) -> list[str]:
    move = PrefixMove(ipaddress.ip_network(old), ipaddress.ip_network(new))
    return [h.old for h in except_hits(text.encode(), [move]) if h.refused == TOOL]


AWS = """resource "aws_network_acl_rule" "deny_printers" {
  network_acl_id = aws_network_acl.lan.id
  rule_number    = 100
  egress         = false
  protocol       = "-1"
  rule_action    = "deny"
  cidr_block     = "10.0.48.0/25"
}
resource "aws_network_acl_rule" "allow_lan" {
  network_acl_id = aws_network_acl.lan.id
  rule_number    = 200
  egress         = false
  protocol       = "-1"
  rule_action    = "allow"
  cidr_block     = "10.0.48.0/24"
}
"""
INLINE = """resource "aws_network_acl" "lan" {
  vpc_id = aws_vpc.main.id
  ingress {
    protocol   = "tcp"
    rule_no    = 200
    action     = "allow"
    cidr_block = "10.0.48.0/24"
    from_port  = 443
    to_port    = 443
  }
  ingress {
    protocol   = "-1"
    rule_no    = 100
    action     = "deny"
    cidr_block = "10.0.48.0/25"
    from_port  = 0
    to_port    = 0
  }
}
"""
AZURE = """resource "azurerm_network_security_group" "lan" {
  name = "lan"
  security_rule {
    name                       = "deny-printers"
    priority                   = 100
    direction                  = "Inbound"
    access                     = "Deny"
    protocol                   = "*"
    source_port_range          = "*"
    destination_port_range     = "*"
    source_address_prefix      = "10.0.48.0/25"
    destination_address_prefix = "*"
  }
  security_rule {
    name                       = "allow-lan"
    priority                   = 200
    direction                  = "Inbound"
    access                     = "Allow"
    protocol                   = "Tcp"
    source_port_range          = "*"
    destination_port_range     = "22"
    source_address_prefixes    = ["10.0.48.0/24", "10.9.0.0/16"]
    destination_address_prefix = "*"
  }
}
"""
GCP = """resource "google_compute_firewall" "deny_printers" {
  name          = "deny-printers"
  network       = google_compute_network.lan.name
  priority      = 900
  source_ranges = ["10.0.48.0/25"]
  deny {
    protocol = "all"
  }
}
resource "google_compute_firewall" "allow_lan" {
  name          = "allow-lan"
  network       = google_compute_network.lan.name
  priority      = 1000
  source_ranges = ["10.0.48.0/24"]
  allow {
    protocol = "tcp"
    ports    = ["22"]
  }
}
"""
CFN = """Resources:
  DenyPrinters:
    Type: AWS::EC2::NetworkAclEntry
    Properties:
      NetworkAclId: !Ref Acl
      RuleNumber: 100
      Protocol: -1
      RuleAction: deny
      Egress: false
      CidrBlock: 10.0.48.0/25
  AllowLan:
    Type: AWS::EC2::NetworkAclEntry
    Properties:
      NetworkAclId: !Ref Acl
      RuleNumber: 200
      Protocol: -1
      RuleAction: allow
      Egress: false
      CidrBlock: 10.0.48.0/24
"""
ARM = """{"type": "Microsoft.Network/networkSecurityGroups", "properties": {"securityRules": [
  {"name": "deny-printers", "properties": {"priority": 100, "access": "Deny", "direction": "Inbound",
   "protocol": "*", "sourceAddressPrefix": "10.0.48.0/25", "destinationAddressPrefix": "*"}},
  {"name": "allow-lan", "properties": {"priority": 200, "access": "Allow", "direction": "Inbound",
   "protocol": "*", "sourceAddressPrefix": "10.0.48.0/24", "destinationAddressPrefix": "*"}}
]}}
"""

CFN_JSON = """{"Resources": {
 "Deny": {"Type": "AWS::EC2::NetworkAclEntry", "Properties": {"NetworkAclId": {"Ref": "Acl"}, "RuleNumber": 100,
   "Protocol": -1, "RuleAction": "deny", "Egress": false, "CidrBlock": "10.0.48.0/25"}},
 "Allow": {"Type": "AWS::EC2::NetworkAclEntry", "Properties": {"NetworkAclId": {"Ref": "Acl"}, "RuleNumber": 200,
   "Protocol": -1, "RuleAction": "allow", "Egress": false, "CidrBlock": "10.0.48.0/24"}}}}
"""


@pytest.mark.parametrize("text", [AWS, INLINE, AZURE, GCP, CFN, ARM, CFN_JSON])
def test_a_deny_numbered_before_the_allow_of_the_whole_refuses_a_shrink(text: str) -> None:
    assert _refused("10.0.48.0/24", "10.0.48.0/25", text) == ["10.0.48.0/25"]
    assert _refused("10.0.48.0/24", "10.0.60.0/25", text) == ["10.0.48.0/25"]  # lands there by offset
    assert _refused("10.0.48.0/24", "10.0.48.0/22", text) == []  # a grow keeps it a part
    assert _refused("10.0.48.0/24", "10.0.48.0/25", text.replace("10.0.48.0/25", "10.0.48.0/26")) == []
    written = text.replace("10.0.48.0/24", "10.0.48.0/25")  # a file main's sweep wrote
    assert _refused("10.0.48.0/24", "10.0.48.0/25", written) == ["10.0.48.0/25"]


def test_other_lengths_and_ipv6() -> None:
    shrink = AWS.replace("10.0.48.0/25", "10.0.48.0/24").replace('"10.0.48.0/24"\n}\n', '"10.0.48.0/23"\n}\n', 1)
    shrink = AWS.replace("10.0.48.0/24", "10.0.48.0/23").replace("10.0.48.0/25", "10.0.48.0/24")
    assert _refused("10.0.48.0/23", "10.0.48.0/24", shrink) == ["10.0.48.0/24"]
    v6 = AWS.replace("cidr_block     = \"10.0.48.0/25\"", "ipv6_cidr_block = \"2001:db8:a::/56\"")
    v6 = v6.replace("cidr_block     = \"10.0.48.0/24\"", "ipv6_cidr_block = \"2001:db8:a::/48\"")
    assert _refused("2001:db8:a::/48", "2001:db8:a::/56", v6) == ["2001:db8:a::/56"]
    assert _refused("2001:db8:a::/48", "2001:db8::/44", v6) == []
    grow = v6.replace("2001:db8:a::/56", "2001:db8:a:b::/66").replace("2001:db8:a::/48", "2001:db8:a:b::/64")
    assert _refused("2001:db8:a:b::/64", "2001:db8:a:b0::/60", grow) == []


@pytest.mark.parametrize("text", [
    AWS.replace("rule_number    = 100", "rule_number    = 300"),  # the allow first: a dead deny
    AWS.replace("aws_network_acl.lan.id\n  rule_number    = 200", "aws_network_acl.dmz.id\n  rule_number    = 200"),
    AWS.replace("egress         = false\n  protocol       = \"-1\"\n  rule_action    = \"allow\"",
                "egress         = true\n  protocol       = \"-1\"\n  rule_action    = \"allow\""),  # outbound
    INLINE.replace('protocol   = "-1"', 'protocol   = "udp"'),  # a deny of another protocol
    AZURE.replace('destination_port_range     = "*"', 'destination_port_range     = "3389"'),  # one port
    AZURE.replace('"Inbound"\n    access                     = "Allow"', '"Outbound"\n    access = "Allow"'),
    GCP.replace("priority      = 900", "priority      = 1100"),
    CFN.replace("RuleNumber: 100", "RuleNumber: 300"),
])
def test_no_exclusion_of_the_network_is_none(text: str) -> None:
    assert _refused("10.0.48.0/24", "10.0.48.0/25", text) == []
