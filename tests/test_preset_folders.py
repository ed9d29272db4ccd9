"""preset_folders: which files a preset's folder pattern keeps, leaves live or leaves undecided."""

from __future__ import annotations

import pytest

from renamer.classify import PathPatterns
from renamer.preset_folders import FolderClaims, in_unit, live_by_content, named_folder

BACKUPS = FolderClaims(["**/backup/**", "**/backups/**", "**/*.bak"], PathPatterns)
ARCHIVE = FolderClaims(["**/archive/**"], PathPatterns)


@pytest.mark.parametrize(("claims", "path", "verdict"), (
    # a role or chart named after what it does, or a preset folder inside one: live
    (BACKUPS, "roles/backup/defaults/main.yml", "live"),
    (BACKUPS, "roles/backup/README.md", "live"),
    (BACKUPS, "ansible/roles/backups/handlers/main.yml", "live"),
    (BACKUPS, "roles/web/files/backup/restic.conf", "live"),
    (BACKUPS, "charts/backup/values.yaml", "live"),
    (ARCHIVE, "ROLES/archive/tasks/main.yml", "live"),
    # an inventory's vars of the host or group named so, or inside them (break-it round 9, #2)
    (BACKUPS, "host_vars/backup/main.yml", "live"),
    (ARCHIVE, "inventory/group_vars/archive/net.yml", "live"),
    (BACKUPS, "host_vars/web/backup/extra.yml", "live"),
    # structurally live below the folder: undecided
    (BACKUPS, "backup/compose.yaml", "undecided"),
    (BACKUPS, "infra/backup/main.tf", "undecided"),
    (BACKUPS, "backups/restic.timer", "undecided"),
    (ARCHIVE, "archive/roles/web/tasks/main.yml", "undecided"),
    (ARCHIVE, "archive/templates/nginx.conf.j2", "undecided"),
    (ARCHIVE, "roles/archive/oldrole/tasks/main.yml", "undecided"),  # a folder of roles, no role
    (ARCHIVE, "charts/archive/old/templates/cm.yaml", "undecided"),
    # records: a file-name pattern, a dated folder, a machine's tree, anything else
    (BACKUPS, "roles/backup/files/restic.conf.bak", "record"),
    (BACKUPS, "backups/2024-05-01/compose.yml", "record"),
    (BACKUPS, "backups/host1/etc/systemd/system/restic.service", "record"),
    (BACKUPS, "backups/etc/nginx/nginx.conf", "record"),
    (ARCHIVE, "archive/notes.txt", "record"),
    (ARCHIVE, "roles/archive/oldrole/README.md", "record"),
    (BACKUPS, "backup/db.sql", "record"),
    # an inventory's vars or hosts file below the folder: the inventory or a copy (break-it round 16, #2)
    (BACKUPS, "backups/host_vars/pug.yml", "undecided"),
    (BACKUPS, "ops/backup/group_vars/all.yml", "undecided"),
    (ARCHIVE, "archive/old/host_vars/nas/main.yml", "undecided"),
    (BACKUPS, "backup/hosts.ini", "undecided"),
    (BACKUPS, "backup/hosts", "record"),  # as often a copy of /etc/hosts: its content decides
    (ARCHIVE, "archive/inventory.yml", "undecided"),
    (BACKUPS, "backup/ansible.cfg", "undecided"),
    # an inventory named after its concern: live (break-it round 16, #2)
    (BACKUPS, "inventories/backup/hosts.ini", "live"),
    (BACKUPS, "ansible-playbook/inventories/backup/group_vars/restic_clients.yaml", "live"),
    (ARCHIVE, "inventory/archive/notes.md", "live"),
    (BACKUPS, "inventories/prod/backup/restic.yml", "live"),
    # still copies: dated, a machine's tree, a file-name pattern
    (BACKUPS, "backups/2024-05-01/host_vars/pug.yml", "record"),
    (BACKUPS, "inventories/backup/2024-05-01/hosts.ini", "record"),
    (BACKUPS, "inventories/backup/hosts.ini.bak", "record"),
    (BACKUPS, "backups/host1/etc/hosts", "record"),
))
def test_claims(claims: FolderClaims, path: str, verdict: str) -> None:
    assert claims.claim(path).verdict == verdict


def test_an_undecided_claim_says_why_and_where() -> None:
    claim = BACKUPS.claim("infra/backup/main.tf")
    assert (claim.folder, claim.why) == ("infra/backup", "main.tf is live configuration by its name")


@pytest.mark.parametrize(("pattern", "folder"), (
    ("**", None), ("*.yml", None), ("backup", None), ("backup/", None), ("**/backup/**", None),
    ("!stacks/backup/**", None), ("stacks/backup/**", "stacks/backup"), ("/stacks/backup/", "stacks/backup"),
    ("a/*/b/**", "a"), ("cfg\\[1\\]/**", "cfg[1]"), ("backup/compose.yaml", "backup/compose.yaml"),
))
def test_named_folder(pattern: str, folder: str | None) -> None:
    assert named_folder(pattern) == folder


@pytest.mark.parametrize(("folder", "unit"), (
    ("roles/backup", True), ("roles/web/files/backup", True), ("charts/backup/**", True),
    ("backup", False), ("roles/archive/oldrole", False), ("stacks/backup", False),
    ("host_vars/backup", True), ("group_vars/archive/**", True), ("backup/host_vars", False),
))
def test_in_unit(folder: str, unit: bool) -> None:
    assert in_unit(folder) is unit


@pytest.mark.parametrize(("name", "data", "executable", "live"), (
    ("run.sh", b"#!/bin/sh\nrsync pug:/b\n", False, True),
    ("run", b"rsync pug:/b\n", True, True),
    ("cm.yaml", b"apiVersion: v1\nkind: ConfigMap\ndata: {h: pug}\n", False, True),
    ("site.yml", b"- hosts: pug\n  tasks: []\n", False, True),
    ("site.yml", b"- name: all\n  hosts: pug\n", False, True),
    ("stack.yml", b"services:\n  a:\n    image: x\n", False, True),
    ("notes.txt", b"apiVersion: v1\nkind: x\n", False, False),  # not YAML by its name
    ("vars.yml", b"kind: note\nhost: pug\n", False, False),  # a kind alone is no manifest
    ("dump.sql", b"INSERT pug\n", False, False),
    ("prod", b"[restic_clients]\nnas ansible_host=10.0.40.30\n", False, True),
    ("lab.yaml", b"all:\n  children:\n    web:\n      hosts:\n        pug: {}\n", False, True),
    ("lab.yaml", b"all:\n  hosts:\n    pug:\n", False, True),
    ("hosts.txt", b"10.0.40.11 pug\n", False, False),  # /etc/hosts
    ("hosts", b"10.0.40.11 pug\n", False, False),
    ("hosts", b"[restic_clients]\npug\n", False, True),
    ("prod.ini", b"# lab\n[web]\n\npug\nrex.lab.lan\n", False, True),
    ("lab", b"[web]\npug.lab.lan\n", False, True),
    ("my.cnf", b"[mysqld]\nskip-name-resolve\n", False, False),  # a flag, not an .ini or bare name
    ("app.ini", b"[server]\nhost = pug\n", False, False),  # keys, no bare host line
    ("vars.yml", b"all:\n  - pug\n", False, False),  # a list named all
    ("notes.md", b"set ansible_host=10.0.40.11 on pug\n", False, False),  # prose
))
def test_live_by_content(name: str, data: bytes, executable: bool, live: bool) -> None:
    assert (live_by_content(name, data, executable) is not None) is live
