"""renamer dns: render, plan, apply and verify the new site's records on every resolver."""

from __future__ import annotations

import datetime as dt
import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import click

from renamer import clock, debug, work
from renamer.atomic import save
from renamer.cli import completion
from renamer.cli.common import RESOLVERS_FILE, inventory_from
from renamer.cli.options import Command, common_options, settings
from renamer.dns import confirm, queries, run
from renamer.dns.policy import Policy
from renamer.dns.report import (
    drift_lines,
    outcome_table,
    plan_text,
    status_document,
    status_table,
    verify_json,
    verify_table,
)
from renamer.dns.transition import transitions_text
from renamer.documents import SCHEMA, versioned
from renamer.errors import EXIT_FINDINGS, EXIT_INTERRUPTED, EXIT_OK, ConfigError, UnsafeError
from renamer.project import repo_root
from renamer.words import plural

RESOLVERS_HELP = "all, or resolver names separated by commas."


def _keep_resolvers_file(ctx: click.Context, param: click.Parameter, value: Path | None) -> None:
    if value is not None:
        ctx.meta[RESOLVERS_FILE] = value


def inventory_option(function: Command) -> Command:
    """--inventory, and --resolvers-file (read by _inventory, so no command has to pass it on)."""
    function = click.option(
        "--resolvers-file", type=click.Path(path_type=Path, dir_okay=False), default=None,
        expose_value=False, callback=_keep_resolvers_file,
        help="Resolvers to use instead of the inventory's resolvers.yaml (a lab, a staging "
             "fleet); the sites still come from the inventory.")(function)
    return click.option(
        "--inventory", "inventory_dir", type=click.Path(path_type=Path, file_okay=False), default=None,
        help="The DNS inventory folder (default: `dns:` of renamer.yaml, or dns/).")(function)


@click.group()
@click.pass_context
def dns(ctx: click.Context) -> None:
    """DNS for the new site: render each site's records, apply them to every resolver, verify.

    \b
    Examples:
      renamer dns render                      # every site's snippet
      renamer dns plan --resolvers all        # what apply would change, per resolver
      renamer dns apply --resolvers all       # backup, write, test, reload, verify; rollback on failure
      renamer dns verify --resolvers ns-ana3    # ask the resolver itself
    """
    counted = Counter(work.COUNTS)  # -vv's last line: the DNS queries, API calls and commands of this one
    ctx.call_on_close(lambda: debug.say(f"work: {work.line(work.since(counted))}"))


@dns.command()
@click.option("--site", "site_name", default=None, shell_complete=completion.site_name,
              help="Only this site.")
@click.option("--resolver", "resolver_name", default=None, shell_complete=completion.resolver_name,
              help="As this resolver gets it (dhcp-host lines only for its `dhcp` sites).")
@click.option("--out", "out_dir", type=click.Path(path_type=Path, file_okay=False), default=None,
              help="Write renamer-<site>.conf files into this folder instead of printing them.")
@inventory_option
@common_options
@click.pass_context
def render(ctx: click.Context, site_name: str | None, resolver_name: str | None, out_dir: Path | None,
           inventory_dir: Path | None) -> int:
    """Print (or write) the deterministic snippet of each site, in its resolvers' syntax.

    \b
    Examples:
      renamer dns render --site fv
      renamer dns render --resolver ns-ana3 --out /tmp/snippets
    """
    snippets = run.render(inventory_from(ctx, inventory_dir), site_name, resolver_name)
    out = settings(ctx).output
    for snippet in snippets:
        if out_dir is not None:
            save(out_dir / snippet.name, snippet.text.encode(), make_folder=True)
            out.info(f"wrote {out_dir / snippet.name}")
        else:
            if len(snippets) > 1:
                out.echo(f"# ==> {snippet.name} <==\n")
            out.echo(snippet.text)
    return EXIT_OK


@dns.command()
@click.option("--resolvers", "spec", required=True, shell_complete=completion.resolver_list,
              help=RESOLVERS_HELP)
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", help="Output format.")
@click.option("--expect-no-changes", is_flag=True,
              help="Exit 1 when anything is left to do (a snippet to change or not served, an "
                   "interrupted apply, a lock left, hand-written records): a CI drift check.")
