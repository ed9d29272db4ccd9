"""renamer dns: render, plan, apply and verify the new site's records on every resolver."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from renamer.cli import common_options, settings
from renamer.cli.common import repo_root
from renamer.errors import EXIT_FINDINGS, EXIT_OK

if TYPE_CHECKING:
    from renamer.dns.inventory import Inventory

RESOLVERS_HELP = "all, or resolver names separated by commas."


def _inventory(ctx: click.Context, folder: Path | None) -> Inventory:
    """--inventory, else the `dns:` folder of renamer.yaml, else dns/ at the repo root."""
    from renamer.config import display_path
    from renamer.dns.inventory import load_inventory
    from renamer.errors import ConfigError
    from renamer.project import discover

    options = settings(ctx)
    if folder is not None:
        root = repo_root(ctx)
        return load_inventory(folder, lambda p: display_path(p, root))
    try:
        root, config_path = discover(options.repo, options.config, Path.cwd())
    except ConfigError:
        if options.config is not None:
            raise
        root = repo_root(ctx)
        return load_inventory(root / "dns", lambda p: display_path(p, root))  # no renamer.yaml
    from renamer.config import load_config

    config = load_config(config_path, root)
    return load_inventory(config.dns_dir, config.display)


inventory_option = click.option(
    "--inventory", "inventory_dir", type=click.Path(path_type=Path, file_okay=False), default=None,
    help="The DNS inventory folder (default: `dns:` of renamer.yaml, or dns/).")


@click.group()
def dns() -> None:
    """DNS for the new site: render dnsmasq snippets, apply them to every resolver, verify.

    \b
    Examples:
      renamer dns render                      # every site's snippet
      renamer dns plan --resolvers all        # what apply would change, per resolver
      renamer dns apply --resolvers all       # backup, write, test, reload, verify; rollback on failure
      renamer dns verify --resolvers ns-fv    # ask the resolver itself
    """


@dns.command()
@click.option("--site", "site_name", default=None, help="Only this site.")
@click.option("--resolver", "resolver_name", default=None,
              help="As this resolver gets it (dhcp-host lines only for its `dhcp` sites).")
@click.option("--out", "out_dir", type=click.Path(path_type=Path, file_okay=False), default=None,
              help="Write renamer-<site>.conf files into this folder instead of printing them.")
@inventory_option
@common_options
@click.pass_context
def render(ctx: click.Context, site_name: str | None, resolver_name: str | None, out_dir: Path | None,
           inventory_dir: Path | None) -> int:
    """Print (or write) the deterministic dnsmasq snippet of each site.

    \b
    Examples:
      renamer dns render --site fv
      renamer dns render --resolver ns-fv --out /tmp/snippets
    """
    from renamer.atomic import save
    from renamer.dns.dnsmasq import render_site, snippet_name
    from renamer.errors import ConfigError

    inventory = _inventory(ctx, inventory_dir)
    resolver = inventory.select(resolver_name)[0] if resolver_name else None
    sites = [s for s in inventory.sites if site_name in (None, s.name)
             and (resolver is None or s.name in resolver.sites)]
    if site_name and not sites:
        known = ", ".join(s.name for s in inventory.sites)
        raise ConfigError(f"--site: unknown site {site_name!r} (known: {known})")
    out = settings(ctx).output
    for site in sites:
        text = render_site(site, resolver)
        if out_dir is not None:
            save(out_dir / snippet_name(site), text.encode(), make_folder=True)
            out.info(f"wrote {out_dir / snippet_name(site)}")
        else:
            if len(sites) > 1:
                out.echo(f"# ==> {snippet_name(site)} <==\n")
            out.echo(text)
    return EXIT_OK


def _transports(resolvers: list) -> dict:  # type: ignore[type-arg]
    from renamer.dns.transport import transport_for

    return {r.name: transport_for(r) for r in resolvers}


def _close(transports: dict) -> None:  # type: ignore[type-arg]
    for transport in transports.values():
        transport.close()


@dns.command()
@click.option("--resolvers", "spec", required=True, help=RESOLVERS_HELP)
@inventory_option
@common_options
@click.pass_context
def plan(ctx: click.Context, spec: str, inventory_dir: Path | None) -> int:
    """Show, per resolver, the snippet diff and the records added, changed and removed.

    Reads each resolver's current snippets; writes nothing.

    \b
    Examples:
      renamer dns plan --resolvers all
      renamer dns plan --resolvers ns-ana,ns-fv
    """
    from renamer.dns.report import plan_text
    from renamer.dns.rollout import plan_resolvers

    inventory = _inventory(ctx, inventory_dir)
    resolvers = inventory.select(spec)
    transports = _transports(resolvers)
    try:
        plans = plan_resolvers(inventory, resolvers, transports)
    finally:
        _close(transports)
    settings(ctx).output.echo(plan_text(plans))
    return EXIT_OK


@dns.command()
@click.option("--resolvers", "spec", required=True, help=RESOLVERS_HELP)
@click.option("--dry-run", is_flag=True, help="Show the plan; change nothing.")
@click.option("--no-verify", is_flag=True, help="Skip the resolution check after each reload.")
@inventory_option
@common_options
@click.pass_context
def apply(ctx: click.Context, spec: str, dry_run: bool, no_verify: bool, inventory_dir: Path | None) -> int:
    """Apply the snippets resolver by resolver, rolling everything back on any failure.

    For each resolver: back up its snippets into backup_dir, write the new ones
    atomically (through a dot-named temporary file dnsmasq never loads), run
    `test`, run `reload` (a restart: dnsmasq re-reads host-record only then),
    verify resolution. A resolver whose snippets are identical is not touched.
    If any step fails, every resolver already changed is restored from its
    backup, reloaded and checked, and the command exits 1.

    \b
    Examples:
      renamer dns apply --resolvers all
      renamer dns apply --resolvers ns-fv --dry-run
    """
    from renamer.dns.report import outcome_table, plan_text
    from renamer.dns.rollout import Rollout, plan_resolvers
    from renamer.dns.verify import dnspython_querier

    out = settings(ctx).output
    inventory = _inventory(ctx, inventory_dir)
    resolvers = inventory.select(spec)
    transports = _transports(resolvers)
    try:
        plans = plan_resolvers(inventory, resolvers, transports)
        if dry_run:
            out.echo(plan_text(plans))
            return EXIT_OK
        rollout = Rollout(inventory, transports, dnspython_querier, verify=not no_verify)
        draw = out.progress("dns apply", "resolvers", after=0.0)
        names = [p.resolver.name for p in plans]

        def step(name: str) -> None:
            if draw is not None:
                draw(names.index(name), len(names))

        outcomes = rollout.apply(plans, progress=step)
        if draw is not None:
            draw(len(names), len(names))
    finally:
        _close(transports)
    out.echo(outcome_table(outcomes))
    return EXIT_OK if all(o.ok for o in outcomes) else EXIT_FINDINGS


@dns.command()
@click.option("--resolvers", "spec", required=True, help=RESOLVERS_HELP)
@click.option("--format", "fmt", type=click.Choice(["table", "json"]), default="table",
              help="Output format.")
@inventory_option
@common_options
@click.pass_context
def verify(ctx: click.Context, spec: str, fmt: str, inventory_dir: Path | None) -> int:
    """Query each resolver directly and check every record of the inventory.

    A and FQDN A per host, PTR, every alias (CNAME and final address), and
    NXDOMAIN for every retired name, sent straight to the resolver's address
    and port (no system resolver, no search domains). Exits 1 on any mismatch
    or unreachable resolver.

    \b
    Examples:
      renamer dns verify --resolvers all
      renamer dns verify --resolvers ns-fv --format json
    """
    from renamer.dns.report import verify_json, verify_table
    from renamer.dns.verify import verify_all

    inventory = _inventory(ctx, inventory_dir)
    reports = verify_all(inventory, inventory.select(spec))
    out = settings(ctx).output
    out.echo(verify_json(reports) if fmt == "json" else verify_table(reports))
    return EXIT_OK if all(r.ok for r in reports) else EXIT_FINDINGS
