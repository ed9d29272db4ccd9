"""The files of a work tree as git lists them (`git ls-files`, plain git, no gitpython: the hot path of
every scan), and what its ignore rules cover."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from renamer import debug
from renamer.errors import RenamerError
from renamer.vcs_command import LITERAL, git_error, git_run


def _start_ls(root: Path, *args: str) -> subprocess.Popen[bytes]:
    # Listing is the hot path of every scan: plain `git`, no GitPython import (150 ms).
    debug.command(["git", "-C", str(root), "ls-files", "-z", *args])
    return subprocess.Popen(["git", "-C", str(root), "ls-files", "-z", *args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env={**os.environ, **LITERAL})


def _finish_ls(root: Path, process: subprocess.Popen[bytes]) -> list[str]:
    out, err = process.communicate()
    if process.returncode != 0:
        raise RenamerError(f"{root}: git ls-files failed: {err.decode(errors='replace').strip()}")
    # os.fsdecode of each path, at once: 160,000 calls cost 0.1 s.
    return [p for p in out.decode(sys.getfilesystemencoding(), "surrogateescape").split("\0") if p]


def ls_files(root: Path, *args: str) -> list[str]:
    return _finish_ls(root, _start_ls(root, *args))


class Listing:
    """The `git ls-files` runs of a scan, started early so they overlap other work.

    Tracked files come from the index at once; untracked and ignored ones need a
    walk of the work tree, which a scan can overlap by starting on the tracked.
    """

    def __init__(self, root: Path, *, ignored: bool = True) -> None:
        self.root = root
        self._tracked = _start_ls(root, "--cached")
        self._untracked = _start_ls(root, "--others", "--exclude-standard")
        self._ignored = _start_ls(root, "--others", "--ignored", "--exclude-standard") if ignored else None
        self._done: dict[str, list[str]] = {}

    def _get(self, name: str, process: subprocess.Popen[bytes] | None) -> list[str]:
        if name not in self._done:
            self._done[name] = _finish_ls(self.root, process) if process is not None else []
        return self._done[name]

    def tracked(self) -> list[str]:
        # An unmerged path is listed once per stage: keep one.
        return list(dict.fromkeys(self._get("tracked", self._tracked)))

    def untracked(self) -> list[str]:
        return self._get("untracked", self._untracked)

    def ignored(self) -> list[str]:
        return self._get("ignored", self._ignored)

    def result(self) -> tuple[list[str], list[str]]:
        """(tracked plus untracked-not-ignored files, ignored files)."""
        return sorted(set(self.tracked()) | set(self.untracked())), self.ignored()

    def close(self) -> None:
        """Reap the listings if nobody read them (the command failed before its scan)."""
        for process in (self._tracked, self._untracked, self._ignored):
            if process is not None and process.returncode is None:
                process.kill()
                process.communicate()

    def __enter__(self) -> Listing:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def start_listing(root: Path) -> Listing | None:
    """Start listing the work tree at `root` now; None outside git. Close it (or use `with`)."""
    if not (root / ".git").exists():
        return None
    return Listing(root)


def listed_files(root: Path, *, ignored: bool) -> tuple[list[str], list[str]]:
    """(tracked plus untracked-not-ignored files, ignored files), both listings run at once."""
    return Listing(root, ignored=ignored).result()


def ignored_among(root: Path, paths: list[str]) -> dict[str, str]:
    """Which of `paths` (files that do not exist yet) git's ignore rules would ignore, each with
    the rule that does: `SOURCE:LINE: PATTERN`, as `git check-ignore -v` names it (a
    .gitignore, .git/info/exclude or core.excludesFile; adversarial pass 2 B-17)."""
    return _ignore_rules(root, paths, "--no-index")


def ignored_untracked(root: Path, paths: list[str]) -> dict[str, str]:
    """Which of `paths` (files that exist) are untracked files git ignores, each with its rule."""
    return _ignore_rules(root, paths) if paths else {}


def ignore_rule(root: Path, path: str) -> str | None:
    """The rule that makes git ignore `path` (an untracked file; tracked files are not), or None."""
    return _ignore_rules(root, [path]).get(path)


def _ignore_rules(root: Path, paths: list[str], *flags: str) -> dict[str, str]:
    # check-ignore reads a path starting with `:` as pathspec magic (`:(glob)x.txt`) and knows no
    # GIT_LITERAL_PATHSPECS: such a path is asked as `./:(glob)x.txt`, and answered so.
    asked = {f"./{p}" if p.startswith(":") else p: p for p in paths}
    done = git_run(["git", "-C", str(root), "check-ignore", *flags, "-v", "-z", "--stdin"],
                   input=b"\0".join(os.fsencode(p) for p in asked) + b"\0", capture_output=True,
                   check=False)
    if done.returncode not in (0, 1):
        raise RenamerError(f"{root}: git check-ignore failed: {git_error(os.fsdecode(done.stderr))}")
    fields = [os.fsdecode(p) for p in done.stdout.split(b"\0")]
    rules: dict[str, str] = {}
    for at in range(0, len(fields) - 3, 4):
        source, line, pattern, path = fields[at:at + 4]
        if pattern.startswith("!"):  # -v shows the negation that un-ignores a path too
            continue
        rules[asked.get(path, path)] = f"{source}:{line}: {pattern}"
    return rules


