"""Noise after the move (issue 27 item 19, newcomer-pass-2 C2): one old name coming back gives
one finding, not a collision warning for every new name the move itself wrote."""

from __future__ import annotations

import json

from tests.testing.repos import git

ALLOW = "version: 1\ncurrent: ['**']\n"
FILES = {
    "runbook.md": "# Runbook\n\nssh root@ana-ml2\n\nThe gateway is on ana-ml2 (10.250.50.54).\n",
    "stacks/web.yaml": "upstreams:\n  - http://ana-ml2:8016/v1\n  - http://ana-ml2:8017/v1\nip: 10.250.50.54\n",
    "stacks/app.env": "HOST=ana-ml2\nIP=10.250.50.54\n",
    "scripts/check.sh": "ping -c1 ana-ml2\ncurl http://10.250.50.54/health\n",
}


def _moved(repo, run, files=FILES):  # type: ignore[no-untyped-def]
    root = repo(files, allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 0
    assert run(root, "verify").exit_code == 0
    return root


def _add(root, rel: str, line: str) -> None:  # type: ignore[no-untyped-def]
    with (root / rel).open("a") as handle:
        handle.write(line)
    git(root, "commit", "-qam", f"edit {rel}")


def test_one_old_name_back_is_one_finding(repo, run) -> None:
    root = _moved(repo, run)
    _add(root, "runbook.md", "ssh root@ana-ml2 again\n")
    verify = run(root, "verify")
    assert verify.exit_code == 1
    assert "collision" not in verify.stdout
    assert [line for line in verify.stdout.splitlines() if ": residual" in line] == [
        "runbook.md:6:10: residual: ana-ml2 -> fv-ml1: current-state file: `renamer sweep` rewrites it"]
    assert verify.stdout.splitlines()[-1].startswith("verify: FAILED: 1 residual, 0 unclassified, 0 near-misses")
    data = json.loads(run(root, "verify", "--format", "json").stdout)
    assert data["collisions"] == [] and len(data["findings"]) == 1
    # --strict fails on the residual alone; a dry run lists no collision either.
    strict = run(root, "verify", "--strict")
    assert strict.exit_code == 1 and "collision" not in strict.stdout
    assert json.loads(run(root, "sweep", "--dry-run", "--format", "json").stdout)["collisions"] == []


def test_back_in_a_structured_file_the_move_wrote_and_beside_later_uses(repo, run) -> None:
    root = _moved(repo, run)
    _add(root, "stacks/web.yaml", "extra: fv-ml1\n")  # a use of the new name written after the move
    _add(root, "stacks/web.yaml", "legacy: ana-ml2\n")
    (root / "stacks" / "new.env").write_text("HOST=fv-ml1\nOLD=10.250.50.54\n")  # a new file, after the move
    git(root, "add", "-A")
    git(root, "commit", "-qm", "new stack")
    verify = run(root, "verify", "--strict")
    assert verify.exit_code == 1
    assert "collision" not in verify.stdout
    assert sum(": residual" in line for line in verify.stdout.splitlines()) == 2


def test_a_collision_that_stood_before_the_move_is_still_one_line_per_file(repo, run) -> None:
    files = {**FILES, "stacks/other.env": "PEER=fv-ml1\nPEER2=fv-ml1\nPEER3=fv-ml1\n"}
    root = repo(files, allowlist=ALLOW)
    dry = run(root, "sweep", "--dry-run", "--format", "summary").stdout
    collisions = [line for line in dry.splitlines() if "collision:" in line]
    assert collisions == ["  stacks/other.env:1:6: warning: collision: fv-ml1 is already here (3 places), and the "
                          "sweep turns ana-ml2 into it: after the sweep two things would share one name or "
                          "address; check that they are one"]
    assert run(root, "sweep", "--commit").exit_code == 0
    _add(root, "runbook.md", "ssh root@ana-ml2 again\n")
    verify = run(root, "verify")
    found = [line for line in verify.stdout.splitlines() if "collision:" in line]
    assert len(found) == 1 and found[0].startswith("stacks/other.env:1:6: warning: collision: fv-ml1")
    assert "already here (3 places)" in found[0]
    data = json.loads(run(root, "verify", "--format", "json").stdout)
    assert [(c["path"], c["count"]) for c in data["collisions"]] == [("stacks/other.env", 3)]
