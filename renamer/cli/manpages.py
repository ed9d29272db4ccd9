"""The man pages, generated from the commands' own --help by click-man (one page a command).

    python -m renamer.cli.manpages man/man1

The pages are committed and the wheel installs them under share/man/man1 (pyproject.toml);
a test regenerates them and compares, so they cannot drift from the tool. click-man is needed
only here, to generate them (the `test` extra), never to run renamer.
"""

from __future__ import annotations

import datetime as dt
import os
import sys
import warnings
from pathlib import Path

import click
from click_man.core import generate_man_page

from renamer.about import version
from renamer.cli import cli
from renamer.cli.reference import commands, context


def pages(date: str) -> dict[str, str]:
    """File name -> man page, for `renamer` and every command and sub-command."""
    root = context(cli, "renamer")
    out = {}
    with warnings.catch_warnings():
        # click-man 0.6 calls click.utils.make_default_short_help, deprecated in click 8.2
        warnings.simplefilter("ignore", DeprecationWarning)
        for path, command in [("renamer", cli), *commands(cli, "renamer", root)]:
            ctx = context(command, path)
            page = generate_man_page(ctx, version=version(), date=date)
            out[path.replace(" ", "-") + ".1"] = _examples_kept(_whole_name(page, path, command))
    return out


def _whole_name(page: str, path: str, command: click.Command) -> str:
    """The NAME line with the command's whole first help line (click-man cuts it at 45 columns)."""
    first = (command.help or "").strip().splitlines()[0] if command.help else ""
    name = path.replace(" ", "-").replace("-", "\\-")
    lines = page.split("\n")
    at = lines.index(".SH NAME") + 1
    escaped = first.replace("-", "\\-")
    lines[at] = f"{name} \\- {escaped}"
    return "\n".join(lines)


def _examples_kept(page: str) -> str:
    """The help's example blocks (click's \\b paragraphs) as written: no fill, no adjusting."""
    out: list[str] = []
    inside = False
    for line in page.split("\n"):
        if inside and not line.startswith("  "):
            out.append(".fi")
            inside = False
        out.append(line)
        if line.rstrip().endswith(("Examples:", "Example:")):
            out.append(".nf")
            inside = True
    if inside:
        out.append(".fi")
    return "\n".join(out)


def main(target: Path) -> None:
    epoch = os.environ.get("SOURCE_DATE_EPOCH")  # reproducible builds set it
    day = dt.datetime.fromtimestamp(int(epoch), dt.UTC).date() if epoch else dt.date.today()
    target.mkdir(parents=True, exist_ok=True)
    for name, text in pages(day.isoformat()).items():
        (target / name).write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main(Path(sys.argv[1] if len(sys.argv) > 1 else "man/man1"))
