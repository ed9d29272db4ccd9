"""dns plan and dns apply: resolver by resolver, with backups and rollback.

For each resolver: back up the current snippets into backup_dir (never into
snippet_dir, which the resolver loads), write the new ones atomically, run `test`,
run `reload`, verify resolution. If any step fails on any resolver, every
resolver already changed is restored from its backup, reloaded and checked
again, and the whole apply fails.
"""

from __future__ import annotations

import contextlib
import posixpath
import signal
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Literal

from renamer import debug, interrupts
from renamer.dns import applies, confirm
from renamer.dns.answers import NoAnswer, Querier, ResolverReport
from renamer.dns.backend import Backend, backend_for
from renamer.dns.inventory import Inventory, Resolver
from renamer.dns.plan import RETIRED_LIST, ResolverPlan, backup_name
from renamer.dns.policy import Policy
from renamer.dns.transport import CommandResult, Transport, TransportError
from renamer.dns.verify import old_names_left, verify_resolver, wait_until_answering
from renamer.errors import UnsafeError
from renamer.interrupts import handled
from renamer.words import plural

_SETTLE_STEP = 0.1  # seconds between two looks while a daemon re-reads a live file by itself


def restart_deadline(resolver: Resolver) -> float:
    """How long a restarted resolver may take to answer again."""
    return max(3.0, 5 * resolver.timeout)


OutcomeStatus = Literal["not reached", "unchanged", "applied", "failed", "rolled back", "rollback FAILED"]


@dataclass
class Outcome:
    """What happened to one resolver; filled in step by step as the rollout goes."""

    resolver: Resolver
    status: OutcomeStatus = "not reached"
    steps: list[str] = field(default_factory=list)
    error: str | None = None
    report: ResolverReport | None = None
    backup: str | None = None
    restarted: bool = False  # its reload ran: a rollback must restart it too, and only then
    sequence: int = 0  # the resolver's apply sequence this apply took there (dns/applies.py)
    armed: confirm.Armed | None = None  # --confirm-within: the revert waiting there (dns/confirm.py)
    pushed: float = 0.0  # time.monotonic() when its deadline was last set (armed, or pushed on)

    @property
    def ok(self) -> bool:
        return self.status in ("unchanged", "applied") and self.error is None


def restore_interrupted(plan: ResolverPlan, transport: Transport, querier: Querier) -> list[str]:
    """Put back what an apply killed midway had changed, from its backup; restart; check the
    old records are served, as an in-run rollback does; record the apply as rolled back there.
    Returns the steps taken (a StepFailed or TransportError says what failed)."""
    backup = plan.interrupted
    assert backup is not None
    # read before anything is written: the sequence its record keeps (dns/applies.py)
    sequence = applies.restored_sequence(plan.resolver, transport, applies.id_of(backup))
    if transport.read(posixpath.join(backup, confirm.SCRIPT_NAME)) is not None:
        # its commit-confirmed revert, suspended or late, must never run over what comes next
        transport.create(posixpath.join(backup, confirm.DECIDED),
                         f"aborted {confirm.stamp(int(time.time()))} (rolled back by dns apply)\n".encode())
    absent_list = transport.read(posixpath.join(backup, "ABSENT"))
    if absent_list is None:
        raise StepFailed(f"the backup {backup} is incomplete (no ABSENT list): restore by hand")
    removed = []
    for line in absent_list.decode("utf-8", "replace").splitlines():
        name = line.strip()
        if name and not name.startswith("#"):  # the Ansible engine's file starts with a comment
            transport.remove(plan.path(name))
            removed.append(name)
    retired = transport.read(posixpath.join(backup, RETIRED_LIST))  # hand-written files it changed
    backend = backend_for(plan.resolver)
    # Every snippet the backup holds, not only those this plan reads: a site removed from the
    # inventory whose snippet the killed apply already removed is in no plan any more (nothing
    # lists it on the resolver), only in the backup (both engines name a snippet's copy as it).
    saved = transport.list_snippets(backup, backend.files)
    names = [*plan.current, *saved, *(retired.decode("utf-8", "replace").splitlines() if retired else [])]
    texts = []
    for name in dict.fromkeys(names):
        data = transport.read(posixpath.join(backup, backup_name(name)))
        if data is not None:
            transport.write(plan.path(name), _restored(plan.resolver, transport, name, data))
            if "/" not in name:  # renamer's own: an operator's file restored is not read as one of them
                texts.append(data.decode("utf-8", "replace"))
    transport.remove_leftovers(plan.resolver.snippet_dir, backend.files)  # a snippet half-written when killed
    result = backend.activate(plan.resolver, transport, list(dict.fromkeys([*names, *removed])))
    if not result.ok:
        raise StepFailed(f"reload after restoring {backup} failed: {result.tail()}")
    if not wait_until_answering(querier, restart_deadline(plan.resolver)):
        raise StepFailed(f"{plan.resolver.endpoint} does not answer after restoring {backup}")
    wrong = serving(texts, querier, backend)
    if wrong:
        raise StepFailed(f"after restoring {backup}: {wrong}")
    applies.end(plan.resolver, transport, applies.id_of(backup), "rolled back", sequence)
    return [f"restored {backup} (an interrupted apply), reloaded, old records served"]


