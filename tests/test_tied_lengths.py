"""tied_lengths.py's rules on text (t32-33 findings 06, 17, 18): which length pairs with which pool
(the innermost entry around it that names one), refused or a residual, and what is no hit."""

from __future__ import annotations

import ipaddress

import pytest

from renamer.prefix_moves import PrefixMove
from renamer.tied_lengths import TIED, TOOL, tied_hits


def _hits(moves: dict[str, str], text: str) -> list[tuple[str, str | None]]:
    resized = [PrefixMove(ipaddress.ip_network(a), ipaddress.ip_network(b)) for a, b in moves.items()]
    return [(h.old, h.refused) for h in tied_hits(text.encode(), resized)]


SHRINK = {"10.0.48.0/20": "10.0.48.0/27"}
FEWER = {"10.0.48.0/20": "10.0.48.0/22"}


@pytest.mark.parametrize("text", [
    '{"default-address-pools": [{"base": "10.0.48.0/20", "size": 24}]}',  # one line of JSON
    '{"default-address-pools": [{"size": 24, "base": "10.0.48.0/20"}]}',  # the length first
    "pools:\n  - base: 10.0.48.0/20\n    size: 24\n",  # a YAML list item
    "pools:\n- size: '24'\n  base: '10.0.48.0/20'\n",  # indentless, quoted
    "dockerd --default-address-pool base=10.0.48.0/20,size=24\n",
    "docker swarm init --default-addr-pool 10.0.48.0/20 --default-addr-pool-mask-length=24\n",
    "vpc = Vpc(cidr_block='10.0.48.0/20',\n    subnets=[Spec(cidr_mask=24)])\n",
])
def test_a_length_beside_its_pool(text: str) -> None:
    assert _hits(SHRINK, text) == [("24", TOOL)]
    assert _hits(FEWER, text) == [("10.0.48.0/20", TIED)]
    assert _hits({"10.0.48.0/20": "10.0.32.0/19"}, text) == []  # a grow: more units, no word


@pytest.mark.parametrize("text", [
    # the length is another entry's: its own base is no moved network
    '[{"base": "10.0.48.0/20"}, {"base": "10.9.0.0/16", "size": 24}]',
    "a:\n  - base: 10.9.0.0/16\n    size: 24\nb:\n  - base: 10.0.48.0/20\n",
    "size 24 base 10.0.48.0/20\n",  # no key: prose
    "block_size: 24\nbase: 10.0.48.0/20\n",  # another key
    '{"base": "10.0.48.0/20", "size": 16}',  # already shorter than its pool: not a unit's length
    "pools:\n  - base: 10.0.48.0/20\n    # size: 24\n",  # commented out
])
def test_no_hit(text: str) -> None:
    assert _hits(SHRINK, text) == []


def test_after_the_sweep_and_ipv6() -> None:
    written = '{"base": "10.0.48.0/27", "size": 24}'
    assert _hits(SHRINK, written) == [("24", TOOL)]  # verify on a file written by hand
    v6 = '{"base": "2001:db8:a::/48", "size": 64}'
    assert _hits({"2001:db8:a::/48": "2001:db8:a::/60"}, v6) == [("2001:db8:a::/48", TIED)]
    assert _hits({"2001:db8:a::/48": "2001:db8:a::/66"}, v6) == [("64", TOOL)]


# t33-33 findings 01 and 04: netlab pools, OpenStack subnet pools, Cilium multi-pool, AWS IPAM

IPAM_TF = ('resource "aws_vpc_ipam_pool" "lan" {\n  address_family = "ipv4"\n'
           '  allocation_default_netmask_length = 24\n}\n'
           'resource "aws_vpc_ipam_pool_cidr" "lan" {\n  ipam_pool_id = aws_vpc_ipam_pool.lan.id\n'
           '  cidr         = "10.0.48.0/20"\n}\n')


