"""The click command line: a thin shell over the library (parse, call, render, exit).

Commands load lazily: the whole library takes about 150 ms to import, so
`renamer --help` (and shell completion) import only this module and click,
and a command imports its own module, with everything it needs at that
module's top, only when it runs. COMMANDS is the one place that says so; a
test checks its short help against each command's own.
"""

from __future__ import annotations

import importlib
import sys

import click

from renamer.cli.boundary import RenamerGroup, run
from renamer.cli.options import CONTEXT, Settings, common_options

# name -> (module, attribute, short help as the command's docstring says it)
COMMANDS = {
    "init": ("renamer.cli.init", "init", "Write renamer.yaml and an allowlist proposal for this repo."),
    "sweep": ("renamer.cli.sweep", "sweep", "Rewrite old host names and addresses in current-state files."),
    "verify": ("renamer.cli.check", "verify", "Prove no live reference to an old value remains."),
    "audit": ("renamer.cli.check", "audit",
              "List every reference to an old value that remains on purpose, and why."),
    "explain": ("renamer.cli.explain", "explain",
                "Say what renamer decides for each old value in a file or on a line, and why."),
    "log": ("renamer.cli.log", "log",
            "List the moves found in the history: date, move, commits, counts, kept."),
    "undo": ("renamer.cli.undo", "undo_command",
             "Undo a recorded move: revert its commits and commit the inverse as a move."),
    "dns": ("renamer.cli.dns", "dns",
            "DNS for the new site: render each site's records, apply them to every resolver, verify."),
    "probe": ("renamer.cli.probe", "probe",
              "Probe every endpoint the current-state files name through a new name or address."),
    "campaign": ("renamer.cli.campaign", "campaign",
                 "One move across many repositories: plan, apply, push, status."),
    "demo": ("renamer.cli.demo", "demo", "Run the fv-ml1 move end to end on the bundled example repo."),
}


class LazyGroup(RenamerGroup):
    """The root group: lists COMMANDS without importing them; loads one when it is used."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in COMMANDS:
            return None
        module, attribute, _ = COMMANDS[cmd_name]
        command = getattr(importlib.import_module(module), attribute)
        assert isinstance(command, click.Command)
        return command

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        # As click.Group does it, from the first line of each command's docstring.
        names = self.list_commands(ctx)
        limit = formatter.width - 6 - max(len(name) for name in names)
        rows = [(name, click.Command(name, help=COMMANDS[name][2]).get_short_help_str(limit))
                for name in names]
        with formatter.section("Commands"):
            formatter.write_dl(rows)


@click.group(cls=LazyGroup, context_settings=CONTEXT)
@click.version_option(None, "--version", package_name="renamer", prog_name="renamer")
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

    Exit codes: 0 success, 1 the check found problems (also a sweep that wrote
    and left references for a decision, as verify would fail; a dry run is 0),
    2 usage or configuration error, 3 refused as unsafe, 130 interrupted
    (Ctrl-C, SIGTERM or SIGHUP; dns apply rolls back what it changed first).
    """
    ctx.ensure_object(Settings)


def main(argv: list[str] | None = None) -> None:
    """Console-script entry point."""
    try:
        sys.exit(run(cli, argv))
    except BrokenPipeError:  # `renamer audit | head`
        sys.stderr.close()
        sys.exit(0)
