"""renamer log: the moves the history records."""

from __future__ import annotations

from pathlib import Path

import click

from renamer.cli.options import common_options, settings
from renamer.documents import versioned
from renamer.errors import EXIT_OK, UnsafeError
from renamer.project import repo_root
from renamer.report.machine import dumps
from renamer.sweep.history import moves_in_history
from renamer.vcs_command import is_git
from renamer.words import plural


@click.command("log")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", help="Output format.")
@common_options
@click.pass_context
def log(ctx: click.Context, fmt: str) -> int:
    """List the moves found in the history: date, move, commits, counts, kept.

    Read from the trailers `renamer sweep --commit` writes (Renamer-Move,
    Renamer-Commit, Renamer-Changed, Renamer-Kept), oldest first.

    \b
    Examples:
      renamer log
      renamer log --format json
    """
    options = settings(ctx)
    root = repo_root(options.repo, Path.cwd())
    if not is_git(root):
        raise UnsafeError(f"{root}: not a git repository: renamer log reads the moves from its history")
    records = moves_in_history(root)
    out = options.output
    if fmt == "json":
        moves = [{"move": r.move, "date": r.date, "config": r.config,
                  "commits": [{"sha": sha, "role": role} for sha, role in r.commits],
                  "changed": r.changed, "kept": r.kept} for r in records]
        out.echo(dumps(versioned({"moves": moves})))
        return EXIT_OK
    if not records:
        out.echo("log: no move recorded in this history (renamer sweep --commit writes the trailers)\n")
        return EXIT_OK
    for r in records:
        commits = ", ".join(f"{sha[:12]} {role}" for sha, role in r.commits)
        out.echo(f"{r.date}  {r.move}  {plural(len(r.commits), 'commit')} ({commits})"
                 f"{'; ' + r.changed if r.changed else ''}{'; kept ' + r.kept if r.kept else ''}\n")
    return EXIT_OK
