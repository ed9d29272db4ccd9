"""A collision the sweep listed before it wrote, still said once written (t31 round 24, finding 28):
the sweep promises that `verify --strict` fails on it, and verify right after the commit does,
whatever the file's dress (netplan YAML beside its gateway, an INI inventory, a JSON map); a new
value that stood nowhere before the move is no collision."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
import yaml

from tests.conftest import Result

ALLOW = 'version: 1\ncurrent: ["**"]\n'


def _config(pairs: str) -> str:
    return f"version: 1\nrenames:\n  {pairs}\nallowlist: allow.yaml\n"


@pytest.mark.parametrize(("files", "pairs", "rel"), [
    pytest.param({"netplan.yaml": "network:\n  version: 2\n  ethernets:\n    eno1:\n      addresses: [10.0.0.70/24]\n"
                                  "      routes: [{to: default, via: 10.0.1.1}]\n"},
                 "addresses: {10.0.0.70: 10.0.1.1}", "netplan.yaml", id="own-gateway"),
    pytest.param({"inventory.ini": "[web]\r\nweb01 ansible_host=10.0.0.70\r\nweb02 ansible_host=10.0.0.71\r\n",
                  "host_vars/web01.yml": "ansible_host: 10.0.0.70\n",
                  "host_vars/web02.yml": "ansible_host: 10.0.0.71\n"},
                 "addresses: {10.0.0.70: 10.0.0.71}", "inventory.ini", id="inventory-host-crlf"),
])
def test_verify_strict_fails_on_the_collision_the_sweep_wrote(files: dict[str, str], pairs: str, rel: str,
                                                              repo: Callable[..., Path],
                                                              run: Callable[..., Result]) -> None:
    root = repo(files, config=_config(pairs), allowlist=ALLOW)
    before = run(root, "verify", "--strict")
    assert before.exit_code == 1 and "collision" in before.stdout, before.stdout
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0 and "that `renamer verify --strict` fails on" in done.stderr, done.stderr
    after = run(root, "verify", "--strict")
    assert after.exit_code == 1, after.stdout
    assert f"{rel}:" in after.stdout and "a collision the sweep listed before it wrote" in after.stdout
    if rel.endswith(".yaml"):
        yaml.safe_load((root / rel).read_text())
    if rel.endswith(".json"):
        json.loads((root / rel).read_text())


def test_a_new_value_that_stood_nowhere_before_is_no_collision(repo: Callable[..., Path],
                                                              run: Callable[..., Result]) -> None:
    files = {"netplan.yaml": "network:\n  ethernets:\n    eno1:\n      addresses: [10.0.0.70/24]\n"
                             "      routes: [{to: default, via: 10.0.0.1}]\n",
             "notes.md": "web01 is at 10.0.1.10\n"}  # the new value before, in another file
    root = repo(files, config=_config("addresses: {10.0.0.70: 10.0.1.10}"), allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 0
    after = run(root, "verify", "--strict")
    assert after.exit_code == 0, after.stdout
