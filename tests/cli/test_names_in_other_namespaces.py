"""Names in another service's namespace, end to end (break-it round 10, finding 5).

A forge's repository path (`github.com/acme/pug`), an object store's bucket (`s3://pug/`), a restic
repository on a storage service, a ZFS dataset (`pool/pug`): no host, and the move renames none of
them. Kept (`repository`, `storage`), as the image rule keeps `pihole/pihole`; the URL's host, a
storage endpoint and a file system path still follow, and a line never keeps one dataset while
renaming its counterpart.
"""

from __future__ import annotations

import json

from tests.testing.repos import CURRENT_ALL, LAB_CONFIG, Repo, Run

CONFIG = LAB_CONFIG


def test_repositories_buckets_and_datasets_are_kept_and_hosts_beside_them_follow(repo: Repo, run: Run) -> None:
    files = {
        # the finding's six, and the zfs line read as an account
        "play.yml": "- name: config\n  ansible.builtin.git:\n    repo: git@github.com:acme/pug.git\n"
                    "    dest: /opt/config\n- ansible.builtin.git:\n"
                    "    repo: https://gitlab.example.com/infra/pug\n    dest: /opt/pug\n",
        "main.tf": 'module "vm" {\n  source = "git::https://gitlab.example.com/infra/pug.git//modules/vm?ref=v1.2"\n}\n'
                   'module "net" {\n  source = "acme/pug/aws"\n}\n'
                   'module "dns" {\n  source = "pug.lab.lan/acme/pug/aws"\n}\n',
        "run.sh": "git clone https://github.com/acme/pug\naws s3 sync /data s3://pug/\n"
                  "restic -r s3:s3.amazonaws.com/pug backup /data\n"
                  "zfs send tank/pug@snap | ssh backup zfs recv pool/pug\n",
        # variants: the URL's host follows, the repository path stays
        "more.sh": "git clone https://pug.lab.lan/infra/pug.git\n"
                   "git remote add origin git@pug.lab.lan:ops/pug.git\n"
                   "pip install git+https://git.example.com/acme/pug@v1\n"
                   "gsutil cp x gs://pug/hosts/pug/x\n"
                   "syncoid --recursive root@pug:tank/data pool/backups/pug\n"
                   "ssh root@pug zfs list -t snapshot tank/pug\n"
                   "zfs snapshot pug@daily\n"
                   "restic -r rest:http://pug:8000/pug/ snapshots\n"
                   # (a file system repository's path, `sftp:backup@pug:/srv/restic/pug`, is a `state-name`
                   # residual since round 23: tests/cli/test_state_locations.py)
                   "curl http://pug/api/pug/status\n"
                   "echo restart zfs on pug\n",
        "go.mod": "module github.com/acme/pug\n",
        ".github/workflows/ci.yml": "jobs:\n  b:\n    steps:\n      - uses: acme/pug@v1\n"
                                    "      - run: ssh pug true\n",
        "argo.yaml": "spec:\n  source:\n    repoURL: https://github.com/acme/pug.git\n"
                     "    path: hosts/pug\n",
        "restic.env": "RESTIC_REPOSITORY=s3:https://pug.lab.lan:9000/pug\n",
        "docs.md": "See https://github.com/acme/infra/blob/main/hosts/pug/README.md\n",
        "sanoid.conf": "[tank/pug]\n  use_template = production\n[template_production]\n  autosnap = yes\n",
    }
    root = repo(files, config=CONFIG, allowlist=CURRENT_ALL)
    assert run(root, "sweep", "--commit").exit_code == 0
    text = {p: (root / p).read_text() for p in files}
    assert text["play.yml"] == files["play.yml"].replace("/opt/pug", "/opt/wolf")
    assert text["main.tf"] == files["main.tf"].replace('"pug.lab.lan/', '"wolf.lab.lan/')
    assert text["run.sh"] == files["run.sh"]
    assert text["more.sh"] == (
        "git clone https://wolf.lab.lan/infra/pug.git\n"
        "git remote add origin git@wolf.lab.lan:ops/pug.git\n"
        "pip install git+https://git.example.com/acme/pug@v1\n"
        "gsutil cp x gs://pug/hosts/pug/x\n"
        "syncoid --recursive root@wolf:tank/data pool/backups/pug\n"
        "ssh root@wolf zfs list -t snapshot tank/pug\n"
        "zfs snapshot pug@daily\n"
        "restic -r rest:http://wolf:8000/pug/ snapshots\n"
        "curl http://wolf/api/wolf/status\n"
        "echo restart zfs on wolf\n")  # prose: no zfs subcommand, no dataset
    assert text["go.mod"] == files["go.mod"]
    assert text[".github/workflows/ci.yml"] == files[".github/workflows/ci.yml"].replace("ssh pug", "ssh wolf")
    assert text["argo.yaml"] == files["argo.yaml"].replace("hosts/pug", "hosts/wolf")  # a path in the repo
    assert text["restic.env"] == "RESTIC_REPOSITORY=s3:https://wolf.lab.lan:9000/pug\n"
    assert text["docs.md"] == files["docs.md"].replace("hosts/pug", "hosts/wolf")  # a file in it, not the repo
    assert text["sanoid.conf"] == files["sanoid.conf"]
    assert run(root, "verify", "--strict").exit_code == 0
    audit = json.loads(run(root, "audit", "--format", "json").stdout)
    kept = {(r["path"], r["line"]): r["reason"] for r in audit["references"] if r["status"] == "kept"}
    assert kept[("run.sh", 4)] == "storage"  # `tank/pug@snap` is no account
    assert {reason for (path, _), reason in kept.items() if path == "run.sh"} == {"repository", "storage"}
    assert kept[("play.yml", 3)] == "repository" and kept[("sanoid.conf", 1)] == "storage"
    assert audit["summary"]["kept"] == {"repository": 12, "storage": 12}


