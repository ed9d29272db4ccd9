"""dns plan and dns apply: resolver by resolver, with backups and rollback.

For each resolver: back up the current snippets into backup_dir (never into
snippet_dir, which dnsmasq loads), write the new ones atomically, run `test`,
run `reload`, verify resolution. If any step fails on any resolver, every
resolver already changed is restored from its backup, reloaded and checked
again, and the whole apply fails.
"""

from __future__ import annotations

import datetime as dt
import difflib
import hashlib
import posixpath
import signal
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, TypeVar

from renamer import debug
from renamer.dns.dnsmasq import canary_of, host_records, records, render_resolver
from renamer.dns.dnsmasq import drift as hand_made
from renamer.dns.inventory import Inventory, Resolver
from renamer.dns.layout import Record, inspect, shown_record
from renamer.dns.transport import Transport, TransportError
from renamer.dns.verify import NoAnswer, Querier, ResolverReport, verify_resolver, wait_until_answering
from renamer.interrupts import handled
from renamer.words import plural


def restart_deadline(resolver: Resolver) -> float:
    """How long a restarted resolver may take to answer again."""
    return max(3.0, 5 * resolver.timeout)


PENDING = "renamer-apply-pending"  # in backup_dir while an apply has this resolver half-done


@dataclass
class ResolverPlan:
    resolver: Resolver
    desired: dict[str, str | None]  # None: a snippet of renamer's that must go (site removed)
    current: dict[str, bytes | None]
    interrupted: str | None = None  # the backup of an earlier apply that was killed midway
    problem: str | None = None  # why a snippet written here would not take effect (dns/layout.py)
    warnings: list[str] = field(default_factory=list)
    stale: list[str] = field(default_factory=list)  # hand-written records naming old values: file:line

    @property
    def changed(self) -> list[str]:
        return [name for name, text in self.desired.items()
                if self.current.get(name) != (None if text is None else text.encode("utf-8"))]

    @property
    def removed(self) -> list[str]:
        return [name for name in self.changed if self.desired[name] is None]

    def path(self, name: str) -> str:
        return posixpath.join(self.resolver.snippet_dir, name)

    def diff(self) -> str:
        out: list[str] = []
        for name in self.changed:
            before = (self.current.get(name) or b"").decode("utf-8", "replace").splitlines(keepends=True)
            after = (self.desired[name] or "").splitlines(keepends=True)
            label = "/dev/null" if self.current.get(name) is None else f"a{self.path(name)}"
            target = "/dev/null" if self.desired[name] is None else f"b{self.path(name)}"
            out.extend(difflib.unified_diff(before, after, label, target))
        return "".join(out)

    def drift(self) -> dict[str, list[str]]:
        """snippet name -> hand-made lines in it that this apply replaces."""
        found = {name: hand_made((self.current.get(name) or b"").decode("utf-8", "replace"))
                 for name in self.changed if not name.startswith("/")}  # renamer's own snippets
        return {name: lines for name, lines in found.items() if lines}

    def document(self) -> dict[str, Any]:
        """What `dns plan --format json` says of this resolver; `apply --plan` checks the digests."""
        added, changed, removed = self.record_changes()
        return {
            "resolver": self.resolver.name, "target": self.resolver.target,
            "snippet_dir": self.resolver.snippet_dir, "changes": bool(self.changed), "problem": self.problem,
            "warnings": self.warnings, "hand_written": self.stale,
            "records": {"added": added, "changed": changed, "removed": removed},
            "drift": self.drift(),
            "snippets": [{"file": name, "action": "remove" if self.desired[name] is None else "write",
                          "current_sha256": _digest(self.current.get(name)),
                          "desired_sha256": _digest(None if self.desired[name] is None
                                                    else (self.desired[name] or "").encode())}
                         for name in sorted(self.desired)],
            "diff": self.diff(),
        }

    def record_changes(self) -> tuple[list[str], list[str], list[str]]:
        """Names added, changed and removed across this resolver's snippets."""
        old: dict[str, str] = {}
        new: dict[str, str] = {}
        for name in self.desired:
            old.update(records((self.current.get(name) or b"").decode("utf-8", "replace")))
            new.update(records(self.desired[name] or ""))
        added = sorted(n for n in new if n not in old)
        removed = sorted(n for n in old if n not in new)
        changed = sorted(n for n in new if n in old and old[n] != new[n])
        return added, changed, removed


