"""interface_keys: the length and gateway an interface's own address has in separate keys of its
entry (NixOS, ifcfg, ifupdown, PowerShell, networkd, NetworkManager; t32 round 25, findings 16 and
17), and host_roles' refusal built on them (pure logic; the sweep end to end is
tests/cli/test_interface_keys.py's)."""

from __future__ import annotations

import pytest

from renamer.host_roles import NO_HOST, parsed, refused
from renamer.interface_keys import gateways_of, length_of
from renamer.occurrences import Match


def _match(data: bytes, old: str, new: str, nth: int = 0) -> Match:
    at = -1
    for _ in range(nth + 1):
        at = data.index(old.encode(), at + 1)
    return Match(at, at + len(old), old, new, "address")


def _refused(text: str, old: str, new: str) -> list[str | None]:
    data = text.encode("latin-1")
    out, at = [], data.find(old.encode())
    while at >= 0:
        out.append(Match(at, at + len(old), old, new, "address"))
        at = data.find(old.encode(), at + 1)
    return [m.refused for m in refused(data, out, parsed([old]))]


@pytest.mark.parametrize(("text", "length"), [
    ('{ address = "10.0.0.70"; prefixLength = 24; }\n', 24),
    ('[ {\n  address = "10.0.0.70";\n  prefixLength = 25;\n} ]\n', 25),
    ("DEVICE=eth0\nIPADDR=10.0.0.70\nPREFIX=24\n", 24),
    ("IPADDR1='10.0.0.70'\nNETMASK1='255.255.254.0'\nPREFIX0=24\n", 23),  # the same index
    ("iface eth0 inet static\r\n    address 10.0.0.70\r\n    netmask 255.255.255.0\r\n", 24),
    ("iface eth0 inet static\n  address 10.0.0.70\n  netmask 24\n", 24),
    ("New-NetIPAddress -InterfaceAlias Ethernet -IPAddress 10.0.0.70 -PrefixLength 24\r\n", 24),
])
def test_the_length_in_a_key_of_its_own(text: str, length: int) -> None:
    data = text.encode()
    found = length_of(data, _match(data, "10.0.0.70", "10.0.1.255"))
    assert found is not None and found[0] == length


@pytest.mark.parametrize("text", [
    "DNS1=10.0.0.70\nPREFIX=24\n",  # a DNS server is no own address
    "iface eth0 inet static\n  address 10.0.0.70\niface eth1 inet static\n  netmask 255.255.255.0\n",
    '{ address = "10.0.0.70"; } { prefixLength = 24; }\n',  # another entry's length
    "IPADDR1=10.0.0.70\nPREFIX0=24\n",  # another index's
])
def test_no_length_where_it_belongs_to_something_else(text: str) -> None:
    data = text.encode()
    assert length_of(data, _match(data, "10.0.0.70", "10.0.1.255")) is None


@pytest.mark.parametrize(("text", "line"), [
    ('{ networking.defaultGateway = "10.0.1.1"; x = { address = "10.0.0.70"; }; }\n', 1),
    ('networking.defaultGateway = { address = "10.0.1.1"; interface = "ens18"; };\n'
     'networking.interfaces.ens18.ipv4.addresses = [ { address = "10.0.0.70"; prefixLength = 24; } ];\n', 1),
    ("IPADDR=10.0.0.70\nGATEWAY=10.0.1.1\n", 2),
    ('ipv4 = {\n  address = "10.0.0.70";\n  prefixLength = 24;\n  gateway = "10.0.1.1";\n};\n', 4),  # a module's entry
    ("[Network]\nAddress=10.0.0.70/24\nGateway=10.0.1.1\n", 3),  # systemd-networkd
    ("[ipv4]\naddress1=10.0.0.70/24\ngateway=10.0.1.1\n", 3),  # a NetworkManager keyfile
    ("iface eth0 inet static\n  address 10.0.0.70\n  gateway 10.0.1.1\n", 3),
    ("New-NetIPAddress -IPAddress 10.0.0.70 -PrefixLength 24 -DefaultGateway 10.0.1.1\n", 1),
])
def test_the_gateway_beside_an_own_address(text: str, line: int) -> None:
    data = text.encode()
    m = _match(data, "10.0.0.70", "10.0.1.1")
    assert ("10.0.1.1", line, "10.0.1.1") in gateways_of(data, m, [m])
    assert _refused(text, "10.0.0.70", "10.0.1.1")[0] == NO_HOST


