"""The options every command takes (before or after its name), defined once, and Settings."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import click

from renamer import debug
from renamer.cli.output import Output

CONTEXT = {"help_option_names": ["-h", "--help"], "max_content_width": 100}
Command = TypeVar("Command", bound=Callable[..., Any])


@dataclass
class Settings:
    repo: Path | None = None
    config: Path | None = None
    output: Output = field(default_factory=Output)


def settings(ctx: click.Context) -> Settings:
    return ctx.ensure_object(Settings)


def _set_repo(s: Settings, value: Any) -> None:
    s.repo = value


def _set_config(s: Settings, value: Any) -> None:
    s.config = value


def _set_color(s: Settings, value: Any) -> None:
    s.output.color = value


def _set_quiet(s: Settings, value: Any) -> None:
    if value:
        s.output.verbosity = -1


def _set_verbose(s: Settings, value: Any) -> None:
    if value:
        s.output.verbosity = value
    if value and value >= 2:  # -vv: debug logs (phases, workers, commands) on stderr
        debug.enable()


_SETTERS: dict[str, Callable[[Settings, Any], None]] = {
    "repo": _set_repo, "config": _set_config, "color": _set_color,
    "quiet": _set_quiet, "verbose": _set_verbose,
}


def _store(ctx: click.Context, param: click.Parameter, value: Any) -> Any:
    """Common options may be given before or after the command name: both land in Settings."""
    if value is not None and value != () and param.name is not None:
        _SETTERS[param.name](settings(ctx), value)
    return value


def common_options(function: Command) -> Command:
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
                     help="Say more: each residual's explanation on its line (repeat for debug logs "
                          "and tracebacks)."),
    ]
    for option in reversed(options):
        function = option(function)
    return function
