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
import re
from collections.abc import Iterable
from dataclasses import dataclass, field, replace

from renamer.classify import literal_pattern
from renamer.formats import Format, format_of
from renamer.masking import mask_line
from renamer.sweep.lines import is_utf8
from renamer.sweep.model import KEPT, RESIDUAL, Edit, FileResult, Reference, apply_edits
from renamer.sweep.plan import Plan

NOT_NOW = "not-now"
MAX_CONTAINS = 100  # longest line_contains a keep rule gets; longer lines get a window around the value
_SLUG = re.compile(r"[^A-Za-z0-9]+")


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
            if edit is not serial:
                by_line.setdefault(bisect.bisect_right(starts, edit.start) - 1, []).append(edit)
        for index in sorted(by_line):
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
        changed = _reduced(found, data, choices, marker, rules)
        if changed.edits and found.edits and len(changed.edits) != len(found.edits):
            problem = _partial_problem(found.path, data, apply_edits(data, changed.edits))
            if problem:
                refused.append(f"{found.path}: {problem}")
                changed = _declined(changed, keep_rename=changed.new_path is not None)
        files.append(changed)
    return replace(plan, scan=replace(plan.scan, files=tuple(files))), refused


def _reduced(found: FileResult, data: bytes, choices: Choices, marker: str,
             rules: dict[tuple[str, int], str]) -> FileResult:
    starts = _line_starts(data)
    serial = _serial_edit(found, data)
    edits, any_record = [], False
    for edit in found.edits:
        if edit is serial:
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
