"""renamer undo: the inverse of a recorded move, committed as a move of its own."""

from __future__ import annotations

import dataclasses
from dataclasses import replace
from typing import Any

import click

from renamer import vcs_command
from renamer.cli import completion
from renamer.cli.common import early_listing, project_from
from renamer.cli.options import common_options, settings
from renamer.cli.output import Output
from renamer.config import Renames
from renamer.dns import run as dns_run
from renamer.dns.inventory import Host, Inventory, Site
from renamer.dns.plan import over_thresholds
from renamer.dns.report import drift_lines, outcome_table, plan_text
from renamer.errors import EXIT_FINDINGS, EXIT_INTERRUPTED, EXIT_OK, EXIT_UNSAFE, ConfigError, UnsafeError
from renamer.masking import mask_diff, mask_line
from renamer.project import LoadedProject
from renamer.report.machine import dumps, undo_data
from renamer.report.text import verify_report
from renamer.sites import inventory_at, inventory_commits
from renamer.sweep import run, undo
from renamer.sweep.results import VerifyResult
from renamer.words import plural


@click.command("undo")
@click.argument("move", shell_complete=completion.move_name)
@click.option("--dry-run", is_flag=True, help="Print the undo's diff and what it checked; write nothing.")
@click.option("--no-verify", "no_hooks", is_flag=True,
              help="Skip the repo's pre-commit and commit-msg hooks, as git's --no-verify.")
@click.option("--commit-timeout", type=click.FloatRange(min=0), default=vcs_command.DEFAULT_COMMIT_TIMEOUT,
              show_default=True, help="Seconds git commit (and its hooks) may take before it is stopped.")
@click.option("--show-secrets", is_flag=True, help="Print the diff's secret-looking values unmasked.")
@click.option("--dns", "with_dns", is_flag=True,
              help="Then apply the DNS inventory as it was at the move's parent commit, as `dns apply` does "
                   "(plan, backup, write, test, reload, verify; every resolver rolled back on a failure).")
@click.option("--resolvers", "spec", default="all", show_default=True,
              shell_complete=completion.resolver_list,
              help="With --dns: all, or NAME[,NAME...] of the inventory's resolvers.")
@click.option("--force", is_flag=True,
              help="With --dns: past dns apply's safety thresholds (an undo deletes the move's records).")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", help="Output format.")
