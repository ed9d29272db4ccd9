"""Line breaks other than LF and CRLF (t35, finding 09): a classic-Mac CR-only file, a file mixing
CR, LF and CRLF, YAML's NEL. Dated sections, inline markers, keep rules and line numbers follow
the lines the file's consumer reads, and the sweep writes the file's own breaks back byte for byte."""

from __future__ import annotations

import json

import yaml

from tests.testing.repos import Repo, Run

NEL = "\u0085"
RUNBOOK = b"# Runbook\r\r## 2025-03-01\rana-ml2 was rebuilt after the disk failure\r\r## Current\rssh ana-ml2\r"


def test_a_dated_section_of_a_cr_only_file_is_a_record(repo: Repo, run: Run) -> None:
    """CommonMark reads a lone CR as a line ending: `## 2025-03-01` is a heading, its line a record."""
    root = repo({"runbook.md": RUNBOOK})
    checked = run(root, "verify", "--format", "json")
    found = [(f["path"], f["line"], f["column"]) for f in json.loads(checked.stdout)["findings"]]
    assert found == [("runbook.md", 7, 5)]  # the line an editor shows, not line 1
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.output
    assert "dated-section 1" in done.stdout
    assert (root / "runbook.md").read_bytes() == RUNBOOK.replace(b"ssh ana-ml2", b"ssh fv-ml1")
    assert run(root, "verify", "--strict").exit_code == 0
    audit = run(root, "audit").stdout
    assert "runbook.md:4  ana-ml2" in audit, audit


def test_an_inline_marker_keeps_its_own_line_of_a_cr_only_file(repo: Repo, run: Run) -> None:
    data = b"# ana-ml2: old box, ticket OPS-12  renamer: keep\rHOST=ana-ml2\rIP=10.250.50.54\r"
    root = repo({"stacks/targets.env": data})
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.output
    assert "inline 1" in done.stdout
    assert (root / "stacks/targets.env").read_bytes() == (
        b"# ana-ml2: old box, ticket OPS-12  renamer: keep\rHOST=fv-ml1\rIP=10.251.50.54\r")
    assert run(root, "verify", "--strict").exit_code == 0


def test_a_keep_rule_holds_one_line_of_a_cr_only_file(repo: Repo, run: Run) -> None:
    """runbook.md's keep rule (`line_contains: hand-test`) keeps the line holding it, not the file."""
    data = b"# Runbook\rhand-test ran on ana-ml2\rssh ana-ml2\r"
    root = repo({"runbook.md": data})
    assert run(root, "sweep", "--commit").exit_code == 0
    assert (root / "runbook.md").read_bytes() == b"# Runbook\rhand-test ran on ana-ml2\rssh fv-ml1\r"


def test_yaml_breaks_at_nel_as_ansible_reads_it(repo: Repo, run: Run) -> None:
    """PyYAML (YAML 1.1, Ansible) reads NEL as a line break: `host` is a live key of its own, not
    part of the comment the marker is on; the sweep rewrites it and keeps the NEL."""
    text = f"legacy: ana-ml2  # renamer: keep{NEL}host: ana-ml2\nip: 10.250.50.54\n"
    root = repo({"stacks/vars.yml": text})
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.output
    after = (root / "stacks/vars.yml").read_bytes()
    assert after == f"legacy: ana-ml2  # renamer: keep{NEL}host: fv-ml1\nip: 10.251.50.54\n".encode()
    assert yaml.safe_load(after.decode()) == {"legacy": "ana-ml2", "host": "fv-ml1", "ip": "10.251.50.54"}
    assert run(root, "verify", "--strict").exit_code == 0


def test_a_file_mixing_cr_lf_and_crlf_keeps_each_break(repo: Repo, run: Run) -> None:
    data = (b"# ana-ml2 as it was  renamer: keep\ra=ana-ml2\r\nb=ana-ml2\nc=10.250.50.54\r"
            b"d = \"ana-ml2\r  continued\"\r\n")
    root = repo({"stacks/mixed.conf": data})
    checked = run(root, "verify")
    assert "stacks/mixed.conf:2:3: residual" in checked.stdout and "stacks/mixed.conf:5:6:" in checked.stdout
    assert run(root, "sweep", "--commit").exit_code == 0
    assert (root / "stacks/mixed.conf").read_bytes() == (
        b"# ana-ml2 as it was  renamer: keep\ra=fv-ml1\r\nb=fv-ml1\nc=10.251.50.54\r"
        b"d = \"fv-ml1\r  continued\"\r\n")


def test_a_cr_inside_a_quoted_yaml_string_is_a_break_to_its_readers(repo: Repo, run: Run) -> None:
    """PyYAML and ruamel fold a CR inside a quoted scalar as a line break: the marker on the line
    before holds only its own line."""
    text = b'legacy: ana-ml2  # renamer: keep\rdesc: "moved\rto ana-ml2 today"\r'
    root = repo({"stacks/q.yaml": text})
    assert yaml.safe_load(text.decode()) == {"legacy": "ana-ml2", "desc": "moved to ana-ml2 today"}
    assert run(root, "sweep", "--commit").exit_code == 0
    after = (root / "stacks/q.yaml").read_bytes()
    assert after == b'legacy: ana-ml2  # renamer: keep\rdesc: "moved\rto fv-ml1 today"\r'
