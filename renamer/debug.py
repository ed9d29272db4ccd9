"""Debug lines for `-vv`: how long each phase took, how the files were split over workers,
and every git and ssh command run. Off, and nearly free, unless a command enables them.

Plain lines on stderr, not the logging module: `renamer --help` imports this module
and stays fast (logging costs several milliseconds to import).
"""

from __future__ import annotations

import contextlib
import shlex
import sys
import time
from collections.abc import Iterator, Sequence
from typing import TextIO

_stream: TextIO | None = None


def enable(stream: TextIO | None = None) -> None:
    """Write debug lines to stderr (or `stream`), each as `renamer: debug: ...`."""
    global _stream
    _stream = stream or sys.stderr


def disable() -> None:
    """Stop them (an in-process caller running several commands, as the tests do)."""
    global _stream
    _stream = None


def on() -> bool:
    return _stream is not None


def say(message: str) -> None:
    """One debug line (a forked worker's line goes to the same stderr)."""
    if _stream is not None:
        _stream.write(f"renamer: debug: {message}\n")
        _stream.flush()


@contextlib.contextmanager
def timed(phase: str) -> Iterator[None]:
    """Say how long the block took as `phase: N ms` (also when it fails)."""
    if _stream is None:
        yield
        return
    start = time.perf_counter()
    try:
        yield
    finally:
        say(f"{phase}: {(time.perf_counter() - start) * 1000:.1f} ms")


def command(argv: Sequence[str], elapsed: float | None = None, returncode: int | None = None) -> None:
    """Say which command renamer ran (git, ssh, a resolver's test), quoted as a shell takes it."""
    if _stream is not None:
        took = f" ({elapsed * 1000:.1f} ms, exit {returncode})" if elapsed is not None else ""
        say(f"run: {shlex.join(argv)}{took}")
