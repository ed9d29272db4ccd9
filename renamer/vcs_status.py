"""What git says of a repository's state and history: changed paths, HEAD, diffs, objects, config
values, commit messages."""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from renamer import lazy_re, once, work
from renamer.errors import RenamerError
from renamer.vcs_command import LITERAL, git_dir, git_run

_OBJECT = lazy_re.compile(rb"[0-9a-f]{40,64} (\w+) (\d+)")  # cat-file --batch: `<oid> <type> <size>`


def dirty_paths(root: Path) -> list[str]:
    """What `git status` reports as changed or untracked (ignored files excluded)."""
    return list(path_states(root))


def path_states(root: Path, paths: Sequence[str] | None = None, *, ignored: bool = False) -> dict[str, str]:
    """Each changed or untracked path (of `paths`, or all) and its `git status --porcelain` code
    (`XY`: index, work tree; `??` untracked; with `ignored`, `!!` for a file git ignores)."""
    if paths is not None and not paths:
        return {}
    # Of given paths each is asked about on its own (--no-renames: a staged rename is its two paths).
    spec = ["--no-renames", "--", *paths] if paths is not None else []
    done = git_run(["git", "-C", str(root), "status", "--porcelain", "-z",
                    "--untracked-files=all", *(["--ignored=matching"] if ignored else []), *spec],
                   capture_output=True, check=False,
                   env={**os.environ, **LITERAL})
    if done.returncode != 0:
        raise RenamerError(f"{root}: git status failed: {done.stderr.decode(errors='replace').strip()}")
    entries = os.fsdecode(done.stdout).split("\0")
    states, index = {}, 0
    while index < len(entries):
        entry = entries[index]
        index += 1
        if len(entry) > 3:
            states[entry[3:]] = entry[:2]
            if entry[0] in "RC":  # a rename or copy is followed by its source path
                index += 1
    return states


# git's state files for an operation it has stopped in the middle of (each in the work tree's own
# git dir, so a linked worktree's merge is its own), in the order git's status reports them, with
# the way out of each.
_OPERATIONS = (
    ("rebase-merge", "a rebase", "`git rebase --continue` or `git rebase --abort`"),
    ("rebase-apply/applying", "a `git am`", "`git am --continue` or `git am --abort`"),
    ("rebase-apply", "a rebase", "`git rebase --continue` or `git rebase --abort`"),
    ("MERGE_HEAD", "a merge", "`git commit` or `git merge --abort`"),
    ("CHERRY_PICK_HEAD", "a cherry-pick", "`git cherry-pick --continue` or `git cherry-pick --abort`"),
    ("REVERT_HEAD", "a revert", "`git revert --continue` or `git revert --abort`"),
    ("sequencer", "a cherry-pick or revert sequence", "`git cherry-pick --continue` or `--abort`"),
    ("BISECT_LOG", "a bisect", "`git bisect reset`"),
)


def operation_in_progress(root: Path) -> tuple[str, str, str] | None:
    """(what, git's state file, the way out) of a merge, rebase, am, cherry-pick, revert or bisect
    git has stopped in the middle of; None when there is none (or no git)."""
    folder = git_dir(root)
    if folder is None:
        return None
    for name, what, way_out in _OPERATIONS:
        if os.path.lexists(folder / name):
            return what, str(folder / name), way_out
    return None


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


def diff_names(root: Path, *spec: str) -> list[str]:
    """The paths `git diff --name-only` of `spec` names (added, modified, renamed onto)."""
    done = git_run(["git", "-C", str(root), "diff", "--name-only", "-z", "--no-renames", "--no-ext-diff",
                    "--diff-filter=AMCR", *spec, "--"], capture_output=True, check=False)
    if done.returncode != 0:
        why = os.fsdecode(done.stderr).strip().splitlines()
        raise RenamerError(f"git diff failed: {why[-1] if why else done.returncode}")
    return [os.fsdecode(name) for name in bytes(done.stdout).split(b"\0") if name]


