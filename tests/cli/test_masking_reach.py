"""Over-masking hid the change a reviewer needs (break-it round 22, finding 08): nginx's
`proxy_pass`/`fastcgi_pass`/`uwsgi_pass`/`grpc_pass` addresses, `secretsPath:` (a path to a secret)
and the command after `PGPASSWORD=x` were `****` on both sides of the dry run's diff. The mask now
covers the secret's own value only; real secrets beside them stay masked."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from renamer.masking import mask_line
from tests.conftest import Result

CONFIG = ("version: 1\nrenames:\n  hosts: {web01: app01}\n  addresses: {10.0.0.70: 10.0.1.90}\n"
          "allowlist: allow.yaml\n")
ALLOW = 'version: 1\ncurrent: ["**"]\n'
FILES = {
    "site.conf": ("location / { proxy_pass http://10.0.0.70:8001; }\n"
                  "location ~ \\.php$ { fastcgi_pass 10.0.0.70:9000; }\n"
                  "location /u { uwsgi_pass 10.0.0.70:3031; }\n"
                  "location /g { grpc_pass grpc://10.0.0.70:50051; }\n"
                  "location /a { proxy_pass https://bob:hunter2@10.0.0.70; }\n"
                  "auth_pass hunter3 ; # keepalived, beside web01\n"),
    "topf.yaml": "secretsPath: secrets/web01.enc.yaml\nsecret: hunter4-web01\n",
    "check.sh": ("PGPASSWORD=hunter5 psql -h web01 -c 'select 1'\n"
                 "MYSQL_PWD=hunter6 LANG=C mysql -h 10.0.0.70\n"),
    "app.env": "DB_PASSWORD=hunter7 words web01\n",
}


def test_the_diff_shows_the_change_and_masks_the_secrets(repo: Callable[..., Path],
                                                         run: Callable[..., Result]) -> None:
    root = repo(FILES, config=CONFIG, allowlist=ALLOW)
    planned = run(root, "sweep", "--dry-run")
    shown = planned.stdout + planned.stderr
    for line in ("+location / { proxy_pass http://10.0.1.90:8001; }",  # before: proxy_pass ****
                 "+location ~ \\.php$ { fastcgi_pass 10.0.1.90:9000; }",
                 "+location /u { uwsgi_pass 10.0.1.90:3031; }",
                 "+location /g { grpc_pass grpc://10.0.1.90:50051; }",
                 "+secretsPath: secrets/app01.enc.yaml",
                 "+PGPASSWORD=**** psql -h app01 -c 'select 1'",
                 "+MYSQL_PWD=**** LANG=C mysql -h 10.0.1.90"):
        assert line in shown, (line, shown)
    for secret in ("hunter2", "hunter3", "hunter4", "hunter5", "hunter6", "hunter7"):
        assert secret not in shown, (secret, shown)
    assert "+location /a { proxy_pass https://bob:****@10.0.1.90; }" in shown
    assert "+DB_PASSWORD=****\n" in shown  # no command after it: the whole value, spaces and all
    assert "changes inside a masked value (**** on both sides hides it): app.env:1;" in shown


def test_mask_line_reaches_only_the_secret() -> None:
    assert mask_line("scgi_pass 10.0.0.70:4000;") == "scgi_pass 10.0.0.70:4000;"
    assert mask_line("db_pass hunter;") == "db_pass ****;"  # a secret `_pass` stays masked
    assert mask_line("admin_pass: hunter") == "admin_pass: ****"
    assert mask_line("secrets_dir: vault/web01") == "secrets_dir: vault/web01"
    assert mask_line("api_token: abc/def") == "api_token: ****"  # a token is no location
    assert mask_line("secret_path: QUtJQUlPU0ZPRE5ON0VYQU1QTEVhYmNkZWZnaGlq/x") == "secret_path: ****"
    assert mask_line("PGPASSWORD=x ./bin/psql -h db") == "PGPASSWORD=**** ./bin/psql -h db"
    assert mask_line("PASSWORD=two words here") == "PASSWORD=****"
