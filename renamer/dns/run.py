"""The DNS use cases: render, plan, apply and verify, from an inventory to plain results."""

from __future__ import annotations

import contextlib
import posixpath
import signal
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from renamer import debug
from renamer.dns import ansible_engine, applies, confirm, preflight
from renamer.dns.ansible_export import ControlNode, Export, write_export
from renamer.dns.answers import Check, Expectation, Querier, ResolverReport
from renamer.dns.backend import backend_for
from renamer.dns.inventory import Inventory, Resolver, Site, Transitional
from renamer.dns.lock import LOCK, armed_refusal, locked, parse, revert_failed
from renamer.dns.plan import PENDING, ResolverPlan, over_thresholds, plan_resolvers
from renamer.dns.policy import Policy
from renamer.dns.powerdns import ansible as powerdns_ansible
from renamer.dns.powerdns.transport import ApiTransport
from renamer.dns.query import dnspython_querier
from renamer.dns.rollout import Outcome, Rollout, StepFailed, restart_deadline, restore_interrupted, serving
from renamer.dns.served import observe, observe_unmanaged
from renamer.dns.transition import transition_dict
from renamer.dns.transport import Transport, TransportError, Unreachable
from renamer.dns.verify import verify_all, wait_until_answering
from renamer.documents import versioned
from renamer.errors import ConfigError, UnsafeError
from renamer.interrupts import handled, raise_interrupt


@dataclass(frozen=True)
class Snippet:
    site: Site
    name: str  # Backend.snippet_name: renamer-<site>.conf
    text: str


@dataclass(frozen=True)
class ApplyResult:
    plans: list[ResolverPlan]
    outcomes: list[Outcome]  # empty for a dry run
    interrupted: bool = False  # Ctrl-C or SIGTERM: the changed resolvers were rolled back
    restored: bool = False  # --rollback after an apply killed outright: only restores were done
    notes: list[str] = field(default_factory=list)  # stale locks taken over; markers and backups left alone
    # the resolvers with `manage: false`, asked after the managed ones were applied and verified
    vantage: list[ResolverReport] = field(default_factory=list)
    apply_id: str = ""  # this apply's id (dns/applies.py); a rollback's is the apply it restored

    @property
    def ok(self) -> bool:
        if self.restored:
            return all(o.status == "rolled back" for o in self.outcomes)
        return all(o.ok for o in self.outcomes) and all(r.ok for r in self.vantage)


def render(inventory: Inventory, site: str | None = None, resolver: str | None = None) -> list[Snippet]:
    """Each site's snippet (only `site`; as `resolver` gets it, with its DHCP lines)."""
    chosen = inventory.select(resolver)[0] if resolver else None
    if chosen is not None and not chosen.manage:
        raise ConfigError(f"--resolver: {chosen.name} has manage: false: renamer renders nothing for it "
                          "(it only asks it over DNS)")
    sites = [s for s in inventory.sites if site in (None, s.name)
             and (chosen is None or s.name in chosen.sites)]
    if site and not sites:
        known = ", ".join(s.name for s in inventory.sites)
        raise ConfigError(f"--site: unknown site {site!r} (known: {known})")
    kinds = sorted({r.backend for r in inventory.managed})
    if chosen is None and len(kinds) > 1:
        raise ConfigError(f"the resolvers run {' and '.join(kinds)}, whose files differ: name one with "
                          "--resolver")
    # without a resolver: the backend all managed resolvers run, else the inventory's default
    backend = backend_for(chosen if chosen is not None or not kinds else inventory.managed[0])
    return [Snippet(s, backend.snippet_name(s), backend.render(s, chosen)) for s in sites]


@contextlib.contextmanager
def connected(inventory: Inventory, resolvers: Sequence[Resolver]) -> Iterator[dict[str, Transport]]:
    """A transport per resolver (its backend's: one ssh master connection each, or an API
    backend's own), closed at the end."""
    transports = {r.name: backend_for(r).transport(inventory, r) for r in resolvers}
    try:
        yield transports
    finally:
        for transport in transports.values():
            transport.close()


def plan(inventory: Inventory, spec: str, *, retire_stale: bool = False,
         make_querier: Callable[[Resolver], Querier] = dnspython_querier) -> list[ResolverPlan]:
    """What apply would change on each resolver of `spec` (all, or names); writes nothing. A
    resolver whose snippets need no change is asked over DNS whether it serves them, and a lock
    left there is named (dns/served.py). One with `manage: false` gets an empty plan, and so
    does each forwarder in front of the resolvers selected (the apply asks them: in_front),
    each asked whether it answers; each managed one is asked what the apply's preflight asks
    (dns/preflight.py), so the plan never promises an apply that would be refused."""
    selected = inventory.select(spec)
    resolvers = [r for r in selected if r.manage]
    with connected(inventory, resolvers) as transports, \
            debug.timed(f"dns plan: {len(resolvers)} resolvers read"):
        _read_ahead(resolvers, transports, test=True)
        plans = plan_resolvers(inventory, resolvers, transports, retire_stale=retire_stale)
        _would_refuse_half_done(plans, transports)  # before observe: a half-done resolver is refused first
        observe(inventory, plans, transports, make_querier)
    return _observed_unmanaged(inventory, selected, plans, make_querier)


