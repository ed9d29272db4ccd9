"""What `dns plan` learns beyond the files: the lock, and what each resolver answers over DNS.

Reading the snippets says what is written, not what is served. A snippet written by an apply
killed before its restart is identical to the one planned, and a second address that no file
renamer can read gives (a lease, a hosts file it is not shown, a layout with `check_layout:
false`) leaves every file as planned: both looked "up to date". So where a resolver's
snippets need no change, plan asks it, as `dns verify` does, whether it serves them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from renamer.dns.answers import NONE, NXDOMAIN, Answer, Check, Expectation, Querier
from renamer.dns.backend import backend_for
from renamer.dns.inventory import Inventory, Resolver
from renamer.dns.lock import holder_of
from renamer.dns.plan import ResolverPlan
from renamer.dns.preflight import FORWARDER_STOPPED, STOPPED, refusal, silent
from renamer.dns.transport import Transport, TransportError
from renamer.dns.verify import expectations, judge, old_names_left, verify_resolver, with_extra

SHOWN = 5  # failed checks listed per resolver; the rest counted


def observe(inventory: Inventory, plans: Sequence[ResolverPlan], transports: dict[str, Transport],
            make_querier: Callable[[Resolver], Querier]) -> None:
    """Fill in each managed plan's `held` (a lock left there), `down` and `preflight` (what the
    apply's preflight would refuse it for) and `not_served` (what it answers otherwise than its
    up-to-date snippets say)."""
    for plan in plans:
        resolver = plan.resolver
        if not resolver.manage or plan.problem or plan.unreachable:
            continue  # an unreachable machine: the plan says so, and nothing more is known
        try:
            plan.held = holder_of(resolver, transports[resolver.name])
        except TransportError:
            plan.held = None  # the plan itself read through this transport: a race, said by apply
        # A stopped resolver is refused by the apply's preflight: the plan says so now.
        why = silent(resolver, make_querier(resolver))
        plan.down = None if why is None else f"it does not answer over DNS ({why}): {STOPPED}"
        if plan.changed and not plan.down:
            # what the apply's preflight refuses on the files alone: the plan says it now
            plan.preflight = refusal(plan, transports[resolver.name])
            _still_served(inventory, plan)
        if plan.changed or plan.down:
            continue  # the apply restarts it and verifies; what it serves now says nothing more
        report = verify_resolver(inventory, resolver, make_querier(resolver))
        if report.unreachable:
            plan.not_served = [f"{report.unreachable}: its snippets are written, but it does not answer"]
            continue
        failures = report.failures()
        lines = [f"{c.expectation.label}: expected {c.expectation.wanted}, got {c.got}"
                 for c in failures[:SHOWN]]
        if len(failures) > SHOWN:
            lines.append(f"(and {len(failures) - SHOWN} more: "
                         f"`renamer dns verify --resolvers {resolver.name}`)")
        if any(c.expectation.label.endswith("TXT (canary)") for c in failures):
            lines.append("the canary is not this snippet's: it is written but not served (not restarted "
                         "since it was written, e.g. an apply killed before the restart)")
        plan.not_served = lines
        if lines and not plan.interrupted:  # the apply verifies an unchanged resolver too: it fails here
            plan.fails.append("its verify fails now (not served, below), and the apply does not change its "
                              "snippets: dns apply would fail and roll back")


def _still_served(inventory: Inventory, plan: ResolverPlan) -> None:
    """A resolver the apply changes, with hand-written records the apply leaves in place: after
    the write and restart it answers what the new snippets say plus what those records say. Each
    check of its verify that such a record speaks to is judged (verify.judge) on that answer,
    before anything is asked or written: the verify the apply runs would fail the same way."""
    theirs: dict[tuple[str, str], list[str]] = {}
    for name, rdtype, value in plan.left_in_place:
        theirs.setdefault((name, rdtype), []).append(value)
    failed: list[Check] = []
    asked = with_extra(expectations(inventory, plan.resolver), old_names_left(inventory, plan.left_in_place))
    # A name the new snippets make a CNAME (a host's alias, a transitional alias: their checks
    # follow it) that a hand-written cname= makes a CNAME too: dnsmasq refuses two for one name
    # ("duplicate CNAME"), so the apply's test fails and it rolls back (t24-alias finding 11).
    cnamed: dict[str, Expectation] = {}
    for e in asked:
        if e.via:
            cnamed.setdefault(e.name.rstrip(".").lower(), e)
    # Unbound writes an alias as its host's addresses: a hand-written CNAME there is answered in
    # their place (a CNAME stands alone), so its verify fails (the finding-11 variant on Unbound).
    addressed: dict[str, Expectation] = {}
    if not backend_for(plan.resolver).cname_aliases:
        for e in asked:
            if e.rdtype in ("A", "AAAA") and e.want not in ((NXDOMAIN,), (NONE,)):
                addressed.setdefault(e.name.rstrip(".").lower(), e)
    for name, rdtype, value in plan.left_in_place:
        theirs_on = addressed.get(name) if rdtype == "CNAME" else None
        if theirs_on is not None:
            plan.fails.append(f"its verify after the write would fail: {name} would answer a hand-written "
                              f"CNAME to {value} where renamer writes its addresses ({theirs_on.label}; "
                              "hand-written records, below): `dns apply --retire-stale` comments it out")
    if plan.resolver.backend == "dnsmasq":
        for name, rdtype, value in plan.left_in_place:
            mine = cnamed.get(name) if rdtype == "CNAME" else None
            if mine is not None:
                plan.fails.append(f"its test after the write would fail: {name} would be a CNAME twice, "
                                  f"renamer's ({mine.label} to {mine.via[0]}) and a hand-written "
                                  f"one to {value} (hand-written records, below): dnsmasq refuses that "
                                  "(duplicate CNAME) and the apply rolls back; `dns apply --retire-stale` "
                                  "comments it out")
    for expectation in asked:
        values = theirs.get((expectation.name.rstrip(".").lower(), expectation.rdtype))
        if not values:
            continue
        ours = () if expectation.want in ((NXDOMAIN,), (NONE,)) else expectation.want
        # an alias's answer is its CNAME first, then the addresses (the hand-written ones beside)
        chain = (("CNAME", expectation.via[0]),) if expectation.via else ()
        answer = Answer("NOERROR", chain + tuple((expectation.rdtype, v) for v in (*ours, *values)))
        check = judge(expectation, answer)
        if not check.ok:
            failed.append(check)
    if failed:
        first = failed[0]
        more = f" (and {len(failed) - 1} more)" if len(failed) > 1 else ""
        plan.fails.append(f"its verify after the write would fail: {first.expectation.label}: expected "
                          f"{' or '.join(first.expectation.want)}, got {first.got}{more}, from a "
                          "hand-written record the apply leaves in place (hand-written records, below): "
                          "`dns apply --retire-stale` comments it out, or where it says it leaves it, edit "
                          "it by hand")


def observe_unmanaged(plans: Sequence[ResolverPlan], make_querier: Callable[[Resolver], Querier]) -> None:
    """Fill in `down` of each `manage: false` plan: a forwarder in front that does not answer
    stops the apply's preflight (dns/preflight.forwarders_down), so the plan says so now."""
    for plan in plans:
        if plan.resolver.manage:
            continue
        why = silent(plan.resolver, make_querier(plan.resolver))
        plan.down = None if why is None else f"it does not answer over DNS ({why}): {FORWARDER_STOPPED}"