@pytest.mark.parametrize("text", [
    "addressing:\n  lan:\n    ipv4: 10.0.48.0/20\n    prefix: 24\n",  # netlab
    "addressing:\n  lan:\n    prefix: 24\n    ipv6: 2001:db8::/48\n    ipv4: 10.0.48.0/20\n",  # netlab, dual stack
    'resource "openstack_networking_subnetpool_v2" "lan" {\n  prefixes = ["10.0.48.0/20"]\n'
    '  default_prefixlen = 24\n}\n',
    "openstack subnet pool create --pool-prefix 10.0.48.0/20 --min-prefix-length 24 lan\n",
    "spec:\n  ipv4:\n    cidrs:\n      - 10.0.48.0/20\n    maskSize: 24\n",  # Cilium's CiliumPodIPPool
    "spec:\n  ipv4:\n    cidrs: [\"10.0.48.0/20\"]\n    maskSize: 24\n",
    IPAM_TF,  # the length in the pool, its CIDR in the aws_vpc_ipam_pool_cidr that names it
    "Properties:\n  AllocationMinNetmaskLength: 24\n  ProvisionedCidrs:\n    - Cidr: 10.0.48.0/20\n",  # CloudFormation
])
def test_other_allocators_lengths(text: str) -> None:
    assert _hits(SHRINK, text) == [("24", TOOL)]
    assert _hits(FEWER, text) == [("10.0.48.0/20", TIED)]
    assert _hits({"10.0.48.0/20": "10.0.32.0/19"}, text) == []


@pytest.mark.parametrize("text", [
    "addressing:\n  lan:\n    ipv4: 10.0.48.0/20\n    prefix6: 24\n",  # prefix6 is the IPv6 pool's length
    "links:\n  - prefix: 10.0.48.0/20\n",  # netlab's static link prefix: a network, no length
    'resource "aws_vpc_ipam_pool" "wan" {\n  allocation_default_netmask_length = 24\n}\n'
    'resource "aws_vpc_ipam_pool_cidr" "lan" {\n  ipam_pool_id = aws_vpc_ipam_pool.lan.id\n'
    '  cidr = "10.0.48.0/20"\n}\n',  # another pool's CIDR
    "spec:\n  ipv4:\n    cidrs:\n      - 10.9.0.0/16\n    maskSize: 24\n  b:\n    cidrs:\n      - 10.0.48.0/20\n",
])
def test_other_allocators_no_hit(text: str) -> None:
    assert _hits(SHRINK, text) == []


def test_other_allocators_ipv6() -> None:
    netlab = "addressing:\n  lan:\n    ipv4: 10.9.0.0/16\n    ipv6: 2001:db8:a::/48\n    prefix6: 56\n"
    assert _hits({"2001:db8:a::/48": "2001:db8:a::/60"}, netlab) == [("56", TOOL)]
    assert _hits({"2001:db8:a::/48": "2001:db8:a::/52"}, netlab) == [("2001:db8:a::/48", TIED)]
    cilium = "ipv6:\n  cidrs:\n    - 2001:db8:a::/56\n  maskSize: 64\n"
    assert _hits({"2001:db8:a::/56": "2001:db8:a::/66"}, cilium) == [("64", TOOL)]
    assert _hits({"2001:db8:a::/56": "2001:db8:a::/60"}, cilium) == [("2001:db8:a::/56", TIED)]


def test_a_shrink_leaving_plenty_is_no_residual() -> None:
    """netlab's IPv6 loopback pool (tests/integration/bgp/defaults-ipv6.yml): `prefix6: 128` beside a
    /48 made a /56 still holds 2 ** 72 loopbacks; a /24 pool of /64s made a /40 holds 2 ** 24: no word.
    Half that (2 ** 23, a /41) is a residual."""
    loopback = "addressing:\n  loopback:\n    ipv6: 2001:db8:1::/48\n    prefix6: 128\n"
    assert _hits({"2001:db8:1::/48": "2001:db8:1::/56"}, loopback) == []
    pool = '{"base": "2001:d00::/24", "size": 64}'
    assert _hits({"2001:d00::/24": "2001:d00::/40"}, pool) == []
    assert _hits({"2001:d00::/24": "2001:d00::/41"}, pool) == [("2001:d00::/24", TIED)]
