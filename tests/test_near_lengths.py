"""A `/N` a bracket or a few words after a resized network's address, and pasted ipcalc output
(near_lengths.py, t31-33 finding 11), through the Matcher."""

from __future__ import annotations

import ipaddress

import pytest

from renamer.match import Matcher
from renamer.near_lengths import near
from renamer.prefix_moves import MASK

MOVES = [("10.0.48.0/24", "10.0.60.0/22"), ("2001:db8:a:10::/64", "2001:db8:b:20::/60"),
         ("10.0.80.0/23", "10.0.80.0/24"),
         ("10.0.70.0/29", "10.0.70.0/28"), ("2001:db8:c::/48", "2001:db8:c::/56")]


def _found(text: str) -> list[tuple[str, str, str | None]]:
    matcher = Matcher(networks=[(ipaddress.ip_network(a), ipaddress.ip_network(b)) for a, b in MOVES])
    return [(m.old, m.new, m.refused) for m in matcher.find(text.encode())]


@pytest.mark.parametrize(("text", "found"), [
    # a bracket: the address's own length, rewritten
    ("- LAN: 10.0.48.0 (/24), gateway 10.0.48.1\n",
     [("10.0.48.0", "10.0.60.0", None), ("24", "22", None), ("10.0.48.1", "10.0.60.1", None)]),
    ("- LAN6: 2001:db8:a:10:: (/64)\n", [("2001:db8:a:10::", "2001:db8:b:20::", None), ("64", "60", None)]),
    ("dmz 10.0.70.0 ( /29 )\n", [("29", "28", None)]),
    ("site 2001:db8:c:: (/48)\n", [("48", "56", None)]),
    # words between: a residual, never rewritten
    ("- LAN: 10.0.48.0, prefix /24\n", [("10.0.48.0", "10.0.60.0", None), ("24", "24", MASK)]),
    ("- LAN: 10.0.48.0 with a /24 mask\n", [("10.0.48.0", "10.0.60.0", None), ("24", "24", MASK)]),
    # after the sweep: the new address beside the old length stays a residual
    ("- LAN: 10.0.60.0, prefix /24\n", [("24", "24", MASK)]),
    # another length, another network, another line: nothing of this rule
    ("- LAN: 10.0.48.0, prefix /16\n", [("10.0.48.0", "10.0.60.0", None)]),
    ("- other: 10.9.0.0 (/24)\n", []),
    ("- LAN: 10.0.48.0\n(/24)\n", [("10.0.48.0", "10.0.60.0", None)]),
    # t32-33 08: an article in the bracket, a square bracket, a dash: the address's own, rewritten
    ("LAN 10.0.48.0 (a /24).\n", [("10.0.48.0", "10.0.60.0", None), ("24", "22", None)]),
    ("dmz 10.0.70.0 [/29]\n", [("29", "28", None)]),
    ("site 2001:db8:c:: \u2014 /48.\n", [("48", "56", None)]),
    ("dmz 10.0.70.0 \u2013 /29\n", [("29", "28", None)]),
    ("LAN6 2001:db8:a:10:: (an /64)\n", [("2001:db8:a:10::", "2001:db8:b:20::", None), ("64", "60", None)]),
    # ... a bare length its words name, words inside a bracket: residuals
    ("Guest: 10.0.48.0 with prefix length 24.\n", [("10.0.48.0", "10.0.60.0", None), ("24", "24", MASK)]),
    ("dmz 10.0.70.0 (netmask length 29)\n", [("29", "29", MASK)]),
    ("dmz 10.0.70.0 prefixlen 29\n", [("29", "28", None)]),  # ifconfig's key: certain (length keys)
    ("site 2001:db8:c:: (the site's /48)\n", [("48", "48", MASK)]),
    ("Guest: 10.0.60.0 with prefix length 24.\n", [("24", "24", MASK)]),  # after the sweep
    # another length, a range's dash, a version number: nothing of this rule
    ("dmz 10.0.70.0 with prefix length 30\n", []),
    ("LAN 10.0.48.0 - 10.0.48.24\n", [("10.0.48.0", "10.0.60.0", None), ("10.0.48.24", "10.0.60.24", None)]),
])
def test_a_length_a_bracket_or_words_away(text: str, found: list[tuple[str, str, str | None]]) -> None:
    assert _found(text) == found


IPCALC = ("```\nAddress:   10.0.48.0            00001010.00000000.00110000. 00000000\n"
          "Netmask:   255.255.255.0 = 24   11111111.11111111.11111111. 00000000\n"
          "Network:   10.0.48.0/24\nHostMin:   10.0.48.1\nHostMax:   10.0.48.254\n"
          "Broadcast: 10.0.48.255\nHosts/Net: 254\n```\n")


