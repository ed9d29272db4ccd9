"""The only module that talks to git (through gitpython)."""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from renamer import debug
from renamer.errors import RenamerError, UnsafeError


def _git_run(argv: list[str], **kwargs: Any) -> subprocess.CompletedProcess[Any]:
    """subprocess.run for a git command, logged with its time under -vv."""
    start = time.perf_counter()
    done = subprocess.run(argv, **kwargs)
    debug.command(argv, time.perf_counter() - start, done.returncode)
    return done


def _gitpython(repo: Any, verb: str, *args: str, **kwargs: Any) -> Any:
    """`git VERB ARGS` through gitpython, logged under -vv."""
    debug.command(["git", verb, *args])
    return getattr(repo.git, verb)(*args, **kwargs)


def find_work_tree(start: Path) -> Path | None:
    """The top of the git work tree holding `start`, or None outside git."""
    for folder in [start, *start.parents]:
        if (folder / ".git").exists():
            return folder
    return None


def _repo(root: Path) -> Any:
    # Deferred (docs/architecture.md): gitpython takes ~80 ms to import; listing and status,
    # the hot path of every scan, run plain `git` and never need it.
    import git

    try:
        repo = git.Repo(root)
    except (git.InvalidGitRepositoryError, git.NoSuchPathError):
        return None
    repo.git.update_environment(**LITERAL)
    return repo


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
    if not os.path.lexists(root / ".git"):
        return None
    done = _git_run(["git", "-C", str(root), "rev-parse", "--absolute-git-dir"],
                          capture_output=True, check=False)
    if done.returncode != 0:
        lines = [line.strip() for line in os.fsdecode(done.stderr).splitlines() if line.strip()]
        detail = " ".join(lines[:3]) or f"exit status {done.returncode}"
        raise UnsafeError(f"{root}: git refuses this repository: {detail}")
    return Path(os.fsdecode(done.stdout.strip()))


def is_git(root: Path) -> bool:
    return git_dir(root) is not None


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


def _ls(root: Path, *args: str) -> list[str]:
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


def ignored_among(root: Path, paths: list[str]) -> list[str]:
    """Which of `paths` (files that do not exist yet) git's ignore rules would ignore."""
    done = _git_run(["git", "-C", str(root), "check-ignore", "--no-index", "-z", "--stdin"],
                          input=b"\0".join(os.fsencode(p) for p in paths) + b"\0", capture_output=True,
                          check=False)
    if done.returncode not in (0, 1):
        raise RenamerError(f"{root}: git check-ignore failed: {git_error(os.fsdecode(done.stderr))}")
    return [os.fsdecode(p) for p in done.stdout.split(b"\0") if p]


def is_ignored(root: Path, path: str) -> bool:
    """Does git ignore `path` (an untracked file a .gitignore rule covers)? Tracked files are not."""
    done = _git_run(["git", "-C", str(root), "check-ignore", "-q", "--", path], capture_output=True,
                    check=False)
    return done.returncode == 0


