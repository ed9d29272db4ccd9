"""How many git processes a command starts on a small repo (issue 30: a work count, not a time).

On a small repo a verify's time is mostly the git processes it starts (0.8 s a verify and dry run,
0.16 s of it renamer's own CPU): each is a fork, an exec and git's own start. The moves on record
(`git log --grep=^Renamer-Move:`) were asked seven times in one verify; they are asked once per
scope now (vcs_status.log_bodies). GIT_TRACE names every git command; the bound is what the
commands start today, so a change that adds git processes says so here, with the list.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.testing.repos import Repo, Run

CONFIG = "version: 1\nrenames:\n  hosts: {web01: app01}\n  addresses: {10.0.0.5: 10.0.1.5}\nallowlist: allow.yaml\n"
ALLOW = 'version: 1\ncurrent: ["**"]\n'
# the most git processes each command may start on this repo, and at most once the log of moves
# (before the moves were asked once a scope: 26, 22 and 19)
BOUNDS = {("verify",): 22, ("sweep", "--dry-run"): 20, ("audit",): 19}


@pytest.mark.parametrize("command", list(BOUNDS))
def test_git_processes_a_command_starts(repo: Repo, run: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                        command: tuple[str, ...]) -> None:
    root = repo({"hosts": "10.0.0.5 web01\n", "app.yml": "upstream: web01:8080\n"}, config=CONFIG, allowlist=ALLOW)
    trace = tmp_path / "git-trace.log"
    monkeypatch.setenv("GIT_TRACE", str(trace))
    done = run(root, *command)
    assert done.exit_code in (0, 1), done.stdout + done.stderr
    commands = [line.split("built-in: git ", 1)[1] for line in trace.read_text().splitlines()
                if "built-in: git " in line]
    listed = "\n".join(commands)
    assert len(commands) <= BOUNDS[command], f"{len(commands)} git processes, more than {BOUNDS[command]}:\n{listed}"
    moves = [c for c in commands if c.startswith("log ") and "Renamer-Move" in c]
    assert len(moves) <= 1, f"the moves on record asked {len(moves)} times:\n{listed}"