@common_options
@click.pass_context
def undo_command(ctx: click.Context, move: str, dry_run: bool, no_hooks: bool, commit_timeout: float,
                 show_secrets: bool, with_dns: bool, spec: str, force: bool, fmt: str) -> int:
    """Undo a recorded move: revert its commits and commit the inverse as a move.

    MOVE is a move `renamer log` lists. Its commits (renames, rewrite,
    .git-blame-ignore-revs entry, the keep rules of sweep --interactive) are
    reverted onto HEAD with git's 3-way merge, in a scratch worktree first,
    then committed as one commit carrying `Renamer-Move: undo-MOVE` and
    `Renamer-Undoes: MOVE`; each Terraform `moved` block the move wrote gets
    its inverse (new -> old, tagged as the undo's), so an applied move's state
    moves back; verify of the inverse renames runs after it (exit 1 where it
    fails).

    Refused (exit 3, each place named as path:line): a line the move wrote
    that a later commit changed, a new value used since where the undo would
    leave it dangling, an old value used again since in a current-state file,
    a file or a line a move commit changed that holds none of the move's
    values (an unrelated change amended in), a dirty work tree, a move whose
    commits are not in HEAD's history, and the undo of an undo (run the move
    again instead). An edit beside a line the move rewrote is kept, not
    refused. A move whose changes HEAD no longer holds (undone, or reverted
    by hand) changes nothing (exit 0); an undo reverted since is undone again;
    an undo a killed run left uncommitted is finished.

    With --dns, after the git part, the DNS inventory as committed at the
    move's parent is applied (where the inventory changed since beyond the
    move's own hosts: today's inventory with the move's hosts as the parent
    had them; a site added or redefined since is refused) through `dns
    apply`'s own path: plan, backup, write, test, reload,
    verify, rollback (exit 1 where it fails); no backup file is restored as
    it is. The move's new names must then resolve
    nowhere, unless that inventory defines them. An undo already committed
    applies it again (a resolver already as it should be is not touched).

    \b
    Examples:
      renamer log                          # the moves, and their names
      renamer undo fv-ml1-move --dry-run   # the inverse as a diff; nothing written
      renamer undo fv-ml1-move             # revert, commit, verify
      renamer undo fv-ml1-move --dns       # and the DNS as it was before the move
      renamer undo fv-ml1-move --format json
    """
    options = settings(ctx)
    out = options.output
    if not with_dns and (force or spec != "all"):
        raise click.UsageError("--resolvers and --force go with --dns")
    project = project_from(ctx)
    if not project.git:
        raise UnsafeError(f"{project.root}: not a git repository: renamer undo reverts the commits of a move")
    plan = undo.plan_undo(project, move)
    if not dry_run and plan.run is not None and not plan.refusals:
        undo.check_clean(project.root, plan)  # before anything is asked of a resolver
        if undo.left_by_a_killed_undo(project.root, plan):
            out.info(f"renamer: the index and work tree hold exactly this undo of {move}, uncommitted (an "
                     "undo stopped between its checkout and its commit): finishing it (committed with its "
                     "trailers, then verified)")
    # The inventory is read before anything is written: a broken one refuses the whole undo.
    try:
        inventory = _inventory(project, plan) if with_dns and not plan.refusals else None
    except DnsRefused as exc:
        if fmt != "json":
            raise
        # t25-34 finding 16: the same document as the git part's refusals, each host in `refused`
        where = project.config.display(project.config.dns_dir)
        refusals = tuple(undo.Refusal(where, None, "dns", item) for item in exc.items)
        out.info(f"renamer: error: {exc}")
        return _report(out, replace(plan, refusals=refusals), fmt, dry_run, show_secrets, None)
    if plan.refusals or dry_run:
        return _report(out, plan, fmt, dry_run, show_secrets, _planned(out, inventory, spec, fmt))
    if inventory is not None:  # what dns apply would refuse is refused before the undo writes anything
        _dns_preflight(inventory, spec, force)
    sha, verified = None, None
    if plan.run is not None:
        with vcs_command.commit_timeout(commit_timeout):
            sha = undo.apply_undo(project.root, plan, hooks=not no_hooks)
        assert plan.renames is not None
        inverse = undo.inverse_project(project, move, plan.renames)
        with early_listing(ctx) as listing:
            verified = run.verify(inverse, runtime=run.Runtime(out.progress("verifying"), listing))
    if fmt == "text":
        if plan.run is None:
            _report(out, plan, fmt, dry_run, show_secrets, None)
        else:
            assert verified is not None
            _summary(out, plan, sha)
            _verified(out, verified)
    if sha is not None and project.config.name == move:  # the config still describes the move undone
        shown = project.config.display(project.config.path)
        out.info(f"renamer: {shown} still describes {move}: plain `renamer verify` now reports the "
                 "old values the undo restored; change or remove it before the next sweep")
    applied = _applied(out, inventory, spec, fmt, force) if inventory is not None else None
    differs = _head_differs(project, inventory) if applied is not None and inventory is not None else []
    if applied is not None:
        applied[1]["head_differs"] = differs
    if differs and applied is not None and applied[0] == EXIT_OK:
        more = f" (and {len(differs) - 1} more)" if len(differs) > 1 else ""
        out.echo(f"renamer: undo --dns: the resolvers serve the inventory of {move}'s parent, but HEAD's "
                 f"inventory describes other records: {differs[0]}{more}: `renamer dns verify` fails and "
                 "the next `renamer dns apply` puts them back until the inventory is edited for the undo\n",
                 err=True)
        applied = (EXIT_FINDINGS, applied[1])
    if fmt == "json":
        out.echo(dumps(undo_data(plan, dry_run=False, commit=sha, verified=verified,
                                 dns=applied[1] if applied else None)))
    if applied is not None and applied[0] != EXIT_OK:
        return applied[0]
    return EXIT_OK if verified is None or verified.verdict.ok else EXIT_FINDINGS


