"""Crash consistency: SIGKILL `renamer sweep` at random moments while it writes."""

from __future__ import annotations

import fcntl
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

from tests.testing.repos import git, make_repo

FILES = 300

# kill -9 at this many random moments per test (25 took a tenth of the suite's CI time; the seeds
# are fixed, and a run that lands too few kills in the phase it is about fails)
TRIALS = 15


def _files() -> dict[str, str]:
    return {f"stacks/s{i % 20:02d}/f{i:03d}.env": "HOST=ana-ml2\nIP=10.250.50.54\n" + "pad\n" * (i % 40)
            for i in range(FILES)}


def _expected(text: str) -> bytes:
    return text.replace("ana-ml2", "fv-ml1").replace("10.250.50.54", "10.251.50.54").encode()


def test_sigkill_leaves_every_file_wholly_old_or_new_and_a_rerun_completes(tmp_path: Path) -> None:
    files = _files()
    root = make_repo(tmp_path / "repo", files)
    for rel in list(files)[::7]:
        os.chmod(root / rel, 0o755)  # git keeps only the executable bit
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "modes")
    modes = {rel: os.stat(root / rel).st_mode for rel in files}
    journal = root / ".git" / "renamer-journal.json"
    rng = random.Random(20261129)
    landed_in_write_phase = 0
    for trial in range(TRIALS):
        git(root, "reset", "-q", "--hard")
        git(root, "clean", "-qfdx")
        sweep = subprocess.Popen([sys.executable, "-m", "renamer", "sweep"], cwd=root,
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        if trial % 5 == 0:  # anywhere, startup and scanning included
            time.sleep(rng.uniform(0.0, 0.6))
        else:  # inside the write phase: once the journal exists
            deadline = time.monotonic() + 20
            while not journal.exists() and sweep.poll() is None and time.monotonic() < deadline:
                time.sleep(0.0005)
            time.sleep(rng.uniform(0.0, 0.08))
        landed_in_write_phase += journal.exists()
        sweep.send_signal(signal.SIGKILL)
        sweep.wait()
        for rel, text in files.items():
            data = (root / rel).read_bytes()
            assert data in (text.encode(), _expected(text)), f"trial {trial}: {rel} is partial"
            assert os.stat(root / rel).st_mode == modes[rel], f"trial {trial}: {rel} lost its mode"
        rerun = subprocess.run([sys.executable, "-m", "renamer", "sweep"], cwd=root, capture_output=True,
                               text=True)
        assert rerun.returncode == 0, f"trial {trial}: {rerun.stderr}"
        for rel, text in files.items():
            assert (root / rel).read_bytes() == _expected(text), f"trial {trial}: {rel} not completed"
            assert os.stat(root / rel).st_mode == modes[rel]
        assert not journal.exists()
        assert not list(root.rglob("*.renamer-tmp"))
    assert landed_in_write_phase >= 6  # the kills really hit the writes, not just startup


def test_two_sweeps_never_run_at_once(repo, run) -> None:
    root = repo({"stacks/a.env": "HOST=ana-ml2\n"})
    with open(root / ".git" / "renamer.lock", "a+b") as held:
        fcntl.flock(held.fileno(), fcntl.LOCK_EX)
        result = run(root, "sweep")
    assert result.exit_code == 3
    assert result.stderr.endswith("another renamer sweep is running here\n")
    assert (root / "stacks/a.env").read_text() == "HOST=ana-ml2\n"
    assert run(root, "sweep").exit_code == 0


def _moved_files() -> dict[str, str]:
    """Files under folders named after the old host: the sweep renames every one."""
    return {f"stacks/ana-ml2/s{i % 10}/f{i:03d}.env": "HOST=ana-ml2\n" + "pad\n" * (i % 30) for i in range(120)}


def test_sigkill_in_the_rename_and_commit_phases_leaves_a_state_the_next_sweep_completes(tmp_path: Path) -> None:
    files = _moved_files()
    root = make_repo(tmp_path / "repo", files)
    start = git(root, "rev-parse", "HEAD").strip()
    moved = {rel: rel.replace("ana-ml2", "fv-ml1") for rel in files}
    rng = random.Random(20261130)
    landed = 0
    journal = root / ".git" / "renamer-journal.json"
    for trial in range(TRIALS):
        git(root, "reset", "-q", "--hard", start)
        git(root, "clean", "-qfdx")
        sweep = subprocess.Popen([sys.executable, "-m", "renamer", "sweep", "--commit"], cwd=root,
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        if trial % 5 == 0:  # anywhere: startup and the scan included
            time.sleep(rng.uniform(0.15, 1.2))
        else:  # once the journal exists: inside the renames, writes and commits, however slow the start
            deadline = time.monotonic() + 20
            while not journal.exists() and sweep.poll() is None and time.monotonic() < deadline:
                time.sleep(0.0005)
            time.sleep(rng.uniform(0.0, 0.3))
        sweep.send_signal(signal.SIGKILL)
        sweep.wait()
        landed += (root / ".git" / "renamer-journal.json").exists()  # killed inside apply
        for rel, text in files.items():  # every file whole, old or new, at one of its two paths
            here = [p for p in (rel, moved[rel]) if (root / p).exists()]
            assert len(here) == 1, f"trial {trial}: {rel} at {here}"
            assert (root / here[0]).read_bytes() in (text.encode(), _expected(text)), f"trial {trial}: {rel}"
        rerun = subprocess.run([sys.executable, "-m", "renamer", "sweep", "--commit"], cwd=root,
                               capture_output=True, text=True)
        assert rerun.returncode == 0, f"trial {trial}: {rerun.stderr}"
        assert git(root, "status", "--porcelain") == "", f"trial {trial}: left uncommitted"
        for rel, text in files.items():
            assert (root / moved[rel]).read_bytes() == _expected(text), f"trial {trial}: {rel}"
        assert not list(root.rglob("*.renamer-tmp"))
        follow = git(root, "log", "--follow", "--format=%H", "--", moved["stacks/ana-ml2/s0/f000.env"]).split()
        assert follow[-1] == start, f"trial {trial}: the rename lost the file's history"
    assert landed >= 5, landed  # the kills really hit the renames, writes and commits