Item = TypeVar("Item")
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

    @property
    def ok(self) -> bool:
        return self.status in ("unchanged", "applied") and self.error is None


def plan_resolvers(inventory: Inventory, resolvers: Sequence[Resolver],
                   transports: dict[str, Transport], *, retire_stale: bool = False) -> list[ResolverPlan]:
    """Read what each resolver has now; render what it should have. Writes nothing."""
    plans = []
    for resolver in resolvers:
        transports[resolver.name].check_sudo()  # before anything is read or written
    for resolver in resolvers:
        transport = transports[resolver.name]
        desired: dict[str, str | None] = dict(render_resolver(inventory, resolver))
        inspection = inspect(inventory, resolver, transport)
        problem = inspection.problem
        try:
            listed = transport.list_snippets(resolver.snippet_dir)
        except TransportError:
            if problem is None:
                raise
            listed = []  # a missing snippet_dir: the problem says so
        for name in listed:  # a site removed, or renamed
            desired.setdefault(name, None)
        current = {name: transport.read(posixpath.join(resolver.snippet_dir, name)) for name in desired}
        if retire_stale and problem is None:  # hand-written records naming old values: commented out
            today = dt.date.today().isoformat()
            for path, (before, after) in _retired(transport, inspection.stale, today).items():
                desired[path], current[path] = after, before
        marker = transport.read(posixpath.join(resolver.backup_dir, PENDING))
        interrupted = marker.decode("utf-8", "replace").splitlines()[0] if marker else None
        plans.append(ResolverPlan(resolver, desired, current, interrupted, problem, inspection.warnings,
                                  [shown_record(r) for r in inspection.stale]))
    return plans


def backup_name(name: str) -> str:
    """A changed file's name inside a backup folder: a snippet's own name; a hand-written file
    retired elsewhere (an absolute path) flattened, `%` for each `/`."""
    return name if not name.startswith("/") else "retired" + name.replace("%", "%25").replace("/", "%")


RETIRED_LIST = "RETIRED"  # in a backup folder: the hand-written files the apply changed
RETIRED = "# retired by `renamer dns apply --retire-stale` {date}: "


def _retired(transport: Transport, stale: list[Record], today: str) -> dict[str, tuple[bytes, str]]:
    """file -> (its bytes now, its text with each stale line commented out)."""
    lines_of: dict[str, set[int]] = {}
    for record in stale:
        lines_of.setdefault(record.file, set()).add(record.line)
    out = {}
    for path, numbers in sorted(lines_of.items()):
        data = transport.read(path)
        if data is None:
            continue
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            continue  # not text renamer can write back byte for byte: listed, not retired
        lines = text.split("\n")
        for number in numbers:
            if 0 < number <= len(lines) and not lines[number - 1].lstrip().startswith("#"):
                lines[number - 1] = RETIRED.format(date=today) + lines[number - 1]
        out[path] = (data, "\n".join(lines))
    return out


def _digest(data: bytes | None) -> str | None:
    return None if data is None else hashlib.sha256(data).hexdigest()


