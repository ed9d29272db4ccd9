"""Mapping keys by path, read by line for every keyed dialect: pairs of text and the paths of
the keys named `pug` (or `wolf`), negatives beside them."""

from __future__ import annotations

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from renamer.key_paths import Dialect, KeyDef, _read, key_defs, key_defs_in, key_text

NAMES = {"pug", "wolf"}


@pytest.mark.parametrize(("text", "dialect", "expected"), [
    pytest.param("net:\n  hosts:\n    pug: {ip: 1}\n    cat: {ip: 2}\n", "yaml", [(("net", "hosts", "pug"), 3)],
                 id="yaml-block"),
    pytest.param("net: {hosts: {pug: {ip: 1}, wolf: {}}}\n", "yaml",
                 [(("net", "hosts", "pug"), 1), (("net", "hosts", "wolf"), 1)], id="yaml-flow"),
    pytest.param("a:\n  - name: x\n    pug: 1\nb:\n  pug: 2\n", "yaml", [(("a", "[]", "pug"), 3), (("b", "pug"), 5)],
                 id="yaml-list-item-then-sibling"),
    pytest.param("a: |\n  pug: 1\nb: 'pug: 2'\n", "yaml", [], id="yaml-block-scalar-and-string-no-key"),
    pytest.param("a: pug\n- pug\nurl: http://pug:80\n", "yaml", [], id="yaml-values-no-key"),
    pytest.param("net:\r\n  hosts:\r\n    pug: 1\r\n", "yaml", [(("net", "hosts", "pug"), 3)], id="yaml-crlf"),
    pytest.param("\ufeffhosts:\n  pug: 1\n", "yaml", [(("hosts", "pug"), 2)], id="yaml-bom"),
    pytest.param('\ufefflocals {\n  hosts = { pug = 1 }\n}\n', "hcl", [(("local", "hosts", "pug"), 2)], id="hcl-bom"),
    pytest.param("\ufeff[pug]\n", "ini", [(("pug",), 1)], id="ini-bom"),
    pytest.param('{\n  "hosts": {\n    "pug": {"ip": "1"}\n  },\n  "x": ["pug", {"pug": 1}]\n}\n', "yaml",
                 [(("hosts", "pug"), 3), (("x", "[]", "pug"), 5)], id="json"),
    pytest.param('[net.hosts.pug]\nip = "1"\n[x]\nhosts = { pug = { ip = "1" } }\na."pug" = 1\n', "toml",
                 [(("net", "hosts", "pug"), 1), (("x", "hosts", "pug"), 4), (("x", "a", "pug"), 5)], id="toml"),
    pytest.param("[pug]\nip = 1\n[all:vars]\npug = 2\n; pug = 3\n", "ini", [(("pug",), 1), (("all:vars", "pug"), 4)],
                 id="ini"),
    pytest.param('variable "hosts" {\n  default = {\n    pug = { ip = "1" }\n  }\n}\n'
                 'locals {\n  hosts = {\n    "pug" = {}\n  }\n}\n'
                 'resource "x" "y" {\n  pug = 1\n}\noutput "a" { value = var.hosts.pug.ip }\n', "hcl",
                 [(("var", "hosts", "pug"), 3), (("local", "hosts", "pug"), 8), (("<resource>", "pug"), 12)],
                 id="hcl-variable-default-locals-resource"),
    pytest.param('hosts = {\n  pug = { ip = "1" } # pug = 2\n}\n// pug = 3\n', "hcl", [(("hosts", "pug"), 2)],
                 id="hcl-tfvars-comments"),
])
def test_keys_by_path(text: str, dialect: Dialect, expected: list[tuple[tuple[str, ...], int]]) -> None:
    assert key_defs(text, dialect, NAMES) == [KeyDef(path, line) for path, line in expected]


# Issue 30: key_defs reads a file only up to the last line where a name may stand as a key, and
# not at all where none does. The reader over all of the text (`_read`) is the reference: the
# answers are the same on text built from every piece the reader cares about (quotes, separators,
# brackets, sections, block scalars, list items, HCL blocks, comments, CRLF, a BOM, Unicode).
_PIECES = ["pug", "wolf", "pug-bmc", "xpug", "pug2", "pug.lan", "-pug", "$pug", "ÿpug", "pugé", "pug/",
           '"', "'", ":", "=", "==", "=~", "=>", ".", ",", "{", "}", "[", "]", "[[", "]]", " ", "  ", "\t",
           "\n", "\r\n", "\r", "- ", "-", "#", ";", "//", "|", ">-", "\\", "a", "b", "1", "net", "hosts",
           "default", 'variable "h" {', "locals {", 'resource "x" "y" {', "é", "\ufeff", "/"]
