"""The click command line: a thin shell over the library (parse, call, render, exit)."""

from __future__ import annotations

import sys

import click

from renamer import __version__
from renamer.cli.boundary import RenamerGroup, run
from renamer.cli.check import audit, verify
from renamer.cli.demo import demo
from renamer.cli.dns import dns
from renamer.cli.init import init
from renamer.cli.options import CONTEXT, Settings, common_options
from renamer.cli.sweep import sweep


@click.group(cls=RenamerGroup, context_settings=CONTEXT)
@click.version_option(__version__, "--version", prog_name="renamer")
@common_options
@click.pass_context
def cli(ctx: click.Context) -> None:
    """History-preserving host renames and network migrations for infrastructure repos.

    Rewrites an old host name and address everywhere in current-state files,
    keeps records (dated notes, incidents, backups) saying what was true then,
    and proves both.

    \b
    Examples:
      renamer demo                      # the whole flow on the bundled example
      renamer sweep --dry-run           # what would change, as a diff
      renamer sweep --commit            # apply and commit
      renamer verify                    # exit 1 if a live reference remains
      renamer audit --format markdown   # what was kept on purpose, and why

    Exit codes: 0 success, 1 the check found problems, 2 usage or configuration
    error, 3 refused as unsafe.
    """
    ctx.ensure_object(Settings)


for _command in (init, sweep, verify, audit, dns, demo):
    cli.add_command(_command)


def main(argv: list[str] | None = None) -> None:
    """Console-script entry point."""
    try:
        sys.exit(run(cli, argv))
    except BrokenPipeError:  # `renamer audit | head`
        sys.stderr.close()
        sys.exit(0)