def _observed_unmanaged(inventory: Inventory, selected: Sequence[Resolver], plans: list[ResolverPlan],
                        make_querier: Callable[[Resolver], Querier]) -> list[ResolverPlan]:
    """The plans of `selected` and of the forwarders in front of them, each forwarder asked
    whether it answers (a down one would stop the apply's preflight)."""
    every = _with_unmanaged(_and_in_front(inventory, selected), plans)
    observe_unmanaged(every, make_querier)
    return every


def _and_in_front(inventory: Inventory, selected: Sequence[Resolver]) -> list[Resolver]:
    """`selected`, then the forwarders in front of them that it does not name."""
    return [*selected, *(r for r in in_front(inventory, selected) if r not in selected)]


def _with_unmanaged(selected: Sequence[Resolver], plans: list[ResolverPlan]) -> list[ResolverPlan]:
    """The plans in the order the resolvers were selected, an empty one for each unmanaged."""
    by_name = {p.resolver.name: p for p in plans}
    return [by_name.get(r.name) or ResolverPlan(r, {}, {}) for r in selected]


def _read_ahead(resolvers: Sequence[Resolver], transports: dict[str, Transport], *, test: bool,
                apply_id: str = "") -> None:
    """What planning reads on each resolver (and, for an apply, the test of its configuration as
    it stands, dns/preflight.py, and whether its id was used there), fetched by a remote
    transport with its first round trip."""
    for resolver in resolvers:
        files, folders, runs = backend_for(resolver).reads(resolver)
        # the plan names a lock left there (dns/served.py): read with the rest, no round trip of its own
        state = [posixpath.join(resolver.backup_dir, name) for name in (PENDING, applies.LAST, LOCK)]
        state += [applies.used(resolver, apply_id)] if apply_id else []
        tests = [resolver.test, preflight.space_probe(resolver)] if test else []
        transports[resolver.name].prefetch([*files, *state], folders, [*runs, *tests])


AfterInterrupt = applies.AfterInterrupt


@dataclass(frozen=True)
class ApplyRequest:
    """What `dns apply` is asked for (cli/dns.py builds it from its options)."""

    dry_run: bool = False  # plan only
    verify: bool = True
    after_interrupt: AfterInterrupt = "refuse"
    reviewed: dict[str, Any] | None = None  # `--plan FILE`: apply exactly this reviewed plan
    retire_stale: bool = False  # comment out hand-written records that name old values
    policy: Policy | None = None  # how far a failure reaches; None: all or nothing
    force: bool = False  # past the safety thresholds (plan.over_thresholds)
    # This apply's id (dns/applies.py); "" makes a new one. A library caller may name one: one
    # that already names a backup folder on a resolver is refused (applies.refuse_reused).
    apply_id: str = ""
    # --confirm-within: seconds after which each resolver applied reverts by itself, unless
    # `renamer dns confirm` disarms it (dns/confirm.py); 0: the apply is final as it ends
    confirm_within: int = 0


def apply(inventory: Inventory, spec: str, request: ApplyRequest = ApplyRequest(), *,
          progress: Callable[[int, int], None] | None = None,
          make_querier: Callable[[Resolver], Querier] = dnspython_querier) -> ApplyResult:
    """Plan, then apply resolver by resolver, rolling back every changed one on any failure.

    An earlier apply killed outright left resolvers half-done (their snippets written, maybe
    never restarted): it is refused unless told to `resume` (restore those resolvers from
    their backup, then apply as usual) or to `rollback` (restore them and stop)."""
    selected = inventory.select(spec)
    resolvers = [r for r in selected if r.manage]  # the others are never reached but over DNS
    notes: list[str] = []
    request = replace(request, apply_id=request.apply_id or applies.new_id())
    if request.confirm_within and not request.dry_run:
        confirm.refuse_unsupported(resolvers)  # before anything is read or written
    armed: set[str] = set()  # the resolvers whose lock the armed revert keeps (dns/confirm.py)
    with connected(inventory, resolvers) as transports:
        _read_ahead(resolvers, transports, test=True, apply_id=request.apply_id)
        if request.dry_run:
            plans = plan_resolvers(inventory, resolvers, transports, retire_stale=request.retire_stale)
            _would_refuse_half_done(plans, transports)
            observe(inventory, plans, transports, make_querier)
            return ApplyResult(_observed_unmanaged(inventory, selected, plans, make_querier), [])
        unreachable: dict[str, str] = {}  # a fleet goes on without them, within the failure budget
        for resolver in resolvers:  # a missing sudo right is named before even a lock is written
            try:
                transports[resolver.name].check_sudo()
            except Unreachable as exc:
                unreachable[resolver.name] = str(exc)
        with locked([r for r in resolvers if r.name not in unreachable], transports, notes, unreachable,
                    kept=armed, lost=confirm.finishable, finish=request.after_interrupt != "refuse"):
            result = _apply_locked(inventory, resolvers, transports, request, progress, make_querier,
                                   unreachable, in_front(inventory, selected), armed)
    if result.outcomes:
        ended: dict[str, str] = {o.resolver.name: o.status for o in result.outcomes if o.resolver.manage}
        sequences = {o.resolver.name: o.sequence for o in result.outcomes if o.sequence}
        applies.log_ended(inventory.folder, _id_of(result), ended, sequences)
    result = replace(result, plans=_with_unmanaged(_and_in_front(inventory, selected), result.plans),
                     notes=notes + result.notes)
    return _ask_unmanaged(inventory, selected, result, request.verify, make_querier)


