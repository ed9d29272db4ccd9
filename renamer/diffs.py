"""Unified diffs as `diff -u` and git print them, for the sweep's dry run and `dns plan`."""

from __future__ import annotations

import difflib


def unified(before: str, after: str, label: str, target: str) -> str:
    """The diff of two texts; a last line without a newline is marked `\\ No newline at end of
    file`, as diff does (else the next line of the output runs on after it, and `git apply`
    refuses the patch)."""
    lines = difflib.unified_diff(before.splitlines(keepends=True), after.splitlines(keepends=True),
                                 label, target)
    return "".join(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n"
                   for line in lines)
