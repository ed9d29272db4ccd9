"""A `/N` a bracket or a few words after a resized network's address, and pasted ipcalc output
(near_lengths.py, t31-33 finding 11), through the Matcher."""

from __future__ import annotations

import ipaddress

import pytest

from renamer.match import Matcher
from renamer.prefix_moves import MASK

MOVES = [("10.0.48.0/24", "10.0.60.0/22"), ("2001:db8:a:10::/64", "2001:db8:b:20::/60"),
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
    assert ("10.0.48.1", "10.0.60.1", None) in _found(IPCALC.replace("= 24", "= 25"))
