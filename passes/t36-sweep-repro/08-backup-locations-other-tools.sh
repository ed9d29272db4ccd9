#!/bin/bash
# 08 (sev 1): backup locations and identities named after the host, the neighbours of the fix that
# holds borg/restic repositories and kopia's `--override-hostname` (state-name). These are
# rewritten: rclone's destination (`b2:lab-backups/web01/srv`), a Proxmox Backup Server repository
# (`--repository backup@pbs@pbs.lab.example:web01`), Velero's BackupStorageLocation `prefix: web01`
# (renamed, velero lists no backups: the old ones are under web01/), rsnapshot's destination folder
# (`web01/`: the hard-link chain starts over with a full copy), a Bacula `Job { Name = "web01" }`
# (the catalog's job history and the incremental chain), UrBackup's `computername` (a new client on
# the server). The old backups stay under the old name, retention no longer reaches them, and the
# next run starts a new full chain. sweep --commit 0, verify --strict OK.
. "$(dirname "$0")/lib.sh"
mkrepo 08; cfg '{web01: app01}' '{10.0.0.70: 10.0.1.90}'
mkdir -p ops k8s
printf '#!/bin/sh\nrclone sync /srv b2:lab-backups/web01/srv\n' > ops/rclone.sh
printf '#!/bin/sh\nproxmox-backup-client backup root.pxar:/ --repository backup@pbs@pbs.lab.example:web01\n' > ops/pbs.sh
printf 'apiVersion: velero.io/v1\nkind: BackupStorageLocation\nmetadata:\n  name: default\n  namespace: velero\nspec:\n  provider: aws\n  objectStorage:\n    bucket: lab-backups\n    prefix: web01\n' > k8s/velero-bsl.yaml
printf 'snapshot_root\t/srv/snapshots/\nbackup\troot@nas:/etc/\tweb01/\n' > ops/rsnapshot.conf
printf 'Job {\n  Name = "web01"\n  Type = Backup\n  FileSet = "Full Set"\n}\n' > ops/bacula-dir.conf
printf '#!/bin/sh\nurbackupclientctl set-settings -k computername -v web01\n' > ops/urbackup.sh
commit
run_all 2>&1 | grep -E '^(rc|==|verify|diff --git|[-+][^-+])'
