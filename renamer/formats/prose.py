"""Prose: notes and documents, where a dated heading starts a dated section (a record).

Markdown is prose too (formats/markdown.py claims it first, for its anchors); this
format claims the other document suffixes. `is_prose` is the dated-section rule's
question, asked by path.
"""

from __future__ import annotations

from renamer.formats.base import BaseFormat
from renamer.formats.markdown import SUFFIXES as MARKDOWN

SUFFIXES = frozenset({*MARKDOWN, ".txt", ".text", ".rst", ".adoc", ".asciidoc", ".org", ".textile", ".wiki"})


# Files without a suffix that are notes by their name; any other suffix-less file (Makefile,
# Dockerfile, Jenkinsfile, Caddyfile, an ssh `config`, `hosts`, a crontab) is configuration,
# where a `# 2025-03-01 ...` line is a comment, never a dated heading.
NAMES = frozenset({"README", "NOTES", "CHANGELOG", "CHANGES", "HISTORY", "NEWS", "TODO", "JOURNAL"})


def is_prose(path: str) -> bool:
    """Markdown and plain-text notes, a closed list: by suffix, or by name (README, NOTES, ...)."""
    name = path.rsplit("/", 1)[-1]
    stem, dot, suffix = name.rpartition(".")
    if dot and stem:
        return f".{suffix.lower()}" in SUFFIXES
    return name.upper() in NAMES


class Prose(BaseFormat):
    name = "prose"
    suffixes = tuple(sorted(SUFFIXES))


FORMAT = Prose()
