"""The inverse of a recorded move (`renamer undo MOVE`), built with git from the move's commits.

The move's commits are the ones whose trailers name it (`Renamer-Move: MOVE`, sweep/history.py):
the pure renames, the rewrite (with its `moved` blocks), the `.git-blame-ignore-revs` entry, the
keep rules of `sweep --interactive`. Their inverse is a 3-way revert of those commits onto HEAD
(`git merge-recursive COMMIT -- HEAD COMMIT^`, as `git revert` does it, renames followed), run in
a detached worktree of its own under a temporary folder, so nothing in the user's work tree or
index changes until the whole inverse is known. It is refused (every place named) where

* a later commit changed a line the move wrote (a conflict of the revert),
* a new value was used since in a current-state file where the move's parent did not hold it
  (undoing would leave that use dangling: it names a machine that is no longer called so), or
* an old value was used again since the move in a file the undo writes it into (two things
  would share one name).

The undo is itself a recorded move: one commit whose trailers say `Renamer-Move: undo-MOVE`,
`Renamer-Commit: undo` and `Renamer-Undoes: MOVE`. A second undo of MOVE finds nothing left; the
undo of an undo is refused (run the move again instead).
"""

from __future__ import annotations

import contextlib
import dataclasses
import difflib
import os
import posixpath
import re
import shutil
import subprocess
import tempfile
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from renamer import interrupts, lazy_re, vcs_status
from renamer.classify import EXCLUDED, RECORD
from renamer.config import Renames, matcher_of
from renamer.config_renames import read_renames
from renamer.errors import ConfigError, Interrupted, RenamerError, UnsafeError
from renamer.formats.yaml_source import Problems, load_yaml_file
from renamer.interrupts import deferred
from renamer.match import Matcher, new_values_matcher
from renamer.moved_tags import tag_line, tagged_moves, without
from renamer.near_miss import LoosePass
from renamer.paths import problem
from renamer.project import LoadedProject
from renamer.sweep.content import TEXT_LIMIT, classify_bytes
from renamer.sweep.history import BLAME_FILE
from renamer.sweep.messages import trailer_lines
from renamer.sweep.moved_files import MOVED_FILE
from renamer.vcs import RENAMES_PHASE
from renamer.vcs_command import LITERAL, CommitTimedOut, git_commit, git_error, git_run

UNDO_ROLE = "undo"
UNDOES = "Renamer-Undoes"
_TRAILER = lazy_re.compile(r"^(Renamer-[A-Za-z]+): (.*)$", re.MULTILINE)
_PLACED = lazy_re.compile(r"CONFLICT \(file location\): (.+?) added in ")
# The scratch worktree is read by git alone: Git LFS leaves its pointers there, never fetches the objects.
_SCRATCH = {"GIT_LFS_SKIP_SMUDGE": "1"}
_IDENTITY = {"GIT_AUTHOR_NAME": "renamer", "GIT_AUTHOR_EMAIL": "renamer@localhost",
             "GIT_COMMITTER_NAME": "renamer", "GIT_COMMITTER_EMAIL": "renamer@localhost"}


def undo_name(move: str) -> str:
    return f"undo-{move}"


@dataclass(frozen=True)
class Refusal:
    """One place the inverse cannot be made safely: `kind` is conflict, dangling or collision."""

    path: str
    line: int | None  # 1-based, in HEAD's version of `path`; None for a whole-file conflict
    kind: str
    message: str
    text: str = ""  # the line as it stands in HEAD (trimmed)

    def where(self) -> str:
        return f"{self.path}:{self.line}" if self.line is not None else self.path


@dataclass(frozen=True)
class MoveRun:
    """The commits of one run of a move that no later undo has undone, oldest first."""

    move: str
    config: str  # Renamer-Config: the move's renamer.yaml, repo-relative
    commits: tuple[tuple[str, str], ...]  # (sha, role)


@dataclass(frozen=True)
class UndoPlan:
    move: str
    head: str
    run: MoveRun | None  # None: nothing left to undo
    already: str | None = None  # the undo commit that undid the move already, when run is None
    tree: str | None = None  # the inverse's tree; None where refused or nothing to undo
    diff: bytes = b""  # `git diff --binary -M HEAD tree`, as `git apply` takes it
    changed: tuple[str, ...] = ()  # paths the inverse changes, as HEAD names them
    renamed: tuple[tuple[str, str], ...] = ()  # (path now, path after the undo)
    refusals: tuple[Refusal, ...] = ()
    renames: Renames | None = None  # the move's renames (old -> new)
    counts: dict[str, int] = field(default_factory=dict)  # lines removed and added
    undone: MoveRun | None = None  # with `already`: the run that undo undid
    deleted: tuple[str, ...] = ()  # files the move changed that a later commit deleted: left deleted

    @property
    def parent(self) -> str | None:
        """The commit before the move (its first commit's parent): what `--dns` applies."""
        run = self.run or self.undone
        return f"{run.commits[0][0]}^" if run else None


# ---------------------------------------------------------------- the moves the history records


@dataclass
class _Commit:
    sha: str
    move: str
    role: str
    config: str
    undoes: str | None


def _commits(root: Path, *, every_ref: bool = False) -> list[_Commit]:
    """Every commit carrying renamer's trailers, oldest first (HEAD's history, or every ref's)."""
    out = []
    for sha, _, body in reversed(vcs_status.log_bodies(root, "^Renamer-Move: ", every_ref=every_ref)):
        trailers = dict(_TRAILER.findall(body.strip().split("\n\n")[-1]))
        move = trailers.get("Renamer-Move")
        if move:
            out.append(_Commit(sha, move, trailers.get("Renamer-Commit", "?"),
                               trailers.get("Renamer-Config", "renamer.yaml"), trailers.get(UNDOES)))
    return out


def find_run(root: Path, move: str) -> tuple[MoveRun | None, str | None, MoveRun | None]:
    """The commits of `move` that no undo has undone yet; when none are left, the undo commit
    that undid them and the run it undid. Refused: an undo itself, a move recorded only off
    HEAD's history; a name the history does not record is a usage error naming the moves it does."""
    commits = _commits(root)
    if any(c.move == move and c.role == UNDO_ROLE for c in commits):
        of = next(c.undoes for c in commits if c.move == move and c.role == UNDO_ROLE)
        raise UnsafeError(f"{move} is an undo (of {of or 'a move'}): undoing an undo is refused; "
                          f"run the move again instead (renamer sweep --commit with {of or 'its'} "
                          "renamer.yaml)")
    live: list[_Commit] = []
    undone: list[_Commit] = []
    undone_by: str | None = None
    for c in commits:
        if c.role == UNDO_ROLE and c.undoes == move:
            undone = live or undone
            live, undone_by = [], c.sha
        elif c.move == move and c.role != UNDO_ROLE:
            live.append(c)
    if live:
        return _run(move, live), None, None
    if undone_by is not None:
        return None, undone_by, _run(move, undone) if undone else None
    elsewhere = [c for c in _commits(root, every_ref=True) if c.move == move]
    if elsewhere:
        branches = _branches_holding(root, elsewhere[-1].sha)
        raise UnsafeError(f"move {move}: its commits ({', '.join(c.sha[:12] for c in elsewhere)}) are not in "
                          f"HEAD's history (they are on {branches or 'another ref'}): check that branch out, "
                          "or undo it there")
    names = list(dict.fromkeys(c.move for c in commits if c.role != UNDO_ROLE))
    known = ", ".join(names) if names else "none (renamer sweep --commit records them)"
    raise ConfigError(f"move {move}: no move of that name is recorded in this history; recorded: {known}")


def _run(move: str, commits: list[_Commit]) -> MoveRun:
    return MoveRun(move, commits[0].config, tuple((c.sha, c.role) for c in commits))


def _branches_holding(root: Path, sha: str) -> str:
    done = git_run(["git", "-C", str(root), "branch", "-a", "--format=%(refname:short)", "--contains", sha],
                   capture_output=True, text=True, check=False)
    return ", ".join(done.stdout.split()) if done.returncode == 0 else ""


# ---------------------------------------------------------------- the inverse, in a worktree of its own