@click.option("--retire-stale", is_flag=True, help="Also plan commenting out the hand-written records.")
@inventory_option
@common_options
@click.pass_context
def plan(ctx: click.Context, spec: str, fmt: str, expect_no_changes: bool, retire_stale: bool,
         inventory_dir: Path | None) -> int:
    """Show, per resolver, the snippet diff and the records added, changed and removed.

    Reads each resolver's current snippets and its whole daemon configuration;
    writes nothing. Also says where a snippet could not take effect, which
    authoritative domains the resolver forwards, which hand-written records
    still name old values or give a host another address, and an apply killed
    midway; a resolver whose snippets need no change is asked over DNS whether
    it serves them. Resolvers with `manage: false` (those named, and the
    forwarders in front of the resolvers named) are listed, asked whether they
    answer, and skipped. First come the transitional aliases (old names kept
    as CNAMEs to their new FQDN, `options.dns_transition`): each served until
    its date, or retired since (the plan then removes it where it is still
    served). The JSON form is what `dns apply --plan` takes.

    Exits 1 (attention needed) when the apply would refuse a resolver: it
    cannot be reached, it (or a forwarder in front) does not answer over DNS,
    or, where the apply would change it, its configuration as it stands fails
    its test or its backup_dir has no room for the backup (`preflight:`); when
    the apply would refuse or fail it by its own checks (`would fail:`: an
    earlier apply left it half-done, or its verify would fail, on a hand-written
    record the apply leaves in place or on what it serves now); or when the
    safety thresholds would refuse the apply; with --expect-no-changes also
    when anything is left to do.

    \b
    Examples:
      renamer dns plan --resolvers all
      renamer dns plan --resolvers all --expect-no-changes   # in CI: exit 1 on drift
      renamer dns plan --resolvers all --format json > dns-plan.json
    """
    inventory = inventory_from(ctx, inventory_dir)
    plans = run.plan(inventory, spec, retire_stale=retire_stale)
    out = settings(ctx).output
    document = run.plan_document(plans, inventory.transitions)
    if fmt == "json":
        from renamer.report.machine import dumps  # deferred: docs/architecture.md, "Deferred imports"

        out.echo(dumps(document))
    else:
        out.echo(transitions_text(inventory.transitions, no_window=inventory.no_window) + plan_text(plans))
    # Attention needed whatever the flags: a resolver planned without being read, one that does
    # not answer (a managed one or a forwarder in front: the apply's preflight refuses it), one
    # whose configuration fails its test or whose backup_dir is full (refused too), a plan the
    # safety thresholds refuse, one where the apply cannot take effect (its `problem`: a layout
    # that never reads the snippet, a hand-written line that keeps a retired name alive), one it
    # would fail on (`fails`: half-done, a hand-written record its verify would not accept).
    refused = any(p.unreachable or p.down or p.preflight or p.problem or p.fails for p in plans)
    attention = refused or bool(document["over_thresholds"])
    return EXIT_FINDINGS if attention or (expect_no_changes and document["changes"]) else EXIT_OK


def _within(ctx: click.Context, param: click.Parameter, value: str | None) -> int | None:
    if value is None:
        return None
    try:
        return confirm.parse_within(value)
    except ConfigError as exc:
        raise click.BadParameter(str(exc).removeprefix("--confirm-within: ")) from None


_POLICY = "renamer.policy"


def _keep_policy(ctx: click.Context, param: click.Parameter, value: int | None) -> None:
    if value is not None and param.name:
        ctx.meta.setdefault(_POLICY, {})[param.name] = value


def policy_options(function: Command) -> Command:
    """--batch-size, --canary and --max-fail-percent, for both engines (read by _policy)."""
    options = [
        click.option("--batch-size", type=click.IntRange(min=1), default=None, expose_value=False,
                     callback=_keep_policy,
                     help="Apply in batches of N resolvers; an applied and verified batch is final, "
                          "a failure rolls back its own batch only (default: all-or-nothing)."),
        click.option("--canary", type=click.IntRange(min=0), default=None, expose_value=False,
                     callback=_keep_policy,
                     help="A first batch of N resolvers; a failure there stops before any other is touched."),
        click.option("--max-fail-percent", type=click.IntRange(0, 100), default=None, expose_value=False,
                     callback=_keep_policy,
                     help="Failure budget per batch, as Ansible's max_fail_percentage: within it a failed "
                          "resolver is restored alone and the batch goes on (default 0)."),
    ]
    for option in reversed(options):
        function = option(function)
    return function


