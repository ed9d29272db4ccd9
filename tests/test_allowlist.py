"""Allowlist validation, through the CLI: exact messages, exit 2."""

from __future__ import annotations

ALLOW_BROKEN = r"""version: 1
current: [x/**]
records:
  - name: notes
    paths: [notes/**]
  - paths: 3
    reason: r
    extra: 1
dated:
  sections: ['^(\d+', '^# (\d{4})']
keep:
  - name: k
    reason: because
"""


def test_every_allowlist_problem_at_once(repo, run) -> None:
    root = repo({}, allowlist=ALLOW_BROKEN)
    result = run(root, "audit")
    assert result.exit_code == 2
    assert result.stderr.splitlines() == [
        "renamer: error: allow.yaml:4: records[0].reason: every exemption needs a reason (why the old name must stay)",
        "renamer: error: allow.yaml:8: records[1].extra: unknown key (known: expires, name, owner, paths, reason)",
        "renamer: error: allow.yaml:6: records[1].name: expected a name of letters, digits, '-', '_' or '.', got None",
        "renamer: error: allow.yaml:6: records[1].paths: expected a list of path patterns, got a number",
        "renamer: error: allow.yaml:12: keep[0].path: missing: which file the rule applies to",
        "renamer: error: allow.yaml:10: dated.sections[0]: invalid regular expression: missing ), unterminated subpattern at position 1",
        "renamer: error: allow.yaml:10: dated.sections[1]: needs a named group (?P<date>...) for the date",
    ]


def test_unknown_preset(repo, run) -> None:
    root = repo({}, allowlist="version: 1\ncurrent: [x/**]\nextends: [nope]\n")
    result = run(root, "audit")
    assert result.stderr == ("renamer: error: allow.yaml:3: extends: unknown preset 'nope' "
                             "(available: fv-ml1, records-common)\n")
