"""DNS output: the resolver x check table, the apply table, JSON."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from renamer.dns.answers import ResolverReport
from renamer.dns.confirm import LockState, stamp
from renamer.dns.plan import ResolverPlan, over_thresholds
from renamer.dns.rollout import Outcome
from renamer.documents import versioned
from renamer.table import Paint, plain, table
from renamer.words import plural


def verify_table(reports: Sequence[ResolverReport], paint: Paint = plain, width: int | None = None) -> str:
    """Rows are checks, columns resolvers; then every mismatch spelled out."""
    labels: dict[str, None] = {}  # insertion-ordered set
    by_label = [{c.expectation.label: c for c in report.checks} for report in reports]
    for found in by_label:
        labels.update(dict.fromkeys(found))
    rows = [["check", *[r.resolver.name for r in reports]]]
    for label in labels:
        row = [label]
        for report, found in zip(reports, by_label, strict=True):
            match = found.get(label)
            if report.unreachable:
                row.append("DOWN")
            elif match is None:
                row.append("-")
            else:
                row.append("ok" if match.ok else "FAIL")
        rows.append(row)
    lines = [table(rows, paint, width) if labels else ""]
    lines += _failures(reports)
    failed = [r.resolver.name + ("" if r.resolver.manage else " (manage: false)")
              for r in reports if not r.ok]
    total = sum(len(r.checks) for r in reports)
    verdict = (f"dns verify: FAILED on {', '.join(failed)}" if failed
               else f"dns verify: OK: {plural(total, 'check')} on {plural(len(reports), 'resolver')}")
    lines.append(verdict + "\n")
    return "".join(lines)


def verify_json(reports: Sequence[ResolverReport]) -> str:
    return json.dumps(versioned({"ok": all(r.ok for r in reports),
                                 "resolvers": [_report_dict(r) for r in reports]}), indent=2) + "\n"


def _report_dict(report: ResolverReport) -> dict[str, Any]:
    return {
        "name": report.resolver.name, "endpoint": report.resolver.endpoint, "ok": report.ok,
        "unreachable": report.unreachable,
        "checks": [{"check": c.expectation.label, "name": c.expectation.name,
                    "type": c.expectation.rdtype, "expected": list(c.expectation.want),
                    "got": c.got, "ok": c.ok} for c in report.checks],
    }


def plan_text(plans: Sequence[ResolverPlan]) -> str:
    out = []
    for plan in plans:
        resolver = plan.resolver
        if not resolver.manage:
            out.append(f"== {resolver.name} ({resolver.endpoint}): manage: false: skipped, renamer never "
                       "writes it; dns verify asks it\n")
            if plan.down:
                out.append(f"down: {resolver.name}: {plan.down}\n")
            continue
        head = f"== {resolver.name} ({resolver.target}, {resolver.snippet_dir})"
        if plan.unreachable:  # the others are planned all the same
            out.append(f"{head}: unreachable\nerror: {plan.unreachable}\n")
            continue
        if plan.problem:
            out.append(f"{head}: cannot apply here\nerror: {plan.problem}\n")
            continue
        out += [f"warning: {w}\n" for w in plan.warnings]
        out += _not_done(plan)
        if not plan.changed:
            out.append(f"{head}: snippets up to date, but not done (above)\n" if plan.pending
                       else f"{head}: up to date, nothing to do\n")
            continue
        added, changed, removed = plan.record_changes()
        count = len(plan.changed)
        out.append(f"{head}: {count} snippet{'s' if count != 1 else ''} to change\n")
        out.append(plan.diff())
        out.append(f"records: {len(added)} added, {len(changed)} changed, {len(removed)} removed\n")
        for sign, names in (("+", added), ("~", changed), ("-", removed)):
            out += [f"  {sign} {name}\n" for name in names]
        out += [f"{line}\n" for line in drift_lines(plan)]
    over = over_thresholds(plans)
    if over:
        out.append("refused: dns apply would refuse this plan without --force (the safety thresholds):\n")
        out += [f"  {line}\n" for line in over]
    return "".join(out)


def _not_done(plan: ResolverPlan) -> list[str]:
    """What keeps a resolver from being up to date besides its snippets, one block each."""
    out = []
    name = plan.resolver.name
    if plan.interrupted:
        out.append(f"interrupted: {name}: an earlier dns apply was killed with this resolver half-done "
                   f"(backup {plan.interrupted}): run `renamer dns apply --resume` or `--rollback`\n")
    if plan.held:
        out.append(f"locked: {name}: {plan.held}\n")
    if plan.down:
        out.append(f"down: {name}: {plan.down}\n")
    if plan.preflight:
        out.append(f"preflight: {name}: dns apply would refuse it: {plan.preflight}\n")
    out += [f"would fail: {name}: {why}\n" for why in plan.fails]
    if plan.stale:
        out.append(f"hand-written records naming old values, giving an inventory name another address or "
                   f"reserving its MAC or address ({len(plan.stale)}; they stay served: `dns apply "
                   f"--retire-stale` {'deletes' if plan.resolver.api is not None else 'comments'} them "
                   f"{'(a rollback puts them back)' if plan.resolver.api is not None else 'out'}):\n")
        out += [f"  {where}\n" for where in plan.stale]
    if plan.not_served:
        out.append(f"not served: {name} does not answer as its snippets say (asked over DNS):\n")
        out += [f"  {line}\n" for line in plan.not_served]
    return out


def drift_lines(plan: ResolverPlan) -> list[str]:
    """A warning per snippet edited by hand: apply replaces those lines (the backup keeps them)."""
    return [f"warning: drift: {plan.resolver.name}: {name} holds {len(lines)} line"
            f"{'s' if len(lines) != 1 else ''} renamer did not write ({lines[0]}"
            f"{', ...' if len(lines) > 1 else ''}); apply replaces them, the backup keeps them"
            for name, lines in plan.drift().items()]


def outcome_table(outcomes: Sequence[Outcome], *, restored: bool = False, paint: Paint = plain,
                  width: int | None = None, vantage: Sequence[ResolverReport] = (),
                  skipped: Sequence[str] = ()) -> str:
    """The apply table; `vantage`: the unmanaged resolvers asked after it (`skipped`: not asked)."""
    rows = [["resolver", "target", "result", "steps"]]
    for outcome in outcomes:
        steps = "; ".join(outcome.steps) or "-"
        rows.append([outcome.resolver.name, outcome.resolver.target, outcome.status, steps])
    for report in vantage:
        verdict = f"verify ok ({plural(len(report.checks), 'check')})" if report.ok else "verify FAILED"
        rows.append([report.resolver.name, "unmanaged", "asked", f"manage: false: not written; {verdict}"])
    asked = {r.resolver.name for r in vantage} | {o.resolver.name for o in outcomes}
    for name in skipped:
        if name not in asked:
            rows.append([name, "unmanaged", "not asked", "manage: false: not written; not asked (the apply "
                                                          "did not complete, or --no-verify)"])
    lines = [table(rows, paint, width) if len(rows) > 1 else ""]
    for outcome in outcomes:
        if outcome.error:
            lines.append(f"{outcome.resolver.name}: {outcome.error}\n")
    lines += _failures(vantage)
    if restored:  # --rollback after an apply killed outright
        done = all(o.status == "rolled back" for o in outcomes)
        lines.append(f"dns apply: {'OK' if done else 'FAILED'}, the interrupted apply is "
                     f"{'rolled back' if done else 'NOT rolled back everywhere'}\n")
    elif any(not r.ok for r in vantage):
        failed = ", ".join(r.resolver.name for r in vantage if not r.ok)
        lines.append(f"dns apply: FAILED at {failed} (manage: false): the managed resolvers are applied "
                     "and verified, but clients asking there do not get the inventory's answers; renamer "
                     "does not write it and rolls nothing back: fix its forwarding, then run "
                     "`renamer dns verify --resolvers all`\n")
    else:
        lines.append(apply_verdict(outcomes) + "\n")
    return "".join(lines)


def _failures(reports: Sequence[ResolverReport]) -> list[str]:
    """A line per unreachable resolver and per failed check, naming the resolver."""
    lines = []
    for report in reports:
        if report.unreachable:
            lines.append(f"{report.unreachable}\n")
        for check in report.failures():
            lines.append(f"{report.resolver.name} {report.resolver.endpoint}: {check.expectation.label}: "
                         f"expected {check.expectation.wanted}, got {check.got}\n")
    return lines


def apply_verdict(outcomes: Sequence[Outcome]) -> str:
    """The last line, agreeing with the table: never "rolled back" when a rollback failed."""
    armed = [o for o in outcomes if o.armed is not None and o.status == "applied"]
    if armed and all(o.ok for o in outcomes):
        first = min(o.armed.deadline for o in armed if o.armed is not None)
        names = ",".join(o.resolver.name for o in armed)
        return (f"dns apply: OK, not final: armed on {plural(len(armed), 'resolver')}; each reverts by "
                f"itself from {stamp(first)} unless `renamer dns confirm --resolvers {names}` keeps it")
    if all(o.ok for o in outcomes):
        return "dns apply: OK"
    stuck = [o.resolver.name for o in outcomes if o.status == "rollback FAILED"]
    if stuck:
        return (f"dns apply: FAILED, and the rollback FAILED on {', '.join(stuck)}: restore by hand "
                "from the backup named above, run the resolver's test, then restart it")
    kept = sum(o.status == "applied" and o.armed is None for o in outcomes)
    if kept or armed:  # batches: the earlier ones (or those within the failure budget) stay applied
        rolled = sum(o.status == "rolled back" for o in outcomes)
        waiting = sum(o.status == "not reached" for o in outcomes)
        if armed:  # --confirm-within: never "kept": each reverts by itself unless confirmed
            first = min(o.armed.deadline for o in armed if o.armed is not None)
            names = ",".join(o.resolver.name for o in armed)
            return (f"dns apply: FAILED: {len(armed)} armed: each reverts by itself from {stamp(first)} "
                    f"unless `renamer dns confirm --resolvers {names}` keeps it; {rolled} rolled back; "
                    f"{waiting} not reached")
        return (f"dns apply: FAILED: {kept} applied and kept; {rolled} rolled back; "
                f"{waiting} not reached")
    if any(o.status == "rolled back" for o in outcomes):
        return "dns apply: FAILED, changed resolvers rolled back"
    return "dns apply: FAILED, nothing was changed"


def status_table(states: Sequence[LockState], paint: Paint = plain, width: int | None = None) -> str:
    """`dns status`: one row per resolver (its lock, the revert armed there and when it runs), a
    line for each that needs a look, then the verdict."""
    rows = [["resolver", "target", "state", "holder", "reverts at", "left"]]
    for state in states:
        holder = state.holder
        who = (f"{holder.get('user', '?')}@{holder.get('host', '?')} pid {holder.get('pid', '?')}"
               if holder else "-")
        armed, left = state.armed, state.left
        rows.append([state.resolver.name, state.resolver.target, state.state, who,
                     armed.when if armed is not None else "-",
                     "-" if left is None else f"{left} s" if left >= 0 else f"{-left} s ago"])
    lines = [table(rows, paint, width)]
    for state in states:
        name = state.resolver.name
        if state.armed is not None and state.state == "armed":
            lines.append(f"{name}: apply {state.armed.apply_id} reverts by itself at {state.armed.when} "
                         f"unless `renamer dns confirm --resolvers {name}` keeps it\n")
        if state.state == "overdue" and state.armed is not None:
            lines.append(f"{name}: the revert of apply {state.armed.apply_id} was due at {state.armed.when} "
                         f"and has not released the lock (its log: {state.armed.folder}/REVERT.log): check "
                         "the resolver by hand\n")
        if state.state == "revert failed" and state.armed is not None and " edited since apply " in (
                state.failed or ""):
            lines.append(f"{name}: the revert of apply {state.armed.apply_id} did not run: a file it would "
                         f"restore was edited by hand while armed ({state.failed}); nothing was overwritten "
                         f"and the lock is kept: keep the apply and the edit with `renamer dns confirm "
                         f"--resolvers {name}`, or take what you need from the backup in "
                         f"{state.armed.folder} by hand, then confirm\n")
        elif state.state == "revert failed" and state.armed is not None:
            lines.append(f"{name}: the revert of apply {state.armed.apply_id} FAILED ({state.failed}); the "
                         f"lock is kept: restore by hand from {state.armed.folder}\n")
        if state.error:
            lines.append(f"{name}: {state.error}\n")
    bad = [s.resolver.name for s in states if not s.ok]
    lines.append(f"dns status: {'needs a look: ' + ', '.join(bad) if bad else 'OK'}\n")
    return "".join(lines)


def status_document(states: Sequence[LockState]) -> dict[str, Any]:
    """`dns status --format json`."""
    return versioned({"ok": all(s.ok for s in states), "resolvers": [s.document() for s in states]})
