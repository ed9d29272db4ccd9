"""renamer verify and renamer audit: the proofs."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from renamer.cli import common_options, settings
from renamer.cli.common import early_listing, project_from
from renamer.errors import EXIT_FINDINGS, EXIT_OK


def _scan(ctx: click.Context, include_ignored: bool, *, records: bool):  # type: ignore[no-untyped-def]
    listing = early_listing(ctx)
    try:
        return _scan_with(ctx, include_ignored, records, listing)
    finally:
        if listing is not None:
            listing.close()


def _scan_with(ctx: click.Context, include_ignored: bool, records: bool, listing: Any):  # type: ignore[no-untyped-def]
    from renamer.journal import pending
    from renamer.plan import scan_repo
    from renamer.report.summary import Summary
    from renamer.scan import ScanOptions

    project = project_from(ctx)
    if pending(project.root) is not None:
        settings(ctx).output.info("warning: an interrupted sweep is pending; `renamer sweep` completes it")
    progress = settings(ctx).output.progress("scanning")
    scan = scan_repo(project, ScanOptions(locate=True, locate_records=records, loose=True),
                     include_ignored=include_ignored, progress=progress, listing=listing)
    return project, scan, Summary.of_scan(scan)


@click.command()
@click.option("--format", "fmt", type=click.Choice(["text", "json", "sarif"]), default="text",
              help="Output format (sarif: for GitHub code scanning).")
@click.option("--strict", is_flag=True, help="Near-misses fail too, not just warn.")
@click.option("--include-ignored", is_flag=True,
              help="Also check git-ignored files that a `current` pattern covers.")
@common_options
@click.pass_context
def verify(ctx: click.Context, fmt: str, strict: bool, include_ignored: bool) -> int:
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
      renamer verify --format sarif > renamer.sarif
    """
    from renamer.report.machine import verify_json
    from renamer.report.sarif import sarif
    from renamer.report.text import verify_report

    project, _, summary = _scan(ctx, include_ignored, records=False)
    misses = summary.derived + summary.near_misses
    ok = (not summary.residual and not summary.unclassified and not summary.skipped_files
          and not (strict and misses))
    out = settings(ctx).output
    if fmt == "json":
        out.echo(verify_json(project.config.name, summary, ok))
    elif fmt == "sarif":
        out.echo(sarif(summary, summary.residual + summary.unclassified, include_kept=False))
    else:
        report = verify_report(summary, strict=strict)
        body, _, verdict = report.rstrip("\n").rpartition("\n")
        if body:
            out.echo(body + "\n")
        out.echo(out.style(verdict, fg="green" if ok else "red", bold=True) + "\n")
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
@common_options
@click.pass_context
def audit(ctx: click.Context, fmt: str, output_file: Path | None, strict: bool,
          include_ignored: bool) -> int:
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
      renamer audit --strict                        # fail on stale exemptions too
    """
    from renamer.atomic import save
    from renamer.report.machine import audit_json
    from renamer.report.sarif import sarif
    from renamer.report.stale import stale_exemptions
    from renamer.report.text import audit_markdown, audit_table

    project, scan, summary = _scan(ctx, include_ignored, records=True)
    refs = scan.references()
    stale = stale_exemptions(project.allowlist, refs)
    name = project.config.name
    if fmt == "json":
        text = audit_json(name, summary, refs, stale)
    elif fmt == "markdown":
        text = audit_markdown(name, summary, refs, stale)
    elif fmt == "sarif":
        text = sarif(summary, refs, include_kept=True)
    else:
        text = audit_table(summary, refs, stale)
    out = settings(ctx).output
    if output_file is not None:
        target = output_file if output_file.is_absolute() else Path.cwd() / output_file
        save(target, text.encode("utf-8"))
        out.info(f"wrote {output_file}")
    else:
        out.echo(text)
    failed = bool(summary.residual or summary.unclassified or stale or summary.skipped_files)
    return EXIT_FINDINGS if strict and failed else EXIT_OK
