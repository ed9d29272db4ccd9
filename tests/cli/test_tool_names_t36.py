"""Names another tool keeps its own object under, beside the ones store_names.py first held
(issue 27, t36-sweep findings 08-10), end to end: a backup tool's destination or identity
(rclone, Proxmox Backup Server, Velero, rsnapshot, Bacula, UrBackup...), a machine, container or
release manager's instance (virsh, LXD/Incus, Multipass, Lima, VirtualBox, machinectl, Helm, the
Ansible modules), and the other secret-store clients (LastPass, KeePassXC, chamber, Doppler,
Infisical, libsecret, the macOS keychain, Ansible lookups by their plugin's name). Each was
rewritten with sweep 0 and verify --strict OK; now each is a `state-name` residual, the file byte
for byte as it was, while the host's own name beside it still moves."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Result
from tests.testing.repos import PUG_ALLOW as ALLOW
from tests.testing.repos import PUG_CONFIG as CONFIG

HELD: dict[str, tuple[str, str]] = {
    # 08: the given backup tools, and their neighbours
    "rclone": ("ops/rclone.sh", "#!/bin/sh\nrclone sync /srv b2:lab-backups/pug/srv\n"),
    "rclone-quoted": ("ops/rclone2.sh", "#!/bin/sh\nrclone copy --transfers 8 /srv 'nas-sftp:/backups/pug'\n"),
    "pbs": ("ops/pbs.sh", "#!/bin/sh\nproxmox-backup-client backup root.pxar:/ --repository "
                          "backup@pbs@pbs.lab.example:pug\n"),
    "pbs-env": ("ops/pbs.env", "PBS_REPOSITORY=backup@pbs@pbs.lab.example:8007:pug\n"),
    "pve-storage": ("etc/pve/storage.cfg", "pbs: backup\n\tserver pbs.lab.example\n\tdatastore pug\n"),
    "velero-bsl": ("k8s/velero-bsl.yaml", "apiVersion: velero.io/v1\nkind: BackupStorageLocation\nmetadata:\n"
                                          "  name: default\nspec:\n  provider: aws\n  objectStorage:\n"
                                          "    bucket: lab-backups\n    prefix: pug\n"),
    "velero-restore": ("k8s/restore.yaml", "apiVersion: velero.io/v1\nkind: Restore\nmetadata:\n  name: r1\n"
                                           "spec:\n  backupName: pug\n"),
    "velero-cli": ("ops/velero.sh", "#!/bin/sh\nvelero restore create --from-backup pug --wait\n"),
    "rsnapshot": ("ops/rsnapshot.conf", "snapshot_root\t/srv/snapshots/\nbackup\troot@nas:/etc/\tpug/\n"),
    "rdiff-backup": ("ops/rdiff.sh", "#!/bin/sh\nrdiff-backup /etc nas::/backups/pug\n"),
    "bacula-job": ("ops/bacula-dir.conf", 'Job {\n  Name = "pug"\n  Type = Backup\n  FileSet = "Full Set"\n}\n'),
    "bareos-client": ("bareos/bareos-dir.d/client/c.conf", "Client {\n  Name = pug\n  Address = db.ana.lan\n}\n"),
    "bconsole": ("ops/bc.sh", '#!/bin/sh\necho "run job=pug yes" | bconsole\n'),
    "urbackup": ("ops/urbackup.sh", "#!/bin/sh\nurbackupclientctl set-settings -k computername -v pug\n"),
    "burp": ("etc/burp/burp.conf", "server = backup.ana.lan\ncname = pug\n"),
    "restic-tag": ("ops/prune.sh", "#!/bin/sh\nrestic forget --tag pug --keep-daily 7\n"),
    # 09: the given managers, and their neighbours
    "virsh": ("scripts/virsh.sh", "#!/bin/sh\nvirsh start pug\nvirsh snapshot-create-as pug pre-upgrade\n"),
    "virsh-connect": ("scripts/virsh2.sh", "#!/bin/sh\nvirsh -c qemu+ssh://kvm1/system shutdown --mode acpi pug\n"),
    "virt-install": ("scripts/mk.sh", "#!/bin/sh\nvirt-install --name pug --ram 2048 --import --disk x.qcow2\n"),
    "lxd": ("scripts/lxd.sh", "#!/bin/sh\nlxc exec pug -- apt-get -y upgrade\n"),
    "incus": ("scripts/incus.sh", "#!/bin/sh\nincus snapshot create pug pre\n"),
    "lxc-classic": ("scripts/lxc.sh", "#!/bin/sh\nlxc-attach -n pug -- uptime\n"),
    "multipass": ("scripts/mp.sh", "#!/bin/sh\nmultipass exec pug -- uptime\n"),
    "multipass-transfer": ("scripts/mp2.sh", "#!/bin/sh\nmultipass transfer ./motd pug:/etc/motd\n"),
    "lima": ("scripts/lima.sh", "#!/bin/sh\nlimactl start pug\n"),
    "vbox": ("scripts/vbox.sh", "#!/bin/sh\nVBoxManage startvm pug --type headless\n"),
    "machinectl": ("scripts/nspawn.sh", "#!/bin/sh\nmachinectl start pug\n"),
    "nspawn-unit": ("scripts/unit.sh", "#!/bin/sh\nsystemctl enable --now systemd-nspawn@pug.service\n"),
    "helm": ("scripts/deploy.sh", "#!/bin/sh\nhelm upgrade --install pug ./charts/web -n apps\n"),
    "helm-ns-first": ("scripts/deploy2.sh", "#!/bin/sh\nhelm -n apps rollback pug 3\n"),
    "ansible-virt": ("playbook.yml", "- name: start\n  community.libvirt.virt:\n    name: pug\n    state: running\n"),
    "ansible-helm": ("helm.yml", "- kubernetes.core.helm:\n    name: pug\n    chart_ref: bitnami/nginx\n"
                                 "    release_namespace: web\n"),
    "tf-libvirt-domain": ("tf/vm.tf", 'resource "libvirt_domain" "vm" {\n  name   = "pug"\n  memory = 2048\n}\n'),
    "tf-helm-release": ("tf/helm.tf", 'resource "helm_release" "web" {\n  name  = "pug"\n  chart = "nginx"\n}\n'),
    "k3d": ("scripts/k3d.sh", "#!/bin/sh\nk3d cluster create pug --servers 1\n"),
    "ansible-lxd": ("lxd.yml", "- community.general.lxd_container:\n    name: pug\n    state: started\n"),
    # 10: the given secret-store clients, and their neighbours
    "lpass": ("scripts/lpass.sh", "#!/bin/sh\nlpass show --password pug/root\n"),
    "keepassxc": ("scripts/keepass.sh", "#!/bin/sh\nkeepassxc-cli show -a Password infra.kdbx pug/root\n"),
    "chamber": ("scripts/chamber.sh", "#!/bin/sh\nchamber exec pug -- ./run\nchamber read pug db_password\n"),
    "doppler": ("scripts/doppler.sh", "#!/bin/sh\ndoppler secrets get DB_PASSWORD --project pug --plain\n"),
    "infisical": ("scripts/infisical.sh", "#!/bin/sh\ninfisical secrets get DB_PASSWORD --path /pug\n"),
    "secret-tool": ("scripts/libsecret.sh", "#!/bin/sh\nsecret-tool lookup service ssh host pug\n"),
    "keychain": ("scripts/keychain.sh", "#!/bin/sh\nsecurity find-generic-password -s pug -w\n"),
    "keychain-internet": ("scripts/kc.sh", "#!/bin/sh\nsecurity find-internet-password -s pug.ana.lan -w\n"),
    "gcloud": ("scripts/gcloud.sh", "#!/bin/sh\ngcloud secrets versions access latest --secret=pug --project infra\n"),
    "keepass-lookup": ("group_vars/all.yml", "root_pw: \"{{ lookup('viczem.keepass.keepass', 'infra/pug', "
                                             "'password') }}\"\n"),
    "vault-module": ("tasks/db.yml", "- name: read\n  community.hashi_vault.vault_kv2_get:\n    path: pug/db\n"
                                     "    engine_mount_point: kv\n"),
    "keyring-lookup": ("group_vars/k.yml", "pw: \"{{ query('community.general.keyring', 'pug root') }}\"\n"),
}
# the same files' neighbours that are the host's own name: still rewritten
MOVES: dict[str, tuple[str, str, str]] = {
    "rsnapshot-source": ("ops/rsnapshot.conf", "snapshot_root\t/srv/snapshots/\nbackup\troot@pug.ana.lan:/etc/\tdb/\n",
                         "snapshot_root\t/srv/snapshots/\nbackup\troot@wolf.fv.lan:/etc/\tdb/\n"),
    "pbs-server": ("ops/pbs.sh", "#!/bin/sh\nproxmox-backup-client list --repository backup@pbs@pug.ana.lan:store\n",
                   "#!/bin/sh\nproxmox-backup-client list --repository backup@pbs@wolf.fv.lan:store\n"),
    "bacula-address": ("ops/bacula-dir.conf", "Client {\n  Name = db\n  Address = pug.ana.lan\n}\n",
                       "Client {\n  Name = db\n  Address = wolf.fv.lan\n}\n"),
    "rclone-local-source": ("ops/r.sh", "#!/bin/sh\nrclone sync /srv/pug b2:bk/srv\n",
                            "#!/bin/sh\nrclone sync /srv/wolf b2:bk/srv\n"),
    "configmap-prefix": ("k8s/cm.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\ndata:\n  prefix: pug\n",
                         "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\ndata:\n  prefix: wolf\n"),
    "virsh-uri": ("scripts/v.sh", "#!/bin/sh\nvirsh -c qemu+ssh://pug/system start vm1\n",
                  "#!/bin/sh\nvirsh -c qemu+ssh://wolf/system start vm1\n"),
    "virsh-migrate-target": ("scripts/m.sh", "#!/bin/sh\nvirsh migrate --live vm1 qemu+ssh://pug.ana.lan/system\n",
                             "#!/bin/sh\nvirsh migrate --live vm1 qemu+ssh://wolf.fv.lan/system\n"),
    "after-double-dash": ("scripts/x.sh", "#!/bin/sh\nlxc exec vm1 -- ping -c1 pug\n",
                          "#!/bin/sh\nlxc exec vm1 -- ping -c1 wolf\n"),
    "helm-value": ("scripts/h.sh", "#!/bin/sh\nhelm upgrade --install web ./chart --set host=pug.ana.lan\n",
                   "#!/bin/sh\nhelm upgrade --install web ./chart --set host=wolf.fv.lan\n"),
    "infisical-domain": ("scripts/i.sh", "#!/bin/sh\ninfisical run --domain https://pug.ana.lan/api -- ./x\n",
                         "#!/bin/sh\ninfisical run --domain https://wolf.fv.lan/api -- ./x\n"),
    "docker-container-name": ("d.yml", "- community.docker.docker_container:\n    name: pug\n    image: nginx\n",
                              "- community.docker.docker_container:\n    name: wolf\n    image: nginx\n"),
    "tf-nested-hostname": ("tf/n.tf", 'resource "libvirt_domain" "vm" {\n  name = "vm1"\n  network_interface {\n'
                           '    hostname = "pug"\n  }\n}\n', 'resource "libvirt_domain" "vm" {\n  name = "vm1"\n'
                           '  network_interface {\n    hostname = "wolf"\n  }\n}\n'),
    "docker-network-name": ("c.yml", "- community.docker.docker_container:\n    name: web\n    env:\n"
                                     "      name: pug\n",
                            "- community.docker.docker_container:\n    name: web\n    env:\n      name: wolf\n"),
}


@pytest.mark.parametrize("case", sorted(HELD))
def test_another_tools_object_name_is_held(case: str, repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    path, content = HELD[case]
    root = repo({path: content}, config=CONFIG, allowlist=ALLOW)
    found = [f for f in json.loads(run(root, "verify", "--format", "json").stdout)["findings"] if f["path"] == path]
    assert found and all(f.get("reason") == "state-name" for f in found), found
    assert all("compose" not in f.get("note", "") for f in found), found  # its own advice, not another tool's
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1, done.stdout + done.stderr
    assert (root / path).read_text() == content
    assert run(root, "verify", "--strict").exit_code == 1


@pytest.mark.parametrize("case", sorted(MOVES))
def test_the_hosts_own_name_still_moves(case: str, repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    path, text, after = MOVES[case]
    root = repo({path: text}, config=CONFIG, allowlist=ALLOW)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    assert (root / path).read_text() == after
    assert run(root, "verify", "--strict").exit_code == 0
