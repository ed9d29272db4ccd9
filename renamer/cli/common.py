"""Helpers shared by the commands: load the project the options point at."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from renamer.cli import settings

if TYPE_CHECKING:
    from renamer.project import Project
    from renamer.vcs import Listing


def repo_root(ctx: click.Context) -> Path:
    """--repo, else the git work tree holding the current folder, else the current folder."""
    from renamer.vcs import find_work_tree

    options = settings(ctx)
    cwd = Path.cwd().resolve()
    return options.repo.resolve() if options.repo else (find_work_tree(cwd) or cwd)


def early_listing(ctx: click.Context) -> Listing | None:
    """Start `git ls-files` before the heavier imports and the config, so they overlap."""
    from renamer.vcs import start_listing

    root = repo_root(ctx)
    return start_listing(root) if root.is_dir() else None


def project_from(ctx: click.Context) -> Project:
    from renamer.project import load_project

    options = settings(ctx)
    project = load_project(options.repo, options.config, Path.cwd())
    config = project.config
    shown = ", ".join(config.display(p) for p in config.allowlist_paths) or "none"
    options.output.detail(f"repo {project.root} ({'git' if project.git else 'not git'}); config "
                          f"{config.display(config.path)}; allowlists {shown}; "
                          f"{len(config.renames.pairs())} renames")
    return project
