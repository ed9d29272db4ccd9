"""Base64 a format declares, end to end through the CLI (break-it round 21, finding 13; issue 27
item 3).

A Kubernetes Secret's `data:`, a ConfigMap's `binaryData:`, cloud-init `write_files` with
`encoding: b64` / `gz+b64`, YAML `!!binary`: the consumer reads them decoded. Before this, the old
host and address inside were neither rewritten nor reported and verify --strict said OK. Now a value
whose rewrite is certain is decoded, renamed and encoded again in the same style (the YAML still
parses, the decoded bytes hold the new values, verify after the commit is clean of it); gzip content
and wrapped lines are `encoded` residuals naming the key, never the decoded text; base64 under
`stringData:` or in a free-text key is no declared value and stays as it is.
"""

from __future__ import annotations

import base64
import gzip
import json

import yaml

from tests.testing.repos import CURRENT_ALL, Repo, Run

CONFIG = """\
version: 1
renames:
  hosts: {web01.lab.example: app01.lab.example, web01: app01}
  addresses: {10.0.0.70: 10.0.1.70}
allowlist: allow.yaml
"""


def _b64(text: str) -> str:
    return base64.b64encode(text.encode()).decode()


SECRET = (f"apiVersion: v1\nkind: Secret\nmetadata: {{name: db}}\ntype: Opaque\ndata:\n"
          f"  DB_HOST: {_b64('web01.lab.example')}\n  DB_URL: \"{_b64('postgres://u:p@web01:5432/db')}\"\n"
          f"  DB_IP: {_b64('10.0.0.70')}\n  OTHER: {_b64('unrelated')}\n")
HOSTS = _b64("10.0.0.70 web01\n")
CONFIGMAP = f"apiVersion: v1\nkind: ConfigMap\nmetadata: {{name: c}}\nbinaryData:\n  hosts: {HOSTS}\n"
GZIPPED = base64.b64encode(gzip.compress(b"server=10.0.0.70\n", mtime=0)).decode()
LONG = _b64("server=web01.lab.example\n" * 4)
WRAPPED = "\n".join("      " + LONG[i:i + 40] for i in range(0, len(LONG), 40))
USER_DATA = ("#cloud-config\nwrite_files:\n  - path: /etc/app.conf\n    encoding: b64\n"
             f"    content: {_b64('server=web01.lab.example' + chr(10))}\n"
             f"  - path: /etc/app2.conf\n    encoding: gz+b64\n    content: {GZIPPED}\n"
             f"  - path: /etc/app3.conf\n    encoding: base64\n    content: |\n{WRAPPED}\n"
             "  - path: /etc/plain.conf\n    content: server=web01\n")
QUIET = {
    "other.yaml": f"apiVersion: v1\nkind: Secret\nmetadata: {{name: s}}\nstringData:\n  note: {_b64('web01')}\n",
    "notes.yaml": f"comment: {_b64('web01')}\n",
}


def test_round21_13_declared_base64_is_rewritten_or_reported(repo: Repo, run: Run) -> None:
    root = repo({"secret.yaml": SECRET, "cm.yaml": CONFIGMAP, "user-data.yaml": USER_DATA, **QUIET},
                config=CONFIG, allowlist=CURRENT_ALL)
    done = run(root, "verify", "--strict", "--format", "json")
    assert done.exit_code == 1
    found = {(f["path"], f["line"], f["reason"]) for f in json.loads(done.stdout)["findings"]}
    assert found == {("secret.yaml", 6, None), ("secret.yaml", 7, None), ("secret.yaml", 8, None),
                     ("cm.yaml", 5, None), ("user-data.yaml", 5, None), ("user-data.yaml", 8, "encoded"),
                     ("user-data.yaml", 12, "encoded"), ("user-data.yaml", 17, None)}
    quiet = {path: (root / path).read_bytes() for path in QUIET}
    run(root, "sweep", "--commit")
    secret = yaml.safe_load((root / "secret.yaml").read_text())["data"]
    assert {k: base64.b64decode(v).decode() for k, v in secret.items()} == {
        "DB_HOST": "app01.lab.example", "DB_URL": "postgres://u:p@app01:5432/db", "DB_IP": "10.0.1.70",
        "OTHER": "unrelated"}
    assert '  DB_URL: "' in (root / "secret.yaml").read_text()  # its quotes kept
    configmap = yaml.safe_load((root / "cm.yaml").read_text())["binaryData"]
    assert base64.b64decode(configmap["hosts"]) == b"10.0.1.70 app01\n"
    files = yaml.safe_load((root / "user-data.yaml").read_text())["write_files"]
    assert base64.b64decode(files[0]["content"]) == b"server=app01.lab.example\n"
    assert files[1]["content"] == GZIPPED  # compressed: left for a person
    assert files[3]["content"] == "server=app01"
    assert {path: (root / path).read_bytes() for path in QUIET} == quiet
    after = run(root, "verify", "--strict", "--format", "json")
    assert after.exit_code == 1
    left = json.loads(after.stdout)["findings"]
    assert {(f["path"], f["line"], f["reason"], f["old"]) for f in left} == {
        ("user-data.yaml", 8, "encoded", "10.0.0.70"), ("user-data.yaml", 12, "encoded", "web01.lab.example")}
    assert all("server=" not in f["note"] and "u:p" not in f["note"] for f in left)  # no decoded text shown


def test_a_keep_rule_silences_a_gzip_value(repo: Repo, run: Run) -> None:
    root = repo({"user-data.yaml": USER_DATA}, config=CONFIG, allowlist=CURRENT_ALL)
    run(root, "sweep", "--commit")
    assert run(root, "verify", "--strict").exit_code == 1
    (root / "allow.yaml").write_text(CURRENT_ALL + "keep:\n  - name: image\n    path: user-data.yaml\n"
                                     "    reason: the image is rebuilt from its own repo\n")
    assert run(root, "verify", "--strict").exit_code == 0
