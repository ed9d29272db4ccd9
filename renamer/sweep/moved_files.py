"""The `moved` blocks a sweep writes, gathered into each module's `moved.tf` (issue 32, item 2).

The scan decides a renamed resource's, module's or instance key's `moved` block where its
block stands (sweep/terraform_matches.py, terraform_keys.py: an insert after the block). This
pass, run on the plan, takes each such tagged block out of that file and appends it to
`moved.tf` in the same folder (the module): to the file where it exists, or to a new one the
sweep creates (`FileResult.created`), so that a module's moves stand together, where `audit`
and `audit --prune` read them like any other `.tf` file's, and `renamer undo` reverts them with
the rest of the move's commit.

`moved.tf` is written only as a regular file of the module's own folder: a `moved.tf` that is a
symlink (or anything but a regular text file), a folder on the way that is a link, and a
`moved.tf` whose own edits the structure check refused, and a `moved.tf` git ignores (untracked:
no commit would carry it) are refusals (exit 3, nothing written).
"""

from __future__ import annotations

import hashlib
import os
import posixpath
import stat
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from renamer import vcs_listing
from renamer.classify import CURRENT
from renamer.moved_tags import tagged_moves
from renamer.paths import problem
from renamer.sweep.content import read_content
from renamer.sweep.model import Edit, FileResult
from renamer.sweep.refusals import Refusal

MOVED_FILE = "moved.tf"


def _blocks(edit: Edit) -> list[bytes] | None:
    """The tagged `moved` blocks an insert adds, each as its lines (indentation and newlines
    dropped); None where the insert is anything else or more than such blocks."""
    if edit.start != edit.end or b"# renamer: move " not in edit.new:
        return None
    moves = tagged_moves("", edit.new)
    if not moves:
        return None
    rest = edit.new
    for move in sorted(moves, key=lambda m: m.start, reverse=True):
        rest = rest[:move.start] + rest[move.end:]
    if rest.strip():
        return None
    out = []
    for move in moves:
        lines = edit.new[move.start:move.end].replace(b"\r\n", b"\n").split(b"\n")
        indent = len(lines[0]) - len(lines[0].lstrip(b" \t"))
        out.append(b"\n".join(line[indent:] if line[:indent].strip() == b"" else line.lstrip()
                              for line in lines))
    return out


def _text(blocks: list[bytes], nl: bytes, after: bytes) -> bytes:
    """`blocks` appended to a file holding `after`: a blank line before each (none at the very
    start of a new file), each ended by a newline; `without` (audit --prune) takes one back out."""
    out = b"" if not after or after.endswith(b"\n") else nl
    for i, block in enumerate(blocks):
        if after or i:
            out += nl
        out += block.replace(b"\n", nl) + nl
    return out


Gathered = tuple[tuple[FileResult, ...], list[Refusal]]


def _inverses(rel: str, data: bytes, blocks: list[bytes]) -> list[tuple[int, int]]:
    """The spans of the tagged `moved` blocks in a module's `moved.tf` that move an address the
    sweep now moves back (an undo's inverse block, `from = new, to = old`), each with the blank
    line before it: beside the move's block again they would be a cycle, and with the resource
    declared at the new address `terraform plan` fails, "Moved object still exists" (t25-34
    finding 02, with the blocks in moved.tf)."""
    moving = {(m.old, m.new) for b in blocks for m in tagged_moves(rel, b)}
    out = []
    for block in tagged_moves(rel, data):
        if (block.new, block.old) not in moving:
            continue
        start = block.start
        if data[max(0, start - 2):start] == b"\n\n":
            start -= 1
        elif data[max(0, start - 4):start] == b"\r\n\r\n":
            start -= 2
        end = block.end + (2 if data[block.end:block.end + 2] == b"\r\n" else
                           1 if data[block.end:block.end + 1] == b"\n" else 0)
        out.append((start, end))
    return out


def _ignored(root: Path, rel: str, exists: bool) -> str | None:
    """The git ignore rule that keeps `rel` (a `moved.tf` the sweep would create or append to)
    out of every commit, or None: a tracked file is carried whatever the rules say."""
    if exists:
        return vcs_listing.ignore_rule(root, rel)
    return vcs_listing.ignored_among(root, [rel]).get(rel)