def _ask_unmanaged(inventory: Inventory, selected: Sequence[Resolver], result: ApplyResult, verify: bool,
                   make_querier: Callable[[Resolver], Querier]) -> ApplyResult:
    """Apply's last verification: once every managed resolver is applied and verified, ask the
    unmanaged ones (the forwarders clients use) too. A failure there fails the apply but rolls
    nothing back: the managed resolvers serve the inventory, and renamer cannot repair a path
    it does not own (its forwarding, its cache); the line names the resolver to look at."""
    unmanaged = in_front(inventory, selected)
    if not unmanaged or not verify or result.restored or result.interrupted or not result.ok:
        return result
    return replace(result, vantage=settled(inventory, unmanaged, make_querier))


def settled(inventory: Inventory, resolvers: Sequence[Resolver],
            make_querier: Callable[[Resolver], Querier]) -> list[ResolverReport]:
    """verify_all, where a resolver that fails is asked FORWARDER_CACHE_TRIES more times: what
    apply asks the forwarders last, and the exported playbook after its last batch."""
    reports = verify_all(inventory, resolvers, make_querier)
    for _ in range(FORWARDER_CACHE_TRIES):
        failed = [i for i, report in enumerate(reports) if not report.ok]
        if not failed:
            break
        # A forwarder may still hold what it got before the restart for its TTL (dnsmasq's own
        # records have TTL 0, which Unbound keeps until the next second): ask again a little later.
        time.sleep(1.1)
        again = verify_all(inventory, [reports[i].resolver for i in failed], make_querier)
        for i, report in zip(failed, again, strict=True):
            reports[i] = report
    return reports


def in_front(inventory: Inventory, selected: Sequence[Resolver]) -> list[Resolver]:
    """The unmanaged resolvers an apply to `selected` asks last: those selected, and, for a subset
    of the managed ones (`--resolvers X`), every forwarder serving a site X carries (the site's
    clients ask through it: an apply to X alone must prove they get the records too)."""
    sites = {site for r in selected if r.manage for site in r.sites}
    chosen = {r.name for r in selected}
    return [r for r in inventory.resolvers if not r.manage
            and (r.name in chosen or sites.intersection(r.sites))]


FORWARDER_CACHE_TRIES = 2  # more rounds of asking a failing unmanaged resolver after an apply


def _apply_locked(inventory: Inventory, resolvers: list[Resolver], transports: dict[str, Transport],
                  request: ApplyRequest, progress: Callable[[int, int], None] | None,
                  make_querier: Callable[[Resolver], Querier], unreachable: dict[str, str],
                  forwarders: Sequence[Resolver], armed: set[str]) -> ApplyResult:
    retire_stale, after_interrupt, reviewed = request.retire_stale, request.after_interrupt, request.reviewed
    with debug.timed(f"dns plan: {len(resolvers)} resolvers read"):
        plans = plan_resolvers(inventory, resolvers, transports, retire_stale=retire_stale,
                               unreachable=unreachable)
    if reviewed is not None:
        _same_as_reviewed(plans, reviewed)
    _refuse_problems(plans)  # before anything is written on any resolver
    _refuse_over_thresholds(plans, request.force)
    applies.refuse_reused([p.resolver for p in plans if p.unreachable is None], transports, request.apply_id)
    notes = applies.interrupted(plans, transports, after_interrupt)
    half_done = [p for p in plans if p.interrupted]
    if after_interrupt == "refuse":
        _refuse_half_done(half_done)
    if after_interrupt == "rollback" and not half_done:  # never an apply in its place
        _refuse_rollback_of_nothing(plans, notes)
    if half_done:
        outcomes = [_restore(plan, transports, make_querier) for plan in half_done]
        if after_interrupt == "rollback" or not all(o.status == "rolled back" for o in outcomes):
            return ApplyResult(plans, outcomes, restored=True, notes=notes)
        plans = plan_resolvers(inventory, resolvers, transports, retire_stale=retire_stale,
                               unreachable=unreachable)
    # Before the first write: a fault already there on one resolver stops the apply before a
    # healthy one is written and restarted for nothing (the policy's budget may let the others go).
    found = preflight.faults(plans, transports, make_querier, ask=request.verify)
    ahead = preflight.forwarders_down(forwarders, make_querier) if request.verify else {}
    if ahead:  # whatever the budget: the apply's last step would fail there, after every write
        return ApplyResult(plans, _stopped_ahead(plans, forwarders, found, ahead), notes=notes)
    if found and (request.policy or Policy()).over_budget(len(found), len(plans)):
        return ApplyResult(plans, [_preflight_outcome(p, found) for p in plans], notes=notes)
    faulty = {p.resolver.name: _preflight_outcome(p, found) for p in plans if p.resolver.name in found}
    every, plans = plans, [p for p in plans if p.resolver.name not in found]
    names = [p.resolver.name for p in plans]

    def step(name: str) -> None:
        if progress is not None:
            progress(names.index(name), len(names))

    rollout = Rollout(inventory, transports, make_querier, verify=request.verify, stamp=request.apply_id,
                      confirm_within=request.confirm_within, armed=armed)
    # SIGTERM (a CI job cancelled, systemd stopping a unit) and SIGHUP (the operator's session
    # closed) interrupt like Ctrl-C: the rollout rolls back instead of dying between a write and
    # a restart.
    with handled((signal.SIGTERM, signal.SIGHUP), raise_interrupt):
        applied = {o.resolver.name: o for o in rollout.apply(plans, progress=step, policy=request.policy)}
    if progress is not None:
        progress(len(names), len(names))
    outcomes = [applied.get(r.name) or faulty[r.name] for r in resolvers
                if r.name in applied or r.name in faulty]
    return ApplyResult(every, outcomes, rollout.interrupted, notes=notes, apply_id=rollout.stamp)