def _git(cwd: Path, *args: str, check: bool = True, env: dict[str, str] | None = None) -> str:
    done = git_run(["git", "-C", str(cwd), *args], capture_output=True, check=False,
                   env={**os.environ, **LITERAL, **(env or {})})
    if check and done.returncode != 0:
        why = git_error(os.fsdecode(done.stderr) + "\n" + os.fsdecode(done.stdout))
        raise RenamerError(f"git {args[0]} failed: {why}")
    return os.fsdecode(done.stdout)


@contextlib.contextmanager
def _scratch(root: Path, head: str) -> Iterator[Path]:
    """A detached worktree at `head` under a temporary folder, no hooks run; always removed."""
    folder = Path(tempfile.mkdtemp(prefix="renamer-undo-"))
    hooks = folder / "hooks"  # an empty hooks folder: no post-checkout hook of the repo runs here
    hooks.mkdir()
    tree = folder / "tree"
    try:
        _git(root, "-c", f"core.hooksPath={hooks}", "worktree", "add", "-q", "--detach", str(tree), head,
             env=_SCRATCH)
        yield tree
    finally:
        git_run(["git", "-C", str(root), "worktree", "remove", "--force", str(tree)], capture_output=True,
                check=False)
        shutil.rmtree(folder, ignore_errors=True)
        git_run(["git", "-C", str(root), "worktree", "prune"], capture_output=True, check=False)


def _segments(root: Path, commits: Sequence[tuple[str, str]]) -> list[tuple[str, str]]:
    """The move's commits as runs of consecutive commits, each (first, last), oldest first: a
    run is reverted in one 3-way merge, so every conflict of it is seen at once. A pure-renames
    commit is a run of its own: reverted after the rewrite, its renames pair at 100 % (across
    both, a small file renamed and rewritten is too unlike itself for git's rename detection,
    and a later edit of it reads as modify/delete)."""
    out: list[tuple[str, str]] = []
    alone = False
    for sha, role in commits:
        joins = out and not alone and role != "renames"
        if joins and _git(root, "rev-parse", f"{sha}^").strip() == out[-1][1]:
            out[-1] = (out[-1][0], sha)
        else:
            out.append((sha, sha))
        alone = role == "renames"
    return out


def _revert(root: Path, tree: Path, run: MoveRun,
            deleted: list[str] | None = None) -> tuple[str | None, list[Refusal]]:
    """Revert the run's commits, newest first, in the scratch worktree: the tree made, or the
    conflicts of the first part that does not revert cleanly. A file the move changed that a later
    commit deleted stays deleted (nothing of it to restore or lose: t25-34 finding 17), named in
    `deleted`; one renamed since is still refused."""
    hooks = tree.parent / "hooks"
    for first, last in reversed(_segments(root, run.commits)):
        done = git_run(["git", "-C", str(tree), "-c", "merge.conflictStyle=diff3", "-c",
                        f"core.hooksPath={hooks}", "merge-recursive", last, "--", "HEAD", f"{first}^"],
                       capture_output=True, check=False, env={**os.environ, **LITERAL, **_SCRATCH})
        unmerged = _unmerged(tree)
        resolved = _added_items_only(tree, unmerged)  # a keep rule of the move's beside one added since
        resolved += _moved_files_less_ours(tree, unmerged, run.move)  # a later move's blocks beside its own
        gone = _deleted_since(os.fsdecode(done.stdout), unmerged)
        for path in gone:
            _git(tree, "rm", "-q", "--cached", "--", path)
            (tree / path).unlink(missing_ok=True)
        if deleted is not None:
            deleted += [p for p in gone if p not in deleted]
        resolved += gone
        if resolved:
            unmerged = _unmerged(tree)
            stated = [line for line in os.fsdecode(done.stdout).splitlines() if line.startswith("CONFLICT")]
            if (done.returncode == 1 and not unmerged
                    and all(any(path in line for path in resolved) for line in stated)):
                done = subprocess.CompletedProcess(done.args, 0, done.stdout, done.stderr)
        if BLAME_FILE in unmerged:  # the lines a later move appended after this one's: not this move's
            _resolve_blame_file(root, tree, run, unmerged[BLAME_FILE])
            left = _unmerged(tree)
            if not left and set(unmerged) == {BLAME_FILE}:
                done = subprocess.CompletedProcess(done.args, 0, done.stdout, done.stderr)
            unmerged = left
        if unmerged and _merge_by_line(tree, unmerged, os.fsdecode(done.stdout)):
            done = subprocess.CompletedProcess(done.args, 0, done.stdout, done.stderr)
            unmerged = {}
        if done.returncode == 1 or unmerged:
            return None, _conflicts(tree, os.fsdecode(done.stdout), run.move)
        if done.returncode != 0:
            raise RenamerError(f"git merge-recursive failed: {git_error(os.fsdecode(done.stderr))}")
        made = _git(tree, "write-tree").strip()
        commit = _git(tree, "commit-tree", made, "-p", "HEAD", "-m", "renamer undo (scratch)",
                      env=_IDENTITY).strip()
        _git(tree, "update-ref", "--no-deref", "HEAD", commit)
    return _git(tree, "rev-parse", "HEAD^{tree}").strip(), []


def _merge_by_line(tree: Path, unmerged: dict[str, set[int]], said: str) -> bool:
    """git's 3-way merge takes a later edit on the line beside one the move rewrote for a
    conflict. Where every conflict of this part is such a content conflict (base, HEAD's and the
    move's parent's versions all there) and the two sides changed different lines, each file is
    merged line by line (`_line_merge`), staged, and True is returned; else nothing is touched:
    a line both sides changed, an edit inside a block the other replaced, a removed or renamed
    file, stays a conflict."""
    if any(have != {1, 2, 3} for have in unmerged.values()):
        return False
    stated = [line for line in said.splitlines() if line.startswith("CONFLICT")]
    if any("(content)" not in line or not any(path in line for path in unmerged) for line in stated):
        return False
    merged: dict[str, bytes] = {}
    for path in unmerged:
        sides = [vcs_status.show(tree, f":{stage}:{path}") for stage in (1, 2, 3)]
        if any(side is None or b"\0" in side for side in sides):
            return False
        base, ours, theirs = (side.splitlines(keepends=True) for side in sides if side is not None)
        result = _line_merge(base, ours, theirs)
        if result is None:
            return False
        merged[path] = result
    for path, data in merged.items():
        (tree / path).write_bytes(data)
        _git(tree, "add", "--", path)
    return True


_Change = tuple[int, int, tuple[bytes, ...], int, int]  # base lines i1:i2 become `lines` (the side's j1:j2)


def _line_changes(base: list[bytes], other: list[bytes]) -> list[_Change]:
    """The changes from `base` to `other`; a block replaced by as many lines, line by line (each
    line its own change: a neighbour's edit is then told apart from a rewritten line's)."""
    matcher = difflib.SequenceMatcher(None, base, other, autojunk=False)
    out: list[_Change] = []
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "replace" and i2 - i1 == j2 - j1:
            out += [(i1 + k, i1 + k + 1, (other[j1 + k],), j1 + k, j1 + k + 1) for k in range(i2 - i1)
                    if base[i1 + k] != other[j1 + k]]
        elif tag != "equal":
            out.append((i1, i2, tuple(other[j1:j2]), j1, j2))
    return out


def _clash(a: _Change, b: _Change) -> bool:
    """Do two changes of one base touch the same line (or insert where the other replaces)?"""
    i1, i2, k1, k2 = a[0], a[1], b[0], b[1]
    return (i1 < k2 and k1 < i2) or (i1 == i2 == k1 == k2) or (i1 == i2 and k1 < i1 < k2) \
        or (k1 == k2 and i1 < k1 < i2)


def _line_sides(base: list[bytes], ours: list[bytes],
                theirs: list[bytes]) -> tuple[list[_Change], list[_Change]]:
    """HEAD's changes and the move's parent's changes to `base`, one made alike by both left out."""
    mine, other = _line_changes(base, ours), _line_changes(base, theirs)
    alike = {c[:3] for c in mine} & {c[:3] for c in other}
    return mine, [c for c in other if c[:3] not in alike]


