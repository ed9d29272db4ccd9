"""renamer init: scaffold renamer.yaml and an allowlist for the repo it runs in."""

from __future__ import annotations

import datetime as dt

import click

from renamer.cli import common_options, settings
from renamer.cli.common import repo_root


@click.command()
@click.option("--from", "pairs", multiple=True, required=True, metavar="OLD=NEW",
              help="A rename, host name or address; repeat for more.")
@click.option("--name", default=None, help="Migration name (default: <first new name>-move).")
@click.option("--force", is_flag=True, help="Overwrite an existing renamer.yaml and allowlist.")
@common_options
@click.pass_context
def init(ctx: click.Context, pairs: tuple[str, ...], name: str | None, force: bool) -> int:
    """Write renamer.yaml and an allowlist proposal for this repo.

    Finds where the old values occur, proposes record classes for folders of
    history (notes, memory, incidents, journals, backups, dated files) with a
    reason to edit, current-state patterns for the rest, and lists what it
    could not classify. Never overwrites existing files without --force. The
    result works with `renamer sweep --dry-run` straight away.

    \b
    Examples:
      renamer init --from ana-ml2=fv-ml1 --from 10.250.50.54=10.251.50.54
      renamer init --from ana-ml2=fv-ml1 --name fv-ml1-move --force
    """
    from renamer.config import load_config
    from renamer.init import parse_pairs, summary, write_scaffold

    options = settings(ctx)
    root = repo_root(ctx)
    parsed = parse_pairs(pairs)
    proposal, written = write_scaffold(root, parsed, name, force, dt.date.today())
    load_config(written[0], root)  # what init writes must load: fail here, not at the first sweep
    out = options.output
    for path in reversed(written):
        out.info(f"wrote {path.relative_to(root)}")
    out.echo(summary(proposal))
    out.echo("Next: review the allowlist, then `renamer sweep --dry-run`.\n")
    return 0
