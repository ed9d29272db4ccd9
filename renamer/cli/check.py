"""renamer verify and renamer audit: the proofs."""

from __future__ import annotations

import os
from pathlib import Path

import click

from renamer import vcs
from renamer.atomic import save
from renamer.cli import render_guard
from renamer.cli.common import early_listing, project_from, warn_interrupted
from renamer.cli.options import common_options, settings
from renamer.cli.output import Output
from renamer.errors import EXIT_FINDINGS, EXIT_OK
from renamer.report.machine import audit_data, dumps, prune_data, tombstone_data, verify_data
from renamer.report.sarif import sarif
from renamer.report.text import audit_markdown, audit_table, verify_report
from renamer.sites import site_hosts
from renamer.sweep import run
from renamer.sweep.results import PruneResult
from renamer.words import plural


def _tombstones(ctx: click.Context, staged: bool, since: str | None, fmt: str) -> int:
    out = settings(ctx).output
    result = run.verify_change(project_from(ctx), staged=staged, since=since)
    if fmt == "json":
        out.echo(dumps(tombstone_data(result)))
    else:
        for stone in result.tombstones:
            out.echo(f"{stone.path}:{stone.line}:{stone.column}: tombstone: {stone.message()}\n")
        for live in result.live_again:
            out.echo(f"{live.path}:{live.line}:{live.column}: live again: {live.message()}\n")
        what = "staged change" if staged else f"change since {since}"
        back = len(result.tombstones) + len(result.live_again)
        # What was read beyond the added lines (sweep/tombstones.py): a changed file whole, or the repo.
        also = f"; {result.rechecked}" if result.rechecked else ""
        if back:
            last = f"verify: FAILED: {plural(back, 'old value')} back in the {what}"
            last += f" ({result.rechecked})" if result.live_again else ""
        else:
            last = (f"verify: OK: no old value in the {plural(result.lines, 'line')} the {what} adds "
                    f"({plural(len(result.moves), 'move')} checked{also})")
        out.echo(out.verdict(last))
    return EXIT_OK if result.ok else EXIT_FINDINGS


def _prune(out: Output, result: PruneResult, fmt: str) -> int:
    if fmt == "json":
        out.echo(dumps(prune_data(result)))
        return EXIT_OK
    for edit in result.edits:
        out.write_bytes(out.color_diff(edit.diff().encode("utf-8")))
    for item in result.pruned:
        out.echo(f"{item.exemption.where}: {'removed' if result.written else 'would remove'} "
                 f"{item.exemption.label}: {item.why}\n")
    if not result.pruned:
        out.echo("audit --prune: nothing to prune: every keep rule kept something, none has expired\n")
    elif not result.written:
        out.echo(f"audit --prune: dry run, nothing written: {plural(len(result.pruned), 'exemption')} "
                 "to remove; --write removes them\n")
    return EXIT_OK


@click.command()
@click.option("--format", "fmt", type=click.Choice(["text", "json", "sarif"]), default="text",
              help="Output format (sarif: for GitHub code scanning).")
@click.option("--strict", is_flag=True,
              help="Near-misses fail too, not just warn; so do collisions inside one structured file, and "
                   "current-state files skipped unread (binary, another encoding, too large) that hold an "
                   "old value.")
@click.option("--include-ignored", is_flag=True,
              help="Also check git-ignored files that a `current` pattern covers.")
@click.option("--staged", is_flag=True,
              help="Check only the lines the index adds against HEAD (a pre-commit hook): an old name "
                   "of this move or a past one (moves/*.yaml) must not come back.")
@click.option("--since", "since", metavar="REF", default=None,
              help="Check only the lines the commits since REF add (CI: the target branch).")
@click.option("--render", "render", metavar="DIR", multiple=True, type=click.Path(path_type=Path),
              help="Also render the kustomization in DIR with `kubectl kustomize`, on the tree at the move's "
                   "base commit and on the work tree (repeatable): an old value left in a rendered object, "
                   "or an object whose kind/namespace/name changed, fails verify.")
@click.option("--base", "base", metavar="REV", default=None,
              help="With --render: the tree before the move (default: the commit before the move's first).")
