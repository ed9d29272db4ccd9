"""The repository use cases: sweep, verify and audit, from plain values to plain results.

Everything a library user or a command needs decided is decided here (journal
recovery, the refusals, the verdict); the CLI only parses, calls and renders.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from renamer import debug, vcs
from renamer.allowlist import Exemption
from renamer.errors import UnsafeError
from renamer.project import LoadedProject
from renamer.report.machine import audit_document, exemption_dict, sweep_document, verify_document
from renamer.sweep.anchors import follow_anchors
from renamer.sweep.apply import Applied, apply_plan, check_clean, commit_written, recover_interrupted
from renamer.sweep.collisions import Collision, collisions, new_values
from renamer.sweep.decisions import FileEdit, Pruned, keep_rules_edit, prune_edits, to_prune
from renamer.sweep.decisions import write as write_edits
from renamer.sweep.history import record_rewrite, wants_blame_file
from renamer.sweep.interactive import Choices, Hunk, hunks, keep_rule, reduce
from renamer.sweep.journal import Recovery, pending
from renamer.sweep.model import Reference, ScanResult
from renamer.sweep.plan import Plan, plan_sweep, repo_relative, scan_repo
from renamer.sweep.preview import diff_bytes, edit_list
from renamer.sweep.scan import ScanOptions
from renamer.sweep.stale import Stale, expired_exemptions, stale_exemptions
from renamer.sweep.summary import Summary, Verdict, trailer_lines
from renamer.sweep.tombstones import Tombstone, added_lines, moves_of, new_version, tombstones
from renamer.vcs import Listing
from renamer.words import plural

Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class SweepResult:
    plan: Plan
    summary: Summary
    diff: bytes  # the dry-run diff, made from the original bytes before anything was written
    applied: Applied | None  # None for a dry run
    recovered: Recovery | None  # an interrupted sweep this run completed first
    interrupted: bool  # a dry run found an interrupted sweep still pending
    collisions: list[Collision] = field(default_factory=list)  # listed by a dry run

    def data(self) -> dict[str, Any]:
        """What `sweep --format json` prints."""
        return sweep_document(self.plan.project.config.name, self.summary, edit_list(self.plan),
                              self.applied is None, self.collisions)


@dataclass(frozen=True)
class VerifyResult:
    scan: ScanResult
    summary: Summary
    verdict: Verdict
    name: str
    interrupted: bool
    expired: list[Exemption] = field(default_factory=list)
    collisions: list[Collision] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.verdict.ok

    def data(self) -> dict[str, Any]:
        """What `verify --format json` prints."""
        return {**verify_document(self.name, self.summary, self.verdict),
                "expired": [exemption_dict(e) for e in self.expired],
                "collisions": [c.data() for c in self.collisions]}


@dataclass(frozen=True)
class AuditResult:
    summary: Summary
    references: list[Reference]
    stale: list[Stale]
    name: str
    interrupted: bool
    expired: list[Exemption] = field(default_factory=list)

    @property
    def failed(self) -> bool:
        """What `audit --strict` fails on: problems, stale or expired exemptions, unreadable files."""
        s = self.summary
        return bool(s.residual or s.unclassified or s.skipped_files or self.expired
                    or any(not stale.files for stale in self.stale))

    def data(self) -> dict[str, Any]:
        """What `audit --format json` prints."""
        return {**audit_document(self.name, self.summary, self.references, self.stale),
                "expired": [exemption_dict(e) for e in self.expired]}


def sweep(project: LoadedProject, paths: Sequence[Path] = (), *, cwd: Path | None = None,
          dry_run: bool = False, commit: bool = False, allow_dirty: bool = False,
          include_ignored: bool = False, with_diff: bool = True, progress: Progress | None = None,
          listing: Listing | None = None, hooks: bool = True,
          blame_ignore: bool | None = None) -> SweepResult:
    """Plan the sweep and, unless `dry_run`, apply it (committing if asked). With a commit,
    the rewrite goes into .git-blame-ignore-revs in a commit of its own when `blame_ignore`
    says so (None: when the repo already keeps that file or git config names one).

    Before writing: an interrupted sweep is completed first; a sweep that cannot
    read every file, or a dirty work tree (unless `allow_dirty`), is refused.
    """
    prefixes = repo_relative(project, list(paths), cwd or Path.cwd())
    recovered = None if dry_run else recover_interrupted(project.root)
    interrupted = dry_run and pending(project.root) is not None
    finished: list[str] = []
    if recovered is not None:
        listing = None  # the recovery changed the tree: list it again
        if commit and recovered.commit_message:  # the interrupted sweep's own commit, first
            finished = commit_written(project.root, recovered.targets, recovered.commit_message,
                                      hooks=hooks)
    # A dry run also runs the looser pass, so that it counts the near-misses verify reports.
    options = ScanOptions(texts=False, loose=dry_run, present=new_values(project) if dry_run else ())
    plan = plan_sweep(project, prefixes, include_ignored, options,
                      progress=progress, listing=listing)
    if not dry_run:
        _refuse_unsafe(plan, allow_dirty, recovered)
    with debug.timed("diff"):
        diff = diff_bytes(plan) if with_diff else b""
    with debug.timed("write and commit" if commit else "write"):
        applied = None if dry_run else apply_plan(plan, commit=commit, hooks=hooks)
    if applied is not None and finished:
        applied = replace(applied, commits=(*finished, *applied.commits))
    if applied is not None and commit and applied.commits and wants_blame_file(project.root, blame_ignore):
        config = project.config
        sha = record_rewrite(project.root, applied.commits[-1], config.name, config.display(config.path),
                             hooks=hooks)
        if sha:
            applied = replace(applied, commits=(*applied.commits, sha))
    found = collisions(project, plan.scan) if dry_run else []
    return SweepResult(plan, Summary.of(plan), diff, applied, recovered, interrupted, found)


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


def sweep_interactive(project: LoadedProject, ask: Ask, paths: Sequence[Path] = (), *,
                      cwd: Path | None = None, commit: bool = False, allow_dirty: bool = False,
                      include_ignored: bool = False, hooks: bool = True) -> InteractiveResult:
    """The sweep, hunk by hunk: `ask` answers for the planned hunks (None: quit, nothing written).
    The refusals come first, so nobody answers questions for a sweep that cannot run. Keep rules
    go into the first allowlist file after the files are written (with `commit`, in a commit of
    their own)."""
    prefixes = repo_relative(project, list(paths), cwd or Path.cwd())
    recovered = recover_interrupted(project.root)
    plan = plan_sweep(project, prefixes, include_ignored, ScanOptions(texts=False))
    _refuse_unsafe(plan, allow_dirty, recovered)
    read = {c.path: (project.root / c.path).read_bytes() for c in plan.changes if c.edits}
    found = hunks(plan, read)
    choices = ask(found, read) if found else Choices()
    if choices is None:
        return InteractiveResult(plan, Summary.of(plan), None, len(found), [], None, [])
    taken = {rule.name for rule in project.allowlist.keep}
    by_key = {(h.path, h.line): h for h in found}
    names: dict[tuple[str, int], str] = {}
    rules = []
    renamed = {c.path: c.new_path for c in plan.changes if c.new_path and (c.path, 0) in choices.accepted}
    for key, reason in choices.kept.items():
        rule = keep_rule(by_key[key], reason, taken, renamed.get(key[0]))
        taken.add(rule["name"])
        names[key] = rule["name"]
        rules.append(rule)
    edit = None
    if rules:
        target = project.config.allowlist_paths[0]
        edit = keep_rules_edit(target, project.config.display(target), rules)  # refused before any write
    reduced, refused = reduce(plan, read, choices, project.allowlist.inline_marker, names)
    applied = apply_plan(reduced, commit=commit, hooks=hooks)
    if edit is not None:
        write_edits([edit])
        shown = project.config.display(edit.path)
        if commit and project.git and not Path(shown).is_absolute():
            config = project.config
            message = (f"{config.name}: {plural(len(rules), 'keep rule')} decided in "
                       f"renamer sweep --interactive\n\n"
                       + "".join(f"  {r['name']}: {r['path']}: {r['reason']}\n" for r in rules) + "\n"
                       + "".join(f"{line}\n" for line in
                                 trailer_lines(config.name, config.display(config.path), "decisions")))
            sha = vcs.commit(project.root, [shown], message, hooks=hooks)
            if sha:
                applied = replace(applied, commits=(*applied.commits, sha))
    return InteractiveResult(reduced, Summary.of(reduced), applied, len(found), rules,
                             edit.display if edit else None, refused)


def apply_planned(plan: Plan, *, commit: bool = False, allow_dirty: bool = False,
                  hooks: bool = True) -> Applied:
    """Apply a plan made earlier (the library's plan-then-apply), with the sweep's refusals."""
    recovered = recover_interrupted(plan.project.root)
    if recovered is not None:
        raise UnsafeError(f"{plan.project.root}: an interrupted sweep was completed first "
                          f"({len(recovered.targets)} files); plan again: this plan is out of date")
    _refuse_unsafe(plan, allow_dirty, None)
    return apply_plan(plan, commit=commit, hooks=hooks)


def _refuse_unsafe(plan: Plan, allow_dirty: bool, recovered: Recovery | None) -> None:
    """Refuse a sweep that cannot see every file, or one over uncommitted changes."""
    unreadable = plan.scan.skipped_files
    if unreadable:
        path, why = unreadable[0]
        more = f" and {len(unreadable) - 1} more" if len(unreadable) > 1 else ""
        raise UnsafeError(f"{path}: cannot read ({why}){more}; "
                          "a sweep that cannot see every file could miss a live reference: nothing written")
    if not allow_dirty and plan.changes:  # nothing to write: nothing to refuse
        check_clean(plan.project, frozenset(recovered.targets) if recovered else frozenset())


def verify(project: LoadedProject, *, strict: bool = False, include_ignored: bool = False,
           progress: Progress | None = None, listing: Listing | None = None,
           today: dt.date | None = None) -> VerifyResult:
    """Every live reference left, every near-miss, expired exemptions, collisions, and the verdict."""
    options = ScanOptions(locate=True, locate_records=False, loose=True, edits=False,
                          present=new_values(project))
    scan = scan_repo(project, options, include_ignored=include_ignored, progress=progress, listing=listing)
    with debug.timed("anchors"):
        scan = follow_anchors(project, scan)  # a link keeps the anchor its target keeps
    summary = Summary.of_scan(scan)
    expired = expired_exemptions(project.allowlist, today or dt.date.today())
    found = collisions(project, scan)
    strict_collisions = sum(1 for c in found if c.strict_failure)
    verdict = summary.verdict(strict=strict, expired=len(expired), collisions=strict_collisions)
    return VerifyResult(scan, summary, verdict, project.config.name, pending(project.root) is not None,
                        expired, found)


def audit(project: LoadedProject, *, include_ignored: bool = False, progress: Progress | None = None,
          listing: Listing | None = None, today: dt.date | None = None) -> AuditResult:
    """Every reference left on purpose and why, the problems, and exemptions that matched nothing."""
    options = ScanOptions(locate=True, locate_records=True, loose=True, edits=False)
    scan = scan_repo(project, options, include_ignored=include_ignored, progress=progress, listing=listing)
    with debug.timed("anchors"):
        scan = follow_anchors(project, scan)
    refs = scan.references()
    return AuditResult(Summary.of_scan(scan), refs, stale_exemptions(project.allowlist, refs, scan.paths),
                       project.config.name, pending(project.root) is not None,
                       expired_exemptions(project.allowlist, today or dt.date.today()))


@dataclass(frozen=True)
class PruneResult:
    pruned: list[Pruned]
    edits: list[FileEdit]
    written: bool

    def data(self) -> dict[str, Any]:
        """What `audit --prune --format json` prints."""
        return {"written": self.written,
                "removed": [{**exemption_dict(p.exemption), "why": p.why} for p in self.pruned],
                "files": [e.display for e in self.edits]}


def prune(project: LoadedProject, result: AuditResult, *, write: bool = False) -> PruneResult:
    """Keep rules that kept nothing and expired exemptions, removed from the user's allowlist
    files (only with `write`: a dry run by default)."""
    pruned = to_prune(project.allowlist, result.stale, result.expired)
    edits = prune_edits(pruned)
    if write:
        write_edits(edits)
    return PruneResult(pruned, edits, write)


@dataclass(frozen=True)
class TombstoneResult:
    tombstones: list[Tombstone]
    files: int  # files the change adds lines to
    lines: int  # lines it adds
    moves: list[str]

    @property
    def ok(self) -> bool:
        return not self.tombstones

    def data(self) -> dict[str, Any]:
        """What `verify --staged/--since --format json` prints."""
        return {"ok": self.ok, "moves": self.moves, "files": self.files, "lines": self.lines,
                "tombstones": [{"path": t.path, "line": t.line, "column": t.column, "old": t.old,
                                "new": t.new, "move": t.move, "date": t.date, "message": t.message()}
                               for t in self.tombstones]}


def verify_change(project: LoadedProject, *, staged: bool = False,
                  since: str | None = None) -> TombstoneResult:
    """Tombstones: old values of this move or a past one on the lines a change adds (the index
    against HEAD with `staged`, the commits since `since` otherwise)."""
    if not project.git:
        raise UnsafeError(f"{project.root}: --staged and --since need a git repository")
    moves = moves_of(project)
    added = added_lines(project.root, staged=staged, since=since)
    found = tombstones(project, moves, added,
                       lambda path: new_version(project.root, path, staged=staged))
    return TombstoneResult(found, len(added), sum(len(lines) for lines in added.values()),
                           [m.name for m in moves])
