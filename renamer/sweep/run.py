"""The repository use cases: sweep, verify and audit, from plain values to plain results.

Everything a library user or a command needs decided is decided here (journal
recovery, the refusals, the verdict); the CLI only parses, calls and renders.
"""

from __future__ import annotations

import datetime as dt
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from renamer import debug, moved_tags, once, vcs
from renamer.errors import UnsafeError
from renamer.project import LoadedProject
from renamer.sweep.added import added_lines, base_version, new_version, touched_paths
from renamer.sweep.anchors import follow_anchors
from renamer.sweep.apply import Applied, apply_plan, commit_pending
from renamer.sweep.captured import captured
from renamer.sweep.collisions import (
    Collision,
    SiteHost,
    before_move,
    collisions,
    merged_folders,
    new_values,
    set_collisions,
    vars_collisions,
    written_collisions,
)
from renamer.sweep.content import read_scanned
from renamer.sweep.decisions import check_inside, keep_rules_edit, prune_edits, to_prune
from renamer.sweep.decisions import write as write_edits
from renamer.sweep.delegated_ids import delegated_ids
from renamer.sweep.dirty import Uncommitted
from renamer.sweep.guard import (
    check_clean,
    check_index,
    check_operation,
    operation_note,
    recover_interrupted,
    sweep_lock,
)
from renamer.sweep.held_paths import dangling_references, follow_held_paths, held_paths
from renamer.sweep.history import record_rewrite, wants_blame_file
from renamer.sweep.interactive import Choices, hunks, keep_rule, reduce
from renamer.sweep.journal import Recovery, clear, pending
from renamer.sweep.kept_collisions import kept_collisions
from renamer.sweep.messages import trailer_lines
from renamer.sweep.module_refs import dangling_modules, follow_modules
from renamer.sweep.past_lines import past_lines
from renamer.sweep.pins import stale_manifest_pins, with_references
from renamer.sweep.pins_history import stale_history_pins
from renamer.sweep.plan import Plan, plan_sweep, repo_relative, scan_repo
from renamer.sweep.preview import diff_bytes, planned_files
from renamer.sweep.refusals import inventory_refusals, refuse
from renamer.sweep.results import (
    Ask,
    AuditResult,
    InteractiveResult,
    PruneResult,
    SweepResult,
    TombstoneResult,
    VerifyResult,
)
from renamer.sweep.reverse_zones import missing_zones
from renamer.sweep.scan import FileScanner, ScanOptions
from renamer.sweep.stale import dead_keep_rules, expired_exemptions, stale_exemptions
from renamer.sweep.summary import Summary
from renamer.sweep.tombstones import live_again, live_in_repo, moves_of, tombstones
from renamer.sweep.uci_pools import uci_pools
from renamer.sweep.uncommitted import commit_pending_rewrite, pending_rewrite
from renamer.vcs_listing import Listing
from renamer.words import plural

Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class SweepRequest:
    """What a sweep is asked to do: the decisions a command's flags (or the API's keywords) make."""

    dry_run: bool = False
    commit: bool = False
    allow_dirty: bool = False
    include_ignored: bool = False
    hooks: bool = True  # the repo's commit hooks run (False: git's --no-verify)
    blame_ignore: bool | None = None  # None: when the repo already keeps .git-blame-ignore-revs
    with_diff: bool = True  # make the dry-run diff (only `--format diff` prints it)
    update_pins: bool = False  # rewrite the digests of rewritten files where their format is certain
    allow_identity: bool = False  # Kubernetes identities follow (kube_identities.py), not residuals


@dataclass(frozen=True)
class Runtime:
    """Performance plumbing, not decisions: a progress callback and an early `git ls-files`."""

    progress: Progress | None = None
    listing: Listing | None = None


