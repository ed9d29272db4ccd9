"""renamer explain: why each old value in a file or on a line is rewritten, kept or left."""

from __future__ import annotations

from pathlib import Path

import click

from renamer.cli import completion
from renamer.cli.common import project_from
from renamer.cli.options import common_options, settings
from renamer.errors import EXIT_OK
from renamer.masking import mask_line
from renamer.report.machine import dumps, explanation_data
from renamer.sweep.explain import explain as explain_file
from renamer.sweep.plan import repo_relative


@click.command()
@click.argument("target", metavar="PATH[:LINE]", shell_complete=completion.path_and_line)
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", help="Output format.")
@common_options
@click.pass_context
def explain(ctx: click.Context, target: str, fmt: str) -> int:
    """Say what renamer decides for each old value in a file or on a line, and why.

    For each old value or near-miss, the decision and the rule behind it:
    the allowlist pattern or record class with its file:line, the dated
    section and its date, the keep rule and its reason, the inline marker,
    the boundary that did not hold (a near-miss) or the structure guarantee
    that refused an edit.

    \b
    Examples:
      renamer explain runbook.md             # every occurrence in the file
      renamer explain runbook.md:42          # only line 42
      renamer explain stacks/app.env --format json
    """
    project = project_from(ctx)
    path, line = _split(target)
    rel = repo_relative(project, [Path(path)], Path.cwd())[0]
    if not rel or (project.root / rel).is_dir():
        raise click.BadParameter(f"{path}: a file, not a folder", param_hint="PATH")
    result = explain_file(project, rel, line)
    out = settings(ctx).output
    if fmt == "json":
        out.echo(dumps(explanation_data(result)))
        return EXIT_OK
    out.echo(f"{result.path}: {result.rule}\n")
    for d in result.decisions:
        new = f" -> {d.new}" if d.new and d.new != d.found else ""  # never `X -> X` (f28, finding 21)
        key = f" [{mask_line(d.key_path)}]" if d.key_path else ""
        decision = out.style(d.decision, bold=True)
        out.echo(f"  {d.line}:{d.column}{key}  {d.found}{new}: {decision}: {d.rule}\n")
        if d.text:
            out.echo(f"      {mask_line(d.text.strip())}\n")
    if not result.decisions and result.status not in ("excluded", "ignored", "not scanned"):
        where = f"on line {line}" if line is not None else "in this file"
        out.echo(f"  no old value and no near-miss {where}\n")
    return EXIT_OK


def _split(target: str) -> tuple[str, int | None]:
    """PATH:LINE, where LINE is a positive number and PATH exists; else the whole as a path."""
    path, colon, number = target.rpartition(":")
    if colon and number.isdigit() and not Path(target).exists():
        if int(number) < 1:
            raise click.BadParameter(f"{target}: lines count from 1", param_hint="PATH[:LINE]")
        return path, int(number)
    return target, None
