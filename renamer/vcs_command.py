"""Running git: one command, logged with its time under -vv, with paths that are never patterns, git's
error in one line; and where a work tree's git is."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import time
from collections.abc import Iterator, Mapping
from contextvars import ContextVar
from pathlib import Path
from typing import Any

from renamer import debug
from renamer.errors import RenamerError, UnsafeError


def git_run(argv: list[str], **kwargs: Any) -> subprocess.CompletedProcess[Any]:
    """subprocess.run for a git command, logged with its time under -vv."""
    start = time.perf_counter()
    done = subprocess.run(argv, **kwargs)
    debug.command(argv, time.perf_counter() - start, done.returncode)
    return done


def find_work_tree(start: Path) -> Path | None:
    """The top of the git work tree holding `start`, or None outside git."""
    for folder in [start, *start.parents]:
        if (folder / ".git").exists():
            return folder
    return None


# Paths are paths, never patterns: `x[ab].txt` must not stage xa.txt, `:(glob)x` is a file name.
LITERAL = {"GIT_LITERAL_PATHSPECS": "1"}


def git_error(stderr: str) -> str:
    """git's own message in one line, without GitPython's `stderr: '...'` wrapping."""
    lines = []
    for line in stderr.splitlines():
        line = line.strip()
        for wrapper in ("stderr: '", "stdout: '"):
            if line.startswith(wrapper):
                line = line[len(wrapper):]
        line = line.rstrip("'").strip()
        if line:
            lines.append(line)
    fatal = [line for line in lines if line.startswith(("fatal:", "error:"))]
    if fatal:
        return fatal[-1]
    # A hook's own words (no fatal: line): all of them, joined, at most a few.
    shown = "; ".join(lines[:4]) + ("; ..." if len(lines) > 4 else "")
    return shown or "unknown error"


def git_dir(root: Path) -> Path | None:
    """Git's private folder for the work tree at `root`; None for a folder that is not one.

    Only a folder with no `.git` at all is a plain folder. When git refuses a work tree
    it has (dubious ownership, a broken `.git` file), that is an error with git's own
    words, never a reason to sweep the folder as if git were not there.
    """
    try:
        dot_git = os.lstat(root / ".git")
    except FileNotFoundError:
        return None
    # One sweep asked git this four times (about 10 ms a process); within one command the answer
    # is remembered while nothing it depends on changes: the `.git` entry itself, the owner of the
    # work tree (git's dubious-ownership check), who asks, and git's own variables.
    key = (os.path.abspath(root), dot_git.st_dev, dot_git.st_ino, dot_git.st_mtime_ns,
           dot_git.st_size, dot_git.st_mode, dot_git.st_uid, _owner(root), os.geteuid(),
           tuple(os.environ.get(name) for name in _GIT_LOCATION))
    memo = _GIT_DIRS.get()
    known = memo.get(key) if memo is not None else None
    if known is not None:
        return known
    for _ in range(3):
        done = git_run(["git", "-C", str(root), "rev-parse", "--absolute-git-dir"],
                       capture_output=True, check=False)
        if done.returncode >= 0:
            break
        # killed by a signal: a terminal's Ctrl-C reaches git too, while renamer defers it until
        # its writes are whole; asked again, so the interrupt is said as one, not as git refusing
        # this repository (exit status -2; the suite's terminal Ctrl-C test saw it once)
    if done.returncode != 0:
        lines = [line.strip() for line in os.fsdecode(done.stderr).splitlines() if line.strip()]
        detail = " ".join(lines[:3]) or f"exit status {done.returncode}"
        raise UnsafeError(f"{root}: git refuses this repository: {detail}")
    found = Path(os.fsdecode(done.stdout.strip()))
    if memo is not None:
        memo[key] = found  # a refusal is asked again
    return found


# git's variables that move or redirect the private folder.
_GIT_LOCATION = ("GIT_DIR", "GIT_WORK_TREE", "GIT_COMMON_DIR", "GIT_CEILING_DIRECTORIES",
                 "GIT_DISCOVERY_ACROSS_FILESYSTEM", "GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM", "HOME",
                 "PATH")  # PATH: which git answers
# Remembered only within one command (`remembering_git_dirs`, the CLI's boundary): a process that
# lives on (the library, the tests' in-process CLI) may see git's answer change where the key does
# not (safe.directory edited, a linked worktree's folder pruned, a `.git` file rewritten in place
# with its mtime kept: d30's findings 01, 02), and asks git each time outside a command.
_GIT_DIRS: ContextVar[dict[tuple[object, ...], Path] | None] = ContextVar("git_dirs", default=None)


@contextlib.contextmanager
def remembering_git_dirs() -> Iterator[None]:
    """Within the block, `git_dir` asks git once per work tree while its key stays."""
    token = _GIT_DIRS.set({})
    try:
        yield
    finally:
        _GIT_DIRS.reset(token)


def _owner(root: Path) -> int:
    try:
        return os.stat(root).st_uid
    except OSError:
        return -1


def is_git(root: Path) -> bool:
    return git_dir(root) is not None


DEFAULT_COMMIT_TIMEOUT = 600.0  # seconds; `sweep --commit-timeout`
_COMMIT_TIMEOUT: ContextVar[float | None] = ContextVar("commit_timeout", default=DEFAULT_COMMIT_TIMEOUT)
_GRACE = 5.0  # seconds between SIGTERM and SIGKILL for a git commit past its time


@contextlib.contextmanager
def commit_timeout(seconds: float | None) -> Iterator[None]:
    """Every `git commit` made for the duration is stopped after `seconds` (None or 0: never)."""
    token = _COMMIT_TIMEOUT.set(seconds or None)
    try:
        yield
    finally:
        _COMMIT_TIMEOUT.reset(token)


class CommitTimedOut(RenamerError):
    """`git commit` ran past the commit timeout and was stopped, its hooks with it."""


def git_commit(root: Path, args: list[str], env: Mapping[str, str]) -> subprocess.CompletedProcess[bytes]:
    """`git commit ARGS` in `root`, stopped after the commit timeout (adversarial B-15: a hook that
    hangs, which `--no-verify` does not skip for prepare-commit-msg, hung the sweep for good).

    git and every process under it (the hook and what it started) get SIGTERM, which git answers
    by removing its index.lock, then SIGKILL after a grace. Raises CommitTimedOut."""
    seconds = _COMMIT_TIMEOUT.get()
    argv = ["git", "-C", str(root), "commit", *args]
    start = time.perf_counter()
    proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env={**os.environ, **env})
    try:
        out, err = proc.communicate(timeout=seconds)
    except subprocess.TimeoutExpired:
        said = _stop(proc)
        debug.command(argv, time.perf_counter() - start, proc.returncode)
        last = git_error(said) if said.strip() else ""
        raise CommitTimedOut(
            f"git commit ran past the {seconds:g} s commit timeout (--commit-timeout) and was stopped"
            f"{f' (its last words: {last})' if last else ''}: a git hook that hangs? (pre-commit, "
            f"prepare-commit-msg, commit-msg; --no-verify does not skip prepare-commit-msg)") from None
    debug.command(argv, time.perf_counter() - start, proc.returncode)
    return subprocess.CompletedProcess(argv, proc.returncode, out, err)


def _stop(proc: subprocess.Popen[bytes]) -> str:
    """SIGTERM to `proc` and the processes under it, SIGKILL to those left after a grace;
    what they had written to stdout and stderr."""
    family = [(pid, _start_time(pid)) for pid in _descendants(proc.pid)]
    for number in (signal.SIGTERM, signal.SIGKILL):
        if proc.poll() is None:
            proc.send_signal(number)
        for pid, started in family:
            if started is not None and _start_time(pid) == started:  # never a pid reused meanwhile
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.kill(pid, number)
        if number == signal.SIGTERM:
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(timeout=_GRACE)
    try:
        out, err = proc.communicate(timeout=_GRACE)
    except subprocess.TimeoutExpired:  # a process that left the family still holds the pipes
        for pipe in (proc.stdout, proc.stderr):
            if pipe is not None:
                pipe.close()
        proc.wait()
        return ""
    return os.fsdecode(err) + "\n" + os.fsdecode(out)


def _start_time(pid: int) -> str | None:
    """The process's start time (Linux /proc), so that a pid reused meanwhile is never signalled."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return stat.rpartition(")")[2].split()[19]


def _descendants(pid: int) -> list[int]:
    """Every process under `pid` (Linux /proc; elsewhere none: git alone is stopped)."""
    children: dict[int, list[int]] = {}
    with contextlib.suppress(OSError):
        for entry in os.scandir("/proc"):
            if not entry.name.isdigit():
                continue
            try:
                stat = Path(entry.path, "stat").read_text()
            except OSError:
                continue
            parent = int(stat.rpartition(")")[2].split()[1])
            children.setdefault(parent, []).append(int(entry.name))
    found, todo = [], [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found
