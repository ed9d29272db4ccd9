"""host_access.py (issue 33, round 7, host services): WireGuard peers, NFS exports, pam_access, xinetd,
lighttpd and Tomcat's RemoteCIDR rules, each entry that takes part of a resized network out of
another, judged by except_blocks.covering."""

from __future__ import annotations

import ipaddress

import pytest

from renamer.except_blocks import TOOL, except_hits
from renamer.host_access import gaps, grouped, rules, sibling
from renamer.prefix_moves import PrefixMove

WANTED = {ipaddress.ip_network(n) for n in ("10.0.48.0/24", "10.0.48.0/25", "2001:db8:a::/48", "2001:db8:a::/56")}


def _refused(old: str, new: str, text: str) -> list[str]:
    move = PrefixMove(ipaddress.ip_network(old), ipaddress.ip_network(new))
    return [h.old for h in except_hits(text.encode(), [move]) if h.refused == TOOL]


@pytest.mark.parametrize(("text", "part"), [
    ("[Peer]\nPublicKey = a\nAllowedIPs = 10.0.48.0/24\n\n[Peer]\nPublicKey = b\nAllowedIPs = 10.0.48.0/25\n",
     "10.0.48.0/25"),
    # the more specific peer first: the order does not matter
    ("[WireGuardPeer]\nAllowedIPs=10.0.48.0/25\n[WireGuardPeer]\nAllowedIPs=10.0.48.0/24,192.168.1.0/24\n",
     "10.0.48.0/25"),
    ("config wireguard_wg0\n\tlist allowed_ips '10.0.48.0/24'\n\nconfig wireguard_wg0\n"
     "\tlist allowed_ips '10.0.48.0/25'\n", "10.0.48.0/25"),
    ('peers = [\n  { publicKey = "a"; allowedIPs = [ "10.0.48.0/24" ]; }\n'
     '  { publicKey = "b"; allowedIPs = [ "10.0.48.0/25" ]; }\n];\n', "10.0.48.0/25"),
    ("/srv 10.0.48.0/25(ro) 10.0.48.0/24(rw)\n", "10.0.48.0/25"),
    ("/srv \\\n  10.0.48.0/255.255.255.128(ro,sync) \\\n  10.0.48.0/24(rw,sync)\n", "10.0.48.0/255.255.255.128"),
    ("-:ALL:10.0.48.0/25\n+:ALL:10.0.48.0/24\n", "10.0.48.0/25"),
    ("-:ALL:10.0.48.0/25\n+:@admins:10.0.48.0/24 LOCAL\n", "10.0.48.0/25"),
    ("-:root:10.0.48.0/25 192.0.2.0/24\n+:root:10.0.48.0/24\n", "10.0.48.0/25"),
    ("defaults\n{\n    only_from = 10.0.48.0/24\n    no_access = 10.0.48.0/25\n}\n", "10.0.48.0/25"),
    ('$HTTP["remoteip"] == "10.0.48.0/24" {\n  $HTTP["remoteip"] != "10.0.48.0/25" {\n    x = 1\n  }\n}\n',
     "10.0.48.0/25"),
    ('$HTTP["remoteip"] == "10.0.48.0/25" {\n  a = 1\n}\nelse $HTTP["remoteip"] == "10.0.48.0/24" {\n  b = 2\n}\n',
     "10.0.48.0/25"),
    ('<Valve className="org.apache.catalina.valves.RemoteCIDRValve" deny="10.0.48.0/25" allow="10.0.48.0/24"/>\n',
     "10.0.48.0/25"),
    ("<filter>\n <filter-class>org.apache.catalina.filters.RemoteCIDRFilter</filter-class>\n <init-param>\n"
     "  <param-name>allow</param-name>\n  <param-value>10.0.48.0/24</param-value>\n </init-param>\n <init-param>\n"
     "  <param-name>deny</param-name>\n  <param-value>10.0.48.0/25</param-value>\n </init-param>\n</filter>\n",
     "10.0.48.0/25"),
])
def test_a_shrink_onto_the_part_refuses(text: str, part: str) -> None:
    assert _refused("10.0.48.0/24", "10.0.48.0/25", text) == [part]
    assert _refused("10.0.48.0/24", "10.0.48.0/22", text) == []  # a grow follows
    assert _refused("10.0.48.0/23", "10.0.48.0/24", text) == []  # the part stays inside the new /24


@pytest.mark.parametrize("text", [
    "[Peer]\nAllowedIPs = 10.0.48.0/24, 10.0.48.0/25\n",  # one peer's own entries
    "/srv 10.0.48.0/25(rw) 10.0.48.0/24(rw)\n",  # the same options
    "/srv 10.0.48.0/24(rw) 10.0.48.0/25(ro)\n",  # the wider first: the /25 is never reached
    "-:root:10.0.48.0/25\n+:ALL:10.0.48.0/24\n",  # a deny of one user
    "+:ALL:10.0.48.0/24\n-:ALL:10.0.48.0/25\n",  # the allow first
    "-:ALL:10.0.48.0/25 EXCEPT x\n+:ALL:10.0.48.0/24\n".replace("10.0.48.0/25 EXCEPT x", "ALL EXCEPT 10.0.48.0/25"),
    "service a\n{\n    only_from = 10.0.48.0/24\n}\nservice b\n{\n    no_access = 10.0.48.0/25\n}\n",  # two services
    '$HTTP["remoteip"] != "10.0.48.0/25" {\n  x = 1\n}\n',  # no `==` around it
    '<Valve className="org.apache.catalina.valves.RemoteAddrValve" deny="10.0.48.0/25" allow="10.0.48.0/24"/>\n',
])
def test_no_entry_takes_the_network_out(text: str) -> None:
    assert _refused("10.0.48.0/24", "10.0.48.0/25", text) == []


