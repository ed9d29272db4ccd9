"""Signal handling for work that must not stop halfway: one helper for every such place."""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Callable, Iterator
from typing import Any

Handler = Callable[[int, Any], None] | int
# The signals that stop a command as Ctrl-C does: SIGTERM (`timeout`, a CI cancel, systemd) and
# SIGHUP (the operator's ssh session or terminal drops; break-it round 23, #07). Each only where
# the process has it at its default: `nohup` (SIGHUP ignored) keeps a sweep running, as asked.
STOPPING: tuple[signal.Signals, ...] = (signal.SIGTERM, signal.SIGHUP)


@contextlib.contextmanager
def handled(signals: tuple[signal.Signals, ...], handler: Handler) -> Iterator[None]:
    """`handler` for `signals` for the duration, the previous handlers after. Only the main
    thread may set handlers: elsewhere (a library caller's thread) this changes nothing."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    saved = {number: signal.signal(number, handler) for number in signals}
    try:
        yield
    finally:
        for number, previous in saved.items():
            signal.signal(number, previous)


class _Asked:
    """A stop asked for by a signal, kept until the command ends (`forget`): the exception the
    handler raises can land where Python swallows it (a weakref callback or `__del__` running at
    that moment prints "Exception ignored" and goes on), and the command then must still stop at
    its next safe point (`stop_if_asked`), never run on to write and commit (a SIGHUP once did)."""

    signum: int | None = None


def raise_interrupt(signum: int, frame: Any) -> None:
    """A handler that makes a signal (SIGTERM, SIGHUP) interrupt like Ctrl-C."""
    _Asked.signum = signum
    raise KeyboardInterrupt


def stop_if_asked() -> None:
    """Raise the interrupt a signal asked for, where its first raise was swallowed."""
    if _Asked.signum is not None:
        raise KeyboardInterrupt


def forget() -> None:
    """The command is over: a later command in this process starts with no stop asked."""
    _Asked.signum = None


@contextlib.contextmanager
def terminate_as_interrupt() -> Iterator[None]:
    """SIGTERM and SIGHUP (`STOPPING`) raised as Ctrl-C (KeyboardInterrupt) for the duration, each
    where the process does not ignore it (`nohup`, a parent that set it ignored) and no handler of
    a caller's is set: every command then stops as Ctrl-C stops it, saying what is left, exit 130
    (break-it round 22, #24; round 23, #07: SIGHUP killed the write phase silently, exit 129)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    with handled(stopping(), raise_interrupt):
        yield


def stopping() -> tuple[signal.Signals, ...]:
    """The `STOPPING` signals this process has at their default (none ignored, none a caller's)."""
    return tuple(n for n in STOPPING if signal.getsignal(n) is signal.SIG_DFL)


class Deferred:
    """Signals received while work must not stop halfway: recorded, for the work to stop
    at its next safe point (`received`), instead of raised wherever they land."""

    def __init__(self) -> None:
        self.received: int | None = None

    def __call__(self, signum: int, frame: Any) -> None:
        self.received = signum


@contextlib.contextmanager
def deferred(signals: tuple[signal.Signals, ...] = (signal.SIGINT, *STOPPING)) -> Iterator[Deferred]:
    """Ctrl-C, SIGTERM and SIGHUP recorded, not raised, for the duration (see `Deferred`). A signal
    the process ignores (a background job started by `nohup` or a non-interactive shell's
    `&`) stays ignored."""
    recorder = Deferred()
    with handled(tuple(n for n in signals if signal.getsignal(n) is not signal.SIG_IGN), recorder):
        yield recorder
