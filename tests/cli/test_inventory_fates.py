"""Everything naming an inventory host follows that host's fate (break-it round 7, finding 1).

A host kept in the inventory (`pug ansible_host=... # renamer: keep`) lost its vars
(`host_vars/pug.yml` renamed `wolf.yml`) and its plays (`when: inventory_hostname == "pug"`,
`delegate_to: pug` rewritten) while the sweep exited 0. Each consumer of a host's name, the
host_vars path, `inventory_hostname` compared or listed, `delegate_to:`, a play's `hosts:`
pattern, `--limit`, keeps where the host keeps, follows where it is renamed, and is a
`key-reference` residual (nothing of it rewritten) where one inventory keeps it and another
renames it. ansible-inventory and ansible-playbook read the kept results.
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
from tests.testing.repos import PUG_ALLOW as ALLOW
from tests.testing.repos import PUG_CONFIG as CONFIG

RECORDS = ALLOW + "records:\n  - {name: old-inventory, paths: [hosts], reason: the old lab}\n"
PLAY = """\
- hosts: web
  gather_facts: false
  tasks:
    - debug: {msg: one}
      when: inventory_hostname == "pug"
      delegate_to: pug
    - debug: {msg: two}
      when: "inventory_hostname in ['pug', 'pom']"
    - debug: {msg: three}
      when: "'pug' != inventory_hostname"
- hosts: web:pug:!pom
  gather_facts: false
  tasks: []
- hosts: "pug"
  gather_facts: false
  tasks: []
"""
SCRIPT = "#!/bin/sh\nansible-playbook -i inventory.ini play.yml --limit pug\nansible all -l 'pug,pom' -m ping\n"
CONSUMERS = {"play.yml": PLAY, "deploy.sh": SCRIPT, "host_vars/pug.yml": "x: 1\n",
             "host_vars/pug/more.yml": "y: 2\n"}
KEPT_INVENTORIES = [
    pytest.param({"inventory.ini": "[web]\npug ansible_host=10.0.0.5 # renamer: keep\n"},
                 ALLOW, id="the-report"),
    pytest.param({"inventory/hosts.yml": "all:\n  children:\n    web:\n      hosts:\n"
                                         "        pug:  # renamer: keep old box\n          ansible_host: x\n"},
                 ALLOW, id="yaml-inventory"),
    pytest.param({"hosts": "[web]\npug\n"}, RECORDS, id="a-record-inventory"),
]


def _findings(root: Path, run: Callable[..., Result]) -> list[tuple[str, str]]:
    found = json.loads(run(root, "verify", "--format", "json").stdout)["findings"]
    return [(str(f["reason"]), str(f["path"])) for f in found]


@pytest.mark.parametrize(("inventory", "allow"), KEPT_INVENTORIES)
def test_a_kept_host_keeps_its_vars_and_its_plays(inventory: dict[str, str], allow: str,
                                                  repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    root = repo({**inventory, **CONSUMERS}, config=CONFIG, allowlist=allow)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    for rel, text in CONSUMERS.items():
        assert (root / rel).read_text() == text, rel
    assert not (root / "host_vars/wolf.yml").exists() and not (root / "host_vars/wolf").exists()
    assert "key-of-record" in done.stdout
    checked = run(root, "verify")
    assert checked.exit_code == 0, checked.stdout


def test_a_renamed_host_takes_its_vars_and_its_plays_along(repo: Callable[..., Path],
                                                           run: Callable[..., Result]) -> None:
    root = repo({"inventory.ini": "[web]\npug ansible_host=10.0.0.5\n", **CONSUMERS}, config=CONFIG,
                allowlist=ALLOW)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    assert (root / "host_vars/wolf.yml").read_text() == "x: 1\n"
    assert (root / "host_vars/wolf/more.yml").read_text() == "y: 2\n"
    assert not (root / "host_vars/pug.yml").exists()
    assert (root / "play.yml").read_text() == PLAY.replace("pug", "wolf")
    assert (root / "deploy.sh").read_text() == SCRIPT.replace("pug", "wolf")
    assert run(root, "verify").exit_code == 0


def test_a_host_kept_in_one_inventory_and_renamed_in_another_is_a_residual(
        repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    files = {"inventories/prod/hosts.ini": "[web]\npug\n",
             "inventories/lab/hosts.ini": "[web]\npug  # renamer: keep\n", **CONSUMERS}
    root = repo(files, config=CONFIG, allowlist=ALLOW)
    found = _findings(root, run)
    for rel in CONSUMERS:
        assert ("key-reference", rel) in found, (rel, found)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1, done.stdout + done.stderr
    for rel, text in files.items():  # the renamed inventory's host is held back too (finding 10)
        assert (root / rel).read_text() == text, rel
    assert run(root, "verify").exit_code == 1


def test_a_consumer_of_a_host_no_inventory_names_follows_the_plain_rules(
        repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    root = repo({"play.yml": PLAY, "host_vars/pug.yml": "x: 1\n"}, config=CONFIG, allowlist=ALLOW)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    assert (root / "play.yml").read_text() == PLAY.replace("pug", "wolf")
    assert (root / "host_vars/wolf.yml").is_file()


def test_a_kept_play_line_stays_while_the_host_moves(repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    """A play kept on the old host on purpose is the operator's call: kept, not refused."""
    play = "- hosts: pug  # renamer: keep old box\n  tasks: []\n- hosts: pug\n  tasks: []\n"
    root = repo({"inventory.ini": "[web]\npug\n", "play.yml": play}, config=CONFIG, allowlist=ALLOW)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    assert (root / "play.yml").read_text() == play.replace("hosts: pug\n", "hosts: wolf\n")


# -- ansible reads what the sweep left ------------------------------------------------------------

def _ansible(root: Path, tmp: Path, *args: str) -> subprocess.CompletedProcess[str]:
    (tmp / "ansible.cfg").write_text("[defaults]\n")  # none of the machine's settings
    env = {**os.environ, "ANSIBLE_NOCOLOR": "1", "ANSIBLE_LOCAL_TEMP": str(tmp / "ansible"),
           "ANSIBLE_HOME": str(tmp / "ansible-home"), "ANSIBLE_CONFIG": str(tmp / "ansible.cfg")}
    return subprocess.run([str(Path(sys.executable).parent / args[0]), *args[1:]],
                          cwd=root, env=env, capture_output=True, text=True, check=False)


def test_ansible_still_finds_the_kept_host_s_vars_and_runs_its_tasks(
        tmp_path: Path, repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    play = ("- hosts: web\n  gather_facts: false\n  tasks:\n"
            "    - assert: {that: \"x == 1\"}\n      when: inventory_hostname == \"pug\"\n"
            "    - debug: {msg: \"it ran\"}\n      when: inventory_hostname == \"pug\"\n")
    files = {"inventory.ini": "[web]\npug ansible_host=10.0.0.5 # renamer: keep\n",
             "host_vars/pug.yml": "x: 1\n", "play.yml": play}
    root = repo(files, config=CONFIG, allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 0
    shown = _ansible(root, tmp_path, "ansible-inventory", "-i", "inventory.ini", "--host", "pug")
    assert shown.returncode == 0 and json.loads(shown.stdout)["x"] == 1, shown.stdout + shown.stderr
    played = _ansible(root, tmp_path, "ansible-playbook", "-i", "inventory.ini", "play.yml",
                      "-e", f"ansible_python_interpreter={sys.executable}", "-e", "ansible_connection=local")
    assert played.returncode == 0, played.stdout + played.stderr
    assert '"msg": "it ran"' in played.stdout and "skipped=0" in played.stdout, played.stdout
