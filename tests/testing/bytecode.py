"""Bytecode for the xdist workers, compiled once before they start (tests/conftest.py).

Each `pytest -n N` worker collects the whole suite: it imports every test module, which pytest
compiles with its assertions rewritten, and renamer itself. Started at once on a cold cache (a
fresh checkout, or the run's own PYTHONPYCACHEPREFIX folder where PYTHONDONTWRITEBYTECODE is
set), every worker compiled all of it again: 50 s of CPU a worker on 2 cores, against 13 s with
the bytecode cached. Here the controller compiles it once, in one `pytest --collect-only` per
core over a share of the test files, into the cache the workers then read (pytest's own rewrite
cache, checked by each source's mtime and size as always)."""

from __future__ import annotations

import fnmatch
import os
import subprocess
import sys
from pathlib import Path

import pytest

# Set in the warming processes: they warm nothing themselves.
WARMING = "RENAMER_TESTS_WARMING"
# Fewer test modules than this without bytecode: not worth a warming process's start (~2 s of CPU).
_FEW = 20


def _cores() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)


def _cache_dir(source: Path) -> Path:
    """Where a worker's pytest reads the rewritten bytecode of `source` (as _pytest.assertion.rewrite
    says: under PYTHONPYCACHEPREFIX where set, beside the source otherwise)."""
    prefix = os.environ.get("PYTHONPYCACHEPREFIX")
    if prefix:
        return Path(prefix) / Path(*source.resolve().parts[1:-1])
    return source.parent / "__pycache__"


def _test_files(config: pytest.Config) -> list[Path]:
    patterns = config.getini("python_files")
    found: set[Path] = set()
    for arg in config.args:
        path = Path(config.invocation_params.dir, arg.split("::")[0])
        if path.is_dir():
            found.update(p for p in path.rglob("*.py") if any(fnmatch.fnmatch(p.name, pat) for pat in patterns))
        elif path.is_file():
            found.add(path)
    return sorted(found)


def _uncompiled(files: list[Path]) -> list[Path]:
    """The files without pytest's rewritten bytecode in the cache yet (one listing a folder)."""
    listed: dict[Path, set[str]] = {}
    out = []
    for path in files:
        folder = _cache_dir(path)
        if folder not in listed:
            listed[folder] = set(os.listdir(folder)) if folder.is_dir() else set()
        if not any(name.startswith(path.stem + ".") and "-pytest-" in name for name in listed[folder]):
            out.append(path)
    return out


def _workers(config: pytest.Config) -> int:
    return len(getattr(config.option, "tx", None) or ())


def warm(config: pytest.Config) -> None:
    """Compile the test modules of this run (and what they import) before xdist starts its
    workers, where there are two or more and many of the modules have no bytecode yet (a few
    edited ones the workers compile themselves: a warming process costs a collection's start)."""
    if (hasattr(config, "workerinput") or os.environ.get(WARMING) or config.option.collectonly
            or _workers(config) < 2):  # --collect-only: xdist starts no workers
        return
    files = _uncompiled(_test_files(config))
    if len(files) < _FEW:
        return
    shares: list[list[str]] = [[] for _ in range(min(_cores(), _workers(config), len(files)))]
    for i, path in enumerate(sorted(files, key=lambda p: -p.stat().st_size)):
        shares[i % len(shares)].append(str(path))
    env = {**os.environ, WARMING: "1"}
    started = [subprocess.Popen([sys.executable, "-m", "pytest", "--collect-only", "-q", "-n", "0",
                                 "-p", "no:cacheprovider", "--rootdir", str(config.rootpath),
                                 *share], cwd=config.invocation_params.dir, env=env,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
               for share in shares]
    for process in started:
        process.wait()  # a share that fails to collect fails again, and is reported, in the workers