def dirty_paths(root: Path) -> list[str]:
    """What `git status` reports as changed or untracked (ignored files excluded)."""
    done = _git_run(["git", "-C", str(root), "status", "--porcelain", "-z",
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
    done = _git_run(["git", "-C", str(root), "rev-parse", "-q", "--verify", "HEAD"],
                          capture_output=True, text=True, check=False)
    return done.stdout.strip() or None if done.returncode == 0 else None


def has_commits(root: Path) -> bool:
    repo = _repo(root)
    if repo is None:
        return False
    try:
        repo.head.commit  # noqa: B018 - raises on an unborn branch
    except ValueError:
        return False
    return True


def move(root: Path, old: str, new: str, *, stage: bool = True) -> None:
    """Rename `old` to `new` as `git mv` would. With stage=False the old path stays in the
    index until the caller commits both paths, which `git commit -- old new` needs."""
    repo = _repo(root)
    tracked = repo is not None and bool(_ls(root, "--cached", "--", old))
    (root / new).parent.mkdir(parents=True, exist_ok=True)
    os.rename(root / old, root / new)
    _prune_empty(root, (root / old).parent)  # as `git mv` leaves no empty folder behind
    if tracked:
        _gitpython(repo, "add", "--", new)
        if stage:
            _gitpython(repo, "rm", "--cached", "-q", "--", old)


def _prune_empty(root: Path, folder: Path) -> None:
    while folder != root and root in folder.parents:
        try:
            folder.rmdir()
        except OSError:  # not empty (or not ours to remove): stop
            return
        folder = folder.parent


def unmove(root: Path, old: str, new: str) -> None:
    """Undo `move`: the file back at `old`, the index as it was for both paths."""
    (root / old).parent.mkdir(parents=True, exist_ok=True)
    os.rename(root / new, root / old)
    _prune_empty(root, (root / new).parent)
    repo = _repo(root)
    if repo is not None and has_commits(root):
        with contextlib.suppress(Exception):
            _gitpython(repo, "reset", "-q", "--", old, new)


RENAMES_PHASE = "RENAMER_SWEEP_PHASE"  # set to "renames" while a sweep commits its pure renames


def commit(root: Path, paths: list[str], message: str, *, hooks: bool = True,
           phase: str | None = None) -> str | None:
    """Commit exactly `paths` (staged or not) with `message`; returns the new sha.

    The repo's hooks run, as for `git commit` (`hooks=False` is `--no-verify`). `phase`
    tells a hook which commit of a sweep this is (renamer's own verify hook passes the
    pure-rename commit, whose rewrite follows)."""
    import git  # deferred, as in _repo

    repo = _repo(root)
    if repo is None:
        raise UnsafeError(f"{root}: --commit needs a git repository")
    if not paths:
        return None
    try:
        present = [p for p in paths if os.path.lexists(root / p)]
        if present:
            _gitpython(repo, "add", "--", *present)
        flags = ["-q"] if hooks else ["-q", "--no-verify"]
        env = {RENAMES_PHASE: phase} if phase else {}
        _gitpython(repo, "commit", *flags, "-m", message, "--", *paths, env=env)
    except git.GitCommandError as exc:
        why = git_error(f"{exc.stderr or ''}\n{exc.stdout or ''}")
        if "nothing to commit" in why or "no changes added to commit" in why:
            return None  # already committed (a sweep killed just after its commit)
        raise RenamerError(f"git commit failed: {why}") from None
    return str(repo.head.commit.hexsha)


def init_with_commit(root: Path, message: str, name: str, email: str) -> None:
    """A new repository at `root` holding everything there in one commit (the demo's start)."""
    base = ["git", "-C", str(root), "-c", "init.defaultBranch=main"]
    for args in (["init", "-q"], ["config", "user.name", name], ["config", "user.email", email],
                 ["config", "commit.gpgsign", "false"], ["add", "-A"], ["commit", "-q", "-m", message]):
        done = _git_run([*base, *args], capture_output=True, check=False)
        if done.returncode != 0:
            why = done.stderr.decode(errors="replace").strip()
            raise RenamerError(f"{root}: git {args[0]} failed: {why}")


def log_oneline(root: Path) -> str:
    done = _git_run(["git", "-C", str(root), "log", "--oneline"], capture_output=True, text=True,
                          check=False)
    return str(done.stdout)


def diff_zero_context(root: Path, *spec: str) -> bytes:
    """`git diff -U0` of `spec` (--cached, or A...B): the patch, paths unquoted where git can."""
    done = _git_run(["git", "-C", str(root), "-c", "core.quotePath=false", "diff", "-U0", "--no-color",
                     "--no-ext-diff", "--no-renames", "--diff-filter=AMCR", *spec, "--"],
                    capture_output=True, check=False)
    if done.returncode != 0:
        why = os.fsdecode(done.stderr).strip().splitlines()
        raise RenamerError(f"git diff failed: {why[-1] if why else done.returncode}")
    return bytes(done.stdout)


def show(root: Path, spec: str) -> bytes | None:
    """`git show SPEC` (`:path` in the index, `HEAD:path`); None when git has no such object."""
    done = _git_run(["git", "-C", str(root), "show", spec], capture_output=True, check=False)
    return bytes(done.stdout) if done.returncode == 0 else None


def config_value(root: Path, key: str) -> str | None:
    done = _git_run(["git", "-C", str(root), "config", "--get", key], capture_output=True, text=True,
                    check=False)
    return done.stdout.strip() or None if done.returncode == 0 else None


def log_bodies(root: Path, grep: str) -> list[tuple[str, str, str]]:
    """(sha, author date ISO, message) of every commit whose message matches `grep`, newest first."""
    done = _git_run(["git", "-C", str(root), "log", "-z", "--format=%H%n%aI%n%B", f"--grep={grep}"],
                    capture_output=True, check=False)
    if done.returncode != 0:
        return []  # no commits yet
    out = []
    for record in os.fsdecode(done.stdout).split("\0"):
        if record.strip():
            sha, date, body = [*record.lstrip("\n").split("\n", 2), "", ""][:3]
            out.append((sha, date, body))
    return out
