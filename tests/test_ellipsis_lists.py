"""ellipsis_lists: which comma lists with an ellipsis are enumerations of one stem (pure logic; the
sweep's residual end to end is tests/cli/test_ellipsis_lists.py's)."""

from __future__ import annotations

import pytest

from renamer.ellipsis_lists import spans


@pytest.mark.parametrize("text", [
    "The web nodes web01, web02, ..., web05 serve the site.",  # report
    "web_nodes: [web01, web02, \u2026, web05]",  # report: U+2026
    'NODES = ["web01", "web02", ..., "web05"]',  # quoted items
    "`web01`, `web02`, `web03`, ...",  # open-ended, code spans
    "web01.lab.example, web02.lab.example, &hellip;, web05.lab.example",  # FQDNs, an HTML entity
    "10.0.0.70, 10.0.0.71, ..., 10.0.0.74",  # addresses
    "web01, web02, ... and web05",
])
def test_an_enumeration_of_one_stem_is_a_span(text: str) -> None:
    assert spans(text.encode()), text


@pytest.mark.parametrize("text", [
    "pug, rex, ..., wolf",  # no numbered stem
    "web01, db02, ..., web05",  # two stems
    "connect(web01, ...)",  # one item before the gap
    "web01,\u2026,web05",  # first, gap, last: context.py's range
    "Tuple[int, ...]",
    "web01, web02, web03",  # no gap
])
def test_a_list_without_one_stem_or_gap_is_no_span(text: str) -> None:
    assert spans(text.encode()) == [], text
