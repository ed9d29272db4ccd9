"""Backup repositories named from the machine's own name (break-it round 16, finding 3).

Giftpilz0/homelab's resticprofile template `repository: "rest:http://...:8000/{{ inventory_hostname }}/..."`
with `initialize: true`: renaming the inventory host made resticprofile create a new, empty
repository, and the old snapshots were no longer listed or pruned; sweep 0, verify OK. Now each
such location (restic, borg, kopia; Ansible facts, `$(hostname)`, `$HOSTNAME`, systemd's `%H`,
borg's `{hostname}`, NixOS `config.networking.hostName`) is a `state-name` residual naming the
line, nothing rewritten.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Result
from tests.testing.repos import PUG_ALLOW as ALLOW
from tests.testing.repos import PUG_CONFIG as CONFIG

INVENTORY = {"inventory/hosts.yml": "all:\n  hosts:\n    pug:\n      ansible_host: 10.0.0.5\n"}
# name: (path, text, the line held)
CASES = {
    "resticprofile": ("roles/restic/templates/profiles.yaml.j2",
                      'profiles:\n  volumes:\n    repository: "rest:http://nas:8000/{{ inventory_hostname }}/v"\n'
                      "    initialize: true\n", 3),
    "borg-env": ("roles/backup/templates/borg.env.j2", "BORG_REPO=ssh://borg@nas/./{{ ansible_hostname }}\n", 1),
    "restic-flag": ("backup.sh", "#!/bin/sh\nrestic -r sftp:nas:/srv/restic/$(hostname -s) backup /srv\n", 2),
    "nixos-restic": ("hosts/web/configuration.nix",
                     '{ config, ... }: {\n  services.restic.backups.daily.repository = '
                     '"s3:s3.lan/restic/${config.networking.hostName}";\n}\n', 2),
    "nixos-borg": ("hosts/db/borg.nix", '{ config, ... }: {\n  services.borgbackup.jobs.x = {\n'
                                        '    repo = "borg@nas:/./${config.networking.hostName}";\n  };\n}\n', 3),
    "borgmatic": ("etc/borgmatic/config.yaml", "repositories:\n  - path: ssh://borg@nas/./{hostname}\n"
                                               "    label: nas\n", 2),
    "borgmatic-old-list": ("etc/borgmatic.d/a.yaml", "location:\n  repositories:\n    - borg@nas:{fqdn}\n", 3),
    "kopia": ("kopia.sh", "kopia repository create filesystem --path /backups/$(hostname)\n", 1),
    "restic-env-unit": ("units/restic.service",
                        "[Service]\nEnvironment=RESTIC_REPOSITORY=sftp:nas:/srv/%H\nExecStart=/usr/bin/restic backup /srv\n",
                        2),
    "restic-hostname-variable": ("cron/restic.env", "RESTIC_REPOSITORY=s3:s3.lan/restic/$HOSTNAME\n", 1),
    "borg-init": ("bin/init.sh", "borg init --encryption=repokey ssh://borg@nas/./`hostname`\n", 1),
    # break-it round 17, finding 12: `ansible_nodename` and `uname -n`, a tool's other variables, copy tools
    "kopia-repo-path-nodename": ("roles/bk/templates/kopia.env.j2",
                                 "KOPIA_REPO_PATH=/mnt/nas/kopia/{{ ansible_nodename }}\n", 1),
    "rsync-uname": ("backup/borg.sh", '#!/bin/sh\nrsync -a /srv/ "nas:/backups/$(uname -n)/"\n', 2),
    "rsync-backticks-in-a-cron-line": ("cron/rsync", "0 3 * * * root rsync -a /srv nas:/bk/`uname -n`/ && true\n", 1),
    "rclone-facts-nodename": ("roles/bk/tasks/main.yml",
                              "- command: rclone sync /srv b2:bk/{{ ansible_facts['nodename'] }}\n", 1),
    "backup-dest-variable": ("group_vars/all/backup.yml", "backup_dest: /mnt/nas/{{ ansible_nodename }}\n", 1),
    "duplicity-etc-hostname": ("bin/dup.sh", "duplicity /srv sftp://nas/bk/$(cat /etc/hostname)\n", 1),
    # break-it round 19, finding 4: borg's positional repository, zfs recv, scp, Python's own name
    "borg-create-positional": ("roles/bk/templates/borg.sh.j2",
                               "borg create nas:/srv/borg/{{ ansible_hostname }}::daily /etc\n", 1),
    "zfs-recv-over-ssh": ("sh/zfs.sh", "zfs send tank/data@now | ssh nas zfs recv -F backup/$(uname -n)/data\n", 1),
    "syncoid": ("sh/syncoid.sh", "syncoid tank/data root@nas:backup/$(hostname -s)/data\n", 1),
    "btrfs-receive": ("sh/btrfs.sh", "btrfs send /snap/now | ssh nas btrfs receive /bk/$(hostname)/\n", 1),
    "scp-hostname": ("sh/etc.sh", 'scp -r /etc "nas:/srv/etc-copies/$HOSTNAME/"\n', 1),
    "python-dest-gethostname": ("py/snap.py", 'import socket\nDEST = f"/mnt/nas/snapshots/{socket.gethostname()}"\n', 2),
    "python-snapshot-dir-platform-node": ("py/snap2.py",
                                          'import platform\nsnapshot_dir = "/mnt/nas/" + platform.node()\n', 2),
    "node-dest-hostname": ("js/bk.js", "const BACKUP_DEST = `/mnt/nas/${os.hostname()}`;\n", 1),
}
NEGATIVES = {
    "a-file-path-in-a-restic-role": ("roles/restic/tasks/main.yml",
                                     "- template:\n    src: env.j2\n    dest: /etc/restic/{{ inventory_hostname }}.env\n"),
    "a-tag": ("tag.sh", "restic backup /srv --tag $(hostname)\n"),
    "no-backup-tool": ("pip.sh", "pip install -r requirements/$(hostname).txt\n"),
    "a-requirements-repo": ("play.yml", "- git:\n    repo: https://git.lan/{{ inventory_hostname }}.git\n"),
    "a-hostname-printed": ("py/who.py", "import socket\nprint(socket.gethostname())\n"),
    "a-dest-of-no-own-name": ("py/dest.py", 'DEST = "/mnt/nas/snapshots/shared"\n'),
    "a-log-line-of-a-copy-tool": ("bin/x.sh", "echo \"$(uname -n) done\"\nrsync -a /srv nas:/bk/\n"),
    "a-non-location-variable": ("group_vars/all/backup.yml", "backup_label: {{ ansible_nodename }}\n"),
}


def _held(root: Path, run: Callable[..., Result]) -> set[tuple[str, int]]:
    found = json.loads(run(root, "verify", "--format", "json").stdout)["findings"]
    return {(str(f["path"]), int(f["line"])) for f in found if f.get("reason") == "state-name"}


@pytest.mark.parametrize("case", sorted(CASES))
def test_round16_a_backup_repository_named_by_the_machine_is_a_residual(
        case: str, repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    path, text, line = CASES[case]
    root = repo({path: text, **INVENTORY}, config=CONFIG, allowlist=ALLOW)
    assert _held(root, run) == {(path, line)}
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1 and f"{path}:{line}:" in done.stdout
    assert (root / path).read_text() == text
    assert "ansible_host" in (root / "inventory/hosts.yml").read_text()
    assert "    wolf:" in (root / "inventory/hosts.yml").read_text()


def test_round16_kept_after_the_move_verify_passes(repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    path, text, _ = CASES["resticprofile"]
    kept = text.replace("/v\"\n", "/v\"  # renamer: keep (repository copied)\n")
    root = repo({path: kept, **INVENTORY}, config=CONFIG, allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 0
    assert run(root, "verify").exit_code == 0


@pytest.mark.parametrize("case", sorted(NEGATIVES))
def test_round16_no_backup_location_is_no_residual(case: str, repo: Callable[..., Path],
                                                   run: Callable[..., Result]) -> None:
    path, text = NEGATIVES[case]
    root = repo({path: text, **INVENTORY}, config=CONFIG, allowlist=ALLOW)
    assert _held(root, run) == set()


def test_round16_no_host_renamed_no_residual(repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    path, text, _ = CASES["resticprofile"]
    config = CONFIG.replace("  hosts: {pug: wolf, pug.ana.lan: wolf.fv.lan}\n", "")
    root = repo({path: text, "a.txt": "10.0.0.5\n"}, config=config, allowlist=ALLOW)
    assert _held(root, run) == set()
    assert run(root, "verify").exit_code == 1  # the address itself, not the repository
