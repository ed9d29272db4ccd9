"""GitHub's heading anchors, as the sweep computes them to follow a rewritten heading."""

from __future__ import annotations

import pytest

from renamer.sweep.anchors import github_slug, slugs


@pytest.mark.parametrize("heading, slug", [
    pytest.param("Host 192.0.2.10", "host-1920210", id="address"),
    pytest.param("Setup of ana-ml2", "setup-of-ana-ml2", id="hyphens-kept"),
    pytest.param("ana_ml2 (old box)!", "ana_ml2-old-box", id="punctuation-dropped"),
    pytest.param("`ana-ml2` **GPU** node", "ana-ml2-gpu-node", id="markup-dropped"),
    pytest.param("[ana-ml2](http://ana-ml2/) notes", "ana-ml2-notes", id="link-text-kept"),
    pytest.param("Ünïcode Größe", "ünïcode-größe", id="unicode-letters-kept"),
    pytest.param("  Two  spaces ", "two--spaces", id="each-space-a-dash"),
])
def test_github_slug(heading: str, slug: str) -> None:
    assert github_slug(heading) == slug


def test_repeats_are_numbered_and_fenced_headings_ignored() -> None:
    text = "# A\n## A\n```\n# not a heading\n```\n### A ###\nA\n===\n"
    assert slugs(text) == ["a", "a-1", "a-2"]


def test_a_byte_order_mark_does_not_hide_the_first_heading() -> None:
    assert slugs("\ufeff## web01\r\n[x](#web01)\r\n") == ["web01"]


def test_only_an_edit_on_a_heading_line_can_change_an_anchor() -> None:
    from renamer.sweep.anchors import _edits_a_heading
    from renamer.sweep.model import Edit

    data = b"\xef\xbb\xbf## web01\nweb01 text\n   ### x web01\n    # code web01\n"
    at = [data.find(b"web01", i) for i in (0, 12, 25, 40)]
    assert [_edits_a_heading(data, (Edit(p, p + 5, b"web02"),)) for p in at] == [True, False, True, False]
