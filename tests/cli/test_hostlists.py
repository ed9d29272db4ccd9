"""pdsh, Slurm and ClusterShell hostlists end to end through the CLI (break-it round 21, finding 06;
issue 27 items 2 and 12).

`pdsh -w web[01-05]`, `web[01-05,07]`, `fping 10.0.0.[70-74]`, slurm.conf's `NodeName=web[01-05]`
stand for web01 / 10.0.0.70 without spelling them: before this, the sweep neither rewrote nor
reported them and verify said OK. Each is now a `range` residual (verify exit 1, JSON, audit), the
file is left byte for byte, and a keep rule with a reason silences it; a hostlist that names no
old value, and an index or a class of one number, stay silent.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.testing.repos import CURRENT_ALL, Repo, Run

CONFIG = """\
version: 1
renames:
  hosts: {web01: app01}
  addresses: {10.0.0.70: 10.0.1.70}
allowlist: allow.yaml
"""

FILES = {
    "run.sh": "pdsh -w web[01-05] uptime\npdsh -w web[01-05,07] uptime\nfping 10.0.0.[70-74]\n"
              "clush -w node[1,3-5],web[00-08/2],web[01-09/2] hostname\n",
    "slurm.conf": "NodeName=web[01-05] CPUs=4\nPartitionName=main Nodes=web[01-05]\n",
}
QUIET = {
    "quiet.sh": "pdsh -w web[02-05] uptime\nfping 10.0.0.[71-74]\nx = hosts[1,2]\nweb[1-5]\n"
                "clush -w web[00-08/2]\n",
}


def _findings(run: Run, root: Path) -> tuple[int, list[dict[str, Any]]]:
    done = run(root, "verify", "--strict", "--format", "json")
    return done.exit_code, json.loads(done.stdout)["findings"]


def test_round21_06_hostlists_covering_an_old_value_are_range_residuals(repo: Repo, run: Run) -> None:
    root = repo({**FILES, **QUIET}, config=CONFIG, allowlist=CURRENT_ALL)
    before = {path: (root / path).read_bytes() for path in (*FILES, *QUIET)}
    code, findings = _findings(run, root)
    assert code == 1
    assert {(f["path"], f["line"], f["reason"], f["old"]) for f in findings} == {
        ("run.sh", 1, "range", "web01"), ("run.sh", 2, "range", "web01"),
        ("run.sh", 3, "range", "10.0.0.70"), ("run.sh", 4, "range", "web01"),
        ("slurm.conf", 1, "range", "web01"), ("slurm.conf", 2, "range", "web01")}
    assert run(root, "sweep", "--commit").exit_code == 1  # residuals left for a person
    assert {path: (root / path).read_bytes() for path in before} == before
    audit = json.loads(run(root, "audit", "--format", "json").stdout)["references"]
    assert {(r["path"], r["line"]) for r in audit if r["status"] == "residual" and r["reason"] == "range"} \
        == {(f["path"], f["line"]) for f in findings}
    text = run(root, "verify")
    assert text.exit_code == 1 and "run.sh:3:7: residual (range): 10.0.0.70 -> 10.0.1.70" in text.stdout


def test_a_keep_rule_with_a_reason_silences_a_hostlist(repo: Repo, run: Run) -> None:
    allow = CURRENT_ALL + ("keep:\n  - name: slurm-nodes\n    path: slurm.conf\n    line_contains: 'web[01-05]'\n"
                           "    reason: the partition is renumbered with the cluster\n")
    root = repo({"slurm.conf": FILES["slurm.conf"]}, config=CONFIG, allowlist=CURRENT_ALL)
    assert run(root, "verify", "--strict").exit_code == 1
    (root / "allow.yaml").write_text(allow)
    done = run(root, "verify", "--strict")
    assert done.exit_code == 0, done.stdout
