"""renamer demo: the whole flow on the bundled example, in a temporary repo."""

from __future__ import annotations

import click

from renamer.cli import common_options, settings


@click.command()
@click.option("--keep", "keep_dir", type=click.Path(file_okay=False), default=None,
              help="Build the demo repo in this (new) folder and leave it there.")
@common_options
@click.pass_context
def demo(ctx: click.Context, keep_dir: str | None) -> int:
    """Run the fv-ml1 move end to end on the bundled example repo.

    Copies the example infra repo (LiteLLM gateway, compose stacks, .env and
    backups, dated notes, archival memory, incidents, a DNS inventory) into a
    temporary git repo, then runs sweep --dry-run, sweep --commit, verify and
    audit there, and the DNS steps where dnsmasq is installed. Needs no
    network and no root; leaves nothing behind (unless --keep).

    \b
    Examples:
      renamer demo
      renamer demo --keep /tmp/fv-demo    # keep the repo to look around
    """
    from renamer.demo import run_demo

    out = settings(ctx).output
    return run_demo(out, keep_dir)