def _line_merge(base: list[bytes], ours: list[bytes], theirs: list[bytes]) -> bytes | None:
    """Both sides' changes to `base`, where they touch different lines (a change beside another is
    fine); None where a line, or the place of an insertion, is changed by both differently."""
    mine, other = _line_sides(base, ours, theirs)
    if any(_clash(a, b) for a in mine for b in other):
        return None
    out: list[bytes] = []
    at = 0
    for i1, i2, lines, _, _ in sorted([*mine, *other], key=lambda c: (c[0], c[1])):
        out += base[at:i1]
        out += lines
        at = i2
    out += base[at:]
    return b"".join(out)


def _real_conflicts(tree: Path, path: str) -> list[tuple[int, str]]:
    """HEAD's lines (1-based, and the line) that a later commit changed where the undo changes the
    same lines: the real conflicts of a content conflict, an edit beside them left out."""
    sides = [vcs_status.show(tree, f":{stage}:{path}") for stage in (1, 2, 3)]
    if any(side is None or b"\0" in side for side in sides):
        return []
    base, ours, theirs = (side.splitlines(keepends=True) for side in sides if side is not None)
    mine, other = _line_sides(base, ours, theirs)
    out: list[tuple[int, str]] = []
    for change in mine:
        if any(_clash(change, b) for b in other):
            j1, j2 = change[3], change[4]
            out += ([(j, _shown(ours[j - 1])) for j in range(j1 + 1, j2 + 1)] if j2 > j1
                    else [(j1 + 1, "(lines removed by a later commit)")])
    return out


_ITEM = lazy_re.compile(rb"^([ \t]*)- name:[ \t]*['\"]?([^'\"\r\n#]+?)['\"]?[ \t]*\r?$", re.M)


def _items(text: bytes) -> dict[str, tuple[int, int]]:
    """Each YAML list item that starts with `- name: X`, by name: its byte span (its lines, up to the
    next line as little indented or less)."""
    out: dict[str, tuple[int, int]] = {}
    for m in _ITEM.finditer(text):
        indent = len(m.group(1))
        end = text.find(b"\n", m.end())
        end = len(text) if end < 0 else end + 1
        while end < len(text):
            stop = text.find(b"\n", end)
            line = text[end:len(text) if stop < 0 else stop + 1]
            stripped = line.lstrip(b" \t")
            if stripped.strip() and len(line) - len(stripped) <= indent:
                break
            end = len(text) if stop < 0 else stop + 1
        out.setdefault(m.group(2).decode("utf-8", "replace").strip(), (m.start(), end))
    return out


_KEY = re.compile(rb"^[A-Za-z_][\w-]*:[ \t]*\r?\n(?![ \t]|-)", re.M)  # a top-level key with nothing under it


def _without(text: bytes, names: set[str]) -> bytes:
    """`text` less the named items, and less a top-level key (`keep:`) left with nothing under it
    by their removal (one empty before is kept)."""
    empty = {m.group() for m in _KEY.finditer(text)}
    spans = sorted(span for name, span in _items(text).items() if name in names)
    for start, end in reversed(spans):
        text = text[:start] + text[end:]
    for m in reversed(list(_KEY.finditer(text))):
        if m.group() not in empty:
            text = text[:m.start()] + text[m.end():]
    return text


def _added_items_only(tree: Path, unmerged: dict[str, set[int]]) -> list[str]:
    """The unmerged YAML files (allow.yaml) where the move did nothing but add named list items
    (the keep rules of its `sweep --interactive`): HEAD's version less those items, by name, is
    the revert; an item the user added since beside them is kept (t25-34 finding 13). Resolved in
    the scratch worktree; the paths so resolved."""
    out = []
    for path, have in sorted(unmerged.items()):
        if have != {1, 2, 3} or not path.endswith((".yaml", ".yml")):
            continue
        base, ours, theirs = (_stage(tree, n, path) for n in (1, 2, 3))
        if base is None or ours is None or theirs is None:
            continue
        added = set(_items(base)) - set(_items(theirs))
        if not added or _without(base, added) != theirs:
            continue  # the move changed more than adding named items: a conflict as before
        (tree / path).write_bytes(_without(ours, added))
        _git(tree, "add", "--", path)
        out.append(path)
    return out


def _moved_files_less_ours(tree: Path, unmerged: dict[str, set[int]], move: str) -> list[str]:
    """The unmerged `moved.tf` files where the move did nothing but add its own tagged blocks, and a
    later move appended its blocks since (or `audit --prune` took them out): HEAD's version less this
    move's tagged blocks is the revert; the undo's inverse blocks are added after
    (`_with_inverse_blocks`). Removed where nothing is left and the move's parent had no such file.
    A move that changed more there (a hand block's label) stays a conflict (t26-32, finding 12).
    Resolved in the scratch worktree; the paths so resolved."""
    out = []
    for path, have in sorted(unmerged.items()):
        if posixpath.basename(path) != MOVED_FILE or 2 not in have or 1 not in have:
            continue
        base, ours = _stage(tree, 1, path), _stage(tree, 2, path)
        theirs = _stage(tree, 3, path) if 3 in have else None
        if base is None or ours is None or (3 in have and theirs is None):
            continue
        if not any(m.name == move for m in tagged_moves(path, ours)):
            continue  # pruned since: no block to invert (`_moved_file_conflicts` says so)
        before = _less_blocks(path, base, move)
        if before != theirs and not (theirs is None and not before.strip()):
            continue  # the move changed more than adding its blocks: a conflict as before
        left = _less_blocks(path, ours, move)
        if theirs is None and not left.strip():
            _git(tree, "rm", "-q", "--cached", "--", path)
            (tree / path).unlink(missing_ok=True)
        else:
            (tree / path).write_bytes(left)
            _git(tree, "add", "--", path)
        out.append(path)
    return out


def _less_blocks(path: str, data: bytes, move: str) -> bytes:
    """`data` without the tagged `moved` blocks of `move` (from the last: the spans stay valid)."""
    for tagged in reversed([m for m in tagged_moves(path, data) if m.name == move]):
        data = without(data, tagged)
        if tagged.start == 0:  # the file's first block: the blank line before the next one goes too
            data = data[2:] if data.startswith(b"\r\n") else data[1:] if data.startswith(b"\n") else data
    return data


def _stage(tree: Path, stage: int, path: str) -> bytes | None:
    done = git_run(["git", "-C", str(tree), "show", f":{stage}:{path}"], capture_output=True, check=False)
    return done.stdout if done.returncode == 0 else None


def _deleted_since(said: str, unmerged: dict[str, set[int]]) -> list[str]:
    """The unmerged paths HEAD has not (stage 2 missing) whose conflict git states as a modify/delete
    with the deletion in HEAD: a later commit deleted the file (not renamed it: git then names
    the rename, or a rename/delete)."""
    out = []
    for path, have in sorted(unmerged.items()):
        if 2 in have:
            continue
        line = _said(said, path) or ""
        if line.startswith("CONFLICT (modify/delete)") and f"{path} deleted in HEAD" in line:
            out.append(path)
    return out


def _unmerged(tree: Path) -> dict[str, set[int]]:
    """Each path git left unmerged in the scratch worktree, with the stages it has (1 base, 2 HEAD,
    3 the move's parent)."""
    stages: dict[str, set[int]] = {}
    for entry in _git(tree, "ls-files", "-u", "-z").split("\0"):
        if entry:
            info, path = entry.split("\t", 1)
            stages.setdefault(path, set()).add(int(info.split()[2]))
    return stages


def _resolve_blame_file(root: Path, tree: Path, run: MoveRun, stages: set[int]) -> None:
    """`.git-blame-ignore-revs` as HEAD has it, less the lines the move's commits added (its comment
    and its rewrite's sha): a later move appends its own right after them, which git's revert
    takes for a conflict. Removed where nothing is left and the move's parent had no such file."""
    added: Counter[bytes] = Counter()
    for sha, _ in run.commits:
        after = vcs_status.show(root, f"{sha}:{BLAME_FILE}")
        if after is not None:
            before = vcs_status.show(root, f"{sha}^:{BLAME_FILE}") or b""
            added += (Counter(line.rstrip(b"\r\n") for line in after.splitlines())
                      - Counter(line.rstrip(b"\r\n") for line in before.splitlines()))
    ours = vcs_status.show(tree, f":2:{BLAME_FILE}") or b"" if 2 in stages else b""
    kept = []
    for line in ours.splitlines(keepends=True):
        if added[line.rstrip(b"\r\n")] > 0:
            added[line.rstrip(b"\r\n")] -= 1
        else:
            kept.append(line)
    path = tree / BLAME_FILE
    if not kept and 3 not in stages:
        path.unlink(missing_ok=True)
        _git(tree, "rm", "-q", "--cached", "--", BLAME_FILE)
        return
    path.write_bytes(b"".join(kept))
    _git(tree, "add", "--", BLAME_FILE)