class StepFailed(Exception):
    pass


@dataclass
class Rollout:
    inventory: Inventory
    transports: dict[str, Transport]
    make_querier: Callable[[Resolver], Querier]
    verify: bool = True
    stamp: str = field(default_factory=applies.new_id)  # this apply's id (dns/applies.py)
    interrupted: bool = False
    # --confirm-within: seconds until each resolver applied reverts by itself unless confirmed
    # (dns/confirm.py); 0: each is final once its batch is. `armed` gets the resolvers armed: their
    # lock stays held (dns/lock.locked's `kept`).
    confirm_within: int = 0
    armed: set[str] = field(default_factory=set)
    # every resolver armed so far, in order: their deadlines are pushed on while the apply goes on
    _armed_pairs: list[tuple[ResolverPlan, Outcome]] = field(default_factory=list)

    def apply(self, plans: Sequence[ResolverPlan], progress: Callable[[str], None] | None = None,
              policy: Policy | None = None) -> list[Outcome]:
        """Apply every plan; the policy decides what a failure undoes (see Policy)."""
        policy = policy or Policy()
        outcomes = [Outcome(p.resolver) for p in plans]
        pairs = list(zip(plans, outcomes, strict=True))
        batches = policy.batches(pairs)
        for batch in batches:
            if not self._apply_batch(batch, policy, progress, alone=len(batches) == 1):
                break  # the failure budget is spent: later batches are not reached
        return outcomes

    def _apply_batch(self, batch: list[tuple[ResolverPlan, Outcome]], policy: Policy,
                     progress: Callable[[str], None] | None, *, alone: bool) -> bool:
        """One batch; False when it was rolled back (over the budget, or interrupted)."""
        changed: list[tuple[ResolverPlan, Outcome]] = []
        failed = 0
        for plan, outcome in batch:
            if progress:
                progress(plan.resolver.name)
            try:
                if not plan.changed:
                    outcome.status = "unchanged"
                    outcome.steps.append("snippets identical: not touched")
                    if self.verify:
                        self._verify(plan.resolver, outcome, left=plan.left_in_place)
                    continue
                interrupts.stop_if_asked()  # a stop whose raise was swallowed: before this resolver's write
                changed.append((plan, outcome))
                with debug.timed(f"dns apply {plan.resolver.name}"):
                    self._apply_one(plan, outcome)
                outcome.status = "applied"
                self._push_on(due_only=True)  # half a window gone on one armed before: pushed on
            except (StepFailed, TransportError) as exc:
                outcome.error = str(exc)
                outcome.status = "failed"
                failed += 1
                if policy.over_budget(failed, len(batch)):
                    self._roll_back(changed)
                    return False
                # within the budget: this resolver alone goes back; the batch goes on
                self._roll_back([pair for pair in changed if pair[1] is outcome])
                changed = [pair for pair in changed if pair[1] is not outcome]  # restored once only
            except KeyboardInterrupt:  # Ctrl-C, or SIGTERM (dns/run.py turns it into this)
                outcome.error = ("interrupted: every resolver changed so far is rolled back" if alone else
                                 "interrupted: every resolver changed in this batch is rolled back "
                                 "(earlier batches stay applied)")
                outcome.status = "failed"
                self.interrupted = True
                # a second Ctrl-C must not stop a rollback halfway
                with handled((signal.SIGINT, signal.SIGTERM, signal.SIGHUP), signal.SIG_IGN):
                    self._roll_back(changed)
                return False
            except Exception as exc:  # anything else (a bug, a library's error): roll back, then say it
                outcome.error = f"unexpected error; each resolver changed in this batch is rolled back: {exc}"
                outcome.status = "failed"
                with handled((signal.SIGINT, signal.SIGTERM, signal.SIGHUP), signal.SIG_IGN):
                    self._roll_back(changed)
                raise
        # --confirm-within: the window of each resolver armed so far starts now, when the batch is
        # applied (never a revert running while the apply still reports it armed)
        self._push_on(due_only=False)
        for plan, outcome in changed:  # the batch is applied and verified: it is final (or armed)
            if outcome.status == "applied" and not self.confirm_within:
                applies.end(plan.resolver, self.transports[plan.resolver.name], self.stamp, "applied",
                            outcome.sequence)
        return True

    def _arm(self, plan: ResolverPlan, outcome: Outcome) -> None:
        """--confirm-within: arm the revert right after the backup, before the first write, with
        the whole window: renamer killed at any point after it (SIGKILL, a closed session) leaves a
        resolver that reverts by itself. Its pending marker stays until the revert or `dns confirm`
        ends it. A revert that cannot be armed fails this resolver (it is rolled back, unchanged)."""
        assert outcome.backup is not None
        resolver = plan.resolver
        restarted = not backend_for(resolver).live(resolver, plan.changed)  # as _apply_one decides
        try:
            # a Ctrl-C must not stop it between the revert's start and the lock that names it
            with handled((signal.SIGINT, signal.SIGTERM, signal.SIGHUP), signal.SIG_IGN):
                outcome.armed = confirm.arm(plan, self.transports[resolver.name], folder=outcome.backup,
                                            apply_id=self.stamp, sequence=outcome.sequence,
                                            restarted=restarted, seconds=self.confirm_within)
        except UnsafeError as exc:
            outcome.steps.append("arm FAILED")
            raise StepFailed(f"could not arm the revert: {exc}") from exc
        except TransportError as exc:
            outcome.steps.append("arm FAILED")
            raise TransportError(f"could not arm the revert: {exc}") from exc
        self.armed.add(resolver.name)
        outcome.pushed = time.monotonic()
        self._armed_pairs.append((plan, outcome))
        how = (f"unit {outcome.armed.unit}" if outcome.armed.how == "systemd"
               else f"pid {outcome.armed.pid}, detached")
        outcome.steps.append(f"armed: reverts at {outcome.armed.when} ({how}) unless confirmed")

    def _push_on(self, *, due_only: bool) -> None:
        """Push on the deadline of each resolver armed so far and still armed to the whole window
        from now (due_only: those with half their window gone since it was last set): in a large
        batch the first resolver's window never runs out while later ones are applied. One whose
        revert started already (its window ran out before the push) fails and is rolled back: it
        is never said armed."""
        if not self.confirm_within:
            return
        now = time.monotonic()
        for plan, outcome in self._armed_pairs:
            what = outcome.armed
            if what is None or plan.resolver.name not in self.armed or outcome.status != "applied":
                continue
            if due_only and now - outcome.pushed < self.confirm_within / 2:
                continue
            try:
                pushed = confirm.push(plan.resolver, self.transports[plan.resolver.name], what)
            except TransportError as exc:  # the deadline as it was stands: said, the resolver failed
                pushed = f"cannot push its deadline on ({exc})"
            if isinstance(pushed, confirm.Armed):
                outcome.armed, outcome.pushed = pushed, time.monotonic()
                outcome.steps[:] = [step for step in outcome.steps if not step.startswith("armed: ")]
                how = f"unit {pushed.unit}" if pushed.how == "systemd" else f"pid {pushed.pid}, detached"
                outcome.steps.append(f"armed: reverts at {pushed.when} ({how}) unless confirmed")
                continue
            outcome.status = "failed"
            outcome.error = (f"the --confirm-within window ({self.confirm_within} s) ran out while the apply "
                             f"went on: its revert started ({pushed}); give a longer window")
            with handled((signal.SIGINT, signal.SIGTERM, signal.SIGHUP), signal.SIG_IGN):
                self._roll_back([(plan, outcome)])

    def _disarm(self, plan: ResolverPlan, outcome: Outcome, transport: Transport) -> None:
        """Before an in-run rollback of an armed resolver: claim its decision (`aborted`) and stop
        its revert, so it never runs later over what comes next."""
        what = outcome.armed
        if what is None:
            return
        self.armed.discard(plan.resolver.name)
        lost = confirm.claim(transport, what, "aborted")
        if lost is None:
            outcome.steps.append(f"revert disarmed ({confirm.halt(transport, what)})")
        else:
            outcome.steps.append(f"its revert started first ({lost})")

    def _apply_one(self, plan: ResolverPlan, outcome: Outcome) -> None:
        resolver, transport = plan.resolver, self.transports[plan.resolver.name]
        folder = applies.folder_of(resolver, self.stamp)
        # The number after the resolver's last one, read (under its lock) before the first write
        # here: the order of applies there, whatever any clock says (dns/applies.py).
        outcome.sequence = applies.sequence_of(applies.last_apply(resolver, transport)) + 1
        try:
            self._back_up(plan, transport, folder)
        except TransportError:  # a full backup_dir (adversarial pass 2 B-21): no empty folder left
            _discard_backup(plan, transport, folder)
            raise
        # Kept until this apply ends well or is rolled back: a run killed outright is found by
        # the next one, which refuses to guess (dns apply --resume or --rollback).
        applies.mark_pending(resolver, transport, folder, self.stamp, outcome.sequence)
        outcome.backup = folder
        outcome.steps.append(f"backup {folder}")
        if self.confirm_within:
            self._arm(plan, outcome)
        backend = backend_for(resolver)
        transport.remove_leftovers(resolver.snippet_dir, backend.files)  # of a run killed while writing
        for name in _hand_first(plan.changed):
            text = plan.desired[name]
            if text is None:
                transport.remove(plan.path(name))
            else:
                transport.write(plan.path(name), text.encode("utf-8"))
        written = [n for n in _hand_first(plan.changed) if n not in plan.removed]
        for verb, names in (("wrote", written), ("removed", plan.removed)):
            if names:
                outcome.steps.append(f"{verb} {', '.join(names)}")
        try:
            self._command(backend.test(resolver, transport), resolver.test, "test", outcome)
            live = backend.live(resolver, plan.changed)
            if live:  # only files the daemon re-reads itself: no restart, no gap in answers
                outcome.steps.append("no restart (re-read live)")
            else:
                outcome.restarted = True
                self._command(backend.activate(resolver, transport, plan.changed), resolver.reload, "reload",
                              outcome)
            if self.verify:
                self._verify(resolver, outcome, settle=live, left=plan.left_in_place)
        except StepFailed as exc:  # the window ran out meanwhile: that is the reason (t25-34 finding 15)
            said = (transport.read(posixpath.join(folder, confirm.DECIDED)) or b"") if outcome.armed else b""
            if said.startswith(b"reverting"):
                raise StepFailed(f"the --confirm-within window ({self.confirm_within} s) ran out during this "
                                 "resolver's apply: its revert ran first, so what was checked was its "
                                 f"restore ({exc}); give a longer window") from exc
            raise
        if outcome.armed is not None and transport.read(posixpath.join(folder, confirm.DECIDED)) is not None:
            raise StepFailed(f"the --confirm-within window ({self.confirm_within} s) ran out before this "
                             "resolver was applied and verified: its revert started; give a longer window")

    @staticmethod
    def _back_up(plan: ResolverPlan, transport: Transport, folder: str) -> None:
        absent = []
        for name in plan.changed:
            before = plan.current[name]
            if before is None:
                absent.append(name)
            else:
                transport.write(posixpath.join(folder, backup_name(name)), before)
        transport.write(posixpath.join(folder, "ABSENT"), "".join(f"{n}\n" for n in absent).encode())
        retired = [name for name in plan.changed if name.startswith("/")]
        if retired:  # a run killed midway restores these too (restore_interrupted)
            transport.write(posixpath.join(folder, RETIRED_LIST), "".join(f"{n}\n" for n in retired).encode())

    def _command(self, result: CommandResult, argv: Sequence[str], step: str, outcome: Outcome) -> None:
        if not result.ok:
            outcome.steps.append(f"{step} FAILED")
            raise StepFailed(f"{step} failed ({' '.join(argv)}): {result.tail()}")
        outcome.steps.append(f"{step} ok")

    def _verify(self, resolver: Resolver, outcome: Outcome, *, settle: bool = False,
                left: Sequence[tuple[str, str, str]] = ()) -> None:
        querier = self.make_querier(resolver)
        extra = old_names_left(self.inventory, left)  # hand-written records left: their old names too
        deadline = restart_deadline(resolver)
        if not wait_until_answering(querier, deadline):
            outcome.steps.append("verify FAILED")
            raise StepFailed(f"verify failed: {resolver.endpoint}: no answer within {deadline:.0f} s")
        report = verify_resolver(self.inventory, resolver, querier, extra)
        ends = time.monotonic() + deadline
        while settle and not report.ok and time.monotonic() < ends:  # the daemon re-reads on its own
            time.sleep(_SETTLE_STEP)
            report = verify_resolver(self.inventory, resolver, querier, extra)
        outcome.report = report
        if not report.ok:
            outcome.steps.append("verify FAILED")
            first = report.unreachable or _describe(report)
            raise StepFailed(f"verify failed: {first}")
        outcome.steps.append(f"verify ok ({plural(len(report.checks), 'check')})")

    def _roll_back(self, changed: list[tuple[ResolverPlan, Outcome]]) -> None:
        for plan, outcome in reversed(changed):
            resolver, transport = plan.resolver, self.transports[plan.resolver.name]
            if outcome.status == "failed" and outcome.backup is None:
                outcome.steps.append("nothing to restore")
                continue
            if outcome.status == "rolled back":  # already (its window ran out: _push_on): restored once only
                continue
            try:
                self._disarm(plan, outcome, transport)
                self._restore(plan, outcome, transport)
                if outcome.restarted:
                    result = backend_for(resolver).activate(resolver, transport, plan.changed)
                    if not result.ok:
                        raise StepFailed(f"reload after restore failed: {result.tail()}")
                # else it never read the new files: a restart would only risk a running resolver
                live = backend_for(resolver).live(resolver, plan.changed)
                how = ("reloaded" if outcome.restarted else "re-read live, not restarted" if live
                       else "not restarted (it never was)")
                querier = self.make_querier(resolver)
                answering = wait_until_answering(querier, restart_deadline(resolver))
                if not answering:
                    outcome.steps.append(f"restored, {how}, NOT answering")
                    raise StepFailed(f"{resolver.endpoint} does not answer after the rollback")
                wrong = _serving(plan, querier)
                ends = time.monotonic() + restart_deadline(resolver)
                while wrong and not outcome.restarted and time.monotonic() < ends:  # a live re-read
                    time.sleep(_SETTLE_STEP)
                    wrong = _serving(plan, querier)
                if wrong:
                    outcome.steps.append(f"restored, {how}, answering, old records NOT served")
                    raise StepFailed(f"after the rollback: {wrong}")
                outcome.steps.append(f"restored, {how}, old records served")
                outcome.status = "rolled back"
                applies.end(resolver, transport, self.stamp, "rolled back", outcome.sequence)
            except (StepFailed, TransportError) as exc:
                outcome.status = "rollback FAILED"
                outcome.error = (outcome.error + "; " if outcome.error else "") + str(exc)

    def _restore(self, plan: ResolverPlan, outcome: Outcome, transport: Transport) -> None:
        assert outcome.backup is not None
        for name in reversed(_hand_first(plan.changed)):  # undone in the reverse order of the writes
            if plan.current[name] is None:
                transport.remove(plan.path(name))
                continue
            saved = transport.read(posixpath.join(outcome.backup, backup_name(name)))
            if saved is None or saved != plan.current[name]:
                if transport.read(plan.path(name)) == plan.current[name]:
                    continue  # never replaced (the backup's own write failed): nothing to restore
                raise StepFailed(f"backup of {name} in {outcome.backup} is missing or altered")
            # never reloaded: the daemon never served what the apply wrote, the backup goes back as it was
            transport.write(plan.path(name), _restored(plan.resolver, transport, name, saved)
                            if outcome.restarted else saved)


