"""A key read right after an inline decode moves with the key (break-it round 11, finding 4).

`yamldecode(file("${path.module}/hosts.yml")).hosts.pug.ip` in Terraform and
`(lookup('file', 'data/net.yml') | from_yaml).hosts.pug.ip` in Jinja read the decoded file's
keys as `local.net.hosts.pug` reads a bound one: they follow a renamed key, keep with a kept one
(a record's, a kept line's: the same written path in another module is another file), and a
decode of what cannot be told (an HTTP body, a variable) is a `key-reference` residual.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from tests.conftest import Result

CONFIG = "version: 1\nrenames:\n  hosts: {pug: wolf}\nallowlist: allow.yaml\n"
ALLOW = """\
version: 1
current: ['**']
records:
  - name: archive
    paths: [archive/**]
    reason: the network as it was
"""
HOSTS = "hosts:\n  pug:\n    ip: 10.0.0.5\n  rex:\n    ip: 10.0.0.6\n"
KEPT = "hosts:\n  pug:  # renamer: keep: the lab's own pug\n    ip: 10.9.0.5\n"
NET_JSON = '{"hosts": {"pug": {"ip": "10.0.0.7"}}}\n'
A_TF = """\
output "ip" { value = yamldecode(file("${path.module}/hosts.yml")).hosts.pug.ip }
output "json" { value = jsondecode(file("${path.module}/net.json"))["hosts"]["pug"].ip }
output "rex" { value = yamldecode(file("${path.module}/hosts.yml")).hosts.rex.ip }
output "spaced" { value = yamldecode( file( "${path.module}/hosts.yml" ) ).hosts.pug.ip }
locals {
  over_lines = yamldecode(
    file("${path.module}/hosts.yml")
  ).hosts.pug.ip
}
"""
B_TF = 'output "ip" { value = yamldecode(file("${path.module}/hosts.yml")).hosts.pug.ip }\n'
PLAY = """\
- hosts: all
  tasks:
    - debug: msg="{{ (lookup('file', 'data/net.yml') | from_yaml).hosts.pug.ip }}"
    - debug: msg="{{ (lookup('file', 'data/net.yml') | from_yaml)['hosts'].get('pug').ip }}"
    - debug: msg="{{ (lookup('ansible.builtin.file', 'archive/net-2020.yml') | from_yaml)['hosts']['pug'] }}"
    - debug: msg="{{ (lookup('file', 'archive/net-2020.yml') | from_yaml).hosts.pug.ip }}"
    - debug:
        msg: >-
          {{ (lookup('file',
                     'data/net.yml') | from_yaml).hosts.pug.ip }}
"""


def _verify(root: Path, run: Callable[..., Result]) -> tuple[int, list[dict[str, object]]]:
    done = run(root, "verify", "--format", "json")
    return done.exit_code, json.loads(done.stdout)["findings"]


def test_a_key_read_after_an_inline_decode_follows_or_keeps_with_its_key(
        repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    files = {"mod_a/hosts.yml": HOSTS, "mod_a/net.json": NET_JSON, "mod_a/main.tf": A_TF,
             "mod_b/hosts.yml": KEPT, "mod_b/main.tf": B_TF,
             "data/net.yml": HOSTS, "archive/net-2020.yml": HOSTS, "play.yml": PLAY}
    root = repo(files, config=CONFIG, allowlist=ALLOW)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    after = {
        "mod_a/hosts.yml": HOSTS.replace("pug", "wolf"),
        "mod_a/net.json": NET_JSON.replace("pug", "wolf"),
        "mod_a/main.tf": A_TF.replace(".hosts.pug", ".hosts.wolf").replace('["pug"]', '["wolf"]'),
        # the same written path read by another module is its own file, whose key is kept
        "mod_b/hosts.yml": KEPT, "mod_b/main.tf": B_TF,
        "data/net.yml": HOSTS.replace("pug", "wolf"),
        "archive/net-2020.yml": HOSTS,
        "play.yml": PLAY.replace("'data/net.yml') | from_yaml).hosts.pug", "'data/net.yml') | from_yaml).hosts.wolf")
                        .replace(".get('pug')", ".get('wolf')"),
    }
    for rel, text in after.items():
        assert (root / rel).read_text() == text, rel
    assert _verify(root, run) == (0, [])
    audit = json.loads(run(root, "audit", "--format", "json").stdout)
    kept = sorted((r["path"], r["line"], r["reason"]) for r in audit["references"]
                  if r["path"] in ("play.yml", "mod_b/main.tf"))
    # the record's quoted key, which the plain rules would rewrite, is kept with its file
    assert kept == [("mod_b/main.tf", 1, "key-of-record"), ("play.yml", 5, "key-of-record"),
                    ("play.yml", 6, "key-of-record")], kept


def test_a_key_read_after_a_decode_of_what_cannot_be_told_is_a_residual(
        repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    tf = ('output "a" { value = jsondecode(data.http.inventory.response_body).hosts.pug.ip }\n'
          'output "b" { value = yamldecode(file("${path.module}/data/net.yml")).pug.ip }\n')
    play = ("- debug: msg=\"{{ (raw_inventory | from_yaml).hosts.pug.ip }}\"\n"
            "- debug: msg=\"{{ (lookup('file', 'data/missing.yml') | from_json).hosts.pug }}\"\n")
    files = {"data/net.yml": HOSTS, "main.tf": tf, "play.yml": play}
    root = repo(files, config=CONFIG, allowlist=ALLOW)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1, done.stdout + done.stderr
    for rel, text in files.items():  # the key is held back with the readers that cannot follow it
        assert (root / rel).read_text() == text, rel
    code, found = _verify(root, run)
    assert code == 1
    where = sorted((f["path"], f["line"], f["reason"]) for f in found)
    assert where == [("data/net.yml", 2, "key-reference"), ("main.tf", 1, "key-reference"),
                     ("main.tf", 2, "key-reference"), ("play.yml", 1, "key-reference"),
                     ("play.yml", 2, "key-reference")], found
