"""except_blocks.py on text (t31-33 finding 18): which `except` entry a move makes cover its cidr."""

from __future__ import annotations

import ipaddress

from renamer.except_blocks import TOOL, except_hits
from renamer.prefix_moves import PrefixMove


def _hits(old: str, new: str, text: str) -> list[tuple[str, str | None]]:
    move = PrefixMove(ipaddress.ip_network(old), ipaddress.ip_network(new))
    return [(h.old, h.refused) for h in except_hits(text.encode(), [move])]


BLOCK = "- ipBlock:\n    cidr: 10.0.48.0/24\n    except:\n      - 10.0.48.0/25\n      - 10.0.48.200/29\n"
FLOW = '{"cidr": "10.0.48.0/24", "except": ["10.0.48.0/25"]}\n'
FIRST = "- except: [10.0.48.0/25]\n  cidr: 10.0.48.0/24\n"


def test_an_except_covering_the_new_cidr() -> None:
    assert _hits("10.0.48.0/24", "10.0.48.0/25", BLOCK) == [("10.0.48.0/25", TOOL)]
    assert _hits("10.0.48.0/24", "10.0.48.0/25", FLOW) == [("10.0.48.0/25", TOOL)]
    assert _hits("10.0.48.0/24", "10.0.48.0/25", FIRST) == [("10.0.48.0/25", TOOL)]
    # the except lands on the new cidr by its offset
    assert _hits("10.0.48.0/24", "10.0.60.0/25", BLOCK) == [("10.0.48.0/25", TOOL)]


def test_an_except_left_inside_or_another_cidr() -> None:
    assert _hits("10.0.48.0/24", "10.0.48.0/22", BLOCK) == []  # a grow
    assert _hits("10.0.48.0/24", "10.0.48.0/25", BLOCK.replace("/25", "/26")) == []
    assert _hits("10.1.0.0/24", "10.1.0.0/25", BLOCK) == []  # another network moves
    # an except in another mapping than the cidr's names nothing of it
    other = "- ipBlock:\n    cidr: 10.0.48.0/24\n- other:\n    except:\n      - 10.0.48.0/25\n"
    assert _hits("10.0.48.0/24", "10.0.48.0/25", other) == []


def test_a_flow_mapping_reads_its_own_line_only() -> None:
    text = FLOW + "- 10.0.48.0/25\n"
    assert _hits("10.0.48.0/24", "10.0.48.0/25", text) == [("10.0.48.0/25", TOOL)]
    assert _hits("10.0.48.0/24", "10.0.48.0/25", FLOW.replace("/25", "/27") + "- 10.0.48.0/25\n") == []
