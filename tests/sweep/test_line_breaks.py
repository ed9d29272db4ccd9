"""sweep/line_breaks.py: other line breaks read as the consumer reads them, written back as they were
(t35, finding 09)."""

from __future__ import annotations

import io

import pytest
import yaml
from ruamel.yaml import YAML

from renamer.errors import UnsafeError
from renamer.sweep.content import classify_bytes, own_bytes
from renamer.sweep.line_breaks import breaks_of, restore, view
from renamer.sweep.model import Edit, apply_edits

NEL, LS, PS = "\u0085", "\u2028", "\u2029"


@pytest.mark.parametrize(("data", "name"), [
    (b"# Notes\r\r## 2025-03-01\rweb01\r", "notes.md"),  # classic Mac
    (b"a\rb\r\nc\nd\r", "mixed.txt"),  # CR, CRLF and LF in one file
    (b"\r\r\n\n\r", "x.conf"),
    (f"legacy: x  # renamer: keep{NEL}host: y{LS}z: 1{PS}w: 2\r\n".encode(), "vars.yml"),
    (f"const a = 1;{LS}const b = 2;\r".encode(), "app.js"),
])
def test_the_view_keeps_every_offset_and_gives_the_bytes_back(data: bytes, name: str) -> None:
    scanned, codec = view(data, name)
    assert len(scanned) == len(data)
    assert b"\r" not in scanned.replace(b"\r\n", b"")  # no lone CR left for an LF reader
    assert restore(scanned, codec) == data
    assert own_bytes(classify_bytes(data, name=name).data, classify_bytes(data, name=name).codec) == data


def test_lines_are_the_consumers() -> None:
    """Each line of the view is a line of Python's universal newlines (a lone CR, CRLF, LF)."""
    data = b"one\rtwo\r\nthree\nfour\rfive"
    scanned, _ = view(data, "notes.md")
    assert [line.rstrip("\r") for line in scanned.decode().split("\n")] == \
        io.StringIO(data.decode(), newline=None).read().split("\n")
    assert scanned.decode().replace("\r", "").split("\n") == ["one", "two", "three", "four", "five"]


def test_yaml_reads_the_view_as_pyyaml_reads_the_file() -> None:
    """PyYAML (YAML 1.1, Ansible) breaks at NEL, LS, PS and a lone CR; a CR inside a quoted
    scalar is a break there too (folded to a space): the view parses to the same data, also with
    ruamel (YAML 1.2, which renamer's structure checks use and which reads NEL as no break)."""
    for text in (f"legacy: web01  # renamer: keep{NEL}host: web01\nip: 1\n", f"a: 1{LS}b: 2{PS}c: 3\n",
                 "a: 1\rb: 2\r", 'a: "x\ry"\nb: 1\n', 'a: "web01\rhost: 2"\r'):
        data = text.encode()
        scanned, _ = view(data, "vars.yml")
        consumer = yaml.safe_load(data.decode())
        assert yaml.safe_load(scanned.decode()) == consumer
        assert dict(YAML(typ="safe", pure=True).load(scanned.decode())) == consumer
    assert yaml.safe_load(f"legacy: a  # renamer: keep{NEL}host: b\n") == {"legacy": "a", "host": "b"}


def test_only_the_formats_that_break_there() -> None:
    """NEL, LS and PS are no line break to CommonMark or an INI reader: left as they are there."""
    assert breaks_of("a.md") == (b"\r",) and breaks_of("a.ini") == (b"\r",)
    assert len(breaks_of("group_vars/all.YML")) == 4 and len(breaks_of("x.mjs")) == 3
    text = f"# a{LS}## 2025-01-01{NEL}x\n".encode()
    assert view(text, "notes.md") == (text, "")
    assert view(b"plain\nlines\r\n", "a.yml") == (b"plain\nlines\r\n", "")


def test_an_edit_keeps_the_files_own_breaks() -> None:
    data = b"# keep\rhost=web01.lab.example\r\nip=10.0.0.70\rend"
    scanned, codec = view(data, "t.txt")
    start = scanned.index(b"web01.lab.example")
    edited = apply_edits(scanned, [Edit(start, start + len(b"web01.lab.example"), b"app01.lab.example.longer")])
    assert restore(edited, codec) == data.replace(b"web01.lab.example", b"app01.lab.example.longer")


def test_an_edit_adding_a_line_is_refused_never_guessed() -> None:
    scanned, codec = view(b"a\rb\rc", "t.txt")
    with pytest.raises(UnsafeError, match="add or remove a line"):
        restore(scanned.replace(b"b", b"b\nb2"), codec)
    scanned, codec = view(f"a: 1{NEL}b: 2\n".encode(), "v.yaml")
    with pytest.raises(UnsafeError, match="write over a line break"):
        restore(scanned.replace(b"1\r", b"2"), codec)  # NEL's view, CRLF, half written over
