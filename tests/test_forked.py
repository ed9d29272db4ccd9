"""fork_map: a closure as the task, the same results as map, and no state left in the parent."""

from __future__ import annotations

import os
import pickle
import threading
from collections.abc import Callable, Iterator

import pytest

from renamer import forked
from renamer.forked import available_cores, can_fork, fork_map

needs_fork = pytest.mark.skipif(not can_fork(), reason="the fork start method is not available here")


def _closure(offset: int) -> Callable[[int], int]:
    def task(item: int) -> int:
        return item * item + offset

    return task


def test_closure_is_not_picklable() -> None:
    with pytest.raises((AttributeError, pickle.PicklingError)):
        pickle.dumps(_closure(7))


@needs_fork
@pytest.mark.parametrize(("items", "workers"), (
    pytest.param(list(range(20)), 2, id="two-workers"),
    pytest.param(list(range(7)), 1, id="one-worker"),
    pytest.param(list(range(3)), 4, id="more-workers-than-items"),
    pytest.param([], 2, id="no-items"),
))
def test_fork_map_ordered_is_map(items: list[int], workers: int) -> None:
    task = _closure(7)
    assert list(fork_map(task, items, workers)) == [item * item + 7 for item in items]
    assert list(fork_map(task, items, workers)) == list(map(task, items))
    assert forked._task is None


@needs_fork
@pytest.mark.parametrize(("items", "workers"), (
    pytest.param(list(range(50)), 3, id="three-workers"),
    pytest.param([5, 5, 1], 2, id="repeated-items"),
))
def test_fork_map_unordered_has_the_same_results(items: list[int], workers: int) -> None:
    task = _closure(-1)
    results = list(fork_map(task, items, workers, ordered=False))
    assert sorted(results) == sorted(map(task, items))
    assert len(results) == len(items)
    assert forked._task is None


@needs_fork
def test_fork_map_runs_in_other_processes() -> None:
    parent = os.getpid()

    def where(_: int) -> int:
        return os.getpid()

    pids = set(fork_map(where, range(8), 2))
    assert parent not in pids
    assert 1 <= len(pids) <= 2


@needs_fork
def test_fork_map_consumes_items_lazily() -> None:
    first_result = threading.Event()
    consumed: list[int] = []
    waited: list[bool] = []

    def items() -> Iterator[int]:
        for item in (1, 2):
            consumed.append(item)
            yield item
        waited.append(first_result.wait(timeout=30))  # blocks until the caller has a result
        consumed.append(3)
        yield 3

    results = fork_map(_closure(0), items(), 2)
    assert consumed == []  # nothing read before the first result is asked for
    first = next(results)
    first_result.set()
    assert [first, *results] == [1, 4, 9]
    assert waited == [True]
    assert consumed == [1, 2, 3]
    assert forked._task is None


@needs_fork
def test_fork_map_raises_the_task_error() -> None:
    def task(item: int) -> int:
        if item == 3:
            raise ValueError(f"bad item {item}")
        return item

    with pytest.raises(ValueError, match="bad item 3"):
        list(fork_map(task, range(6), 2))
    assert forked._task is None


def test_call_outside_a_worker_fails() -> None:
    with pytest.raises(AssertionError, match="runs only in a forked pool"):
        forked._call(1)


def test_available_cores() -> None:
    cores = available_cores()
    assert cores >= 1
    if hasattr(os, "sched_getaffinity"):
        assert cores == len(os.sched_getaffinity(0))


def test_can_fork_matches_start_methods() -> None:
    import multiprocessing

    assert can_fork() is ("fork" in multiprocessing.get_all_start_methods())


def _children() -> set[str]:
    """This process's child processes, zombies included (/proc: Linux, where fork is)."""
    out: set[str] = set()
    for task in os.listdir("/proc/self/task"):
        with open(f"/proc/self/task/{task}/children") as handle:
            out.update(handle.read().split())
    return out


@needs_fork
def test_a_worker_that_dies_is_an_error_and_none_is_left_behind() -> None:
    def task(item: int) -> int:
        if item == 2:
            os._exit(3)  # as if killed: no result ever comes
        return item

    before = _children()
    with pytest.raises(RuntimeError, match="ended without its result"):
        list(fork_map(task, range(5), 2))
    assert _children() <= before  # every worker was reaped


@needs_fork
def test_a_caller_that_stops_early_ends_the_busy_workers() -> None:
    import time

    def slow(item: int) -> int:
        if item:
            time.sleep(60)
        return item

    before = _children()
    results = fork_map(slow, range(3), 3, ordered=False)
    started = time.monotonic()
    assert next(results) == 0
    results.close()  # the two sleeping workers are killed, not waited for
    assert time.monotonic() - started < 30
    assert _children() <= before


@needs_fork
def test_a_result_that_cannot_travel_is_an_error() -> None:
    with pytest.raises(RuntimeError, match="cannot travel"):
        list(fork_map(lambda item: (lambda: item), range(2), 2))


@needs_fork
def test_a_stop_sent_while_workers_fork_reaches_the_parent_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    """SIGTERM (as raised by renamer's handler) arriving as a worker is forked: recorded until
    every worker ignores it, then raised in the parent, every worker reaped. Before, one raised
    in a worker before it set SIG_IGN, and the worker ran on as a second renamer."""
    import signal

    from renamer import interrupts

    started = forked._Worker.start

    def start_then_stop(task: Callable[[int], int], siblings: list[forked._Worker]) -> forked._Worker:
        worker = started(task, siblings)
        os.kill(os.getpid(), signal.SIGTERM)  # recorded: raised once the pool is formed
        return worker

    monkeypatch.setattr(forked._Worker, "start", staticmethod(start_then_stop))
    before = _children()
    try:
        with interrupts.handled((signal.SIGTERM,), interrupts.raise_interrupt), \
                pytest.raises(KeyboardInterrupt):
            list(fork_map(lambda item: item, range(50), 3))
    finally:
        interrupts.forget()
    assert _children() <= before


@needs_fork
def test_a_worker_ignores_the_stops_and_holds_none_back() -> None:
    """A worker starts with Ctrl-C, SIGTERM and SIGHUP ignored and none of them blocked (blocked,
    a pending one would stay queued; ignored, it is dropped)."""
    import signal

    def state(item: int) -> tuple[list[object], set[int]]:
        stops = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
        return [signal.getsignal(n) for n in stops], set(signal.pthread_sigmask(signal.SIG_BLOCK, []))

    for handlers, blocked in fork_map(state, range(4), 2):
        assert handlers == [signal.SIG_IGN] * 3
        assert not blocked & {signal.SIGINT, signal.SIGTERM, signal.SIGHUP}