def test_ipv6_and_a_written_file() -> None:
    text = "[Peer]\nAllowedIPs = 2001:db8:a::/48\n[Peer]\nAllowedIPs = 2001:db8:a::/56\n"
    assert _refused("2001:db8:a::/48", "2001:db8:a::/56", text) == ["2001:db8:a::/56"]
    written = "[Peer]\nAllowedIPs = 2001:db8:a::/56\n[Peer]\nAllowedIPs = 2001:db8:a::/56\n"
    assert _refused("2001:db8:a::/48", "2001:db8:a::/56", written) == ["2001:db8:a::/56"]
    assert [r[1][0][2] for r in rules(written.encode(), WANTED)] == [ipaddress.ip_network("2001:db8:a::/56")]


def test_two_peers_parts_are_judged_together() -> None:
    """Two peers' /26s inside a /24: under `/24 -> /25` together they take all of it."""
    text = ("[Peer]\nAllowedIPs = 10.0.48.0/24\n[Peer]\nAllowedIPs = 10.0.48.0/26\n"
            "[Peer]\nAllowedIPs = 10.0.48.64/26\n")
    assert _refused("10.0.48.0/24", "10.0.48.0/25", text) == ["10.0.48.0/26"]
    found = list(rules(text.encode(), WANTED))
    assert len(found) == 1 and len(found[0][1]) == 2


def test_grouped_merges_rules_before_the_same_networks() -> None:
    net = ipaddress.ip_network("10.0.48.0/24")
    a, b = (0, 1, ipaddress.ip_network("10.0.48.0/26")), (5, 6, ipaddress.ip_network("10.0.48.64/26"))
    merged = list(grouped([([net], [a], "w"), ([net], [b], "w"), ([net], [a], "w"), ([net], [b], "other")]))
    assert merged == [([net], [a, b], "w"), ([net], [b], "other")]


def test_sibling_is_the_other_half_of_the_supernet() -> None:
    assert sibling(ipaddress.ip_network("10.0.48.0/24")) == ipaddress.ip_network("10.0.49.0/24")
    assert sibling(ipaddress.ip_network("10.0.49.0/24")) == ipaddress.ip_network("10.0.48.0/24")
    assert sibling(ipaddress.ip_network("2001:db8:a::/48")) == ipaddress.ip_network("2001:db8:b::/48")
    assert sibling(ipaddress.ip_network("0.0.0.0/0")) is None


def _complement(net: str) -> str:
    return ", ".join(str(n) for n in ipaddress.ip_network("0.0.0.0/0").address_exclude(ipaddress.ip_network(net)))


@pytest.mark.parametrize(("new", "entry"), [
    ("10.9.0.0/24", "10.8.0.0/13"),  # the same length elsewhere
    ("10.0.48.0/22", "10.0.50.0/23"),  # a grow in place: its sibling first in the list's order
    ("192.168.7.0/25", "128.0.0.0/1"),
])
def test_a_list_computed_around_the_network_where_the_new_one_lands(new: str, entry: str) -> None:
    text = f"[Peer]\nAllowedIPs = {_complement('10.0.48.0/24')}\n".encode()
    move = PrefixMove(ipaddress.ip_network("10.0.48.0/24"), ipaddress.ip_network(new))
    found = list(gaps(text, [move]))
    assert [g.text for g in found] == [entry]
    assert "leaves 10.0.48.0/24 out" in found[0].note and text[found[0].start:found[0].end].decode() == entry


@pytest.mark.parametrize(("text", "new"), [
    (f"[Peer]\nAllowedIPs = {_complement('10.0.48.0/24')}\n", "10.0.48.0/25"),  # a shrink in place: still out
    (f"[Peer]\nAllowedIPs = {_complement('10.0.48.0/24')}\n", "10.0.48.128/25"),  # inside the old: still out
    ("[Peer]\nAllowedIPs = 10.8.0.0/13\n", "10.9.0.0/24"),  # no sibling: not computed around it
    ("[Peer]\nAllowedIPs = 10.0.49.0/24, 10.0.48.0/24, 10.8.0.0/13\n", "10.9.0.0/24"),  # it names the network
    (f"[Interface]\nAddress = {_complement('10.0.48.0/24')}\n", "10.9.0.0/24"),  # no AllowedIPs
])
def test_no_gap(text: str, new: str) -> None:
    move = PrefixMove(ipaddress.ip_network("10.0.48.0/24"), ipaddress.ip_network(new))
    assert list(gaps(text.encode(), [move])) == []
