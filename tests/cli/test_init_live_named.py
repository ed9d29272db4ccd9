"""renamer init on services named after what they do (round 3 break-it finding 11): a stack called
archivebox, backup-server or pg-dump holds live configuration, and a word in its folder's name never
makes it a record. Copies of that configuration (a mirror of a repo path, a dated folder, the same
bytes, a file beside its original, a dump) stay records, side by side with the live ones."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from tests.conftest import Result
from tests.testing.repos import init_and_commit

PAIRS = ("--from", "ana-ml2=fv-ml1", "--from", "10.250.50.54=10.251.50.54")
COMPOSE = "services:\n  app:\n    environment:\n      DB_HOST: ana-ml2\n"
OLDER = "services:\n  app:\n    image: app:1\n    environment:\n      DB_HOST: ana-ml2\n"
MANIFEST = ("apiVersion: batch/v1\nkind: CronJob\nmetadata:\n  name: dump\nspec:\n  schedule: '0 3 * * *'\n"
            "  jobTemplate:\n    spec:\n      template:\n        spec:\n          containers:\n"
            "            - name: dump\n              args: [--host, ana-ml2]\n")
PLAYBOOK = "- hosts: all\n  tasks:\n    - ansible.builtin.ping:\n      delegate_to: ana-ml2\n"

# Live configuration whose folder is named like backups, archives or history: rewritten.
LIVE = {
    "stacks/archivebox/compose.yml": COMPOSE,
    "stacks/backup-server/compose.yml": COMPOSE,
    "stacks/backup-server/README.md": "Backs up ana-ml2 nightly.\n",  # beside the live compose file
    "stacks/backup/docker-compose.yaml": COMPOSE,  # the preset's `**/backup/**` is a word in a name too
    "stacks/archive/.env": "DB_HOST=ana-ml2\n",
    "k8s/pg-dump/cronjob.yaml": MANIFEST,
    "k8s/etcd-snapshot/job.yaml": MANIFEST.replace("CronJob", "Job"),
    "apps/history/compose.yml": COMPOSE.replace("app:", "history:"),
    "apps/history/config/app.ini": "[db]\nhost = ana-ml2\n",  # a live service's own config
    "ansible/backups/site.yml": PLAYBOOK,
    "backup-restic/Dockerfile": "FROM alpine\nENV REPO=sftp:ana-ml2:/srv\n",
    "stacks/web/compose.yml": COMPOSE.replace("app:", "web:"),
}
# Copies, named or placed as copies: byte-identical after the sweep.
RECORDS = {
    "backups/stacks/web/compose.yml": OLDER,  # mirrors a repo path
    "archive/stacks/web/compose.yml": OLDER,
    "old-stacks/web/compose.yml": OLDER,  # the same path ending (`web/compose.yml`) stands elsewhere
    "stacks/backup-server/old/compose.yml": OLDER,  # beside its original, one folder up
    "archives/2024-05-01/compose.yml": OLDER,  # a dated folder
    "snapshots-old/app.yaml": COMPOSE.replace("app:", "web:"),  # the same bytes as a live file
    "stacks/backup-server/latest.sql": "INSERT INTO hosts VALUES ('ana-ml2');\n",  # the tool's output
    "history/hosts": "10.250.50.54 ana-ml2\n",  # no live configuration: the name still decides
    "dumps/leases.txt": "10.250.50.54 ana-ml2\n",
}


def test_live_stacks_named_for_backups_are_current_and_their_copies_are_records(
        repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    root = repo({**LIVE, **RECORDS}, config=None, allowlist=None)
    done = init_and_commit(root, run, PAIRS)
    assert "Could not classify" not in done.stdout, done.stdout
    swept = run(root, "sweep", "--commit")
    assert swept.exit_code == 0, swept.stdout + swept.stderr
    for rel in LIVE:
        after = (root / rel).read_text()
        assert "ana-ml2" not in after and "fv-ml1" in after, (rel, after)
    for rel, text in RECORDS.items():
        assert (root / rel).read_text() == text, rel
    verify = run(root, "verify", "--strict")
    assert verify.exit_code == 0, verify.stdout
    for folder in ("stacks/archivebox/**", "stacks/backup-server/**", "k8s/pg-dump/**", "apps/history/**"):
        assert f"  {folder}  (" in done.stdout, done.stdout  # init says why it made each current


def test_a_live_folder_inside_a_preset_folder_name_keeps_the_presets_other_rules(
        repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    # `stacks/backup/` is live; its `compose.yml.bak` and the top-level `backup/` copy stay records
    files = {"stacks/backup/compose.yml": COMPOSE, "stacks/backup/compose.yml.bak": OLDER,
             "backup/hosts": "10.250.50.54 ana-ml2\n"}
    root = repo(files, config=None, allowlist=None)
    init_and_commit(root, run, PAIRS)
    allowlist = next((root / "allowlists").glob("*.yaml")).read_text()
    assert "'!stacks/backup/**'" in allowlist, allowlist
    swept = run(root, "sweep", "--commit")
    assert swept.exit_code == 0, swept.stdout + swept.stderr
    assert "fv-ml1" in (root / "stacks/backup/compose.yml").read_text()
    assert (root / "stacks/backup/compose.yml.bak").read_text() == OLDER
    assert (root / "backup/hosts").read_text() == "10.250.50.54 ana-ml2\n"
    audit = run(root, "audit", "--format", "json")
    assert '"reason": "backups"' in audit.stdout  # the preset's class, written again, still keeps them
    assert run(root, "verify", "--strict").exit_code == 0


def test_copies_inside_a_live_folder_stay_records(repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    # a backup server's own stack, in `backups/`, beside the copies it keeps
    hosts = "10.250.50.54 ana-ml2\n"
    files = {"backups/compose.yml": COMPOSE, "backups/README.md": "Runs restic against ana-ml2.\n",
             "backups/hosts": hosts, "etc/hosts": hosts,  # the same bytes as a file of the same name
             "backups/etc/ssh/ssh_config": "Host ana-ml2\n", "etc/ssh/ssh_config": "Host ana-ml2\n  User root\n",
             "backups/db-2024.dump": "ana-ml2\n"}
    root = repo(files, config=None, allowlist=None)
    done = init_and_commit(root, run, PAIRS)
    assert "  backups/**  (backups/compose.yml: live configuration)" in done.stdout, done.stdout
    assert "Could not classify" not in done.stdout, done.stdout
    assert run(root, "sweep", "--commit").exit_code == 0
    for rel in ("backups/compose.yml", "backups/README.md", "etc/hosts", "etc/ssh/ssh_config"):
        assert "fv-ml1" in (root / rel).read_text(), rel
    for rel in ("backups/hosts", "backups/etc/ssh/ssh_config", "backups/db-2024.dump"):
        assert (root / rel).read_text() == files[rel], rel
    allowlist = next((root / "allowlists").glob("*.yaml")).read_text()
    assert "a copy of etc/hosts" in allowlist and "a copy of etc/ssh/ssh_config" in allowlist, allowlist
    assert run(root, "verify", "--strict").exit_code == 0


def test_two_record_folders_of_one_name_get_a_class_each(repo: Callable[..., Path],
                                                         run: Callable[..., Result]) -> None:
    # found beside finding 11: `apps/history/` and `history/` both named their class `history`, and
    # init refused the allowlist it had written (exit 2)
    hosts = "10.250.50.54 ana-ml2\n"
    files = {"zones/old/hosts": hosts, "etc/old/hosts": hosts + "# etc\n", "history/hosts": hosts,
             "docs/history/notes.md": "ana-ml2 then\n", "etc/hosts": "10.250.50.54 ana-ml2 live\n"}
    root = repo(files, config=None, allowlist=None)
    done = init_and_commit(root, run, PAIRS)
    allowlist = next((root / "allowlists").glob("*.yaml")).read_text()
    for name in ("name: old", "name: zones-old", "name: history", "name: history-2"):
        assert f"  - {name}\n" in allowlist, allowlist
    assert "Could not classify" not in done.stdout, done.stdout
    assert run(root, "sweep", "--commit").exit_code == 0
    for rel, text in files.items():
        assert ((root / rel).read_text() == text) == (rel != "etc/hosts"), rel
    assert run(root, "verify", "--strict").exit_code == 0
