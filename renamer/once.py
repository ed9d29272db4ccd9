"""Work done once per scan, however many forked workers ask for it.

The scanner's indexes are read lazily (a repo whose old names are all values never reads
its keyed files), and the scan runs in forked workers (sweep/parallel.py): an index first
needed inside a worker was computed there, once in every worker. A `git grep` over the
whole work tree then ran 16 times on 16 cores (issue 30).

Inside `scope()`, `shared(key, compute)` computes a value once: the first process to ask
takes a lock file in the scope's private folder, computes, and leaves the value there
(pickled); the others wait on the lock and read it. The folder is made by the process that
opened the scope (mode 0700, removed when the scope ends) and read only by it and its forked
children: nothing from the repo is unpickled. Outside a scope, or where `fcntl` is missing,
`shared` just computes.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import os
import pickle
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

try:
    import fcntl
except ImportError:  # pragma: no cover - not POSIX
    fcntl = None  # type: ignore[assignment]

T = TypeVar("T")
F = TypeVar("F", bound=Callable[..., Any])

_folder: Path | None = None
_memo: dict[str, Any] = {}  # this process's copy of what it computed or read in this scope


@contextlib.contextmanager
def scope() -> Iterator[None]:
    """Values shared within the block (and by processes forked inside it); nested scopes are one."""
    global _folder
    if _folder is not None or fcntl is None:
        yield
        return
    with tempfile.TemporaryDirectory(prefix="renamer-once-") as folder:
        _folder = Path(folder)
        try:
            yield
        finally:
            _folder = None
            _memo.clear()


def scoped(function: F) -> F:
    """`function` runs inside a scope."""
    @functools.wraps(function)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        with scope():
            return function(*args, **kwargs)
    return wrapper  # type: ignore[return-value]


def shared(key: str, compute: Callable[[], T]) -> T:
    """compute(), once per scope across this process and its forked workers."""
    folder = _folder
    if folder is None or fcntl is None:
        return compute()
    name = hashlib.sha256(key.encode("utf-8", "surrogateescape")).hexdigest()[:40]
    if name in _memo:
        return _memo[name]  # type: ignore[no-any-return]
    value_file = folder / f"{name}.pickle"
    with open(folder / f"{name}.lock", "ab") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        if value_file.exists():
            value: T = pickle.loads(value_file.read_bytes())
        else:
            value = compute()
            part = folder / f"{name}.{os.getpid()}.part"
            part.write_bytes(pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL))
            part.replace(value_file)
    _memo[name] = value
    return value
