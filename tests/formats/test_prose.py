"""Prose: which files hold notes, where a dated heading starts a dated section."""

from __future__ import annotations

import pytest

from renamer.formats import format_of
from renamer.formats.prose import is_prose


@pytest.mark.parametrize(("path", "first_line"), (
    pytest.param("notes.txt", "", id="txt"),
    pytest.param("docs/guide.rst", "", id="rst"),
    pytest.param("NOTES.ADOC", "", id="upper-case"),
    pytest.param("README.md", "", id="markdown"),
    pytest.param("journal/2026", "# 2026-01-01", id="no-suffix"),
))
def test_is_prose(path: str, first_line: str) -> None:
    assert is_prose(path, first_line)


@pytest.mark.parametrize(("path", "first_line"), (
    pytest.param("stack.yaml", "", id="yaml"),
    pytest.param("bin/run", "#!/bin/sh", id="script"),
    pytest.param(".profile", "", id="dot-file"),
    pytest.param("app.env", "", id="env"),
))
def test_is_prose_noop(path: str, first_line: str) -> None:
    assert not is_prose(path, first_line)


@pytest.mark.parametrize(("path", "name"), (
    pytest.param("notes.txt", "prose", id="txt"),
    pytest.param("README.md", "markdown", id="markdown-first"),
    pytest.param("journal/2026", "text", id="no-suffix-is-text"),
))
def test_claimed(path: str, name: str) -> None:
    assert format_of(path, b"no zone here\n").name == name