def _hand_first(names: Sequence[str]) -> list[str]:
    """A plan's changed files in the order they are written: the hand-written files `--retire-stale`
    changes (absolute paths) first, then renamer's own; a rollback undoes them the other way round.
    PowerDNS needs it: a hand RRset in the way of renamer's CNAME goes before the CNAME is written,
    and comes back after it is gone (t24-alias finding 19); a file backend tests once all are written."""
    return [n for n in names if n.startswith("/")] + [n for n in names if not n.startswith("/")]


def _restored(resolver: Resolver, transport: Transport, name: str, saved: bytes) -> bytes:
    """The bytes a rollback writes back for `name`: its backup, moved past what the failed apply
    wrote there where the backend needs that (BIND's SOA serial: Backend.restored)."""
    backend = backend_for(resolver)
    if not backend.restores_past:
        return saved  # nothing read: the backup goes back as it is
    now = transport.read(posixpath.join(resolver.snippet_dir, name))
    return backend.restored(name, saved, now)


def _discard_backup(plan: ResolverPlan, transport: Transport, folder: str) -> None:
    """A backup that could not be written whole: what of it was written, then its folder (only if
    empty: `rmdir`, never a recursive remove), so a full backup_dir keeps no half backup that a
    later `--rollback` could take for one."""
    names = [backup_name(name) for name in plan.changed] + ["ABSENT", RETIRED_LIST]
    with contextlib.suppress(TransportError):
        for name in names:
            transport.remove(posixpath.join(folder, name))
        transport.run(["rmdir", "--", folder])