def test_pasted_ipcalc_output_is_left_whole_as_residuals() -> None:
    found = _found(IPCALC)
    assert found, found
    assert all(refused == MASK and old == new for old, new, refused in found), found
    # a block of another length (no move of a /25): its addresses follow as anywhere
    # (HostMin..HostMax is an all-hosts range under a grow: host_ranges' `range` residual)
    other = _found(IPCALC.replace("= 24", "= 25"))
    assert ("10.0.48.0", "10.0.60.0", None) in other and not any(r == MASK for _, _, r in other), other


# t32-33 07: ipcalc-ng (Network above Netmask, a blank line inside; IPv6) and sipcalc (IPv4, IPv6).
IPCALC_NG = ("Address:\t10.0.80.1\nNetwork:\t10.0.80.0/23\nNetmask:\t255.255.254.0 = 23\n"
             "Broadcast:\t10.0.81.255\n\nAddress space:\tPrivate Use\nHostMin:\t10.0.80.1\n"
             "HostMax:\t10.0.81.254\nHosts/Net:\t510\n")
SIPCALC = ("-[ipv4 : 10.0.70.0/29] - 0\n\n[CIDR]\nHost address\t\t- 10.0.70.0\nNetwork address\t\t- 10.0.70.0\n"
           "Network mask\t\t- 255.255.255.248\nNetwork mask (bits)\t- 29\nBroadcast address\t- 10.0.70.7\n"
           "Usable range\t\t- 10.0.70.1 - 10.0.70.6\nAddresses in network\t- 8\n")
SIPCALC6 = ("-[ipv6 : 2001:db8:c::/48] - 0\n\n[IPV6 INFO]\nExpanded Address\t- 2001:0db8:000c:0000:0000:0000:0000:0000\n"
            "Compressed address\t- 2001:db8:c::\nPrefix address\t\t- ffff:ffff:ffff:0:0:0:0:0\nPrefix length\t\t- 48\n"
            "Network range\t\t- 2001:0db8:000c:0000:0000:0000:0000:0000 -\n\t\t\t  2001:0db8:000c:ffff:ffff:ffff:ffff:ffff\n")
IPCALC_NG6 = ("Address:\t2001:db8:a:10::1\nNetwork:\t2001:db8:a:10::/64\nNetmask:\tffff:ffff:ffff:ffff:: = 64\n\n"
              "Address space:\tDocumentation\nHostMin:\t2001:db8:a:10::\nHostMax:\t2001:db8:a:10:ffff:ffff:ffff:ffff\n"
              "Hosts/Net:\t2^(64)\n")


@pytest.mark.parametrize("block", [IPCALC_NG, SIPCALC, SIPCALC6, IPCALC_NG6])
def test_ipcalc_ng_and_sipcalc_blocks_are_left_whole(block: str) -> None:
    found = _found("Notes\n\n" + block + "\n\nThe LAN is 10.0.48.9\n")
    inside = [f for f in found if f[0] != "10.0.48.9"]
    # nothing in it rewritten: the block's own residual (or a refusal a shrink owes anyway: HostMax outside)
    assert inside and all(refused is not None for _, _, refused in inside), found
    assert sum(refused == MASK for _, _, refused in inside) >= 2, found
    assert ("10.0.48.9", "10.0.60.9", None) in found  # two blank lines end the block


def test_a_block_of_a_length_no_move_changes_follows() -> None:
    found = _found(IPCALC_NG.replace("= 23", "= 25").replace("/23", "/25"))
    assert ("10.0.80.1", "10.0.80.1", MASK) not in found


def test_a_length_after_a_colon_or_past_a_mask_is_said_never_written() -> None:
    """t36-33 finding 08: `/24:` opens a clause; a dotted netmask between the address and `/24`."""
    moves = [(ipaddress.ip_network("192.168.40.0/24"), ipaddress.ip_network("192.168.40.0/22"))]
    for text in (b"VLAN 192.168.40.0 is a /24: 254 usable hosts, mask 255.255.255.0.\n",
                 b"net 192.168.40.0 netmask 255.255.255.0 (a /24, 256 addresses)\n",
                 b"net 192.168.40.0, subnet mask 255.255.252.0, is a /24; see\n"):
        found = list(near(text, moves))
        assert [(n.old, n.certain) for n in found] == [("24", False)], text
    assert list(near(b"net 192.168.40.0 via 10.1.2.3 is a /24\n", moves)) == []  # an address is no mask
    assert list(near(b"see 192.168.40.0 at /24:ff::1\n", moves)) == []
