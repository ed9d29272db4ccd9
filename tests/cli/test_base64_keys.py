"""A name inside base64 key material (break-it round 4, finding 1): `/` and `+` are base64's
letters, so a short host name can stand whole between them in a WireGuard key, an ssh key blob or
a certificate line. Rewriting it made another key (of the same length when the names are, so it
still decoded); it is kept on purpose now, and listed by audit. A path's words stay rewritten."""

from __future__ import annotations

import base64
import json
import re
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Result

CONFIG = "version: 1\nrenames:\n  hosts: {pug: dog}\nallowlist: allow.yaml\n"
ALLOW = "version: 1\ncurrent: ['**']\n"
WG_KEY = "pug/2tk1iYPAwTGTK3ChOCBwEIIhoC4PsgKnQ2VoVWE="  # 44 characters: 32 bytes, as wg genkey's

KEYS = {
    "group_vars/prod.yml": f"peers:\n  pug:\n    public_key: {WG_KEY}\n    endpoint: pug.lan:51820\n",
    "wg0.conf": "[Peer]\nPublicKey = 9f2Q+pug/Tk1iYPAwTGTK3ChOCBwEIIhoC4Psg=\nEndpoint = pug:51820\n",
    "authorized_keys": "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIhxS/pug/kAhVKzQ2VoVWE root@pug\n",
    "certs/ca.pem": ("-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIUY2x+pug+Q2VoVWEwTGTK3ChOCBwEIIh\n"
                     "-----END CERTIFICATE-----\n"),
    "k8s/secret.json": json.dumps({"data": {"key": "c2VjcmV0/pug/Uk5hT2xE9q2Rm0Tz"}, "host": "pug"}) + "\n",
}
PATHS = {  # a name between slashes that is no key: rewritten as before
    "scripts/backup.sh": "rsync -a /volume1/Backup/pug/photos/2020/summer pug:/srv/pug/data\n",
    "docs/links.md": "See https://git.example/infra/pug/tree/main/roles/pug+extras for pug.\n",
}


def test_a_name_inside_key_material_is_kept_and_a_path_is_rewritten(
        repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    root = repo({**KEYS, **PATHS}, config=CONFIG, allowlist=ALLOW)
    before = {path: (root / path).read_bytes() for path in KEYS}
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    for path, data in before.items():
        keys = [k for k in re.findall(r"[A-Za-z0-9+/]{20,}={0,2}", data.decode()) if "pug" in k]
        after = (root / path).read_text()
        assert keys and all(k in after for k in keys), (path, after)  # every key byte for byte
    assert "dog" in (root / "group_vars/prod.yml").read_text().split("public_key")[0]  # the key name moved
    assert base64.b64decode(WG_KEY) and len(base64.b64decode(WG_KEY)) == 32
    assert (root / "scripts/backup.sh").read_text() == PATHS["scripts/backup.sh"].replace("pug", "dog")
    assert (root / "docs/links.md").read_text() == PATHS["docs/links.md"].replace("pug", "dog")
    strict = run(root, "verify", "--strict")
    assert strict.exit_code == 0, strict.stdout
    audit = run(root, "audit", "--format", "json")
    kept = [r for r in json.loads(audit.stdout)["references"] if r.get("reason") == "base64"]
    assert sorted({r["path"] for r in kept}) == sorted(KEYS), audit.stdout


@pytest.mark.parametrize("line", ["x: /pug/ab", "x: pug/aaaaaaaaaaaaaaaaaaaaaaaaa", "x: ABCDEFGHIJKLMNOPQRST/pug",
                                  "x: /opt/pug/releases/2024-01-01/bin",
                                  # words of a path mixing cases and digits (review of round 4's fix)
                                  "x: https://pug/Share/Backup2024Q1Files", "x: /srv/pug/Photos2024Album/x",
                                  # (an `s3://` bucket is kept `storage` since break-it round 10, #5)
                                  "x: //pug/MyDocuments2023Archive/Q4", "x: sftp://pug/DataLake2024v2Export"])
def test_a_run_without_mixed_key_letters_is_no_key(line: str, repo: Callable[..., Path],
                                                    run: Callable[..., Result]) -> None:
    root = repo({"a.yml": line + "\n"}, config=CONFIG, allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 0
    assert (root / "a.yml").read_text() == line.replace("pug", "dog") + "\n"
