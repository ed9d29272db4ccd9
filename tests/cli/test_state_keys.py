"""Names that key state outside the repo, by the tool that keeps it (break-it round 24, findings 05
and 18).

`proxmox-backup-client --backup-id pug`, `kopia --override-hostname`, `restic forget --host pug`,
a duplicity or autorestic target's path, `certbot --cert-name`, lego's, NixOS's, dehydrated's,
Windows certbot's and acme.sh's lineages, a Puppet node certificate, a Salt minion key, and the
member identities a cluster keeps its data or peer set under (RabbitMQ `rabbit@pug`, raft
`node_id`, Patroni `name:`, etcd `ETCD_NAME` and its member list, a local PV's `nodeAffinity`,
Rook's `storage.nodes[].name`, corosync's `nodelist`) were rewritten silently, sweep 0, verify OK.
Each is now a `state-name` residual, the line byte for byte as it was, the sweep exits 1 and
verify fails; the same words where they key nothing (a Deployment's `nodeSelector`, a container's
`--name`, `restic -r ... backup` of another host's folder by a copy tool) still move.
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Result
from tests.testing.repos import PUG_ALLOW as ALLOW
from tests.testing.repos import PUG_CONFIG as CONFIG

# name: (path, content, the lines held)
CASES: dict[str, tuple[str, str | bytes, set[int]]] = {
    # finding 05: backups
    "pbs-backup-id": ("backup.sh", "#!/bin/sh\nproxmox-backup-client backup root.pxar:/ --repository "
                      "b@pbs@pbs.lan:store1 --backup-id pug\n", {2}),
    "kopia-override": ("backup.sh", "#!/bin/sh\nkopia snapshot create /etc --override-hostname=pug\n", {2}),
    "restic-forget-host": ("prune.sh", "#!/bin/sh\nrestic -r sftp:nas.lan:/srv/r forget --host pug --keep-daily 7\n",
                           {2}),
    "restic-host-env": ("restic.env", "RESTIC_HOST=pug\n", {1}),
    "duplicity-target": ("dup.sh", "#!/bin/sh\nduplicity /etc sftp://b@nas.lan//srv/duplicity/pug\n", {2}),
    "duply-target": ("duply/conf", "TARGET='sftp://b@nas.lan/srv/duply/pug'\n", {1}),
    "autorestic-path": (".autorestic.yml", "backends:\n  nas:\n    type: sftp\n    path: nas.lan:/srv/restic/pug\n",
                        {4}),
    # finding 05: certificate lineages, node certificates and keys
    "certbot-cert-name": ("certs.sh", "certbot renew --cert-name pug.ana.lan --deploy-hook x\n", {1}),
    "lego-file": ("certs.sh", "cp .lego/certificates/pug.ana.lan.crt /etc/ssl/site.crt\n", {1}),
    "lego-renew": ("certs.sh", "lego --email o@x.lan --domains pug.ana.lan renew\n", {1}),
    "nixos-acme": ("hosts/web.nix", "{\n  services.nginx.sslCertificate = \"/var/lib/acme/pug.ana.lan/fullchain.pem\";\n}\n",
                   {2}),
    "dehydrated": ("certs.sh", "cp /etc/dehydrated/certs/pug.ana.lan/fullchain.pem /etc/ssl/x\n", {1}),
    "certbot-windows": ("win.ps1", "Import-Certificate -FilePath C:\\Certbot\\live\\pug.ana.lan\\cert.pem\r\n", {1}),
    "acme-sh-install": ("certs.sh", "acme.sh --install-cert -d pug.ana.lan --key-file /etc/ssl/k\n", {1}),
    "acme-sh-renew": ("certs.sh", "acme.sh --renew -d pug.ana.lan --force\n", {1}),
    "puppet-cert": ("agents.sh", "ls /etc/puppetlabs/puppet/ssl/certs/pug.ana.lan.pem\n", {1}),
    "puppet-certname": ("puppet.conf", "[agent]\ncertname = pug.ana.lan\n", {2}),
    "salt-minion-key": ("agents.sh", "rm /etc/salt/pki/master/minions/pug\n", {1}),
    # finding 18: member identities
    "rabbitmq-env": ("rabbitmq-env.conf", "RABBITMQ_NODENAME=rabbit@pug\n", {1}),
    "rabbitmq-peers": ("rabbitmq.conf", "cluster_formation.classic_config.nodes.1 = rabbit@pug\n", {1}),
    "vault-raft": ("vault.hcl", "storage \"raft\" {\n  path    = \"/opt/vault/data\"\n  node_id = \"pug\"\n}\n", {3}),
    "consul-node": ("consul.hcl", "node_name = \"pug\"\ndatacenter = \"lab\"\n", {1}),
    "galera": ("galera.cnf", "[galera]\nwsrep_node_name=pug\n", {2}),
    "patroni": ("patroni.yml", "scope: pg\nname: pug\nrestapi:\n  listen: 0.0.0.0:8008\n", {2}),
    "patroni-env": ("patroni.env", "PATRONI_NAME=pug\n", {1}),
    "etcd-env": ("etcd.env", "ETCD_NAME=pug\nETCD_INITIAL_CLUSTER=pug=https://10.9.0.70:2380,cat=https://10.9.0.71:2380\n"
                 "ETCD_INITIAL_CLUSTER_STATE=existing\n", {1, 2}),
    "etcd-flags": ("etcd.service", "[Service]\nExecStart=/usr/bin/etcd --name pug --initial-cluster "
                   "pug=https://10.9.0.70:2380,cat=https://10.9.0.71:2380\n", {2}),
    "etcd-yaml": ("etcd.conf.yml", "name: pug\ninitial-cluster: pug=https://10.9.0.70:2380\n", {1, 2}),
    "local-pv": ("pv.yaml", "apiVersion: v1\nkind: PersistentVolume\nmetadata:\n  name: data\nspec:\n"
                 "  local: {path: /mnt/disk1}\n  nodeAffinity:\n    required:\n      nodeSelectorTerms:\n"
                 "        - matchExpressions:\n            - key: kubernetes.io/hostname\n"
                 "              operator: In\n              values: [pug]\n", {13}),
    "rook-nodes": ("cephcluster.yaml", "apiVersion: ceph.rook.io/v1\nkind: CephCluster\nspec:\n  storage:\n"
                   "    useAllNodes: false\n    nodes:\n      - name: pug\n        devices: [{name: sdb}]\n", {7}),
    "corosync": ("corosync.conf", "nodelist {\n  node {\n    name: pug\n    nodeid: 1\n  }\n}\n", {3}),
    "proxmox-nodes": ("move.sh", "mv /etc/pve/nodes/pug/qemu-server/100.conf /tmp/\n", {1}),
    # encodings: CRLF, a BOM, Latin-1 beside the key
    "crlf-rabbit": ("rabbitmq-env.conf", b"# n\xc5\x93ud\r\nRABBITMQ_NODENAME=rabbit@pug\r\n", {2}),
    "bom-etcd": ("etcd.env", b"\xef\xbb\xbfETCD_NAME=pug\n", {1}),
    "latin1-certbot": ("certs.sh", b"# renouvel\xe9\ncertbot renew --cert-name pug.ana.lan\n", {2}),
}

# the same words where they key nothing: they move
MOVES: dict[str, tuple[str, str, str]] = {
    "node-selector": ("deploy.yaml", "apiVersion: apps/v1\nkind: Deployment\nspec:\n  template:\n    spec:\n"
                      "      nodeSelector:\n        kubernetes.io/hostname: pug\n",
                      "apiVersion: apps/v1\nkind: Deployment\nspec:\n  template:\n    spec:\n"
                      "      nodeSelector:\n        kubernetes.io/hostname: wolf\n"),
    "docker-name": ("run.sh", "docker run --name pug nginx\n", "docker run --name wolf nginx\n"),
    "duplicity-source-host": ("dup.sh", "duplicity sftp://b@pug.ana.lan//srv/x /restore\n",
                              "duplicity sftp://b@wolf.fv.lan//srv/x /restore\n"),
    "certbot-issue": ("certs.sh", "certbot certonly -d pug.ana.lan\n", "certbot certonly -d wolf.fv.lan\n"),
    "cluster-peer-address": ("etcd.env", "ETCD_ADVERTISE_CLIENT_URLS=https://pug.ana.lan:2379\n",
                             "ETCD_ADVERTISE_CLIENT_URLS=https://wolf.fv.lan:2379\n"),
    "yaml-name": ("vars.yml", "name: pug\nrole: web\n", "name: wolf\nrole: web\n"),
}


def _held(root: Path, run: Callable[..., Result]) -> set[tuple[str, int]]:
    found = json.loads(run(root, "verify", "--format", "json").stdout)["findings"]
    return {(str(f["path"]), int(f["line"])) for f in found if f.get("reason") == "state-name"}


@pytest.mark.parametrize("case", sorted(CASES))
def test_round24_a_name_a_tool_keys_state_by_is_a_residual(case: str, repo: Callable[..., Path],
                                                           run: Callable[..., Result]) -> None:
    path, content, lines = CASES[case]
    root = repo({path: content}, config=CONFIG, allowlist=ALLOW)
    before = (root / path).read_bytes()
    assert _held(root, run) == {(path, line) for line in lines}
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1
    assert all(f"{path}:{line}:" in done.stdout for line in lines)
    assert (root / path).read_bytes() == before  # nothing of the file rewritten
    assert run(root, "verify").exit_code == 1  # never an OK
    if path.endswith(".sh"):
        subprocess.run(["bash", "-n", str(root / path)], check=True)


@pytest.mark.parametrize("case", sorted(MOVES))
def test_round24_the_same_words_keying_nothing_still_move(case: str, repo: Callable[..., Path],
                                                          run: Callable[..., Result]) -> None:
    path, text, after = MOVES[case]
    root = repo({path: text}, config=CONFIG, allowlist=ALLOW)
    assert _held(root, run) == set()
    assert run(root, "sweep", "--commit").exit_code == 0
    assert (root / path).read_text() == after
    assert run(root, "verify", "--strict").exit_code == 0


def test_round24_the_held_lines_note_says_which_tool(repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    root = repo({"rabbitmq-env.conf": "RABBITMQ_NODENAME=rabbit@pug\n",
                 "vault.hcl": "storage \"raft\" {\n  node_id = \"pug\"\n}\n"}, config=CONFIG, allowlist=ALLOW)
    out = run(root, "verify").stdout
    assert "RabbitMQ node name" in out and "Mnesia" in out
    assert "raft member's `node_id`" in out


def test_round24_an_upper_case_nodename_and_an_autorestic_file_alone(repo: Callable[..., Path],
                                                                    run: Callable[..., Result]) -> None:
    """The cheap gate reads every spelling: `RABBITMQ_NODENAME=x@pug` (no lower-case `rabbit`), and
    an autorestic file whose text never says autorestic."""
    root = repo({"env": "RABBITMQ_NODENAME=app@pug\n",
                 ".autorestic.yaml": "backends:\n  b:\n    path: /mnt/backup/pug\n"}, config=CONFIG, allowlist=ALLOW)
    assert _held(root, run) == {("env", 1), (".autorestic.yaml", 3)}
