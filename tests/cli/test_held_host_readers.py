"""Break-it round 17, #16: an inventory host held back (a reader of runtime data that cannot
follow it, its kept vars) or kept (a keep rule, the inline marker) keeps its name, so every bare
mention of that name in its Ansible project's plays, roles, variables and templates still reads
that host: each is held with it (a `key-reference` residual naming the inventory line), never
rewritten alone to a host the inventory does not have. A longer name (`pug.ana.lan`), a file
outside the project and a host that moves are swept as before."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.testing.repos import PUG_ALLOW, PUG_CONFIG, git

INVENTORY = "all:\n  children:\n    proxmox:\n      hosts:\n        pug:\n          ansible_host: 127.0.0.1\n" \
            "        rex:\n          ansible_host: 127.0.0.1\n"
# the report's play: a runtime list read by `'pug' in nodes` holds the inventory host; a Jinja host
# pattern and a Jinja loop list name it too
PLAY = """\
- name: decide
  hosts: localhost
  gather_facts: false
  tasks:
    - ansible.builtin.set_fact:
        nodes: "{{ report.node_summaries | default({'pug': 1, 'rex': 1}) | list }}"
    - ansible.builtin.set_fact:
        target: "{{ 'pug' in nodes }}"
    - ansible.builtin.debug:
        msg: "{% for h in ['pug', 'rex'] %}{{ h }}={{ hostvars[h].ansible_host | default('MISSING') }} {% endfor %}"
- name: patch
  hosts: "{{ 'rex' if (target_node | default('pug')) == 'pug' else 'pug' }},pug"
  gather_facts: false
  tasks:
    - ansible.builtin.debug: {msg: "patching {{ inventory_hostname }}"}
"""
KEEP = "  # renamer: keep"

JSON_PLAY = """\
- hosts: web
  gather_facts: false
  vars_files: [../vars/nodes.json]
  tasks:
    - debug: {msg: "held by runtime"}
      when: "'pug' in groups_from_runtime | default([])"
    - debug: {msg: "{{ item }}={{ hostvars[item].ansible_host | default('MISSING') }}"}
      loop: "{{ protected + primary }}"
      run_once: true
"""
JSON_FILES = {
    "ansible/inventory/hosts.yml": "all:\n  children:\n    web:\n      hosts:\n"
                                   "        pug: {ansible_host: 127.0.0.1, ansible_connection: local}\n"
                                   "        rex: {ansible_host: 127.0.0.2, ansible_connection: local}\n",
    "ansible/playbooks/site.yml": JSON_PLAY,
    "ansible/vars/nodes.json": '{"protected": ["pug", "rex"]}\n',
    "ansible/inventory/group_vars/web.json": '{"primary": ["pug"]}\n',
    "ansible/filter_plugins/peers.py": "PEERS = ('pug', 'rex')\n",
    "ansible/protect.py": 'PROTECTED = {"pug", "rex"}\n',
}

# case -> (files, allowlist additions, the lines held with the host: (path, line))
CASES: dict[str, tuple[dict[str, str], str, set[tuple[str, int]]]] = {
    "held-by-a-runtime-reader": ({"inv/hosts.yml": INVENTORY, "playbooks/site.yml": PLAY}, "",
                                 {("playbooks/site.yml", 6), ("playbooks/site.yml", 10), ("playbooks/site.yml", 12)}),
    # an ad-hoc command in a script of the project, a second inventory file naming the host in a group
    "held-in-a-script-and-another-inventory": (
        {"inv/hosts.yml": INVENTORY, "playbooks/site.yml": PLAY,
         "scripts/patch.sh": "#!/bin/sh\nansible pug -i inv -m ansible.builtin.ping\necho done\n",
         "inv/groups.ini": "[monitored]\npug\n"}, "",
        {("scripts/patch.sh", 2), ("inv/groups.ini", 2), ("playbooks/site.yml", 12)}),
    "kept-by-the-inline-marker": ({"inv/hosts.yml": INVENTORY.replace("        pug:\n", f"        pug:{KEEP}\n"),
                                   "playbooks/site.yml": PLAY}, "",
                                  {("playbooks/site.yml", 6), ("playbooks/site.yml", 10), ("playbooks/site.yml", 12)}),
    # held with its kept host_vars; a role's safety list, a role template's Jinja loop, a var
    "held-by-kept-vars-in-a-role": ({
        "ansible/ansible.cfg": "[defaults]\ninventory = inventory/hosts.ini\nroles_path = roles\n",
        "ansible/inventory/hosts.ini": "[pve]\npug ansible_port=22\nrex\n",
        "ansible/inventory/host_vars/pug.yml": "ansible_port: 2222\n",
        "ansible/roles/getty/defaults/main.yml": "protected_hosts: [pug, rex]\ntarget_node: pug\n",
        "ansible/roles/getty/templates/peers.conf.j2": "{% for h in ['pug', 'rex'] %}{{ hostvars[h].ansible_host }}\n"
                                                      "{% endfor %}\n"},
        "keep_paths: ['ansible/inventory/host_vars/pug.yml']\n",
        {("ansible/roles/getty/defaults/main.yml", 1), ("ansible/roles/getty/defaults/main.yml", 2),
         ("ansible/roles/getty/templates/peers.conf.j2", 1)}),
    # break-it round 19, #5: Ansible reads JSON vars as YAML (`vars_files:`, `include_vars`,
    # group_vars/*.json); a filter plugin and a Python helper of the project name the host too
    "held-in-json-vars-and-python": (JSON_FILES, "",
                                     {("ansible/vars/nodes.json", 1), ("ansible/inventory/group_vars/web.json", 1),
                                      ("ansible/filter_plugins/peers.py", 1), ("ansible/protect.py", 1)}),
}


def _repo(repo, files: dict[str, str], allow: str = "") -> Path:
    root: Path = repo({"renamer.yaml": PUG_CONFIG, "allow.yaml": PUG_ALLOW + allow, **files},
                      config=None, allowlist=None)
    return root


@pytest.mark.parametrize("case", sorted(CASES))
def test_every_reader_of_a_host_that_keeps_its_name_is_held_with_it(repo, run, case) -> None:
    files, allow, held = CASES[case]
    root = _repo(repo, files, allow)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1, done.stdout
    assert all((root / path).read_text() == text for path, text in files.items())
    verify = run(root, "verify", "--format", "json")
    found = {(f["path"], f["line"]): f for f in json.loads(verify.stdout)["findings"]
             if f.get("reason") == "key-reference"}
    assert held <= set(found), sorted(found)
    for spot in held:
        assert "held back with the inventory host pug at " in json.dumps(found[spot]), found[spot]


def test_ansible_still_finds_the_held_host_after_the_sweep(repo, run, tmp_path) -> None:
    """The report's run: before the fix `ansible-playbook` printed `wolf=MISSING` and "Could not
    match supplied host pattern, ignoring: wolf"; now the plays still name the host they read."""
    playbook = Path(sys.executable).with_name("ansible-playbook")
    assert playbook.exists(), "ansible-core is a test dependency"
    files, _, _ = CASES["held-by-a-runtime-reader"]
    root = _repo(repo, files)
    assert run(root, "sweep", "--commit").exit_code == 1
    shown = subprocess.run([str(playbook), "-i", "inv/hosts.yml", "playbooks/site.yml"], cwd=root,
                           capture_output=True, text=True, timeout=300,
                           env={**os.environ, "ANSIBLE_LOCAL_TEMP": str(tmp_path / "tmp"),
                                "ANSIBLE_HOME": str(tmp_path / "home"), "ANSIBLE_CONNECTION": "local"})
    assert shown.returncode == 0, shown.stdout + shown.stderr
    assert "pug=127.0.0.1 rex=127.0.0.1" in shown.stdout and "MISSING" not in shown.stdout
    assert "patching pug" in shown.stdout and "Could not match" not in shown.stdout + shown.stderr