def _stopped_ahead(plans: Sequence[ResolverPlan], forwarders: Sequence[Resolver], found: dict[str, str],
                   ahead: dict[str, str]) -> list[Outcome]:
    """A forwarder in front is down: every managed resolver untouched (its own fault named, if
    it has one), and a row for each forwarder that did not answer."""
    every = {**found, **ahead}
    return ([_preflight_outcome(p, every) for p in plans]
            + [_preflight_outcome(ResolverPlan(r, {}, {}), every) for r in forwarders if r.name in ahead])


def _preflight_outcome(plan: ResolverPlan, found: dict[str, str]) -> Outcome:
    """A resolver the preflight stopped: its own fault, or the fault elsewhere that kept it untouched."""
    outcome = Outcome(plan.resolver)
    fault = found.get(plan.resolver.name)
    if fault is not None:
        outcome.status, outcome.error = "failed", f"{fault}; nothing written"
        outcome.steps.append("preflight FAILED")
    else:
        outcome.steps.append(f"preflight failed on {', '.join(sorted(found))}: not touched")
    return outcome


def plan_document(plans: Sequence[ResolverPlan], transitions: Sequence[Transitional] = ()) -> dict[str, Any]:
    """`dns plan --format json`: what would change, per resolver, with the digests that let
    `dns apply --plan FILE` apply exactly this and nothing else; and the transitional aliases,
    served or retired, with their dates."""
    return versioned({"changes": any(p.pending for p in plans),
                      "resolvers": [p.document() for p in plans],
                      "over_thresholds": over_thresholds(plans),  # dns apply refuses it without --force
                      "transitional": [transition_dict(t) for t in transitions]})


def _same_as_reviewed(plans: Sequence[ResolverPlan], reviewed: dict[str, Any]) -> None:
    """Refuse when the inventory or a resolver's snippets changed since the plan was reviewed."""
    try:
        wanted = {r["resolver"]: r["snippets"] for r in reviewed["resolvers"]}
    except (KeyError, TypeError):
        raise ConfigError("--plan: not a plan written by `renamer dns plan --format json`") from None
    now = {p.resolver.name: p.document()["snippets"] for p in plans}
    if set(now) != set(wanted):
        raise ConfigError(f"--plan: it plans {', '.join(sorted(wanted))}; this apply would reach "
                          f"{', '.join(sorted(now))}")
    for name, snippets in now.items():
        if snippets != wanted[name]:
            theirs = {s["file"]: s for s in wanted[name]}
            what = next((s["file"] for s in snippets if theirs.get(s["file"]) != s), "a snippet")
            raise UnsafeError(f"{name}: {what} differs from the reviewed plan (the inventory or the resolver "
                              "changed since): plan and review again; nothing written")


def _id_of(result: ApplyResult) -> str:
    backups = [o.backup for o in result.outcomes if o.backup]
    return result.apply_id or (applies.id_of(backups[0]) if backups else "")


def _restore(plan: ResolverPlan, transports: dict[str, Transport],
             make_querier: Callable[[Resolver], Querier]) -> Outcome:
    outcome = Outcome(plan.resolver)
    outcome.backup = plan.interrupted
    try:
        transport, querier = transports[plan.resolver.name], make_querier(plan.resolver)
        outcome.steps += restore_interrupted(plan, transport, querier)
        outcome.status = "rolled back"
    except (StepFailed, TransportError) as exc:
        outcome.status, outcome.error = "rollback FAILED", str(exc)
    return outcome


