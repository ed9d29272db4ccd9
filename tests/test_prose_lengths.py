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