def test_datasets_named_by_configuration_keys_are_kept_storage_and_paths_follow(repo: Repo, run: Run) -> None:
    """Break-it round 14, finding 11: a ZFS dataset outside `zfs`/syncoid/sanoid argv (a
    zfs-autobackup `dest_dataset:`, an Ansible zfs module's `name:`, zrepl's `root_fs:` and
    `filesystems:` filter, a Proxmox `zfspool:` stanza's `pool`) exists on the backup machine:
    renamed in the text, the next run replicates into a new, empty dataset. Kept `storage` with
    the `zfs rename` hint; a path on a mounted file system and a host beside a dataset follow."""
    files = {
        # the finding's three
        "host_vars/lab.yml": "zfs_autobackup_sources:\n  - host: pug\n    dest_dataset: tank/pug\n",
        "roles/backup/tasks/main.yml": "- community.general.zfs:\n    name: tank/pug\n    state: present\n",
        "zrepl/zrepl.yml": "jobs:\n  - name: pull\n    type: pull\n    connect: {type: tcp, address: \"10.0.40.11:8888\"}\n"
                           "    root_fs: tank/pug\n    interval: 1h\n"
                           "  - name: push\n    type: push\n    filesystems: {\"tank/pug<\": true, \"tank/pug/tmp\": false}\n"
                           "  - name: snap\n    type: snap\n    filesystems:\n      \"tank/pug<\": true\n",
        # variants: other keys, a list, the module's `k=v` and a pool, Proxmox
        "vars.yml": "zfs_dataset: \"tank/pug\"\nbackup_datasets: [tank/pug, tank/fox]\ndatasets:\n- tank/pug\n"
                    "zfs_datasets:\n  - name: tank/pug\n    mountpoint: /tank/pug\n",
        "play.yml": "- community.general.zfs: name=tank/pug state=present\n"
                    "- community.general.zpool:\n    name: pug\n    state: present\n",
        "autobackup.json": '{"sources": [{"host": "pug", "dest_dataset": "tank/pug"}]}\n',
        "backup.env": "ZFS_DATASET=tank/pug\n",
        "pve/storage.cfg": "dir: local\n\tpath /var/lib/vz/pug\n\nzfspool: local-zfs\n\tpool tank/pug\n\tcontent images\n",
        # negatives: paths on a mounted file system, a host, a task's name, another module's name
        "neg.yml": "zfs_host: pug\ndest_dataset_host: pug\nmountpoint: /tank/pug\n"
                   "- name: back up tank/pug\n  copy:\n    src: /tank/pug/file\n    dest: /srv/pug\n"
                   "  user:\n    name: pug/x\n",
    }
    root = repo(files, config=CONFIG, allowlist=CURRENT_ALL)
    result = run(root, "sweep", "--commit")
    assert result.exit_code == 0, result.stderr
    text = {p: (root / p).read_text() for p in files}
    assert text["host_vars/lab.yml"] == files["host_vars/lab.yml"].replace("host: pug", "host: wolf")
    assert text["roles/backup/tasks/main.yml"] == files["roles/backup/tasks/main.yml"]
    assert text["zrepl/zrepl.yml"] == files["zrepl/zrepl.yml"].replace("10.0.40.11", "10.0.50.21")
    assert text["vars.yml"] == files["vars.yml"].replace("mountpoint: /tank/pug", "mountpoint: /tank/wolf")
    assert text["play.yml"] == files["play.yml"]
    assert text["autobackup.json"] == files["autobackup.json"].replace('"host": "pug"', '"host": "wolf"')
    assert text["backup.env"] == files["backup.env"]
    assert text["pve/storage.cfg"] == files["pve/storage.cfg"].replace("/vz/pug", "/vz/wolf")
    assert text["neg.yml"] == files["neg.yml"].replace("pug", "wolf")
    assert run(root, "verify", "--strict").exit_code == 0
    audit = json.loads(run(root, "audit", "--format", "json").stdout)
    kept = [(r["path"], r["line"]) for r in audit["references"] if r["status"] == "kept"]
    assert sorted(kept) == sorted([
        ("host_vars/lab.yml", 3), ("roles/backup/tasks/main.yml", 2), ("zrepl/zrepl.yml", 5),
        ("zrepl/zrepl.yml", 9), ("zrepl/zrepl.yml", 9), ("zrepl/zrepl.yml", 13),
        ("vars.yml", 1), ("vars.yml", 2), ("vars.yml", 4), ("vars.yml", 6),
        ("play.yml", 1), ("play.yml", 3), ("pve/storage.cfg", 5), ("autobackup.json", 1), ("backup.env", 1)])
    assert audit["summary"]["kept"] == {"storage": 15}
    assert "zfs rename" in run(root, "audit").stdout
