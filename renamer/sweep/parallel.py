"""Scanning across cores: large scans are split into chunks over forked workers.

Each chunk goes through a lean first pass (one read, the needle tests) and only
candidate files through the full scanner (sweep/scan.py); only the few files
with something to report travel back.
"""

from __future__ import annotations

import collections
import functools
import itertools
import os
import stat
import time
from collections.abc import Callable, Iterator, Sequence

from renamer import debug
from renamer.forked import available_cores, can_fork, fork_map
from renamer.project import LoadedProject
from renamer.sweep.content import OPEN_FLAGS, WIDE_BOM_STARTS
from renamer.sweep.model import FileResult
from renamer.sweep.scan import FileScanner, ScanOptions

# Below this many files a pool costs more than it saves.
PARALLEL_FROM = 3000
CHUNK = 512
_FIRST_READ = 65536


def _interesting(found: FileResult) -> bool:
    return bool(found.kind == "unreadable" or found.references or found.new_path or found.near_misses)


def scan_chunk(project: LoadedProject, options: ScanOptions,
               paths: Sequence[str]) -> tuple[int, list[FileResult]]:
    """(files scanned, the results worth sending back) for one chunk.

    A lean first pass reads each file once and tests the needles; only
    candidates (a hit, a UTF-16/32 BOM, an old value in the path, anything
    unusual) go through the full scanner. Most files never leave this loop.
    """
    scanner = FileScanner(project, options)
    root = f"{project.root}/"
    matcher = project.matcher
    needles = matcher.needles
    # One test for the whole chunk tells whether any path holds an old value at all.
    joined = "\0".join(paths)
    path_needles = [n for n in (x.decode("ascii") for x in needles) if n in joined]
    loose = project.loose if options.loose else None
    limit = project.config.max_file_size
    open_, read_, close_, fstat_ = os.open, os.read, os.close, os.fstat  # hot loop: local names
    scanned, kept = 0, list[FileResult]()
    for rel in paths:
        candidate, read = True, None
        try:
            fd = open_(root + rel, OPEN_FLAGS)
        except OSError:
            fd = -1  # a link, gone or unreadable: the full scanner says which
        if fd >= 0:
            try:
                # One read answers for most files; only a full buffer needs fstat (size, type).
                data = read_(fd, _FIRST_READ)
                if len(data) == _FIRST_READ:
                    info = fstat_(fd)
                    if not stat.S_ISREG(info.st_mode):
                        continue
                    if info.st_size > limit:
                        raise OSError  # the full scanner streams it
                    data += read_(fd, info.st_size + 1 - len(data))
                if len(data) > limit:
                    raise OSError  # over options.max_file_size: the full scanner streams it
                candidate = data[:2] in WIDE_BOM_STARTS
                for needle in needles:
                    if candidate or needle in data:
                        candidate = True
                        break
                if not candidate:
                    candidate = matcher.might_hold_context(data)
                if not candidate and path_needles:
                    candidate = any(n in rel for n in path_needles)
                if not candidate and loose is not None:
                    candidate = loose.might_match(data)
                if candidate:
                    info = fstat_(fd)
                    if stat.S_ISREG(info.st_mode):
                        read = (data, info.st_mode)
            except OSError:
                pass  # a folder (a submodule), a file over the limit: the full scanner decides
            finally:
                close_(fd)
        if not candidate:
            scanned += 1
            continue
        found = scanner.scan(rel, read=read)
        if found is not None:
            scanned += 1
            if _interesting(found):
                kept.append(found)
    return scanned, kept



def scan_files(project: LoadedProject, options: ScanOptions, batches: Iterator[Sequence[str]],
               progress: Callable[[int, int], None] | None = None) -> tuple[int, list[FileResult]]:
    """(files scanned, results with something to report, in path order).

    `batches` may block (the second one waits for git's walk): the pool is already
    scanning the first while it does.
    """
    first = list(next(batches, []))
    workers = available_cores()
    task = functools.partial(_worker_chunk, project, options)
    chunks = _chunks(first, batches)
    forked = len(first) >= PARALLEL_FROM and workers >= 2 and can_fork()
    if forked:
        done: Iterator[tuple[int, int, list[FileResult]]] = fork_map(task, chunks, workers, ordered=False)
        debug.say(f"scan: {workers} workers forked for {len(first)} tracked files and more")
    else:
        done = map(task, chunks)
    scanned, kept = 0, list[FileResult]()
    per_worker: collections.Counter[int] = collections.Counter()
    start = time.perf_counter()
    for worker, count, found in done:
        scanned += count
        kept += found
        per_worker[worker] += count
        if progress:
            progress(scanned, max(scanned, len(first)))
    if debug.on():
        split = ", ".join(str(count) for _, count in sorted(per_worker.items())) or "0"
        how = f"{len(per_worker)} forked workers" if forked else "in process"
        debug.say(f"scan: {scanned} files in {(time.perf_counter() - start) * 1000:.1f} ms, {how}; "
                  f"files per worker: {split}")
    return scanned, sorted(kept, key=lambda r: r.path)


def _worker_chunk(project: LoadedProject, options: ScanOptions,
                  paths: Sequence[str]) -> tuple[int, int, list[FileResult]]:
    """scan_chunk, with the worker's process id (the -vv log counts files per worker)."""
    return (os.getpid(), *scan_chunk(project, options, paths))


def _chunks(first: list[str], rest: Iterator[Sequence[str]]) -> Iterator[Sequence[str]]:
    for batch in itertools.chain([first], rest):  # lazily: `rest` waits in the pool's feeder thread
        for start in range(0, len(batch), CHUNK):
            yield batch[start:start + CHUNK]
