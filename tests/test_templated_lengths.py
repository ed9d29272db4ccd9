"""templated_lengths: the pure reader (end to end: tests/cli/test_templated_lengths.py)."""

from __future__ import annotations

import ipaddress

from renamer import templated_lengths
from renamer.names import IPNetwork

GROW: list[tuple[IPNetwork, IPNetwork]] = [(ipaddress.ip_network("192.168.0.0/24"), ipaddress.ip_network("10.20.0.0/22"))]


def _whole(data: bytes) -> list[tuple[int, int]]:
    return [(0, len(data))]


def _hits(data: bytes, moves: list[tuple[IPNetwork, IPNetwork]] | None = None) -> list[tuple[str, str]]:
    moves = GROW if moves is None else moves
    return [(data[s:e].decode(), new) for s, e, _, new, _ in
            templated_lengths.templated(data, moves, lambda at: _whole(data))]


def test_each_template_close_before_the_old_length() -> None:
    for spelling in (b"{{ ip }}", b"<% ctx().ip %>", b"${var.ip}", b"$IP", b"%IP%", b"{ip}"):
        assert _hits(b"ip=" + spelling + b"/24,gw=192.168.0.254") == [("24", "22")], spelling


def test_the_new_network_named_counts_too_after_the_sweep() -> None:
    assert _hits(b"ip={{ ip }}/24,gw=10.20.3.254") == [("24", "22")]


def test_nothing_without_the_network_a_resize_or_a_length() -> None:
    assert _hits(b"ip={{ ip }}/24,gw=192.168.9.1") == []
    assert _hits(b"ip={{ ip }}/24,gw=192.168.0.1",
                 [(ipaddress.ip_network("192.168.0.0/24"), ipaddress.ip_network("10.20.0.0/24"))]) == []
    assert _hits(b"ip={{ ip }}/16,gw=192.168.0.1") == []
    assert _hits(b"ip={{ ip }}/240,gw=192.168.0.1") == []
    assert _hits(b"see https://{{ host }}/24 via 192.168.0.1") == []
    assert _hits(b"ip=10.1.1.1/24 gw=192.168.0.1") == []  # a literal: prefix_moves' own rules
