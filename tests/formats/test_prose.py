"""Prose: which files hold notes, where a dated heading starts a dated section."""

from __future__ import annotations

import pytest

from renamer.formats import format_of
from renamer.formats.prose import is_prose


@pytest.mark.parametrize("path", (
    pytest.param("notes.txt", id="txt"),
    pytest.param("docs/guide.rst", id="rst"),
    pytest.param("NOTES.ADOC", id="upper-case"),
    pytest.param("README.md", id="markdown"),
    pytest.param("README", id="readme"),
    pytest.param("ops/NOTES", id="notes"),
    pytest.param("CHANGELOG", id="changelog"),
    pytest.param("docs/todo", id="todo-lower-case"),
))
def test_is_prose(path: str) -> None:
    assert is_prose(path)


@pytest.mark.parametrize("path", (
    pytest.param("stack.yaml", id="yaml"),
    pytest.param("bin/run", id="script"),
    pytest.param(".profile", id="dot-file"),
    pytest.param("app.env", id="env"),
    pytest.param("Makefile", id="makefile"),
    pytest.param("Dockerfile", id="dockerfile"),
    pytest.param("Jenkinsfile", id="jenkinsfile"),
    pytest.param("Caddyfile", id="caddyfile"),
    pytest.param(".ssh/config", id="ssh-config"),
    pytest.param("etc/hosts", id="hosts"),
    pytest.param("journal/2026", id="a-suffix-less-note-is-not-guessed"),
))
def test_is_prose_noop(path: str) -> None:
    assert not is_prose(path)


@pytest.mark.parametrize(("path", "name"), (
    pytest.param("notes.txt", "prose", id="txt"),
    pytest.param("README.md", "markdown", id="markdown-first"),
    pytest.param("journal/2026", "text", id="no-suffix-is-text"),
))
def test_claimed(path: str, name: str) -> None:
    assert format_of(path, b"no zone here\n").name == name
