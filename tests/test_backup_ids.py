"""backup_ids: where an old name in a backup tool's line is the name its backups are kept under (pure
logic; the CLI: tests/cli/test_tool_names_t36.py)."""

from __future__ import annotations

import pytest

from renamer import backup_ids


def keyed(rel: str, text: str, name: str = "web01", nth: int = 0) -> str | None:
    data = text.encode()
    at = -1
    for _ in range(nth + 1):
        at = data.index(name.encode(), at + 1)
    return backup_ids.keyed(rel, data, at, at + len(name))


@pytest.mark.parametrize(("rel", "text"), [
    # the given cases (t36-sweep finding 08)
    ("ops/rclone.sh", "rclone sync /srv b2:lab-backups/web01/srv\n"),
    ("ops/pbs.sh", "proxmox-backup-client backup root.pxar:/ --repository backup@pbs@pbs.lab.example:web01\n"),
    ("k8s/bsl.yaml", "apiVersion: velero.io/v1\nkind: BackupStorageLocation\nspec:\n  objectStorage:\n"
                     "    bucket: lab-backups\n    prefix: web01\n"),
    ("ops/rsnapshot.conf", "snapshot_root\t/srv/snapshots/\nbackup\troot@nas:/etc/\tweb01/\n"),
    ("ops/bacula-dir.conf", 'Job {\n  Name = "web01"\n  Type = Backup\n}\n'),
    ("ops/urbackup.sh", "urbackupclientctl set-settings -k computername -v web01\n"),
    # variants: other spellings, other tools of the family
    ("ops/r.sh", "rclone copy --transfers 8 /srv 'nas-sftp:/backups/web01'\n"),
    ("ops/r.sh", "rclone delete remote:bk/web01 --min-age 30d\n"),
    ("ops/rd.sh", "rdiff-backup /etc nas::/backups/web01\n"),
    ("ops/rd.sh", "rdiff-backup --remove-older-than 4W /srv/backups/web01\n"),
    ("ops/env", "PBS_REPOSITORY=backup@pbs@pbs.lab.example:8007:web01\n"),
    ("ops/pbs.sh", "proxmox-backup-client backup root.pxar:/ --repository pbs.lab:store --ns web01\n"),
    ("etc/pve/storage.cfg", "pbs: backup\n\tserver pbs.lab\n\tdatastore web01\n\tnamespace web01\n"),
    ("etc/proxmox-backup/datastore.cfg", "datastore: web01\n\tpath /mnt/datastore/web01\n"),
    ("k8s/restore.yaml", "apiVersion: velero.io/v1\nkind: Restore\nspec:\n  backupName: web01\n"),
    ("ops/v.sh", "velero restore create --from-backup web01 --wait\n"),
    ("ops/v.sh", "velero backup describe web01 --details\n"),
    ("ops/rsnapshot.conf", "snapshot_root\t/srv/snapshots/web01/\n"),
    ("ops/rsnapshot.conf", "backup_script\t/usr/local/bin/dump.sh\tweb01/db/\n"),
    ("bareos/bareos-dir.d/client/x.conf", "Client {\n  Name = web01\n  Address = db.lab.example\n}\n"),
    ("ops/bacula-dir.conf", "Job {\n  Name = x\n  Client = web01\n  FileSet = web01\n  Type = Backup\n}\n"),
    ("ops/b.sh", 'echo "run job=web01 level=Full yes" | bconsole\n'),
    ("etc/urbackup/settings.cfg", "computername=web01\n"),
    ("etc/burp/burp.conf", "cname = web01\n"),
    ("ops/r.sh", "restic forget --tag web01 --keep-daily 7\n"),
    ("ops/veeam.sh", "veeamconfig job create volumelevel --name web01 --repoName nas\n"),
    ("ops/t.sh", "tarsnap -c -f web01 /etc\n"),
    ("ops/k.sh", "kopia snapshot list root@web01:/etc\n"),
])
def test_a_backup_tools_name_is_keyed(rel: str, text: str) -> None:
    nth = text.count("web01") - 1  # the last one: the destination, not a source machine
    assert keyed(rel, text, nth=nth) is not None
    assert backup_ids.might_hold(rel, text.encode())


@pytest.mark.parametrize(("rel", "text", "nth"), [
    ("ops/r.sh", "rclone sync web01:/data /srv/copy\n", 0),  # a remote named for the machine: its config
    ("ops/r.sh", "rclone sync /srv/web01 b2:bk/srv\n", 0),  # the local source
    ("ops/pbs.sh", "proxmox-backup-client backup root.pxar:/ --repository backup@pbs@web01:store\n", 0),
    ("ops/rsnapshot.conf", "snapshot_root\t/srv/snapshots/\nbackup\troot@web01:/etc/\tdb/\n", 0),  # source
    ("ops/bacula-dir.conf", "Client {\n  Name = db\n  Address = web01\n}\nJob {\n  Type = Backup\n}\n", 0),
    ("k8s/bsl.yaml", "apiVersion: v1\nkind: ConfigMap\ndata:\n  prefix: web01\n", 0),  # not Velero's
    ("etc/pve/storage.cfg", "nfs: nas\n\tpath /mnt/pve/web01\n\tserver nas\n", 0),  # another storage's path
    ("jobs/x.groovy", "Job {\n  Name = web01\n}\n", 0),  # braces alone are no Bacula file
    ("ops/r.sh", "rsync -a /srv/ nas:/backups/web01/\n", 0),  # a copy tool's folder follows (by design)
    ("ops/k.sh", "kopia repository connect server --url https://web01:51515\n", 0),
])
def test_the_same_words_keying_nothing_are_not(rel: str, text: str, nth: int) -> None:
    assert keyed(rel, text, nth=nth) is None