_NAMES = [{"pug", "wolf"}, {"pug", "pug-bmc", "pug.lan"}, {"pug.lan"}, {"-pug", "pug"}, {"pugé"}]


# Lines as the keyed dialects write them, so that most examples hold keys at some depth.
_LINES = st.tuples(st.sampled_from(["", "  ", "    ", "\t", "- ", "  - "]),
                   st.sampled_from(["pug", "wolf", '"pug"', "'pug'", "a.pug", "pug.lan", "pug-bmc", "a", "[pug]",
                                    "[a.pug]", '[a."pug"]', "[[pug]]", 'variable "pug" {', "locals {", "}", "]",
                                    "{", "- pug", "# pug:", "pugé", "url"]),
                   st.sampled_from(["", ":", ": ", " = ", "=", ":1", " == ", ": |", ": {", " = {", ": [", ",", "]"]),
                   st.sampled_from(["", "1", "pug", "{pug: 1}", "[pug]", "http://pug:80", "}", "{ pug = 1 }",
                                    "'pug: 2'", "  # pug: 3"]),
                   st.sampled_from(["\n", "\r\n", "\n\n"])).map("".join)
_TEXTS = st.lists(st.sampled_from(_PIECES), max_size=60).map("".join) | st.lists(_LINES, max_size=12).map("".join)


@settings(max_examples=2000, deadline=None)
@given(_TEXTS, st.sampled_from(["yaml", "toml", "ini", "hcl"]), st.sampled_from(_NAMES))
@example('net:\n  pug:\n    ip: 1\n', "yaml", {"pug"})
@example('net:\n  pug:', "yaml", {"pug"})
@example('[a.-pug]\n[b]\n', "toml", {"pug"})
@example('pug\n[[pug]]\n', "toml", {"pug"})  # an array of tables (found by the property)
@example('[ÿpug/]\nx = 1\n', "toml", {"pug"})
@example('a: |\n  pug: 1\nb:\n  pug: 2\n', "yaml", {"pug"})
@example('x = { "pug" = 1 }\nurl = "http://pug:80"\n', "hcl", {"pug"})
@example('pug:\r\n  x: 1\r\n', "yaml", {"pug"})
def test_the_cut_reads_the_same_keys_as_every_line(text: str, dialect: Dialect, names: set[str]) -> None:
    whole = _read(text[1:] if text.startswith("\ufeff") else text, dialect, names)
    assert key_defs(text, dialect, names) == whole
    assert key_defs(key_text(text, names), dialect, names) == whole  # as the key index reads it
    if not whole:  # most files holding a name: none of its lines is read
        assert key_text(text, names) == "" or any(name in text for name in names)


def test_a_name_only_as_a_value_reads_no_line() -> None:
    text = "a:\n  host: pug\n  url: http://pug:8006/\n  b: [pug, 'pug']\n" + "c: 1\n" * 1000
    assert key_text(text, {"pug"}) == ""
    assert key_defs(text, "yaml", {"pug"}) == []


def test_the_cut_stops_at_the_last_key_line() -> None:
    text = "net:\n  hosts:\n    pug: {ip: 1}\n" + "c: pug\n" * 1000
    assert key_text(text, {"pug"}) == "net:\n  hosts:\n    pug: {ip: 1}"
    assert key_defs(text, "yaml", {"pug"}) == [KeyDef(("net", "hosts", "pug"), 3)]


def test_a_cut_region_reads_as_the_whole_text() -> None:
    """Review finding 7: the key index cut the text, then key_defs cut the region again; the
    region is read as it is (`key_defs_in`), with the keys `key_defs` finds in the whole text."""
    text = "[hosts.pug]\nip = 1\n[other]\nname = pug\nx = 2\n"
    assert key_defs_in(key_text(text, {"pug"}), "toml", {"pug"}) == key_defs(text, "toml", {"pug"}) != []