def test_what_is_not_the_held_host_is_swept(repo, run) -> None:
    """Beside a held host: its FQDN in a play, a file outside its Ansible project (the project is
    the folder of `ansible.cfg`), and a project whose inventory moves the host: all rewritten."""
    files = {
        "ansible/ansible.cfg": "[defaults]\ninventory = inventory/hosts.ini\n",
        "ansible/inventory/hosts.ini": "[pve]\npug\nrex\n",
        "ansible/inventory/host_vars/pug.yml": "ansible_port: 2222\n",
        "ansible/site.yml": "- hosts: pve\n  tasks:\n    - debug: {msg: \"https://pug.ana.lan/\"}\n",
        "compose/compose.yaml": "services:\n  app:\n    image: x\n    extra_hosts: ['pug:10.0.0.5']\n",
        "other/ansible.cfg": "[defaults]\ninventory = hosts.ini\n",
        "other/hosts.ini": "[web]\npug\n", "other/site.yml": "- hosts: all\n  vars: {peers: [pug, rex]}\n",
    }
    root = _repo(repo, files, "keep_paths: ['ansible/inventory/host_vars/pug.yml']\n")
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1, done.stdout  # the held inventory line itself
    assert "wolf.fv.lan" in (root / "ansible/site.yml").read_text()
    assert "'wolf:10.1.0.5'" in (root / "compose/compose.yaml").read_text()
    assert (root / "other/site.yml").read_text() == "- hosts: all\n  vars: {peers: [wolf, rex]}\n"
    assert (root / "other/hosts.ini").read_text() == "[web]\nwolf\n"
    assert (root / "ansible/inventory/hosts.ini").read_text() == files["ansible/inventory/hosts.ini"]
    assert git(root, "status", "--porcelain") == ""


def test_ansible_reads_a_held_host_from_json_vars_after_the_sweep(repo, run, tmp_path) -> None:
    """Break-it round 19, #5: before the fix `nodes.json` became `["wolf", "rex"]` and
    `ansible-playbook` printed `wolf=MISSING`."""
    playbook = Path(sys.executable).with_name("ansible-playbook")
    root = _repo(repo, JSON_FILES)
    assert run(root, "sweep", "--commit").exit_code == 1
    shown = subprocess.run([str(playbook), "-i", "inventory", "playbooks/site.yml"], cwd=root / "ansible",
                           capture_output=True, text=True, timeout=300,
                           env={**os.environ, "ANSIBLE_LOCAL_TEMP": str(tmp_path / "tmp"),
                                "ANSIBLE_HOME": str(tmp_path / "home")})
    assert shown.returncode == 0, shown.stdout + shown.stderr
    assert "pug=127.0.0.1" in shown.stdout and "MISSING" not in shown.stdout