def lock_status(inventory: Inventory, spec: str) -> list[confirm.LockState]:
    """`dns status`: each managed resolver's lock, the revert armed there and its deadline; reads only."""
    resolvers = [r for r in inventory.select(spec) if r.manage]
    return confirm.status(resolvers, lambda r: backend_for(r).transport(inventory, r))


def confirm_applies(inventory: Inventory, spec: str) -> list[confirm.Confirmed]:
    """`dns confirm`: disarm the revert a commit-confirmed apply left on each resolver of `spec`."""
    resolvers = [r for r in inventory.select(spec) if r.manage]
    if not resolvers:
        raise ConfigError(f"--resolvers {spec}: no resolver renamer manages (all have manage: false)")
    return confirm.confirm(resolvers, lambda r: backend_for(r).transport(inventory, r))


def verify(inventory: Inventory, spec: str,
           make_querier: Callable[[Resolver], Querier] = dnspython_querier, *,
           alone: bool = False, settle: bool = False, loaded: bool = False) -> list[ResolverReport]:
    """Ask each resolver of `spec` directly whether it serves the inventory; where it serves
    DHCP for hosts with a MAC, check its reservations and leases too. The forwarders in front
    of them (`manage: false`, serving their sites: in_front) are asked as well, as apply asks
    them: `--resolvers X` proves what X's clients get, not only what X says. `alone`: only
    those of `spec` (the exported playbook's batch verify: a forwarder in front of one batch may
    forward to a resolver of a later one, so a hand run asks them once, after its last batch).
    `settle`: one that fails is asked again, as apply asks its forwarders (settled). `loaded`:
    first wait until each managed resolver of `spec` serves what its files say (Backend.loaded:
    the exported playbook's activation returns before named has loaded the zones)."""
    # managed or not, both are asked, and the forwarders in front of them too: the set apply asks
    selected = inventory.select(spec)
    resolvers = selected if alone else _and_in_front(inventory, selected)
    late = _wait_loaded(inventory, selected) if loaded else {}
    with debug.timed(f"dns verify: {len(resolvers)} resolvers queried"):
        reports = (settled if settle else verify_all)(inventory, resolvers, make_querier)
    for report in reports:
        if report.resolver.name in late:
            expected = Expectation(f"{report.resolver.name}: its files, served", ".", "SOA", ("loaded",))
            report.checks.append(Check(expected, late[report.resolver.name], False))
    _check_locks(inventory, selected, reports)
    with_dhcp = [r for r in resolvers if r.manage
                 if any(h.mac for s in inventory.sites if s.name in r.dhcp for h in s.hosts)]
    if with_dhcp:
        with connected(inventory, with_dhcp) as transports:
            for report in reports:
                resolver = report.resolver
                if resolver not in with_dhcp or report.unreachable is not None:
                    continue
                try:
                    backend = backend_for(resolver)
                    report.checks += backend.checks(inventory, resolver, transports[resolver.name])
                except TransportError as exc:
                    report.unreachable = str(exc)
    return reports


# The states of a resolver's lock (dns/confirm.py) in which what it serves may not be what its
# files say, or nothing ends the apply there: a revert killed midway (files restored, daemon not
# reloaded), a rollback that died, a revert that stopped on a hand edit, a confirm cut short.
HALF_STATES = ("revert lost", "overdue", "revert failed", "confirm unfinished")


def _check_locks(inventory: Inventory, resolvers: Sequence[Resolver],
                 reports: Sequence[ResolverReport]) -> None:
    """`dns verify` proves what is served; a resolver whose commit-confirmed apply was left half
    done (HALF_STATES) may serve the inventory while its files say otherwise (its next restart
    flips it): a failed check, never OK. A lock that cannot be read adds nothing (only DNS is
    asked of those; `dns status` names it)."""
    files = [r for r in resolvers if r.manage and backend_for(r).has_files]
    if not files:
        return
    read = confirm.status(files, lambda r: backend_for(r).transport(inventory, r))
    states = {s.resolver.name: s for s in read}
    for report in reports:
        state = states.get(report.resolver.name)
        if state is None or state.state not in HALF_STATES:
            continue
        expected = Expectation(f"{report.resolver.name}: its lock, its files served", ".", "LOCK",
                               ("free, or armed",))
        why = state.error or state.failed or ""
        report.checks.append(Check(expected, f"{state.state}: {why} (see `renamer dns status`)", False))


def _wait_loaded(inventory: Inventory, resolvers: Sequence[Resolver]) -> dict[str, str]:
    """Resolver name -> why it does not serve what its files say yet (Backend.loaded), for each
    managed resolver whose daemon loads them after its activation has returned."""
    late = [r for r in resolvers if r.manage and backend_for(r).loads_late]
    if not late:
        return {}
    out = {}
    with connected(inventory, late) as transports:
        for resolver in late:
            try:
                why = backend_for(resolver).loaded(resolver, transports[resolver.name])
            except TransportError as exc:
                why = str(exc)
            if why is not None:
                out[resolver.name] = why
    return out