class DnsRefused(UnsafeError):
    """`--dns` refused before anything is written, with each thing refused (a host, a resolver)."""

    def __init__(self, message: str, items: list[str]) -> None:
        super().__init__(message)
        self.items = items


def _inventory(project: LoadedProject, plan: undo.UndoPlan) -> Inventory:
    """The DNS inventory at the move's parent; the move's new values must then resolve nowhere."""
    if plan.parent is None or plan.renames is None:  # an undo commit whose move is not in this history
        raise UnsafeError(f"--dns: the commits {plan.move} undid are not in HEAD's history: no commit "
                          "before the move to take the DNS inventory from")
    renames = plan.renames
    inventory = inventory_at(project.config, plan.parent, tuple(new for _, new in renames.hosts),
                             tuple(new for _, new in renames.addresses))
    current = inventory_at(project.config, plan.head)
    first = _first_with_move(project, plan.parent, plan.head, renames)
    changed = dns_changes_since(inventory, current, renames)
    moved = moved_host_changes(first, current, renames) if first is not None else []
    if moved:  # t25-34 finding 01: an alias, a MAC, an address given to a moved host since the move
        raise DnsRefused(f"--dns: the move's own hosts changed since {plan.move} in ways the inventory at "
                         f"its parent would undo: {'; '.join(moved)}: applying that inventory would drop "
                         "those changes from every resolver, while HEAD keeps them; nothing was written. Run "
                         "the undo without --dns, then edit the inventory for the undo and `renamer dns "
                         "apply`", moved)
    if not changed:
        return fleet_of_today(inventory, current, plan.move)
    merged, why = inverse_on_today(inventory, current, renames)
    if merged is None:
        raise DnsRefused(f"--dns: the DNS inventory changed since {plan.move} ({'; '.join(changed)}), and "
                         f"the undo cannot be laid on today's inventory: {why}; nothing was written. Run "
                         "the undo without --dns, then edit the inventory for the undo and `renamer dns "
                         "apply`", [f"the undo cannot be laid on today's inventory: {why}"])
    return merged


def _move_host(site: Site, host: Host, values: set[str]) -> bool:
    return host.name.lower() in values or site.fqdn(host.name).lower() in values


def inverse_on_today(parent: Inventory, current: Inventory,
                     renames: Renames) -> tuple[Inventory | None, str]:
    """`undo --dns` where the inventory changed since the move beyond its own hosts: today's
    inventory (HEAD's hosts, retired names, aliases and resolvers) with the move's own hosts (named
    by an old or a new value of the move) as the move's parent had them: the inverse applied to
    today's inventory, so the hosts added, removed or changed since stay as HEAD has them. None,
    and why, where that cannot be told safely: a site added, removed or redefined since (domain,
    network, authoritative), or an address the undo gives back used since by another host."""
    values = {v.lower().rstrip(".") for pair in renames.hosts for v in pair}
    before = {site.name: site for site in parent.sites}
    now = {site.name: site for site in current.sites}
    if set(before) != set(now):
        return None, (f"its sites changed ({', '.join(sorted(set(before) ^ set(now)))} added or removed "
                      "since the move)")
    sites = []
    for name, site in now.items():
        was = before[name]
        if (was.domain, was.networks, was.authoritative) != (site.domain, site.networks, site.authoritative):
            return None, f"site {name} was redefined since the move (its domain, network or authoritative)"
        kept = [h for h in site.hosts if not _move_host(site, h, values)]
        back = [h for h in was.hosts if _move_host(was, h, values)]
        taken = {str(a) for h in kept for a in h.addresses} & {str(a) for h in back for a in h.addresses}
        if taken:
            return None, (f"{', '.join(sorted(taken))} in site {name}, an address the undo gives back, is "
                          "used since by another host")
        retired = [r for r in site.retired if r.lower() not in values]
        retired += [r for r in was.retired if r.lower() in values and r not in retired]
        transitional = tuple(t for t in site.transitional if t.name.lower() not in values
                             and t.host.lower() not in values and t.fqdn.lower() not in values)
        sites.append(dataclasses.replace(site, hosts=(*kept, *back), retired=tuple(retired),
                                         transitional=transitional))
    transitions = tuple(t for t in current.transitions if t.name.lower() not in values
                        and t.host.lower() not in values and t.fqdn.lower() not in values)
    return dataclasses.replace(current, sites=tuple(sites), old_hosts=parent.old_hosts,
                               old_addresses=parent.old_addresses, transitions=transitions), ""


