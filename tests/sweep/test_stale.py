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


SKIPPED_CONFIG = ("version: 1\nrenames:\n  hosts: {pug: wolf}\noptions: {max_file_size: 100}\n"
                  "allowlist: allow.yaml\n")
SKIPPED_ALLOW = """\
version: 1
current: ['**']
keep:
  - {name: backup-target, paths: [legacy.conf], line_contains: old-backup-target, reason: the box knows pug}
  - {name: wide, paths: ['conf/*.ini'], line_contains: keepme, reason: one of two files skipped}
  - {name: idle, paths: [quiet.conf], line_contains: x, reason: holds no old value}
"""
FILLER = "".join(f"# filler line {i}\n" for i in range(1, 21))


def test_round24_a_keep_rule_whose_file_was_skipped_unread_was_never_asked(repo: Repo, run: Run) -> None:
    """Break-it round 24, finding 17: a keep rule whose file was skipped unread (over max_file_size)
    read "kept nothing this time (1 file match, none holds an old value)" and `audit --prune --write`
    removed it; once the file was read the sweep rewrote the kept line. Now it is "not asked this
    time", never stale, never pruned, in text, markdown and JSON; CRLF and a BOM file alike."""
    files: dict[str, str | bytes] = {
        "legacy.conf": "backup = pug  # old-backup-target\n" + FILLER,
        "conf/a.ini": b"\xef\xbb\xbfhost = pug ; keepme\r\n" + FILLER.replace("\n", "\r\n").encode(),
        "conf/b.ini": "x = 1\n", "quiet.conf": "nothing\n"}
    root = repo(files, config=SKIPPED_CONFIG, allowlist=SKIPPED_ALLOW)
    done = run(root, "audit")
    assert "legacy.conf:1:0  pug  too-large" in done.stdout, done.stdout
    unasked = done.stdout.split("Not asked this time (a file it matches skipped unread): 2\n")[1]
    assert "  keep backup-target (allow.yaml): not asked this time: legacy.conf, which it matches, was " \
           "skipped unread" in unasked, done.stdout
    assert "  keep wide (allow.yaml): not asked this time: conf/a.ini" in unasked, done.stdout
    assert "backup-target" not in done.stdout.split("Kept nothing this time")[1], done.stdout
    assert "Stale exemptions: 0\n" in done.stdout
    listed = {s["name"]: s for s in json.loads(run(root, "audit", "--format", "json").stdout)["stale_exemptions"]}
    assert listed["backup-target"]["unread"] == ["legacy.conf"] and not listed["backup-target"]["stale"]
    assert "unread" not in listed["idle"], listed
    assert "not asked this time" in run(root, "audit", "--format", "markdown").stdout
    pruned = run(root, "audit", "--prune", "--write")
    assert pruned.exit_code == 0, pruned.stderr
    assert "removed keep rule idle" in pruned.stdout and "keep rule backup-target" not in pruned.stdout, pruned.stdout
    allow = (root / "allow.yaml").read_text()
    assert "backup-target" in allow and "wide" in allow and "idle" not in allow, allow
    (root / "renamer.yaml").write_text(SKIPPED_CONFIG.replace("max_file_size: 100", "max_file_size: 1MiB"))
    written = run(root, "sweep", "--commit")
    assert written.exit_code == 0, written.stdout + written.stderr
    assert (root / "legacy.conf").read_text().splitlines()[0] == "backup = pug  # old-backup-target"
    assert (root / "conf/a.ini").read_bytes().startswith(b"\xef\xbb\xbfhost = pug ; keepme\r\n")
