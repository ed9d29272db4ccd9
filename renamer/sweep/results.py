"""What the repository use cases (`sweep/run.py`) return: plain, frozen values.

They decide nothing and render nothing: `report/machine.py` turns each into the JSON
its command prints, `report/text.py` into text.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from renamer.allowlist import Exemption
from renamer.moved_tags import TaggedMove
from renamer.sweep.apply import Applied
from renamer.sweep.collisions import Collision
from renamer.sweep.decisions import FileEdit, Pruned
from renamer.sweep.interactive import Choices, Hunk
from renamer.sweep.journal import Recovery
from renamer.sweep.model import Reference, ScanResult
from renamer.sweep.plan import Plan
from renamer.sweep.refusals import Refusal
from renamer.sweep.stale import Stale
from renamer.sweep.summary import Summary, Verdict
from renamer.sweep.tombstones import LiveAgain, Tombstone


@dataclass(frozen=True)
class SweepResult:
    plan: Plan
    summary: Summary
    diff: bytes  # the dry-run diff, made from the original bytes before anything was written
    applied: Applied | None  # None for a dry run
    recovered: Recovery | None  # an interrupted sweep this run completed first
    interrupted: bool  # a dry run found an interrupted sweep still pending
    collisions: list[Collision] = field(default_factory=list)  # listed before the first write (dry run too)
    completed: list[str] = field(default_factory=list)  # the commit made of the recovered rewrite
    refused: list[Refusal] = field(default_factory=list)  # what a sweep that writes refuses on (dry run)
    expired: list[Exemption] = field(default_factory=list)  # exemptions past their day (verify fails)
    operation: str | None = None  # a dry run's note of git's merge, rebase, ... in progress
    adopted: int = 0  # files an earlier plain sweep wrote, left uncommitted, and this run committed
    uncommitted: int = 0  # files an earlier plain sweep wrote and left uncommitted (a run that commits not)
    missing_zones: int = 0  # reverse zones the moves need that the repo does not name (written or planned)
    # `key:` keep rules whose files hold old values at none of which the key path stands (a typo'd path,
    # a file its format cannot parse): the sweep rewrites what they were written to keep (t26-32 #05)
    dead_keys: list[Stale] = field(default_factory=list)

    @property
    def undecided(self) -> int:
        """What a sweep that wrote leaves for a decision, where `verify` would fail on it: residuals
        it cannot rewrite (pins, identifiers, ranges, refused structures), unclassified references,
        expired exemptions. A dry run decides nothing: 0."""
        return 0 if self.applied is None else self.left_for_decision

    @property
    def left_for_decision(self) -> int:
        """What `undecided` counts, for a dry run too: what a sweep that writes would leave (a dry
        run counts the reverse zones the files as written would miss, as the writing sweep does)."""
        relinked = {path for path, _, _ in self.summary.relinks}  # the sweep re-pointed these itself
        stuck = [r for r in self.summary.stuck if not (r.reason == "dangling-link" and r.path in relinked)]
        return len(stuck) + len(self.summary.unclassified) + len(self.expired) + self.missing_zones


@dataclass(frozen=True)
class VerifyResult:
    scan: ScanResult
    summary: Summary
    verdict: Verdict
    name: str
    interrupted: bool
    expired: list[Exemption] = field(default_factory=list)
    collisions: list[Collision] = field(default_factory=list)
    unchecked: list[str] = field(default_factory=list)  # paths given (verify PATH...) holding no file checked

    @property
    def ok(self) -> bool:
        return self.verdict.ok


@dataclass(frozen=True)
class AuditResult:
    summary: Summary
    references: list[Reference]
    stale: list[Stale]
    name: str
    interrupted: bool
    expired: list[Exemption] = field(default_factory=list)
    moved_expired: list[TaggedMove] = field(default_factory=list)  # tagged `moved` blocks past expiry

    @property
    def failed(self) -> bool:
        """What `audit --strict` fails on: problems, stale or expired exemptions, unreadable files."""
        s = self.summary
        return bool(s.residual or s.unclassified or s.skipped_files or self.expired
                    or any(stale.is_stale for stale in self.stale))


@dataclass(frozen=True)
class InteractiveResult:
    plan: Plan  # as the answers left it
    summary: Summary
    applied: Applied | None  # None: quit, nothing written
    hunks: int
    rules: list[dict[str, str]]  # keep rules written into the allowlist
    allowlist: str | None  # where they were written, as shown
    refused: list[str]  # files whose chosen lines alone would break their structure: left as they were


Ask = Callable[[list[Hunk], dict[str, bytes]], Choices | None]


@dataclass(frozen=True)
class PruneResult:
    pruned: list[Pruned]
    edits: list[FileEdit]
    written: bool


@dataclass(frozen=True)
class TombstoneResult:
    tombstones: list[Tombstone]
    files: int  # files the change adds lines to
    lines: int  # lines it adds
    moves: list[str]
    live_again: list[LiveAgain] = field(default_factory=list)  # made live without an added line
    rechecked: str = ""  # what was read beyond the added lines, and why

    @property
    def ok(self) -> bool:
        return not self.tombstones and not self.live_again
