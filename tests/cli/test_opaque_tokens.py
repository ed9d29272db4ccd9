"""A name inside an opaque token (break-it round 9, finding 1): `+`, `/` and `=` are base64's letters,
`$` a crypt hash's separator, so `pug` stood whole in a TSIG secret, a redis password, an API key, an
htpasswd or Cisco salt, a cloud-init hash or an ssh key blob, and was rewritten there: another key,
and the masked diff showed `****` on both sides. Such a match is kept now (listed by audit with why),
and a masked value that still changes is named under the diff."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Result

CONFIG = ("version: 1\nrenames:\n  hosts: {pug: wolf, pug.lab.lan: wolf.lab.lan}\n"
          "  addresses: {10.0.40.11: 10.0.50.21}\nallowlist: allow.yaml\n")
ALLOW = "version: 1\ncurrent: ['**']\n"

# the report's lines and variants of them: each token holds pug, and every line keeps it
OPAQUE = {
    "redis.conf": "requirepass q2Xo+pug/8a9Zk=\nreplicaof 10.0.40.11 6379\n",
    "named.conf": 'key "xfer" { algorithm hmac-sha256; secret "q2Xo+PUG/8a9ZkLmN0pQ="; };\n',  # any case
    "knot.conf": 'key:\n  - id: xfer\n    secret: "q2Xo+pug/8a9ZkLmN0pQ="\n',
    ".env": "API_KEY=Ab+pug/Cd==\nDB_HOST=pug\nSESSION_KEY=pug+Zx9/Qw==\n",
    ".htpasswd": "admin:$apr1$pug$Xyz0123456789abcdefghi\n",
    "router.cfg": "hostname pug\nenable secret 5 $1$pug$mERr0OWXoMgE2OQkIQS7l1\n",
    "cloud-init.yaml": 'users:\n  - name: admin\n    passwd: "$6$rounds=4096$Zx9$abc/pug/def0123456789"\n',
    "shadow.yml": "root_hash: '$y$j9T$pug$Kq0Zx8Lm3Np7Rs2Tv6Wx1Yz5Ab9Cd4Ef'\nbcrypt: $2b$12$pug.R9hcIPz0gi.URNNX3kh2OPST9\n",
    "app.yml": 'ssh_key: "AAAAB3NzaC1yc2E+pug/AAAADAQABAAABAQC"\nurl: http://pug.lab.lan/\n',
    "authorized_keys": "ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQ/pug/AAAAAAAAAAAAAAAAAAAA admin@pug\n",
    "jwt.env": "TOKEN_CACHE=eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.q2Xo_pug-8a9ZkLmN0pQwErTy\n",
}
# the tokens of OPAQUE's lines that hold the name: each stays byte for byte
TOKENS = {"redis.conf": ["q2Xo+pug/8a9Zk="], "named.conf": ["q2Xo+PUG/8a9ZkLmN0pQ="],
          "knot.conf": ["q2Xo+pug/8a9ZkLmN0pQ="], ".env": ["Ab+pug/Cd==", "pug+Zx9/Qw=="],
          ".htpasswd": ["$apr1$pug$Xyz0123456789abcdefghi"], "router.cfg": ["$1$pug$mERr0OWXoMgE2OQkIQS7l1"],
          "cloud-init.yaml": ["$6$rounds=4096$Zx9$abc/pug/def0123456789"],
          "shadow.yml": ["$y$j9T$pug$Kq0Zx8Lm3Np7Rs2Tv6Wx1Yz5Ab9Cd4Ef", "$2b$12$pug.R9hcIPz0gi.URNNX3kh2OPST9"],
          "app.yml": ["AAAAB3NzaC1yc2E+pug/AAAADAQABAAABAQC"],
          "authorized_keys": ["AAAAB3NzaC1yc2EAAAADAQABAAABAQ/pug/AAAAAAAAAAAAAAAAAAAA"],
          "jwt.env": ["q2Xo_pug-8a9ZkLmN0pQwErTy"]}
# a name beside the same letters that is a reference: rewritten as before
REFERENCES = {
    "scripts/sync.sh": "rsync -a /srv/pug/data pug:/backup/pug+old/\n",
    "links.md": "https://git.example/infra/pug/tree/main/roles/pug+extras and $HOME/pug/$USER\n",
    "vars.yml": "path: /opt/Apps/pug/bin\nurl: https://pug/Share/Backup2024Q1Files\n",
}


def test_a_name_inside_an_opaque_token_is_kept_byte_for_byte(repo: Callable[..., Path],
                                                              run: Callable[..., Result]) -> None:
    root = repo({**OPAQUE, **REFERENCES}, config=CONFIG, allowlist=ALLOW)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    for path, text in OPAQUE.items():
        after = (root / path).read_text()
        assert all(token in text and token in after for token in TOKENS[path]), (path, after)
    assert "replicaof 10.0.50.21" in (root / "redis.conf").read_text()
    assert "DB_HOST=wolf" in (root / ".env").read_text()
    assert "hostname wolf" in (root / "router.cfg").read_text()
    assert "http://wolf.lab.lan/" in (root / "app.yml").read_text()
    assert (root / "authorized_keys").read_text().endswith("admin@wolf\n")
    for path, text in REFERENCES.items():
        assert (root / path).read_text() == text.replace("pug", "wolf"), path
    strict = run(root, "verify", "--strict")  # no near-miss in the JWT either
    assert strict.exit_code == 0, strict.stdout
    audit = json.loads(run(root, "audit", "--format", "json").stdout)
    reasons = {(r["path"], r.get("reason")) for r in audit["references"] if r.get("reason") in ("base64", "hash")}
    # `_pug-`: no exact match; named.conf's `+PUG/`: the any-case rule of DNS files does not reach a
    # name beside `/` (a path's letters are case-sensitive), so no other-case match stands there at all
    assert {path for path, _ in reasons} == set(OPAQUE) - {"jwt.env", "named.conf"}, reasons
    assert (".htpasswd", "hash") in reasons and ("cloud-init.yaml", "hash") in reasons
    assert ("app.yml", "base64") in reasons


def test_the_dry_run_counts_what_it_keeps(repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    root = repo({"redis.conf": "requirepass q2Xo+pug/8a9Zk=\n", ".htpasswd": "a:$apr1$pug$Xyz0123456789abcdefghi\n"},
                config=CONFIG, allowlist=ALLOW)
    shown = run(root, "sweep", "--dry-run")
    assert shown.exit_code == 0
    assert "would change 0 files" in shown.stdout and "base64 1, hash 1" in shown.stdout, shown.stdout
    assert "Xyz0123456789" not in shown.stdout + run(root, "audit").stdout  # a hash is masked too


@pytest.mark.parametrize(("files", "named"), [
    pytest.param({".env": "SECRET_URL=redis://pug:6379/0\nDB_HOST=pug\n"}, [".env:1"], id="url-under-a-secret-name"),
    pytest.param({"redis.conf": "bind 0.0.0.0\nrequirepass pug\n"}, ["redis.conf:2"], id="a-password-equal-to-the-name"),
    pytest.param({"a.env": "DB_PASSWORD=pug\n", "b.env": "X=1\nAPI_TOKEN=https://pug/hook\n"}, ["a.env:1", "b.env:2"],
                 id="two-files"),
])
def test_a_masked_value_that_changes_is_named(files: dict[str, str], named: list[str], repo: Callable[..., Path],
                                              run: Callable[..., Result]) -> None:
    root = repo(files, config=CONFIG, allowlist=ALLOW)
    shown = run(root, "sweep", "--dry-run")
    assert shown.exit_code == 0, shown.stderr
    note = [line for line in shown.stderr.splitlines() if "inside a masked value" in line]
    assert len(note) == 1 and all(where in note[0] for where in named), shown.stderr
    assert "inside a masked value" not in run(root, "sweep", "--dry-run", "--show-secrets").stderr


def test_a_masked_line_whose_change_is_outside_the_mask_is_not_named(repo: Callable[..., Path],
                                                                     run: Callable[..., Result]) -> None:
    root = repo({"tac.cfg": "tacacs-server host 10.0.40.11 key TacK3y99\n",
                 ".env": "DB_URL=postgres://app:S3cretPw@pug:5432/db\n"}, config=CONFIG, allowlist=ALLOW)
    shown = run(root, "sweep", "--dry-run")
    assert "+tacacs-server host 10.0.50.21 key ****" in shown.stdout
    assert "hold secrets, masked" in shown.stderr and "inside a masked value" not in shown.stderr
    assert "TacK3y99" not in shown.stdout and "S3cretPw" not in shown.stdout
