"""The library face of renamer: open a repository, plan, apply, verify, audit.

    import renamer

    project = renamer.open_project("path/to/repo")
    plan = project.plan()
    print(plan.diff())                 # what `renamer sweep --dry-run` prints as its diff
    project.apply(plan, commit=True)   # what `renamer sweep --commit` does
    assert project.verify().ok

Results carry the same data the commands' JSON formats print (`.data()`, rendered by
`renamer.report.machine`: the use cases' own results are plain values).
Failures raise `renamer.RenamerError` subclasses carrying the exit code.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields
from functools import cached_property
from os import PathLike
from pathlib import Path
from typing import TYPE_CHECKING, Any

from renamer import vcs_command
from renamer.config import Config
from renamer.project import LoadedProject, load_project
from renamer.report.machine import audit_data, plan_data, verify_data
from renamer.sites import locate_inventory, site_hosts, transition_documents
from renamer.sweep import results, run
from renamer.sweep.apply import Applied
from renamer.sweep.collisions import Collision, before_move, collisions, new_values
from renamer.sweep.model import KEPT, SKIPPED, FileResult, NearMiss, Reference
from renamer.sweep.plan import Plan, plan_sweep, repo_relative
from renamer.sweep.preview import diff_bytes
from renamer.sweep.scan import ScanOptions
from renamer.sweep.summary import Summary
from renamer.vcs_command import DEFAULT_COMMIT_TIMEOUT

if TYPE_CHECKING:
    from renamer.dns.inventory import Inventory

StrPath = str | PathLike[str]


@dataclass(frozen=True)
class SweepPlan:
    """A planned sweep: nothing written. `apply` it with the project that made it."""

    plan: Plan

    @cached_property
    def summary(self) -> Summary:
        return Summary.of(self.plan)

    @property
    def changes(self) -> list[FileResult]:
        """The files the sweep writes or renames, in path order."""
        return self.plan.changes

    @property
    def renames(self) -> list[tuple[str, str]]:
        return self.plan.renames

    @property
    def kept(self) -> list[Reference]:
        """References left on purpose (records, dated files and sections, keep rules, markers)."""
        return [r for r in self.plan.scan.references() if r.status == KEPT]

    @property
    def skipped(self) -> list[Reference]:
        """References in files never rewritten (binary, too large, another encoding, links)."""
        return [r for r in self.plan.scan.references() if r.status == SKIPPED]

    @property
    def residual(self) -> list[Reference]:
        """References the sweep cannot fix (identifiers, refused structured edits)."""
        return self.summary.stuck

    @property
    def near_misses(self) -> list[NearMiss]:
        return self.summary.derived + self.summary.near_misses

    def diff_bytes(self) -> bytes:
        """The diff exactly as `sweep --dry-run` prints it (bytes: files keep their encoding)."""
        return diff_bytes(self.plan)

    def diff(self) -> str:
        """The same diff as text; bytes that are not UTF-8 survive as surrogate escapes."""
        return self.diff_bytes().decode("utf-8", "surrogateescape")

    @cached_property
    def collisions(self) -> list[Collision]:
        """Where a new value the sweep writes stands already (docs/after-the-move.md)."""
        project = self.plan.project
        refused = [r.path for r in self.plan.refusals]
        return collisions(project, self.plan.scan, site_hosts(project.config), refused)

    def data(self) -> dict[str, Any]:
        """What `sweep --dry-run --format json` prints."""
        return plan_data(self.plan, self.summary, self.collisions)


@dataclass(frozen=True)
class VerifyResult(results.VerifyResult):
    """`renamer.sweep.results.VerifyResult`, with its JSON."""

    def data(self) -> dict[str, Any]:
        """What `verify --format json` prints."""
        return verify_data(self)


@dataclass(frozen=True)
class AuditResult(results.AuditResult):
    """`renamer.sweep.results.AuditResult`, with its JSON; and the DNS inventory's transitional
    aliases, their window open or over, with their dates (`dns_transitional`, state `in-window` or
    `expired`: from the clock and the site files, no resolver asked; renamer/dns/transition.py)."""

    dns_transitional: tuple[dict[str, object], ...] = ()

    def data(self) -> dict[str, Any]:
        """What `audit --format json` prints."""
        return {**audit_data(self), "dns_transitional": list(self.dns_transitional)}


class Project:
    """A repository opened for a move: its config, allowlist and the rules compiled from them."""

    def __init__(self, loaded: LoadedProject) -> None:
        self.loaded = loaded

    @property
    def root(self) -> Path:
        return self.loaded.root

    @property
    def config(self) -> Config:
        return self.loaded.config

    def plan(self, paths: Sequence[StrPath] = (), *, include_ignored: bool = False,
             allow_identity: bool = False) -> SweepPlan:
        """Plan the sweep (of `paths` only, relative to the repo root, if given); `allow_identity`:
        Kubernetes identities follow, as `sweep --allow-identity`."""
        prefixes = repo_relative(self.loaded, [Path(p) for p in paths], self.root)
        # As `sweep --dry-run`: the looser pass too, so that near-misses are counted alike.
        options = ScanOptions(texts=False, loose=True, present=new_values(self.loaded),
                              before_move=before_move(self.loaded), allow_identity=allow_identity)
        return SweepPlan(plan_sweep(self.loaded, prefixes, include_ignored, options))

    def apply(self, plan: SweepPlan, *, commit: bool = True, allow_dirty: bool = False,
              hooks: bool = True, commit_timeout: float | None = DEFAULT_COMMIT_TIMEOUT) -> Applied:
        """Write the plan (renames first, then the rewrite), committing unless told not to;
        the repo's commit hooks run unless `hooks=False` (git's --no-verify). A git commit still
        running after `commit_timeout` seconds (None: no limit) is stopped, hooks and all, as
        `sweep --commit-timeout` does (RenamerError; the next commit makes it).

        Refused (UnsafeError, nothing written) when a file cannot be read, the work tree is
        dirty (unless `allow_dirty`), a file changed since planning, or an interrupted sweep
        had to be completed first (plan again then).
        """
        request = run.SweepRequest(commit=commit, allow_dirty=allow_dirty, hooks=hooks)
        with vcs_command.commit_timeout(commit_timeout):
            return run.apply_planned(plan.plan, request)

    def verify(self, *, strict: bool = False, include_ignored: bool = False) -> VerifyResult:
        """What `renamer verify` proves: `.verdict.ok`, and `.data()` as its JSON."""
        result = run.verify(self.loaded, strict=strict, include_ignored=include_ignored,
                            hosts=site_hosts(self.config))
        return VerifyResult(**{f.name: getattr(result, f.name) for f in fields(result)})

    def audit(self, *, include_ignored: bool = False) -> AuditResult:
        """What `renamer audit` lists: `.references`, `.stale`, and `.data()` as its JSON."""
        result = run.audit(self.loaded, include_ignored=include_ignored)
        return AuditResult(**{f.name: getattr(result, f.name) for f in fields(result)},
                           dns_transitional=tuple(transition_documents(self.config)))

    def inventory(self) -> Inventory:
        """The DNS inventory this project's renamer.yaml points at (or dns/)."""
        return locate_inventory(self.root, self.config.path, self.root)


def open_project(repo: StrPath, config: StrPath | None = None) -> Project:
    """Open the repository at `repo` with its renamer.yaml (or `config`)."""
    root = Path(repo)
    return Project(load_project(root, Path(config) if config is not None else None, root))
