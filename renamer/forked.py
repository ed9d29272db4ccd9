"""One fork-pool map, for Python-bound work spread over cores: large scans, many resolvers.

Why fork: the workers inherit the task as it is in memory (a loaded project with
its compiled regexes, an inventory and a querier factory) instead of receiving
it pickled, so a closure or a bound method is a valid task. Only the items and
the results travel between processes.

How: the task is handed to each worker as the pool's `initializer` argument.
With the fork start method those arguments are inherited by the child, never
pickled; `_install` keeps the task in the worker's copy of `_task`. The parent's
`_task` is never set, so no state outlives a call.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import warnings
from collections.abc import Callable, Iterable, Iterator
from typing import Any, TypeVar

Item = TypeVar("Item")
Result = TypeVar("Result")

_task: Callable[[Any], Any] | None = None  # set only inside a forked worker, by _install


def available_cores() -> int:
    """The cores this process may run on (the affinity mask, not the machine's count)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def can_fork() -> bool:
    return "fork" in multiprocessing.get_all_start_methods()


def fork_map(task: Callable[[Item], Result], items: Iterable[Item], workers: int, *,
             ordered: bool = True) -> Iterator[Result]:
    """task(item) for every item, in `workers` forked processes; results as they come
    (`ordered=False`) or in the items' order. `items` is consumed lazily, so it may block."""
    with warnings.catch_warnings():  # the workers are forked here, at the pool's start
        warnings.simplefilter("ignore", DeprecationWarning)  # fork with threads (3.12+)
        pool = multiprocessing.get_context("fork").Pool(workers, initializer=_install, initargs=(task,))
    with pool:
        mapper = pool.imap if ordered else pool.imap_unordered
        yield from mapper(_call, items)


def _install(task: Callable[[Any], Any]) -> None:
    global _task
    _task = task
    # Ctrl-C reaches the whole process group: only the parent handles it (one "renamer: aborted"
    # line); a worker stopped by it would print its own traceback. The pool's exit ends them.
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _call(item: Any) -> Any:
    assert _task is not None, "fork_map's worker runs only in a forked pool"
    return _task(item)