def answering(inventory: Inventory, spec: str,
              make_querier: Callable[[Resolver], Querier] = dnspython_querier) -> list[str]:
    """The preflight of a hand run of the exported playbook, over DNS: one line per resolver of
    `spec`, or forwarder in front of them (in_front), that does not answer now, in the words of
    `dns apply`'s own preflight (dns/preflight.py); none when all answer."""
    selected = [r for r in inventory.select(spec) if r.manage]
    down = {r.name: why for r in selected if (why := preflight.down_by_hand(r, make_querier(r)))}
    down.update(preflight.forwarders_down(in_front(inventory, selected), make_querier))
    return [f"{name}: {why}" for name, why in down.items()]


def verify_restored(inventory: Inventory, spec: str, folder: Path,
                    make_querier: Callable[[Resolver], Querier] = dnspython_querier) -> list[str]:
    """After a rollback (the Ansible engine's, or one by hand): does each resolver of `spec`
    answer again and serve the snippets in `folder` (their canary and A records)? One line
    per resolver that does not; none when all do. A folder without snippets (the resolver
    had none of renamer's) asks only that the resolver answers."""
    failures = []
    for resolver in inventory.select(spec):
        if not resolver.manage:  # it holds no backup: nothing of it was restored
            continue
        backend = backend_for(resolver)
        texts = [path.read_text(encoding="utf-8", errors="replace")
                 for path in sorted(folder.glob(backend.restored_glob))]
        querier = make_querier(resolver)
        if not wait_until_answering(querier, restart_deadline(resolver)):
            failures.append(f"{resolver.name}: {resolver.endpoint} does not answer")
            continue
        late = _wait_loaded(inventory, [resolver])
        if late:
            failures.append(f"{resolver.name}: {late[resolver.name]}")
            continue
        wrong = serving(texts, querier, backend)
        if wrong:
            failures.append(f"{resolver.name}: {wrong}")
    return failures


def export_ansible(inventory: Inventory, spec: str, folder: Path, policy: Policy,
                   renamer_argv: list[str], dns_args: list[str]) -> Export:
    """`dns export ansible`: plan every resolver of `spec` (reading what each has now), then
    write the playbook folder. `renamer_argv` runs renamer on the control node (the verify
    steps), `dns_args` are the inventory options it needs there (--inventory, ...)."""
    if folder.exists() and (not folder.is_dir() or any(folder.iterdir())):
        raise UnsafeError(f"{folder}: exists and is not an empty folder; give a new one")
    return _export(inventory, _managed(inventory, spec), folder, policy, renamer_argv, dns_args)[0]


def _managed(inventory: Inventory, spec: str) -> list[Resolver]:
    """The resolvers of `spec` that renamer writes: an engine's hosts (a PowerDNS resolver is a
    host whose tasks run on the control node, against its API: tasks/powerdns.yml)."""
    resolvers = [r for r in inventory.select(spec) if r.manage]
    if not resolvers:
        raise ConfigError(f"--resolvers {spec}: no resolver renamer manages (all have manage: false)")
    return resolvers


def _export(inventory: Inventory, resolvers: list[Resolver], folder: Path, policy: Policy,
            renamer_argv: list[str], dns_args: list[str], *,
            retire_stale: bool = False) -> tuple[Export, list[ResolverPlan]]:
    with connected(inventory, resolvers) as transports, \
            debug.timed(f"dns plan: {len(resolvers)} resolvers read"):
        plans = plan_resolvers(inventory, resolvers, transports, retire_stale=retire_stale)
        refused = [p.problem for p in plans if p.problem]
        if refused:
            raise UnsafeError(f"{refused[0]}; nothing exported")
        # an API backend's host: its sites' RRsets as read for this plan, and the PATCH of each
        api = {p.resolver.name: powerdns_ansible.host_vars(inventory, p, transport)
               for p in plans if isinstance(transport := transports[p.resolver.name], ApiTransport)}
        for plan in plans:  # an armed revert waits there: said as such, not as an interrupted apply
            if confirm.armed_here(plan.resolver, transports[plan.resolver.name]) is not None:
                raise UnsafeError(f"{armed_refusal_of(plan.resolver, transports[plan.resolver.name])}; "
                                  "nothing exported")
    _refuse_half_done(plans)  # the playbook would refuse them too; say so before anything runs
    dns = [*renamer_argv, "dns", "verify"]
    control = ControlNode(verify=[*dns, "--format", "json", "--alone", "--loaded", *dns_args, "--resolvers"],
                          restored=[*dns, *dns_args, "--resolvers"],
                          answering=[*dns, "--answering", *dns_args, "--resolvers"],
                          forwarders={r.name: [f.name for f in in_front(inventory, [r])] for r in resolvers})
    return write_export(folder, plans, policy, control, str(inventory.folder), api), plans