def merge_base(root: Path, one: str, other: str) -> str | None:
    done = git_run(["git", "-C", str(root), "merge-base", one, other], capture_output=True, text=True,
                   check=False)
    return done.stdout.strip() or None if done.returncode == 0 else None


def show(root: Path, spec: str) -> bytes | None:
    """`git show SPEC` (`:path` in the index, `HEAD:path`); None when git has no such object."""
    done = git_run(["git", "-C", str(root), "show", spec], capture_output=True, check=False)
    return bytes(done.stdout) if done.returncode == 0 else None


def config_value(root: Path, key: str) -> str | None:
    done = git_run(["git", "-C", str(root), "config", "--get", key], capture_output=True, text=True,
                    check=False)
    return done.stdout.strip() or None if done.returncode == 0 else None


def log_bodies(root: Path, grep: str, *, every_ref: bool = False) -> list[tuple[str, str, str]]:
    """(sha, author date ISO, message) of every commit whose message matches `grep`, newest first
    (of HEAD's history, or with `every_ref` of every branch and tag's). Asked once per scope
    (once.py: a verify, an audit, a sweep's plan, none of which commits): a verify asked git for
    the moves on record seven times, a fifth of its git processes on a small repo."""
    return once.shared(f"log-bodies\0{root}\0{grep}\0{every_ref}",
                       lambda: _log_bodies(root, grep, every_ref))


