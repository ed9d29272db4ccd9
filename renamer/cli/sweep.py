"""renamer sweep: plan, show, apply."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import click

from renamer import vcs_command
from renamer.cli.common import early_listing, project_from, warn_interrupted
from renamer.cli.interactive import Asker
from renamer.cli.options import common_options, settings
from renamer.cli.output import Output
from renamer.interrupts import deferred
from renamer.masking import hidden_changes, mask_diff
from renamer.prefix_moves import zone_changes
from renamer.report.machine import dumps, sweep_data
from renamer.report.text import sweep_summary
from renamer.sites import site_hosts
from renamer.sweep import run
from renamer.sweep.collisions import Collision
from renamer.sweep.results import SweepResult
from renamer.sweep.run import Runtime, SweepRequest
from renamer.words import plural


@click.command()
@click.option("--dry-run", is_flag=True, help="Show what would change; write nothing.")
@click.option("--commit", is_flag=True, help="Commit the result (renames first, then the rewrite).")
@click.option("--allow-dirty", is_flag=True, help="Sweep even with uncommitted changes.")
@click.option("--no-verify", "no_hooks", is_flag=True,
              help="With --commit: skip the repo's pre-commit and commit-msg hooks, as git's --no-verify.")
@click.option("--commit-timeout", type=click.FloatRange(min=0), default=vcs_command.DEFAULT_COMMIT_TIMEOUT,
              show_default=True, metavar="SECONDS",
              help="With --commit: stop a git commit still running after this long (a hook that hangs), "
                   "0 for no limit. The rewrite stays written and `renamer sweep --commit` commits it "
                   "once the cause is fixed (exit 2, as for a hook that refuses).")
@click.option("--update-pins", is_flag=True,
              help="Rewrite the pins of rewritten files (MD5, SHA-1, SHA-2, SHA-3, BLAKE2b; this sweep's, or "
                   "an earlier commit's of the move) to their new digest, in the dress each wore (hex, "
                   "base64, SRI, Nix base32), where the format is certain (`<hash>  <path>` manifests, "
                   "`f.sha256` beside `f`, `key=<hash>`, `key: sha256:<hash>`, a JSON "
                   "`\"sha256\": \"<hash>\"`, SRI `sha384-<base64>`).")
@click.option("--include-ignored", is_flag=True,
              help="Also sweep git-ignored files that a `current` pattern covers (e.g. live .env).")
@click.option("--format", "fmt", type=click.Choice(["diff", "summary", "json"]), default=None,
              help="Output: diff (default with --dry-run), summary, or json.")
@click.option("--show-secrets", is_flag=True,
              help="Print the --dry-run diff exactly, secrets included (for `git apply`); by default "
                   "secret values are masked, as in every report.")
@click.option("--blame-ignore-revs/--no-blame-ignore-revs", "blame_ignore", default=None,
              help="With --commit: list the rewrite commit in .git-blame-ignore-revs, in a commit of its "
                   "own (default: when the repo already keeps that file or git config names one).")
@click.option("--allow-identity", is_flag=True,
              help="Move Kubernetes identities too (`metadata.name`, a StatefulSet's `serviceName` and "
                   "claim templates, `claimName`, a kustomize patch target, a Service's `NAME.NS.svc` "
                   "names): each is a delete and a create to the cluster, so by default a residual "
                   "`identity`. A renamed Service's `.svc` names move with it, or none of them does.")
@click.option("--strict", is_flag=True,
              help="Fail on what a dry run only lists: a dry run exits 3 where a sweep that writes would "
                   "refuse (a shrink past an address in use, a file that would no longer parse) and 1 where "
                   "it would leave references for a decision or a collision `verify --strict` fails on; a "
                   "sweep that writes exits 1 on such a collision (written, as verify --strict would fail "
                   "after it).")
@click.option("-i", "--interactive", is_flag=True,
              help="Walk the planned lines one by one, like `git add -p`: y rewrite, n not now, k keep for "
                   "good (writes a keep rule), K keep with the inline marker, s skip the file, q quit.")
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
@common_options
@click.pass_context
def sweep(ctx: click.Context, dry_run: bool, commit: bool, allow_dirty: bool, no_hooks: bool,
          commit_timeout: float, update_pins: bool, include_ignored: bool, fmt: str | None,
          show_secrets: bool, blame_ignore: bool | None, allow_identity: bool, strict: bool,
          interactive: bool, paths: tuple[Path, ...]) -> int:
    """Rewrite old host names and addresses in current-state files.

    Records (the allowlist's record classes, dated files and sections, keep
    rules, inline markers) are never touched. Without --dry-run the work tree
    must be clean (exit 3 otherwise) and every file is written atomically.
    A sweep that writes exits 1 when it leaves references that need a
    decision (residuals, hash pins, unclassified files), as `verify` would;
    a dry run exits 0, and says on stderr what a sweep that writes would
    refuse (exit 3 then) and which collisions it found; --strict makes a
    dry run exit 3 or 1 on them instead. A git commit that fails (a hook refuses, or runs past
    --commit-timeout and is stopped) exits 2: the rewrite stays written and
    the sweep journal keeps the commit for the next `renamer sweep --commit`.

    \b
    Examples:
      renamer sweep --dry-run                 # unified diff + summary, nothing written
      renamer sweep --dry-run --show-secrets | git apply   # exact bytes
      renamer sweep --dry-run --format json   # every edit with path, line, column
      renamer sweep --dry-run --strict        # exit 3 where the sweep would refuse, 1 where it leaves work
      renamer sweep --commit                  # apply and commit
      renamer sweep --commit --blame-ignore-revs   # and let git blame skip the rewrite
      renamer sweep stacks/ litellm/          # only these paths
      renamer sweep --interactive             # decide line by line; keep decisions persist
    """
    out = settings(ctx).output
    if dry_run and commit:
        raise click.UsageError("--dry-run and --commit exclude each other: a dry run has nothing to commit")
    request = SweepRequest(dry_run=dry_run, commit=commit, allow_dirty=allow_dirty,
                           include_ignored=include_ignored, hooks=not no_hooks, blame_ignore=blame_ignore,
                           with_diff=(fmt or ("diff" if dry_run else "summary")) == "diff",
                           update_pins=update_pins, allow_identity=allow_identity)
    with vcs_command.commit_timeout(commit_timeout):
        if interactive:
            return _interactive(ctx, out, paths, request, fmt)
        return _sweep(ctx, out, paths, request, fmt, dry_run, commit, show_secrets, strict)


def _sweep(ctx: click.Context, out: Output, paths: tuple[Path, ...], request: SweepRequest,
           fmt: str | None, dry_run: bool, commit: bool, show_secrets: bool, strict: bool = False) -> int:
    fmt = fmt or ("diff" if dry_run else "summary")
    started = time.monotonic()
    with early_listing(ctx) as listing:
        project = project_from(ctx)
        # the inventory's addresses: collisions (any sweep), and a shrinking network move refuses on them
        hosts = site_hosts(project.config)
        result = run.sweep(project, request, paths, hosts=hosts,
                           runtime=Runtime(out.progress("scanning"), listing))
    out.detail(f"scanned {result.plan.scan.files_scanned} files in {time.monotonic() - started:.2f} s")
    warn_interrupted(ctx, result.interrupted)
    if result.applied is None:
        _show(out, result, fmt, commit, show_secrets)
        if result.operation is not None:
            out.info(f"renamer: note: {result.operation}; a sweep that writes is refused until then")
        return _dry_run_verdict(out, result, strict)
    with deferred() as signals:  # the work is done: an interrupt now changes nothing
        _show(out, result, fmt, commit, show_secrets)
        if result.applied.commits and (result.applied.interrupted or signals.received is not None):
            out.info("renamer: interrupted after the commit: the sweep is complete")
    _collision_note(out, result.collisions, strict, written=True)
    if result.undecided:  # like `git merge` with conflicts: written, and something is left to decide
        out.info(f"renamer: left for a decision: {result.undecided} (listed above); "
                 "`renamer verify` fails until each is decided")
        return 1
    failing = [c for c in result.collisions if c.failing_once_written]
    unseen = [c for c in result.collisions if c.strict_failure and not c.failing_once_written]
    if strict and (failing or unseen):
        whys = [f"{plural(len(failing), 'collision')} `renamer verify --strict` fails on"] if failing else []
        whys += [f"{plural(len(unseen), 'collision')} in one file that verify cannot tell once written"
                 ] if unseen else []
        out.echo(f"renamer: --strict: {' and '.join(whys)} (listed above): written, left for a decision",
                 err=True, nl=True)
        return 1
    return 0


def _dry_run_verdict(out: Output, result: SweepResult, strict: bool) -> int:
    """A dry run's exit (0: a preview, as DESIGN says; with --strict 3 where a sweep that writes
    would refuse, 1 where it would leave work or a collision verify --strict fails on), and the
    refusals on stderr whatever the output format or -q: a dry run's 0 never hides them."""
    refused = result.refused
    if refused:
        out.echo(f"renamer: {'error' if strict else 'warning'}: a sweep that writes would refuse (exit 3), "
                 f"nothing written, on {plural(len(refused), 'place')}:", err=True, nl=True)
        for refusal in refused:
            out.echo(f"  {refusal}", err=True, nl=True)
    _collision_note(out, result.collisions, strict)
    if not strict:
        return 0
    if refused:
        return 3
    left = result.left_for_decision
    failing = [c for c in result.collisions if c.strict_failure or c.refused]
    if left or failing:
        whys = ([f"{plural(left, 'reference')} left for a decision"] if left else []) + (
            [f"{plural(len(failing), 'collision')} `renamer verify --strict` fails on"] if failing else [])
        out.echo(f"renamer: --strict: {' and '.join(whys)}", err=True, nl=True)
        return 1
    return 0


