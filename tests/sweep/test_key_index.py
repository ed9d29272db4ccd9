"""The decision for a reference to a key named by an old host (pure: the repo's keys are given),
and which files are read as which keyed dialect."""

from __future__ import annotations

import pytest

from renamer.key_refs import KeyRef
from renamer.sweep.key_index import Decision, KeyDef, decide, dialect_of

NET = KeyDef(("net", "hosts", "pug"), "group_vars/all.yml", 3, "moves")
MOVED = KeyDef(("net", "hosts", "wolf"), "group_vars/all.yml", 3, "new")
RECORD = KeyDef(("old", "hosts", "pug"), "archive/net.json", 1, "stays", "archive", record=True)
SAME_PATH_RECORD = KeyDef(("net", "hosts", "pug"), "archive/net.yml", 2, "stays", "archive", record=True)
SAME_PATH_KEPT = KeyDef(("net", "hosts", "pug"), "group_vars/lab.yml", 2, "stays", "inline")
SAME_PATH_UNSURE = KeyDef(("net", "hosts", "pug"), "lab/net.yml", 1, "unsure")


def _ref(*path: str) -> KeyRef:
    return KeyRef(0, 3, "pug", path, ".".join(path), quoted=False)


@pytest.mark.parametrize(("path", "defs", "action", "where"), [
    pytest.param(("net", "hosts", "pug"), [NET], "follow", "group_vars/all.yml:3", id="renamed-key"),
    pytest.param(("net", "hosts", "pug"), [MOVED], "follow", "group_vars/all.yml:3", id="moved-before"),
    pytest.param(("net", "hosts", "pug"), [SAME_PATH_RECORD, NET], "follow", "group_vars/all.yml:3",
                 id="the-live-key-wins-over-a-record-copy"),
    pytest.param(("old", "hosts", "pug"), [NET, RECORD], "keep", "archive/net.json:1", id="record-key"),
    pytest.param(("net", "hosts", "pug"), [NET, SAME_PATH_KEPT], "refuse", "group_vars/lab.yml:2",
                 id="renamed-and-kept-live-at-one-path"),
    pytest.param(("net", "hosts", "pug"), [MOVED, SAME_PATH_KEPT], "refuse", "group_vars/lab.yml:2",
                 id="moved-before-and-kept-live"),
    pytest.param(("net", "hosts", "pug"), [SAME_PATH_UNSURE], "refuse", "lab/net.yml:1", id="which-file-unsure"),
    pytest.param(("hosts", "pug"), [NET], "refuse", "group_vars/all.yml:3", id="partial-path"),
    pytest.param(("net", "hosts", "*", "pug"), [NET], "refuse", "group_vars/all.yml:3", id="variable-part"),
    pytest.param(("net", "*", "pug"), [SAME_PATH_RECORD], None, None, id="only-a-record-has-the-name"),
    pytest.param(("net", "hosts", "pug"), [], None, None, id="no-key-of-that-name"),
])
def test_decide(path: tuple[str, ...], defs: list[KeyDef], action: str | None, where: str | None) -> None:
    decided: Decision | None = decide(_ref(*path), "wolf", defs)
    if action is None:
        assert decided is None
    else:
        assert decided is not None and decided[0] == action and str(where) in decided[1], decided


@pytest.mark.parametrize(("rel", "dialect"), [
    ("group_vars/all.yml", "yaml"), ("vars/net.json", "yaml"), ("group_vars/all", "yaml"),
    ("roles/x/defaults/main", "yaml"), ("cfg.toml", "toml"), ("inventory.ini", "ini"), ("main.tf", "hcl"),
    ("prod.tfvars", "hcl"), ("README", None), ("templates/a.j2", None), ("script.py", None),
])
def test_dialect_of(rel: str, dialect: str | None) -> None:
    assert dialect_of(rel) == dialect
