"""new_host_lengths: a host of a resized move's new network written with the old length (t29-33, 20)."""

from __future__ import annotations

import ipaddress

from renamer import new_host_lengths

GROW = [(ipaddress.ip_network("10.0.48.0/24"), ipaddress.ip_network("10.0.60.0/22"))]


def test_a_host_of_the_new_network_at_the_old_length_is_found() -> None:
    assert new_host_lengths.new_host("10.0.60.5", 24, GROW) == GROW[0]
    assert new_host_lengths.new_host("10.0.60.5", 22, GROW) is None  # the new length
    assert new_host_lengths.new_host("10.0.60.0", 24, GROW) is None  # a /24's network address
    assert new_host_lengths.new_host("10.0.61.5", 24, GROW) is None  # past where the old lands: a collision
    assert new_host_lengths.new_host("10.0.48.5", 24, GROW) is None  # an old host: the sweep's own
    assert new_host_lengths.new_host("10.0.70.5", 24, GROW) is None  # another network


def test_slashed_spans_the_length_and_reads_ipv6() -> None:
    data = b"Address=10.0.60.5/24\nRoute=10.0.61.0/24\n"
    [(at, start, end, text, note)] = new_host_lengths.slashed(data, GROW)
    assert data[at:end] == b"10.0.60.5/24" and data[start:end] == b"24" and text == "24"
    assert "10.0.60.0/22" in note and "/24 only" in note
    v6 = [(ipaddress.ip_network("2001:db8:a:10::/64"), ipaddress.ip_network("2001:db8:b:20::/60"))]
    assert [h[3] for h in new_host_lengths.slashed(b"a 2001:db8:b:20::9/64\n", v6)] == ["64"]
    assert new_host_lengths.slashed(b"a 2001:db8:b:20::9/60\n", v6) == []
