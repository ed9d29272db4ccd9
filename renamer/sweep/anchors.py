"""Markdown anchors follow their headings.

When a sweep rewrites a heading (`## Host 192.0.2.10`), its anchor changes with it
(`#host-1920210` becomes `#host-1920220`, by GitHub's rules: lower case, punctuation
dropped, spaces to `-`, `-1`, `-2` for repeats). Links to the old anchor, in the same
file (`#slug`) or from any other current Markdown file (`other.md#slug`, relative to
the linking file, or `/docs/other.md#slug` from the repo root), are rewritten to the
new slug in the same sweep; left alone, they would point nowhere. Records are never
edited, so links inside records stay as they were written.

One of the sweep's cross-file rules (sweep/held_paths.py is another): it runs after every
file was scanned, and reads only current Markdown files that hold `#` plus an old slug.
"""

from __future__ import annotations

import hashlib
import posixpath
import re
from dataclasses import replace

from renamer import lazy_re
from renamer.classify import CURRENT
from renamer.formats.markdown import github_slug, is_markdown, slugs
from renamer.project import LoadedProject
from renamer.sweep.content import read_content
from renamer.sweep.model import KEPT, RESIDUAL, Edit, FileResult, Reference, ScanResult, apply_edits

# [text](target#slug "title") and [ref]: target#slug
_INLINE = lazy_re.compile(rb"\]\(\s*<?(?P<target>[^()\s#<>]*)#(?P<slug>[^()\s<>]+?)>?(?:\s+\"[^\"]*\")?\s*\)")
_REFERENCE = re.compile(rb"^[ \t]{0,3}\[[^\]]+\]:[ \t]*<?(?P<target>[^\s#<>]*)#(?P<slug>[^\s<>]+?)>?"
                        rb"(?:[ \t].*)?$", re.MULTILINE)


def anchor_literals(project: LoadedProject) -> tuple[bytes, ...]:
    """What every link to a rewritten heading's old anchor spells: the anchor of a heading
    holding an old value holds that value's own slug (github_slug works character by
    character), so a file without any of these links to no old anchor."""
    olds = [old for old, _ in project.config.renames.pairs()]
    return tuple(dict.fromkeys(slug.encode() for slug in map(github_slug, olds) if slug))


def follow_anchors(project: LoadedProject, scan: ScanResult) -> ScanResult:
    """`scan` with links following their headings: a link to a rewritten heading gets its new
    anchor; a link whose target keeps its heading (a record, a kept line, another site) keeps
    its anchor, even where it spells an old value (`[x](notes/2024.md#web01)`): kept, reason
    `anchor`, never rewritten into a dead link."""
    renamed = _renamed_anchors(project, scan)
    needles = {b"#" + old.encode() for anchors in renamed.values() for old in anchors}
    # One search instead of one `in` per old anchor (hundreds, in a big sweep): every needle
    # starts with `#`, which the regex engine skips to.
    linked = re.compile(b"|".join(re.escape(n) for n in sorted(needles))).search if needles else None
    by_path = {f.path: f for f in scan.files}
    edited = {f.path for f in scan.files if f.edits and is_markdown(f.path)}
    updated: dict[str, FileResult] = {}
    # The scan saw which Markdown files spell an old value's slug at all: only those can link.
    paths = scan.paths if scan.linking is None else sorted(edited.union(scan.linking))
    for rel in paths:
        if not is_markdown(rel) or (rel not in edited and not needles):
            continue
        if rel not in edited and project.classifier.classify(rel).status != CURRENT:
            continue
        read = _read(project, rel)
        if read is None or (rel not in edited and (linked is None or linked(read[0]) is None)):
            continue
        data, mode = read
        found = by_path.get(rel)
        edits, refs, dropped = _link_edits(rel, data, renamed, found.edits if found else ())
        if not edits and not dropped:
            continue
        if found is not None:
            kept = [e for e in found.edits if (e.start, e.end) not in dropped]
            references = tuple(_kept_anchor(r) if (r.line, r.column) in dropped.values() else r
                               for r in found.references)
            all_edits = tuple(sorted((*kept, *edits), key=lambda e: e.start))
            updated[rel] = replace(found, edits=all_edits, references=(*references, *refs),
                                   digest=found.digest or hashlib.sha1(data).hexdigest())
        else:
            updated[rel] = FileResult(rel, "text", CURRENT, tuple(refs), tuple(edits),
                                      digest=hashlib.sha1(data).hexdigest(), mode=mode)
    if not updated:
        return scan
    files = [updated.pop(f.path, f) for f in scan.files] + list(updated.values())
    return replace(scan, files=tuple(sorted(files, key=lambda f: f.path)))


