"""Helpers shared by the commands: load the project the options point at."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from renamer.cli import settings

if TYPE_CHECKING:
    from renamer.project import Project


def project_from(ctx: click.Context) -> Project:
    from renamer.project import load_project

    options = settings(ctx)
    return load_project(options.repo, options.config, Path.cwd())