def _refuse_problems(plans: Sequence[ResolverPlan]) -> None:
    """Refuse where a snippet written would not take effect (the layout check)."""
    refused = [p.problem for p in plans if p.problem]
    if refused:
        more = (f" (and {len(refused) - 1} more resolvers: see `renamer dns plan`)"
                if len(refused) > 1 else "")
        raise UnsafeError(f"{refused[0]}{more}; nothing written")


def _refuse_half_done(plans: Sequence[ResolverPlan]) -> None:
    why = _half_done(plans)
    if why is not None:
        raise UnsafeError(why)


def _half_done(plans: Sequence[ResolverPlan]) -> str | None:
    """Why the apply refuses these resolvers (left half-done by an apply killed outright), or None."""
    half_done = [p for p in plans if p.interrupted]
    if not half_done:
        return None
    shown = ", ".join(f"{p.resolver.name} (backup {p.interrupted})" for p in half_done)
    return (f"an earlier dns apply was interrupted on {shown}: run `renamer dns apply "
            "--resume` to restore them and apply again, or `--rollback` to restore them")


def _would_refuse_half_done(plans: list[ResolverPlan], transports: dict[str, Transport]) -> None:
    """`dns plan`: the apply's own half-done check (applies.interrupted, dropping nothing, then
    its refusal), said on each resolver it would refuse: the plan never promises that apply. A
    marker the apply would drop (its apply ended there) is a warning, no longer "interrupted"."""
    # armed: the apply is not interrupted, it waits for a confirm (dns/confirm.py); asked only where
    # a marker says interrupted (an unreachable resolver has none, and plan goes on without it)
    for plan in (p for p in plans if p.interrupted):
        try:
            armed = confirm.armed_here(plan.resolver, transports[plan.resolver.name])
        except TransportError:
            continue  # its lock cannot be read now: the half-done check below says what it can
        if armed is not None and plan.interrupted == armed.folder:
            plan.interrupted = None
            plan.fails.append(f"{armed_refusal_of(plan.resolver, transports[plan.resolver.name])} (exit 3)")
    try:
        notes = applies.interrupted(plans, transports, "refuse", dry=True)
    except UnsafeError as exc:  # a marker its resolver's records contradict: refused as it is
        for plan in (p for p in plans if p.interrupted):
            plan.fails.append(str(exc))
        return
    for plan in plans:
        plan.warnings += [note for note in notes if note.startswith(f"{plan.resolver.name}: ")]
    for plan in (p for p in plans if p.interrupted):
        plan.fails.append(f"{_half_done([plan])} (exit 3, nothing written)")


def armed_refusal_of(resolver: Resolver, transport: Transport) -> str:
    """The refusal an apply meets at a resolver where a commit-confirmed revert is armed."""
    raw = transport.read(posixpath.join(resolver.backup_dir, LOCK))
    holder = parse(raw or b"")
    return armed_refusal(resolver, holder, revert_failed(transport, holder))


def _refuse_over_thresholds(plans: Sequence[ResolverPlan], force: bool) -> None:
    """Refuse, before anything is written, an apply that deletes or updates much of a site."""
    over = over_thresholds(plans)
    if over and not force:
        more = f" (and {len(over) - 1} more)" if len(over) > 1 else ""
        raise UnsafeError(f"{over[0]}{more}: refused, nothing written; check `renamer dns plan`, "
                          "then apply with --force if that is the change you mean")


def apply_with_ansible(inventory: Inventory, spec: str, request: ApplyRequest, renamer_argv: list[str],
                       dns_args: list[str], say: Callable[[str], None] | None = None) -> ApplyResult:
    """`dns apply --engine ansible`: export to a temporary folder, run ansible-playbook there,
    and read each resolver's outcome from its events (the same outcomes as the built-in engine).

    `--resume` and `--rollback` restore the resolvers an apply killed outright left half-done
    first, from their backups (the two engines write the same backup folders and marks), as
    the built-in engine does; `--plan` and `--retire-stale` shape the export, checked before
    the playbook touches any resolver."""
    command = ansible_engine.playbook_command()  # before anything is read: one clear line if missing
    debug.say(f"ansible engine: {command}")
    selected = inventory.select(spec)
    resolvers = _managed(inventory, spec)
    notes: list[str] = []
    if request.after_interrupt != "refuse":
        recovered = _recover(inventory, resolvers, request.after_interrupt, notes)
        if recovered is not None:
            return replace(recovered, notes=notes)
    # the same apply identity as the built-in engine's (dns/applies.py), checked unused first
    request = replace(request, apply_id=request.apply_id or applies.new_id())
    checked, found = _preflight_for_ansible(inventory, resolvers, request, notes)
    forwarders = in_front(inventory, selected)
    ahead = preflight.forwarders_down(forwarders, dnspython_querier)
    shown = _with_unmanaged(_and_in_front(inventory, selected), checked)
    if ahead:  # as the built-in engine: before the playbook writes anything
        return ApplyResult(shown, _stopped_ahead(checked, forwarders, found, ahead), notes=notes)
    policy = request.policy or Policy()
    healthy = [r for r in resolvers if r.name not in found]  # within the budget: the others go on
    if not healthy or (found and policy.over_budget(len(found), len(checked))):
        return ApplyResult(shown, [_preflight_outcome(p, found) for p in checked], notes=notes)
    faulty = [_preflight_outcome(p, found) for p in checked if p.resolver.name in found]
    with tempfile.TemporaryDirectory(prefix="renamer-ansible-") as scratch:
        folder = Path(scratch) / "playbook"
        export, plans = _export(inventory, healthy, folder, policy, renamer_argv,
                                dns_args, retire_stale=request.retire_stale)
        if request.reviewed is not None and not found:
            _same_as_reviewed(plans, request.reviewed)
        _refuse_over_thresholds(plans, request.force)  # before the playbook touches any resolver
        _refuse_hosts_without_modules(folder, plans, max(export.serial))
        code, events, interrupted = ansible_engine.run_playbook(folder, max(export.serial),
                                                                request.apply_id, say, inventory.now)
    backups = {p.resolver.name: applies.folder_of(p.resolver, request.apply_id) for p in plans}
    played = {o.resolver.name: o for o in ansible_engine.outcomes(healthy, events, backups, code)}
    played.update({o.resolver.name: o for o in faulty})
    outcomes = [played[r.name] for r in resolvers]
    result = ApplyResult(shown, outcomes, interrupted, notes=notes, apply_id=request.apply_id)
    return _ask_unmanaged(inventory, selected, result, request.verify, dnspython_querier)


