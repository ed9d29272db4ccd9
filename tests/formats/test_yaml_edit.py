"""Allowlist edits by line: every byte not asked about stays; what cannot be done so is refused."""

from __future__ import annotations

import pytest

from renamer.errors import ConfigError
from renamer.formats.yaml_edit import append_entry, remove_entries

TEXT = """\
version: 1   # the format
keep:
  # first
  - name: a
    path: x
    reason: "quoted: kept"

  # second, with its own comment
  - name: b
    path: y
    reason: r
records:
- name: notes
  paths: [notes/**]
  reason: r
"""


def test_remove_takes_the_entry_and_its_own_comment_only() -> None:
    out = remove_entries(TEXT, "allow.yaml", {"keep": {"b"}})
    assert out == TEXT.replace("\n  # second, with its own comment\n  - name: b\n    path: y\n    reason: r\n", "\n")


def test_removing_every_entry_removes_the_key() -> None:
    out = remove_entries(TEXT, "allow.yaml", {"records": {"notes"}})
    assert out == TEXT.split("records:\n")[0]


def test_append_follows_the_lists_own_indentation_crlf_and_bom() -> None:
    out = append_entry(TEXT, "allow.yaml", "records", {"name": "n2", "path": "p", "reason": "a: b"})
    assert out == TEXT + "- name: n2\n  path: p\n  reason: 'a: b'\n"
    crlf = "\ufeff" + TEXT.replace("\n", "\r\n")
    out = append_entry(crlf, "allow.yaml", "keep", {"name": "c", "path": "z", "reason": "r"})
    assert out.startswith("\ufeffversion: 1")
    assert "    reason: r\r\n  - name: c\r\n    path: z\r\n    reason: r\r\nrecords:" in out
    assert "\n" not in out.replace("\r\n", "")


def test_append_creates_the_list_and_refuses_what_it_cannot_edit_by_line() -> None:
    assert append_entry("version: 1\n", "a.yaml", "keep", {"name": "k", "path": "p", "reason": "r"}) == (
        "version: 1\nkeep:\n  - name: k\n    path: p\n    reason: r\n")
    assert append_entry("version: 1", "a.yaml", "keep", {"name": "k", "path": "p", "reason": "r"}).startswith(
        "version: 1\nkeep:\n")
    with pytest.raises(ConfigError, match="flow list"):
        append_entry("keep: [{name: a, path: b, reason: c}]\n", "a.yaml", "keep", {"name": "k"})
    with pytest.raises(ConfigError, match="not a list"):
        append_entry("keep: 3\n", "a.yaml", "keep", {"name": "k"})
    with pytest.raises(ConfigError, match="invalid YAML"):
        remove_entries("keep: [\n", "a.yaml", {"keep": {"a"}})
