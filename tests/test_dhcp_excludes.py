"""dhcp_excludes.py on text (outside pass round 7, issue 33): a DHCP pool's exclusions that a shrink
makes cover every host address of the new network."""

from __future__ import annotations

import ipaddress

from renamer.dhcp_excludes import TOOL, dhcp_hits
from renamer.prefix_moves import PrefixMove


def _hits(old: str, new: str, text: str) -> list[tuple[str, str | None]]:
    move = PrefixMove(ipaddress.ip_network(old), ipaddress.ip_network(new))
    return [(h.old, h.refused) for h in dhcp_hits(text.encode(), [move])]


IOS = ("ip dhcp excluded-address 10.0.48.1 10.0.48.100   ! gateways and printers\nip dhcp excluded-address 10.0.48.101 10.0.48.126\n"
       "!\nip dhcp pool LAN\n network 10.0.48.0 255.255.255.0\n!\n")


def test_ios_exclusions_together_cover_the_shrunk_pool() -> None:
    assert _hits("10.0.48.0/24", "10.0.48.0/25", IOS) == [("10.0.48.1 10.0.48.100", TOOL)]
    assert _hits("10.0.48.0/24", "10.0.60.0/25", IOS) == [("10.0.48.1 10.0.48.100", TOOL)]  # by offset
    assert _hits("10.0.48.0/24", "10.0.48.0/22", IOS) == []  # a grow
    assert _hits("10.0.48.0/24", "10.0.48.0/25", IOS.replace("10.0.48.101 10.0.48.126", "10.0.48.110")) == []
    assert _hits("10.0.48.0/24", "10.0.48.0/25", IOS.replace(" network 10.0.48.0 255.255.255.0",
                                                           " network 10.0.48.0 /24")) == [("10.0.48.1 10.0.48.100", TOOL)]
    # an exclusion of another VRF is another server's
    assert _hits("10.0.48.0/24", "10.0.48.0/25", IOS.replace("address 10.0.48.101", "address vrf B 10.0.48.101")) == []
    # a file already written: the pool at the new network
    assert _hits("10.0.48.0/24", "10.0.48.0/25", IOS.replace("255.255.255.0", "255.255.255.128")) != []
    # exclusions past the shrunk end: the outside-prefix refusal is another rule's
    assert _hits("10.0.48.0/24", "10.0.48.0/25", IOS.replace("10.0.48.126", "10.0.48.200")) == []


def test_junos_pool_exclusions() -> None:
    text = ("set access address-assignment pool lan family inet network 10.0.48.0/24\n"
            "set access address-assignment pool lan family inet excluded-range a low 10.0.48.1\n"
            "set access address-assignment pool lan family inet excluded-range a high 10.0.48.126\n")
    assert _hits("10.0.48.0/24", "10.0.48.0/25", text) == [("10.0.48.1", TOOL)]
    assert _hits("10.0.48.0/24", "10.0.48.0/25", text.replace("high 10.0.48.126", "high 10.0.48.20")) == []
