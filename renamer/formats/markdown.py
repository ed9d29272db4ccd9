"""Markdown: GitHub's heading anchors, and the inline marker as an HTML comment.

The sweep's cross-file rule that links follow their headings (sweep/anchors.py)
is built on `slugs` here; a report still computes a Markdown file's edits,
since they decide which anchors change.
"""

from __future__ import annotations

from renamer import lazy_re
from renamer.formats.base import BaseFormat, Comment

SUFFIXES = (".md", ".markdown", ".mdown", ".mkd", ".mdx")
_HEADING = lazy_re.compile(r"^ {0,3}(#{1,6})[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$")
_FENCE = lazy_re.compile(r"^ {0,3}(```|~~~)")
_MARKUP = lazy_re.compile(r"`|\*\*|__|(?<!\w)[*_](?=\w)|(?<=\w)[*_](?!\w)|!?\[([^\]]*)\]\([^)]*\)")


def github_slug(heading: str) -> str:
    """The anchor GitHub gives a heading's text (before repeats are numbered)."""
    text = _MARKUP.sub(lambda m: m.group(1) or "", heading).strip().lower()
    return "".join(ch for ch in text if ch.isalnum() or ch in " -_").replace(" ", "-")


def slugs(text: str) -> list[str]:
    """Every heading's anchor, in order, repeats numbered as GitHub numbers them."""
    out: list[str] = []
    seen: dict[str, int] = {}
    fenced = False
    for line in text.removeprefix("\ufeff").splitlines():  # a BOM is no part of the first heading
        if _FENCE.match(line):
            fenced = not fenced
            continue
        heading = None if fenced else _HEADING.match(line)
        if heading is None:
            continue
        base = github_slug(heading.group(2))
        count = seen.get(base, 0)
        seen[base] = count + 1
        out.append(base if count == 0 else f"{base}-{count}")
    return out


def is_markdown(path: str) -> bool:
    return path.lower().endswith(SUFFIXES)


class Markdown(BaseFormat):
    name = "markdown"
    needs_edits = True  # they decide which headings, and so which anchors, change
    comment = Comment("<!-- ", " -->")
    suffixes = SUFFIXES

    def claims(self, path: str, name: str, data: bytes) -> bool:
        return is_markdown(path)  # a file named `.md` too


FORMAT = Markdown()
