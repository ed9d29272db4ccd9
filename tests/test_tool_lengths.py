"""tool_lengths.py on text (t33-33 finding 07): lengths the consuming tool refuses outright."""

from __future__ import annotations

import ipaddress

import pytest

from renamer.prefix_moves import PrefixMove
from renamer.tool_lengths import LIMITS, TOOL, limit_hits


def _hits(old: str, new: str, text: str) -> list[tuple[str, str | None]]:
    move = PrefixMove(ipaddress.ip_network(old), ipaddress.ip_network(new))
    return [(h.old, h.refused) for h in limit_hits(text.encode(), [move])]


def test_every_row_cites_its_rule_and_its_range_is_sane() -> None:
    for row in LIMITS:
        width = 32 if row.family == 4 else 128
        assert 0 <= row.shortest <= row.longest <= width, row
        assert row.tool.split()[-1] in row.rule, row


@pytest.mark.parametrize(("text", "old", "new"), [
    ("networking:\n  serviceSubnet: 10.96.0.0/16\n", "10.96.0.0/16", "10.96.0.0/11"),
    ("service-cidr: 10.96.0.0/16,fd00:10:96::/112\n", "fd00:10:96::/112", "fd00:10:96::/100"),
    ("    - --service-cluster-ip-range=10.96.0.0/16\n", "10.96.0.0/16", "10.96.0.0/11"),
    ("serviceSubnets:\n  - 10.96.0.0/16\n", "10.96.0.0/16", "10.96.0.0/11"),
    ("kubeadm init --service-cidr 10.96.0.0/16 --pod-network-cidr 10.244.0.0/16\n", "10.96.0.0/16",
     "10.96.0.0/11"),  # Talos: a list under the key
    ('resource "aws_vpc" "m" {\n  cidr_block = "10.0.0.0/16"\n}\n', "10.0.0.0/16", "10.0.0.0/15"),
    ('resource "aws_subnet" "s" {\n  cidr_block = "10.0.0.0/28"\n}\n', "10.0.0.0/28", "10.0.0.0/29"),
    ('{"Resources": {"V": {"Type": "AWS::EC2::VPC", "Properties": {"CidrBlock": "10.0.0.0/16"}}}}\n',
     "10.0.0.0/16", "10.0.0.0/12"),
    ('module "vpc" {\n  source = "terraform-aws-modules/vpc/aws"\n  cidr   = "10.0.0.0/16"\n}\n', "10.0.0.0/16",
     "10.0.0.0/14"),
    ('module "vpc" {\n  source  = "terraform-aws-modules/vpc/aws"\n  private_subnets = ["10.0.1.0/28"]\n}\n',
     "10.0.1.0/28", "10.0.1.0/29"),
    ('resource "azurerm_subnet" "s" {\n  address_prefixes = ["10.0.1.0/29"]\n}\n', "10.0.1.0/29", "10.0.1.0/30"),
    ('resource "aws_eks_cluster" "c" {\n  kubernetes_network_config {\n    service_ipv4_cidr = "172.20.0.0/16"\n'
     '  }\n}\n', "172.20.0.0/16", "172.20.0.0/25"),
])
def test_a_new_length_the_tool_refuses(text: str, old: str, new: str) -> None:
    assert _hits(old, new, text) == [(old, TOOL)]
    written = text.replace(old, new)
    assert _hits(old, new, written) == [(new, TOOL)]  # verify: the written file


def test_a_new_length_the_tool_accepts_or_another_key() -> None:
    assert _hits("10.96.0.0/16", "10.96.0.0/12", "serviceSubnet: 10.96.0.0/16\n") == []
    assert _hits("10.0.0.0/20", "10.0.0.0/16", 'resource "aws_vpc" "m" {\n  cidr_block = "10.0.0.0/20"\n}\n') == []
    # a security group's cidr_blocks, a route, a GCP subnetwork: no such limit here
    sg = 'resource "aws_security_group" "g" {\n  ingress {\n    cidr_blocks = ["10.0.0.0/16"]\n  }\n}\n'
    assert _hits("10.0.0.0/16", "10.0.0.0/14", sg) == []
    assert _hits("10.0.0.0/16", "10.0.0.0/14", "podSubnet: 10.0.0.0/16\n") == []
    # a flag's value ends at its blank: the pod network after it is no service CIDR
    flags = "kubeadm init --service-cidr 10.96.0.0/16 --pod-network-cidr 10.244.0.0/16\n"
    assert _hits("10.244.0.0/16", "10.240.0.0/12", flags) == []
    # another module's `cidr`
    other = 'module "net" {\n  source = "./modules/net"\n  cidr   = "10.0.0.0/16"\n}\n'
    assert _hits("10.0.0.0/16", "10.0.0.0/14", other) == []
    # `cidr_block` outside an aws_vpc/aws_subnet block
    assert _hits("10.0.0.0/16", "10.0.0.0/14", 'locals {\n  cidr_block = "10.0.0.0/16"\n}\n') == []


