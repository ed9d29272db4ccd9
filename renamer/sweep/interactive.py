"""sweep --interactive: the planned hunks, the user's answers, and the plan they leave.

Pure decisions; the prompts live in the CLI. A hunk is one line the sweep would
change (or one file it would rename). Each answer maps to a plan the
non-interactive sweep would also make once the decisions are written down:

  y  rewrite            the line's edits stay in the plan
  n  not now            its edits leave the plan; its references stay residual
  k  keep for good      a keep rule (path, line_contains, reason) in the allowlist
  K  keep, marked       the inline marker with the reason, in a comment on the line
  s  skip the file      `n` for the file's remaining hunks

so a later `renamer sweep` gives the same result, except for `n` and `s`, which
are left for later on purpose.
"""

from __future__ import annotations

import bisect
import posixpath
import re
from collections.abc import Iterable
from dataclasses import dataclass, field, replace

from renamer import lazy_re
from renamer.classify import literal_pattern
from renamer.formats import Format, format_of
from renamer.masking import mask_line
from renamer.moved_tags import tagged_moves
from renamer.sweep import hcl_align
from renamer.sweep.lines import is_utf8
from renamer.sweep.model import KEPT, RESIDUAL, Edit, FileResult, Reference, apply_edits
from renamer.sweep.moved_files import MOVED_FILE
from renamer.sweep.plan import Plan

NOT_NOW = "not-now"
MAX_CONTAINS = 100  # longest line_contains a keep rule gets; longer lines get a window around the value
_SLUG = lazy_re.compile(r"[^A-Za-z0-9]+")


@dataclass(frozen=True)
class Hunk:
    path: str
    line: int  # 1-based; 0 for a rename
    before: bytes  # the line as it stands (no line ending); for a rename, the old path
    after: bytes
    edits: tuple[Edit, ...] = ()
    olds: tuple[str, ...] = ()
    new_path: str | None = None  # a rename

    @property
    def is_rename(self) -> bool:
        return self.line == 0


@dataclass
class Choices:
    """The answers, as they come: which lines to rewrite, keep for good or mark."""

    accepted: set[tuple[str, int]] = field(default_factory=set)  # (path, line); line 0: the rename
    kept: dict[tuple[str, int], str] = field(default_factory=dict)  # (path, line) -> reason (k)
    marked: dict[tuple[str, int], str] = field(default_factory=dict)  # (path, line) -> reason (K)


@dataclass(frozen=True)
class KeepRuleEntry:
    path: str
    line: int
    entry: dict[str, str]  # name, path, line_contains, reason: what goes into the allowlist


def hunks(plan: Plan, read: dict[str, bytes]) -> list[Hunk]:
    """Every line the plan changes, file by file in path order, then line order; a file's
    rename first. `read`: each changed file's bytes as planned. A zone's serial bump is no
    hunk of its own: it goes with the zone's accepted records."""
    out = []
    for change in sorted(plan.changes, key=lambda c: c.path):
        if change.new_path:
            out.append(Hunk(change.path, 0, change.path.encode(), change.new_path.encode(),
                            new_path=change.new_path))
        if not change.edits:
            continue
        data = read[change.path]
        serial = _serial_edit(change, data)
        starts = _line_starts(data)
        by_line: dict[int, list[Edit]] = {}
        for edit in change.edits:
            if edit is not serial and not _moved_block(change.path, edit):
                by_line.setdefault(bisect.bisect_right(starts, edit.start) - 1, []).append(edit)
        for index in sorted(by_line):
            if all(hcl_align.is_alignment(data, e) for e in by_line[index]):
                continue  # terraform fmt's blanks: no question, they follow the answers (reduce)
            start, end = starts[index], _line_end(data, starts, index)
            line = data[start:end]
            shifted = [Edit(e.start - start, e.end - start, e.new) for e in by_line[index]]
            olds = tuple(dict.fromkeys(r.old for r in change.references
                                       if r.line == index + 1 and r.rewritable and r.role != "path"))
            out.append(Hunk(change.path, index + 1, line, apply_edits(line, shifted), tuple(by_line[index]),
                            olds))
    return out


