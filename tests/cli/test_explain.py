"""renamer explain: the decision for each occurrence, and the rule (with its file:line) behind it."""

from __future__ import annotations

import json

FILES = {
    "runbook.md": ("# Runbook\n\nThe box is ana-ml2.\nhand-test ran on ana-ml2.\nSee ANA-ML2 too.\n"
                   "Old board http://ana-ml2:3000 <!-- renamer: keep: retired board -->\n"
                   "\n## 2026-09-20 GPU creep\n\nana-ml2 plateaued.\n"),
    "incidents/2026-09-01.md": "ana-ml2 was down\n",
    "stacks/hosts.yaml": "hosts:\n  ana-ml2: {ip: 1}\n  fv-ml1: {ip: 2}\n",
    "notes/loose.txt": "ana-ml2\n",
    ".gitignore": "secret.env\n",
}


def test_explain_names_the_rule_for_rewritten_kept_and_near_miss(repo, run) -> None:
    root = repo(FILES)
    result = run(root, "explain", "runbook.md")
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "runbook.md: current state: `current` pattern 'runbook.md' (allow.yaml:2)"
    body = [line for line in lines[1:] if not line.startswith("      ")]
    assert body == [
        "  3:12  ana-ml2 -> fv-ml1: rewritten: current-state file, whole-value match at a name boundary: "
        "`renamer sweep` rewrites it",
        "  4:18  ana-ml2: kept: keep rule hand-test-site (allow.yaml:16), pattern 'runbook.md': records where "
        "the hand-test was run, line contains 'hand-test'",
        "  5:5  ANA-ML2: near-miss: looks like 'ana-ml2' (case), but the exact rules (whole value, name "
        "boundaries, exact spelling) do not match it: never rewritten; verify warns, --strict fails",
        "  6:18  ana-ml2: kept: inline marker 'renamer: keep' on the line: retired board",
        "  10:1  ana-ml2: kept: dated section from line 8 ('## 2026-09-20 GPU creep'): section dated 2026-09-20, "
        "on or before the cutover 2026-10-05",
    ]
    assert lines[2] == "      The box is ana-ml2."


def test_one_line_and_json(repo, run) -> None:
    root = repo(FILES)
    one = run(root, "explain", "runbook.md:4")
    assert one.stdout.splitlines()[1].startswith("  4:18  ana-ml2: kept: keep rule hand-test-site")
    assert len([x for x in one.stdout.splitlines() if x.startswith("  4:")]) == 1
    empty = run(root, "explain", "runbook.md:1")
    assert empty.stdout.splitlines()[1:] == ["  no old value and no near-miss on line 1"]
    data = json.loads(run(root, "explain", "runbook.md:3", "--format", "json").stdout)
    assert data["status"] == "current" and data["line"] == 3
    assert data["decisions"] == [{"line": 3, "column": 12, "found": "ana-ml2", "new": "fv-ml1",
                                  "decision": "rewritten", "key_path": None, "text": "The box is ana-ml2.",
                                  "rule": "current-state file, whole-value match at a name boundary: "
                                          "`renamer sweep` rewrites it"}]
    assert run(root, "explain", "runbook.md:0").exit_code == 2


def test_records_structure_refusals_and_files_never_scanned(repo, run) -> None:
    root = repo(FILES)
    record = run(root, "explain", "incidents/2026-09-01.md").stdout.splitlines()
    assert record[0] == ("incidents/2026-09-01.md: record: record class incidents (allow.yaml:7), pattern "
                         "'incidents/**': incident notes describe the system at the time of the incident")
    assert record[1].startswith("  1:1  ana-ml2: kept: record class incidents (allow.yaml:7)")
    structure = run(root, "explain", "stacks/hosts.yaml:2").stdout.splitlines()
    assert structure[1] == ("  2:3 [hosts.ana-ml2]  ana-ml2: residual: refused (structure): line 3: "
                            "hosts.fv-ml1: "
                            "renaming key 'ana-ml2' to 'fv-ml1' would collide with an existing key "
                            "(line 2 ('ana-ml2: {ip: 1}') meets line 3 ('fv-ml1: {ip: 2}'))")
    loose = run(root, "explain", "notes/loose.txt").stdout.splitlines()
    assert loose[0].startswith("notes/loose.txt: unclassified: no allowlist rule covers this file")
    assert loose[1].startswith("  1:1  ana-ml2: unclassified:")
    own = run(root, "explain", "renamer.yaml").stdout
    assert own.startswith("renamer.yaml: one of renamer's own files")
    (root / "secret.env").write_text("HOST=ana-ml2\n")
    ignored = run(root, "explain", "secret.env").stdout
    assert ignored.startswith("secret.env: git ignores this file (.gitignore:1: secret.env): never scanned")
    assert run(root, "explain", "nope.txt").exit_code == 2
    assert run(root, "explain", "stacks").exit_code == 2


def test_a_line_past_the_end_is_an_error_naming_the_length(repo, run) -> None:
    """Round 8 (severity 3): `explain p.py:99` on a 2-line file said "no old value on line 99"."""
    root = repo({**FILES, "p.py": "a = 1\nb = 2\n", "empty.txt": "", "one.txt": "ana-ml2"})
    past = run(root, "explain", "p.py:99")
    assert past.exit_code == 2
    assert past.stderr == "renamer: error: p.py:99: no such line: the file has only 2 lines\n"
    assert run(root, "explain", "one.txt:2").stderr.endswith("the file has only 1 line\n")
    assert run(root, "explain", "empty.txt:1").stderr.endswith("no such line: the file has no lines\n")
    last = run(root, "explain", "one.txt:1")  # the last line, without a final newline, is a line
    assert last.exit_code == 0 and "\n  1:1  ana-ml2" in last.stdout