def restore_interrupted(plan: ResolverPlan, transport: Transport) -> list[str]:
    """Put back what an apply killed midway had changed, from its backup; restart; clear the
    marker. Returns the steps taken (a StepFailed or TransportError says what failed)."""
    backup = plan.interrupted
    assert backup is not None
    absent_list = transport.read(posixpath.join(backup, "ABSENT"))
    if absent_list is None:
        raise StepFailed(f"the backup {backup} is incomplete (no ABSENT list): restore by hand")
    for line in absent_list.decode("utf-8", "replace").splitlines():
        name = line.strip()
        if name and not name.startswith("#"):  # the Ansible engine's file starts with a comment
            transport.remove(plan.path(name))
    retired = transport.read(posixpath.join(backup, RETIRED_LIST))  # hand-written files it changed
    names = list(plan.current) + (retired.decode("utf-8", "replace").splitlines() if retired else [])
    for name in dict.fromkeys(names):
        saved = transport.read(posixpath.join(backup, backup_name(name)))
        if saved is not None:
            transport.write(plan.path(name), saved)
    transport.remove_leftovers(plan.resolver.snippet_dir)  # a snippet half-written when killed
    result = transport.run(plan.resolver.reload)
    if not result.ok:
        raise StepFailed(f"reload after restoring {backup} failed: {result.tail()}")
    transport.remove(posixpath.join(plan.resolver.backup_dir, PENDING))
    return [f"restored {backup} (an interrupted apply), reloaded"]


class StepFailed(Exception):
    pass


@dataclass(frozen=True)
class Policy:
    """How far a failure reaches.

    The default is all-or-nothing: one batch of every resolver, no failure allowed, so the
    first failure rolls back every resolver changed so far. With `batch_size` (and a
    `canary` batch first), batches are final once applied and verified; a failure rolls
    back only its own batch. `max_fail_percent` is a failure budget per batch, as
    Ansible's max_fail_percentage: while the failed resolvers stay within it, each is
    restored alone and the rollout goes on; past it, the whole batch is rolled back and
    the later batches are not reached.
    """

    batch_size: int | None = None
    canary: int = 0
    max_fail_percent: int = 0

    def batches(self, items: list[Item]) -> list[list[Item]]:
        first = items[:self.canary] if self.canary else []
        rest = items[len(first):]
        size = self.batch_size or len(rest) or 1
        return ([first] if first else []) + [rest[i:i + size] for i in range(0, len(rest), size)]

    def over_budget(self, failed: int, batch: int) -> bool:
        return failed * 100 > self.max_fail_percent * batch


