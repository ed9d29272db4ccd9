"""One fork-pool map, for Python-bound work spread over cores: large scans, many resolvers.

Why fork: the workers inherit the task as it is in memory (a loaded project with
its compiled regexes, an inventory and a querier factory) instead of receiving
it pickled, so a closure or a bound method is a valid task. Only the items and
the results travel between processes, pickled, through one pipe each way per
worker.

Why not multiprocessing.Pool: its shutdown goes through three helper threads and
a lock an idle worker holds while it waits, which took 0.25 s on a 16-core
sandbox (gVisor) for a scan of 0.22 s. Here a worker given no more work exits at
once, and the parent reaps it.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import pickle
import selectors
import signal
import warnings
from collections.abc import Callable, Iterable, Iterator
from typing import Any, TypeVar

from renamer import interrupts

Item = TypeVar("Item")
Result = TypeVar("Result")

_task: Callable[[Any], Any] | None = None  # set only inside a forked worker, by _serve


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
    (`ordered=False`) or in the items' order. `items` is consumed lazily: one item per idle
    worker, the next only once the caller has taken the result before it."""
    pool: list[_Worker] = []
    finished = False
    try:
        with warnings.catch_warnings(), _stops_held():
            warnings.simplefilter("ignore", DeprecationWarning)  # fork with threads (3.12+)
            for _ in range(max(1, workers)):
                pool.append(_Worker.start(task, pool))
        yield from _dispatch(pool, iter(enumerate(items)), ordered)
        finished = True
    finally:
        for worker in pool:
            worker.stop(kill=not finished)  # an error, Ctrl-C, a caller that stopped early


def _dispatch(pool: list[_Worker], items: Iterator[tuple[int, Any]], ordered: bool) -> Iterator[Any]:
    """Hand one item to each idle worker, yield each result, and only then give that worker its
    next item (so `items` is read no further ahead than the caller; in order, a result that
    comes before its turn waits, and so does its worker)."""
    busy: dict[int, _Worker] = {}  # result pipe -> its worker
    idle = list(pool)
    waiting: dict[int, Any] = {}
    turn = 0
    with selectors.DefaultSelector() as selector:

        def feed() -> bool:
            """Give every idle worker an item; False once there are no more."""
            while idle:
                if not idle[-1].give(items):
                    return False
                worker = idle.pop()
                busy[worker.results] = worker
                selector.register(worker.results, selectors.EVENT_READ)
            return True

        more = feed()
        while busy:
            for key, _ in selector.select():
                worker = busy.pop(key.fd)
                selector.unregister(key.fd)
                idle.append(worker)
                index, ok, value = worker.take()
                interrupts.stop_if_asked()  # a SIGTERM whose raise was swallowed: the scan stops here
                if not ok:
                    raise value
                if not ordered:
                    yield value
                elif index != turn:
                    waiting[index] = value
                    continue  # its worker waits with it
                else:
                    waiting[index] = value
                    while turn in waiting:
                        yield waiting.pop(turn)
                        turn += 1
                more = more and feed()


@contextlib.contextmanager
def _stops_held() -> Iterator[None]:
    """Ctrl-C, SIGTERM and SIGHUP recorded while workers are forked, raised again after, as the
    handlers then in place take them: a worker inherits the recording handler until it ignores
    them, and the parent has every worker in its pool, to end, when the stop is raised. Before,
    one sent to the process group as a worker was forked raised in the worker before it ignored
    it, and the worker ran on as a second renamer (its own "renamer: aborted", the parent's pool
    torn down under it); or raised in the parent before the worker it had just forked was
    recorded, which was then never ended."""
    with interrupts.deferred() as stops:
        yield
    if stops.received is not None:
        signal.raise_signal(stops.received)


class _Worker:
    """A forked process with a pipe for items and one for results (length-prefixed pickles)."""

    def __init__(self, pid: int, items: int, results: int) -> None:
        self.pid, self.items, self.results = pid, items, results

    @classmethod
    def start(cls, task: Callable[[Any], Any], siblings: list[_Worker]) -> _Worker:
        item_read, item_write = os.pipe()
        result_read, result_write = os.pipe()
        pid = os.fork()
        if pid == 0:  # the worker: never returns
            code = 0
            try:
                for fd in (item_write, result_read, *(f for s in siblings for f in (s.items, s.results))):
                    os.close(fd)
                # Ctrl-C reaches the whole process group: only the parent handles it (one
                # "renamer: aborted" line); a worker stopped by it would print a traceback.
                signal.signal(signal.SIGINT, signal.SIG_IGN)
                signal.signal(signal.SIGTERM, signal.SIG_IGN)  # so is SIGTERM to the group (round 22, #24)
                signal.signal(signal.SIGHUP, signal.SIG_IGN)  # and a hang-up (round 23, #07)
                _serve(task, item_read, result_write)
            except BaseException:
                code = 1
            finally:
                os._exit(code)  # no atexit handlers, no flushing the parent's buffers
        os.close(item_read)
        os.close(result_write)
        return cls(pid, item_write, result_read)

    def give(self, items: Iterator[tuple[int, Any]]) -> bool:
        """Send the next item; False (and nothing sent) when there is none."""
        job = next(items, None)
        if job is None:
            return False
        _send(self.items, job)
        return True

    def take(self) -> tuple[int, bool, Any]:
        message = _receive(self.results)
        if message is None:
            raise RuntimeError(f"a worker process ({self.pid}) ended without its result")
        return message  # type: ignore[no-any-return]

    def stop(self, *, kill: bool = False) -> None:
        """End the worker: an idle one reads the end of its pipe and exits; `kill` ends a busy
        one too. Always reaped, so no zombie outlives the call."""
        if kill:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.pid, signal.SIGKILL)
        for fd in (self.items, self.results):
            with contextlib.suppress(OSError):
                os.close(fd)
        with contextlib.suppress(ChildProcessError):
            os.waitpid(self.pid, 0)


def _serve(task: Callable[[Any], Any], items: int, results: int) -> None:
    global _task
    _task = task
    while (job := _receive(items)) is not None:
        index, item = job
        try:
            message = (index, True, _call(item))
        except Exception as exc:
            message = (index, False, exc)
        try:
            _send(results, message)
        except (pickle.PicklingError, TypeError, AttributeError) as exc:
            _send(results, (index, False, RuntimeError(f"a result that cannot travel: {exc}")))


def _send(fd: int, message: Any) -> None:
    data = pickle.dumps(message, pickle.HIGHEST_PROTOCOL)
    view = memoryview(len(data).to_bytes(8, "little") + data)
    while view:
        view = view[os.write(fd, view):]


def _receive(fd: int) -> Any:
    """The next message, or None at the end of the pipe."""
    head = _read_exactly(fd, 8)
    if head is None:
        return None
    body = _read_exactly(fd, int.from_bytes(head, "little"))
    if body is None:
        return None
    return pickle.loads(body)


def _read_exactly(fd: int, size: int) -> bytes | None:
    chunks, left = [], size
    while left:
        chunk = os.read(fd, min(left, 1 << 20))
        if not chunk:
            return None
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


def _call(item: Any) -> Any:
    assert _task is not None, "fork_map's worker runs only in a forked pool"
    return _task(item)
