"""JSON and TOML structure checks, and the format and plain-value rules they rest on."""

from __future__ import annotations

import json

import pytest

from renamer.formats import format_of as claimed_by
from renamer.formats import plain_safe
from renamer.formats.data_formats import edit_problem

_PARSED = {"yaml", "json", "toml", "python"}


def format_of(path: str, data: bytes) -> str | None:
    """The parsed format claiming the file, or None where text rules apply (Markdown, .env, ...)."""
    name = claimed_by(path, data).name
    return name if name in _PARSED else None


@pytest.mark.parametrize(("fmt", "before", "after", "expected"), (
    pytest.param("json", '{"ana-ml2": 1, "fv-ml1": 2}', '{"fv-ml1": 1, "fv-ml1": 2}',
                 "renaming a key would collide with the existing key 'fv-ml1'", id="json-key-collision"),
    pytest.param("json", '{"a": {"b": "x", "c": "y"}}', '{"a": {"b": "y", "b": "y"}}',
                 "renaming a key would collide with the existing key 'b'", id="json-nested-collision"),
    pytest.param("json", '{"h": "ana"}', '{"h": 5}', "the edit would change the JSON structure",
                 id="json-string-to-number"),
    pytest.param("json", '{"h": "ana"}', '{"h": ["a"]}', "the edit would change the JSON structure",
                 id="json-string-to-list"),
    pytest.param("json", '{"h": ["a", "b"]}', '{"h": ["a"]}', "the edit would change the JSON structure",
                 id="json-list-length"),
    pytest.param("json", '{"a": 1}', '{"a": 1.0}', "the edit would change the JSON structure", id="json-int-to-float"),
    pytest.param("json", '{"a": true}', '{"a": 1}', "the edit would change the JSON structure", id="json-bool-to-int"),
    pytest.param("json", "1", '"1"', "the edit would change the JSON structure", id="json-root-type"),
    pytest.param("json", '{"h": "a"}', '{"h": "a}',
                 "the edit would make the JSON invalid: Unterminated string starting at: line 1 column 7 (char 6)",
                 id="json-made-invalid"),
    pytest.param("toml", 'h = "a"\n', "h = 5\n", "the edit would change the TOML structure", id="toml-string-to-int"),
    pytest.param("toml", 'h = ["a"]\n', 'h = ["a", "b"]\n', "the edit would change the TOML structure",
                 id="toml-array-length"),
    pytest.param("toml", "a = 1\n", "a = 1.0\n", "the edit would change the TOML structure", id="toml-int-to-float"),
))
def test_edit_problem_finds(fmt: str, before: str, after: str, expected: str) -> None:
    problem = edit_problem(fmt, before, after)
    assert problem is not None and expected in problem, problem


@pytest.mark.parametrize(("fmt", "before", "after", "expected"), (
    # A key lost where two keys become one, named at the mapping that loses it.
    pytest.param("toml", "[a]\nx = 1\n[b]\ny = 2\n", "[a]\nx = 1\n[a.y]\n", "the document: the edit would change the "
                 "TOML structure (2 keys before the edit, 1 after", id="toml-two-tables-become-one"),
    pytest.param("json", '{"s": {"a": 1, "b": [1, 2]}}', '{"s": {"a": 1, "b": [1]}}',
                 "s.b: the edit would change the JSON structure (a list of 2 items before the edit, 1 after)",
                 id="json-list-named"),
    pytest.param("json", '{"s": {"a": "1"}}', '{"s": {"a": 1}}',
                 "s.a: the edit would change the JSON structure (a str would become a int)", id="json-type-named"),
    pytest.param("toml", 'h = { a = 1, "b" = 2 }\n', 'h = { a = 1, "\\u0061" = 2 }\n',
                 "line 1: the edit would make the TOML invalid: Duplicate inline table key 'a'",
                 id="toml-inline-duplicate-at-its-line"),
))
def test_edit_problem_names_where(fmt: str, before: str, after: str, expected: str) -> None:
    problem = edit_problem(fmt, before, after)
    assert problem is not None and problem.startswith(expected), problem