def sweep(project: LoadedProject, request: SweepRequest, paths: Sequence[Path] = (), *,
          cwd: Path | None = None, hosts: Sequence[SiteHost] = (),
          runtime: Runtime = Runtime()) -> SweepResult:
    """Plan the sweep and, unless `dry_run`, apply it (committing if asked). With a commit,
    the rewrite goes into .git-blame-ignore-revs in a commit of its own when `blame_ignore`
    says so (None: when the repo already keeps that file or git config names one). A dry run
    lists collisions, the DNS inventory's `hosts` included.

    Before writing: an interrupted sweep is completed first; a sweep that cannot
    read every file, or a dirty work tree (unless `allow_dirty`), is refused.
    """
    dry_run, commit, hooks = request.dry_run, request.commit, request.hooks
    listing = runtime.listing
    prefixes = repo_relative(project, list(paths), cwd or Path.cwd())
    if not dry_run:  # before the recovery too: it writes
        check_operation(project)
    recovered = None if dry_run else recover_interrupted(project.root, commit=commit)
    interrupted = dry_run and pending(project.root) is not None
    finished: list[str] = []
    earlier = "the interrupted sweep's rewrite"
    if recovered is not None:
        listing = None  # the recovery changed the tree: list it again
        finished = _complete(project.root, recovered, commit, hooks)
    # A plain sweep's rewrite, left uncommitted: a `--commit` run commits it as that sweep's own, or
    # refuses where it no longer is (uncommitted.py); never "nothing to change" over it.
    left = pending_rewrite(project.root, tidy=not dry_run) if project.git and recovered is None else None
    adopted = 0
    if left is not None and commit and not dry_run:
        with sweep_lock(project.root):
            finished = commit_pending_rewrite(project.root, left, hooks=hooks)
        adopted, earlier, listing = left.count, "an earlier `renamer sweep`'s rewrite", None
    plan, found = _plan_and_check(project, request, prefixes, listing, runtime, hosts, recovered, finished,
                                  earlier)
    with debug.timed("diff"):
        diff = diff_bytes(plan) if request.with_diff else b""
    with debug.timed("write and commit" if commit else "write"):
        applied = None if dry_run else apply_plan(plan, commit=commit, hooks=hooks)
    if applied is not None and finished:
        applied = replace(applied, commits=(*finished, *applied.commits))
    blame_ignore = request.blame_ignore
    if (applied is not None and commit and applied.commits and not applied.interrupted
            and wants_blame_file(project.root, blame_ignore)):
        config = project.config
        sha = record_rewrite(project.root, applied.commits[-1], config.name, config.display(config.path),
                             hooks=hooks)
        if sha:
            applied = replace(applied, commits=(*applied.commits, sha))
    # verify fails on them; a dry run reads the files as the sweep would write them (f28, finding 17)
    planned = None if applied is not None else lambda: planned_files(plan)
    missing = len(missing_zones(project, prefixes, planned))
    summary = Summary.of(plan)
    if dry_run:
        summary = replace(summary, past=past_lines(project.root, plan.scan.files, project.config.cutover,
                                                   dt.date.today()))
    return SweepResult(plan, summary, diff, applied, recovered, interrupted, found, finished,
                       plan.refusals if dry_run else [],
                       expired_exemptions(project.allowlist, dt.date.today()),
                       operation_note(project) if dry_run else None,
                       adopted=adopted, uncommitted=left.count if left is not None and not commit else 0,
                       missing_zones=missing, dead_keys=dead_keep_rules(project.allowlist, plan.scan))