def fleet_of_today(parent: Inventory, current: Inventory, move: str) -> Inventory:
    """The parent's records on HEAD's resolvers (resolvers.yaml as it is today: one added since
    the move is undone too, one whose target, snippet_dir or backup_dir changed since is written
    where it is now). A resolver of today serving a site the parent's inventory has not is
    refused, naming it: what it serves of that site would be left as the move made it."""
    known = {site.name for site in parent.sites}
    unknown = [f"{r.name} serves site {site}" for r in current.resolvers for site in (*r.sites, *r.dhcp)
               if site not in known]
    if unknown:
        items = list(dict.fromkeys(unknown))
        message = (f"--dns: {'; '.join(items)}, which the DNS inventory at the parent of {move} does not "
                   "define: its records would be left as they are there; nothing was written. Run the undo "
                   "without --dns, then edit the inventory for the undo and `renamer dns apply`")
        raise DnsRefused(message, items)
    return replace(parent, resolvers=current.resolvers)


def _records(inventory: Inventory, values: set[str]) -> dict[str, tuple[str, ...]]:
    """Each host of the inventory whose name is none of `values` (the move's own), by FQDN: what
    it serves (addresses, aliases, mac, role)."""
    out: dict[str, tuple[str, ...]] = {}
    for site in inventory.sites:
        for host in site.hosts:
            fqdn = f"{host.name}.{site.domain}".lower()
            if host.name.lower() in values or fqdn in values:
                continue
            out[fqdn] = (",".join(sorted(str(a) for a in host.addresses)), ",".join(sorted(host.aliases)),
                         host.mac or "", host.role or "")
    return out


def dns_changes_since(parent: Inventory, current: Inventory, renames: Renames) -> list[str]:
    """The hosts HEAD's inventory adds, removes or changes against the move's parent, beyond the
    move's own hosts (named by an old or a new value of the move): what applying the parent's
    inventory would wrongly undo. Each as `FQDN (added|removed|changed) since the move`."""
    values = {v.lower().rstrip(".") for pair in renames.hosts for v in pair}
    return _differences(_records(parent, values), _records(current, values),
                        "{fqdn} ({now}) added since the move", "{fqdn} ({then}) removed since the move",
                        "{fqdn} changed since the move ({then} then, {now} now)")


def _differences(before: dict[str, tuple[str, ...]], now: dict[str, tuple[str, ...]],
                 added: str, removed: str, changed: str) -> list[str]:
    """Each FQDN only in `now`, only in `before`, or in both with other records, phrased by the
    matching template (`{fqdn}`, `{then}` and `{now}`: the first record of each side)."""
    out = []
    for fqdn in sorted(set(before) | set(now)):
        then_, now_ = (before[fqdn][0] if fqdn in before else ""), (now[fqdn][0] if fqdn in now else "")
        if fqdn not in before:
            out.append(added.format(fqdn=fqdn, then=then_, now=now_))
        elif fqdn not in now:
            out.append(removed.format(fqdn=fqdn, then=then_, now=now_))
        elif before[fqdn] != now[fqdn]:
            out.append(changed.format(fqdn=fqdn, then=then_, now=now_))
    return out


def _own(inventory: Inventory, renames: Renames) -> dict[str, tuple[str, str, str, str]]:
    """The move's own hosts under their new names (an FQDN or a short name of the move's `to`
    side), by FQDN: addresses, aliases, mac, role."""
    news = {new.lower().rstrip(".") for _, new in renames.hosts}
    out = {}
    for site in inventory.sites:
        for host in site.hosts:
            fqdn = f"{host.name}.{site.domain}".lower()
            if host.name.lower() in news or fqdn in news:
                out[fqdn] = (",".join(sorted(str(a) for a in host.addresses)),
                             ",".join(sorted(a.lower() for a in host.aliases)),
                             host.mac or "-", host.role or "-")
    return out