def gather(root: Path, files: tuple[FileResult, ...], max_size: int,
           status: Callable[[str], str] = lambda rel: CURRENT, *, git: bool = False) -> Gathered:
    """`files` with every tagged `moved` block insert taken out of its file and appended to its
    folder's `moved.tf` (an existing file's result, or a created one); the refusals of a
    `moved.tf` that cannot be written safely, or (`git`) that git ignores, so that no commit
    would carry the blocks (break-it t26-32, finding 02)."""
    wanted: dict[str, list[bytes]] = {}  # folder -> blocks, in path then offset order
    newline: dict[str, bytes] = {}
    modes: dict[str, int] = {}
    out: dict[str, FileResult] = {}
    for f in files:
        kept: list[Edit] = []
        taken = False
        for edit in f.edits:
            blocks = _blocks(edit)
            if blocks is None:
                kept.append(edit)
                continue
            folder = posixpath.dirname(f.new_path or f.path)
            gathered = wanted.setdefault(folder, [])
            gathered += [b for b in blocks if b not in gathered]
            newline.setdefault(folder, b"\r\n" if b"\r\n" in edit.new else b"\n")
            modes.setdefault(folder, f.mode)
            taken = True
        out[f.path] = replace(f, edits=tuple(kept), digest=f.digest if kept else "") if taken else f
    if not wanted:
        return files, []
    refusals: list[Refusal] = []
    created: list[FileResult] = []
    by_target = {(f.new_path or f.path): f for f in out.values()}
    for folder, blocks in sorted(wanted.items()):
        rel = f"{folder}/{MOVED_FILE}" if folder else MOVED_FILE
        why = problem(root, rel)
        if why is not None:
            refusals.append(Refusal(rel, 0, f"the `moved` blocks of {folder or 'the root module'} go here, "
                                            f"and it cannot be written: {why}"))
            continue
        if (said := status(rel)) != CURRENT:  # a record, excluded, unclassified: never the sweep's to write
            refusals.append(Refusal(rel, 0, f"the `moved` blocks of {folder or 'the root module'} go here, "
                                            f"and the allowlist makes it {said}, not current state: list it "
                                            "under `current` (or write the blocks by hand)"))
            continue
        have = by_target.get(rel)  # its scan's result, renamed there with its folder or not
        source = have.path if have is not None else rel  # where it stands before the renames
        try:
            info: os.stat_result | None = os.lstat(root / source)
        except FileNotFoundError:
            info = None
        except OSError as exc:
            refusals.append(Refusal(rel, 0, f"cannot inspect it for the `moved` blocks: {exc.strerror}"))
            continue
        rule = _ignored(root, source, info is not None) if git else None
        if rule is not None:
            refusals.append(Refusal(rel, 0, f"ignored by git ({rule}): the `moved` blocks of "
                                            f"{folder or 'the root module'} go here, and no commit would "
                                            "carry them, so every other checkout would plan a destroy; "
                                            "un-ignore it (or `git add -f` it), or write the blocks by hand"))
            continue
        if info is None:
            if have is not None:  # listed, gone meanwhile: never created over what the plan names
                refusals.append(Refusal(rel, 0, f"{source} went while the sweep was planned"))
                continue
            created.append(FileResult(rel, "text", CURRENT, edits=(Edit(0, 0, _text(blocks, newline[folder],
                                                                                     b"")),),
                                      digest=hashlib.sha1(b"").hexdigest(),
                                      mode=stat.S_IMODE(modes[folder]) or 0o644, created=True))
            continue
        if not stat.S_ISREG(info.st_mode):
            what = "a symlink" if stat.S_ISLNK(info.st_mode) else "not a regular file"
            refusals.append(Refusal(rel, 0, f"is {what}: the sweep writes the module's `moved` blocks "
                                            "only into a regular file of its own folder, never through a "
                                            "link; make it one, or write the blocks by hand"))
            continue
        content = read_content(root / source, max_size)
        if content is None or content.kind != "text" or content.codec:
            refusals.append(Refusal(rel, 0, "is not plain text the sweep can append its `moved` blocks to"))
            continue
        data = content.data
        if have is not None and have.refused:
            refusals.append(Refusal(rel, 0, f"the module's `moved` blocks go here, and its own edits are "
                                            f"refused: {have.refused}"))
            continue
        nl = b"\r\n" if b"\r\n" in data else b"\n" if b"\n" in data else newline[folder]
        fresh = [b for b in blocks if b.replace(b"\n", nl) not in data]  # a rerun adds none twice
        if not fresh:
            continue
        insert = Edit(len(data), len(data), _text(fresh, nl, data))
        dropped = _inverses(rel, data, fresh)
        edits = [e for e in (have.edits if have is not None else ())
                 if not any(s <= e.start and e.end <= t for s, t in dropped)]
        edits = sorted([*edits, *(Edit(s, t, b"") for s, t in dropped), insert],
                       key=lambda e: (e.start, e.end))
        if have is not None:  # (read where it stands, written where the renames put it)
            out[have.path] = replace(have, edits=tuple(edits),
                                     digest=have.digest or hashlib.sha1(data).hexdigest(),
                                     mode=have.mode or content.mode)
        else:
            created.append(FileResult(rel, "text", CURRENT, edits=tuple(edits),
                                      digest=hashlib.sha1(data).hexdigest(), mode=content.mode))
    merged = [out[f.path] for f in files] + created
    return tuple(sorted(merged, key=lambda f: f.path)), refusals