@once.scoped
def _plan_and_check(project: LoadedProject, request: SweepRequest, prefixes: list[str],
                    listing: Listing | None, runtime: Runtime, hosts: Sequence[SiteHost],
                    recovered: Recovery | None, finished: list[str],
                    earlier: str) -> tuple[Plan, list[Collision]]:
    """The plan, its refusals and its collisions, in one scope (once.py): what git says of the
    tree and its history is asked once for all of them (nothing is written or committed here; a
    recovery's and an adopted rewrite's commits come before, the sweep's own after)."""
    dry_run = request.dry_run
    # Both kinds run the looser pass: a dry run counts the near-misses verify reports, and a sweep
    # that writes lists the residuals only that pass finds (a DNS name in another case where a file
    # makes a record) and exits 1 on them as verify fails on them; it said OK before (round 25).
    # Both kinds list collisions (a sweep that writes reads them before its first write): never silent.
    options = ScanOptions(texts=False, loose=True, present=new_values(project),
                          before_move=before_move(project), allow_identity=request.allow_identity)
    plan = plan_sweep(project, prefixes, request.include_ignored, options,
                      progress=runtime.progress, listing=listing, update_pins=request.update_pins)
    if project.config.renames.networks:  # OpenWrt pools a shrink cannot hold (another file names the network)
        plan = replace(plan, scan=with_references(plan.scan, [*uci_pools(project, prefixes),
                                                               *delegated_ids(project, prefixes)]))
    # patterns and access networks the new values fall under and the old did not (t35 finding 01)
    plan = replace(plan, scan=with_references(plan.scan, captured(project, prefixes)))
    if hosts and project.config.renames.networks:  # the DNS inventory's addresses are in use too
        held = inventory_refusals(project.config.renames.networks, hosts)
        plan = replace(plan, inventory_refusals=tuple(held))
    if not dry_run:
        try:
            _refuse_unsafe(plan, request.allow_dirty, recovered)
        except UnsafeError as exc:
            if not finished:
                raise
            raise UnsafeError(f"committed {finished[-1][:12]}, {earlier}; then refused: {exc}") from None
    found = collisions(project, plan.scan, hosts, [r.path for r in plan.refusals])  # before any write
    return plan, found


def _complete(root: Path, recovered: Recovery, commit: bool, hooks: bool) -> list[str]:
    """The commit of an interrupted sweep's rewrite, finished forward, when this run commits;
    its journal is done once the commit is made (kept, for the next run, if it fails)."""
    if not (commit and recovered.commit_message):
        return []
    made, _ = commit_pending(root, recovered.targets, recovered.commit_message, hooks=hooks,
                             dirty=Uncommitted.from_json(recovered.uncommitted))
    clear(root)
    return made


def sweep_interactive(project: LoadedProject, ask: Ask, request: SweepRequest, paths: Sequence[Path] = (), *,
                      cwd: Path | None = None) -> InteractiveResult:
    """The sweep, hunk by hunk: `ask` answers for the planned hunks (None: quit, nothing written).
    The refusals come first, so nobody answers questions for a sweep that cannot run. Keep rules
    go into the first allowlist file after the files are written (with `commit`, in a commit of
    their own). The request's `dry_run`, `blame_ignore` and `with_diff` do not apply."""
    commit, hooks = request.commit, request.hooks
    prefixes = repo_relative(project, list(paths), cwd or Path.cwd())
    check_operation(project)
    recovered = recover_interrupted(project.root, commit=commit)
    if recovered is not None:
        _complete(project.root, recovered, commit, hooks)
    plan = plan_sweep(project, prefixes, request.include_ignored,
                      ScanOptions(texts=False, before_move=before_move(project),
                                  allow_identity=request.allow_identity))
    _refuse_unsafe(plan, request.allow_dirty, recovered)
    read = {c.path: b"" if c.created else read_scanned(project.root / c.path)  # a moved.tf it creates
            for c in plan.changes if c.edits}
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
        check_inside(project.root, edit)
    reduced, refused = reduce(plan, read, choices, project.allowlist.inline_marker, names)
    applied = apply_plan(reduced, commit=commit, hooks=hooks)
    if edit is not None:
        write_edits(project.root, [edit])
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


def apply_planned(plan: Plan, request: SweepRequest) -> Applied:
    """Apply a plan made earlier (the library's plan-then-apply), with the sweep's refusals."""
    check_operation(plan.project)
    recovered = recover_interrupted(plan.project.root, commit=request.commit)
    if recovered is not None:
        _complete(plan.project.root, recovered, request.commit, request.hooks)
        raise UnsafeError(f"{plan.project.root}: an interrupted sweep was completed first "
                          f"({len(recovered.targets)} files); plan again: this plan is out of date")
    made: list[str] = []
    left = pending_rewrite(plan.project.root) if request.commit and plan.project.git else None
    if left is not None:  # a plain apply's rewrite, left uncommitted: committed first (uncommitted.py)
        with sweep_lock(plan.project.root):
            made = commit_pending_rewrite(plan.project.root, left, hooks=request.hooks)
    _refuse_unsafe(plan, request.allow_dirty, None)
    applied = apply_plan(plan, commit=request.commit, hooks=request.hooks)
    return replace(applied, commits=(*made, *applied.commits)) if made else applied