def _policy(ctx: click.Context) -> Policy:
    given = ctx.meta.get(_POLICY, {})
    return Policy(given.get("batch_size"), given.get("canary", 0), given.get("max_fail_percent", 0))


@dns.command()
@click.option("--resolvers", "spec", default=None, shell_complete=completion.resolver_list,
              help=RESOLVERS_HELP + " (or --plan)")
@click.option("--dry-run", is_flag=True, help="Show the plan; change nothing.")
@click.option("--no-verify", is_flag=True, help="Skip the resolution check after each reload.")
@click.option("--resume", "after_interrupt", flag_value="resume", default="refuse",
              help="After an apply that was killed: restore the resolvers it left half-done, then apply.")
@click.option("--rollback", "after_interrupt", flag_value="rollback",
              help="After an apply that was killed: restore the resolvers it left half-done, and stop.")
@click.option("--retire-stale", is_flag=True,
              help="Comment out hand-written records that keep old names alive (backed up, tested, rolled "
                   "back like the snippets).")
@click.option("--plan", "plan_file", type=click.Path(path_type=Path, dir_okay=False), default=None,
              help="Apply exactly this reviewed `dns plan --format json`; refused (exit 3) if anything "
                   "changed since.")
@click.option("--force", is_flag=True,
              help="Apply even where a site that has 10 records or more would lose, or see updated, more "
                   "than 30 % of them, or where a transitional alias served now would be retired before its "
                   "date (refused otherwise, exit 3, naming the counts or the alias).")
@click.option("--use-renamer-now", "use_renamer_now", is_flag=True,
              help="Write by RENAMER_NOW's clock (a rehearsal's, set in the environment): transitional "
                   "aliases are then served or retired by it, not by today. Without it, an environment "
                   "holding RENAMER_NOW is refused (exit 3, nothing written).")
@click.option("--engine", type=click.Choice(["builtin", "ansible"]), default="builtin", show_default=True,
              help="Who does the fan-out: renamer itself, or ansible-playbook (the fleet extra) over an "
                   "exported playbook; the same checks, table and exit codes.")
@click.option("--confirm-within", "confirm_within", default=None, metavar="DURATION", callback=_within,
              help="Commit-confirmed: each resolver changed reverts by itself after DURATION (3s, 10m, 1h), "
                   "on its own machine, unless `renamer dns confirm` keeps it; its lock stays held until "
                   "then (built-in engine, file backends).")
