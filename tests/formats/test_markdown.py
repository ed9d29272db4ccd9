"""Markdown: GitHub's heading anchors, and the inline marker's comment."""

from __future__ import annotations

import pytest

from renamer.formats import format_of
from renamer.formats.markdown import github_slug, is_markdown, slugs


@pytest.mark.parametrize(("heading", "slug"), (
    pytest.param("Host ana-ml2", "host-ana-ml2", id="words"),
    pytest.param("Host 10.250.50.54", "host-102505054", id="dots-dropped"),
    pytest.param("`ana-ml2` **box**", "ana-ml2-box", id="markup-dropped"),
    pytest.param("[ana-ml2](x.md) notes", "ana-ml2-notes", id="link-text-kept"),
    pytest.param("Ünïcode ana_ml2", "ünïcode-ana_ml2", id="unicode-and-underscore"),
))
def test_github_slug(heading: str, slug: str) -> None:
    assert github_slug(heading) == slug


@pytest.mark.parametrize(("text", "expected"), (
    pytest.param("# a\n## a\n### a\n", ["a", "a-1", "a-2"], id="repeats-numbered"),
    pytest.param("\ufeff# ana-ml2\n", ["ana-ml2"], id="bom"),
    pytest.param("```\n# not a heading\n```\n# real\n", ["real"], id="fenced"),
    pytest.param("#no-space\n    # indented code\n", [], id="noop-not-headings"),
))
def test_slugs(text: str, expected: list[str]) -> None:
    assert slugs(text) == expected


@pytest.mark.parametrize(("path", "expected"), (
    pytest.param("README.md", True, id="md"),
    pytest.param("docs/X.MARKDOWN", True, id="upper-case"),
    pytest.param("page.mdx", True, id="mdx"),
    pytest.param("notes.txt", False, id="noop-txt"),
    pytest.param("md/file", False, id="noop-folder"),
))
def test_is_markdown(path: str, expected: bool) -> None:
    assert is_markdown(path) is expected
    assert (format_of(path, b"").name == "markdown") is expected


def test_the_marker_comment_cannot_be_closed_early() -> None:
    comment = format_of("a.md", b"").comment
    assert comment is not None
    assert comment("renamer: keep --> <b>") == "<!-- renamer: keep  <b> -->"
