"""The outline the dated-section rule reads (formats/prose_outline.py): headings and code per
prose format; a block never closed starts no section, and its headings still count."""

from __future__ import annotations

import time

import pytest

from renamer.formats.prose_outline import legacy, outline


def test_markdown_headings_and_fences() -> None:
    lines = ["Title", "=====", "", "```sh", "# comment", "```", "text", "more", "---", "<h3>x</h3>", "## Two"]
    shape = outline("a.md", lines)
    assert shape.headings == {0: 1, 6: 2, 9: 3, 10: 2}
    assert [shape.in_code(i) for i in (3, 4, 5, 6)] == [True, True, True, False]


def test_a_setext_heading_s_text_stops_above_a_section_start() -> None:
    lines = ["[2025-01-10] old", "Current", "======="]
    assert outline("a.md", lines, frozenset({0})).headings == {1: 1}
    assert outline("a.md", lines).headings == {0: 1}  # CommonMark: one paragraph, one heading


@pytest.mark.parametrize(("name", "lines", "heading"), [
    ("a.md", ["```", "# 2025-01-10", "# Later"], 2),
    ("a.adoc", ["----", "# 2025-01-10", "== Later"], 2),
    ("a.org", ["#+begin_src sh", "# 2025-01-10", "* Later"], 2),
    ("a.wiki", ["<pre>", "# 2025-01-10", "== Later =="], 2),
])
def test_a_block_never_closed_starts_nothing_and_its_headings_count(name: str, lines: list[str],
                                                                     heading: int) -> None:
    shape = outline(name, lines)
    assert shape.in_code(1) and heading in shape.headings


def test_rst_levels_follow_the_order_of_adornments() -> None:
    lines = ["====", "Top", "====", "", "A", "-", "", "B", "~~~", "", "C", "---", "", "x::", "", "  # 2025", ""]
    shape = outline("a.rst", lines)
    assert shape.headings == {1: 1, 7: 2, 10: 3}  # `-` alone is no adornment (3 or more)
    assert shape.in_code(15) and not shape.in_code(13)


def test_a_file_no_prose_keeps_the_hash_rule() -> None:
    assert legacy(["# 2025-01-10", "x", "---", "## y"]).headings == {0: 1, 3: 2}


def test_hostile_fences_take_one_pass() -> None:
    # fences of falling length, each one no later line closes: read whole once, not once per fence
    lines = [("`" if n % 2 else "~") * (3 + n // 2) for n in range(6000, 0, -1)]
    began = time.perf_counter()
    shape = outline("a.md", lines)
    assert time.perf_counter() - began < 2
    assert all(shape.in_code(i) for i in range(0, len(lines), 500))


def test_markdown_html_blocks_are_code() -> None:
    lines = ["<!--", "# 2025-01-10", "-->", "<pre>", "# x", "</pre>", "<!-- one -->", "<div>", "# In div",
             "", "# Out"]
    shape = outline("a.md", lines)
    assert [shape.in_code(i) for i in range(len(lines))] == [True] * 9 + [False, False]
    assert shape.headings == {8: 1, 10: 1}  # a closed block's line is no heading; a div's still ends one


def test_a_lone_tag_does_not_interrupt_a_paragraph() -> None:
    assert not outline("a.md", ["text", "<span>", "# 2025-01-10"]).in_code(2)
    assert outline("a.md", ["", "<span>", "# 2025-01-10"]).in_code(2)


def test_plain_text_dashes_are_a_rule_unless_the_line_stands_apart() -> None:
    entry = ["## 2025-01-10 swap", "Replaced the disk", "-----------------", "rebooted"]
    assert outline("log.txt", entry).headings == {0: 2}
    assert outline("log.md", entry).headings == {0: 2, 1: 2}
    assert outline("log.txt", ["## a", "x", "", "Current", "-------"]).headings == {0: 2, 3: 2}
    assert outline("README", ["## a", "x", "y", "===="]).headings == {0: 2, 1: 1}


def test_hostile_html_blocks_take_one_pass() -> None:
    lines = ["<div>", "<!--", "<pre>"] * 4000
    began = time.perf_counter()
    shape = outline("a.md", lines)
    assert time.perf_counter() - began < 2
    assert all(shape.in_code(i) for i in range(0, len(lines), 500))
