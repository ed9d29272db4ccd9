"""The grammar of names a tool keys state by (break-it round 24, findings 05 and 18): pure logic;
the CLI behaviour is tests/cli/test_state_keys.py."""

from __future__ import annotations

import pytest

from renamer import state_keys


def _at(data: bytes, word: bytes, nth: int = 0) -> tuple[int, int]:
    start = -1
    for _ in range(nth + 1):
        start = data.index(word, start + 1)
    return start, start + len(word)


@pytest.mark.parametrize(("rel", "data", "word", "nth", "what"), [
    ("b.sh", b"proxmox-backup-client backup x --backup-id pug\n", b"pug", 0, "Proxmox Backup"),
    ("b.sh", b"restic -r /srv/r forget --host pug\n", b"pug", 0, "restic"),
    ("b.sh", b"borgmatic --host pug\n", b"pug", 0, None),  # no restic: another tool's --host
    ("b.sh", b"duplicity sftp://b@pug//srv/x /restore\n", b"pug", 0, None),  # the target's machine
    ("b.sh", b"duplicity /etc sftp://b@nas//srv/d/pug\n", b"pug", 0, "backup target"),
    ("c.sh", b"acme.sh --issue -d pug.lan -w /var/www\n", b"pug.lan", 0, None),  # a new certificate
    ("c.sh", b"acme.sh --renew -d pug.lan\n", b"pug.lan", 0, "acme.sh"),
    ("r.conf", b"NODENAME=rabbit@pug\n", b"pug", 0, "RabbitMQ"),
    ("e.env", b"ETCD_INITIAL_CLUSTER=cat=https://pug:2380,pug=https://10.0.0.1:2380\n", b"pug", 0, None),
    ("e.env", b"ETCD_INITIAL_CLUSTER=cat=https://pug:2380,pug=https://10.0.0.1:2380\n", b"pug", 1, "etcd member"),
    ("p.yml", b"scope: pg\nname: pug\nrestapi: {}\n", b"pug", 0, "Patroni"),
    ("p.yml", b"name: pug\nrole: web\n", b"pug", 0, None),  # a top-level name of no Patroni file
    ("c.yaml", b"kind: CephCluster\nspec:\n  placement:\n    nodes:\n      - name: pug\n", b"pug", 0, None),
    ("pv.yaml", b"kind: PersistentVolume\nspec:\n  claimRef: {name: pug}\n", b"pug", 0, None),
])
def test_keyed(rel: str, data: bytes, word: bytes, nth: int, what: str | None) -> None:
    start, end = _at(data, word, nth)
    said = state_keys.keyed(rel, data, start, end)
    if what is None:
        assert said is None
    else:
        assert said is not None and what in said
