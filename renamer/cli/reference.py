"""The CLI reference in docs/cli.md, generated from the commands' own --help.

    python -m renamer.cli.reference > docs/cli.md

A test regenerates it and compares, so the page cannot drift from the tool.
"""

from __future__ import annotations

import click

from renamer.cli import cli, json_docs


def commands(group: click.Group, prefix: str, ctx: click.Context) -> list[tuple[str, click.Command]]:
    out: list[tuple[str, click.Command]] = []
    for name in sorted(group.list_commands(ctx)):
        command = group.get_command(ctx, name)
        if command is None or command.hidden:
            continue
        path = f"{prefix} {name}"
        out.append((path, command))
        if isinstance(command, click.Group):
            out += commands(command, path, ctx)
    return out


def context(command: click.Command, name: str) -> click.Context:
    # The group's help option names, given explicitly: click otherwise settles them on first use.
    return click.Context(command, info_name=name, terminal_width=100, max_content_width=100,
                         help_option_names=["-h", "--help"])


def reference() -> str:
    parts = ["# CLI reference", "",
             "Generated from `--help` by `python -m renamer.cli.reference > docs/cli.md`;",
             "a test fails when this page and the tool disagree.", ""]
    root = context(cli, "renamer")
    entries: list[tuple[str, click.Command]] = [("renamer", cli), *commands(cli, "renamer", root)]
    for path, command in entries:
        ctx = context(command, path)
        parts += [f"## `{path}`", "", "```", command.get_help(ctx).rstrip(), "```", ""]
    return "\n".join(parts) + "\n" + json_docs.markdown()


if __name__ == "__main__":
    print(reference(), end="")