def test_a_gateway_this_sweep_renames_is_read_after_its_rewrite() -> None:
    data = b"IPADDR=10.0.0.70\nGATEWAY=10.0.0.1\n"
    own, gateway = _match(data, "10.0.0.70", "10.0.1.1"), _match(data, "10.0.0.1", "10.0.1.1")
    assert gateways_of(data, own, [own, gateway]) == [("10.0.1.1", 2, "10.0.0.1")]
    found = refused(data, [own, gateway], parsed(["10.0.0.70", "10.0.0.1"]))
    assert found[0].refused == NO_HOST and "gateway written beside it (line 2)" in (found[0].note or "")


@pytest.mark.parametrize(("text", "old", "new"), [
    ("DNS1=10.0.0.70\nGATEWAY=10.0.1.1\n", "10.0.0.70", "10.0.1.1"),  # the DNS server may be the router
    ("iface eth0 inet static\n  address 10.0.0.70\niface eth1 inet static\n  gateway 10.0.1.1\n",
     "10.0.0.70", "10.0.1.1"),  # another stanza's gateway
    ("IPADDR=10.0.0.70\nPREFIX=16\n", "10.0.0.70", "10.0.1.255"),  # a host of the /16
    ("IPADDR=10.0.0.70\nPREFIX=24\nGATEWAY=10.0.1.1\n# caf\xe9\n", "10.0.0.70", "10.0.1.70"),  # Latin-1
    ("{ address = \"10.0.0.70\"; prefixLength = 31; }\n", "10.0.0.70", "10.0.1.1"),  # /31: a host
])
def test_a_host_place_stays_rewritable(text: str, old: str, new: str) -> None:
    assert _refused(text, old, new) == [None]


@pytest.mark.parametrize(("text", "new"), [
    ('{ address = "10.0.0.70"; prefixLength = 24; }\n', "10.0.1.255"),
    ("IPADDR=10.0.0.70\r\nNETMASK=255.255.255.0\r\n", "10.0.2.0"),
    ("auto eth0\niface eth0 inet static\n    address 10.0.0.70\n    netmask 255.255.255.0\n", "10.0.1.255"),
    ("\ufeffNew-NetIPAddress -IPAddress 10.0.0.70 -PrefixLength 25\r\n", "10.0.1.127"),
])
def test_a_broadcast_or_network_address_at_a_separate_length_is_refused(text: str, new: str) -> None:
    data = text.encode("utf-8")
    m = _match(data, "10.0.0.70", new)
    assert [x.refused for x in refused(data, [m], parsed(["10.0.0.70"]))] == [NO_HOST]


@pytest.mark.parametrize("text", [
    '{ interfaces.eno1.ipv4.addresses = [ { address = "10.0.0.70"; prefixLength = 24; } ];\n'
    '  defaultGateway = "10.0.0.1"; }\n',
    "IPADDR=10.0.0.70\nNETMASK=255.255.255.0\nGATEWAY=10.0.0.1\n",
    "New-NetIPAddress -IPAddress 10.0.0.70 -PrefixLength 24 -DefaultGateway 10.0.0.1\r\n",
])
def test_an_own_address_leaving_its_gateways_network_is_a_gateway_residual(text: str) -> None:
    data = text.encode()
    m = _match(data, "10.0.0.70", "10.0.5.70")
    [found] = refused(data, [m], parsed(["10.0.0.70"]))
    assert found.refused == "gateway" and "gateway 10.0.0.1 would be outside 10.0.5.0/24" in (found.note or "")
    # the gateway renamed into the new network with it: no residual
    gateway = _match(data, "10.0.0.1", "10.0.5.1")
    assert [x.refused for x in refused(data, [m, gateway], parsed(["10.0.0.70", "10.0.0.1"]))] == [None, None]