def _refuse_hosts_without_modules(folder: Path, plans: Sequence[ResolverPlan], forks: int) -> None:
    """The Ansible engine's own preflight: a host where Ansible cannot run a module (no Python
    it can start there) is refused before the playbook writes anything on any host."""
    broken = ansible_engine.modules_that_cannot_run(folder, [p.resolver.name for p in plans], forks)
    if broken:
        name, why = sorted(broken.items())[0]
        more = f" (and {', '.join(sorted(broken)[1:])})" if len(broken) > 1 else ""
        raise UnsafeError(f"{name}: Ansible cannot run a module there{more} ({why}): set the resolver's "
                          "`python` (ansible_python_interpreter) to a Python it has, or apply it with "
                          "--engine builtin; nothing written on any resolver")


def _preflight_for_ansible(inventory: Inventory, resolvers: list[Resolver], request: ApplyRequest,
                           notes: list[str]) -> tuple[list[ResolverPlan], dict[str, str]]:
    """The built-in engine's checks before the playbook writes anything: sudo, the lock (a stale
    one taken over, as the built-in engine does; released again for the playbook to take), the
    layout, a half-done apply, the thresholds and the preflight (dns/preflight.py: down, or the
    configuration as it stands failing its test), with the same messages and exit codes. A
    refusal raises; the faults found come back, by resolver."""
    with connected(inventory, resolvers) as transports:
        _read_ahead(resolvers, transports, test=True, apply_id=request.apply_id)
        for resolver in resolvers:
            transports[resolver.name].check_sudo()
        with locked(resolvers, transports, notes, lost=confirm.finishable):
            plans = plan_resolvers(inventory, resolvers, transports, retire_stale=request.retire_stale)
            if request.reviewed is not None:
                _same_as_reviewed(plans, request.reviewed)
            _refuse_problems(plans)
            _refuse_over_thresholds(plans, request.force)
            applies.refuse_reused(resolvers, transports, request.apply_id)
            _refuse_half_done(plans)
            return plans, preflight.faults(plans, transports, dnspython_querier, ask=request.verify)


def _refuse_rollback_of_nothing(plans: list[ResolverPlan], notes: list[str]) -> None:
    """`--rollback` where no resolver holds an interrupted apply: refused, under either engine."""
    why = "; ".join(notes) or "none of them has a pending marker"
    raise UnsafeError(f"--rollback: no interrupted apply to roll back on "
                      f"{', '.join(p.resolver.name for p in plans)} ({why}); nothing written")


def _recover(inventory: Inventory, resolvers: list[Resolver], after_interrupt: AfterInterrupt,
             notes: list[str]) -> ApplyResult | None:
    """Restore what an apply killed outright left half-done, under the lock; a result when the
    apply stops here (`--rollback`, or a restore failed), None when it goes on."""
    with connected(inventory, resolvers) as transports:
        for resolver in resolvers:
            transports[resolver.name].check_sudo()
        with locked(resolvers, transports, notes, lost=confirm.finishable, finish=True):
            plans = plan_resolvers(inventory, resolvers, transports)
            notes += applies.interrupted(plans, transports, after_interrupt)  # this apply's alone
            half_done = [p for p in plans if p.interrupted]
            if not half_done and after_interrupt == "rollback":  # never an apply in its place
                _refuse_rollback_of_nothing(plans, notes)
            if not half_done:
                return None
            outcomes = [_restore(plan, transports, dnspython_querier) for plan in half_done]
    if after_interrupt == "rollback" or not all(o.status == "rolled back" for o in outcomes):
        return ApplyResult(plans, outcomes, restored=True)
    return None