@click.option("--allow-identity", is_flag=True,
              help="With --render: accept an object renamed by the move's names (as `sweep "
                   "--allow-identity` moves it).")
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
@common_options
@click.pass_context
def verify(ctx: click.Context, fmt: str, strict: bool, include_ignored: bool, staged: bool,
           since: str | None, render: tuple[Path, ...], base: str | None, allow_identity: bool,
           paths: tuple[Path, ...]) -> int:
    """Prove no live reference to an old value remains.

    Exits 1 listing each reference left in a current-state file outside an
    exemption (identifiers included) or in an unclassified file, as
    path:line:col with the YAML key path or Python role and a hint. A looser
    pass (any case, -/_/. interchangeable, dashed addresses) lists
    near-misses as warnings; --strict makes them failures. Secrets are masked.

    \b
    Examples:
      renamer verify                  # in CI or a pre-commit hook
      renamer verify --strict         # near-misses fail too
      renamer verify stacks/ runbook.md  # only these paths
      renamer verify --format sarif > renamer.sarif
      renamer verify --staged         # after the move: nothing staged brings an old name back
      renamer verify --since origin/main
      renamer verify --render k8s/overlays/prod   # and what kustomize renders, before and after
    """
    out = settings(ctx).output
    if staged or since is not None:
        if render:
            raise click.UsageError("--render renders the work tree; --staged and --since check a change")
        if staged and since is not None:
            raise click.UsageError("--staged and --since exclude each other")
        if fmt == "sarif":
            raise click.UsageError("--staged and --since print text or json")
        if paths:
            raise click.UsageError("--staged and --since check a change; PATH... checks the work tree")
        return _tombstones(ctx, staged, since, fmt)
    if os.environ.get(vcs.RENAMES_PHASE) == "renames":
        # Run as a commit hook on a sweep's first commit: pure renames, the rewrite follows
        # in the next commit, which this hook checks in full.
        out.info("verify: passed for a sweep's pure-rename commit; its rewrite commit is checked")
        return EXIT_OK
    with early_listing(ctx) as listing:
        project = project_from(ctx)
        result = run.verify(project, strict=strict, include_ignored=include_ignored,
                            hosts=site_hosts(project.config),
                            runtime=run.Runtime(out.progress("scanning"), listing), paths=paths)
        rendered = render_guard.run_render(project, render, base, allow_identity)
    warn_interrupted(ctx, result.interrupted)
    for path in result.unchecked:  # never a silent OK for a path verify did not look at
        out.echo(f"renamer: warning: {path}: no file here is checked (ignored by git, excluded, renamer's "
                 "own files, or nothing there); --include-ignored checks ignored files that `current` "
                 "covers\n", err=True)
    summary, verdict = result.summary, result.verdict
    ok = verdict.ok and not rendered
    if fmt == "json":
        data = verify_data(result)
        if render:
            data.update(ok=ok, render=render_guard.render_data(rendered))
        out.echo(dumps(data))
    elif fmt == "sarif":
        out.echo(sarif(summary, summary.residual + summary.unclassified, include_kept=False))
    else:
        report = verify_report(summary, verdict, result.expired, result.collisions, quiet=out.quiet)
        lines = "".join(line + "\n" for line in render_guard.render_lines(rendered))
        if out.quiet:  # -q: the findings alone
            out.echo(report + lines)
            return EXIT_OK if ok else EXIT_FINDINGS
        body, _, last = report.rstrip("\n").rpartition("\n")
        if body or lines:
            out.echo((body + "\n" if body else "") + lines)
        if render:
            if not ok and verdict.ok:
                last = last.replace("verify: OK:", "verify: FAILED:", 1)
            last += (f"; render: {plural(len(rendered), 'finding')} in {plural(len(render), 'kustomization')}"
                     if rendered else f"; render: {plural(len(render), 'kustomization')} rendered alike")
        out.echo(out.style(last, fg="green" if ok else "red", bold=True) + "\n")
    return EXIT_OK if ok else EXIT_FINDINGS


@click.command()
@click.option("--format", "fmt", type=click.Choice(["table", "markdown", "json", "sarif"]),
              default="table", help="Output format (json is a stable interface).")
@click.option("--output", "output_file", type=click.Path(path_type=Path, dir_okay=False),
              help="Write the report to FILE instead of standard output.")
@click.option("--strict", is_flag=True,
              help="Exit 1 on residual or unclassified references or stale exemptions.")
@click.option("--include-ignored", is_flag=True,
              help="Also audit git-ignored files that a `current` pattern covers.")
@click.option("--prune", is_flag=True,
              help="Show the allowlist without keep rules that kept nothing and expired exemptions "
                   "(a diff; nothing written without --write).")
@click.option("--write", "write", is_flag=True, help="With --prune: write the pruned allowlist.")
@common_options
@click.pass_context
def audit(ctx: click.Context, fmt: str, output_file: Path | None, strict: bool,
          include_ignored: bool, prune: bool, write: bool) -> int:
    """List every reference to an old value that remains on purpose, and why.

    Grouped by reason (record class, dated-file, dated-section, inline, keep
    rule), with counts per reason and per file, each occurrence's path:line
    and line (secrets masked); residual, unclassified and skipped references;
    and stale exemptions that matched nothing.

    \b
    Examples:
      renamer audit                                 # a table on the terminal
      renamer audit --format markdown > AUDIT.md    # for a PR or commit message
      renamer audit --format json | jq .summary     # the stable interface
      renamer audit --format sarif --output audit.sarif
      renamer audit --strict                        # fail on stale or expired exemptions too
      renamer audit --prune                         # what pruning the allowlist would remove
      renamer audit --prune --write                 # remove it (comments and order kept)
    """
    out = settings(ctx).output
    if write and not prune:
        raise click.UsageError("--write goes with --prune")
    if prune and (fmt not in ("table", "json") or output_file is not None):
        raise click.UsageError("--prune prints a diff (or json with --format json)")
    project = project_from(ctx)
    with early_listing(ctx) as listing:
        result = run.audit(project, include_ignored=include_ignored,
                           runtime=run.Runtime(out.progress("scanning"), listing))
    warn_interrupted(ctx, result.interrupted)
    if prune:
        return _prune(out, run.prune(project, result, write=write), fmt)
    summary, refs, stale = result.summary, result.references, result.stale
    if fmt == "json":
        text = dumps(audit_data(result))
    elif fmt == "markdown":
        text = audit_markdown(result.name, summary, refs, stale)
    elif fmt == "sarif":
        text = sarif(summary, refs, include_kept=True)
    else:
        text = audit_table(summary, refs, stale, out.width() if output_file is None else None)
    if output_file is None:
        out.echo(text)
    else:
        save(output_file if output_file.is_absolute() else Path.cwd() / output_file, text.encode("utf-8"))
        out.info(f"wrote {output_file}")
    return EXIT_FINDINGS if strict and result.failed else EXIT_OK
