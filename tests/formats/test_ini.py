"""INI: key paths, and a structure check that refuses a section or key declared twice."""

from __future__ import annotations

import pytest

from renamer.formats import format_of
from renamer.formats.ini import edit_problem, locate


@pytest.mark.parametrize("path, name", [
    pytest.param("tox.ini", "ini", id="ini"),
    pytest.param("setup.cfg", "ini", id="cfg"),
    pytest.param("inventory/HOSTS.INI", "ini", id="upper-case"),
    pytest.param("stacks/app.conf", "text", id="noop-conf-is-text"),
    pytest.param("stacks/hosts.ini.j2", "text", id="noop-template-is-text"),
])
def test_claims(path: str, name: str) -> None:
    assert format_of(path, b"[a]\nb = 1\n").name == name


@pytest.mark.parametrize("before, after, expected", [
    pytest.param("[ana-ml2]\nip=1\n[fv-ml1]\nip=2\n", "[fv-ml1]\nip=1\n[fv-ml1]\nip=2\n",
                 "line 3: renaming a section would collide with the existing section 'fv-ml1'", id="section"),
    pytest.param("[hosts]\nana-ml2 = 1\nfv-ml1 = 2\n", "[hosts]\nfv-ml1 = 1\nfv-ml1 = 2\n",
                 "line 3: renaming a key would collide with the existing key 'hosts.fv-ml1'", id="key"),
    pytest.param("[web]\nana-ml2\nfv-ml1\n", "[web]\nfv-ml1\nfv-ml1\n",
                 "line 3: renaming a key would collide with the existing key 'web.fv-ml1'", id="inventory-host"),
    pytest.param("[a]\nh = ana-ml2\n", "[a\nh = fv-ml1\n",
                 "the edit would make the INI invalid: File contains no section headers.", id="made-invalid"),
    # configparser cannot read it before (a key above every section): its key-like lines still count.
    pytest.param("top = 1\n[ana-ml2]\n[fv-ml1]\n", "top = 1\n[fv-ml1]\n[fv-ml1]\n",
                 "line 3: after the rename the section '[fv-ml1]' would stand twice (lines 2, 3): a renamed "
                 "section would collide with an existing one", id="unreadable-before-by-line"),
    pytest.param("[ana-ml2]\nip=1\n[b]\nfv-ml1=2\n", "[fv-ml1]\nip=1\n[b]\nfv-ml1=2\n", None,
                 id="noop-key-and-section-apart"),
    pytest.param("[a]\nana-ml2 = 1\n[b]\nfv-ml1 = 2\n", "[a]\nfv-ml1 = 1\n[b]\nfv-ml1 = 2\n", None,
                 id="noop-same-key-other-section"),
    pytest.param("[a]\nurl = http://ana-ml2:80/%(x)s\n", "[a]\nurl = http://fv-ml1:80/%(x)s\n", None,
                 id="noop-percent-is-data"),
])
def test_edit_problem(before: str, after: str, expected: str | None) -> None:
    assert edit_problem(before, after) == expected


def test_locate() -> None:
    text = "; on ana-ml2\n[ana-ml2]\nhost = ana-ml2\nana-ml2 = 1\n"
    offsets = [text.index("ana-ml2"), text.index("[ana-ml2") + 1, text.index("= ana-ml2") + 2,
               text.index("\nana-ml2 =") + 1]
    assert locate(text, offsets) == [(None, "comment"), ("ana-ml2", "key"), ("ana-ml2.host", "value"),
                                     ("ana-ml2.ana-ml2", "key")]