# tomllib reports a duplicate key itself, as a parse error, with the line of the key already there.
@pytest.mark.parametrize(("before", "after", "expected"), (
    pytest.param("[ana-ml2]\nport = 1\n[fv-ml1]\nport = 2\n", "[fv-ml1]\nport = 1\n[fv-ml1]\nport = 2\n",
                 "line 3: renaming a key or table would collide with the existing 'fv-ml1'", id="table-collision"),
    pytest.param("ana-ml2 = 1\nfv-ml1 = 2\n", "fv-ml1 = 1\nfv-ml1 = 2\n",
                 "line 2: renaming a key would collide with the existing key there", id="key-collision"),
    pytest.param('h = "a"\n', 'h = "a\n', "line 1: the edit would make the TOML invalid: Illegal character",
                 id="made-invalid"),
))
def test_toml_edit_problem_finds(before: str, after: str, expected: str) -> None:
    problem = edit_problem("toml", before, after)
    assert problem is not None
    assert problem.startswith(expected)


@pytest.mark.parametrize(("fmt", "before", "after"), (
    pytest.param("json", '{"h": "ana-ml2"}', '{"h": "fv-ml1"}', id="json-value"),
    pytest.param("json", '{"a": "x"}', '{"b": "x"}', id="json-key-rename"),
    pytest.param("json", '[1, {"a": {"b": "x"}}]', '[1, {"a": {"b": "y"}}]', id="json-nested-value"),
    pytest.param("json", '{"ana-ml2": 1, "x": 2}', '{"fv-ml1": 1, "x": 2}', id="json-key-no-collision"),
    pytest.param("json", '{"h": "a"', '{"h": "b"}', id="json-unreadable-before"),
    pytest.param("json", '{"a": 1, "a": 2}', '{"a": 1, "a": 3}', id="json-duplicate-before"),
    pytest.param("toml", 'host = "ana-ml2"\n', 'host = "fv-ml1"\n', id="toml-value"),
    pytest.param("toml", '[a]\nx = "1"\n', '[b]\nx = "1"\n', id="toml-table-rename"),
    pytest.param("toml", "d = 2024-01-01\n", "d = 2024-01-02\n", id="toml-date-stays-date"),
    pytest.param("toml", "h = \n", "h = 1\n", id="toml-unreadable-before"),
))
def test_edit_problem_leaves_alone(fmt: str, before: str, after: str) -> None:
    assert edit_problem(fmt, before, after) is None


@pytest.mark.parametrize(("path", "data", "expected"), (
    pytest.param("a.yaml", b"", "yaml", id="yaml"),
    pytest.param("dir/B.YML", b"", "yaml", id="yml-upper-case"),
    pytest.param("x.json", b"", "json", id="json"),
    pytest.param("a.JSON", b"", "json", id="json-upper-case"),
    pytest.param(".config/x.json", b"", "json", id="in-hidden-folder"),
    pytest.param("pyproject.toml", b"", "toml", id="toml"),
    pytest.param("s.py", b"", "python", id="py"),
    pytest.param("s.pyi", b"", "python", id="pyi"),
    pytest.param("bin/tool", b"#!/usr/bin/env python3\nprint(1)\n", "python", id="env-shebang"),
    pytest.param("bin/tool", b"#!/usr/bin/python3\n", "python", id="path-shebang"),
    pytest.param("x.txt", b"#!/usr/bin/env python\n", "python", id="unknown-extension-shebang"),
    pytest.param("s.py", b"#!/bin/bash\n", "python", id="extension-beats-shebang"),
    pytest.param("bin/tool", b"#!/usr/bin/python", "python", id="shebang-without-newline"),
))
def test_format_of_finds(path: str, data: bytes, expected: str) -> None:
    assert format_of(path, data) == expected