@policy_options
@inventory_option
@common_options
@click.pass_context
def apply(ctx: click.Context, spec: str | None, dry_run: bool, no_verify: bool, after_interrupt: str,
          retire_stale: bool, plan_file: Path | None, force: bool, use_renamer_now: bool, engine: str,
          confirm_within: int | None, inventory_dir: Path | None) -> int:
    """Apply the snippets resolver by resolver, rolling everything back on any failure.

    For each resolver: back up its snippets into backup_dir, write the new ones
    atomically (through a dot-named temporary file the daemon never loads), run
    `test`, run `reload` (dnsmasq: a restart, it re-reads host-record only then),
    verify resolution. A resolver whose snippets are identical is not touched.
    If any step fails, every resolver already changed is restored from its
    backup, reloaded and checked, and the command exits 1. Ctrl-C or SIGTERM
    rolls back the same way (exit 130). An apply killed outright leaves a marker
    in each touched resolver's backup_dir: the next apply refuses (exit 3) until
    told --resume or --rollback.

    \b
    Examples:
      renamer dns apply --resolvers all
      renamer dns apply --resolvers ns-ana3 --dry-run
      renamer dns apply --resolvers all --rollback    # after an apply that was killed
      renamer dns apply --plan dns-plan.json          # exactly the plan reviewed
      renamer dns apply --resolvers all --retire-stale   # and comment out stale hand records
      renamer dns apply --resolvers all --canary 1 --batch-size 10 --max-fail-percent 5
      renamer dns apply --resolvers all --engine ansible --batch-size 10
      renamer dns apply --resolvers all --force       # past the safety thresholds
      renamer dns apply --resolvers all --confirm-within 10m   # then: renamer dns confirm --resolvers all
    """
    out = settings(ctx).output
    reviewed = _reviewed(plan_file) if plan_file is not None else None
    if reviewed is not None:
        spec = ",".join(str(r.get("resolver")) for r in reviewed.get("resolvers", []) if isinstance(r, dict))
    if not spec:
        raise click.UsageError("give --resolvers, or --plan with a reviewed plan")
    if confirm_within is not None and (engine == "ansible" or after_interrupt == "rollback"):
        raise click.UsageError("--confirm-within works with the built-in engine's apply only (not --engine "
                               "ansible, not --rollback)")
    request = run.ApplyRequest(dry_run=dry_run, verify=not no_verify,
                               after_interrupt=after_interrupt,  # type: ignore[arg-type]  # click's choice
                               reviewed=reviewed, retire_stale=retire_stale, policy=_policy(ctx),
                               force=force, confirm_within=confirm_within or 0)
    if engine == "ansible" and not dry_run:
        if no_verify:  # the playbook's verify is what decides each batch
            raise click.UsageError("--no-verify works with the built-in engine only (not --engine ansible)")
        argv, args = control_node_argv(ctx, inventory_dir)
        inventory = inventory_from(ctx, inventory_dir)
        _faked_clock(ctx, use_renamer_now)
        result = run.apply_with_ansible(inventory, spec, request, argv, args,
                                        say=lambda line: out.info(f"ansible: {line}"))
    else:
        inventory = inventory_from(ctx, inventory_dir)
        if not dry_run:
            _faked_clock(ctx, use_renamer_now)
        result = run.apply(inventory, spec, request,
                           progress=out.progress("dns apply", "resolvers", after=0.0))
    for note in result.notes:
        out.echo(f"renamer: {note}\n", err=True)
    if not dry_run:  # a dry run prints the warnings with its plan
        for plan in result.plans:
            for line in drift_lines(plan):
                out.echo(f"renamer: {line}\n", err=True)
    listed = transitions_text(inventory.transitions, no_window=inventory.no_window)
    out.echo(listed + plan_text(result.plans) if dry_run else
             out.verdict(outcome_table(result.outcomes, restored=result.restored, paint=out.result,
                                       width=out.width(), vantage=result.vantage,
                                       skipped=[p.resolver.name for p in result.plans
                                                if not p.resolver.manage])))
    if confirm_within and not dry_run and result.ok and not any(o.armed is not None for o in result.outcomes):
        # t25-34 finding 07: a no-op arms nothing; a `dns confirm` after it finds nothing to confirm
        out.echo("renamer: --confirm-within: nothing changed on any resolver: nothing armed, no "
                 "`renamer dns confirm` needed (it would find nothing armed)\n", err=True)
    if result.interrupted:
        out.echo("renamer: aborted\n", err=True)
        return EXIT_INTERRUPTED
    return EXIT_OK if result.ok else EXIT_FINDINGS


@dns.command()
@click.option("--resolvers", "spec", required=True, shell_complete=completion.resolver_list,
              help=RESOLVERS_HELP)
@click.option("--format", "fmt", type=click.Choice(["table", "json"]), default="table",
              help="Output format.")
@click.option("--restored-from", "restored", type=click.Path(path_type=Path, file_okay=False, exists=True),
              default=None, help="Check instead that the resolvers serve the snippets in this folder "
                                 "again (after a rollback): their canary and A records.")
# The exported playbook's own steps (dns/ansible_export.ControlNode), not for people: hidden.
@click.option("--alone", is_flag=True, hidden=True,
              help="Ask only the resolvers named, not the forwarders in front of them.")
@click.option("--settle", is_flag=True, hidden=True,
              help="Ask a resolver that fails twice more, a second apart, as dns apply asks its forwarders.")
@click.option("--answering", is_flag=True, hidden=True,
              help="Check instead that each resolver named, and each forwarder in front, answers now.")
@click.option("--loaded", is_flag=True, hidden=True,
              help="First wait until each resolver named serves what its files say (named loads zones "
                   "after rndc reload returns).")
