"""The README's walkthrough says what `renamer demo` prints (CI checks it after a wheel install too)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.testing.walkthrough import CLAIMS, problems

README = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")


def _demo() -> str:
    done = subprocess.run([sys.executable, "-m", "renamer", "demo"], capture_output=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return done.stdout.decode("utf-8", "replace")


def test_the_demo_prints_what_the_walkthrough_says() -> None:
    output = _demo()
    assert problems(README, output) == []
    # Either side changing alone is caught: a number in the README, a line of the output.
    assert problems(README.replace("listing 56 live", "listing 57 live"), output) == [
        "README.md's walkthrough no longer says 'fails, listing 56 live references': "
        "update tests/testing/walkthrough.py with it"]
    changed = problems(README, output.replace("165 checks on 4", "164 checks on 4"))
    assert len(changed) == 1 and changed[0].startswith(
        "README.md says '`dns verify` (165 checks, on the forwarder too)', but")
    reordered = problems(README, output.replace("$ renamer audit", "$ renamer audit --strict"))
    assert reordered and reordered[0].startswith("the demo's steps are ")
    assert len(CLAIMS) >= 10
