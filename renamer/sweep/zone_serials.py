"""A zone's serial when its records change in a `$INCLUDE`d fragment: the fragment has no SOA,
so the serial to bump is the including zone's (BIND reloads a zone, fragments and all, only when
its serial grows). Each zone file that includes a changed fragment, directly or through another
fragment, gets its serial bump as an edit of its own; the fragment's "serial NOT bumped" note is
dropped. Where that zone's serial cannot be bumped (a placeholder, none, out of range, not current
state), the note stays and the fragment holds a residual `zone-serial` naming the zone: the sweep
exits 1 (a decision is needed) and the operator bumps it by hand, never a silent pass.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path

from renamer.classify import CURRENT
from renamer.formats.zone import FORMAT as ZONE
from renamer.formats.zone import is_records
from renamer.sweep.content import read_content
from renamer.sweep.model import RESIDUAL, Edit, FileResult, Reference


def including_serials(root: Path, files: Sequence[FileResult], parents: Sequence[tuple[str, str]],
                      status_of: Callable[[str], str], limit: int,
                      unsure: Sequence[str] = ()) -> tuple[FileResult, ...]:
    """`files` (in path order) with the serial of each zone that includes a changed fragment
    bumped. `parents`: (fragment, including file) pairs (sweep/zone_origins.py); `status_of`:
    a path's classification (only a current-state zone file is edited); `unsure`: files whose
    including zone is not known for certain (sweep/zone_origins.py's ZoneMap.unsure)."""
    up: dict[str, set[str]] = {}
    for part, by in parents:
        up.setdefault(part, set()).add(by)
    by_path = {f.path: f for f in files}
    out = dict(by_path)
    # A changed fragment (records with no SOA) that no zone is known to include: the serial that
    # makes a server load the change belongs to a zone the sweep cannot name for certain.
    for held in files:
        if held.edits and held.path not in up and held.kind == "text":
            why = _orphan(root, held.path, limit, held.path in unsure)
            if why is not None:
                unbumped = Reference(held.path, 1, 1, "SOA serial", "", RESIDUAL, "zone-serial", why)
                out[held.path] = replace(held, references=(*held.references, unbumped))
    changed = [f for f in files if f.edits and f.path in up and not (f.serial and f.serial[1])]
    if not changed:
        return tuple(out[path] for path in sorted(out))
    for fragment in changed:
        roots = _roots(fragment.path, up)
        left = [r for r in roots if not _bump(root, r, out, status_of, limit)]
        if roots and not left:
            out[fragment.path] = replace(out[fragment.path], serial=None)
        elif left:
            note = (f"records of this $INCLUDEd file change, and the serial of {', '.join(left)} (which "
                    "includes it) cannot be bumped (a placeholder, none, out of range, or not current "
                    "state): bump it by hand, or the name servers keep the old data")
            held = out[fragment.path]
            left_note = Reference(fragment.path, 1, 1, "SOA serial", "", RESIDUAL, "zone-serial", note)
            out[fragment.path] = replace(held, references=(*held.references, left_note))
    return tuple(out[path] for path in sorted(out))


def _orphan(root: Path, rel: str, limit: int, unsure: bool) -> str | None:
    """Why no serial is bumped for the changed records of `rel`, where it is a zone fragment (zone
    records with no SOA) no zone is known to include; None for any other file."""
    # Its first lines first: most changed files are no zone records, and a sweep changing thousands
    # of files should not read each one twice.
    try:
        with open(f"{root}/{rel}", "rb", buffering=0) as held:
            head = held.read(4096)
    except OSError:
        return None
    if not is_records(head[: head.rfind(b"\n") + 1] if len(head) == 4096 else head):
        return None
    content = read_content(f"{root}/{rel}", limit)
    if content is None or content.kind != "text" or not is_records(content.data):
        return None
    if unsure:
        return ("records of this zone fragment change, but which zone $INCLUDEs it is not certain "
                "(zones of different origins include it, or an $INCLUDE path names it and other repo "
                "files alike): bump the serial of the zone that loads it by hand, or the name servers "
                "keep the old data")
    return ("records of this zone fragment (no SOA of its own) change, and no zone in the repo "
            "$INCLUDEs it: bump the serial of the zone that loads it by hand, or the name servers "
            "keep the old data")


def _roots(path: str, up: dict[str, set[str]]) -> list[str]:
    """The zone files at the top of `path`'s include chains (a cycle ends a chain)."""
    roots: set[str] = set()
    seen = {path}
    todo = list(up.get(path, ()))
    while todo:
        rel = todo.pop()
        if rel in seen:
            continue
        seen.add(rel)
        above = up.get(rel)
        if above:
            todo.extend(above)
        else:
            roots.add(rel)
    return sorted(roots)


def _bump(root: Path, rel: str, out: dict[str, FileResult], status_of: Callable[[str], str],
          limit: int) -> bool:
    """Whether `rel`'s serial is (now) bumped in `out`."""
    held = out.get(rel)
    if held is not None and held.serial and held.serial[1]:
        return True  # its own records changed too: bumped already, once
    if held is not None and (held.edits or held.refused or held.kind != "text"):
        return False  # its own edits left the serial alone (a placeholder, refused): not forced here
    if status_of(rel) != CURRENT:
        return False
    content = read_content(f"{root}/{rel}", limit)
    if content is None or content.kind != "text":
        return False
    found = ZONE.serial(content.data, dt.date.today())
    if found is None or not found[2]:
        return False
    start, end, new, old_serial, new_serial = found
    base = held or FileResult(rel, "text", CURRENT)
    out[rel] = replace(base, status=CURRENT, edits=(Edit(start, end, new),),
                       digest=hashlib.sha1(content.data).hexdigest(), mode=content.mode,
                       serial=(old_serial, new_serial))
    return True