def _first_with_move(project: LoadedProject, parent: str, head: str, renames: Renames) -> Inventory | None:
    """The inventory as the first commit after the move's parent that holds the move's own hosts
    under their new names left it (the move's commit, or the DNS commit made for it): what the
    move made of them."""
    for rev in inventory_commits(project.config, parent, head):
        try:
            inventory = inventory_at(project.config, rev)
        except ConfigError:  # an inventory broken for a while in history: the next commit
            continue
        if _own(inventory, renames):
            return inventory
    return None


def moved_host_changes(first: Inventory, current: Inventory, renames: Renames) -> list[str]:
    """The move's own hosts as HEAD's inventory holds them, against the first inventory that held
    them under their new names (_first_with_move): an alias, a mac, a role or an address given
    them since is no part of the move, and applying the parent's inventory would drop it (t25-34
    finding 01). Each as `FQDN (the move's own host) changed since the move: ...`."""
    then, now = _own(first, renames), _own(current, renames)
    kinds = ("addresses", "aliases", "mac", "role")
    out = []
    for fqdn in sorted(set(then) | set(now)):
        if fqdn not in then or fqdn not in now:
            continue  # added or dropped under its new name: the move's own business
        diffs = [f"{kind} {w or '-'} after the move, {g or '-'} now"
                 for kind, w, g in zip(kinds, then[fqdn], now[fqdn], strict=True) if w != g]
        if diffs:
            out.append(f"{fqdn} (the move's own host) changed since the move: {'; '.join(diffs)}")
    return out


def _head_differs(project: LoadedProject, applied: Inventory) -> list[str]:
    try:
        return head_differs(applied, inventory_at(project.config, "HEAD"))
    except ConfigError as exc:  # the undo left an inventory renamer cannot read: never a bare OK
        return [f"HEAD's inventory cannot be read: {exc}"]


def head_differs(applied: Inventory, head: Inventory) -> list[str]:
    """After `undo --dns`: the records HEAD's inventory (the undo committed) describes that are not
    the ones applied, by FQDN: `dns verify` at HEAD fails on them, and the next `dns apply` puts
    them back."""
    return _differences(_records(applied, set()), _records(head, set()),
                        "{fqdn} ({now}) is in HEAD's inventory, not served",
                        "{fqdn} ({then}) is served, not in HEAD's inventory",
                        "{fqdn}: {then} served, {now} in HEAD's inventory")


def _planned(out: Output, inventory: Inventory | None, spec: str, fmt: str) -> dict[str, Any] | None:
    """--dry-run --dns: what the apply would change on each resolver."""
    if inventory is None:
        return None
    plans = dns_run.plan(inventory, spec)
    if fmt == "text":
        out.echo("DNS as it was before the move (dry run):\n" + plan_text(plans))
    return {"dry_run": True, "ok": None, "resolvers": [{"resolver": p.resolver.name, "status": "planned"}
                                                        for p in plans], "head_differs": []}


def _dns_preflight(inventory: Inventory, spec: str, force: bool) -> None:
    """Refused (exit 3) before the git part: what `dns apply` would refuse of this inventory."""
    plans = dns_run.plan(inventory, spec)
    why = [p.problem for p in plans if p.problem] + [p.preflight for p in plans if p.preflight]
    why += [p.unreachable for p in plans if p.unreachable] + [f for p in plans for f in p.fails]
    over = [] if force else over_thresholds(plans)
    if why or over:
        shown = [*why, *over]
        more = f" (and {len(shown) - 1} more)" if len(shown) > 1 else ""
        hint = ("; if deleting the move's records is what you mean, add --force" if over and not why else
                "; `renamer undo MOVE --dns --dry-run` shows the plan")
        raise UnsafeError(f"--dns: {shown[0]}{more}: refused before the undo wrote anything{hint}")