def _kept_anchor(ref: Reference) -> Reference:
    return replace(ref, status=KEPT, reason="anchor",
                   note="a link's anchor: its target heading keeps this name (a record, a kept line, "
                        "another site), so the link keeps it too")


def _renamed_anchors(project: LoadedProject, scan: ScanResult) -> dict[str, dict[str, str]]:
    """Markdown path -> {old anchor: new anchor} for the headings the sweep rewrites."""
    out: dict[str, dict[str, str]] = {}
    for found in scan.files:
        if not found.edits or not is_markdown(found.path):
            continue
        read = _read(project, found.path)
        if read is None or not _edits_a_heading(read[0], found.edits):
            continue
        before = slugs(read[0].decode("utf-8", "replace"))
        after = slugs(apply_edits(read[0], found.edits).decode("utf-8", "replace"))
        if len(before) != len(after):
            continue  # an edit made or unmade a heading: no safe pairing
        changed = {old: new for old, new in zip(before, after, strict=True) if old != new}
        if changed:
            out[found.path] = changed
    return out


_HEADING_LINE = lazy_re.compile(rb"[ ]{0,3}#{1,6}[ \t]")


def _edits_a_heading(data: bytes, edits: tuple[Edit, ...]) -> bool:
    """Does any edit fall on a line that starts like a heading (the only lines slugs reads)?"""
    for edit in edits:
        line = data.rfind(b"\n", 0, edit.start) + 1
        if line == 0 and data.startswith(b"\xef\xbb\xbf"):
            line = 3  # a byte order mark is no part of the first heading
        if _HEADING_LINE.match(data, line):
            return True
    return False


def _link_edits(rel: str, data: bytes, renamed: dict[str, dict[str, str]], taken: tuple[Edit, ...]
                ) -> tuple[list[Edit], list[Reference], dict[tuple[int, int], tuple[int, int]]]:
    """(anchor edits, their references, the exact edits inside link anchors to drop, by span ->
    (line, column) of the reference they made)."""
    edits: list[Edit] = []
    refs: list[Reference] = []
    dropped: dict[tuple[int, int], tuple[int, int]] = {}
    for regex in (_INLINE, _REFERENCE):
        for link in regex.finditer(data):
            target = _target(rel, link.group("target").decode("utf-8", "replace"))
            slug = link.group("slug").decode("utf-8", "replace")
            new = renamed.get(target, {}).get(slug) if target is not None else None
            start, end = link.span("slug")
            inside = [e for e in taken if e.start < end and start < e.end]
            for e in inside:  # the anchor is the target's to decide, never the text's
                dropped[(e.start, e.end)] = _position(data, e.start)
            if new is None or any(e.start < end and start < e.end for e in edits):
                continue
            edits.append(Edit(start, end, new.encode("utf-8")))
            line, column = _position(data, start)
            refs.append(Reference(rel, line, column, slug, new, RESIDUAL, None,
                                  "a link to a rewritten heading: `renamer sweep` follows it", "",
                                  None, "anchor"))
    return edits, refs, dropped


def _position(data: bytes, offset: int) -> tuple[int, int]:
    """1-based line and character column, as references give them."""
    line_start = data.rfind(b"\n", 0, offset) + 1
    column = len(data[line_start:offset].decode("utf-8", "replace")) + 1
    return data.count(b"\n", 0, offset) + 1, column


def _target(rel: str, target: str) -> str | None:
    """The repo path a link points at, or None for a link outside the repo (a URL)."""
    if not target:
        return rel
    if "://" in target or target.startswith(("mailto:", "//")):
        return None
    if target.startswith("/"):
        path = posixpath.normpath(target.lstrip("/"))
    else:
        path = posixpath.normpath(posixpath.join(posixpath.dirname(rel), target))
    return None if path.startswith("../") or path == ".." else path


def _read(project: LoadedProject, rel: str) -> tuple[bytes, int] | None:
    """A text file's bytes and mode, as the sweep reads them (never through a link)."""
    content = read_content(f"{project.root}/{rel}", project.config.max_file_size)
    return (content.data, content.mode) if content is not None and content.kind == "text" else None
