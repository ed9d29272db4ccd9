"""Dotted module references to a file the sweep renames (break-it round 22, finding 02).

Salt names a state or pillar file `pws/web-vm.sls` as `pws.web-vm` (top files, `include:`),
Python a module `hosts/web01.py` as `hosts.web01` (`import`, `from ... import`,
`importlib.import_module('hosts.web01')`), Lua `require("hosts.web01")`: the path with `.` for
`/`, without the extension (`init.sls`, `__init__.py`, `init.lua`: the folder). The exact rules do
not match the old value there (it stands after a dot, as in a longer DNS name), so the sweep
renamed the file and left the reference a near-miss: Salt found no SLS, Python no module.

Each dotted spelling (two components or more) of a renamed file's old path is looked for in every
current file that holds an old value: where every listed file that spelling can name moves to one
new spelling, the reference follows the file (an edit, counted as any replacement); where one of
them keeps its name, or the new spelling is ambiguous, it is a `module-path` residual with why.
After the sweep (verify), a dotted spelling holding an old value where its spelling with the new
value names a listed file is a `module-path` residual: the file moved and the reference did not,
or one file kept the old name while another took the new one (which one it means is unproved).
"""

from __future__ import annotations

import hashlib
import os
import posixpath
import re
from collections.abc import Iterable
from dataclasses import replace

from renamer.classify import CURRENT
from renamer.project import LoadedProject
from renamer.sweep.content import read_content
from renamer.sweep.model import RESIDUAL, Edit, FileResult, Reference, ScanResult
from renamer.vcs_command import git_run

REASON = "module-path"
HINT = ("write the reference with the file's new name by hand, or keep the file's path with "
        "`keep_paths` (the reference then stays with it)")
# the suffixes whose files are named as dotted modules, and the file that stands for its folder
SUFFIXES = {".sls": "init", ".py": "__init__", ".lua": "init", ".pyi": "__init__"}
_NAME = rb"A-Za-z0-9_\-"


def spellings(path: str) -> list[str]:
    """The dotted spellings of a module file, longest first: `pillar/pws/web-vm.sls` ->
    `pillar.pws.web-vm`, `pws.web-vm` (two components or more: one alone is a word)."""
    stem, suffix = posixpath.splitext(path)
    index = SUFFIXES.get(suffix)
    if index is None:
        return []
    parts = stem.split("/")
    if parts[-1] == index:
        parts = parts[:-1]
    if any(not part or "." in part or " " in part for part in parts):
        return []
    return [".".join(parts[i:]) for i in range(len(parts) - 1)]


def _index(paths: Iterable[str]) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for path in paths:
        for spelled in spellings(path):
            out.setdefault(spelled, []).append(path)
    return out


def follow_modules(project: LoadedProject, scan: ScanResult) -> ScanResult:
    """`scan` with each dotted reference to a renamed module file rewritten with it, or a
    residual where that cannot be proved (the sweep's plan)."""
    renamed = {f.path: f.new_path for f in scan.files
               if f.new_path and posixpath.splitext(f.path)[1] in SUFFIXES}
    if not renamed:
        return scan
    listed = _index(scan.paths)
    wanted: dict[str, tuple[str | None, str]] = {}  # old spelling -> (new spelling or None, why)
    for old_path, new_path in renamed.items():
        news = spellings(new_path)
        for spelled in spellings(old_path):
            depth = spelled.count(".")
            new = next((n for n in news if n.count(".") == depth), None)
            named = listed.get(spelled, [old_path])
            staying = [p for p in named if p not in renamed]
            targets = {next((n for n in spellings(renamed[p]) if n.count(".") == depth), None)
                       for p in named if p in renamed}
            if staying:
                wanted[spelled] = (None, f"it also names {staying[0]}, which keeps its name")
            elif new is None or len(targets) != 1:
                wanted[spelled] = (None, "the files it names move to different names")
            else:
                wanted[spelled] = (new, f"names {old_path} as a module, which the sweep renames to "
                                        f"{new_path}")
    return _apply(project, scan, wanted, edits=True)