def _refuse_unsafe(plan: Plan, allow_dirty: bool, recovered: Recovery | None) -> None:
    """Refuse a sweep that cannot see every file, one whose edits would break a file's
    structure (the list its dry run shows), or one over uncommitted changes."""
    unreadable = plan.scan.skipped_files
    if unreadable:
        path, why = unreadable[0]
        more = f" and {len(unreadable) - 1} more" if len(unreadable) > 1 else ""
        raise UnsafeError(f"{path}: cannot read ({why}){more}; "
                          "a sweep that cannot see every file could miss a live reference: nothing written")
    refuse(plan.refusals)
    if not allow_dirty and plan.changes:  # nothing to write: nothing to refuse
        check_clean(plan.project, frozenset(recovered.targets) if recovered else frozenset())
    if plan.changes:
        check_index(plan.project, [path for c in plan.changes for path in (c.path, c.new_path) if path])


@once.scoped
def verify(project: LoadedProject, *, strict: bool = False, include_ignored: bool = False,
           hosts: Sequence[SiteHost] = (), runtime: Runtime = Runtime(),
           today: dt.date | None = None, paths: Sequence[Path] = (), cwd: Path | None = None) -> VerifyResult:
    """Every live reference left, every near-miss, expired exemptions, collisions (the DNS
    inventory's `hosts` included), and the verdict; in `paths` alone where given (files or
    folders, relative to `cwd`)."""
    options = ScanOptions(locate=True, locate_records=False, loose=True, edits=False,
                          present=new_values(project), before_move=before_move(project))
    prefixes = repo_relative(project, list(paths), cwd or Path.cwd())
    scan = scan_repo(project, options, prefixes, include_ignored=include_ignored, progress=runtime.progress,
                     listing=runtime.listing)
    with debug.timed("anchors"):
        scan = follow_anchors(project, scan)  # a link keeps the anchor its target keeps
    with debug.timed("held paths"):  # a path that keeps its name keeps its references
        held = held_paths(project, scan)
        scan = follow_held_paths(project, scan, held)
    with debug.timed("module paths"):  # `pws.web-vm` of a renamed `pws/web-vm.sls` (round 22, #02)
        scan = dangling_modules(project, follow_modules(project, scan))
    with debug.timed("pins"):
        manifests = stale_manifest_pins(project, scan.paths, scan.holding_new)
        seen = {(r.path, r.line, r.column) for r in manifests}
        scan = with_references(scan, [*manifests,
                                      *stale_history_pins(project, scan.paths, scan.holding_new, seen)])
    with debug.timed("dangling paths"):  # written with a new value where the path kept its old one
        scan = with_references(scan, dangling_references(project, scan, held))
    with debug.timed("reverse zones"):  # a zone a network move needs that no file declares
        scan = with_references(scan, missing_zones(project, prefixes))
    if project.config.renames.networks:  # an OpenWrt pool a shrink cannot hold, a delegated subnet ID
        scan = with_references(scan, [*uci_pools(project, prefixes), *delegated_ids(project, prefixes)])
    scan = with_references(scan, captured(project, prefixes))  # the new value under others' patterns
    summary = Summary.of_scan(scan)
    expired = expired_exemptions(project.allowlist, today or dt.date.today())
    found = [*collisions(project, scan, hosts), *written_collisions(project, scan),
             *merged_folders(project, scan), *vars_collisions(project, scan),
             *set_collisions(project, scan)]
    listed = {(c.path, c.value) for c in found}  # a collision the sweep listed, written (t31 round 24, 28)
    found += [c for c in kept_collisions(project) if (c.path, c.value) not in listed]
    strict_collisions = sum(1 for c in found if c.strict_failure)
    verdict = summary.verdict(strict=strict, expired=len(expired), collisions=strict_collisions)
    unchecked = [p or "." for p in prefixes
                 if not any(p == "" or r == p or r.startswith(p + "/") for r in scan.paths)]
    return VerifyResult(scan, summary, verdict, project.config.name, pending(project.root) is not None,
                        expired, found, unchecked)