@pytest.mark.parametrize(("text", "old", "new"), [
    ("services:\n  kube-api:\n    service_cluster_ip_range: 10.96.0.0/16\n", "10.96.0.0/16", "10.96.0.0/11"),
    ("networking:\n  serviceNetwork:\n  - 10.96.0.0/16\n", "10.96.0.0/16", "10.96.0.0/11"),
    ("apiVersion: cluster.x-k8s.io/v1beta1\nspec:\n  clusterNetwork:\n    services:\n      cidrBlocks: "
     "[\"10.96.0.0/16\"]\n", "10.96.0.0/16", "10.96.0.0/11"),
    ("apiVersion: eksctl.io/v1alpha5\nvpc:\n  cidr: 10.10.0.0/16\n", "10.10.0.0/16", "10.10.0.0/15"),
    ('resource "google_container_cluster" "c" {\n  master_ipv4_cidr_block = "172.16.0.0/28"\n}\n',
     "172.16.0.0/28", "172.16.0.0/29"),
    ('vpc = aws.ec2.Vpc("v",\n    cidr_block="10.10.0.0/16")\n', "10.10.0.0/16", "10.10.0.0/15"),
    ("ipAddresses: ec2.IpAddresses.cidr('10.10.0.0/16'),\n", "10.10.0.0/16", "10.10.0.0/15"),
    ("aws ec2 create-subnet --vpc-id v \\\n  --cidr-block 10.10.1.0/28\n", "10.10.1.0/28", "10.10.1.0/29"),
    ("resource s 'Microsoft.Network/virtualNetworks/subnets@2023-04-01' = {\n  properties: {\n"
     "    addressPrefix: '10.0.3.0/29'\n  }\n}\n", "10.0.3.0/29", "10.0.3.0/30"),
    ('{"subnets": [\n  {"name": "AzureBastionSubnet",\n   "properties": {"addressPrefix": "10.0.2.0/26"}}\n]}\n',
     "10.0.2.0/26", "10.0.2.0/27"),
    ("- azure_rm_subnet:\n    name: RouteServerSubnet\n    address_prefix_cidr: 10.0.4.0/27\n", "10.0.4.0/27",
     "10.0.4.0/28"),
    ('resource "azurerm_subnet" "s" {\n  address_prefixes = [\n    "10.0.3.0/29",\n  ]\n}\n', "10.0.3.0/29",
     "10.0.3.0/30"),
])
def test_round7_a_length_the_tool_refuses_under_a_new_key(text: str, old: str, new: str) -> None:
    assert _hits(old, new, text) == [(old, TOOL)]
    assert _hits(old, new, text.replace(old, new)) == [(new, TOOL)]


def test_round7_the_same_keys_where_no_rule_holds() -> None:
    acl = "aws ec2 create-network-acl-entry --cidr-block 10.10.0.0/16 --rule-number 1\n"
    assert _hits("10.10.0.0/16", "10.10.0.0/15", acl) == []
    assert _hits("10.10.0.0/16", "10.10.0.0/15", "lab:\n  cidr: 10.10.0.0/16\n") == []  # no VPC, no eksctl
    assert _hits("10.10.0.0/16", "10.10.0.0/15", "vpc:\n  cidr: 10.10.0.0/16\n") == []  # a `vpc:` not eksctl's
    # a subnet named otherwise keeps the general /29 floor only; a firewall's grown stays valid
    app = '{"subnets": [{"name": "app", "properties": {"addressPrefix": "10.0.1.0/26"}}]}\n'
    assert _hits("10.0.1.0/26", "10.0.1.0/27", app) == []
    fw = app.replace('"app"', '"AzureFirewallSubnet"')
    assert _hits("10.0.1.0/26", "10.0.0.0/25", fw) == []
    assert _hits("10.0.1.0/26", "10.0.1.0/27", fw) == [("10.0.1.0/26", TOOL)]
