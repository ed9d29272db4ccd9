"""What git says of a repository's state and history: changed paths, HEAD, diffs, objects, config
values, commit messages."""

from __future__ import annotations

import os
import subprocess
import tempfile
import time
from pathlib import Path

from renamer import debug
from renamer.errors import RenamerError
from renamer.vcs_command import LITERAL, git_run


def dirty_paths(root: Path) -> list[str]:
    """What `git status` reports as changed or untracked (ignored files excluded)."""
    done = git_run(["git", "-C", str(root), "status", "--porcelain", "-z",
                           "--untracked-files=all"], capture_output=True, check=False)
    if done.returncode != 0:
        raise RenamerError(f"{root}: git status failed: {done.stderr.decode(errors='replace').strip()}")
    entries = os.fsdecode(done.stdout).split("\0")
    paths, index = [], 0
    while index < len(entries):
        entry = entries[index]
        index += 1
        if len(entry) > 3:
            paths.append(entry[3:])
            if entry[0] in "RC":  # a rename or copy is followed by its source path
                index += 1
    return paths


def head_sha(root: Path) -> str | None:
    """The commit HEAD names, or None (no commits yet, or not a repository)."""
    done = git_run(["git", "-C", str(root), "rev-parse", "-q", "--verify", "HEAD"],
                          capture_output=True, text=True, check=False)
    return done.stdout.strip() or None if done.returncode == 0 else None


def diff_zero_context(root: Path, *spec: str) -> bytes:
    """`git diff -U0` of `spec` (--cached, or A...B): the patch, paths unquoted where git can."""
    done = git_run(["git", "-C", str(root), "-c", "core.quotePath=false", "diff", "-U0", "--no-color",
                     "--no-ext-diff", "--no-renames", "--diff-filter=AMCR", *spec, "--"],
                    capture_output=True, check=False)
    if done.returncode != 0:
        why = os.fsdecode(done.stderr).strip().splitlines()
        raise RenamerError(f"git diff failed: {why[-1] if why else done.returncode}")
    return bytes(done.stdout)


def show(root: Path, spec: str) -> bytes | None:
    """`git show SPEC` (`:path` in the index, `HEAD:path`); None when git has no such object."""
    done = git_run(["git", "-C", str(root), "show", spec], capture_output=True, check=False)
    return bytes(done.stdout) if done.returncode == 0 else None


def config_value(root: Path, key: str) -> str | None:
    done = git_run(["git", "-C", str(root), "config", "--get", key], capture_output=True, text=True,
                    check=False)
    return done.stdout.strip() or None if done.returncode == 0 else None


def log_bodies(root: Path, grep: str) -> list[tuple[str, str, str]]:
    """(sha, author date ISO, message) of every commit whose message matches `grep`, newest first."""
    done = git_run(["git", "-C", str(root), "log", "-z", "--format=%H%n%aI%n%B", f"--grep={grep}"],
                    capture_output=True, check=False)
    if done.returncode != 0:
        return []  # no commits yet
    out = []
    for record in os.fsdecode(done.stdout).split("\0"):
        if record.strip():
            sha, date, body = [*record.lstrip("\n").split("\n", 2), "", ""][:3]
            out.append((sha, date, body))
    return out


def skip_worktree(root: Path, paths: list[str]) -> list[str]:
    """Of `paths`, those git marks skip-worktree (`git update-index --skip-worktree`, or outside a
    sparse checkout): git will not stage their changes."""
    if not paths:
        return []
    done = git_run(["git", "-C", str(root), "ls-files", "-v", "-z", "--", *paths], capture_output=True,
                   check=False, env={**os.environ, **LITERAL})
    if done.returncode != 0:
        raise RenamerError(f"{root}: git ls-files failed: {done.stderr.decode(errors='replace').strip()}")
    entries = [e for e in os.fsdecode(done.stdout).split("\0") if e]
    return [entry[2:] for entry in entries if entry[:1] == "S"]


def worktree_files_holding(root: Path, pattern: str) -> frozenset[str] | None:
    """The work tree's text files (tracked, and untracked ones not ignored) holding a match of
    the regex `pattern`: git grep reads them in parallel in C, where a Python pass over every
    file costs seconds. PCRE where git has it (an ERE with a bound such as {32} is ten times
    slower in git's own engine); None when git cannot answer (the caller reads the files)."""
    with PendingGrep(root, pattern) as pending:
        return pending.result()


class PendingGrep:
    """`worktree_files_holding`, started now and collected later: the sweep starts it before its
    scan, so git reads the work tree while Python scans it (the answer is needed only after).

    Its output goes to an unnamed temporary file, so git never waits on a full pipe; leaving the
    `with` block stops a grep nobody collected (an error in the scan, nothing to pin)."""

    def __init__(self, root: Path, pattern: str) -> None:
        self.root, self.pattern = root, pattern
        self._argv = _grep_argv(root, "-P", pattern)
        self._out = tempfile.TemporaryFile()  # noqa: SIM115 (closed by result or close)
        self._start = time.perf_counter()
        debug.command(self._argv)  # started: -vv shows it before the scan's lines
        self._process: subprocess.Popen[bytes] | None = subprocess.Popen(
            self._argv, stdout=self._out, stderr=subprocess.DEVNULL)
        self._found: frozenset[str] | None = None

    def result(self) -> frozenset[str] | None:
        process = self._process
        if process is None:
            return self._found
        self._process = None
        returncode = process.wait()
        # Collected after the scan: the time says when it was asked for, not how long git took.
        debug.say(f"git grep collected {(time.perf_counter() - self._start) * 1000:.1f} ms after it "
                  f"started (exit {returncode})")
        if returncode in (0, 1):  # 1: found nothing
            self._out.seek(0)
            self._found = _names(self._out.read())
        else:  # no PCRE in this git: its own engine
            done = git_run(_grep_argv(self.root, "-E", self.pattern), capture_output=True, check=False)
            self._found = _names(done.stdout) if done.returncode in (0, 1) else None
        self._out.close()
        return self._found

    def close(self) -> None:
        process, self._process = self._process, None
        if process is not None:
            process.kill()
            process.wait()
        self._out.close()

    def __enter__(self) -> PendingGrep:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _grep_argv(root: Path, engine: str, pattern: str) -> list[str]:
    return ["git", "-C", str(root), "grep", "-z", "-l", "-I", "--untracked", engine, "-e", pattern, "--"]


def _names(out: bytes) -> frozenset[str]:
    return frozenset(name for name in os.fsdecode(out).split("\0") if name)


def files_holding(root: Path, rev: str, needle: str) -> frozenset[str] | None:
    """The paths of `rev`'s tree whose bytes hold `needle` (a fixed string, as `git grep -F`
    finds it); None when git has no such revision."""
    done = git_run(["git", "-C", str(root), "grep", "-z", "-l", "-I", "-F", "-e", needle, rev, "--"],
                   capture_output=True, check=False)
    if done.returncode not in (0, 1):  # 1: found nothing
        return None
    prefix = f"{rev}:"
    return frozenset(name[len(prefix):] if name.startswith(prefix) else name
                     for name in os.fsdecode(done.stdout).split("\0") if name)
