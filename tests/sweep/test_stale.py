"""Exemptions that kept nothing (renamer/sweep/stale.py): a `key:` keep rule whose files hold old
values it kept none of is stale, not merely idle (break-it t26-32, finding 05: a typo'd path, a
file that does not parse, a format with no key paths read "kept nothing this time ... none holds
an old value" though each file held one and the sweep rewrote it). Through the CLI."""

from __future__ import annotations

import json

from tests.testing.repos import Repo, Run

CONFIG = "version: 1\nrenames:\n  hosts: {pug: wolf}\nallowlist: allow.yaml\n"
ALLOW = """\
version: 1
current: ['**']
keep:
  - {name: typo, paths: [a.yaml], key: hostz.pug, reason: typo}
  - {name: broken, paths: [bad.yaml], key: hosts.pug, reason: does not parse}
  - {name: txt, paths: [n.txt], key: hosts.pug, reason: no key paths}
  - {name: idle, paths: [quiet.yaml], key: hosts.pug, reason: holds no old value}
  - {name: used, paths: [u.yaml], key: hosts.pug, reason: keeps one}
"""
FILES = {"a.yaml": "hosts:\n  pug: pug.lan\n", "bad.yaml": "hosts:\n  pug: pug.lan\n   bad: [\n",
         "n.txt": "pug\n", "quiet.yaml": "hosts:\n  rex: rex.lan\n", "u.yaml": "hosts:\n  pug: pug.lan\n"}


def test_a_key_rule_that_keeps_none_of_its_files_old_values_is_stale(repo: Repo, run: Run) -> None:
    root = repo(FILES, config=CONFIG, allowlist=ALLOW)
    done = run(root, "audit")
    assert "Stale exemptions: 3\n" in done.stdout, done.stdout
    for name, file in (("typo", "a.yaml"), ("broken", "bad.yaml"), ("txt", "n.txt")):
        assert f"  keep {name} (allow.yaml): stale: its key path" in done.stdout, done.stdout
        assert f"stands at none of the old values {file} holds" in done.stdout, done.stdout
    assert "none holds an old value" not in done.stdout.split("Kept nothing this time")[0], done.stdout
    assert "  keep idle (allow.yaml): kept nothing this time (1 file match, none holds an old value)" in done.stdout
    listed = json.loads(run(root, "audit", "--format", "json").stdout)["stale_exemptions"]
    stale = {s["name"]: s["stale"] for s in listed}
    assert stale == {"typo": True, "broken": True, "txt": True, "idle": False}, stale
    assert {s["name"] for s in listed if "why" in s} == {"typo", "broken", "txt"}, listed
    assert run(root, "audit", "--strict").exit_code == 1


def test_the_sweep_itself_warns_of_a_key_rule_that_keeps_nothing(repo: Repo, run: Run) -> None:
    """Said by audit only, the warning came after the rewrite: the dry run and the writing sweep say
    it on stderr (-q too) and in JSON, naming the rule and the file, before and as they rewrite."""
    root = repo(FILES, config=CONFIG, allowlist=ALLOW)
    for args in (("sweep", "--dry-run", "-q"), ("sweep", "--dry-run")):
        done = run(root, *args)
        assert done.exit_code == 0, done.stderr
        for name, file in (("typo", "a.yaml"), ("broken", "bad.yaml"), ("txt", "n.txt")):
            assert (f"renamer: warning: keep rule {name} (allow.yaml) is stale: its key path "
                    in done.stderr), done.stderr
            assert f"stands at none of the old values {file} holds" in done.stderr, done.stderr
        assert "keep rule idle" not in done.stderr and "keep rule used" not in done.stderr, done.stderr
    dead = json.loads(run(root, "sweep", "--dry-run", "--format", "json").stdout)["dead_keep_rules"]
    assert [(d["name"], d["files"]) for d in dead] == [("typo", 1), ("broken", 1), ("txt", 1)], dead
    written = run(root, "sweep", "--commit")
    assert written.exit_code == 0, written.stderr
    assert "renamer: warning: keep rule typo (allow.yaml) is stale" in written.stderr, written.stderr
    assert (root / "u.yaml").read_text() == "hosts:\n  pug: pug.lan\n"  # the rule that keeps, kept


def test_no_warning_without_key_rules_that_miss(repo: Repo, run: Run) -> None:
    root = repo({"u.yaml": "hosts:\n  pug: pug.lan\n", "b.yaml": "x: pug\n"}, config=CONFIG,
                allowlist="version: 1\ncurrent: ['**']\nkeep:\n"
                          "  - {name: used, paths: [u.yaml], key: hosts.pug, reason: keeps one}\n")
    done = run(root, "sweep", "--dry-run")
    assert done.exit_code == 0 and "warning: keep rule" not in done.stderr, done.stderr
    assert json.loads(run(root, "sweep", "--dry-run", "--format", "json").stdout)["dead_keep_rules"] == []