def _applied(out: Output, inventory: Inventory, spec: str, fmt: str,
             force: bool) -> tuple[int, dict[str, Any]]:
    result = dns_run.apply(inventory, spec, dns_run.ApplyRequest(force=force),
                           progress=out.progress("dns apply", "resolvers", after=0.0))
    for note in result.notes:
        out.echo(f"renamer: {note}\n", err=True)
    for plan in result.plans:
        for line in drift_lines(plan):
            out.echo(f"renamer: {line}\n", err=True)
    if fmt == "text":
        out.echo("DNS as it was before the move:\n")
        out.echo(out.verdict(outcome_table(result.outcomes, restored=result.restored, paint=out.result,
                                           width=out.width(), vantage=result.vantage,
                                           skipped=[p.resolver.name for p in result.plans
                                                    if not p.resolver.manage])))
    data = {"dry_run": False, "ok": result.ok,
            "resolvers": [{"resolver": o.resolver.name, "status": o.status} for o in result.outcomes]}
    code = EXIT_INTERRUPTED if result.interrupted else EXIT_OK if result.ok else EXIT_FINDINGS
    return code, data


def _report(out: Output, plan: undo.UndoPlan, fmt: str, dry_run: bool, show_secrets: bool,
            dns: dict[str, Any] | None) -> int:
    """Nothing left to undo, a refusal, or a dry run."""
    code = EXIT_UNSAFE if plan.refusals else EXIT_OK
    if fmt == "json":
        out.echo(dumps(undo_data(plan, dry_run=dry_run, commit=None, verified=None, dns=dns)))
        return code
    if plan.run is None and plan.already is None:
        out.echo(f"undo: nothing left to undo: HEAD holds none of {plan.move}'s changes (its commits were "
                 "reverted by hand); reverting them again would change nothing\n")
        return EXIT_OK
    if plan.run is None:
        out.echo(f"undo: nothing left to undo: {plan.move} was undone by {(plan.already or '')[:12]} "
                 f"({undo.undo_name(plan.move)}), and that undo is still in effect at HEAD; to redo the "
                 "move, run it again\n")
        return EXIT_OK
    if plan.refusals:
        for r in plan.refusals:
            out.echo(f"{r.where()}: refused ({r.kind}): {r.message}\n")
            if r.text:
                out.echo(f"    {mask_line(r.text)}\n")
        places = plural(len(plan.refusals), "place")
        out.echo(out.verdict(f"undo: REFUSED: {places} where undoing {plan.move} would lose a change or "
                             "leave a name wrong; nothing was written"))
        return code
    diff, masked = (plan.diff, 0) if show_secrets else mask_diff(plan.diff)
    out.write_bytes(out.color_diff(diff))
    if masked:
        out.info(f"renamer: {plural(masked, 'diff line')} hold secrets, masked (****): this diff does not "
                 "apply as printed; --show-secrets prints it exactly")
    out.echo("")
    _summary(out, plan, None)
    return code


def _summary(out: Output, plan: undo.UndoPlan, sha: str | None) -> None:
    assert plan.run is not None
    commits = ", ".join(f"{s[:12]} {role}" for s, role in plan.run.commits)
    files = plural(len(plan.changed), "file")
    lines = plan.counts
    done = f"committed as {sha[:12]} ({undo.undo_name(plan.move)})" if sha else "dry run: nothing written"
    out.echo(f"undo: {plan.move} ({commits}): {files}, {len(plan.renamed)} renamed back, "
             f"-{lines.get('removed', 0)} +{lines.get('added', 0)} lines; {done}\n")
    if plan.deleted:  # t25-34 finding 17: nothing of them to restore or lose
        out.echo(f"undo: left deleted (the move changed them, a later commit deleted them): "
                 f"{', '.join(plan.deleted)}\n")


def _verified(out: Output, verified: VerifyResult) -> None:
    report = verify_report(verified.summary, verified.verdict, verified.expired, verified.collisions,
                           quiet=out.quiet, verbose=out.verbosity >= 1)
    body, _, last = report.rstrip("\n").rpartition("\n")
    if body:
        out.echo(body + "\n")
    out.echo(out.verdict(f"undo: verify of the inverse renames: {last.removeprefix('verify: ')}"))
