"""Run the renamer CLI with one point held, so a parent can SIGKILL it exactly there.

    python -m tests.adversarial.hold POINT NTH MARKER -- renamer arguments...

At the NTH time the run reaches POINT it creates MARKER and sleeps; the parent
waits for MARKER and kills the process group. POINT is one of

* `swap`: before the NTH swap of a sweep's temporary file with its target
  (the exchange of sweep/swap.py, or `os.replace` where the file system
  cannot exchange: the commit phase of the two-phase write);
* `commit-before`: before the NTH `vcs.commit` (the rename commit is the first
  of a sweep that renames, the rewrite commit the last);
* `commit-after`: after the NTH `vcs.commit` made its git commit, before renamer
  records that it did.
"""

from __future__ import annotations

import functools
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from renamer import vcs
from renamer.atomic import TMP_SUFFIX
from renamer.sweep import swap

POINTS = ("swap", "commit-before", "commit-after")


def _hold(marker: Path) -> None:
    marker.touch()
    time.sleep(600)  # the parent kills us long before


def _counting(real: Callable[..., Any], nth: int, marker: Path, *, after: bool,
              counts: Callable[..., bool]) -> Callable[..., Any]:
    seen = 0

    @functools.wraps(real)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        nonlocal seen
        held = counts(*args, **kwargs) and (seen := seen + 1) == nth
        if held and not after:
            _hold(marker)
        result = real(*args, **kwargs)
        if held and after:
            _hold(marker)
        return result

    return wrapper


def _is_swap(src: Any, dst: Any, *args: Any, **kwargs: Any) -> bool:
    return str(os.fspath(src)).endswith(TMP_SUFFIX)


def install(point: str, nth: int, marker: Path) -> None:
    if point == "swap":
        os.replace = _counting(os.replace, nth, marker, after=False, counts=_is_swap)
        swap.exchange = _counting(swap.exchange, nth, marker, after=False, counts=_is_swap)
    elif point in ("commit-before", "commit-after"):
        vcs.commit = _counting(vcs.commit, nth, marker, after=point == "commit-after",
                               counts=lambda *a, **k: True)
    else:
        raise SystemExit(f"hold: unknown point {point!r} (one of {', '.join(POINTS)})")


def main(argv: list[str]) -> None:
    point, nth, marker, separator, *args = argv
    if separator != "--":
        raise SystemExit("usage: python -m tests.adversarial.hold POINT NTH MARKER -- ARGS...")
    install(point, int(nth), Path(marker))
    from renamer.cli import main as renamer_main

    renamer_main(args)


if __name__ == "__main__":
    main(sys.argv[1:])
