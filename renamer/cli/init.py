"""renamer init: scaffold renamer.yaml and an allowlist for the repo it runs in."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import click

from renamer.cli.options import common_options, settings
from renamer.project import repo_root
from renamer.scaffold import parse_pairs, write_scaffold
from renamer.scaffold_render import summary


@click.command()
@click.option("--from", "pairs", multiple=True, required=True, metavar="OLD=NEW",
              help="A rename: host names, addresses or networks (a network of any length: "
                   "10.0.48.0/24=10.0.48.0/22); repeat for more.")
@click.option("--name", default=None, help="Migration name (default: <first new name>-move).")
@click.option("--force", is_flag=True, help="Overwrite an existing renamer.yaml and allowlist.")
@common_options
@click.pass_context
def init(ctx: click.Context, pairs: tuple[str, ...], name: str | None, force: bool) -> int:
    """Write renamer.yaml and an allowlist proposal for this repo.

    Finds where the old values occur, in a file's text or its path (a
    host_vars/<host>/ folder), and puts every such file in exactly one
    place: a record class for folders of history (journals, incidents,
    decisions/adr, dated files) and of copies (previous*/, old/, archive*/,
    backup*/, attic/, dumps/) with a reason to edit, a `backup-copies` class
    for files named as copies (.bak, .save.N, .old, .orig, .dist, ~), a
    `test-fixtures` class for fixture folders (fixtures/, testdata/),
    current-state patterns for the rest and for tests that read a live file
    of the repo, or the printed unclassified list (notes/ and the like, and
    tests that name no live file: the name does not say whether they are
    history). Ranges and patterns found are
    listed. Never overwrites existing files without --force. The result works
    with `renamer sweep --dry-run` straight away.

    \b
    Examples:
      renamer init --from ana-ml2=fv-ml1 --from 10.250.50.54=10.251.50.54
      renamer init --from ana-ml2=fv-ml1 --name fv-ml1-move --force
      renamer init --from 192.168.40.0/24=192.168.40.0/22 --from db01=db02
    """
    options = settings(ctx)
    root = repo_root(options.repo, Path.cwd())
    proposal, written = write_scaffold(root, parse_pairs(pairs), name, force, dt.date.today())
    out = options.output
    for path in reversed(written):
        out.info(f"wrote {path.relative_to(root)}")
    if not out.quiet:  # -q: the files written are the result
        out.echo(summary(proposal))
        out.echo("Next: review the allowlist, then `renamer sweep --dry-run`; commit renamer.yaml and the "
                 "allowlist before `renamer sweep --commit` (it needs a clean work tree).\n")
    return 0
