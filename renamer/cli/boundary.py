"""The single error boundary: every failure becomes one `renamer: error:` line and an exit code."""

from __future__ import annotations

import difflib
import os
import sys
from typing import Any

import click

from renamer import debug, interrupts
from renamer.errors import EXIT_INTERRUPTED, EXIT_USAGE, Interrupted, RenamerError
from renamer.interrupts import terminate_as_interrupt
from renamer.printable import printable
from renamer.vcs_command import remembering_git_dirs


def run(group: click.Group, argv: list[str] | None) -> int:
    """Run the CLI and return its exit code; every error becomes one line, never a traceback."""
    args = list(sys.argv[1:] if argv is None else argv)
    try:
        return _run(group, args)
    finally:
        interrupts.forget()
        debug.disable()  # an in-process caller's next command starts without -vv's logs


def _run(group: click.Group, args: list[str]) -> int:
    try:
        # SIGTERM (a CI job cancelled, `timeout`, systemd) interrupts as Ctrl-C does: exit 130 with
        # what is left, never a silent 143 (break-it round 22, #24)
        with terminate_as_interrupt(), remembering_git_dirs():
            code = click.Group.main(group, args=args, prog_name="renamer", standalone_mode=False)
    except click.exceptions.Abort:
        click.echo("renamer: aborted", err=True)
        return EXIT_INTERRUPTED
    except click.UsageError as exc:
        where = exc.ctx.command_path if exc.ctx else "renamer"
        click.echo(printable(f"renamer: error: {exc.format_message()} (see '{where} --help')"), err=True)
        return EXIT_USAGE
    except click.ClickException as exc:
        click.echo(printable(f"renamer: error: {exc.format_message()}"), err=True)
        return exc.exit_code
    except Interrupted as exc:  # stopped halfway: what is left, and how the next run finishes it
        click.echo(f"renamer: {printable(str(exc))}", err=True)
        return exc.exit_code
    except RenamerError as exc:
        for line in exc.lines:
            click.echo(f"renamer: error: {printable(line)}", err=True)
        return exc.exit_code
    except (KeyboardInterrupt, _Interrupted):  # Ctrl-C (forked workers ignore it)
        click.echo("renamer: aborted", err=True)
        return EXIT_INTERRUPTED
    except Exception as exc:  # the boundary: never a traceback for the user
        if debug.on():  # -vv: the traceback, for a bug report
            raise
        click.echo(printable(f"renamer: error: internal error: {type(exc).__name__}: {exc} "
                             "(run with -vv for the traceback)"), err=True)
        return EXIT_USAGE
    return code if isinstance(code, int) else 0


class _Interrupted(Exception):
    """Ctrl-C inside a command, carried past click's own handler, which prints a bare newline."""


class RenamerGroup(click.Group):
    """A click group whose `main` goes through the boundary (as CliRunner and the script call it)."""

    def resolve_command(self, ctx: click.Context,
                        args: list[str]) -> tuple[str | None, click.Command | None, list[str]]:
        name = args[0] if args else ""
        if name and not name.startswith("-") and self.get_command(ctx, name) is None:
            known = self.list_commands(ctx)
            starting = [c for c in known if c.startswith(name.lower())]
            close = (starting if len(starting) == 1 else
                     difflib.get_close_matches(name.lower(), known, n=1, cutoff=0.6))
            if close:  # as git does for `git stauts`
                ctx.fail(f"No such command {name!r}. Did you mean {close[0]!r}?")
        return super().resolve_command(ctx, args)

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt as exc:
            raise _Interrupted from exc

    def main(self, args: Any = None, prog_name: str | None = None, complete_var: str | None = None,
             standalone_mode: bool = True, **extra: Any) -> Any:
        if "_RENAMER_COMPLETE" in os.environ:  # shell completion as click provides it
            return super().main(args, prog_name="renamer", complete_var=complete_var,
                                standalone_mode=standalone_mode, **extra)
        code = run(self, list(args) if args is not None else None)
        if standalone_mode:
            sys.exit(code)
        return code
