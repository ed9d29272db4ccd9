"""Counts of the work a scan does: files scanned in full, positions the pattern probe and the
loose pass looked at, structure parses.

`renamer -vv` prints them, and tests/sweep/test_work_counts.py compares them on a generated
dense repo with committed bounds: a regression guard that counts instead of timing, so a noisy
machine cannot hide a change that makes the scan look at every `10.` again. Counting is a dict
update per file or per call, never per byte.
"""

from __future__ import annotations

import os
import threading
from collections import Counter

COUNTS: Counter[str] = Counter()
_LOCK = threading.Lock()  # `dns verify` asks several resolvers from threads: no update lost


def _unlocked_in_child() -> None:
    """A fork while another thread held the lock (a git grep thread counting) would leave it held
    in the child forever: the child gets a new one (the counts themselves are whole: a dict update
    is atomic under the GIL, which the fork holds)."""
    global _LOCK
    _LOCK = threading.Lock()


os.register_at_fork(after_in_child=_unlocked_in_child)


def add(what: str, n: int = 1) -> None:
    with _LOCK:
        COUNTS[what] += n


def merge(counts: Counter[str]) -> None:
    """Add what a forked worker counted (its own copy of COUNTS is lost with it)."""
    with _LOCK:
        COUNTS.update(counts)


def since(before: Counter[str]) -> Counter[str]:
    """What was counted after `before` (a copy of COUNTS taken earlier)."""
    return COUNTS - before


def line(counts: Counter[str]) -> str:
    """`what N, what N, ...` in a fixed order, for -vv."""
    return ", ".join(f"{what} {counts[what]}" for what in sorted(counts)) or "nothing counted"
