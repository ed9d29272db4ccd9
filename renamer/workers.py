"""Scanning across cores: large scans are split over forked worker processes.

Forked workers inherit the compiled project (no pickling of regexes or
specs); only the few files with something to report travel back.
"""

from __future__ import annotations

import itertools
import multiprocessing
import os
import stat
import warnings
from collections.abc import Callable, Iterator, Sequence

from renamer.model import FileResult
from renamer.project import Project
from renamer.scan import FileScanner, ScanOptions

# Below this many files a pool costs more than it saves.
PARALLEL_FROM = 3000
_state: tuple[Project, ScanOptions] | None = None


def _worker_count() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def _interesting(found: FileResult) -> bool:
    return bool(found.kind == "unreadable" or found.references or found.new_path or found.near_misses)


_OPEN_FLAGS = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
_WIDE_BOMS = (b"\xff\xfe", b"\xfe\xff", b"\x00\x00")
_FIRST_READ = 65536


def _scan_chunk(paths: Sequence[str]) -> tuple[int, list[FileResult]]:
    """(files scanned, the results worth sending back) for one chunk.

    A lean first pass reads each file once and tests the needles; only
    candidates (a hit, a UTF-16/32 BOM, an old value in the path, anything
    unusual) go through the full scanner. Most files never leave this loop.
    """
    assert _state is not None
    project, options = _state
    scanner = FileScanner(project, options)
    root = f"{project.root}/"
    needles = project.matcher.needles
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
            fd = open_(root + rel, _OPEN_FLAGS)
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
                candidate = data[:2] in _WIDE_BOMS
                for needle in needles:
                    if candidate or needle in data:
                        candidate = True
                        break
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


def scan_files(project: Project, options: ScanOptions, batches: Iterator[Sequence[str]],
               progress: Callable[[int, int], None] | None = None) -> tuple[int, list[FileResult]]:
    """(files scanned, results with something to report, in path order).

    `batches` may block (the second one waits for git's walk): the pool is already
    scanning the first while it does.
    """
    global _state
    first = list(next(batches, []))
    workers = _worker_count()
    _state = (project, options)
    try:
        if len(first) < PARALLEL_FROM or workers < 2 or "fork" not in multiprocessing.get_all_start_methods():
            scanned, kept = 0, list[FileResult]()
            for batch in itertools.chain([first], batches):
                for start in range(0, len(batch), CHUNK):
                    count, found = _scan_chunk(batch[start:start + CHUNK])
                    scanned, kept = scanned + count, kept + found
                    if progress:
                        progress(scanned, max(scanned, len(first)))
            return scanned, sorted(kept, key=lambda r: r.path)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)  # fork with threads (3.12+)
            context = multiprocessing.get_context("fork")
        scanned, results = 0, list[FileResult]()
        with context.Pool(workers) as pool:
            for count, found in pool.imap_unordered(_scan_chunk, _chunks(first, batches)):
                scanned += count
                results += found
                if progress:
                    progress(scanned, max(scanned, len(first)))
        return scanned, sorted(results, key=lambda r: r.path)
    finally:
        _state = None


CHUNK = 512


def _chunks(first: list[str], rest: Iterator[Sequence[str]]) -> Iterator[Sequence[str]]:
    for batch in itertools.chain([first], rest):  # lazily: `rest` waits in the pool's feeder thread
        for start in range(0, len(batch), CHUNK):
            yield batch[start:start + CHUNK]
