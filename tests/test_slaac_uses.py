"""slaac_uses.py, pure logic: which IPv6 /64s SLAAC or EUI-64 uses, by their line or block (t29-33,
findings 09 and 11). End to end: tests/cli/test_prefix_ipv6_t29.py."""

from __future__ import annotations

import pytest

from renamer import slaac_uses

A = "2001:db8:a:10::"


@pytest.mark.parametrize(("text", "said"), [
    pytest.param(f"interface eth1 {{\n  prefix {A}/64 {{\n  }};\n}};\n", "router advertisement", id="radvd"),
    pytest.param(f"set service router-advert interface eth1 prefix {A}/64\n", "router advertisement",
                 id="vyos-router-advert"),
    pytest.param(f"interface Gi0/1\n ipv6 nd prefix {A}/64\n", "router advertisement", id="ios-nd-prefix"),
    pytest.param(f"config prefix\n\toption prefix '{A}/64'\n", "router advertisement", id="openwrt-radvd"),
    pytest.param(f"[Network]\nAddress={A}1/64\n\n[IPv6Prefix]\nPrefix={A}/64\n", "router advertisement",
                 id="networkd-ipv6prefix"),
    pytest.param(f"[IPv6AddressLabel]\nPrefix={A}/64\nLabel=99\n", None, id="networkd-address-label"),
    pytest.param(f"[IPv6PREF64Prefix]\nPrefix={A}/64\n", None, id="networkd-pref64"),
    pytest.param(f"set policy prefix-list6 PL rule 10 prefix {A}/64\n", None, id="vyos-prefix-list-set"),
    pytest.param(f"policy {{\n  prefix-list6 PL {{\n    rule 10 {{\n      prefix {A}/64\n    }}\n  }}\n}}\n",
                 None, id="vyos-prefix-list-block"),
    pytest.param(f"service {{\n  router-advert {{\n    interface eth1 {{\n      prefix {A}/64 {{\n      }}\n"
                 "    }\n  }\n}\n", "router advertisement", id="vyos-router-advert-block"),
    pytest.param(f"set interfaces ge-0/0/1 unit 0 family inet6 address {A}/64 eui-64\n", "EUI-64", id="junos"),
    pytest.param(f"interface Gi0/1\n ipv6 address {A}/64 eui-64\n", "EUI-64", id="ios-eui-64"),
    pytest.param(f"set interfaces ethernet eth1 ipv6 address eui64 {A}/64\n", "EUI-64", id="vyos-eui64"),
    pytest.param(f"/ipv6 address add address={A}/64 eui-64=yes interface=ether3\n", "EUI-64",
                 id="routeros-eui-64"),
    pytest.param(f"/ipv6 address add address={A}1/64 advertise=yes interface=bridge\n", "advertise=yes",
                 id="routeros-advertise"),
    pytest.param(f"/ipv6 address\nadd address={A}1/64 interface=bridge\n", "unless `advertise=no`",
                 id="routeros-export-default"),
    pytest.param(f"/ipv6 address\nadd address={A}1/64 advertise=no interface=bridge\n", None,
                 id="routeros-advertise-no"),
    pytest.param(f"/ipv6 route\nadd dst-address={A}/64 gateway=fe80::1%ether1\n", None, id="routeros-route"),
    pytest.param(f"/ipv6 nd prefix add prefix={A}/64 interface=bridge\n", "router advertisement",
                 id="routeros-nd-prefix"),
    pytest.param(f"dhcp-range={A},ra-only,64,12h\n", "SLAAC mode", id="dnsmasq-ra-only"),
    pytest.param(f"dhcp-range=set:lan,{A},slaac\n", "SLAAC mode", id="dnsmasq-slaac"),
    pytest.param(f"dhcp-range={A}100,{A}1ff,ra-names,64,12h\n", "SLAAC mode", id="dnsmasq-ra-names"),
    pytest.param(f"dhcp-range={A}100,{A}1ff,64,12h\n", None, id="dnsmasq-stateful"),
    pytest.param(f'em0:\\\n\t:addr="{A}":prefixlen#64:\n', "rtadvd", id="rtadvd"),
    pytest.param(f'netsh interface ipv6 add route {A}/64 "LAN" publish=yes\n', "publish=yes", id="netsh-publish"),
    pytest.param(f'netsh interface ipv6 add route {A}/64 "LAN" publish=no\n', None, id="netsh-no-publish"),
    pytest.param(f"[Network]\nAddress={A}1/64\nIPv6SendRA=yes\n", None, id="networkd-address"),
    pytest.param(f"ip -6 addr add {A}1/64 dev eth0\n", None, id="iproute2"),
])
def test_a_64_that_slaac_or_eui64_uses(text: str, said: str | None) -> None:
    data = text.encode()
    start = data.rindex(A.encode())  # the last one: the RA prefix, not the interface address
    why = slaac_uses.slaac_use(data, start)
    assert (why is None) == (said is None), why
    assert said is None or (why is not None and said in why), why