def keep_rule(hunk: Hunk, reason: str, taken: Iterable[str], path: str | None = None) -> dict[str, str]:
    """A keep rule for exactly this line of `path` (the file's path after the sweep; default
    the hunk's): the path as a pattern matching that file alone, and a piece of the line
    holding the old value, never a secret the line carries."""
    text = hunk.before.decode("utf-8", "replace").strip()
    old = hunk.olds[0] if hunk.olds else ""
    at = max(0, text.find(old))
    if old and mask_line(text) != text:  # the line carries a secret: the old value and what follows
        text = re.match(r"[^\s\"'`,;]*", text[at + len(old):]).group(0)  # type: ignore[union-attr]
        text = old + (text if mask_line(old + text) == old + text else "")
    elif len(text) > MAX_CONTAINS:
        text = text[max(0, at - 40):at + 60].strip()
    names = set(taken)
    where = path or hunk.path
    stem = f"kept-{_SLUG.sub('-', where).strip('-').lower()}-{hunk.line}"
    name, number = stem, 2
    while name in names:
        name, number = f"{stem}-{number}", number + 1
    return {"name": name, "path": _pattern(where), "line_contains": text, "reason": " ".join(reason.split())}


def _pattern(path: str) -> str:
    """A gitignore pattern for exactly this repo-relative path: anchored, its wildcards escaped."""
    escaped = literal_pattern(path)
    return escaped if "/" in path else "/" + escaped


def marker_problem(path: str, data: bytes, line: int, text: str) -> str | None:
    """Why the inline marker (`text`) cannot be written at the end of `line` (None: it can)."""
    comment = _comment(path, data)
    if comment is None:
        return ("renamer writes the inline marker only into Markdown, YAML and Python, where a comment "
                "at the end of a line is safe; keep it with `k` (a keep rule) instead")
    if not text.isascii() and not is_utf8(data):  # a Latin-1 file: one encoding per file
        return "this file is not UTF-8: give the reason in ASCII, or keep it with `k` (a keep rule)"
    end = _line_end(data, _line_starts(data), line - 1)
    if _means_otherwise(comment, data, data[:end] + _marked(comment, text) + data[end:]):
        return ("a comment at the end of this line would change what the file means (the line lies "
                "inside a string or a block scalar); keep it with `k` (a keep rule) instead")
    return None


def reduce(plan: Plan, read: dict[str, bytes], choices: Choices, marker: str,
           rules: dict[tuple[str, int], str]) -> tuple[Plan, list[str]]:
    """The plan the answers leave, and each file whose chosen lines alone would break it (those
    files are left as they are). `rules`: (path, line) -> the keep rule's name, for `k`."""
    files, refused = [], []
    for found in plan.scan.files:
        if not found.changes:
            files.append(found)
            continue
        data = read.get(found.path, b"")
        changed = hcl_align.aligned(_reduced(found, data, choices, marker, rules), data)
        if changed.edits and found.edits and len(changed.edits) != len(found.edits):
            problem = _partial_problem(found.path, data, apply_edits(data, changed.edits))
            if problem:
                refused.append(f"{found.path}: {problem}")
                changed = _declined(changed, keep_rename=changed.new_path is not None)
        files.append(changed)
    files = _moved_blocks_follow(plan.scan.files, files, read)
    return replace(plan, scan=replace(plan.scan, files=tuple(files))), refused


def _reduced(found: FileResult, data: bytes, choices: Choices, marker: str,
             rules: dict[tuple[str, int], str]) -> FileResult:
    starts = _line_starts(data)
    serial = _serial_edit(found, data)
    edits, any_record = [], False
    for edit in found.edits:
        if edit is serial or hcl_align.is_alignment(data, edit):
            continue  # the blanks are aligned again over the edits kept (reduce)
        if _moved_block(found.path, edit):
            edits.append(edit)  # decided with the rename it records (_moved_blocks_follow)
            continue
        if (found.path, bisect.bisect_right(starts, edit.start) - 1 + 1) in choices.accepted:
            edits.append(edit)
            any_record = True
    if serial is not None and any_record:
        edits.append(serial)
    comment = _comment(found.path, data)
    for (path, line), reason in sorted(choices.marked.items()):
        if path == found.path and comment is not None:
            end = _line_end(data, starts, line - 1)
            edits.append(Edit(end, end, _marked(comment, f"{marker}: {' '.join(reason.split())}")))
    refs = []
    for ref in found.references:
        key = (found.path, ref.line)
        if not ref.rewritable or ref.role == "path" or key in choices.accepted:
            refs.append(ref)
        elif key in choices.kept:
            refs.append(replace(ref, status=KEPT, reason=rules[key], note=choices.kept[key]))
        elif key in choices.marked:
            refs.append(replace(ref, status=KEPT, reason="inline", note=choices.marked[key]))
        else:
            refs.append(_not_now(ref))
    new_path = found.new_path if (found.path, 0) in choices.accepted else None
    return replace(found, edits=tuple(edits), references=tuple(refs), new_path=new_path,
                   serial=found.serial if serial is None or any_record else None)