@inventory_option
@common_options
@click.pass_context
def verify(ctx: click.Context, spec: str, fmt: str, inventory_dir: Path | None, restored: Path | None,
           alone: bool, settle: bool, answering: bool, loaded: bool) -> int:
    """Query each resolver directly and check every record of the inventory.

    A and FQDN A per host, PTR, every alias (CNAME and final address), each
    transitional alias until its date (the old name's CNAME to its new FQDN),
    and NXDOMAIN for every retired name (a transitional alias once its date
    has passed), sent straight to the resolver's address
    and port (no system resolver, no search domains). The forwarders in front
    of the resolvers named (`manage: false`, serving their sites) are asked
    too, as `dns apply` asks them. Exits 1 on any mismatch or unreachable
    resolver.

    \b
    Examples:
      renamer dns verify --resolvers all
      renamer dns verify --resolvers ns-ana    # ns-ana and the forwarders in front of it
      renamer dns verify --resolvers ns-ana3 --format json
      renamer dns verify --resolvers ns-ana3 --restored-from backups/ns-ana3-20261129T1200Z
    """
    if restored is not None:
        failures = run.verify_restored(inventory_from(ctx, inventory_dir), spec, restored)
        out = settings(ctx).output
        out.echo("".join(f"{line}\n" for line in failures) + out.verdict(
            f"dns verify: FAILED: {len(failures)} not serving {restored}" if failures
            else f"dns verify: OK: serving {restored} again"))
        return EXIT_FINDINGS if failures else EXIT_OK
    if answering:  # the hand run's preflight: a line per resolver that does not answer
        silent = run.answering(inventory_from(ctx, inventory_dir), spec)
        settings(ctx).output.echo("".join(f"{line}\n" for line in silent))
        return EXIT_FINDINGS if silent else EXIT_OK
    reports = run.verify(inventory_from(ctx, inventory_dir), spec, alone=alone, settle=settle, loaded=loaded)
    out = settings(ctx).output
    if fmt == "json":
        shown = verify_json(reports)
    else:
        shown = out.verdict(verify_table(reports, out.result, out.width()))
    out.echo(shown)
    return EXIT_OK if all(r.ok for r in reports) else EXIT_FINDINGS


@dns.command()
@click.option("--resolvers", "spec", default="all", show_default=True,
              shell_complete=completion.resolver_list, help=RESOLVERS_HELP)
@click.option("--format", "fmt", type=click.Choice(["table", "json"]), default="table",
              help="Output format.")
@inventory_option
@common_options
@click.pass_context
def status(ctx: click.Context, spec: str, fmt: str, inventory_dir: Path | None) -> int:
    """Show each resolver's lock and the commit-confirmed revert armed there.

    Reads only: per managed resolver, who holds its lock (user, host, pid),
    and where `dns apply --confirm-within` armed a revert, when it runs (by
    the resolver's own clock) and how many seconds are left. Exits 1 when a
    revert is overdue (its deadline passed, the lock still there), failed
    (its REVERT.failed), lost (its process or unit not running, or its
    files gone: nothing will revert it), or a resolver cannot be reached.

    \b
    Examples:
      renamer dns status
      renamer dns status --resolvers ns-ana,ns-fv --format json
    """
    states = run.lock_status(inventory_from(ctx, inventory_dir), spec)
    out = settings(ctx).output
    if fmt == "json":
        out.echo(json.dumps(status_document(states), indent=2) + "\n")
    else:
        out.echo(out.verdict(status_table(states, out.result, out.width())))
    return EXIT_OK if all(s.ok for s in states) else EXIT_FINDINGS


@dns.command("confirm")
@click.option("--resolvers", "spec", required=True, shell_complete=completion.resolver_list,
              help=RESOLVERS_HELP)
