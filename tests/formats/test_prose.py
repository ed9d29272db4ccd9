"""Prose: which files hold notes, where a dated heading starts a dated section."""

from __future__ import annotations

import pytest

from renamer.formats import format_of
from renamer.formats.prose import is_prose, reads_as_configuration


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


@pytest.mark.parametrize("path", (
    "requirements.txt", "requirements-dev.txt", "dev-requirements.txt", "requirements/prod.txt",
    "constraints.txt", "CMakeLists.txt", "src/CMakeLists.txt", "robots.txt", ".well-known/security.txt",
    "hosts.txt", "ansible-hosts.txt", "servers.txt", "ads.txt", "bindep.txt", "runtime.txt",
))
def test_txt_configuration_by_name_is_no_prose(path: str) -> None:
    assert not is_prose(path)


@pytest.mark.parametrize("path", (
    "retired-hosts.txt", "decommissioned_nodes.txt", "old.servers.txt", "ops/former-targets.txt",
    "web-retired-hosts.txt",
))
def test_a_list_named_for_what_is_gone_is_prose(path: str) -> None:
    """Its lines decide, and a dated comment heading them keeps them (break-it round 9, #12)."""
    assert is_prose(path)


@pytest.mark.parametrize("lines", (
    pytest.param(["# 2025-03-01", "DB_HOST=pug", "", "PORT = 5432"], id="key-value"),
    pytest.param(["# 2025-03-01", "10.0.0.5 pug pug.lan", "fe80::1%eth0 rex"], id="hosts-list"),
    pytest.param(["# 2025-03-01", "pug", "rex.lan", "10.0.0.0/24"], id="one-word-lines"),
    pytest.param(["# x", "-r base.txt", "--index-url https://pug/simple", "requests[socks]>=2.31 ; python_version>'3'",
                  "lib @ git+ssh://git@pug/lib.git"], id="pip"),
    pytest.param(["# x", "set(SERVER pug)", "add_executable(app", "  main.c", ")"], id="cmake"),
    pytest.param(["User-agent: *", "Disallow: /private", "Sitemap: https://pug/s.xml"], id="robots"),
    pytest.param(["; a comment", "// another", "host=pug"], id="other-comments"),
))
def test_txt_lines_that_are_configuration(lines: list[str]) -> None:
    assert reads_as_configuration("ops/list.txt", lines)
    assert not reads_as_configuration("ops/list.md", lines)  # Markdown is prose whatever it holds


@pytest.mark.parametrize("lines", (
    pytest.param(["# 2025-03-01 moved", "ssh pug was used then"], id="a-sentence"),
    pytest.param(["# 2025-03-01", "We moved it.", "DB_HOST=pug"], id="a-sentence-among-config"),
    pytest.param(["# 2025-03-01 only a heading"], id="no-line-but-comments"),
    pytest.param([], id="empty"),
    pytest.param(["- moved pug (see below)"], id="a-bullet"),
    pytest.param(["Note: pug moved"], id="a-colon-line-that-is-no-directive"),
))
def test_txt_lines_that_are_prose(lines: list[str]) -> None:
    assert not reads_as_configuration("ops/notes.txt", lines)
