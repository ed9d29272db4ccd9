"""What the sweep did not read, said (break-it round 21, findings 24 and 34): verify's "Not read"
list, which fails `verify --strict`.

* A git submodule (a role kept as one at `roles/common`) is its own repository: the sweep never
  enters it, and an old value there stays live. Each submodule `.gitmodules` names whose path is
  tracked and that would be current state is listed, until it is excluded (once swept in its own
  clone) or classed a record.
* The allowlist's `exclude:` is "never scanned": a pull request that excludes a live file turns
  the check green. An excluded tracked file that the `current` patterns cover and that spells an
  old value is listed; an `exclude` that leaves nothing to read is said.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from renamer import lazy_re
from renamer.classify import Classifier
from renamer.match import Matcher
from renamer.words import plural

_SUBMODULE_PATH = lazy_re.compile(r"(?m)^[ \t]*path[ \t]*=[ \t]*(?P<path>[^\r\n]+?)[ \t]*\r?$")


def not_read(root: Path, tracked: Sequence[str], classifier: Classifier, matcher: Matcher, limit: int,
             scanned: int) -> list[tuple[str, str]]:
    """(path, why) of each current-state file or folder the scan did not read though it may hold
    an old value; `scanned`: how many files the scan read."""
    out: list[tuple[str, str]] = []
    listed = set(tracked)
    if ".gitmodules" in listed:
        try:
            text = (root / ".gitmodules").read_text(encoding="utf-8", errors="replace")
        except OSError:
            text = ""
        for found in _SUBMODULE_PATH.finditer(text):
            path = found.group("path").strip().strip('"').rstrip("/")
            current = classifier.is_current_pattern(path + "/x")
            if path in listed and current and not classifier.is_excluded(path):
                out.append((path, "a git submodule: its own repository, never entered by the sweep; sweep it "
                                  "in its own clone, then exclude it here (or class it a record)"))
    excluded = [rel for rel in tracked if classifier.excluded_by_user(rel)]
    for rel in excluded:
        if not classifier.is_current_pattern(rel):
            continue
        old = _old_value(root / rel, matcher, limit)
        if old is not None:
            out.append((rel, f"excluded by the allowlist's `exclude:`, and it spells {old}: never read by "
                             "the sweep or verify; check it by hand, then class it a record or keep it"))
    if excluded and scanned == 0:
        out.append(("(every file)", f"the allowlist's `exclude:` covers every tracked file "
                                    f"({plural(len(excluded), 'file')}): nothing was read"))
    return sorted(out)


def _old_value(path: Path, matcher: Matcher, limit: int) -> str | None:
    """The first old value `path` spells (exactly, not refused or kept), or None."""
    try:
        if path.is_symlink() or not path.is_file() or path.stat().st_size > limit:
            return None
        data = path.read_bytes()
    except OSError:
        return None
    if not any(needle in data for needle in matcher.needles):
        return None
    return next((m.old for m in matcher.find(data) if m.refused is None and m.kept is None), None)
