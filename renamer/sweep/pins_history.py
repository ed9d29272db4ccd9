"""Pins after the commit: verify's check that no current-state file still records the digest of a
file as it was before this move rewrote it.

The sweep finds pins before it writes, from the bytes it is about to replace; once committed, those
bytes are gone from the work tree, and a pin in a format that names no file (`checksum:
sha256:<hex>`, `"sha256": "<hex>"`, a digest in a runbook) can no longer be checked by re-hashing.
Git still has them: each commit of this move (its `Renamer-Move:` trailer) names the files it
modified, and their blobs at the commit's parent are the pre-sweep bytes. Reading them from the
history, rather than recording digests in the journal or a trailer, also covers repos swept before
this check existed, and cannot drift from what was actually replaced. A sweep written but not yet
committed is covered by HEAD's blob of each changed file that holds a new value.

A digest that is also the file's digest now (the rewrite was reverted) is no pin of old bytes.
Records keep theirs (they say what the file was); a line exemption decides one too.

The sweep asks the same question (`replaced_versions`, passed to pins.find_pins): a second sweep
after the commit reports these pins as verify does, and `--update-pins` then rewrites the certain
ones to the file's digest now.
"""

from __future__ import annotations

from collections.abc import Collection

from renamer import vcs_status
from renamer.classify import CURRENT
from renamer.project import LoadedProject
from renamer.sweep.content import read_content
from renamer.sweep.model import RESIDUAL, Reference
from renamer.sweep.pins import PIN, SHOWN, HexWords, cased, digests, hex_holders, line_of


def _commits_of_the_move(project: LoadedProject) -> list[str]:
    """The commits whose trailers (the message's last paragraph) name this move."""
    trailer = f"Renamer-Move: {project.config.name}"
    return [sha for sha, _date, body in vcs_status.log_bodies(project.root, "^Renamer-Move: ")
            if trailer in body.strip().split("\n\n")[-1].splitlines()]


def replaced_versions(project: LoadedProject,
                      holding_new: Collection[str] = ()) -> dict[str, list[tuple[bytes, str]]]:
    """path -> the bytes this move's commits replaced there, each with whose they were (`before
    commit <sha>`); with `holding_new`, HEAD's bytes of those files the work tree changed (a sweep
    written, not committed). Empty outside git."""
    root = project.root
    if not project.git or vcs_status.head_sha(root) is None:
        return {}
    specs = {f"{sha}^:{path}": (path, f"before commit {sha[:12]}")
             for sha in _commits_of_the_move(project) for path in vcs_status.modified_in(root, sha)}
    if holding_new:  # written, not yet committed: HEAD still has the bytes the sweep replaced
        dirty = set(vcs_status.dirty_paths(root)) & set(holding_new)
        specs.update({f"HEAD:{path}": (path, "at HEAD, before the uncommitted rewrite")
                      for path in sorted(dirty)})
    out: dict[str, list[tuple[bytes, str]]] = {}
    for spec, data in vcs_status.blobs(root, sorted(specs)).items():
        path, before = specs[spec]
        out.setdefault(path, []).append((data, before))
    return out


def stale_history_pins(project: LoadedProject, paths: Collection[str], holding_new: Collection[str],
                       seen: Collection[tuple[str, int, int]] = ()) -> list[Reference]:
    """The digests of bytes this move replaced, in current-state files of `paths`: each a residual
    `pin` (those at a (path, line, column) of `seen`, found already, aside)."""
    limit = project.config.max_file_size
    now: dict[str, dict[str, str]] = {}
    needles: dict[str, tuple[str, str, str]] = {}  # digest -> (path, algorithm, where)
    for path, versions in replaced_versions(project, holding_new).items():
        content = read_content(project.root / path, limit)
        now[path] = digests(content.data) if content is not None else {}
        for data, where in versions:
            for algorithm, digest in digests(data).items():
                if now[path].get(algorithm) != digest:  # the same bytes as now: a pin that still holds
                    needles.setdefault(digest, (path, algorithm, where))
    if not needles:
        return []
    holders = [p for p in hex_holders(project, list(paths))
               if project.classifier.classify(p).status == CURRENT]
    files = HexWords(project, holders)
    out: list[Reference] = []
    for holder, words in files.words.items():
        data = files.data[holder]
        lines: list[str] | None = None
        for start, _end, token in words:
            if token not in needles:
                continue
            line_no, column, text = line_of(data, start)
            if (holder, line_no, column) in seen:
                continue
            lines = lines if lines is not None else data.decode("utf-8", "surrogateescape").split("\n")
            if project.classifier.line_exemptions(holder, lines, [line_no - 1]):
                continue
            path, algorithm, where = needles[token]
            written = data[start:start + len(token)].decode("ascii")
            today = now[path].get(algorithm)
            current = cased(today, written) if today else ""
            state = f"its digest is now {current}" if today else "it is gone from the work tree"
            note = (f"a stale {SHOWN[algorithm]} of {path} as it was {where}, bytes this move replaced: "
                    f"{state}; update it (sweep --update-pins where its format is certain), or keep it "
                    "with a reason")
            out.append(Reference(holder, line_no, column, written, current, RESIDUAL, PIN, note, text))
    return out
