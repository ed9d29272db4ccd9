"""A preset's folder name is evidence, not proof, for what a file holds too (break-it round 9, #2):
even with `current: ["**"]`, records-common kept as backups `host_vars/backup/` (the vars of the
host named `backup`), a playbook, an executable or `#!` script and a Kubernetes manifest under
`backup/` or `archive/` folders, and `init` wrote `host_vars/backup/**` as records; verify said OK
while the host's `ansible_host` stayed old. An inventory's vars folders are live whatever the host
or group is called; a file whose content says it runs is left for a person to decide, with why."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from tests.conftest import Result
from tests.testing.repos import LAB_CONFIG, git, init_and_commit

CONFIG = LAB_CONFIG
ALLOW = 'version: 1\nextends: [records-common]\ncurrent: ["**"]\n'
PAIRS = ("--from", "pug=wolf", "--from", "pug.lab.lan=wolf.lab.lan", "--from", "10.0.40.11=10.0.50.21")

# Ansible's own layout: live whatever the host or group is called.
VARS = {
    "host_vars/backup/main.yml": "ansible_host: 10.0.40.11\n",
    "group_vars/archive/main.yml": "archive_target: pug.lab.lan\n",
    "inventory/host_vars/backups/net.yml": "gw: 10.0.40.11\n",
    "host_vars/web/backup.yml": "backup_to: pug\n",
    "host_vars/web/archive/extra.yml": "archive_to: pug\n",
    "host_vars/journal/main.yml": "journal_to: pug\n",
}
# Live by what they hold, below a folder the preset names: undecided.
BY_CONTENT = {
    "k8s/backup/cm.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: b}\ndata: {host: pug.lab.lan}\n",
    "scripts/backup/run.sh": "#!/bin/sh\nrsync -a /srv pug:/b\n",
    "scripts/archive/push": "rsync -a /srv pug:/b\n",  # executable, no #! line
    "ansible/playbooks/archive/site.yml": "- hosts: pug\n  tasks: []\n",
    "ops/backups/stack.yml": "services:\n  app:\n    environment: [DB=pug]\n",
}
EXECUTABLE = ("scripts/backup/run.sh", "scripts/archive/push")
# Still records: notes, a dated folder's copy, a machine's tree, YAML that is no manifest.
RECORDS = {
    "backup/notes.yml": "kind: note\nhost: pug\n",
    "backups/2024-05-01/run.sh": "#!/bin/sh\nrsync -a /srv pug:/b\n",
    "backups/host1/etc/cron.daily/push": "#!/bin/sh\nrsync pug:/b\n",
    "backups/2024-05-01/host_vars/pug.yml": "ansible_host: 10.0.40.11\n",  # a dated copy of an inventory
    "archive/readme.txt": "pug served the lab\n",
}


def _repo(repo: Callable[..., Path], files: dict[str, str], allow: str | None = ALLOW) -> Path:
    """The repo, its scripts executable in the commit as a real repo holds them."""
    root = repo(files, config=CONFIG if allow else None, allowlist=allow, commit=False)
    for rel in EXECUTABLE:
        if (root / rel).exists():
            os.chmod(root / rel, 0o755)
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "initial")
    return root


def test_inventory_vars_folders_are_swept_and_content_decides_undecided(repo: Callable[..., Path],
                                                                        run: Callable[..., Result]) -> None:
    root = _repo(repo, {**VARS, **BY_CONTENT, **RECORDS})
    swept = run(root, "sweep", "--commit")
    assert swept.exit_code == 1, swept.stdout + swept.stderr  # the undecided ones
    for rel in VARS:
        after = (root / rel).read_text()
        assert "pug" not in after and "10.0.40.11" not in after, (rel, after)
    for rel, text in {**BY_CONTENT, **RECORDS}.items():
        assert (root / rel).read_text() == text, rel
    verified = run(root, "verify", "--strict")
    assert verified.exit_code == 1
    assert f"{len(BY_CONTENT)} unclassified" in verified.stdout, verified.stdout
    for why in ("cm.yaml is a Kubernetes manifest (apiVersion and kind)", "run.sh is a script (its #! line)",
                "push is executable", "site.yml is an Ansible playbook", "stack.yml is a compose file"):
        assert why in verified.stdout, why
    assert "keep it with a record class of your own (k8s/backup/**), or name it or its folder in current " \
           "(k8s/backup/**)" in verified.stdout
    explained = run(root, "explain", "scripts/backup/run.sh")  # the file's status as the sweep's
    assert explained.stdout.startswith("scripts/backup/run.sh: unclassified: "), explained.stdout
    assert run(root, "explain", "backups/2024-05-01/run.sh").stdout.startswith("backups/2024-05-01/run.sh: record")


# Break-it round 16 (#2, Giftpilz0/homelab): one inventory per concern, `inventories/backup/`, kept
# as backups while `restic_server_host: pve.nixpi.de` was live; verify OK.
INVENTORIES = {
    "inventories/backup/hosts.ini": "[restic_clients]\nnas ansible_host=10.0.40.30\n",
    "inventories/backup/group_vars/restic_clients.yml": "restic_server_host: pug.lab.lan\n",
    "inventories/backup/group_vars/all.yml": "restic_server_ip: 10.0.40.11\n",
    "inventories/backup/host_vars/nas.yml": "push_to: pug\n",
    "ansible/inventory/archive/group_vars/cold.yml": "archive_target: pug.lab.lan\n",
}
# An inventory below a preset folder elsewhere: the live one or a copy, the path cannot say.
INVENTORY_OR_COPY = {
    "ops/backup/hosts.ini": "[restic_clients]\npug\n",
    "ops/backup/group_vars/all.yml": "restic_server_ip: 10.0.40.11\n",
    "archive/old/host_vars/nas/main.yml": "push_to: pug\n",
    "backup/hosts": "[web]\npug\n",  # named like /etc/hosts, a [group] inside
    "archive/lab/prod.ini": "[web]\npug\n",  # any name: a [group] of bare host lines
    "backups/prod": "[web]\npug ansible_host=10.0.40.11\n",  # an inventory by its content
    "backup/lab.yaml": "all:\n  hosts:\n    pug:\n      ansible_host: 10.0.40.11\n",
}


def test_an_inventory_in_a_folder_named_like_a_record_is_never_kept_silently(
        repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    root = _repo(repo, {**INVENTORIES, **INVENTORY_OR_COPY, **RECORDS})
    swept = run(root, "sweep", "--commit")
    assert swept.exit_code == 1, swept.stdout + swept.stderr
    for rel in INVENTORIES:
        after = (root / rel).read_text()
        assert "pug" not in after and "10.0.40.11" not in after, (rel, after)
    for rel, text in {**INVENTORY_OR_COPY, **RECORDS}.items():
        assert (root / rel).read_text() == text, rel
    verified = run(root, "verify", "--strict")
    assert verified.exit_code == 1
    assert "9 unclassified" in verified.stdout, verified.stdout  # 7 files, 9 references
    for why in ("hosts.ini is an Ansible inventory by its name", "in a group_vars/ folder, an Ansible inventory's",
                "in a host_vars/ folder", "prod is an Ansible inventory (a host line with ansible_",
                "lab.yaml is an Ansible inventory (all: with hosts: or children:)",
                "prod.ini is an Ansible inventory (a [group] of bare host lines)"):
        assert why in verified.stdout, why
    audit = run(root, "audit").stdout
    assert "inventories/" not in audit and "ansible/inventory/" not in audit, audit


def test_your_decision_settles_what_the_content_left_undecided(repo: Callable[..., Path],
                                                               run: Callable[..., Result]) -> None:
    allow = ("version: 1\nextends: [records-common]\n"
             'current: ["**", "k8s/backup/**", "scripts/backup/**", "ansible/playbooks/archive/**"]\n'
             "records:\n  - name: old-ops\n    paths: ['scripts/archive/**', 'ops/backups/**']\n"
             "    reason: copies\n")
    root = _repo(repo, BY_CONTENT, allow)
    swept = run(root, "sweep", "--commit")
    assert swept.exit_code == 0, swept.stdout + swept.stderr
    for rel in ("k8s/backup/cm.yaml", "scripts/backup/run.sh", "ansible/playbooks/archive/site.yml"):
        assert "wolf" in (root / rel).read_text(), rel
    for rel in ("scripts/archive/push", "ops/backups/stack.yml"):
        assert (root / rel).read_text() == BY_CONTENT[rel], rel
    assert run(root, "verify", "--strict").exit_code == 0


def test_init_on_a_host_named_backup(repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    """The report's init run: an inventory host `backup` in group `[archive]`; init wrote
    `host_vars/backup/**` as records and verify said OK with the old address standing."""
    files = {"hosts.ini": "[backup]\nbackup\n[archive]\nbackup\n",
             "host_vars/backup/main.yml": VARS["host_vars/backup/main.yml"],
             "group_vars/archive/main.yml": VARS["group_vars/archive/main.yml"]}
    root = _repo(repo, files, None)
    done = init_and_commit(root, run, PAIRS)
    assert "host_vars/backup/**" not in done.stdout.split("Current state")[0], done.stdout
    assert run(root, "verify").exit_code == 1  # before: OK, the address kept as a backup
    assert run(root, "sweep", "--commit").exit_code == 0
    assert (root / "host_vars/backup/main.yml").read_text() == "ansible_host: 10.0.50.21\n"
    assert (root / "group_vars/archive/main.yml").read_text() == "archive_target: wolf.lab.lan\n"
    assert run(root, "verify", "--strict").exit_code == 0


def test_init_on_hosts_and_groups_named_like_history_tests_or_snapshots(repo: Callable[..., Path],
                                                                          run: Callable[..., Result]) -> None:
    """Every folder-name heuristic of init passes over a host's or group's name: before, a group
    `[snapshots]` became a record class of its own (its vars kept silently), host `journal` was
    preset history, host `test` a test and group `[logs]` undecided. A copy of an inventory under
    backups/ stays a record (a dated one: an undated one may be the live inventory, break-it round 16 #2)."""
    files = {"hosts.ini": "[test]\ntest\njournal\n[logs]\ntest\n[snapshots]\njournal\n",
             "host_vars/test/main.yml": "ansible_host: 10.0.40.11\n",
             "group_vars/logs/main.yml": "log_target: pug.lab.lan\n",
             "host_vars/journal/main.yml": "j: pug\n",
             "inventory/group_vars/snapshots/main.yml": "s: pug\n",
             "backups/2024-05-01/host_vars/pug.yml": "ansible_host: 10.0.40.11\n"}
    root = _repo(repo, files, None)
    done = init_and_commit(root, run, PAIRS)
    assert "Could not classify" not in done.stdout and "Record class proposed" not in done.stdout, done.stdout
    assert run(root, "sweep", "--commit").exit_code == 0
    for rel, text in files.items():
        after = (root / rel).read_text()
        if rel.startswith("backups/"):
            assert after == text
        elif rel != "hosts.ini":
            assert "pug" not in after and "10.0.40.11" not in after, (rel, after)
    assert run(root, "verify", "--strict").exit_code == 0
