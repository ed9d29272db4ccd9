"""Helpers shared by the commands: the project and the early git listing the options point at."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path

import click

from renamer import debug
from renamer.cli.options import settings
from renamer.dns.inventory import Inventory
from renamer.project import LoadedProject, load_project, repo_root
from renamer.sites import locate_inventory
from renamer.vcs_listing import Listing, start_listing


@contextlib.contextmanager
def early_listing(ctx: click.Context) -> Iterator[Listing | None]:
    """Start `git ls-files` before the config is loaded, so the two overlap."""
    root = repo_root(settings(ctx).repo, Path.cwd())
    listing = start_listing(root) if root.is_dir() else None
    try:
        yield listing
    finally:
        if listing is not None:
            listing.close()


def project_from(ctx: click.Context) -> LoadedProject:
    options = settings(ctx)
    with debug.timed("load config and allowlists"):
        project = load_project(options.repo, options.config, Path.cwd())
    config = project.config
    shown = ", ".join(config.display(p) for p in config.allowlist_paths) or "none"
    options.output.detail(f"repo {project.root} ({'git' if project.git else 'not git'}); config "
                          f"{config.display(config.path)}; allowlists {shown}; "
                          f"{len(config.renames.pairs())} renames")
    return project


def warn_interrupted(ctx: click.Context, interrupted: bool) -> None:
    if interrupted:
        settings(ctx).output.info("warning: an interrupted sweep is pending; `renamer sweep` completes it "
                                  "(`renamer sweep --commit` where it was to commit)")


RESOLVERS_FILE = "renamer.resolvers_file"  # ctx.meta: `--resolvers-file`, kept by cli/dns.py


def inventory_from(ctx: click.Context, folder: Path | None) -> Inventory:
    """The DNS inventory a `renamer dns` command (or its completion) works on."""
    options = settings(ctx)
    return locate_inventory(options.repo, options.config, Path.cwd(), folder,
                            resolvers_file=ctx.meta.get(RESOLVERS_FILE))