def _collision_note(out: Output, found: list[Collision], strict: bool, *, written: bool = False) -> None:
    """One stderr line counting the collisions the summary (or JSON) lists, silenced by -q unless
    --strict fails on some. Once written, what verify can no longer tell is said apart: the count
    of what `verify --strict` fails on is what it then fails on."""
    if not found:
        return
    if written:
        failing = sum(1 for c in found if c.failing_once_written)
        unseen = sum(1 for c in found if c.strict_failure and not c.failing_once_written)
        check = "check it now" if unseen == 1 else "check each now"
        counted = f"{failing} that `renamer verify --strict` fails on" + (
            f"; {unseen} in one file, which verify cannot tell once written: {check}" if unseen else "")
    else:
        failing = unseen = sum(1 for c in found if c.strict_failure or c.refused)
        counted = f"{failing} that `renamer verify --strict` fails on"
    text = f"renamer: warning: {plural(len(found), 'collision')}: new values already there ({counted})"
    if strict and (failing or unseen):
        out.echo(text, err=True, nl=True)
    else:
        out.info(text)


def _interactive(ctx: click.Context, out: Output, paths: tuple[Path, ...], request: SweepRequest,
                 fmt: str | None) -> int:
    if request.dry_run or fmt == "json":
        raise click.UsageError("--interactive asks before it writes: it takes no --dry-run or --format json")
    if not sys.stdin.isatty():
        raise click.UsageError("--interactive needs a terminal to ask on; "
                               "decide with keep rules and `renamer sweep` otherwise")
    project = project_from(ctx)
    can_keep = None if project.config.allowlist_paths else (
        "k needs an allowlist file to write the keep rule into: add `allowlist: allowlist.yaml` to "
        "renamer.yaml, or answer K (the inline marker)")
    asker = Asker(out, project.allowlist.inline_marker, can_keep)
    result = run.sweep_interactive(project, asker, request, paths)
    if result.applied is None:
        return 0
    for problem in result.refused:
        out.info(f"renamer: {problem}")
    for rule in result.rules:
        out.info(f"keep rule {rule['name']} written into {result.allowlist}: "
                 f"{rule['path']}: {rule['reason']}")
    if not out.quiet:
        out.echo("\n" + sweep_summary(result.summary, dry_run=False, verbose=out.verbosity >= 1))
    for sha in result.applied.commits:
        out.info(f"committed {sha[:12]}")
    return 0