@pytest.mark.parametrize(("path", "data"), (
    pytest.param("README.md", b"# ana-ml2\n", id="markdown"),
    pytest.param("dir/.env", b"HOST=ana-ml2\n", id="dotenv"),
    pytest.param(".yaml", b"a: 1\n", id="hidden-file-named-like-extension"),
    pytest.param("a.yaml.bak", b"a: 1\n", id="backup-suffix"),
    pytest.param("dir.yaml/file", b"a: 1\n", id="extension-on-folder"),
    pytest.param("Makefile", b"all:\n", id="no-extension"),
    pytest.param("bin/tool", b"#!/bin/bash\necho python\n", id="python-after-first-line"),
    pytest.param("bin/tool", b"#!/bin/sh\n# python", id="python-in-comment"),
    pytest.param("bin/tool", b"print(1)\n", id="no-shebang"),
    pytest.param("bin/tool", b"", id="empty"),
))
def test_format_of_leaves_alone(path: str, data: bytes) -> None:
    assert format_of(path, data) is None


@pytest.mark.parametrize("value", (
    pytest.param("fv-ml1", id="host"),
    pytest.param("fv-ml1.fv.lan", id="fqdn"),
    pytest.param("a1", id="letter-then-digit"),
    pytest.param("nulls", id="keyword-prefix"),
    pytest.param("yess", id="keyword-longer"),
    pytest.param("10.251.50.54", id="ipv4"),
    pytest.param("2001:db8::1", id="ipv6"),
    pytest.param("::1", id="ipv6-loopback"),
))
def test_plain_safe_finds_safe_values(value: str) -> None:
    assert plain_safe(value) is True


@pytest.mark.parametrize("value", (
    pytest.param("yes", id="yes"),
    pytest.param("Yes", id="yes-title-case"),
    pytest.param("NO", id="no-upper-case"),
    pytest.param("on", id="on"),
    pytest.param("off", id="off"),
    pytest.param("y", id="y"),
    pytest.param("n", id="n"),
    pytest.param("true", id="true"),
    pytest.param("False", id="false"),
    pytest.param("null", id="null"),
    pytest.param("~", id="tilde"),
    pytest.param("1e5", id="float-exponent"),
    pytest.param("123", id="int"),
    pytest.param("0x1F", id="hex"),
    pytest.param("1.2.3", id="version"),
    pytest.param("10.0.0.1.2", id="five-octets"),
    pytest.param("-x", id="leading-dash"),
    pytest.param(".hidden", id="leading-dot"),
    pytest.param("_x", id="leading-underscore"),
    pytest.param("", id="empty"),
))
def test_plain_safe_noop_for_risky_values(value: str) -> None:
    assert plain_safe(value) is False


# -- TOML collisions through the CLI (issue 32, item 5) ---------------------------------------------

TOML_CONFIG = "version: 1\nrenames:\n  hosts: {pug: wolf}\nallowlist: allow.yaml\n"