def _conflicts(tree: Path, said: str, move: str) -> list[Refusal]:
    stages = _unmerged(tree)
    out: list[Refusal] = []
    for path in sorted(stages):
        have = stages[path]
        if have >= {2, 3}:
            places = (_real_conflicts(tree, path) if 1 in have else []) or _conflict_lines(tree, path)
            if places:
                out += [Refusal(path, line, "conflict", "a later commit changed this line, on or beside a "
                                f"line {move} rewrote: the undo would overwrite that change", text)
                        for line, text in places]
                continue
            out.append(Refusal(path, None, "conflict", f"a later commit changed this file where {move} "
                               "changed it (the revert cannot be made line by line)"))
        elif 2 not in have:
            out.append(Refusal(path, None, "conflict", f"removed or renamed by a later commit after {move} "
                               "changed it: the undo has nothing to change back"))
        else:
            told = _said(said, path) or ""
            placed = _PLACED.match(told)
            if placed:  # git's directory rename detection: a file added since in a folder the move renamed
                out.append(Refusal(placed.group(1), None, "conflict", "added by a later commit inside a "
                                   f"folder {move} renamed: the undo renames that folder back, and where "
                                   f"this file goes is for you to decide (git suggests {path}): move or "
                                   "remove it first, or keep the move"))
                continue
            out.append(Refusal(path, None, "conflict", f"changed by a later commit where the undo would "
                               f"remove or rename it ({told or 'git: conflict'})"))
    out = _moved_file_conflicts(tree, out, move)
    known = set(stages)
    for line in said.splitlines():  # a conflict git states without leaving an unmerged path
        if line.startswith("CONFLICT") and not any(path in line for path in known):
            out.append(Refusal("?", None, "conflict", line.strip()))
    return out


def _moved_file_conflicts(tree: Path, refusals: list[Refusal], move: str) -> list[Refusal]:
    """A module's `moved.tf` that a later move appended its blocks to, or that `audit --prune`
    emptied since, said in renamer's words, once per file, instead of git's conflict (break-it
    t26-32, finding 12: "CONFLICT (modify/delete): moved.tf deleted in ...")."""
    out: list[Refusal] = []
    done: set[str] = set()
    for refusal in refusals:
        path = refusal.path
        if posixpath.basename(path) != MOVED_FILE:
            out.append(refusal)
            continue
        if path in done:
            continue
        done.add(path)
        head = vcs_status.show(tree, f"HEAD:{path}") or b""
        later = sorted({m.name for m in tagged_moves(path, head) if m.name != move})
        if later:
            names = ", ".join(later)
            why = (f"holds the `moved` blocks of a later move ({names}) beside those {move} wrote: the "
                   f"undo cannot take its own out of the shared file yet; undo {names} first, or revert "
                   f"{move} by hand with an inverse `moved` block")
        elif not any(m.name == move for m in tagged_moves(path, head)):
            why = (f"no longer holds the `moved` blocks {move} wrote (`audit --prune` or a hand edit took "
                   "them out since): the undo cannot revert the file; rename the labels back by hand and "
                   "add the inverse `moved` block")
        else:
            out.append(refusal)
            continue
        out.append(Refusal(path, None, "conflict", why))
    return out


def _said(said: str, path: str) -> str | None:
    return next((line.strip() for line in said.splitlines() if line.startswith("CONFLICT") and path in line),
                None)


def _conflict_lines(tree: Path, path: str) -> list[tuple[int, str]]:
    """Each HEAD line inside a conflict of `path` (its 1-based number in HEAD's version, and
    the line); a conflict where HEAD's side is empty is named by the line after it."""
    try:
        merged = (tree / path).read_bytes().splitlines(keepends=True)
    except OSError:
        return []
    head = (vcs_status.show(tree, f":2:{path}") or b"").splitlines(keepends=True)  # HEAD's, as staged
    resolved: list[bytes] = []  # the merge with every conflict taken as HEAD has it
    # spans of `resolved` that are HEAD's side of a conflict, with the move's lines there (diff3's base)
    marked: list[tuple[int, int, Counter[bytes]]] = []
    state, start, base = None, 0, Counter[bytes]()
    for line in merged:
        bare = line.rstrip(b"\r\n")
        if line.startswith(b"<<<<<<< ") and state is None:
            state, start, base = "ours", len(resolved), Counter()
        elif line.startswith(b"||||||| ") and state == "ours":
            state = "base"
        elif bare == b"=======" and state in ("ours", "base"):
            marked.append((start, len(resolved), base))
            state = "theirs"
        elif line.startswith(b">>>>>>> ") and state == "theirs":
            state = None
        elif state == "base":
            base[line] += 1
        elif state != "theirs":
            resolved.append(line)
    matcher = difflib.SequenceMatcher(None, resolved, head, autojunk=False)
    where: dict[int, int] = {}
    for a, b, size in matcher.get_matching_blocks():
        for k in range(size):
            where[a + k] = b + k
    out: list[tuple[int, str]] = []
    for start, end, wrote in marked:
        indices = [where[i] for i in range(start, end) if i in where]
        if not indices:  # HEAD removed the lines: name the line after
            after = next((where[i] for i in range(end, len(resolved)) if i in where), len(head))
            out.append((after + 1, "(lines removed by a later commit)"))
            continue
        # the lines a later commit changed: HEAD's lines of the conflict that the move did not write so
        changed = []
        for i in indices:
            if wrote[head[i]] > 0:
                wrote[head[i]] -= 1
            else:
                changed.append(i)
        out += [(i + 1, _shown(head[i])) for i in changed or indices]
    return out


def _shown(line: bytes) -> str:
    text = line.decode("utf-8", "replace").strip()
    return text if len(text) <= 120 else text[:117] + "..."


# ---------------------------------------------------------------- the checks on the inverse


def move_renames(root: Path, run: MoveRun) -> Renames:
    """The renames of the move's renamer.yaml as its last commit has it (a later move may have
    changed the file), read with file, line and key as `load_config` reads them."""
    last = run.commits[-1][0]
    data = vcs_status.show(root, f"{last}:{run.config}")
    if data is None:
        raise ConfigError(f"{run.config}: not in the move's commit {last[:12]}: its renames cannot be read")
    folder = Path(tempfile.mkdtemp(prefix="renamer-undo-config-"))
    try:
        path = folder / "renamer.yaml"
        path.write_bytes(data)
        display = f"{run.config} (at {last[:12]})"
        top = load_yaml_file(path, display)
        problems = Problems(display)
        if not isinstance(top, dict):
            raise ConfigError(f"{display}: expected a mapping with `renames:`")
        renames = read_renames(top, problems)
        problems.raise_if_any()
        return renames
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _move_changes(root: Path, run: MoveRun) -> list[tuple[str, str, str, str]]:
    """Each file the move's commits changed: (sha, role, path before, path after)."""
    changes: list[tuple[str, str, str, str]] = []
    for sha, role in run.commits:
        listed = _git(root, "-c", "core.quotePath=false", "diff-tree", "-r", "-M", "--no-commit-id",
                      "--name-status", "-z", f"{sha}^", sha)
        fields = [f for f in listed.split("\0") if f]
        i = 0
        while i < len(fields):
            status = fields[i]
            if status[0] in "RC":
                changes.append((sha, role, fields[i + 1], fields[i + 2]))
                i += 3
            else:
                changes.append((sha, role, fields[i + 1], fields[i + 1]))
                i += 2
    return changes


