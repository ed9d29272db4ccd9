"""renamer init on layouts the break-it pass of issue 27 met in public repos, rebuilt synthetic: backups
and archives named as such are records, never current (a zone repo's `previous_records/` and
`db.x.save.1` were rewritten); a reference only in a path (an Ansible `host_vars/<host>/` folder) is
classified like a file's contents, and the sweep renames that folder in its rename commit."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Result
from tests.testing.repos import git, init_and_commit

PAIRS = ("--from", "ana-ml2=fv-ml1", "--from", "ana-ml2.ana.lan=fv-ml1.fv.lan",
         "--from", "10.250.50.54=10.251.50.54")
ZONE = ("$ORIGIN example.\n@ IN SOA ns1 hostmaster 2026010101 3600 600 86400 300\n"
        "ml IN CNAME ana-ml2.ana.lan.\nml2 IN A 10.250.50.54\n")
HOSTS = "10.250.50.54 ana-ml2.ana.lan ana-ml2\n"

# Copies an operator keeps to roll back to: each must be byte-identical after init + sweep.
BACKUPS = {
    "previous_records/db.ana.lan": ZONE,
    "previous_records/2019/db.ana.lan": ZONE,
    "prev/hosts": HOSTS,
    "old/hosts": HOSTS,
    "old-configs/hosts": HOSTS,
    "nginx_old/site.conf": "server_name ana-ml2.ana.lan;\n",
    "archive_zones/db.ana.lan": ZONE,
    "backups-2024/hosts": HOSTS,
    "attic/hosts": HOSTS,
    "dumps/leases.txt": "10.250.50.54 ana-ml2\n",
    "snapshots/hosts": HOSTS,
    "zones/db.ana.lan.save.1": ZONE,
    "zones/db.ana.lan.save.12": ZONE,
    "zones/db.ana.lan.save": ZONE,
    "etc/hosts.bak2": HOSTS,
    "etc/hosts.orig": HOSTS,
    "etc/hosts.dist": HOSTS,
    "etc/hosts~": HOSTS,
    "etc/.hosts.swp~": HOSTS,
    "etc/hosts_old": HOSTS,
    "etc/hosts-bak.ini": "[ml]\nana-ml2\n",
    "compose/compose.old.yml": "services:\n  ml:\n    hostname: ana-ml2\n",
    "zones/db.ana.lan-20240102": ZONE,
}
# Names that only look alike: live configuration, rewritten.
LIVE = {
    "zones/db.ana.lan": ZONE,
    "compose/compose.yml": "services:\n  ml:\n    hostname: ana-ml2\n",
    "fold/hosts": HOSTS,
    "cold-storage/hosts": HOSTS,
    "etc/threshold.conf": "target = 10.250.50.54\n",
    "etc/hosts": HOSTS,
    "boldness/hosts": HOSTS,
}


def _init(root: Path, run: Callable[..., Result]) -> Result:
    return init_and_commit(root, run, PAIRS)  # type: ignore[no-any-return]


def test_backups_and_archives_by_name_are_records_and_survive_the_sweep(
        repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    root = repo({**BACKUPS, **LIVE}, config=None, allowlist=None)
    done = _init(root, run)
    allowlist = next((root / "allowlists").glob("*.yaml")).read_text()
    section = allowlist.split("current:", 1)[1].split("records:", 1)[0]
    current = [line.strip().removeprefix("- ") for line in section.splitlines() if line.strip()]
    shared = {rel.split("/")[0] for rel in LIVE}  # zones/** is current: its backups are records first
    for rel in (rel for rel in BACKUPS if rel.split("/")[0] not in shared):  # no pattern for a backup folder
        assert rel not in current and rel.split("/")[0] + "/**" not in current, (rel, current)
    assert "Could not classify" not in done.stdout, done.stdout
    assert "paths: [previous_records/**]" in allowlist
    assert "in a folder named as backups or old copies" in allowlist
    assert "'**/*.save.[0-9]*'" in allowlist and "Backup copies by name (backup-copies)" in done.stdout
    swept = run(root, "sweep", "--commit")
    assert swept.exit_code == 0, swept.stdout + swept.stderr
    for rel, text in BACKUPS.items():
        assert (root / rel).read_text() == text, rel
    for rel in LIVE:
        after = (root / rel).read_text()
        assert "ana-ml2" not in after and "10.250.50.54" not in after, (rel, after)
    assert run(root, "verify").exit_code == 0
    # a save nano writes after the move is a backup too: the class covers the next number
    (root / "zones/db.ana.lan.save.3").write_text(ZONE)
    git(root, "add", "-A")
    git(root, "commit", "-qm", "a later save")
    assert run(root, "verify").exit_code == 0


@pytest.mark.parametrize(("rel", "class_line"), [
    pytest.param("roles/ml/tasks/main.yml.bak", "'**/*.bak'", id="preset-suffix"),
    pytest.param("zones/db.ana.lan.save.1", "'**/*.save.[0-9]*'", id="numbered-save"),
    pytest.param("zones/old/db.ana.lan", "zones/old/**", id="nested-old-folder"),
])
def test_a_backup_beside_its_live_file_keeps_the_live_file_current(
        rel: str, class_line: str, repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    live = rel.replace(".bak", "").replace(".save.1", "").replace("old/", "")
    root = repo({live: ZONE, rel: ZONE}, config=None, allowlist=None)
    done = _init(root, run)
    assert "Could not classify" not in done.stdout
    allowlist = next((root / "allowlists").glob("*.yaml")).read_text()
    assert class_line in allowlist or "records-common preset: 1 file" in done.stdout
    assert run(root, "sweep", "--commit").exit_code == 0
    assert (root / rel).read_text() == ZONE
    assert "fv-ml1" in (root / live).read_text()


def test_a_dated_copy_does_not_make_its_original_undecided(
        repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    root = repo({"zones/db.ana.lan": ZONE, "zones/db.ana.lan-20240102": ZONE,
                 "notes/2026-01-10-disk.md": "ana-ml2 lost a disk\n", "notes/todo.md": "check ana-ml2\n"},
                config=None, allowlist=None)
    done = _init(root, run)
    assert "  notes/todo.md  (" in done.stdout  # dated notes still leave their undated files to a person
    assert "zones/db.ana.lan  (" not in done.stdout
    swept = run(root, "sweep", "--commit")
    assert swept.exit_code == 1  # notes/todo.md waits for a decision
    assert "fv-ml1" in (root / "zones/db.ana.lan").read_text()
    assert (root / "zones/db.ana.lan-20240102").read_text() == ZONE


@pytest.mark.parametrize(("folder", "new_folder"), [
    pytest.param("host_vars/ana-ml2.ana.lan", "host_vars/fv-ml1.fv.lan", id="host-vars-fqdn"),
    pytest.param("host_vars/ana-ml2", "host_vars/fv-ml1", id="host-vars-short"),
    pytest.param("inventory/host_vars/ana-ml2.ana.lan", "inventory/host_vars/fv-ml1.fv.lan",
                 id="nested-inventory"),
    pytest.param("group_vars/ana-ml2", "group_vars/fv-ml1", id="group-vars"),
])
def test_a_folder_named_after_the_host_is_current_and_the_sweep_moves_it(
        folder: str, new_folder: str, repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    vars_text = "vfio_pci_ids:\n  - 10de:1bb3\n"  # no old value in the text: only the path names it
    root = repo({f"{folder}/vars.yml": vars_text, f"{folder}/empty.yml": "",
                 "site.yml": "- hosts: all\n  roles: [base]\n",
                 "previous_records/host_vars/ana-ml2/vars.yml": vars_text},
                config=None, allowlist=None)
    done = _init(root, run)
    assert "Old values found in 3 files." in done.stdout, done.stdout
    assert "Paths named after an old value: 3 (2 current, renamed by the sweep)" in done.stdout
    assert "Could not classify" not in done.stdout
    swept = run(root, "sweep", "--commit")
    assert swept.exit_code == 0, swept.stdout + swept.stderr
    assert not (root / folder).exists()
    assert (root / new_folder / "vars.yml").read_text() == vars_text
    assert (root / new_folder / "empty.yml").read_text() == ""
    assert (root / "previous_records/host_vars/ana-ml2/vars.yml").read_text() == vars_text
    # a move git sees as a rename (`git mv`), so `git log --follow` keeps the host's history
    status = git(root, "log", "-M", "--name-status", "--format=", "-1", "--diff-filter=R")
    assert f"{folder}/vars.yml\t{new_folder}/vars.yml" in status, status
    assert run(root, "verify").exit_code == 0


@pytest.mark.parametrize(("rel", "new_rel"), [
    pytest.param("host_vars/ana-ml2.ana.lan.yml", "host_vars/fv-ml1.fv.lan.yml", id="host-vars-file"),
    pytest.param("files/ana-ml2/authorized_keys", "files/fv-ml1/authorized_keys", id="role-files-folder"),
])
def test_a_file_named_after_the_host_is_moved(rel: str, new_rel: str, repo: Callable[..., Path],
                                              run: Callable[..., Result]) -> None:
    root = repo({rel: "ansible_port: 2222\n", "old/" + rel: "ansible_port: 22\n"}, config=None, allowlist=None)
    done = _init(root, run)
    assert "Paths named after an old value: 2 (1 current, renamed by the sweep)" in done.stdout, done.stdout
    swept = run(root, "sweep", "--commit")
    assert swept.exit_code == 0, swept.stdout + swept.stderr
    assert (root / new_rel).read_text() == "ansible_port: 2222\n" and not (root / rel).exists()
    assert (root / "old" / rel).read_text() == "ansible_port: 22\n"  # the copy keeps its name
    assert run(root, "verify").exit_code == 0


@pytest.mark.parametrize("rel", [
    pytest.param("backup-scripts/run-restic.sh", id="scripts"),
    pytest.param("backup-playbooks/tasks/main.yml", id="ansible-tasks"),
    pytest.param("old-tools/rotate.py", id="old-tools"),
])
def test_a_folder_named_for_backups_that_holds_code_is_undecided(rel: str, repo: Callable[..., Path],
                                                                 run: Callable[..., Result]) -> None:
    text = "restic -r sftp:ana-ml2.ana.lan:/srv/restic backup /etc\n"
    root = repo({rel: text, "previous_records/hosts": HOSTS}, config=None, allowlist=None)
    done = _init(root, run)
    assert f"  {rel}  (in {rel.split('/')[0]}/" in done.stdout, done.stdout
    assert "named for backups but holding code: the backup tool (current) or an old copy" in done.stdout
    assert run(root, "sweep", "--commit").exit_code == 1  # left for a decision, not kept silently
    assert (root / rel).read_text() == text
    verify = run(root, "verify")
    assert verify.exit_code == 1 and rel in verify.stdout


def test_an_ansible_role_named_for_backups_is_current(repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    rel = "roles/backups_restic/tasks/main.yml"
    root = repo({rel: "- command: restic -r sftp:ana-ml2.ana.lan:/srv backup /etc\n"}, config=None, allowlist=None)
    done = _init(root, run)
    assert "Could not classify" not in done.stdout and "roles/**" in done.stdout
    assert run(root, "sweep", "--commit").exit_code == 0
    assert "sftp:fv-ml1.fv.lan:/srv" in (root / rel).read_text()
