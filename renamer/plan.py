"""Scan the repository and plan a sweep: decisions only, nothing written."""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from renamer import vcs
from renamer.classify import EXCLUDED
from renamer.errors import ConfigError, UnsafeError
from renamer.model import FileResult, ScanResult
from renamer.project import Project
from renamer.scan import FileScanner, ScanOptions

Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class Plan:
    project: Project
    scan: ScanResult

    @property
    def changes(self) -> list[FileResult]:
        return [f for f in self.scan.files if f.edits or f.new_path]

    @property
    def renames(self) -> list[tuple[str, str]]:
        return [(f.path, f.new_path) for f in self.scan.files if f.new_path]


def repo_relative(project: Project, paths: Sequence[Path], cwd: Path) -> list[str]:
    """PATHS arguments as repo-relative prefixes; refuses paths outside the repo."""
    out = []
    for path in paths:
        absolute = (cwd / path).resolve() if not path.is_absolute() else path.resolve()
        try:
            rel = absolute.relative_to(project.root).as_posix()
        except ValueError:
            raise UnsafeError(f"{path}: outside the repository {project.root}") from None
        if not absolute.exists():
            raise ConfigError(f"{path}: no such file or folder")
        out.append("" if rel == "." else rel)
    return out


def _selected(rel: str, prefixes: list[str]) -> bool:
    return not prefixes or any(p == "" or rel == p or rel.startswith(p + "/") for p in prefixes)


def scan_repo(project: Project, options: ScanOptions, prefixes: Sequence[str] = (),
              include_ignored: bool = False, progress: Progress | None = None) -> ScanResult:
    """Scan every file the sweep would see; keep the files with anything to say."""
    classifier = project.classifier
    listed = vcs.scanned_files(project.root) if project.git else vcs.walk_files(project.root)
    chosen = [rel for rel in listed if _selected(rel, list(prefixes))]
    result = ScanResult()
    ignored: list[str] = []
    if project.git:
        ignored = [rel for rel in vcs.ignored_files(project.root)
                   if _selected(rel, list(prefixes)) and classifier.is_current_pattern(rel)
                   and not classifier.is_excluded(rel)]
        if include_ignored:
            chosen = sorted(set(chosen) | set(ignored))
            ignored = []
    scanner = FileScanner(project, options)
    work = [(rel, classifier.classify(rel)) for rel in chosen]
    work = [(rel, klass) for rel, klass in work if klass.status != EXCLUDED]
    for done, (rel, klass) in enumerate(work, 1):
        found = scanner.scan(rel, klass)
        if progress and done % 256 == 0:
            progress(done, len(work))
        if found is None:
            continue
        result.files_scanned += 1
        if found.kind == "unreadable":
            result.skipped_files.append((rel, found.refused or "unreadable"))
            continue
        if found.references or found.new_path or found.near_misses:
            result.files.append(found)
    if progress:
        progress(len(work), len(work))
    for rel in ignored:
        found = scanner.scan(rel)
        if found is not None and found.references:
            result.ignored_with_references.append(rel)
    return result


def plan_sweep(project: Project, prefixes: Sequence[str] = (), include_ignored: bool = False,
               options: ScanOptions | None = None, progress: Progress | None = None) -> Plan:
    scan = scan_repo(project, options or ScanOptions(loose=True), prefixes, include_ignored,
                     progress)
    plan = Plan(project, scan)
    _check_renames(project, plan)
    return plan


def _check_renames(project: Project, plan: Plan) -> None:
    """A rename must land on a free path inside the repo, and no two on the same one."""
    targets: dict[str, str] = {}
    for old, new in plan.renames:
        if new in targets:
            raise UnsafeError(f"{old}: would be renamed to {new}, as would {targets[new]}")
        targets[new] = old
        destination = project.root / new
        if os.path.lexists(destination):
            raise UnsafeError(f"{old}: cannot rename to {new}: that path already exists")