def _serving(plan: ResolverPlan, querier: Querier) -> str | None:
    """After a rollback: does the resolver serve the restored snippets (their canary, and
    their A records) again?"""
    texts = [data.decode("utf-8", "replace") for name in plan.changed
             if (data := plan.current[name]) is not None and "/" not in name]  # renamer's own files only:
    return serving(texts, querier, backend_for(plan.resolver))  # its parser reads no operator's zone


def serving(texts: Sequence[str], querier: Querier, backend: Backend) -> str | None:
    """Does the resolver serve these snippets (their canary, their A records)? None if so,
    else the first record it does not serve."""
    for text in texts:
        found = backend.canary_of(text)
        if found is not None:
            try:
                answer = querier(f"{found[0]}.", "TXT")
            except NoAnswer:
                return f"{found[0]} TXT (canary): no answer"
            if ("TXT", f'"{found[1]}"') not in answer.records:
                shown = " ".join(v for _, v in answer.records) or answer.rcode
                return f"{found[0]} TXT (canary): expected \"{found[1]}\", got {shown}"
        for names, address in backend.host_records(text):
            if ":" in address:  # IPv6: the A check below says enough
                continue
            try:
                answer = querier(f"{names[0]}.", "A")
            except NoAnswer:
                return f"{names[0]} A: no answer"
            got = [v for kind, v in answer.records if kind == "A"]
            if address not in got:
                return f"{names[0]} A: expected {address}, got {' '.join(got) or answer.rcode}"
    return None


def _describe(report: ResolverReport) -> str:
    failures = report.failures()
    first = failures[0]
    more = f" (+{len(failures) - 1} more)" if len(failures) > 1 else ""
    return f"{first.expectation.label}: expected {first.expectation.wanted}, got {first.got}{more}"
