"""table_lengths.py: a resized network's length in a table cell of its own (t29-33, finding 10)."""

from __future__ import annotations

import ipaddress

import pytest

from renamer.prefix_moves import PrefixMove
from renamer.table_lengths import length_cells

MOVES = [PrefixMove(ipaddress.ip_network("10.0.48.0/24"), ipaddress.ip_network("10.0.60.0/22")),
         PrefixMove(ipaddress.ip_network("2001:db8:a:10::/64"), ipaddress.ip_network("2001:db8:a:10::/60"))]


def _cells(data: bytes, rel: str) -> list[tuple[bytes, str, str | None]]:
    return [(data[m.start:m.end], m.new, m.refused) for m in length_cells(data, rel, [], MOVES)]


@pytest.mark.parametrize(("data", "rel", "found"), [
    (b"| Net | Address | Length |\n|---|---|---|\n| LAN | 10.0.48.0 | 24 |\n", "n.md", [(b"24", "22", None)]),
    (b"|Net|Address|Prefix length|\n|:--|:--|--:|\n|LAN|`10.0.48.1`|/24|\n", "n.md", [(b"/24", "/22", None)]),
    (b"| v6 | net | prefixlen |\n|---|---|---|\n| a | 2001:db8:a:10:: | 64 |\n", "n.md", [(b"64", "60", None)]),
    (b"name,network,prefix\nlab,10.0.48.0,24\n", "n.csv", [(b"24", "22", None)]),
    (b'name;network;cidr\n"lab";"10.0.48.0";"24"\n', "n.csv", [(b"24", "22", None)]),
    (b"net\tbits\n10.0.48.0\t24\n", "n.tsv", [(b"24", "22", None)]),
    (b"<table><tr><th>Net</th><th>Length</th></tr><tr><td>10.0.48.0</td><td> 24 </td></tr></table>", "p.html",
     [(b"24", "22", None)]),
    # no header names a length: the next cell, a residual
    (b"| Name | Net | Size |\n|---|---|---|\n| LAN | 10.0.48.0 | 24 |\n", "n.md", [(b"24", "24", "mask")]),
    # another length, another network's row, a VLAN column, no table
    (b"| Net | Address | Length |\n|---|---|---|\n| LAN | 10.0.48.0 | 25 |\n", "n.md", []),
    (b"| Net | Address | Length |\n|---|---|---|\n| LAN | 10.9.0.0 | 24 |\n", "n.md", []),
    (b"| Net | Address | VLAN |\n|---|---|---|\n| LAN | 10.0.48.0 | 30 |\n", "n.md", []),
    (b"lab,10.0.48.0,24\n", "notes.txt", []),
    # after the sweep: the new network's address beside the old length, said again
    (b"| Name | Net | Size |\n|---|---|---|\n| LAN | 10.0.60.0 | 24 |\n", "n.md", [(b"24", "24", "mask")]),
    (b"| Net | Address | Length |\n|---|---|---|\n| LAN | 10.0.60.0 | 22 |\n", "n.md", []),
])
def test_length_cells(data: bytes, rel: str, found: list[tuple[bytes, str, str | None]]) -> None:
    assert _cells(data, rel) == found
