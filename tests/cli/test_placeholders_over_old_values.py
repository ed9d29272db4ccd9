"""Placeholders over an old value's digits (issue 27 item 12; break-it round 23, #15): `web0X`,
`web0N`, `web0<n>`, `web0{n}`, `web0#`, `10.0.0.7x` naming the tier the moved machine belongs to
were silent after `web01 -> app01`, verify OK, while `10.0.0.7?` was a `pattern` residual. Now each
is one, in any file; one that covers the new value too, and look-alikes, are left alone."""

from __future__ import annotations

import json

from tests.testing.repos import make_repo

ALLOW = "version: 1\ncurrent: ['**']\n"


def _config(renames: str) -> str:
    return f"version: 1\nname: tier\ncutover: 2026-10-05\nrenames:\n{renames}allowlist: allow.yaml\n"


MOVE = "  hosts: {web01: app01}\n  addresses: {10.0.0.70: 10.0.1.90}\n"
FILES = {
    "runbook.md": ("p1 web0X are the web nodes; drain one with `ssh web0X sudo systemctl stop nginx`\n"
                   "p2 web0N runs nginx, web0<n>.lab and web0{n}.lab are its names\n"
                   "p3 10.0.0.7x is the web range (10.0.0.7X in the firewall export)\n"
                   "p4 the web tier answers on 10.0.0.7?\n"),  # the report's runbook
    "deploy.sh": "#!/bin/sh\n# web## are drained one at a time\nfor h in web01 web02; do echo \"$h\"; done\n",
    "playbooks/site.yml": "- hosts: all\n  vars:\n    tier_note: \"webXX: the web tier\"\n",
}


def test_each_placeholder_over_an_old_value_is_a_pattern_residual(tmp_path, run) -> None:
    root = make_repo(tmp_path / "repo", FILES, config=_config(MOVE), allowlist=ALLOW)
    dry = run(root, "sweep", "--dry-run", "--format", "json")
    assert dry.exit_code == 0, dry.stderr
    swept = run(root, "sweep", "--commit")
    assert swept.exit_code == 1, swept.stderr  # it wrote, and left references for a decision
    checked = run(root, "verify", "--format", "json")
    assert checked.exit_code == 1  # before: OK
    found = sorted((f["path"], f["line"], f["old"]) for f in json.loads(checked.stdout)["findings"]
                   if f["reason"] == "pattern")
    assert found == [("deploy.sh", 2, "web01"),
                     ("playbooks/site.yml", 3, "web01"),
                     ("runbook.md", 1, "web01"), ("runbook.md", 1, "web01"),
                     ("runbook.md", 2, "web01"), ("runbook.md", 2, "web01"), ("runbook.md", 2, "web01"),
                     ("runbook.md", 3, "10.0.0.70"), ("runbook.md", 3, "10.0.0.70"),
                     ("runbook.md", 4, "10.0.0.70")]  # before: line 4 alone
    assert (root / "deploy.sh").read_text().endswith("for h in app01 web02; do echo \"$h\"; done\n")
    assert "web0X" in (root / "runbook.md").read_text()  # never rewritten


def test_a_placeholder_covering_the_new_value_and_look_alikes_are_silent(tmp_path, run) -> None:
    files = {"runbook.md": "web0X are the web nodes, 10.0.0.7x their range; web01 is first, at 10.0.0.70\n",
             "notes.md": "0x10 is hex, C# and List<T> are code, webx a word, web0XX two digits\n"}
    root = make_repo(tmp_path / "repo", files,
                     config=_config("  hosts: {web01: web05}\n  addresses: {10.0.0.70: 10.0.0.75}\n"),
                     allowlist=ALLOW)
    swept = run(root, "sweep", "--commit")
    assert swept.exit_code == 0, swept.stderr
    assert (root / "runbook.md").read_text() == ("web0X are the web nodes, 10.0.0.7x their range; web05 is "
                                                 "first, at 10.0.0.75\n")
    checked = run(root, "verify", "--format", "json")
    assert checked.exit_code == 0, checked.stdout
    assert json.loads(checked.stdout)["findings"] == []
