"""Faults for the cases: file attributes, in-process fault injection, and SIGKILL at a chosen point."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from tests.adversarial.harness import Scratch


def is_root() -> bool:
    return os.geteuid() == 0


def chattr(path: Path, flag: str) -> bool:
    """Set a file attribute (`+i`, `+a`); False where that is not possible (not root, no support)."""
    if not is_root():
        return False
    done = subprocess.run(["chattr", flag, str(path)], capture_output=True, check=False)
    return done.returncode == 0


@contextmanager
def attribute(path: Path, flag: str) -> Iterator[bool]:
    """`with attribute(path, "+a") as real:` the attribute set for the block (when `real`), then cleared."""
    real = chattr(path, flag)
    try:
        yield real
    finally:
        if real:
            chattr(path, "-" + flag.lstrip("+"))


def kill_at(scratch: Scratch, cwd: Path, point: str, nth: int, args: Sequence[str],
            timeout: float = 60) -> bool:
    """Run `renamer ARGS` as a process held at `point` (see hold.py) and SIGKILL it there.

    True when it was killed at the point; False when it ended (or timed out) first."""
    marker = scratch.root / f"held-{point}-{nth}-{time.monotonic_ns()}"
    command = [sys.executable, "-m", "tests.adversarial.hold", point, str(nth), str(marker), "--", *args]
    process = subprocess.Popen(command, cwd=cwd, env=scratch.process_env(), start_new_session=True,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + timeout
    try:
        while not marker.exists() and process.poll() is None and time.monotonic() < deadline:
            time.sleep(0.002)
        return marker.exists()
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
        process.wait()
