"""What a user reads of a residual in verify's and the sweep's text (t35, finding 23): its line,
and its explanation said once in all of the output: on its line where the line has it alone,
else once under `Why` for every line sharing it."""

from __future__ import annotations


def once(out: str, head: str, why: str) -> None:
    """`head` (the place, class and value: `f.conf:1:14: residual (range): 10.9.0.100 -> ...`, or
    the summary's `f.conf:1:14: 10.9.0.100 (range`) starts a line of `out`, and `why` is in `out`
    exactly once."""
    assert any(line.strip().startswith(head) for line in out.splitlines()), (head, out)
    assert out.count(why) == 1, (out.count(why), why, out)