def _show(out: Output, result: SweepResult, fmt: str, commit: bool, show_secrets: bool) -> None:
    recovered = result.recovered
    if recovered is not None and result.completed:
        out.info(f"an interrupted sweep was completed: {len(recovered.rolled_forward)} files finished now; "
                 f"its rewrite ({plural(len(recovered.targets), 'file')}, "
                 f"{plural(recovered.replacements, 'replacement')}) committed as {result.completed[-1][:12]}")
    elif recovered is not None:
        out.info(f"an interrupted sweep was completed: {len(recovered.rolled_forward)} files "
                 f"finished, {len(recovered.rolled_back)} left as they were")
    if result.adopted and result.completed:
        files = plural(result.adopted, "file")
        out.info(f"the rewrite an earlier `renamer sweep` left uncommitted ({files}, exactly as it wrote "
                 f"them) is committed as {result.completed[-1][:12]}")
    if result.uncommitted:
        out.info(f"renamer: an earlier `renamer sweep` rewrote {plural(result.uncommitted, 'file')}, not "
                 "committed: `renamer sweep --commit` commits them (`git diff` shows them)")
    if recovered is not None and recovered.saved:
        more = f" and {len(recovered.saved) - 1} more" if len(recovered.saved) > 1 else ""
        out.info(f"renamer: {recovered.saved[0]}{more}: saved by someone else meanwhile: that save is kept "
                 "and the file is not rewritten")
    for rule in result.dead_keys:  # never silenced by -q: the sweep rewrites what the rule was to keep
        out.echo(f"renamer: warning: keep rule {rule.name} ({rule.source}) is {rule.why}", err=True, nl=True)
    if fmt == "json":
        out.echo(dumps(sweep_data(result)))
    else:
        if result.diff:
            diff, masked = (result.diff, 0) if show_secrets else mask_diff(result.diff)
            out.write_bytes(out.color_diff(diff))
            if masked:
                out.info(f"renamer: {masked} diff line{'s' if masked != 1 else ''} hold secrets, masked "
                         "(****): this diff does not apply as printed; --show-secrets prints it exactly")
                hidden = hidden_changes(result.diff)
                if hidden:
                    more = f" and {len(hidden) - 3} more" if len(hidden) > 3 else ""
                    verb = "changes" if len(hidden) == 1 else "change"
                    out.info(f"renamer: {plural(len(hidden), 'line')} {verb} "
                             f"inside a masked value (**** on both sides hides it): {', '.join(hidden[:3])}"
                             f"{more}; --show-secrets prints the change")
            out.echo("")  # a blank line: `git apply` ignores what follows the last hunk
        if not out.quiet:  # -q: the diff is the result; the summary is not
            out.echo(sweep_summary(result.summary, dry_run=result.applied is None,
                                   collisions=result.collisions, refused=result.refused,
                                   zones=zone_changes(result.plan.project.config.renames.networks),
                                   verbose=out.verbosity >= 1))
    if result.applied is not None:
        for sha in result.applied.commits:
            out.info(f"committed {sha[:12]}")
        for path in result.applied.carrying:
            out.info(f"renamer: {path} carries uncommitted changes of yours: the commit holds only the "
                     "sweep's edits; yours stay uncommitted in the work tree (and the index)")
        for path in result.applied.untracked:
            out.info(f"renamer: {path} is not tracked by git: rewritten in the work tree, left uncommitted")
        if commit and not result.applied.commits:
            out.info("nothing to change: no commit made")
