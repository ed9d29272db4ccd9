"""The answers of sweep --interactive -> the plan they leave (pure decisions, on real files)."""

from __future__ import annotations

from pathlib import Path

import pytest

from renamer.project import load_project
from renamer.sweep.interactive import Choices, hunks, keep_rule, marker_problem, reduce
from renamer.sweep.model import apply_edits
from renamer.sweep.plan import Plan, plan_sweep
from tests.testing.repos import CONFIG, write_files

ZONE = """\
$ORIGIN fv.lan.
@ IN SOA ns1 admin 2026100501 3600 600 86400 300
ana-ml2 IN A 10.250.50.54
gw IN CNAME ana-ml2
"""


def _plan(root: Path, files: dict[str, str]) -> tuple[Plan, dict[str, bytes]]:
    write_files(root, {"renamer.yaml": CONFIG, "allow.yaml": "version: 1\ncurrent: ['**']\n", **files})
    plan = plan_sweep(load_project(root, None, root))
    return plan, {c.path: (root / c.path).read_bytes() for c in plan.changes if c.edits}


def _after(plan: Plan, read: dict[str, bytes], path: str) -> bytes:
    change = next(c for c in plan.scan.files if c.path == path)
    return apply_edits(read[path], change.edits)


def test_a_zones_serial_goes_with_its_accepted_records_only(tmp_path: Path) -> None:
    plan, read = _plan(tmp_path, {"db.fv.lan": ZONE})
    found = hunks(plan, read)
    assert [(h.path, h.line) for h in found] == [("db.fv.lan", 3), ("db.fv.lan", 4)]  # no serial hunk
    none, _ = reduce(plan, read, Choices(), "renamer: keep", {})
    assert none.changes == []
    one, _ = reduce(plan, read, Choices(accepted={("db.fv.lan", 4)}), "renamer: keep", {})
    text = _after(one, read, "db.fv.lan").decode()
    assert "gw IN CNAME fv-ml1" in text and "ana-ml2 IN A" in text
    assert "2026100501" not in text  # the serial was bumped with the record


def test_some_lines_of_a_yaml_file_are_checked_again_alone(tmp_path: Path) -> None:
    plan, read = _plan(tmp_path, {"hosts.yaml": "a: &x ana-ml2\nb: ana-ml2\n"})
    found = hunks(plan, read)
    assert len(found) == 2
    reduced, refused = reduce(plan, read, Choices(accepted={("hosts.yaml", 1)}), "renamer: keep", {})
    assert refused == [] and _after(reduced, read, "hosts.yaml") == b"a: &x fv-ml1\nb: ana-ml2\n"
    both, refused = reduce(plan, read, Choices(accepted={("hosts.yaml", 1), ("hosts.yaml", 2)}),
                           "renamer: keep", {})
    assert refused == [] and _after(both, read, "hosts.yaml") == b"a: &x fv-ml1\nb: fv-ml1\n"


def test_declined_and_kept_references_are_reported_as_such(tmp_path: Path) -> None:
    plan, read = _plan(tmp_path, {"a.env": "A=ana-ml2\nB=ana-ml2\nC=ana-ml2\n"})
    found = hunks(plan, read)
    rule = keep_rule(found[1], " the  lab ", {"kept-a-env-2"})
    assert rule == {"name": "kept-a-env-2-2", "path": "/a.env", "line_contains": "B=ana-ml2", "reason": "the lab"}
    choices = Choices(accepted={("a.env", 1)}, kept={("a.env", 2): "the lab"})
    reduced, _ = reduce(plan, read, choices, "renamer: keep", {("a.env", 2): rule["name"]})
    refs = {r.line: (r.status, r.reason) for r in reduced.scan.references()}
    assert refs == {1: ("residual", None), 2: ("kept", "kept-a-env-2-2"), 3: ("residual", "not-now")}
    assert _after(reduced, read, "a.env") == b"A=fv-ml1\nB=ana-ml2\nC=ana-ml2\n"


def test_a_long_lines_keep_rule_holds_a_window_around_the_old_value(tmp_path: Path) -> None:
    line = "x" * 200 + " ana-ml2 " + "y" * 200
    plan, read = _plan(tmp_path, {"long.txt": line + "\n"})
    rule = keep_rule(hunks(plan, read)[0], "r", ())
    assert "ana-ml2" in rule["line_contains"] and len(rule["line_contains"]) <= 100
    assert rule["line_contains"] in line


@pytest.mark.parametrize(("name", "text", "line", "ok"), [
    ("notes.md", "The box ana-ml2\n", 1, True),
    ("a.yaml", "host: ana-ml2\n", 1, True),
    ("a.yaml", "text: |\n  ana-ml2 here\n", 2, False),  # inside a block scalar: the comment would be text
    ("a.py", "HOST = 'ana-ml2'\n", 1, True),
    ("a.py", "HOST = '''\nana-ml2\n'''\n", 2, False),  # inside a string
    ("a.sh", "ssh ana-ml2\n", 1, False),
    ("a.json", '{"h": "ana-ml2"}\n', 1, False),
])
def test_the_inline_marker_only_where_a_comment_is_safe(name: str, text: str, line: int, ok: bool) -> None:
    assert (marker_problem(name, text.encode(), line, "renamer: keep: why") is None) is ok


def test_a_yaml_anchor_rewritten_without_its_alias_is_refused(tmp_path: Path) -> None:
    plan, read = _plan(tmp_path, {"hosts.yaml": "a: &ana-ml2 {ip: 1}\nb: *ana-ml2\n"})
    assert [(h.path, h.line) for h in hunks(plan, read)] == [("hosts.yaml", 1), ("hosts.yaml", 2)]
    reduced, refused = reduce(plan, read, Choices(accepted={("hosts.yaml", 1)}), "renamer: keep", {})
    assert refused == ["hosts.yaml: the chosen lines alone would change its structure (line 2: the alias "
                       "*ana-ml2 would name no anchor: the anchor &ana-ml2 (line 1) and its alias would no longer "
                       "be spelled alike; rename both, or keep both); left as it was"]
    assert reduced.changes == []
    assert {r.reason for r in reduced.scan.references()} == {"not-now"}


def test_a_keep_rule_never_copies_a_secret_and_matches_its_file_alone(tmp_path: Path) -> None:
    plan, read = _plan(tmp_path, {"x/[a].env": "DB_URL=postgres://app:hunter2@ana-ml2/db\n"})
    rule = keep_rule(hunks(plan, read)[0], "r", (), "y/[b]*.env")
    assert rule["line_contains"] == "ana-ml2/db"
    assert rule["path"] == "y/\\[b\\]\\*.env"
    assert rule["name"] == "kept-y-b-env-1"


def test_a_latin1_file_takes_an_ascii_reason_only() -> None:
    data = "Caf\u00e9 ana-ml2\n".encode("latin-1")
    assert marker_problem("notes.md", data, 1, "renamer: keep: why") is None
    assert "not UTF-8" in (marker_problem("notes.md", data, 1, "renamer: keep: d\u00e9j\u00e0") or "")
