"""prose_lengths.py: a resized network's old length in its comment paragraph (t31-33, finding 22)."""

from __future__ import annotations

import ipaddress

from renamer.prefix_moves import MASK, PrefixMove
from renamer.prose_lengths import prose

MOVE = [PrefixMove(ipaddress.ip_network("10.42.0.0/16"), ipaddress.ip_network("10.244.0.0/15"))]


def _said(data: bytes) -> list[tuple[str, str | None]]:
    return [(m.old, m.refused) for m in prose(data, [], MOVE)]


def test_the_old_length_in_the_paragraph_naming_the_old_or_new_network_is_said() -> None:
    assert _said(b"# /16 gives ~64K\n# Default: 10.42.0.0/16\n") == [("/16", MASK)]
    assert _said(b"// Default: 10.244.0.0/15, a /16 before\n") == [("/16", MASK)]


def test_another_length_another_paragraph_or_a_path_is_nothing() -> None:
    assert _said(b"# a /15 now: 10.244.0.0/15\n") == []
    assert _said(b"# /16\n\n# 10.42.0.0/16\n") == []
    assert _said(b"# see /srv/16 and 10.1.0.0/16 and 10.42.0.0/16\n") == []


def test_a_comment_above_a_code_line_a_trailing_comment_cisco_c_blocks_and_a_line() -> None:
    """t32-33 09: the paragraph above the line spelling the network, the line itself, `!`, `/* */`."""
    assert _said(b'# /16 gives ~64K pod IPs\ncluster_pod_cidr: "10.42.0.0/16"\n') == [("/16", MASK)]
    assert _said(b'svc: "10.42.0.0/16"  # a /16: ~64K service IPs\n') == [("/16", MASK)]
    assert _said(b"! pods: 10.42.0.0/16\n! a /16 gives ~64K pod IPs\nip route 10.42.0.0 255.255.0.0 Null0\n") == [
        ("/16", MASK)]
    assert _said(b"{\n  /* pods: 10.42.0.0/16\n     a /16 gives ~64K */\n  x = 1;\n}\n") == [("/16", MASK)]
    assert _said(b"Pods get addresses from 10.42.0.0/16. A /16 gives ~64K pod IPs.\n") == [("/16", MASK)]
    assert _said(b'# a /16 gives ~64K\n\ncluster_pod_cidr: "10.42.0.0/16"\n') == []  # a blank line between
    assert _said(b'# a /16 gives ~64K\nother: "10.1.0.0/16"\nlan: "10.42.0.0/16"\n') == []  # not the line below


def test_ipv6_and_a_shrink() -> None:
    moves = [PrefixMove(ipaddress.ip_network("fd00:42::/56"), ipaddress.ip_network("fd00:42::/52")),
             PrefixMove(ipaddress.ip_network("10.0.48.0/23"), ipaddress.ip_network("10.0.48.0/24"))]
    data = b'# a /56 leaves 256 /64s\nv6: "fd00:42::/56"\nlan: 10.0.48.0/23  # a /23: 510 hosts\n'
    assert [(m.old, m.refused) for m in prose(data, [], moves)] == [("/56", MASK), ("/23", MASK)]
