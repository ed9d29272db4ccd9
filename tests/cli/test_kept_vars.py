"""A kept host_vars or group_vars entry holds its inventory name (break-it round 16, finding 14).

`keep_paths: [inv/host_vars/pug]` kept the folder while the inventory host `pug` became `wolf`:
Ansible reads a host's (a group's) variables by its inventory name, so `ansible-inventory --host
wolf` gave `{}` and the sweep exited 0, verify OK. An entry of that name whose path keeps the old
name (keep_paths, a record, an excluded file) now holds the inventory line with it: a
`key-reference` residual naming the kept entry, the line not written, verify failing.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Result
from tests.testing.repos import PUG_CONFIG as CONFIG

ALLOW = 'version: 1\ncurrent: ["**"]\n'
INI = {"inv/hosts.ini": "[pug]\npug\npug.ana.lan\n\n[web]\nrex\n",
       "inv/host_vars/pug/main.yml": "firewall_open: [443]\n",
       "inv/host_vars/pug.ana.lan.yml": "backup: true\n",
       "inv/group_vars/pug.yml": "ntp_server: 10.9.9.9\n"}
YAML = {"inv/hosts.yml": "all:\n  children:\n    pug:\n      hosts:\n        pug:\n          ansible_host: x\n"
                         "        rex:\n          ansible_host: y\n",
        "inv/host_vars/pug.yml": "firewall_open: [443]\n",
        "inv/group_vars/pug/main.yml": "ntp_server: 10.9.9.9\n"}


def _residuals(root: Path, run: Callable[..., Result]) -> list[tuple[str, int, str]]:
    found = json.loads(run(root, "verify", "--format", "json").stdout)["findings"]
    return sorted((str(f["path"]), int(f["line"]), str(f["reason"])) for f in found if f["status"] == "residual")


@pytest.mark.parametrize(("files", "allow", "inventory", "lines"), [
    pytest.param(INI, ALLOW + 'keep_paths: ["inv/host_vars/pug", "inv/host_vars/pug.ana.lan.yml", '
                              '"inv/group_vars/pug.yml"]\n', "inv/hosts.ini", [1, 2, 3], id="the-report"),
    pytest.param(YAML, ALLOW + 'keep_paths: ["inv/host_vars/pug.yml", "inv/group_vars/pug"]\n',
                 "inv/hosts.yml", [3, 5], id="yaml-inventory"),
    pytest.param(YAML, ALLOW + "records:\n  - {name: old, paths: [inv/host_vars/pug.yml, inv/group_vars/**], "
                               "reason: the old lab}\n", "inv/hosts.yml", [3, 5], id="a-record-entry"),
    pytest.param(YAML, ALLOW + 'exclude: ["inv/group_vars/**", "inv/host_vars/**"]\n', "inv/hosts.yml", [3, 5],
                 id="excluded-entries"),
])
def test_a_kept_vars_entry_holds_its_inventory_name(files: dict[str, str], allow: str, inventory: str,
                                                    lines: list[int], repo: Callable[..., Path],
                                                    run: Callable[..., Result]) -> None:
    root = repo(files, config=CONFIG, allowlist=allow)
    before = (root / inventory).read_text()
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1, done.stdout + done.stderr
    assert (root / inventory).read_text() == before  # no inventory name written without its vars
    assert "held back with its vars" in done.stdout and "by its inventory name" in done.stdout
    assert _residuals(root, run) == [(inventory, line, "key-reference") for line in lines]
    assert run(root, "verify").exit_code == 1


def test_a_kept_folder_holds_the_host_s_other_entry_and_its_readers(repo: Callable[..., Path],
                                                                     run: Callable[..., Result]) -> None:
    """The host held by its kept folder keeps its `pug.yml` beside it and `hostvars['pug']`."""
    files = {"inv/hosts.ini": "[web]\npug\nrex\n", "inv/host_vars/pug/main.yml": "a: 1\n",
             "inv/host_vars/pug.yml": "b: 2\n", "site.yml": "- hosts: web\n  tasks:\n"
             "    - debug: {msg: \"{{ hostvars['pug'].a }}\"}\n"}
    root = repo(files, config=CONFIG, allowlist=ALLOW + 'keep_paths: ["inv/host_vars/pug"]\n')
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1, done.stdout + done.stderr
    for rel, text in files.items():
        assert (root / rel).read_text() == text, rel
    assert not (root / "inv/host_vars/wolf.yml").exists()
    assert [(p, r) for p, _line, r in _residuals(root, run)] == [
        ("inv/host_vars/pug.yml", "key-reference"), ("inv/hosts.ini", "key-reference"),
        ("site.yml", "key-reference")]


def test_a_copy_of_the_vars_elsewhere_is_no_hold(repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    """A dated backup's `host_vars/pug.yml` (a record) is no vars of the live inventory."""
    files = {**INI, "backups/2024-05-01/host_vars/pug.yml": "firewall_open: [22]\n"}
    allow = ALLOW + "records:\n  - {name: backups, paths: ['backups/**'], reason: copies}\n"
    root = repo(files, config=CONFIG, allowlist=allow)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    assert (root / "inv/hosts.ini").read_text().startswith("[wolf]\nwolf\nwolf.fv.lan\n")
    assert (root / "backups/2024-05-01/host_vars/pug.yml").is_file()
    assert run(root, "verify").exit_code == 0


def test_vars_that_move_with_the_host_are_no_hold(repo: Callable[..., Path], run: Callable[..., Result],
                                                  tmp_path: Path) -> None:
    """No keep: the host, its folder and its file move together, and Ansible reads them as wolf."""
    root = repo(INI, config=CONFIG, allowlist=ALLOW)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    assert (root / "inv/host_vars/wolf/main.yml").is_file() and (root / "inv/group_vars/wolf.yml").is_file()
    (tmp_path / "ansible.cfg").write_text("[defaults]\n")
    env = {**os.environ, "ANSIBLE_NOCOLOR": "1", "ANSIBLE_LOCAL_TEMP": str(tmp_path / "ansible"),
           "ANSIBLE_HOME": str(tmp_path / "ansible-home"), "ANSIBLE_CONFIG": str(tmp_path / "ansible.cfg")}
    shown = subprocess.run([str(Path(sys.executable).parent / "ansible-inventory"), "-i", "inv/hosts.ini",
                            "--host", "wolf"], cwd=root, env=env, capture_output=True, text=True, check=True)
    assert json.loads(shown.stdout) == {"firewall_open": [443], "ntp_server": "10.9.9.9"}
    assert run(root, "verify").exit_code == 0