@pytest.mark.parametrize(("text", "said"), [
    pytest.param('[servers]\npug = 1\nwolf = 2\n', "c.toml:3: renaming a key would collide with the existing key "
                 "there (line 2 ('pug = 1') meets line 3 ('wolf = 2'))", id="two-keys"),
    pytest.param('[servers.pug]\nip = "a"\n\n[servers.wolf]\nip = "b"\n',
                 "c.toml:4: renaming a key or table would collide with the existing 'servers', 'wolf' "
                 "(line 1 ('[servers.pug]') meets line 4 ('[servers.wolf]'))", id="two-tables"),
    pytest.param('[[hosts]]\nname = "pug"\nip = "a"\n\n[[hosts]]\nname = "wolf"\nip = "b"\n',
                 "c.toml:6: the edit makes two entries of the TOML array of tables `hosts` name 'wolf' "
                 "(lines 2, 6): one entry would stand for two", id="two-array-of-tables-entries-by-name"),
    pytest.param('[net]\nhosts = [{ name = "pug", ip = "a" }, { name = "wolf", ip = "b" }]\n',
                 "c.toml:2: the edit makes two entries of the TOML array of tables `net.hosts` name 'wolf'",
                 id="an-inline-array-of-tables"),
    # break-it t26-32, finding 06: entries told apart by `hostname`, `id` or `fqdn` (not only `name`)
    pytest.param('[[hosts]]\nhostname = "pug"\nip = "10.0.0.1"\n\n[[hosts]]\nhostname = "wolf"\nip = "10.0.0.2"\n',
                 "c.toml:6: the edit makes two entries of the TOML array of tables `hosts` hostname 'wolf' "
                 "(lines 2, 6): one entry would stand for two", id="entries-by-hostname"),
    pytest.param('nodes = [ { id = "pug", ip = "1" }, { id = "wolf", ip = "2" } ]\n',
                 "c.toml:1: the edit makes two entries of the TOML array of tables `nodes` id 'wolf'", id="entries-by-id"),
    pytest.param('[[hosts]]\nfqdn = "pug.lan"\n\n[[hosts]]\nfqdn = "wolf.lan"\n',
                 "the edit makes two entries of the TOML array of tables `hosts` fqdn 'wolf.lan'", id="entries-by-fqdn"),
    # break-it t26-32, finding 11: dotted keys merged two hosts' tables silently, exit 0, verify OK
    pytest.param('servers.pug.ip = "10.0.0.1"\nservers.wolf.port = 22\n',
                 "c.toml:1: renaming a key would merge the TOML table `servers.pug` into the existing "
                 "`servers.wolf` (lines 1, 2): one table would hold both hosts' keys", id="top-level-dotted-keys"),
    pytest.param('[servers]\npug.ip = "10.0.0.1"\nwolf.port = 22\n',
                 "c.toml:2: renaming a key would merge the TOML table `servers.pug` into the existing "
                 "`servers.wolf` (lines 2, 3)", id="dotted-keys-under-a-header"),
    pytest.param('pug.net.ip = "10.0.0.1"\nwolf.net.port = 22\n',
                 "c.toml:1: renaming a key would merge the TOML table `pug` into the existing `wolf` (lines 1, 2)",
                 id="dotted-keys-deeper"),
])
def test_a_rename_that_makes_two_toml_names_one_is_refused_naming_both_lines(text, said, repo, run) -> None:
    from tests.testing.repos import snapshot
    root = repo({"c.toml": text}, config=TOML_CONFIG, allowlist="version: 1\ncurrent: ['**']\n")
    before = snapshot(root)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 3, done.stdout + done.stderr
    assert said in done.stderr, done.stderr
    assert done.stderr.startswith("renamer: error: ") and len(done.stderr.strip().splitlines()) == 1
    assert snapshot(root) == before  # nothing written
    found = json.loads(run(root, "verify", "--format", "json").stdout)["findings"]
    assert [f["reason"] for f in found] == ["structure"], found


def test_entries_that_share_a_host_they_run_on_are_written(repo, run) -> None:
    # `host` names where an entry runs: two services may run on one host (t26-32, finding 06)
    text = '[[services]]\nname = "web"\nhost = "pug"\n\n[[services]]\nname = "db"\nhost = "wolf"\n'
    root = repo({"c.toml": text}, config=TOML_CONFIG, allowlist="version: 1\ncurrent: ['**']\n")
    assert run(root, "sweep", "--commit").exit_code == 0
    assert (root / "c.toml").read_text() == text.replace("pug", "wolf")


def test_array_of_tables_entries_named_apart_after_the_rename_pass(repo, run) -> None:
    text = '[[hosts]]\nname = "pug"\n\n[[hosts]]\nname = "rex"\n'
    root = repo({"c.toml": text}, config=TOML_CONFIG, allowlist="version: 1\ncurrent: ['**']\n")
    assert run(root, "sweep", "--commit").exit_code == 0
    assert (root / "c.toml").read_text() == text.replace("pug", "wolf")
