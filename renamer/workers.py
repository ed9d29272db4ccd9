"""Scanning across cores: large scans are split over forked worker processes.

Forked workers inherit the compiled project (no pickling of regexes or
specs); only the few files with something to report travel back.
"""

from __future__ import annotations

import multiprocessing
import os
import stat
import warnings
from collections.abc import Callable, Sequence

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
    path_needles = [n.decode("ascii") for n in needles]
    loose = project.loose if options.loose else None
    limit = project.config.max_file_size
    scanned, kept = 0, list[FileResult]()
    for rel in paths:
        candidate = True
        try:
            fd = os.open(root + rel, _OPEN_FLAGS)
        except OSError:
            fd = -1  # a link, gone or unreadable: the full scanner says which
        if fd >= 0:
            try:
                # One read answers for most files; only a full buffer needs fstat (size, type).
                data = os.read(fd, _FIRST_READ)
                if len(data) == _FIRST_READ:
                    info = os.fstat(fd)
                    if not stat.S_ISREG(info.st_mode):
                        continue
                    if info.st_size > limit:
                        data = b""  # the full scanner streams it
                        raise OSError
                    data += os.read(fd, info.st_size + 1 - len(data))
                candidate = (data[:2] in _WIDE_BOMS or any(n in data for n in needles)
                             or any(n in rel for n in path_needles)
                             or (loose is not None and loose.might_match(data)))
            except OSError:
                pass  # a folder (a submodule), a file over the limit: the full scanner decides
            finally:
                os.close(fd)
        if not candidate:
            scanned += 1
            continue
        found = scanner.scan(rel)
        if found is not None:
            scanned += 1
            if _interesting(found):
                kept.append(found)
    return scanned, kept


def scan_files(project: Project, options: ScanOptions, paths: Sequence[str],
               progress: Callable[[int, int], None] | None = None) -> tuple[int, list[FileResult]]:
    """(files scanned, results with something to report, in path order)."""
    global _state
    workers = _worker_count()
    if len(paths) < PARALLEL_FROM or workers < 2 or "fork" not in multiprocessing.get_all_start_methods():
        _state = (project, options)
        try:
            scanned, kept = 0, list[FileResult]()
            for start in range(0, len(paths), 512):
                count, found = _scan_chunk(paths[start:start + 512])
                scanned, kept = scanned + count, kept + found
                if progress:
                    progress(min(start + 512, len(paths)), len(paths))
            return scanned, kept
        finally:
            _state = None
    size = max(64, len(paths) // (workers * 8))
    chunks = [paths[i:i + size] for i in range(0, len(paths), size)]
    _state = (project, options)
    scanned, results = 0, []
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)  # fork with threads (3.12+)
            context = multiprocessing.get_context("fork")
        with context.Pool(workers) as pool:
            done = 0
            for count, found in pool.imap_unordered(_scan_chunk, chunks):
                done += len(chunks[0]) if count else 0
                scanned += count
                results += found
                if progress:
                    progress(min(done, len(paths)), len(paths))
    finally:
        _state = None
    return scanned, sorted(results, key=lambda r: r.path)