def _log_bodies(root: Path, grep: str, every_ref: bool) -> list[tuple[str, str, str]]:
    done = git_run(["git", "-C", str(root), "log", "-z", "--format=%H%n%aI%n%B", f"--grep={grep}",
                    *(["--all"] if every_ref else [])],
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


def worktree_files_holding(root: Path, pattern: str, *, binary: bool = False,
                           suffixes: tuple[str, ...] = ()) -> frozenset[str] | None:
    """The work tree's text files (tracked, and untracked ones not ignored) holding a match of
    the regex `pattern`: git grep reads them in parallel in C, where a Python pass over every
    file costs seconds. PCRE where git has it (an ERE with a bound such as {32} is ten times
    slower in git's own engine); None when git cannot answer (the caller reads the files).
    `binary`: files git takes for binary too (a NUL byte), which `-I` leaves out; `suffixes`:
    only files whose names end so (`.tf`)."""
    done = _tree_grep(root, ["-z", "-l", "-a" if binary else "-I"], pattern, suffixes)
    if done is None:
        return None
    return frozenset(name for name in os.fsdecode(done).split("\0") if name)


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


def replaced_blobs(root: Path, paths: Sequence[str], chunk: int = 1000) -> list[tuple[str, str, str, str]]:
    """(path, blob, the blob that replaced it, commit) for every version of `paths` a commit of
    HEAD's history modified (merges against each parent), newest first:
    whatever the history's shape (squashed, rebased, cherry-picked), the versions a path had are
    the blobs its commits replaced."""
    out: list[tuple[str, str, str, str]] = []
    for at in range(0, len(paths), chunk):
        done = git_run(["git", "-C", str(root), "log", "-z", "--format=%x01%H", "--raw", "--no-abbrev",
                        "--no-renames", "-m", "--root", "HEAD", "--", *paths[at:at + chunk]],
                       capture_output=True, check=False, env={**os.environ, **LITERAL})
        if done.returncode != 0:
            return out  # no commits yet
        fields = os.fsdecode(done.stdout).split("\0")
        commit, index = "", 0
        while index < len(fields):
            field = fields[index].lstrip("\n")
            index += 1
            if field.startswith("\x01"):
                commit = field[1:]
            elif field.startswith(":") and index < len(fields):
                meta, path = field.split(), fields[index]
                index += 1
                if len(meta) >= 5 and meta[2].strip("0") and meta[3].strip("0") and meta[0] != ":160000":
                    out.append((path, meta[2], meta[3], commit))
    return out


def blobs(root: Path, specs: list[str]) -> dict[str, bytes]:
    """The bytes of each `REV:path` of `specs` git has, read in one `git cat-file --batch`."""
    if not specs:
        return {}
    done = git_run(["git", "-C", str(root), "cat-file", "--batch"],
                   input=b"".join(os.fsencode(spec) + b"\n" for spec in specs), capture_output=True,
                   check=False)
    out: dict[str, bytes] = {}
    data, at = bytes(done.stdout), 0
    for spec in specs:
        end = data.find(b"\n", at)
        if end < 0:
            break
        header = _OBJECT.fullmatch(data[at:end])
        at = end + 1
        if header is None:
            continue  # `<spec> missing` (or ambiguous): no object follows
        size = int(header.group(2))
        if header.group(1) == b"blob":
            out[spec] = data[at:at + size]
        at += size + 1  # the object, then a newline
    return out


def worktree_lines_matching(root: Path, pattern: str) -> list[tuple[str, int, str]] | None:
    """(path, line number, line) of every line of the work tree's text files (tracked, and
    untracked ones not ignored) matching the extended regex `pattern`; None when git cannot say."""
    found = _tree_grep(root, ["-z", "-n", "-I"], pattern)
    if found is None:
        return None
    out = []
    for record in found.split(b"\n"):
        parts = record.split(b"\0", 2)  # -z: path NUL line NUL text
        if len(parts) == 3 and parts[1].isdigit():
            out.append((os.fsdecode(parts[0]), int(parts[1]), parts[2].decode("utf-8", "replace")))
    return out


def _tree_grep(root: Path, flags: list[str], pattern: str, suffixes: tuple[str, ...] = ()) -> bytes | None:
    """_walk_grep, once per scan (renamer/once.py): every forked worker asks the same."""
    return once.shared(repr(("tree grep", str(root), flags, pattern, suffixes)),
                       lambda: _walk_grep(root, flags, pattern, suffixes))


def _walk_grep(root: Path, flags: list[str], pattern: str, suffixes: tuple[str, ...]) -> bytes | None:
    """git grep's output over the files a sweep reads: tracked ones and untracked ones not
    ignored. `--untracked` alone leaves out a tracked file that a .gitignore rule covers (a
    committed `terraform.tfvars` under `*.tfvars`, a forced-in `.env`), which the sweep lists and
    rewrites all the same: those few are grepped again as tracked files, by name. PCRE where git
    has it (git's own ERE engine is about twice as slow on the indexes' alternations; the
    patterns are written in the syntax both read alike); None when git cannot answer. `suffixes`:
    only the files whose names end so."""
    work.add("tree greps")  # a walk of the whole work tree: once per scan (-vv)
    specs = [f"*{s}" for s in suffixes]
    for engine in ("-P", "-E"):
        done = git_run(["git", "-C", str(root), "grep", *flags, "--untracked", engine, "-e", pattern, "--",
                        *specs],
                       capture_output=True, check=False)
        if done.returncode in (0, 1):  # 1: found nothing
            break
    else:
        return None
    out = done.stdout
    ignored = [r for r in _tracked_ignored(root) if not suffixes or r.endswith(suffixes)]
    for start in range(0, len(ignored), 1000):
        more = git_run(["git", "-C", str(root), "grep", *flags, engine, "-e", pattern, "--",
                        *ignored[start:start + 1000]], capture_output=True, check=False,
                       env={**os.environ, **LITERAL})
        if more.returncode not in (0, 1):
            return None
        if out and more.stdout and not out.endswith((b"\0", b"\n")):
            out += b"\n"
        out += more.stdout
    return bytes(out)


def _tracked_ignored(root: Path) -> list[str]:
    """Tracked files that a .gitignore, info/exclude or core.excludesFile rule covers."""
    return once.shared(repr(("tracked ignored", str(root))), lambda: _list_tracked_ignored(root))


def _list_tracked_ignored(root: Path) -> list[str]:
    done = git_run(["git", "-C", str(root), "ls-files", "-z", "--cached", "--ignored", "--exclude-standard"],
                   capture_output=True, check=False)
    if done.returncode != 0:
        return []
    return [name for name in os.fsdecode(done.stdout).split("\0") if name]
