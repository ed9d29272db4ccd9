"""Helpers shared by the commands: load the project the options point at."""

from __future__ import annotations

from pathlib import Path

import click

from renamer.cli import settings
from renamer.project import Project, load_project


def project_from(ctx: click.Context) -> Project:
    options = settings(ctx)
    return load_project(options.repo, options.config, Path.cwd())