def dangling_modules(project: LoadedProject, scan: ScanResult) -> ScanResult:
    """verify's guard after the sweep: a dotted spelling holding an old value that names no
    listed module file, where its spelling with the new value names one."""
    listed = _index(scan.paths)
    pairs = [(old, new) for old, new in project.config.renames.pairs() if old and new]
    wanted: dict[str, tuple[str | None, str]] = {}
    for spelled, paths in listed.items():
        for old, new in pairs:
            if new in spelled:
                before = spelled.replace(new, old)
                if before in wanted:
                    continue
                if before not in listed:
                    wanted[before] = (None, f"names no module file; {paths[0]} is spelled `{spelled}`: "
                                            "the file moved, the reference did not")
                else:  # a split: one file kept the old name, another took the new one
                    wanted[before] = (None, f"names {listed[before][0]}, which kept its name, while "
                                            f"{paths[0]} is spelled `{spelled}`: which one it means cannot "
                                            "be proved")
    return _apply(project, scan, wanted, edits=False) if wanted else scan


def _apply(project: LoadedProject, scan: ScanResult, wanted: dict[str, tuple[str | None, str]],
           *, edits: bool) -> ScanResult:
    if not wanted:
        return scan
    finder = re.compile(rb"(?<![" + _NAME + rb"./])(?:" + b"|".join(
        re.escape(s.encode()) for s in sorted(wanted, key=len, reverse=True)) + rb")(?![" + _NAME + rb"])")
    by_path = {f.path: f for f in scan.files}
    listed = frozenset(scan.paths)
    for rel in _holding(project, wanted):  # a file holding only the dotted spelling has no result yet
        if rel in listed and rel not in by_path and project.classifier.classify(rel).status == CURRENT:
            by_path[rel] = FileResult(rel, "text", CURRENT)
    files = []
    for found in (by_path[p] for p in sorted(by_path)):
        if found.status != CURRENT or found.kind != "text":
            files.append(found)
            continue
        content = read_content(project.root / found.path, project.config.max_file_size)
        if content is None or content.kind != "text" or finder.search(content.data) is None:
            files.append(found)
            continue
        if not found.digest:  # a file the scan had nothing to say of: its bytes, as the scan reads them
            found = replace(found, digest=hashlib.sha1(content.data).hexdigest(), mode=content.mode)
        files.append(_in_file(found, content.data, finder, wanted, edits))
    return replace(scan, files=tuple(files))


def _holding(project: LoadedProject, wanted: dict[str, tuple[str | None, str]]) -> list[str]:
    """The files of the work tree (tracked or not ignored) that spell one of `wanted`."""
    flags = [arg for spelled in sorted(wanted) for arg in ("-e", spelled)]
    done = git_run(["git", "-C", str(project.root), "grep", "--untracked", "-z", "-l", "-I", "-F",
                    "--full-name", *flags, "--"], capture_output=True, check=False)
    if done.returncode not in (0, 1):
        return []
    return [os.fsdecode(p) for p in done.stdout.split(b"\0") if p]


def _in_file(found: FileResult, data: bytes, finder: re.Pattern[bytes],
             wanted: dict[str, tuple[str | None, str]], edits: bool) -> FileResult:
    refs = list(found.references)
    new_edits = list(found.edits)
    spans: list[tuple[int, int, int]] = []  # (line, first column, last column) taken here
    for hit in finder.finditer(data):
        spelled = hit.group().decode("utf-8", "surrogateescape")
        new, why = wanted[spelled]
        if new is not None and data[hit.end():hit.end() + 1] == b"/":
            continue  # a path, not a module
        line = data.count(b"\n", 0, hit.start()) + 1
        line_start = data.rfind(b"\n", 0, hit.start()) + 1
        column = len(data[line_start:hit.start()].decode("utf-8", "surrogateescape")) + 1
        span = (line, column, column + len(spelled))
        if any(e.start < hit.end() and hit.start() < e.end for e in new_edits):
            new = None
            why += ", and another edit overlaps it"
        if new is not None:  # the reference follows the file: an edit of the sweep's
            if edits:
                new_edits.append(Edit(hit.start(), hit.end(), new.encode()))
            refs.append(Reference(found.path, line, column, spelled, new, RESIDUAL, None,
                                  f"`{spelled}` {why}"))
        else:
            refs.append(Reference(found.path, line, column, spelled, spelled, RESIDUAL, REASON,
                                  f"`{spelled}` {why}: {HINT}"))
        spans.append(span)
    if not spans:
        return found
    near = tuple(m for m in found.near_misses
                 if not any(m.line == line and first <= m.column < last for line, first, last in spans))
    new_edits.sort(key=lambda e: e.start)
    return replace(found, references=tuple(refs), edits=tuple(new_edits), near_misses=near)
