"""The click command line: a thin shell over the library, and its single error boundary."""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import click

from renamer import __version__
from renamer.cli.output import Output
from renamer.errors import EXIT_USAGE, RenamerError


@dataclass
class Settings:
    repo: Path | None = None
    config: Path | None = None
    output: Output = field(default_factory=Output)


def _store(ctx: click.Context, param: click.Parameter, value: Any) -> Any:
    """Common options may be given before or after the command name."""
    settings = ctx.find_object(Settings)
    if settings is None:
        settings = ctx.ensure_object(Settings)
    if value is None or value == () or (param.name == "verbose" and value == 0):
        return value
    name = param.name
    if name == "repo":
        settings.repo = value
    elif name == "config":
        settings.config = value
    elif name == "color":
        settings.output.color = value
    elif name == "quiet" and value:
        settings.output.verbosity = -1
    elif name == "verbose":
        settings.output.verbosity = value
    return value


def common_options(function: Any) -> Any:
    options = [
        click.option("--repo", type=click.Path(path_type=Path, file_okay=False), default=None,
                     expose_value=False, callback=_store,
                     help="The repository (default: the git work tree holding the current folder)."),
        click.option("--config", type=click.Path(path_type=Path, dir_okay=False), default=None,
                     expose_value=False, callback=_store,
                     help="renamer.yaml to use (default: the nearest one up to the repo root)."),
        click.option("--color", type=click.Choice(["auto", "always", "never"]), default=None,
                     expose_value=False, callback=_store,
                     help="Colour output (auto: only on a terminal; NO_COLOR is respected)."),
        click.option("-q", "--quiet", is_flag=True, default=None, expose_value=False,
                     callback=_store, help="Print only results and errors."),
        click.option("-v", "--verbose", count=True, expose_value=False, callback=_store,
                     help="Say more (repeat for debug logs and tracebacks)."),
    ]
    for option in reversed(options):
        function = option(function)
    return function


CONTEXT = {"help_option_names": ["-h", "--help"], "max_content_width": 100}


def run(group: click.Group, argv: list[str] | None) -> int:
    """Run the CLI and return its exit code; every error becomes one line, never a traceback."""
    args = list(sys.argv[1:] if argv is None else argv)
    try:
        code = click.Group.main(group, args=args, prog_name="renamer", standalone_mode=False)
    except click.exceptions.Abort:
        click.echo("renamer: aborted", err=True)
        return 130
    except click.UsageError as exc:
        where = exc.ctx.command_path if exc.ctx else "renamer"
        click.echo(f"renamer: error: {exc.format_message()} (see '{where} --help')", err=True)
        return EXIT_USAGE
    except click.ClickException as exc:
        click.echo(f"renamer: error: {exc.format_message()}", err=True)
        return exc.exit_code
    except RenamerError as exc:
        for line in exc.lines:
            click.echo(f"renamer: error: {line}", err=True)
        return exc.exit_code
    except KeyboardInterrupt:
        click.echo("renamer: interrupted", err=True)
        return 130
    except Exception as exc:  # the boundary: never a traceback for the user
        if "-vv" in args:
            raise
        click.echo(f"renamer: error: internal error: {type(exc).__name__}: {exc} "
                   "(run with -vv for the traceback)", err=True)
        return EXIT_USAGE
    return code if isinstance(code, int) else 0


class RenamerGroup(click.Group):
    """A click group whose `main` is the single error boundary."""

    def main(self, args: Any = None, prog_name: str | None = None, complete_var: str | None = None,
             standalone_mode: bool = True, **extra: Any) -> Any:
        if "_RENAMER_COMPLETE" in os.environ:  # shell completion as click provides it
            return super().main(args, prog_name="renamer", complete_var=complete_var,
                                standalone_mode=standalone_mode, **extra)
        code = run(self, list(args) if args is not None else None)
        if standalone_mode:
            sys.exit(code)
        return code


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


def settings(ctx: click.Context) -> Settings:
    return ctx.ensure_object(Settings)


def _register() -> None:
    from renamer.cli import check, demo, sweep
    from renamer.cli.dns import dns
    from renamer.cli.init import init

    cli.add_command(init)
    cli.add_command(sweep.sweep)
    cli.add_command(check.verify)
    cli.add_command(check.audit)
    cli.add_command(dns)
    cli.add_command(demo.demo)


_register()


def main(argv: list[str] | None = None) -> None:
    """Console-script entry point."""
    try:
        sys.exit(run(cli, argv))
    except BrokenPipeError:  # `renamer audit | head`
        sys.stderr.close()
        sys.exit(0)
