"""The demo's tour: numbered steps, each a real renamer command run in-process."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import click

from renamer.cli.boundary import run
from renamer.cli.output import Output


@dataclass(frozen=True)
class Tour:
    """What each step needs: where to print, the demo repo, and the CLI to run commands with."""

    out: Output
    repo: Path
    cli: click.Group

    def step(self, number: int, title: str, why: str) -> None:
        self.out.echo("\n" + self.out.style(f"== Step {number}: {title}", bold=True, fg="cyan") + "\n")
        self.out.echo(why.strip() + "\n\n")

    def run(self, *args: str) -> int:
        """Run one renamer command in-process, exactly as a user would type it."""
        self.out.echo(self.out.style("$ renamer " + " ".join(args), bold=True) + "\n")
        return run(self.cli, ["--repo", str(self.repo), "--color", self.out.color, *args])