@inventory_option
@common_options
@click.pass_context
def confirm_command(ctx: click.Context, spec: str, inventory_dir: Path | None) -> int:
    """Keep a commit-confirmed apply: disarm the revert it left on each resolver.

    On each resolver named: claims the decision before the revert can (a
    revert that already started is left to finish, and said), stops the
    revert's process (only while /proc/PID/cmdline still names its script)
    or systemd unit, records the apply as applied there and releases the
    lock. Exits 1 when a resolver had nothing armed, its revert ran first,
    or it cannot be reached: nothing is ever said confirmed that was not.

    \b
    Examples:
      renamer dns confirm --resolvers all
      renamer dns confirm --resolvers ns-ana,ns-fv
    """
    done = run.confirm_applies(inventory_from(ctx, inventory_dir), spec)
    out = settings(ctx).output
    kept = [c.resolver.name for c in done if c.ok]
    missed = [c.resolver.name for c in done if not c.ok]
    out.echo("".join(f"{c.line}\n" for c in done) + out.verdict(
        f"dns confirm: FAILED on {', '.join(missed)}" + (f" (confirmed on {', '.join(kept)})" if kept else "")
        if missed else f"dns confirm: OK, confirmed on {', '.join(kept)}"))
    return EXIT_OK if not missed else EXIT_FINDINGS


_UNITS = {"m": 60, "h": 3600, "d": 86400, "w": 7 * 86400}


_LONGEST_WINDOW = 100 * 365  # days: a window reaching past year 1 overflows a date (t25-34 finding 10)


def _window(ctx: click.Context, param: click.Parameter, value: str) -> dt.timedelta:
    text = value.strip().lower()
    if len(text) < 2 or not text[:-1].isdigit() or text[-1] not in _UNITS:
        raise click.BadParameter(f"expected a number and a unit (m, h, d or w), e.g. 7d; got {value!r}")
    if int(text[:-1]) == 0:
        raise click.BadParameter(f"{value!r} is an empty window: nobody can have asked in it; give one of at "
                                 "least 1m, e.g. 7d")
    seconds = int(text[:-1]) * _UNITS[text[-1]]
    if seconds > _LONGEST_WINDOW * 86400:
        raise click.BadParameter(f"{value!r} is longer than the longest window, {_LONGEST_WINDOW}d")
    return dt.timedelta(seconds=seconds)


@dns.command("who-asks")
@click.argument("olds", nargs=-1, metavar="[OLD]...")
@click.option("--resolvers", "spec", default="all", show_default=True,
              shell_complete=completion.resolver_list,
              help=f"{RESOLVERS_HELP} Those with a `query_log:` are read.")
@click.option("--since", "window", default="7d", show_default=True, callback=_window,
              help="How far back to look: a number and m, h, d or w.")
@click.option("--format", "fmt", type=click.Choice(["table", "json"]), default="table",
              help="Output format.")
@inventory_option
@common_options
@click.pass_context
def who_asks(ctx: click.Context, olds: tuple[str, ...], spec: str, window: dt.timedelta, fmt: str,
             inventory_dir: Path | None) -> int:
    """List the clients that still ask the resolvers for an old name or address.

    Reads each resolver's query log (its `query_log:` key: the file dnsmasq's
    `log-queries`, Unbound's `log-queries: yes` or BIND's `querylog` writes,
    local or over ssh) and lists, per old value, each client that asked for
    it within the window: the name as written or under a site's domain, an
    address by its PTR name. Without OLD: renamer.yaml's old names and
    addresses and every retired name of the inventory.

    Exits 0 when no client asked and every log read covers the window; 1 when
    a client asked, or a log is missing, unreadable, holds no query (logging
    off) or begins after the window starts (rotated): it cannot prove nobody
    asks.

    \b
    Examples:
      renamer dns who-asks                           # every old value, the last 7 days
      renamer dns who-asks ana-ml2 10.250.50.54 --since 30d
      renamer dns who-asks --resolvers ns-ana --format json
    """
    found = queries.who_asks(inventory_from(ctx, inventory_dir), spec, olds, window)
    out = settings(ctx).output
    if fmt == "json":
        from renamer.report.machine import dumps  # deferred: docs/architecture.md, "Deferred imports"

        out.echo(dumps(versioned(queries.document(found))))
    else:
        shown, verdict = queries.text(found, out.width())
        out.echo(shown + out.verdict(verdict))
    return EXIT_OK if found.ok else EXIT_FINDINGS


def _faked_clock(ctx: click.Context, meant: bool) -> None:
    """A command that writes, on RENAMER_NOW's clock (left exported after a rehearsal?): refused,
    exit 3, once the inventory loaded and before anything is read from a resolver or written,
    unless `--use-renamer-now` says it is meant; then said first on stderr (t24-alias finding 16)."""
    faked = clock.faked()
    if faked is None:
        return
    if not meant:
        raise UnsafeError(f"{faked.split(': transitional', 1)[0]}: a real write would serve or retire "
                          "transitional aliases by it, not by today; unset RENAMER_NOW, or pass "
                          "--use-renamer-now if this is meant; nothing written")
    settings(ctx).output.echo(f"renamer: warning: {faked}\n", err=True)


