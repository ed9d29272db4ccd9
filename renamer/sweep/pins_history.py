"""Pins after the commit: verify's check that no current-state file still records the digest of a
file as it was before this move rewrote it.

The sweep finds pins before it writes, from the bytes it is about to replace; once committed, those
bytes are gone from the work tree, and a pin in a format that names no file (`checksum:
sha256:<hex>`, `"sha256": "<hex>"`, a digest in a runbook) can no longer be checked by re-hashing.
Git still has them, whatever shape the history took: the move's commits may have been squashed,
rebased or cherry-picked, their `Renamer-Move:` trailer dropped (break-it round 3, finding 13), but
every version a file had is a blob some commit of HEAD's history replaced (`git log --raw`). The
versions looked at are those of the files that hold a new value of the move now which held an old
value and were replaced by a version holding a new value: the versions the move changed, not an
older edit of a file that held the old name all along (a pin of that was stale before the move). Reading
them from the history, rather than recording digests in the journal or a trailer, also covers
repos swept before this check existed, and cannot drift from what was actually replaced. A sweep
written but not yet committed is covered by HEAD's blob of each changed file that holds a new value.

A digest that a file of the repo still has (the rewrite was reverted, or an unchanged copy such as
a record's backup holds those bytes) is no stale pin, and a pin whose context names another file
belongs to that file (pins.belongs). Records keep theirs (they say what the file was); a line
exemption decides one too.

The sweep asks the same question (`replaced_versions`, passed to pins.find_pins): a second sweep
after the commit reports these pins as verify does, and `--update-pins` then rewrites the certain
ones to the file's digest now.
"""

from __future__ import annotations

import re
from collections.abc import Collection

from renamer import vcs_status
from renamer.classify import CURRENT
from renamer.project import LoadedProject
from renamer.sweep.content import read_content
from renamer.sweep.digest_words import digests, shown
from renamer.sweep.model import RESIDUAL, Reference
from renamer.sweep.pins import PIN, HexWords, Standing, belongs, hex_holders, line_of
from renamer.sweep.pins_context import Contexts


def _changed_by_the_move(project: LoadedProject, holding_new: Collection[str]) -> list[str]:
    """The files that hold a new value of the move: the scan's where it looked (verify), else
    those git grep finds a new value's spelling in (a superset: each version must still hold an
    old value to count)."""
    if holding_new:
        return sorted(holding_new)
    renames = project.config.renames
    news = sorted({new for _old, new in (*renames.hosts, *renames.addresses)})
    if not news:
        return []
    found = vcs_status.worktree_files_holding(project.root, "|".join(re.escape(n) for n in news))
    return sorted(found or ())


def replaced_versions(project: LoadedProject,
                      holding_new: Collection[str] = ()) -> dict[str, list[tuple[bytes, str]]]:
    """path -> the versions of it that held an old value and that a commit replaced by one holding
    a new value, each with whose they were (`before commit <sha>`: that commit), newest first; with
    `holding_new`, HEAD's bytes of those files the work tree changed (a sweep written, not
    committed). Empty outside git."""
    root = project.root
    if not project.git or vcs_status.head_sha(root) is None:
        return {}
    paths = _changed_by_the_move(project, holding_new)
    if not paths:
        return {}
    specs: dict[str, list[tuple[str, str, str]]] = {}  # old blob -> (path, whose bytes, the blob after)
    seen: set[tuple[str, str]] = set()
    for path, blob, after, commit in vcs_status.replaced_blobs(root, paths):
        if (path, blob) not in seen:  # newest first: the last commit that replaced these bytes
            seen.add((path, blob))
            specs.setdefault(blob, []).append((path, f"before commit {commit[:12]}", after))
    if holding_new:  # written, not yet committed: HEAD still has the bytes the sweep replaced
        dirty = set(vcs_status.dirty_paths(root)) & set(holding_new)
        for path in sorted(dirty):
            specs.setdefault(f"HEAD:{path}", []).append((path, "at HEAD, before the uncommitted rewrite", ""))
    afters = {a for entries in specs.values() for _p, _b, a in entries if a}
    read = vcs_status.blobs(root, sorted(set(specs) | afters))
    renames = project.config.renames
    news = [new.encode() for _old, new in (*renames.hosts, *renames.addresses)]
    out: dict[str, list[tuple[bytes, str]]] = {}
    matcher = project.matcher
    for spec, entries in specs.items():
        data = read.get(spec)
        if data is None or not (matcher.might_match(data) and matcher.find(data)):
            continue  # a version that held no old value: not one the move changed
        for path, before, after in entries:
            # replaced by a version that holds a new value (or by the work tree's, uncommitted):
            # the move's rewrite, not an older edit of a file that held the old name all along
            if after and not any(n in read.get(after, b"") for n in news):
                continue
            out.setdefault(path, []).append((data, before))
    return out


def stale_history_pins(project: LoadedProject, paths: Collection[str], holding_new: Collection[str],
                       seen: Collection[tuple[str, int, int]] = ()) -> list[Reference]:
    """The digests of bytes this move replaced, in current-state files of `paths`: each a residual
    `pin` (those at a (path, line, column) of `seen`, found already, aside)."""
    limit = project.config.max_file_size
    now: dict[str, dict[str, str]] = {}
    needles: dict[str, list[tuple[str, str, str]]] = {}  # digest -> (path, algorithm, where)
    versions = replaced_versions(project, holding_new)
    for path, replaced in versions.items():
        content = read_content(project.root / path, limit)
        now[path] = digests(content.raw(content.data)) if content is not None else {}  # its own bytes
        for data, where in replaced:
            for algorithm, digest in digests(data).items():
                if now[path].get(algorithm) != digest:  # the same bytes as now: a pin that still holds
                    needles.setdefault(digest, []).append((path, algorithm, where))
    if not needles:  # no version this move replaced (a repo it never touched): nothing to look for
        return []
    # The history first, then the tree grep for digest-long words: in a repo holding no new value
    # the history is one git grep, and the tree grep was most of verify's time there.
    holders = [p for p in hex_holders(project, list(paths))
               if project.classifier.classify(p).status == CURRENT]
    files = HexWords(project, holders)
    if not files.words:  # no current-state file holds a digest
        return []
    standing = Standing(project, paths, [len(data) for replaced in versions.values()
                                         for data, _w in replaced])
    contexts = Contexts(set(paths))
    out: list[Reference] = []
    for holder, words in files.words.items():
        data = files.data[holder]
        lines: list[str] | None = None
        for start, end, token in words:
            if token not in needles:
                continue
            line_no, column, text = line_of(data, start)
            if (holder, line_no, column) in seen:
                continue
            owners = [n for n in needles[token]
                      if belongs(files, contexts, holder, start, token, {n[0]}, standing)]
            if not owners:
                continue  # another file's pin, or one a file of the repo still answers
            lines = lines if lines is not None else data.decode("utf-8", "surrogateescape").split("\n")
            if project.classifier.line_exemptions(holder, lines, [line_no - 1]):
                continue
            path, algorithm, where = owners[0]
            dress = files.dresses[holder][start]
            written = data[start:end].decode("ascii")
            today = now[path].get(algorithm)
            current = dress.write(bytes.fromhex(today)) if today else ""
            state = f"its digest is now {current}" if today else "it is gone from the work tree"
            note = (f"a stale {shown(algorithm, dress)} of {path} as it was {where}, bytes this move "
                    f"replaced: {state}; update it (sweep --update-pins where its format is certain), or "
                    "keep it with a reason")
            out.append(Reference(holder, line_no, column, written, current, RESIDUAL, PIN, note, text))
    return out
