"""README's "Starting on your own repo" block, run as written on a real git repo (newcomer pass 2
C12: it stopped at `sweep --dry-run`, and `sweep --commit` then refused the uncommitted
configuration). Each line runs in bash with this install's `renamer` on PATH; each must succeed."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from tests.testing.repos import git

README = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")


def _block() -> list[str]:
    section = README.split("## Starting on your own repo", 1)[1]
    found = re.search(r"```sh\n(.*?)```", section, re.S)
    assert found is not None
    return [line for line in found.group(1).splitlines() if line.strip()]


def test_the_block_runs_as_written_from_init_to_verify(tmp_path: Path) -> None:
    root = tmp_path / "infra"
    (root / "stacks/ana-ml2").mkdir(parents=True)
    (root / "notes").mkdir()
    (root / "stacks/ana-ml2/compose.yml").write_text("services:\n  app:\n    hostname: ana-ml2\n")
    (root / "stacks/ana-ml2/.env").write_text("HOST=ana-ml2\nIP=10.250.50.54\n")
    (root / "notes/2026-01-02.md").write_text("# 2026-01-02\nana-ml2 rebooted at 10.250.50.54\n")
    for args in (["init", "-q", "-b", "main"], ["config", "user.name", "t"], ["config", "user.email", "t@x"],
                 ["config", "commit.gpgsign", "false"], ["add", "-A"], ["commit", "-q", "-m", "start"]):
        git(root, *args)
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
           "NO_COLOR": "1"}
    lines = _block()
    assert [line.split()[1] if line.startswith("renamer") else line.split()[0] for line in lines] == [
        "init", "sweep", "git", "sweep", "verify"]
    for line in lines:
        done = subprocess.run(["bash", "-c", line], cwd=root, env=env, capture_output=True, text=True,
                              check=False)
        assert done.returncode == 0, f"{line}\n{done.stdout}{done.stderr}"
    assert git(root, "status", "--porcelain") == ""
    subjects = git(root, "log", "--format=%s").splitlines()
    assert subjects[-2:] == ["renamer: configuration for the move", "start"]
    assert len(subjects) == 4  # the configuration, the renames, the rewrite
    assert (root / "stacks/fv-ml1/.env").read_text() == "HOST=fv-ml1\nIP=10.251.50.54\n"
    assert (root / "notes/2026-01-02.md").read_text() == "# 2026-01-02\nana-ml2 rebooted at 10.250.50.54\n"