@dns.group()
def export() -> None:
    """Export the rollout for another engine (Ansible).

    \b
    Examples:
      renamer dns export ansible --out deploy/dns-fv --resolvers all --batch-size 10
    """


def control_node_argv(ctx: click.Context, inventory_dir: Path | None) -> tuple[list[str], list[str]]:
    """(this renamer as a command, the dns options it needs) for the verify steps an engine runs
    on this machine: absolute paths, so they work from any folder."""
    options = settings(ctx)
    argv = [sys.executable, "-m", "renamer", "--repo", str(repo_root(options.repo, Path.cwd()))]
    if options.config is not None:
        argv += ["--config", str(options.config.resolve())]
    args = ["--inventory", str(inventory_dir.resolve())] if inventory_dir is not None else []
    if ctx.meta.get(RESOLVERS_FILE) is not None:
        args += ["--resolvers-file", str(Path(ctx.meta[RESOLVERS_FILE]).resolve())]
    return argv, args


@export.command("ansible")
@click.option("--out", "out_dir", type=click.Path(path_type=Path, file_okay=False), required=True,
              help="A new (or empty) folder for the playbook.")
@click.option("--resolvers", "spec", default="all", show_default=True,
              shell_complete=completion.resolver_list, help=RESOLVERS_HELP)
@click.option("--use-renamer-now", "use_renamer_now", is_flag=True,
              help="Render by RENAMER_NOW's clock (a rehearsal's, set in the environment); without it, an "
                   "environment holding RENAMER_NOW is refused (exit 3, nothing exported).")
@policy_options
@inventory_option
@common_options
@click.pass_context
def export_ansible(ctx: click.Context, out_dir: Path, spec: str, use_renamer_now: bool,
                   inventory_dir: Path | None) -> int:
    """Write a self-contained Ansible playbook that applies the snippets to every resolver.

    The folder holds inventory.yml (one host per resolver: its connection, folders,
    test and reload commands), the rendered snippets, and playbook.yml: per host, in a
    block/rescue, take the lock, back up, install, run the whole-config test, restart,
    verify (renamer dns verify on this machine); on failure restore, restart (only where
    the apply had restarted) and check the old records are served. --batch-size, --canary
    and --max-fail-percent become the play's serial and its batch step's failure budget
    (a batch over it is rolled back whole; the play keyword max_fail_percentage is not
    used).

    \b
    Examples:
      renamer dns export ansible --out deploy/dns-fv
      renamer dns export ansible --out deploy/dns-fv --canary 1 --batch-size 10 --max-fail-percent 5
      cd deploy/dns-fv && ansible-playbook playbook.yml --check --diff
    """
    argv, args = control_node_argv(ctx, inventory_dir)
    inventory = inventory_from(ctx, inventory_dir)
    _faked_clock(ctx, use_renamer_now)  # the playbook is rendered by this clock: refused or said first
    done = run.export_ansible(inventory, spec, out_dir, _policy(ctx), argv, args)
    out = settings(ctx).output
    out.echo(f"exported {plural(len(done.hosts), 'resolver')} to {done.folder} "
             f"(serial {list(done.serial)}); run it there: ansible-playbook playbook.yml\n")
    return EXIT_OK


def _reviewed(path: Path) -> dict[str, Any]:
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ConfigError(f"--plan {path}: file not found") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ConfigError(f"--plan {path}: not a JSON plan ({str(exc).splitlines()[0]})") from None
    if not isinstance(document, dict) or not isinstance(document.get("resolvers"), list):
        raise ConfigError(f"--plan {path}: not a plan written by `renamer dns plan --format json`")
    schema = document.get("schema", SCHEMA)  # none: written by renamer 0.1, the same document
    if schema != SCHEMA or isinstance(schema, bool):
        raise ConfigError(f"--plan {path}: schema {json.dumps(schema)}, but this renamer reads plans of "
                          f"schema {SCHEMA}: make the plan again with its `dns plan --format json`")
    return document
