"""renamer probe: do the endpoints the repo now names resolve and answer?"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from renamer import lazy_re
from renamer.cli.common import inventory_from, project_from
from renamer.cli.dns import inventory_option
from renamer.cli.options import common_options, settings
from renamer.errors import EXIT_FINDINGS, EXIT_OK, ConfigError
from renamer.probe.checks import Limits
from renamer.probe.run import probe as run_probe
from renamer.report.machine import dumps
from renamer.report.probe import document, listing, markdown, table
from renamer.words import plural

# curl's --connect-to: HOST:PORT:ADDRESS:PORT, an empty HOST or PORT standing for any.
_CONNECT_TO = lazy_re.compile(r"(?P<host>[^:\[\]]*|\[[0-9A-Fa-f:.]+\]):(?P<port>\d{0,5}):"
                         r"(?P<to>[^:\[\]]+|\[[0-9A-Fa-f:.]+\]):(?P<to_port>\d{1,5})\Z")


def _connect_to(values: tuple[str, ...]) -> tuple[tuple[str, str, int], ...]:
    out = []
    for value in values:
        found = _CONNECT_TO.match(value)
        if found is None:
            raise click.UsageError(f"--connect-to {value!r}: expected HOST:PORT:ADDRESS:PORT, "
                                   "as curl's --connect-to")
        out.append((f"{found['host'].strip('[]')}:{found['port']}", found["to"].strip("[]"),
                    int(found["to_port"])))
    return tuple(out)


@click.command()
@click.option("--dry-run", is_flag=True, help="List what would be probed; contact nothing.")
@click.option("--format", "fmt", type=click.Choice(["table", "json", "markdown"]), default="table",
              help="Output format (markdown: for a CI job summary).")
@click.option("--timeout", type=click.FloatRange(0.1, 60), default=None,
              help="Seconds per step of one endpoint (default: probe.timeout, 3).")
@click.option("--concurrency", type=click.IntRange(1, 256), default=None,
              help="Endpoints probed at once (default: probe.concurrency, 32).")
@click.option("--total-timeout", type=click.FloatRange(1, 3600), default=120.0, show_default=True,
              help="Seconds for the whole run; what is left is reported as not probed.")
@click.option("--connect-to", "connect_to", multiple=True, metavar="HOST:PORT:ADDRESS:PORT",
              help="Connect there instead (as curl's --connect-to): a lab, a tunnel. Resolution is "
                   "still checked for HOST.")
@click.option("--no-system-resolver", is_flag=True,
              help="Ask only the inventory's resolvers, not this machine's (a lab's names).")
@inventory_option
@common_options
@click.pass_context
def probe(ctx: click.Context, dry_run: bool, fmt: str, timeout: float | None, concurrency: int | None,
          total_timeout: float, connect_to: tuple[str, ...], no_system_resolver: bool,
          inventory_dir: Path | None) -> int:
    """Probe every endpoint the current-state files name through a new name or address.

    Collects, from current-state files only, the URLs, host:port pairs, compose
    extra_hosts pins and hosts with a `port` beside them that hold a new value of
    the renames. For each: resolution through every resolver of the inventory
    that serves its site and through this machine's resolver (all must agree), a
    TCP connect, and for http(s) one GET (a health path per key from probe.health
    in renamer.yaml), the TLS certificate checked against the new name. GET only,
    no redirect followed, never an address the files do not name. Exit 1 when
    any endpoint fails.

    \b
    Examples:
      renamer probe --dry-run                  # what would be contacted
      renamer probe                            # after the sweep and the DNS apply
      renamer probe --format markdown >> "$GITHUB_STEP_SUMMARY"
      renamer probe --connect-to 10.251.50.54:8016:127.0.0.1:8016   # through a tunnel
      renamer probe --connect-to ::127.0.0.1:8080       # every endpoint to one test server
    """
    out = settings(ctx).output
    project = project_from(ctx)
    config = project.config.probe
    try:
        inventory = inventory_from(ctx, inventory_dir)
    except ConfigError:
        if inventory_dir is not None or (project.config.dns_dir.is_dir()):
            raise
        inventory = None  # no DNS inventory: only this machine's resolver answers for the names
    checks = Limits(timeout=timeout or config.timeout, health=config.health, expect=config.expect,
                    connect_to=_connect_to(connect_to), system_resolver=not no_system_resolver)
    if not dry_run and sys.stderr.isatty():
        out.info("renamer: probing the endpoints this repo's current-state files name, from this "
                 "machine: DNS queries, TCP connects and one GET each (no body, no redirect followed)")
    result = run_probe(project, inventory, checks, concurrency=concurrency or config.concurrency,
                       total=total_timeout, dry_run=dry_run)
    if fmt == "json":
        out.echo(dumps(document(result.endpoints, result.verdicts, dry_run)))
    elif dry_run:
        out.echo(listing(result.endpoints))
    elif fmt == "markdown":
        out.echo(markdown(result.verdicts))
    elif not result.endpoints:
        out.echo("probe: no endpoint in the current-state files holds a new value\n")
    else:
        out.echo(out.verdict(table(result.verdicts, out.result, out.width())))
    out.detail(f"{plural(len(result.endpoints), 'endpoint')} found")
    return EXIT_OK if result.ok else EXIT_FINDINGS
