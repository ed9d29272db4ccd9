"""access_nets.AccessNets: the first pass's question for an access rule around a renamed address
(pure logic; the CLI cases are tests/cli/test_access_sets.py)."""

from __future__ import annotations

import ipaddress
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from renamer.access_nets import ACCESS, NET, AccessNets, may_name_access, network_of


def test_every_network_literal_holding_a_renamed_address_begins_with_a_literal() -> None:
    """The gate's soundness: for every prefix length and spelling (network address, the old address
    as host bits, dotted mask), a literal the network would no longer admit begins with one of
    the literals the first pass asks for."""
    nets = AccessNets([("172.16.5.70", "192.168.9.70")])
    old = ipaddress.IPv4Address("172.16.5.70")
    for length in range(8, 32):
        net = ipaddress.IPv4Network(f"{old}/{length}", strict=False)
        spellings = [f"{net.network_address}/{length}", f"{net.network_address}/{net.netmask}",
                     f"{old}/{length}", f"{old}/{net.netmask}"]
        for text in spellings:
            assert any(text.encode().startswith(lit) for lit in nets.literals), text
            assert nets.might_hold(f"allow {text};\n".encode()), text


@pytest.mark.parametrize("text", [
    b"allow 10.0.0.0/22;\n",  # holds the new address too: admits the host as before
    b"address 10.0.0.64/29\n",  # no access rule
    b"allow 10.0.5.0/24;\n",  # does not hold it
    b"allow 10.0.0.70;\n",  # a single address: the exact rules' own
    b"allow 10.0.0.64/32;\n",
])
def test_what_no_rule_around_a_renamed_address_is_left(text: bytes) -> None:
    assert not AccessNets([("10.0.0.70", "10.0.2.70")]).might_hold(text)


def test_the_literals_are_few_and_ipv6_renames_have_none() -> None:
    nets = AccessNets([("10.0.0.70", "10.0.2.70"), ("fd00::5", "fd00::6")])
    # the networks holding 10.0.0.70 and not 10.0.2.70 (/23 to /31), the old address itself, and
    # every address of the widest /24-or-narrower of them (host bits set to another address, g31)
    slashed = [lit for lit in nets.literals if lit.endswith(b"/")]
    assert set(slashed) == {b"10.0.0.0/", b"10.0.0.64/", b"10.0.0.68/", b"10.0.0.70/"} | {
        b"10.0.0.%d/" % i for i in range(256)}
    assert len(slashed) == 256
    # and each network address, the old address, with a blank: a mask apart (t32 round 25, finding 03)
    assert set(nets.spaced) == {b"10.0.0.0 ", b"10.0.0.64 ", b"10.0.0.68 ", b"10.0.0.70 "}
    assert len(nets.literals) == 260
    found = NET.search(b"hosts allow = 10.0.0.64/255.255.255.248\n")
    assert found is not None and str(network_of(found)) == "10.0.0.64/29"


def test_g31_host_bits_set_to_any_other_address_of_a_narrow_network_begin_with_a_literal() -> None:
    """`allow 10.0.0.66/29;`: for every /24 to /31 holding the renamed address and not its new one,
    every address of it with the length or the mask is asked for (and only those: a /25 whose new
    address lies in the other half gives 128)."""
    nets = AccessNets([("172.16.5.70", "192.168.9.70")])
    for length in range(24, 32):
        net = ipaddress.IPv4Network(f"172.16.5.70/{length}", strict=False)
        for host in (net.network_address + i for i in range(net.num_addresses)):
            for text in (f"{host}/{length}", f"{host}/{net.netmask}"):
                assert nets.might_hold(f"allow {text};\n".encode()), text
    half = AccessNets([("10.0.0.70", "10.0.0.200")])  # the /24 holds both: the /25 is the widest
    assert len([lit for lit in half.literals if lit.startswith(b"10.0.0.") and lit.endswith(b"/")]) == 128
    assert half.might_hold(b"allow 10.0.0.1/25;\n") and not half.might_hold(b"allow 10.0.0.129/25;\n")
    assert not nets.might_hold(b"allow 172.16.6.1/24;\n")  # another network


@settings(max_examples=2000)
@given(st.from_regex(re.compile(ACCESS.pattern, ACCESS.flags), fullmatch=True))  # a real pattern: ACCESS is lazy
def test_the_cheap_word_test_never_turns_away_an_access_rule(text: bytes) -> None:
    """may_name_access is asked before ACCESS (issue 30): it must hold wherever ACCESS matches.
    (Dropping `cidr` from its words fails this on ~300 of 3,000 drawn texts.)"""
    assert ACCESS.search(text) is not None
    assert may_name_access(text), text


@pytest.mark.parametrize("line", [b"ALLOW FROM ", b"  Require not ip ", b"iptables -A INPUT -S ",
                                  b"token_bound_cidrs = [", b"  - fromCIDRSet:", b"match Address "])
def test_access_words_in_any_case_pass_the_cheap_test(line: bytes) -> None:
    assert ACCESS.search(line) is not None and may_name_access(line)


def test_a_line_with_no_access_word_fails_the_cheap_test() -> None:
    assert not may_name_access(b"  ip: 10.0.0.70/24   # the lab's gateway\n")


@pytest.mark.parametrize("line", [b'@ IN TXT "v=spf1 ip4:', b'content = "v=spf1 mx +ip4:', b'"v=spf1 ~ip4:',
                                  b'"v=spf1 ip6:2001:db8::/32 ip4:', b"v=spf1 -IP4:"])
def test_spf_networks_are_access_rules(line: bytes) -> None:
    """t36 finding 03: SPF's `ip4:`/`ip6:` mechanisms say which addresses may send the domain's mail."""
    data = line + b"10.0.0.64/28 -all\"\n"
    from renamer.access_nets import in_access_rule
    assert in_access_rule(data, len(line))
    assert AccessNets([("10.0.0.70", "10.0.1.90")]).might_hold(data)


def test_words_that_end_in_ip4_are_no_spf_mechanism() -> None:
    from renamer.access_nets import in_access_rule
    for line in (b"  vip4: ", b"  ip: ", b"  mgmt_ip4: ", b"fe80::ip4:"):
        assert not in_access_rule(line + b"10.0.0.64/28\n", len(line)), line
