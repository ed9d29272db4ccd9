"""What a planned sweep would write, shown without writing: a diff, or a list of edits."""

from __future__ import annotations

import os
from typing import Any

from renamer.errors import UnsafeError
from renamer.sweep.content import classify_bytes
from renamer.sweep.diff import file_diff, link_diff
from renamer.sweep.model import apply_edits
from renamer.sweep.plan import Plan


def _original(plan: Plan, path: str) -> bytes:
    """The bytes the plan's edits apply to: the file's own, or the UTF-8 of wide text (UTF-16/32,
    shown as UTF-8: git shows such a file as binary, and a hunk of its bytes reads as noise)."""
    try:
        return classify_bytes((plan.project.root / path).read_bytes(), name=path).data
    except OSError as exc:
        raise UnsafeError(f"{path}: cannot read: {exc.strerror}") from None


def planned_files(plan: Plan) -> dict[str, tuple[str, bytes]]:
    """Each file the plan changes: its path now -> (its path after the sweep, the bytes it would
    hold), for a dry run that reads the tree as the sweep would leave it."""
    out = {}
    for change in plan.changes:
        old = b"" if change.created else _original(plan, change.path)
        new = apply_edits(old, change.edits) if change.edits else old
        out[change.path] = (change.new_path or change.path, new)
    return out


def diff_bytes(plan: Plan) -> bytes:
    """One `diff --git` block per changed file, in path order."""
    relinks = {link.path: link for link in plan.links}  # by the path the link has after the renames
    blocks = []
    for change in sorted(plan.changes, key=lambda c: c.path):
        link = relinks.pop(change.new_path or change.path, None)
        if link is not None:
            blocks.append(link_diff(change.path, link.path, os.fsencode(link.old), os.fsencode(link.new)))
            continue
        old = _original(plan, change.path) if change.edits and not change.created else b""
        new = apply_edits(old, change.edits) if change.edits else b""
        blocks.append(file_diff(change.path, change.new_path or change.path, old, new,
                                created=change.mode if change.created else None))
    blocks += [link_diff(link.path, link.path, os.fsencode(link.old), os.fsencode(link.new))
               for link in sorted(relinks.values(), key=lambda link: link.path)]
    return b"".join(blocks)


def edit_list(plan: Plan) -> list[dict[str, Any]]:
    """Every edit the sweep makes: path, line, column, old, new (and the key path or role)."""
    out = []
    for change in sorted(plan.changes, key=lambda c: c.path):
        for ref in change.references:
            if ref.rewritable and ref.role != "path":
                item: dict[str, Any] = {"path": change.new_path or change.path,
                                        "line": ref.line, "column": ref.column,
                                        "old": ref.old, "new": ref.new}
                if change.new_path:
                    item["renamed_from"] = change.path
                out.append(item)
    return out
