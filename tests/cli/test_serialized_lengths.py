"""PHP-serialized strings carry their length in bytes (`s:17:"web01.lab.example";`): a rename of
another length rewrites the length with the text, or unserialize() fails and WordPress reads the
option as missing (break-it round 21, finding 28)."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Result

CONFIG = "version: 1\nrenames:\n  hosts: {web01.lab.example: db.lab.example, pug: wolfhound}\nallowlist: allow.yaml\n"
ALLOW = "version: 1\ncurrent: ['**']\n"


def _unserialize(data: bytes, at: int = 0) -> tuple[object, int]:
    """A strict reader of PHP's serialize() output (strings, ints, arrays), over bytes as PHP reads
    it: raises where unserialize() would fail."""
    kind = data[at:at + 1]
    if kind == b"i":
        end = data.index(b";", at)
        return int(data[at + 2:end]), end + 1
    if kind == b"s":
        colon = data.index(b":", at + 2)
        length, begin = int(data[at + 2:colon]), colon + 2
        if data[begin + length:begin + length + 2] != b'";':
            raise ValueError(f"s:{length} does not end where its string does")
        return data[begin:begin + length].decode(), begin + length + 2
    if kind == b"a":
        colon = data.index(b":", at + 2)
        count, at = int(data[at + 2:colon]), colon + 2
        out = {}
        for _ in range(count):
            key, at = _unserialize(data, at)
            out[key], at = _unserialize(data, at)
        if data[at:at + 1] != b"}":
            raise ValueError("array does not close")
        return out, at + 1
    raise ValueError(f"unknown type {kind!r}")


@pytest.mark.parametrize(("text", "expected"), [
    pytest.param('a:1:{s:4:"host";s:17:"web01.lab.example";}', {"host": "db.lab.example"}, id="shorter"),
    pytest.param('a:2:{s:4:"host";s:3:"pug";s:4:"port";i:80;}', {"host": "wolfhound", "port": 80}, id="longer"),
    pytest.param('a:1:{s:3:"url";s:25:"https://web01.lab.example";}', {"url": "https://db.lab.example"},
                 id="inside-a-url"),
    pytest.param('a:1:{s:5:"hosts";s:21:"pug web01.lab.example";}', {"hosts": "wolfhound db.lab.example"},
                 id="two-renames-in-one-string"),
    pytest.param('a:1:{s:5:"café";s:3:"pug";}', {"café": "wolfhound"}, id="multibyte-key"),
])
def test_the_length_follows_the_string(text: str, expected: object, repo: Callable[..., Path],
                                       run: Callable[..., Result]) -> None:
    line = f"INSERT INTO wp_options VALUES (1,'siteurl','{text}','yes');\n"
    root = repo({"dump.sql": line, "cache.ser": text + "\n"}, config=CONFIG, allowlist=ALLOW)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    for rel in ("dump.sql", "cache.ser"):
        written = (root / rel).read_bytes()
        value = re.search(rb"a:\d+:\{.*\}", written)
        assert value is not None and _unserialize(value.group(0))[0] == expected, written
    assert run(root, "verify").exit_code == 0
    assert run(root, "sweep", "--commit").exit_code == 0  # nothing more to change


def test_a_serialized_value_serialized_again_counts_both_lengths(repo: Callable[..., Path],
                                                                 run: Callable[..., Result]) -> None:
    inner = 'a:1:{s:4:"host";s:17:"web01.lab.example";}'
    outer = f'a:1:{{s:4:"opts";s:{len(inner)}:"{inner}";}}'
    root = repo({"cache.ser": outer + "\n"}, config=CONFIG, allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 0
    written = (root / "cache.ser").read_bytes().strip()
    opts = _unserialize(written)[0]
    assert isinstance(opts, dict) and _unserialize(opts["opts"].encode())[0] == {"host": "db.lab.example"}


@pytest.mark.parametrize("text", [
    pytest.param('host: "s:17:" web01.lab.example\n', id="no-string-after-the-length"),
    pytest.param('note: s:99:"web01.lab.example" is the old form\n', id="a-length-that-lands-nowhere"),
])
def test_text_that_only_looks_serialized_gets_no_length_edit(text: str, repo: Callable[..., Path],
                                                             run: Callable[..., Result]) -> None:
    root = repo({"notes.yaml": text}, config=CONFIG, allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 0
    assert (root / "notes.yaml").read_text() == text.replace("web01.lab.example", "db.lab.example")