@dataclass
class Rollout:
    inventory: Inventory
    transports: dict[str, Transport]
    make_querier: Callable[[Resolver], Querier]
    verify: bool = True
    stamp: str = field(default_factory=lambda: dt.datetime.now(dt.UTC).strftime("%Y%m%dT%H%M%S.%fZ"))
    interrupted: bool = False

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
                        self._verify(plan.resolver, outcome)
                    continue
                changed.append((plan, outcome))
                with debug.timed(f"dns apply {plan.resolver.name}"):
                    self._apply_one(plan, outcome)
                outcome.status = "applied"
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
                with handled((signal.SIGINT, signal.SIGTERM), signal.SIG_IGN):
                    self._roll_back(changed)
                return False
        for plan, outcome in changed:  # the batch is applied and verified: it is final
            if outcome.status == "applied":
                self.transports[plan.resolver.name].remove(posixpath.join(plan.resolver.backup_dir, PENDING))
        return True

    def _apply_one(self, plan: ResolverPlan, outcome: Outcome) -> None:
        resolver, transport = plan.resolver, self.transports[plan.resolver.name]
        folder = posixpath.join(resolver.backup_dir, f"{resolver.name}-{self.stamp}")
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
        # Kept until this apply ends well or is rolled back: a run killed outright is found by
        # the next one, which refuses to guess (dns apply --resume or --rollback).
        transport.write(posixpath.join(resolver.backup_dir, PENDING), f"{folder}\n{self.stamp}\n".encode())
        outcome.backup = folder
        outcome.steps.append(f"backup {folder}")
        transport.remove_leftovers(resolver.snippet_dir)  # of a run killed while writing
        for name in plan.changed:
            text = plan.desired[name]
            if text is None:
                transport.remove(plan.path(name))
            else:
                transport.write(plan.path(name), text.encode("utf-8"))
        written = [n for n in plan.changed if n not in plan.removed]
        for verb, names in (("wrote", written), ("removed", plan.removed)):
            if names:
                outcome.steps.append(f"{verb} {', '.join(names)}")
        self._command(transport, resolver.test, "test", outcome)
        outcome.restarted = True
        self._command(transport, resolver.reload, "reload", outcome)
        if self.verify:
            self._verify(resolver, outcome)

    def _command(self, transport: Transport, argv: Sequence[str], step: str, outcome: Outcome) -> None:
        result = transport.run(argv)
        if not result.ok:
            outcome.steps.append(f"{step} FAILED")
            raise StepFailed(f"{step} failed ({' '.join(argv)}): {result.tail()}")
        outcome.steps.append(f"{step} ok")

    def _verify(self, resolver: Resolver, outcome: Outcome) -> None:
        querier = self.make_querier(resolver)
        deadline = restart_deadline(resolver)
        if not wait_until_answering(querier, deadline):
            outcome.steps.append("verify FAILED")
            raise StepFailed(f"verify failed: {resolver.endpoint}: no answer within {deadline:.0f} s")
        report = verify_resolver(self.inventory, resolver, querier)
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
            try:
                self._restore(plan, outcome, transport)
                if outcome.restarted:
                    result = transport.run(resolver.reload)
                    if not result.ok:
                        raise StepFailed(f"reload after restore failed: {result.tail()}")
                # else it never read the new files: a restart would only risk a running resolver
                how = "reloaded" if outcome.restarted else "not restarted (it never was)"
                querier = self.make_querier(resolver)
                answering = wait_until_answering(querier, restart_deadline(resolver))
                if not answering:
                    outcome.steps.append(f"restored, {how}, NOT answering")
                    raise StepFailed(f"{resolver.endpoint} does not answer after the rollback")
                wrong = _serving(plan, querier)
                if wrong:
                    outcome.steps.append(f"restored, {how}, answering, old records NOT served")
                    raise StepFailed(f"after the rollback: {wrong}")
                outcome.steps.append(f"restored, {how}, old records served")
                outcome.status = "rolled back"
                transport.remove(posixpath.join(resolver.backup_dir, PENDING))
            except (StepFailed, TransportError) as exc:
                outcome.status = "rollback FAILED"
                outcome.error = (outcome.error + "; " if outcome.error else "") + str(exc)

    def _restore(self, plan: ResolverPlan, outcome: Outcome, transport: Transport) -> None:
        assert outcome.backup is not None
        for name in plan.changed:
            if plan.current[name] is None:
                transport.remove(plan.path(name))
                continue
            saved = transport.read(posixpath.join(outcome.backup, backup_name(name)))
            if saved is None or saved != plan.current[name]:
                raise StepFailed(f"backup of {name} in {outcome.backup} is missing or altered")
            transport.write(plan.path(name), saved)


def _serving(plan: ResolverPlan, querier: Querier) -> str | None:
    """After a rollback: does the resolver serve the restored snippets (their canary, and
    their A records) again?"""
    texts = [data.decode("utf-8", "replace") for name in plan.changed
             if (data := plan.current[name]) is not None]
    return serving(texts, querier)


def serving(texts: Sequence[str], querier: Querier) -> str | None:
    """Does the resolver serve these snippets (their canary, their A records)? None if so,
    else the first record it does not serve."""
    for text in texts:
        found = canary_of(text)
        if found is not None:
            try:
                answer = querier(f"{found[0]}.", "TXT")
            except NoAnswer:
                return f"{found[0]} TXT (canary): no answer"
            if ("TXT", f'"{found[1]}"') not in answer.records:
                shown = " ".join(v for _, v in answer.records) or answer.rcode
                return f"{found[0]} TXT (canary): expected \"{found[1]}\", got {shown}"
        for names, address in host_records(text):
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
    want = " or ".join(first.expectation.want)
    return f"{first.expectation.label}: expected {want}, got {first.got}{more}"
