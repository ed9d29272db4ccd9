"""masking.mask_diff: hunk lines told from headers by the `@@` counts, and a large diff masked
over forked workers gives the bytes one process gives."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from renamer import masking

_LINES = ["password=hunter2", "-- password=x", "++ token: abc", "host: ana-ml2", "@@ -1 +1 @@", "key: AKIAABCDEFGHIJKLMNOP",
          "url: postgres://u:pw@db/x", "plain text", "requirepass s3cret", "\\ No newline at end of file",
          "caf\xe9 secret=\xe9t\xe9"]


def _diff(hunks: list[list[tuple[str, str]]]) -> bytes:
    out = []
    for n, hunk in enumerate(hunks):
        old = sum(kind != "+" for kind, _ in hunk)
        new = sum(kind != "-" for kind, _ in hunk)
        out.append(f"diff --git a/f{n} b/f{n}\n--- a/f{n}\n+++ b/f{n}\n@@ -1,{old} +1,{new} @@\n")
        out += [f"{kind}{text}\n" for kind, text in hunk]
    return "".join(out).encode("utf-8")


_HUNKS = st.lists(st.lists(st.tuples(st.sampled_from([" ", "-", "+"]), st.sampled_from(_LINES)), min_size=1,
                           max_size=6), min_size=1, max_size=12)


@settings(max_examples=150, deadline=None)
@given(_HUNKS)
def test_a_diff_masked_over_workers_is_the_diff_masked_in_one_process(hunks: list[list[tuple[str, str]]]) -> None:
    diff = _diff(hunks)
    serial = masking.mask_diff(diff)
    saved = masking.PARALLEL_FROM, masking._CHUNK
    masking.PARALLEL_FROM, masking._CHUNK = 1, 3
    try:
        assert masking.mask_diff(diff) == serial
    finally:
        masking.PARALLEL_FROM, masking._CHUNK = saved


def test_a_large_diff_is_masked_over_workers(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[int] = []
    real = masking.fork_map

    def counting(task: Callable[[Any], Any], items: Any, workers: int, **kw: Any) -> Iterator[Any]:
        calls.append(workers)
        return real(task, items, workers, **kw)

    monkeypatch.setattr(masking, "fork_map", counting)
    monkeypatch.setattr(masking, "available_cores", lambda: 4)
    hunks = [[("-", "password=old"), ("+", "password=new"), (" ", "host: ana-ml2")]] * 400
    diff = _diff(hunks)
    monkeypatch.setattr(masking, "PARALLEL_FROM", 1000)
    monkeypatch.setattr(masking, "_CHUNK", 100)
    masked, count = masking.mask_diff(diff)
    assert calls == [4]  # 1,200 hunk lines in chunks of 100, on 4 cores
    assert count == 800 and b"password=old" not in masked and b"host: ana-ml2" in masked
    monkeypatch.setattr(masking, "PARALLEL_FROM", 10**9)
    assert masking.mask_diff(diff) == (masked, count)
    assert len(calls) == 1  # the serial run forked nothing


def test_a_header_looking_line_inside_a_hunk_is_masked_and_headers_are_not() -> None:
    diff = b"--- a/x\n+++ b/x\n@@ -1,2 +1,2 @@\n--- password=x\n+-- password=y\n password=z\n"
    masked, count = masking.mask_diff(diff)
    assert masked.splitlines()[:3] == diff.splitlines()[:3]
    assert b"password=x" not in masked and b"password=y" not in masked and b"password=z" not in masked
    assert count == 3
