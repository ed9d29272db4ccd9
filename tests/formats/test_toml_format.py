"""TOML key paths: the first format plugin added through the registry (formats/toml_format.py)."""

from __future__ import annotations

import json
import re
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from renamer.formats import format_of
from renamer.formats.toml_format import locate
from tests.conftest import Result

_OLD = re.compile(r"ana-ml2|10\.250\.50\.54")


def _located(text: str) -> list[tuple[str | None, str]] | None:
    return locate(text, [m.start() for m in _OLD.finditer(text)])


@pytest.mark.parametrize(("text", "expected"), (
    pytest.param('host = "ana-ml2"\n', [("host", "value")], id="value"),
    pytest.param("host = 'ana-ml2'\n", [("host", "value")], id="literal-string"),
    pytest.param('[servers]\nip = "10.250.50.54"\n', [("servers.ip", "value")], id="table"),
    pytest.param('[servers.web]\nip = "10.250.50.54"\n', [("servers.web.ip", "value")], id="dotted-table"),
    pytest.param('[ana-ml2]\nport = 1\n', [("ana-ml2", "key")], id="table-name"),
    pytest.param('ana-ml2 = 1\n', [("ana-ml2", "key")], id="bare-key"),
    pytest.param('a.b.c = "ana-ml2"\n', [("a.b.c", "value")], id="dotted-key"),
    pytest.param('"odd.key" = "ana-ml2"\n', [('["odd.key"]', "value")], id="quoted-key"),
    pytest.param('ports = [8000, "ana-ml2:80"]\n', [("ports[1]", "value")], id="array"),
    pytest.param('ports = [\n  "x",\n  "ana-ml2",  # ana-ml2\n]\n', [("ports[1]", "value"), (None, "comment")],
                 id="multi-line-array"),
    pytest.param('h = { host = "ana-ml2", n = 1.5 }\n', [("h.host", "value")], id="inline-table"),
    pytest.param('[[hosts]]\nname = "a"\n[[hosts]]\nname = "ana-ml2"\n', [("hosts[1].name", "value")],
                 id="array-of-tables"),
    pytest.param('[[a]]\n[[a.b]]\nx = "ana-ml2"\n', [("a[0].b[0].x", "value")], id="nested-array-of-tables"),
    pytest.param('ml = """\nssh ana-ml2\n"""\n', [("ml", "value")], id="multi-line-string"),
    pytest.param("ml = '''\nssh ana-ml2\n'''\n", [("ml", "value")], id="multi-line-literal"),
    pytest.param('d = 1979-05-27 07:32:00\nh = "ana-ml2"\n', [("h", "value")], id="after-a-spaced-date-time"),
    pytest.param('# ana-ml2\nx = 1\n', [(None, "comment")], id="comment-line"),
    pytest.param('x = "a" # on ana-ml2\n', [(None, "comment")], id="trailing-comment"),
    pytest.param('h = "ana-ml2"\nbroken = [\n', [("h", "value")], id="broken-after-the-reference"),
))
def test_locate_finds(text: str, expected: list[tuple[str | None, str]]) -> None:
    assert _located(text) == expected


@pytest.mark.parametrize("text", (
    pytest.param('broken = [\nh = "ana-ml2"\n', id="broken-before-the-reference"),
    pytest.param('= "ana-ml2"\n', id="no-key"),
    pytest.param('[ana-ml2\n', id="unclosed-table"),
))
def test_locate_noop_where_the_toml_breaks(text: str) -> None:
    assert _located(text) is None


CORPUS = '''\
title = "ana-ml2 gateway"
[owner]
name = "ops"
dob = 1979-05-27T07:32:00-08:00
[database]
enabled = true
ports = [ 8000, 8001, 8002 ]
data = [ ["delta", "phi"], [3.14] ]
temp_targets = { cpu = 79.5, case = 72.0 }
[servers.alpha]
ip = "10.250.50.54"
role = "frontend"
[servers."ana-ml2.lan"]
ip = "10.0.0.2"
[[products]]
name = "Hammer"
sku = 738594937
[[products]]
[[products]]
name = "Nail"
color = "gray"
aliases = { primary = "ana-ml2", list = ["ana-ml2", 'x'] }
'''


def _walk(tree: Any, path: str) -> Any:
    for part in re.findall(r'\["([^"]*)"\]|\[(\d+)\]|([A-Za-z0-9_-]+)', path):
        quoted, index, plain = part
        tree = tree[int(index)] if index else tree[quoted or plain]
    return tree


def test_every_string_value_path_leads_to_that_string() -> None:
    """A property over a corpus: each string's key path, walked in tomllib's own reading of the
    document, reaches a value holding that string."""
    tree = tomllib.loads(CORPUS)
    strings = [m for m in re.finditer(r'"([^"\n]*)"', CORPUS) if "=" in CORPUS[m.end():m.end() + 3]
               or CORPUS[m.end():m.end() + 1] in ",]} \n"]
    located = locate(CORPUS, [m.start() + 1 for m in strings])
    assert located is not None
    for match, (path, role) in zip(strings, located, strict=True):
        if role == "key":
            continue
        assert role == "value", match.group()
        assert path is not None
        assert match.group(1) in str(_walk(tree, path)), (path, match.group())


def test_claimed_by_the_toml_format() -> None:
    fmt = format_of("pyproject.toml", b"")
    assert (fmt.name, fmt.keys, fmt.structured) == ("toml", True, True)


def test_verify_names_the_toml_key_path(repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    """End to end: verify's JSON gives a TOML reference its key path, as it does for YAML."""
    root = repo({"stacks/gateway.toml": '[upstream.ml]\nurl = "http://ana-ml2:8000"\n'
                                        'hosts = ["x", "10.250.50.54"]\n'})
    done = run(root, "verify", "--format", "json")
    assert done.exit_code == 1
    found = {(f["path"], f["line"]): f["key_path"] for f in json.loads(done.stdout)["findings"]}
    assert found == {("stacks/gateway.toml", 2): "upstream.ml.url", ("stacks/gateway.toml", 3): "upstream.ml.hosts[1]"}