def _moved_block(path: str, edit: Edit) -> bool:
    """Is `edit` a tagged `moved` block the sweep adds to (or an undo's inverse block it drops from)
    a module's moved.tf? Such a block is no question of its own: it goes with the rename it records
    (t26-32 finding 13: "y" to a label and "n" to its block renamed the label with no block, verify
    OK, terraform planned a destroy)."""
    if posixpath.basename(path) != MOVED_FILE:
        return False
    return b"# renamer: move " in edit.new if edit.start == edit.end else not edit.new


def _moved_blocks_follow(planned: tuple[FileResult, ...], files: list[FileResult],
                         read: dict[str, bytes]) -> list[FileResult]:
    """Each moved.tf's blocks kept where the rename each records was accepted in its module (an
    accepted edit of another file of the folder writes the block's new name where its old one
    stood), dropped where it was not; an inverse block is dropped only beside a kept block."""
    before = {f.path: f for f in planned}
    accepted: dict[str, list[tuple[bytes, bytes]]] = {}
    for found in files:
        if posixpath.basename(found.path) == MOVED_FILE:
            continue
        data = read.get(found.path, b"")
        accepted.setdefault(posixpath.dirname(found.path), []).extend(
            (data[e.start:e.end], e.new) for e in found.edits if e.start != e.end)
    out = []
    for found in files:
        if posixpath.basename(found.path) != MOVED_FILE or not any(_moved_block(found.path, e)
                                                                   for e in found.edits):
            out.append(found)
            continue
        done = accepted.get(posixpath.dirname(found.path), [])
        kept = [e for e in found.edits if not _moved_block(found.path, e) or not e.new
                or _recorded(e.new, done)]
        if not any(e.new and _moved_block(found.path, e) for e in kept):
            kept = [e for e in kept if not _moved_block(found.path, e)]  # nothing moved: drop no block
        if not kept and before[found.path].created:
            continue  # a moved.tf the sweep would have created for blocks no rename needs
        out.append(replace(found, edits=tuple(kept), digest=found.digest if kept else ""))
    return out


def _recorded(block: bytes, accepted: list[tuple[bytes, bytes]]) -> bool:
    """Does an accepted edit make the rename `block` records (`from = T.pug`, `to = T.wolf`)?"""
    for move in tagged_moves("", block):
        old, new = _last_name(move.old), _last_name(move.new)
        if any(old in was and new in now for was, now in accepted):
            return True
    return False


def _last_name(address: str) -> bytes:
    """The name an address ends in: `terraform_data.wolf` -> wolf, `x["wolf"]` -> wolf."""
    return address.rstrip('"]').rsplit(".", 1)[-1].rsplit('"', 1)[-1].rsplit("[", 1)[-1].encode()


def _declined(found: FileResult, *, keep_rename: bool) -> FileResult:
    refs = tuple(_not_now(r) if r.rewritable and r.role != "path" else r for r in found.references)
    return replace(found, edits=(), references=refs, serial=None,
                   new_path=found.new_path if keep_rename else None)


def _not_now(ref: Reference) -> Reference:
    return replace(ref, status=RESIDUAL, reason=NOT_NOW,
                   note="left for later in `renamer sweep --interactive`: the next sweep rewrites it")


def _partial_problem(path: str, before: bytes, after: bytes) -> str | None:
    """Whether some of a structured file's edits without the others would change its structure."""
    problem = format_of(path, before).edit_problem(before.decode("utf-8", "replace"),
                                                   after.decode("utf-8", "replace"))
    if problem is None:
        return None
    return f"the chosen lines alone would change its structure ({problem}); left as it was"


def _comment(path: str, data: bytes) -> Format | None:
    """The file's format where it offers the inline marker as a comment, else None."""
    fmt = format_of(path, data)
    return fmt if fmt.comment is not None else None


def _marked(fmt: Format, text: str) -> bytes:
    assert fmt.comment is not None
    return fmt.comment(text).encode()


def _means_otherwise(fmt: Format, before: bytes, after: bytes) -> bool:
    """Does the added comment change what the file means (it fell inside a string or block scalar)?"""
    return fmt.means_otherwise(before.decode("utf-8", "replace"), after.decode("utf-8", "replace"))


def _serial_edit(found: FileResult, data: bytes) -> Edit | None:
    if found.serial is None or not found.serial[1]:
        return None
    old, new = found.serial[0].encode(), found.serial[1].encode()
    return next((e for e in found.edits if e.new == new and data[e.start:e.end] == old), None)


def _line_starts(data: bytes) -> list[int]:
    return [0] + [m.end() for m in re.finditer(rb"\n", data)]


def _line_end(data: bytes, starts: list[int], index: int) -> int:
    """Where line `index` ends, before its line ending (LF or CRLF)."""
    end = starts[index + 1] - 1 if index + 1 < len(starts) else len(data)
    return end - 1 if end > starts[index] and data[end - 1:end] == b"\r" else end
