"""reservation_keys: which lines of which syntax hold a DHCP reservation's address or name (pure
logic; the sweep's refusal is tests/cli/test_reservation_collisions.py's)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from renamer.sweep import reservation_keys
from renamer.sweep.reservation_keys import with_reservations


def _keys(text: str) -> list[tuple[int, str, str]]:
    lines = text.split("\n")
    found = with_reservations(lines, {})
    return [(i + 1, f.key.what, f.key.name) for i, keys in sorted(found.items()) for f in keys
            if lines[i][f.span[0]:f.span[1]]]


@pytest.mark.parametrize(("text", "expected"), [
    ('{"reservations": [{"ip-address": "10.0.0.70"}, {"ip-addresses": ["2001:DB8::1", "2001:db8::2"]}]}',
     [(1, "Kea reservation address", "10.0.0.70"), (1, "Kea reservation address", "2001:db8::1"),
      (1, "Kea reservation address", "2001:db8::2")]),
    ("config host\n\toption name 'web01'\n\toption ip '10.0.0.70'\nconfig domain\n\toption ip '10.0.0.71'\n",
     [(2, "UCI host (a dnsmasq dhcp-host) name", "web01"), (3, "UCI host (a dnsmasq dhcp-host) address",
                                                          "10.0.0.70")]),
    ("[Network]\nAddress=10.0.0.1/24\n[DHCPServerStaticLease]\nAddress=10.0.0.70\n",
     [(4, "networkd static lease address", "10.0.0.70")]),
    ("host a { fixed-address 10.0.0.70, 10.0.0.71; }\n",
     [(1, "dhcpd fixed-address", "10.0.0.70"), (1, "dhcpd fixed-address", "10.0.0.71")]),
    ("/ip dhcp-server lease\nadd address=10.0.0.70 mac-address=00:11:22:33:44:55\n/ip address\nadd address=10.0.0.1/24\n",
     [(2, "RouterOS static lease address", "10.0.0.70")]),
    ("Add-DhcpServerv4Reservation -ScopeId 10.0.0.0 -IPAddress 10.0.0.70 -ClientId aa\n"
     "netsh dhcp server scope 10.0.0.0 ADD RESERVEDIP 10.0.0.71 aabbcc\n"
     "/ip dhcp-server lease add address=10.0.0.72 mac-address=00:11:22:33:44:55\n",
     [(1, "Windows DHCP reservation address", "10.0.0.70"), (2, "Windows DHCP reservation address", "10.0.0.71"),
      (3, "RouterOS static lease address", "10.0.0.72")]),
])
def test_each_syntax_s_reservations_are_keys(text: str, expected: list[tuple[int, str, str]]) -> None:
    assert _keys(text) == expected


@pytest.mark.parametrize("text", [
    '{"hosts": [{"ip-address": "10.0.0.70"}, {"ip-address": "10.0.0.70"}]}',  # no reservation list
    "config domain\n\toption name 'web01'\n\toption ip '10.0.0.70'\n",  # a DNS record, not a lease
    "[Network]\nAddress=10.0.0.70/24\n",  # an interface's own address
    "address=/web01.lab/10.0.0.70\n",
])
def test_other_addresses_are_no_reservation(text: str) -> None:
    assert _keys(text) == []


_LINES = ["Add-DhcpServerv4Reservation -IPAddress 10.0.0.70", "add-dhcpserverv6reservation -ipaddress 2001:db8::5",
          "netsh dhcp server add reservedip 10.0.0.71 aabb", "Add ReservedIP 10.0.0.74 aa", "add reservedıp 10.0.0.75",
          "/ip dhcp-server lease", "add address=10.0.0.72", "/ip dhcp-server lease add address=10.0.0.76",
          "host a { fixed-address 10.0.0.73; }", "config host", "option ip 10.0.0.77", "[DHCPServerStaticLease]",
          "Address=10.0.0.78", '"reservations": [{"ip-address": "10.0.0.79"}]', "lease", "LEASE ADD address=10.0.0.80",
          "# a comment", "", "\r"]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(_LINES), max_size=12))
def test_a_file_is_searched_line_by_line_only_for_the_words_it_holds(lines: list[str]) -> None:
    """Issue 30: the Windows, netsh, RouterOS and dhcpd searches ran on every line of every file
    compared (three searches a line); each runs only in a file holding its word, with the answer
    of every search on every line."""
    found = with_reservations(lines, {})
    with pytest.MonkeyPatch.context() as patch:
        every = [(rule, what) for rule, what, _word in reservation_keys._SEARCHED]
        patch.setattr(reservation_keys, "_searched", lambda _text: (every, True))
        assert found == with_reservations(lines, {})