def _renamed_back(root: Path, run: MoveRun, head: str, tree: str,
                  seen: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """`seen` (git's rename detection of HEAD -> the inverse) plus each rename of the move's own
    commits that the inverse takes back, which git misses where a small file's content changed too."""
    out = list(seen)
    now, after = set(_tree_paths(root, head)), set(_tree_paths(root, tree))
    for _, _, before, moved in _move_changes(root, run):
        if (before != moved and moved in now and moved not in after and before in after and before not in now
                and (moved, before) not in out):
            out.append((moved, before))
    return out


def unexplained(root: Path, run: MoveRun, renames: Renames) -> list[Refusal]:
    """The files the move's commits changed that the move does not explain: neither its path nor
    its content (before or after) holds an old or a new value of the move, and it is not the
    `.git-blame-ignore-revs` file. An unrelated change amended into a move commit: reverting the
    commit would revert it too, so the undo is refused naming it."""
    values = Matcher([(v, v) for pair in renames.hosts for v in pair],
                     [(v, v) for pair in renames.addresses for v in pair],
                     [(net, net) for pair in renames.networks for net in pair])
    loose = _needles(renames)  # what a line of the sweep's own edits holds, in any case and spelling
    changes = _move_changes(root, run)
    specs = [spec for sha, _, before, after in changes for spec in (f"{sha}^:{before}", f"{sha}:{after}")]
    data = vcs_status.blobs(root, specs)
    out = []
    for sha, role, before, after in changes:
        if BLAME_FILE in (before, after):
            continue
        if any(values.find(p.encode("utf-8", "surrogateescape")) for p in {before, after}) or any(
                values.find(data.get(spec) or b"") for spec in (f"{sha}^:{before}", f"{sha}:{after}")):
            was, now = data.get(f"{sha}^:{before}"), data.get(f"{sha}:{after}")
            if role in _SWEPT_ROLES and was is not None and now is not None:
                out += _unexplained_lines(loose, was, now, after, sha, role, run.move)
            continue
        # a module's moved.tf holding the move's own tagged blocks (its addresses are no host names)
        written = data.get(f"{sha}:{after}") or b""
        if after.endswith(".tf") and any(m.name == run.move for m in tagged_moves(after, written)):
            continue
        out.append(Refusal(after, None, "unexplained",
                           f"changed by {run.move}'s {role} commit {sha[:12]}, but neither its path nor its "
                           f"content holds a name or address {run.move} renames: not the move's work "
                           "(amended into its commit?); undoing the commit would revert it too: put it in a "
                           "commit of its own first, or revert the move by hand"))
    return out


_SWEPT_ROLES = ("renames", "rewrite", "blame-ignore")  # the sweep's edits only (not `decisions`)
_DIGITS = lazy_re.compile(rb"[0-9]+")
_BLANKS = lazy_re.compile(rb"[ \t]+")


def _needles(renames: Renames) -> tuple[bytes, ...]:
    """The move's values as plain lower-case substrings, loosely: each name also with `_` for `-`
    and by its first label, each network by its leading octets (or groups). A line of the move's
    commit holding one is the sweep's work, however the sweep found it there (a Terraform address
    `terraform_data.fv-ml1.input`, `FV_ML1`, an address inside a moved network)."""
    out: set[str] = set()
    for pair in renames.hosts:
        for value in pair:
            low = value.lower()
            out |= {low, low.replace("-", "_"), low.split(".", 1)[0], low.split(".", 1)[0].replace("-", "_")}
    out |= {value.lower() for pair in renames.addresses for value in pair}
    out |= {".".join(reversed(value.split("."))) + ".in-addr.arpa"  # a PTR's owner
            for pair in renames.addresses for value in pair if ":" not in value}
    for nets in renames.networks:
        for net in nets:
            if net.version == 4:
                octets = str(net.network_address).split(".")[:max(1, net.prefixlen // 8)]
                out.add(".".join(octets) + ".")
                out.add(".".join(reversed(octets)) + ".in-addr.arpa")  # a reverse zone's name
            else:
                out.add(net.network_address.exploded[:max(4, net.prefixlen // 4 + net.prefixlen // 16)]
                        .lower().rstrip(":"))
                out.add(str(net.network_address).lower().rstrip(":"))
    return tuple(sorted(v.encode() for v in out if len(v) >= 2))


def _unexplained_lines(values: tuple[bytes, ...], was: bytes, now: bytes, path: str, sha: str, role: str,
                       move: str) -> list[Refusal]:
    """The lines of a file the move's commit changed that the move does not explain, though the
    file holds its values (an edit amended into a move commit, inside a file it rewrote): a line
    replaced where neither side holds a value (nor differs from the other only in its digits: a
    zone's serial), or a block added or removed where no line holds one. Each named by its line
    in the commit's version."""
    if b"\0" in was or b"\0" in now:
        return []
    before, after = was.splitlines(keepends=True), now.splitlines(keepends=True)
    out = []
    for i1, i2, lines, j1, j2 in _line_changes(before, after):
        old_lines = before[i1:i2]
        if i2 - i1 == 1 and j2 - j1 == 1 and _DIGITS.sub(b"0", old_lines[0]) == _DIGITS.sub(b"0", lines[0]):
            continue  # a number moved on (a zone's SOA serial)
        if any(value in line.lower() for line in [*old_lines, *lines] for value in values):
            continue
        if i2 - i1 == j2 - j1 and all(_BLANKS.sub(b"", a) == _BLANKS.sub(b"", b)
                                      for a, b in zip(old_lines, lines, strict=True)):
            continue  # blanks alone: terraform fmt's alignment the move kept (sweep/hcl_align.py)
        number = j1 + 1 if j2 > j1 else min(j1 + 1, max(len(after), 1))
        shown = _shown(lines[0]) if lines else _shown(old_lines[0]) + " (removed)"
        out.append(Refusal(path, number, "unexplained",
                           f"changed by {move}'s {role} commit {sha[:12]} on a line that holds no name or "
                           f"address {move} renames: not the move's work (amended into its commit?); "
                           "undoing the commit would revert it too: put it in a commit of its own first, or "
                           "revert the move by hand", shown))
    return out


def _old_values_matcher(renames: Renames) -> Matcher:
    return Matcher([(old, old) for old, _ in renames.hosts], [(old, old) for old, _ in renames.addresses],
                   [(old, old) for old, _ in renames.networks])


def _held(matcher: Matcher, data: bytes | None) -> Counter[str]:
    if not data:
        return Counter()
    return Counter(data[m.start:m.end].decode("utf-8", "replace") for m in matcher.find(data))


def _lines_holding(matcher: Matcher, data: bytes, values: set[str]) -> list[tuple[int, bytes]]:
    """(1-based line, line) of each line of `data` holding one of `values`."""
    out = []
    for number, line in enumerate(data.splitlines(keepends=True), 1):
        if any(data_value in values for data_value in _held(matcher, line)):
            out.append((number, line))
    return out


def _new_lines(matcher: Matcher, now: bytes, before: bytes | None,
               values: set[str]) -> list[tuple[int, bytes]]:
    """Lines of `now` holding one of `values` beyond those `before` held (a multiset of lines)."""
    had = Counter(line for _, line in _lines_holding(matcher, before or b"", values))
    out = []
    for number, line in _lines_holding(matcher, now, values):
        if had[line] > 0:
            had[line] -= 1
        else:
            out.append((number, line))
    return out


def _tree_of(root: Path, rev: str) -> str:
    return _git(root, "rev-parse", f"{rev}^{{tree}}").strip()


def _tree_paths(root: Path, rev: str) -> list[str]:
    return [p for p in _git(root, "ls-tree", "-r", "-z", "--name-only", rev).split("\0") if p]


def _renamed(root: Path, head: str, tree: str) -> tuple[list[str], list[tuple[str, str]]]:
    """The paths the inverse changes (HEAD's names) and the renames it makes (now, after)."""
    out = _git(root, "-c", "core.quotePath=false", "diff", "--name-status", "-z", "-M", head, tree)
    fields = [f for f in out.split("\0") if f != ""]
    changed: list[str] = []
    renamed: list[tuple[str, str]] = []
    i = 0
    while i < len(fields):
        status = fields[i]
        if status[0] in "RC":
            changed.append(fields[i + 1])
            renamed.append((fields[i + 1], fields[i + 2]))
            i += 3
        else:
            changed.append(fields[i + 1])
            i += 2
    return changed, renamed


def _wide_texts(root: Path, rev: str) -> dict[str, bytes]:
    """The files of `rev`'s tree that git takes for binary (`git grep -I` skips them) but the
    sweep reads as text, UTF-16 or UTF-32 (sweep/content.classify_bytes), each as the sweep
    scans it: transcoded to UTF-8 (the lines are the same lines)."""
    sized = []
    for entry in _git(root, "ls-tree", "-r", "-z", "-l", rev).split("\0"):
        meta, _, path = entry.partition("\t")
        words = meta.split()
        if (len(words) == 4 and words[1] == "blob" and words[0] in ("100644", "100755")
                and words[3].isdigit() and 0 < int(words[3]) <= TEXT_LIMIT):
            sized.append(path)
    prefix = f"{rev}:"
    texts = {name[len(prefix):] if name.startswith(prefix) else name
             for name in _git(root, "grep", "-z", "-l", "-I", "-e", "", rev, "--", check=False).split("\0")}
    binary = [path for path in sized if path not in texts]
    data = vcs_status.blobs(root, [f"{rev}:{path}" for path in binary])
    out = {}
    for path in binary:
        content = classify_bytes(data.get(f"{rev}:{path}", b""))
        if content.kind == "text" and content.codec:
            out[path] = content.data
    return out


def _scanned(data: dict[str, bytes]) -> dict[str, bytes]:
    """Each version as the sweep scans it: wide text (UTF-16/32) as UTF-8, the rest as it is."""
    out = {}
    for spec, raw in data.items():
        content = classify_bytes(raw) if b"\0" in raw[:8000] else None
        out[spec] = content.data if content is not None and content.kind == "text" and content.codec else raw
    return out


def _checks(project: LoadedProject, root: Path, run: MoveRun, head: str, tree: str,
            renames: Renames) -> list[Refusal]:
    """Dangling new values and old values used again, where the inverse would leave or meet them."""
    parent = f"{run.commits[0][0]}^"
    last = run.commits[-1][0]
    changed, renamed = _renamed(root, head, tree)
    back = {after: now for now, after in renamed}  # the undo's path -> HEAD's path
    news = new_values_matcher(renames.hosts, renames.addresses, [new for _, new in renames.networks])
    olds = _old_values_matcher(renames)
    out: list[Refusal] = []
    needles = [new for _, new in renames.hosts + renames.addresses]
    needles += [str(new.network_address).rsplit(".", 1)[0] for _, new in renames.networks]
    candidates = sorted({p for needle in needles for p in vcs_status.files_holding(root, tree, needle) or ()}
                        | {p for p, text in _wide_texts(root, tree).items() if news.find(text)})  # UTF-16 too
    candidates = [p for p in candidates  # history keeps the name it was written with
                  if project.classifier.classify(p).status not in (RECORD, EXCLUDED)]
    after_of = dict(renamed)
    specs = [f"{rev}:{path}" for path in candidates for rev in (tree, parent)]
    specs += [f"{head}:{back.get(path, path)}" for path in candidates]
    specs += [f"{rev}:{path}" for path in changed for rev in (head, last)]
    specs += [f"{tree}:{after_of.get(path, path)}" for path in changed]
    data = _scanned(vcs_status.blobs(root, specs))  # one `git cat-file --batch`; read as the sweep reads
    for path in candidates:  # a new value the inverse leaves where the move's parent had none
        now = data.get(f"{tree}:{path}", b"")
        before = data.get(f"{parent}:{path}")
        values = {v for v, n in _held(news, now).items() if n > _held(news, before)[v]}
        if not values:
            continue
        head_path = back.get(path, path)
        head_data = data.get(f"{head}:{head_path}", b"")
        exempt = _exempt(project, head_path, head_data)
        for _, line in _new_lines(news, now, before, values):
            number = _line_in(head_data, line)
            if number is not None and number - 1 in exempt:
                continue
            out.append(Refusal(head_path, number, "dangling",
                               f"{', '.join(sorted(v for v in values if v.encode() in line))} is used here "
                               f"since {run.move}; the undo would leave it naming what is no longer "
                               "called so: change it back first, or keep the move", _shown(line)))
    links = [e.split("\t", 1)[1] for e in _git(root, "ls-tree", "-r", "-z", tree).split("\0")
             if e.startswith("120000 ")]
    targets = vcs_status.blobs(root, [f"{rev}:{link}" for link in links for rev in (tree, parent)])
    for link in links:  # a link whose target names a new value since the move (git grep reads no targets)
        target = targets.get(f"{tree}:{link}", b"")
        was = targets.get(f"{parent}:{link}", b"")
        aimed = {target[m.start:m.end].decode("utf-8", "replace") for m in news.find(target)}
        if not aimed or aimed <= {was[m.start:m.end].decode("utf-8", "replace") for m in news.find(was)}:
            continue
        if project.classifier.classify(link).status in (RECORD, EXCLUDED):
            continue
        out.append(Refusal(back.get(link, link), None, "dangling",
                           f"a link whose target names {', '.join(sorted(aimed))} "
                           f"({target.decode('utf-8', 'replace')}), made since {run.move}: the undo would "
                           "leave it pointing at what is no longer called so: re-point or remove it first, "
                           "or keep the move"))
    had = set(_tree_paths(root, parent))
    for path in _tree_paths(root, tree):  # a path naming a new value, added since the move
        if path in had or not news.find(path.encode("utf-8", "surrogateescape")):
            continue
        if project.classifier.classify(path).status in (RECORD, EXCLUDED):
            continue
        named = sorted({path.encode("utf-8", "surrogateescape")[m.start:m.end].decode("utf-8", "replace")
                        for m in news.find(path.encode("utf-8", "surrogateescape"))})
        out.append(Refusal(back.get(path, path), None, "dangling",
                           f"its path names {', '.join(named)}, and it was added since {run.move}: the undo "
                           "would leave it named for what is no longer called so: rename or remove it first, "
                           "or keep the move"))
    # an old value used again since the move: where the undo writes it back, or anywhere else in a
    # current-state file (the freed address given to another box: two would hold it after the undo)
    written_back: set[str] = set()
    for path in changed:
        undone = data.get(f"{tree}:{after_of.get(path, path)}")
        if undone is not None:
            written_back |= {v for v, n in _held(olds, undone).items()
                             if n > _held(olds, data.get(f"{head}:{path}"))[v]}
    holding = {p for value in written_back for p in vcs_status.files_holding(root, head, value) or ()}
    if written_back:  # a UTF-16 file git grep takes for binary, read as the sweep reads it
        holding |= {p for p, text in _wide_texts(root, head).items() if set(_held(olds, text)) & written_back}
    elsewhere = sorted(p for p in holding - set(changed)
                       if project.classifier.classify(p).status not in (RECORD, EXCLUDED))
    more = _scanned(vcs_status.blobs(root, [f"{rev}:{p}" for p in elsewhere for rev in (head, last)]))
    for path in [*changed, *elsewhere]:
        current = data.get(f"{head}:{path}", more.get(f"{head}:{path}"))
        if current is None:
            continue
        moved = data.get(f"{last}:{path}", more.get(f"{last}:{path}"))
        if path in changed:
            undone = data.get(f"{tree}:{after_of.get(path, path)}")
            if undone is None:
                continue
            written = {v for v, n in _held(olds, undone).items() if n > _held(olds, current)[v]}
            where = "the undo writes it back into this file"
        else:
            written = written_back
            where = "the undo writes it back elsewhere"
        again = {v for v in written if _held(olds, current)[v] > _held(olds, moved)[v]}
        if not again:
            continue
        exempt = _exempt(project, path, current)  # a line kept on purpose (a dated section, a keep rule)
        for number, line in _new_lines(olds, current, moved, again):
            if number - 1 in exempt:
                continue
            out.append(Refusal(path, number, "collision",
                               f"{', '.join(sorted(v for v in again if v.encode() in line))} is used again "
                               f"here since {run.move}, and {where}: two things would share one name or "
                               "address", _shown(line)))
    return out


def _exempt(project: LoadedProject, path: str, data: bytes) -> set[int]:
    """The 0-based lines of a current-state file an exemption keeps (a keep rule, the marker, a
    dated section): a new value there is on record, not a live use."""
    lines = data.decode("utf-8", "surrogateescape").splitlines()
    return set(project.classifier.line_exemptions(path, lines))


def _line_in(data: bytes, line: bytes) -> int | None:
    for number, text in enumerate(data.splitlines(keepends=True), 1):
        if text == line or text.rstrip(b"\r\n") == line.rstrip(b"\r\n"):
            return number
    return None


# ---------------------------------------------------------------- plan and apply


def check_clean(root: Path, plan: UndoPlan | None = None) -> set[str]:
    """Refused (exit 3): a merge, rebase or other operation git stopped in, or a work tree with
    changes: a tracked file changed, or an untracked one at (or in, or over) a path the undo
    writes. Other untracked files stay as they are; they are returned."""
    stopped = vcs_status.operation_in_progress(root)
    if stopped is not None:
        what, _, way_out = stopped
        raise UnsafeError(f"{root}: git is in the middle of {what}: finish it first ({way_out})")
    writes = _writes(plan) if plan is not None else None
    states = vcs_status.path_states(root)
    dirty = [p for p, code in states.items() if code != "??" or writes is None or _meets(p, writes)]
    if dirty and plan is not None and _holds_the_undo(root, plan, states):
        return {p for p, code in states.items() if code == "??"}  # a killed undo's: it is finished now
    if dirty:
        raise UnsafeError(f"{root}: the work tree has changes ({', '.join(dirty[:3])}"
                          f"{', ...' if len(dirty) > 3 else ''}): commit or stash them first; "
                          "`renamer undo --dry-run` shows the undo without writing")
    if writes:
        _refuse_ignored(root, writes)
    return set(states)


def left_by_a_killed_undo(root: Path, plan: UndoPlan) -> bool:
    """Whether the index and work tree hold exactly this undo, uncommitted, and nothing else: what
    an undo killed between its checkout and its commit leaves (t24-undo 10). The next run then
    finishes it (check_clean lets it through; apply_undo commits it with its trailers)."""
    states = vcs_status.path_states(root)
    return any(code != "??" for code in states.values()) and _holds_the_undo(root, plan, states)


def _refuse_ignored(root: Path, writes: set[str]) -> None:
    """A file git ignores at (or over) a path the undo writes back: git's checkout treats it as
    expendable and overwrites it (t25-34 finding 11: a local copy kept out of git). Refused,
    naming it, as an untracked one there is. Read with one `git ls-files` (ignored folders
    collapsed), never a pathspec per path written."""
    done = git_run(["git", "-C", str(root), "ls-files", "-z", "--others", "--ignored", "--exclude-standard",
                    "--directory"], capture_output=True, check=False, env={**os.environ, **LITERAL})
    hits = []
    for entry in os.fsdecode(done.stdout).split("\0") if done.returncode == 0 else []:
        path = entry.rstrip("/")
        if not path:
            continue
        if entry.endswith("/"):  # an ignored folder: the files the undo writes in it that stand there
            hits += [w for w in writes if w.startswith(path + "/") and os.path.lexists(root / w)]
        elif path in writes or any(w.startswith(path + "/") for w in writes):
            hits.append(path)
    if hits:
        ignored = sorted(set(hits))
        shown = ", ".join(ignored[:3]) + (", ..." if len(ignored) > 3 else "")
        raise UnsafeError(f"{root}: {shown}: a file git ignores is where the undo writes a tracked file "
                          "back: the undo would overwrite it (git's checkout does not keep ignored files); "
                          "move it away first; nothing was written")


def _holds_the_undo(root: Path, plan: UndoPlan, states: dict[str, str]) -> bool:
    """Whether the index is the undo's tree and the work tree holds no other tracked change."""
    if plan.tree is None or any(code[1] != " " for code in states.values() if code != "??"):
        return False
    done = git_run(["git", "-C", str(root), "write-tree"], capture_output=True, text=True, check=False)
    return done.returncode == 0 and done.stdout.strip() == plan.tree


def _writes(plan: UndoPlan) -> set[str]:
    return {*plan.changed, *(after for _, after in plan.renamed)}


def _meets(path: str, writes: set[str]) -> bool:
    return path in writes or any(path.startswith(w + "/") or w.startswith(path + "/") for w in writes)


def inverse_project(project: LoadedProject, move: str, renames: Renames) -> LoadedProject:
    """The project as the undo leaves it: the move's new values are the old ones now (verify of
    the inverse renames, under the undo's name)."""
    flipped = Renames(tuple((new, old) for old, new in renames.hosts),
                      tuple((new, old) for old, new in renames.addresses),
                      tuple((new, old) for old, new in renames.networks))
    config = dataclasses.replace(project.config, name=undo_name(move), renames=flipped)
    return dataclasses.replace(project, config=config, matcher=matcher_of(config),
                               loose=LoosePass([old for old, _ in flipped.hosts],
                                               [old for old, _ in flipped.addresses],
                                               networks=list(flipped.networks)))


def plan_undo(project: LoadedProject, move: str) -> UndoPlan:
    """The inverse of `move` against HEAD, with every refusal; writes nothing the user sees."""
    root = project.root
    head = vcs_status.head_sha(root)
    if head is None:
        raise ConfigError(f"{root}: no commits: no move is recorded here")
    run, already, undone = find_run(root, move)
    deleted: list[str] = []
    if run is None and undone is None:
        return UndoPlan(move, head, None, already)
    if run is None:  # undone once: is that undo still in effect? (reverted since, the move stands again)
        assert undone is not None
        renames = move_renames(root, undone)
        with _scratch(root, head) as scratch:
            tree, conflicts = _revert(root, scratch, undone, deleted)
        if tree is not None and _tree_of(root, head) == tree:  # reverting the move again changes nothing
            return UndoPlan(move, head, None, already, undone=undone, renames=renames)
        if tree is None and _still_undone(root, head, undone, move):  # t25-34 finding 03 (B)
            return UndoPlan(move, head, None, already, undone=undone, renames=renames)
        run = undone  # the move is (partly) in effect again: it is undone again
    else:
        renames = move_renames(root, run)
        foreign = unexplained(root, run, renames)
        if foreign:
            return UndoPlan(move, head, run, refusals=tuple(foreign), renames=renames)
        with _scratch(root, head) as scratch:
            tree, conflicts = _revert(root, scratch, run, deleted)
    if tree is None:
        return UndoPlan(move, head, run, refusals=tuple(conflicts), renames=renames)
    if _tree_of(root, head) == tree:  # the move's changes are gone already (reverted by hand)
        return UndoPlan(move, head, None, None, renames=renames, undone=run)
    refusals = _checks(project, root, run, head, tree, renames)
    if not refusals:
        tree = _with_inverse_moves(project, root, head, tree, move)
    changed, seen = _renamed(root, head, tree)
    renamed = _renamed_back(root, run, head, tree, seen)
    arrived = {after for _, after in renamed[len(seen):]}  # git saw these as a delete and an add
    changed = [p for p in changed if p not in arrived]
    diff = git_run(["git", "-C", str(root), "-c", "core.quotePath=false", "diff", "--binary", "--no-color",
                    "--no-ext-diff", "-M", head, tree], capture_output=True, check=False).stdout
    stat = _git(root, "diff", "--numstat", "-M", head, tree)
    removed = added = 0
    for row in stat.splitlines():
        a, r = row.split("\t")[:2]
        added += int(a) if a.isdigit() else 0
        removed += int(r) if r.isdigit() else 0
    return UndoPlan(move, head, run, None, tree, bytes(diff), tuple(changed), tuple(renamed),
                    tuple(refusals), renames, {"added": added, "removed": removed}, deleted=tuple(deleted))


def _still_undone(root: Path, head: str, undone: MoveRun, move: str) -> bool:
    """Whether reverting the move changes nothing once the undo's own inverse `moved` blocks (tagged
    `undo-MOVE`, appended where the move's block stood: the revert conflicts with them) are set
    aside: HEAD less them, with the move reverted onto it, is HEAD less them."""
    heads = [p for p in _tree_paths(root, head) if p.endswith(".tf")]
    data = vcs_status.blobs(root, [f"{head}:{p}" for p in heads])
    own = undo_name(move)
    with _scratch(root, head) as scratch:
        stripped = False
        for path in heads:
            text = data.get(f"{head}:{path}", b"")
            blocks = [m for m in tagged_moves(path, text) if m.name == own]
            for block in reversed(blocks):
                start = block.start - (1 if text[block.start - 2:block.start] == b"\n\n" else 0)
                end = block.end + (1 if text[block.end:block.end + 1] == b"\n" else 0)
                text = text[:start] + text[end:]
            if blocks and not text.strip():  # a moved.tf the undo made again for its blocks alone
                _git(scratch, "rm", "-q", "--", path)
                stripped = True
            elif blocks:
                (scratch / path).write_bytes(text)
                _git(scratch, "add", "--", path)
                stripped = True
        if not stripped:
            return False
        base = _git(scratch, "write-tree").strip()
        commit = _git(scratch, "commit-tree", base, "-p", "HEAD", "-m", "renamer undo (scratch)",
                      env=_IDENTITY).strip()
        _git(scratch, "update-ref", "--no-deref", "HEAD", commit)
        tree, _ = _revert(root, scratch, undone)
    return tree == base


def _with_inverse_moves(project: LoadedProject, root: Path, head: str, tree: str, move: str) -> str:
    """The inverse tree plus, for each `moved` block the move wrote (tagged with its name) that
    HEAD still has, the inverse block (from the new address to the old), tagged as the undo's:
    where the move was applied, Terraform moves the state back instead of destroying the
    resource at the new address and creating it at the old; where it was not, a `moved` whose
    `from` is in no state is a no-op. The tree with them written (`tree` where there are none)."""
    blocks: dict[str, list[tuple[str, str]]] = {}
    heads = [p for p in _tree_paths(root, head) if p.endswith(".tf")]
    data = vcs_status.blobs(root, [f"{head}:{p}" for p in heads])
    for path in heads:
        held = tagged_moves(path, data.get(f"{head}:{path}", b""))
        found = [(m.new, m.old) for m in held if m.name == move]
        if found:
            blocks[path] = found
    if not blocks:
        return tree
    _, renamed = _renamed(root, head, tree)
    after_of = dict(renamed)
    config = dataclasses.replace(project.config, name=undo_name(move), cutover=None)
    tag = tag_line(config)
    with _scratch(root, head) as scratch:
        _git(scratch, "read-tree", "-m", "-u", head, tree)
        for path, pairs in blocks.items():
            target = scratch / after_of.get(path, path)
            if target.is_file() and not target.is_symlink():
                text = target.read_bytes()
            elif (not os.path.lexists(target) and target.parent.is_dir()
                  and problem(scratch, after_of.get(path, path)) is None):
                text = b""  # a moved.tf the move created, gone with its commit: made again for these
            else:
                continue
            newline = b"\r\n" if b"\r\n" in text else b"\n"
            added = b"".join(newline + tag + newline + b"moved {" + newline + b"  from = " + src.encode()
                             + newline + b"  to   = " + dst.encode() + newline + b"}" + newline
                             for src, dst in pairs)
            if not text:
                added = added[len(newline):]
            elif not text.endswith(b"\n"):
                text += newline
            target.write_bytes(text + added)
            _git(scratch, "add", "--", after_of.get(path, path))
        return _git(scratch, "write-tree").strip()


def message(plan: UndoPlan, config: str) -> str:
    assert plan.run is not None
    commits = ", ".join(f"{sha[:12]} {role}" for sha, role in plan.run.commits)
    lines = [f"{undo_name(plan.move)}: undo {plan.move}", "",
             f"The inverse of {plan.move} ({commits}), reverted onto HEAD by renamer undo:",
             "its renames, its rewrite, its .git-blame-ignore-revs lines, its `moved` blocks and the",
             "keep rules its interactive sweep added.", ""]
    if plan.renamed:
        lines += ["Renamed back:", *[f"  {now} -> {after}" for now, after in plan.renamed], ""]
    changed = f"{len(plan.changed)} files, {len(plan.renamed)} renamed back"
    lines += [*trailer_lines(undo_name(plan.move), config, UNDO_ROLE, changed), f"{UNDOES}: {plan.move}"]
    return "\n".join(lines) + "\n"


def apply_undo(root: Path, plan: UndoPlan, *, hooks: bool = True) -> str:
    """Check the inverse's tree out over HEAD's (the work tree must be clean) and commit it with
    the repo's hooks; a commit git refuses puts HEAD's tree back. The new commit's sha."""
    assert plan.tree is not None and plan.run is not None
    if vcs_status.head_sha(root) != plan.head:
        raise UnsafeError(f"{root}: HEAD moved while the undo was planned: run renamer undo again")
    untracked = check_clean(root, plan)  # the user's untracked files, none where the undo writes
    interrupts.stop_if_asked()
    with deferred() as signals:  # Ctrl-C or SIGTERM between the checkout and the commit waits for both
        # The checkout runs in a session of its own: a stop sent to renamer's process group (Ctrl-C,
        # CI's or systemd's SIGTERM) killed `git read-tree` halfway and left the work tree half
        # reverted, HEAD unchanged (t38-break finding 10); it finishes now, and the stop is answered
        # once the commit is made (or the tree put back where git refuses it).
        checked = git_run(["git", "-C", str(root), "read-tree", "-m", "-u", plan.head, plan.tree],
                          capture_output=True, check=False, start_new_session=True,
                          env={**os.environ, **LITERAL})
        if checked.returncode != 0:
            why = git_error(os.fsdecode(checked.stderr) + "\n" + os.fsdecode(checked.stdout))
            raise RenamerError(f"git read-tree failed: {why}")
        try:
            done = git_commit(root, ["-q", *([] if hooks else ["--no-verify"]), "-m",
                                     message(plan, plan.run.config)],
                              {**LITERAL, RENAMES_PHASE: UNDO_ROLE})  # renamer's own verify hook passes it
        except CommitTimedOut as timed_out:
            if vcs_status.head_sha(root) == plan.head:
                raise CommitTimedOut(f"{timed_out}; {_restore(root, plan, untracked)}") from None
            done = None  # made: a post-commit hook was what hung
        except BaseException:
            _restore(root, plan, untracked)
            raise
        if done is not None and done.returncode != 0:
            state = _restore(root, plan, untracked)
            if signals.received is not None:  # Ctrl-C reached git and its hooks too: they stopped
                raise Interrupted(f"interrupted while git commit ran: no commit was made; {state}")
            why = git_error(os.fsdecode(done.stderr) + "\n" + os.fsdecode(done.stdout))
            if why == "unknown error":
                why = f"it exited {done.returncode} and printed nothing (a hook that refused it?)"
            raise RenamerError(f"git commit failed: {why}; {state}")
    sha = vcs_status.head_sha(root)
    assert sha is not None
    if signals.received is not None:
        raise Interrupted(f"interrupted after the undo's commit {sha[:12]}: the undo is complete; "
                          "`renamer verify` was not run")
    return sha


def _restore(root: Path, plan: UndoPlan, untracked: set[str]) -> str:
    """Put HEAD's tree back after a commit that was not made, and say what the work tree holds
    then, as checked with `git status` (never assumed): a hook that edited files can leave them."""
    if vcs_status.head_sha(root) != plan.head:
        return "HEAD moved meanwhile: the work tree was left as it is"
    assert plan.tree is not None
    merged = git_run(["git", "-C", str(root), "read-tree", "-m", "-u", plan.tree, plan.head],
                     capture_output=True, check=False)
    if merged.returncode != 0:  # a hook changed a file the undo wrote: the undo's own paths go back by force
        _git(root, "read-tree", plan.head, check=False)  # the index: HEAD's
        ours = _writes(plan)
        held = set(_tree_paths(root, plan.head))
        for path in sorted(ours):
            if path in held:
                _git(root, "checkout", plan.head, "--", path, check=False)
            else:
                target = root / path
                if target.is_file() or target.is_symlink():
                    target.unlink()
                    for folder in target.parents:  # the folders the undo made, now empty
                        if folder == root or any(folder.iterdir()):
                            break
                        folder.rmdir()
    left = [p for p in vcs_status.dirty_paths(root) if p not in untracked]  # the rest is the hook's
    if not left:
        return "the work tree and index are back as HEAD has them (checked with git status)"
    return (f"the undo's changes were taken back, but the work tree is not as HEAD has it: "
            f"{', '.join(left[:5])}{', ...' if len(left) > 5 else ''} changed by the hook "
            "(`git status` shows them; `git checkout -- PATH` or `git clean` drops them)")