@once.scoped
def audit(project: LoadedProject, *, include_ignored: bool = False, runtime: Runtime = Runtime(),
          today: dt.date | None = None) -> AuditResult:
    """Every reference left on purpose and why, the problems, and exemptions that matched nothing."""
    options = ScanOptions(locate=True, locate_records=True, loose=True, edits=False)
    scan = scan_repo(project, options, include_ignored=include_ignored, progress=runtime.progress,
                     listing=runtime.listing)
    with debug.timed("anchors"):
        scan = follow_anchors(project, scan)
    with debug.timed("held paths"):
        scan = follow_held_paths(project, scan)
    scan = with_references(scan, captured(project))  # patterns a keep rule lets take the new value in
    refs = scan.references()
    day = today or dt.date.today()
    moves = moved_tags.expired_moves(project.root, moved_tags.tagged_files(project.root, project.git), day)
    return AuditResult(Summary.of_scan(scan), refs, stale_exemptions(project.allowlist, refs, scan.paths),
                       project.config.name, pending(project.root) is not None,
                       expired_exemptions(project.allowlist, day), moves)


def prune(project: LoadedProject, result: AuditResult, *, write: bool = False) -> PruneResult:
    """Keep rules that kept nothing and expired exemptions, removed from the user's allowlist
    files (only with `write`: a dry run by default)."""
    pruned = to_prune(project.allowlist, result.stale, result.expired)
    edits = prune_edits(pruned)
    if write and edits:
        check_operation(project)
        write_edits(project.root, edits)
    return PruneResult(pruned, edits, write)


def verify_change(project: LoadedProject, *, staged: bool = False,
                  since: str | None = None) -> TombstoneResult:
    """Tombstones: old values of this move or a past one on the lines a change adds (the index
    against HEAD with `staged`, the commits since `since` otherwise)."""
    if not project.git:
        raise UnsafeError(f"{project.root}: --staged and --since need a git repository")
    moves = moves_of(project)
    root = project.root
    added = added_lines(root, staged=staged, since=since)
    found = tombstones(project, moves, added, lambda path: new_version(root, path, staged=staged))
    # The lines the change adds are the tombstone rule's (its refusals, a range, are no finding there).
    reported = {(path, number) for path, lines in added.items() for number, _ in lines}
    touched = touched_paths(root, staged=staged, since=since)
    # A change that edits the configuration can end any exemption (a keep rule, a record class, the
    # cutover): every file is verified again. Otherwise each touched file is read whole.
    configuration = {os.path.relpath(path.resolve(), project.root.resolve()).replace(os.sep, "/")
                     for path in (project.config.path, *project.config.allowlist_paths)}
    changed = [path for path in touched if path in configuration]
    if changed:
        result = verify(project)
        live = live_in_repo([*result.summary.residual, *result.summary.unclassified], moves[0], changed,
                            reported)
        rechecked = (f"{', '.join(changed)} changed: every file of the work tree re-checked, as "
                     "`renamer verify` does")
    else:
        scanner = FileScanner(project, ScanOptions(edits=False))
        live = live_again(project, moves[0], touched,
                          lambda path, data: scanner.scan(path, read=(data, 0o100644)),
                          lambda path: new_version(root, path, staged=staged),
                          lambda path: base_version(root, path, staged=staged, since=since), reported)
        rechecked = f"{plural(len(touched), 'changed file')} re-checked whole" if touched else ""
    return TombstoneResult(found, len(added), sum(len(lines) for lines in added.values()),
                           [m.name for m in moves], live, rechecked)
