"""Counts of the work a scan does: files scanned in full, positions the pattern probe and the
loose pass looked at, structure parses.

`renamer -vv` prints them, and tests/sweep/test_work_counts.py compares them on a generated
dense repo with committed bounds: a regression guard that counts instead of timing, so a noisy
machine cannot hide a change that makes the scan look at every `10.` again. Counting is a dict
update per file or per call, never per byte.
"""

from __future__ import annotations

from collections import Counter

COUNTS: Counter[str] = Counter()


def add(what: str, n: int = 1) -> None:
    COUNTS[what] += n


def since(before: Counter[str]) -> Counter[str]:
    """What was counted after `before` (a copy of COUNTS taken earlier)."""
    return COUNTS - before


def line(counts: Counter[str]) -> str:
    """`what N, what N, ...` in a fixed order, for -vv."""
    return ", ".join(f"{what} {counts[what]}" for what in sorted(counts)) or "nothing counted"
