"""Addresses computed from a literal network and a number: each dress, evaluated as its tool does."""

from __future__ import annotations

import pytest

from renamer.computed_addresses import computed, literals, python_networks


@pytest.mark.parametrize(("text", "address"), [
    pytest.param('cidrhost("10.0.40.0/24", 11)', "10.0.40.11", id="cidrhost"),
    pytest.param('cidrhost("10.0.40.0/28", -5)', "10.0.40.11", id="cidrhost-from-the-end"),
    pytest.param('cidrhost("10.0.40.7/24", 11)', "10.0.40.11", id="cidrhost-host-address-prefix"),
    pytest.param("'10.0.40.0/24' | ansible.utils.nthhost(11)", "10.0.40.11", id="nthhost"),
    pytest.param("'10.0.40.0/24' | ipaddr('11')", "10.0.40.11", id="ipaddr-quoted-number"),
    pytest.param("'10.0.40.1' | ansible.utils.ipmath(10)", "10.0.40.11", id="ipmath"),
    pytest.param('ipaddress.ip_network("10.0.40.0/24", strict=False)[11]', "10.0.40.11", id="python-network"),
    pytest.param('IPv4Address("10.0.40.1") + 10', "10.0.40.11", id="python-address-plus"),
    pytest.param("printf -v ip '10.0.40.%d' 11", "10.0.40.11", id="printf-v"),
    pytest.param('format("host 10.0.40.%03d", 11)', "10.0.40.11", id="hcl-format-padded"),
    pytest.param("'10.0.40.%d' % (11,)", "10.0.40.11", id="python-percent"),
    pytest.param('cidrhost(cidrsubnet("10.0.0.0/16", 8, 40), 11)', "10.0.40.11", id="cidrhost-of-cidrsubnet"),
    pytest.param('cidrhost("10.0.40.0/24", var.n)', None, id="unknown-number"),
    # break-it round 9, finding 9
    pytest.param('ip_network("10.0.40.0/24").network_address + 11', "10.0.40.11", id="python-network-address"),
    pytest.param('list(ipaddress.ip_network("10.0.40.0/28").hosts())[10]', "10.0.40.11", id="python-hosts"),
    pytest.param('"10.0.40.{}".format(11)', "10.0.40.11", id="python-brace-format"),
    pytest.param('"%s.%d" % ("10.0.40", 11)', "10.0.40.11", id="python-prefix-and-number"),
])
def test_each_dress_is_evaluated(text: str, address: str | None) -> None:
    found = list(computed(text.encode()))
    assert [c.address for c in found] == [address]


@pytest.mark.parametrize("text", [
    pytest.param('cidrhost("10.0.40.0/28", 16)', id="out-of-range"),
    pytest.param('cidrhost(var.net, 11)', id="network-not-a-literal"),
    pytest.param("printf '10.0.40.%d.%d' 1 2", id="directive-not-the-last-octet"),
    pytest.param("printf '10.0.40.%d' $N", id="format-number-not-a-literal"),
    pytest.param("printf '10.0.40.%d' 300", id="no-address"),
])
def test_no_address(text: str) -> None:
    assert [c.address for c in computed(text.encode()) if c.address is not None] == []


def test_prefilter_words() -> None:
    assert b"10.0.40.%" in literals(["10.0.40.11", "fd00::1"]) and b"cidrhost" in literals([])


def test_a_name_is_evaluated_through_what_it_resolves_to() -> None:
    """`cidrhost(var.net, 11)` and Python's `NET[11]`: the network a name stands for, from the
    caller's resolver; a name it does not know is left alone (break-it round 9, finding 9)."""
    names = {"var.net": ("10.0.40.0/24", "`var.net` at main.tf:1"), "NET": ("10.0.40.0/28", "`NET` at x.py:1")}
    text = (b"a = cidrhost(var.net, 11)\nb = cidrhost(var.other, 11)\nc = NET[11]\nd = list(NET.hosts())[10]\n"
            b"e = NET.network_address + 11\nf = cidrhost(cidrsubnet(var.net, 4, 0), 11)\ng = cidrhost(var.net, i)\n")
    found = list(computed(text, names.get))
    assert [(c.text, c.address, c.via) for c in found] == [
        ("cidrhost(var.net, 11)", "10.0.40.11", "`var.net` at main.tf:1"),
        ("NET[11]", "10.0.40.11", "`NET` at x.py:1"),
        ("list(NET.hosts())[10]", "10.0.40.11", "`NET` at x.py:1"),
        ("NET.network_address + 11", "10.0.40.11", "`NET` at x.py:1"),
        ("cidrhost(cidrsubnet(var.net, 4, 0), 11)", "10.0.40.11", "`var.net` at main.tf:1"),
        ("cidrhost(var.net, i)", None, "`var.net` at main.tf:1"),
    ]
    assert python_networks(b'import ipaddress\nNET = ipaddress.ip_network("10.0.40.0/24")\n') == {
        "NET": ("10.0.40.0/24", 2)}


def test_sums_of_an_address_and_a_number_t36_33_09() -> None:
    """Node/PHP/Ruby sums, a Python name bound to an address, and a loop variable's last value."""

    data = (b'GW = ip_address("10.0.40.1")\nVIP = GW + 200\nA = ip.fromLong(ip.toLong("10.0.40.1") + 7)\n'
            b"B = long2ip(ip2long('10.0.40.1') + 8)\nC = IPAddr.new(\"10.0.40.1\") + 9\n"
            b'P = [ip_network("10.0.40.0/24").network_address + i for i in range(150, 200)]\n'
            b'for (let k = 3; k <= 12; k++) { q.push(ip.toLong("10.0.40.0") + k) }\nD = OTHER + 5\n')
    found = [(c.text, c.address, c.number) for c in computed(data)]
    assert found == [("GW + 200", "10.0.40.201", "200"), ('toLong("10.0.40.1") + 7', "10.0.40.8", "7"),
                     ("ip2long('10.0.40.1') + 8", "10.0.40.9", "8"), ('IPAddr.new("10.0.40.1") + 9', "10.0.40.10", "9"),
                     ('ip_network("10.0.40.0/24").network_address + i', "10.0.40.199", "i (up to 199)"),
                     ('toLong("10.0.40.0") + k', "10.0.40.12", "k (up to 12)")], found
