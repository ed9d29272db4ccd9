"""Shell completion of values (newcomer pass 2 C11): resolver and site names from the DNS inventory,
paths for `explain PATH[:LINE]`, the moves the history records for `undo MOVE`. click calls these
while the command line is being typed, so they never fail: an inventory that does not load completes
nothing."""

from __future__ import annotations

from pathlib import Path

import click
from click.shell_completion import CompletionItem

from renamer.cli.common import inventory_from
from renamer.cli.options import settings
from renamer.dns.inventory import Inventory
from renamer.project import repo_root
from renamer.sweep.history import moves_in_history


def _inventory(ctx: click.Context) -> Inventory | None:
    try:
        return inventory_from(ctx, ctx.params.get("inventory_dir"))
    except Exception:
        return None


def resolver_list(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    """`--resolvers`: `all`, or resolver names separated by commas; each name after the last
    comma is completed, those already listed are not offered again."""
    inventory = _inventory(ctx)
    if inventory is None:
        return []
    done, _, last = incomplete.rpartition(",")
    head = f"{done}," if done else ""
    listed = {name.strip() for name in done.split(",")}
    names = [] if done else ["all"]
    names += [r.name for r in inventory.resolvers if r.name not in listed]
    return [CompletionItem(head + name) for name in names if name.startswith(last)]


def resolver_name(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    inventory = _inventory(ctx)
    names = [r.name for r in inventory.resolvers] if inventory is not None else []
    return [CompletionItem(name) for name in names if name.startswith(incomplete)]


def site_name(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    inventory = _inventory(ctx)
    names = [s.name for s in inventory.sites] if inventory is not None else []
    return [CompletionItem(name) for name in names if name.startswith(incomplete)]


def path_and_line(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    """`PATH[:LINE]`: the shell's own file completion (a line number is typed by hand)."""
    return [CompletionItem(incomplete, type="file")]




def move_name(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    """`undo MOVE`: the moves `renamer log` lists, undos left out (an undo is never undone)."""
    try:
        root = repo_root(settings(ctx).repo, Path.cwd())
        names = [m.move for m in moves_in_history(root) if not all(role == "undo" for _, role in m.commits)]
    except Exception:
        return []
    return [CompletionItem(name) for name in names if name.startswith(incomplete)]
