"""renamer sweep: plan, show, apply."""

from __future__ import annotations

import time
from pathlib import Path
from typing import TYPE_CHECKING

import click

from renamer.cli import common_options, settings
from renamer.cli.common import early_listing, project_from

if TYPE_CHECKING:
    from renamer.plan import Plan
    from renamer.vcs import Listing
from renamer.errors import UnsafeError


@click.command()
@click.option("--dry-run", is_flag=True, help="Show what would change; write nothing.")
@click.option("--commit", is_flag=True, help="Commit the result (renames first, then the rewrite).")
@click.option("--allow-dirty", is_flag=True, help="Sweep even with uncommitted changes.")
@click.option("--include-ignored", is_flag=True,
              help="Also sweep git-ignored files that a `current` pattern covers (e.g. live .env).")
@click.option("--format", "fmt", type=click.Choice(["diff", "summary", "json"]), default=None,
              help="Output: diff (default with --dry-run), summary, or json.")
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
@common_options
@click.pass_context
def sweep(ctx: click.Context, dry_run: bool, commit: bool, allow_dirty: bool,
          include_ignored: bool, fmt: str | None, paths: tuple[Path, ...]) -> int:
    """Rewrite old host names and addresses in current-state files.

    Records (the allowlist's record classes, dated files and sections, keep
    rules, inline markers) are never touched. Without --dry-run the work tree
    must be clean (exit 3 otherwise) and every file is written atomically.

    \b
    Examples:
      renamer sweep --dry-run                 # unified diff + summary, nothing written
      renamer sweep --dry-run | git apply     # the diff applies as it is
      renamer sweep --dry-run --format json   # every edit with path, line, column
      renamer sweep --commit                  # apply and commit
      renamer sweep stacks/ litellm/          # only these paths
    """
    listing = early_listing(ctx)
    try:
        return _sweep(ctx, dry_run, commit, allow_dirty, include_ignored, fmt, paths, listing)
    finally:
        if listing is not None:
            listing.close()


def _sweep(ctx: click.Context, dry_run: bool, commit: bool, allow_dirty: bool, include_ignored: bool,
           fmt: str | None, paths: tuple[Path, ...], listing: Listing | None) -> int:
    from renamer.apply import apply_plan, check_clean, recover_interrupted
    from renamer.journal import pending
    from renamer.plan import plan_sweep, repo_relative

    out = settings(ctx).output
    project = project_from(ctx)
    prefixes = repo_relative(project, list(paths), Path.cwd())
    recovered = None
    if not dry_run:
        recovered = recover_interrupted(project.root)
        if recovered is not None:
            out.info(f"an interrupted sweep was completed: {len(recovered.rolled_forward)} files "
                     f"finished, {len(recovered.rolled_back)} left as they were")
    elif pending(project.root) is not None:
        out.info("warning: an interrupted sweep is pending; `renamer sweep` completes it")
    if recovered is not None:
        listing = None  # the recovery changed the tree: list it again
    started = time.monotonic()
    plan = plan_sweep(project, prefixes, include_ignored, progress=out.progress("scanning"),
                      listing=listing)
    out.detail(f"scanned {plan.scan.files_scanned} files in {time.monotonic() - started:.2f} s")
    if not dry_run and plan.scan.skipped_files:
        path, why = plan.scan.skipped_files[0]
        more = len(plan.scan.skipped_files) - 1
        raise UnsafeError(f"{path}: cannot read ({why}){f' and {more} more' if more else ''}; "
                          "a sweep that cannot see every file could miss a live reference: nothing written")
    if not dry_run and not allow_dirty and plan.changes:  # nothing to write: nothing to refuse
        check_clean(project, frozenset(recovered.targets) if recovered else frozenset())
    # Rendered before anything is written: the diff is made from the original bytes.
    diff, text = _render(plan, fmt or ("diff" if dry_run else "summary"), dry_run=dry_run)
    applied = None if dry_run else apply_plan(plan, commit=commit)
    if diff:
        out.write_bytes(out.color_diff(diff))
        out.echo("")  # a blank line: `git apply` ignores what follows the last hunk
    out.echo(text)
    if applied is not None:
        for sha in applied.commits:
            out.info(f"committed {sha[:12]}")
        if commit and not applied.commits:
            out.info("nothing to change: no commit made")
    return 0


def _render(plan: Plan, fmt: str, *, dry_run: bool) -> tuple[bytes, str]:
    """(the diff, if asked, and the summary or JSON) of a plan."""
    from renamer.dry_run import diff_bytes, edit_list
    from renamer.report.machine import sweep_json
    from renamer.report.summary import Summary
    from renamer.report.text import sweep_summary

    summary = Summary.of(plan)
    if fmt == "json":
        return b"", sweep_json(plan.project.config.name, summary, edit_list(plan), dry_run)
    return (diff_bytes(plan) if fmt == "diff" else b""), sweep_summary(summary, dry_run=dry_run)
