"""Prose: notes and documents, where a dated heading starts a dated section (a record).

Markdown is prose too (formats/markdown.py claims it first, for its anchors); this
format claims the other document suffixes. `is_prose` is the dated-section rule's
question, asked by path.
"""

from __future__ import annotations

from renamer.formats.base import BaseFormat
from renamer.formats.markdown import SUFFIXES as MARKDOWN

SUFFIXES = frozenset({*MARKDOWN, ".txt", ".text", ".rst", ".adoc", ".asciidoc", ".org", ".textile", ".wiki"})


def is_prose(path: str, first_line: str) -> bool:
    """Markdown and plain-text notes: by suffix, or a name without one that is no script."""
    name = path.rsplit("/", 1)[-1]
    stem, dot, suffix = name.rpartition(".")
    if dot and stem:
        return f".{suffix.lower()}" in SUFFIXES
    return not first_line.startswith("#!") and not name.startswith(".")


class Prose(BaseFormat):
    name = "prose"
    suffixes = tuple(sorted(SUFFIXES))


FORMAT = Prose()
