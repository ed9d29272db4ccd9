"""Before the first write of a dns apply: what is already wrong on a resolver is found on
every resolver first, so that it stops the apply before a healthy resolver is written and
restarted for nothing (B-f3), and a resolver that is down is named, never started by the
apply's restart without a word (B-f2).

The lock, the reading of each resolver and its layout check come before this (dns/run.py);
here, for each resolver the apply will change: does it answer over DNS now, and does its
configuration as it stands pass its own `test`? A fault found here is a fault of that
resolver with nothing written on it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from renamer.dns.answers import NoAnswer, Querier
from renamer.dns.backend import backend_for
from renamer.dns.inventory import Resolver
from renamer.dns.plan import ResolverPlan
from renamer.dns.transport import Transport, TransportError


def faults(plans: Sequence[ResolverPlan], transports: dict[str, Transport],
           make_querier: Callable[[Resolver], Querier], *, ask: bool = True) -> dict[str, str]:
    """resolver name -> what is already wrong there: down, or (where the apply would change it)
    a configuration that fails its test as it stands.
    `ask`: query it over DNS too (not under --no-verify: the resolver's DNS port may be out of
    this machine's reach)."""
    found = {}
    for plan in plans:
        if plan.unreachable is not None:  # the lock or the reading could not reach it
            found[plan.resolver.name] = f"unreachable: {plan.unreachable}"
            continue
        resolver = plan.resolver
        # Down: a changed resolver would be started by the restart without a word; an unchanged
        # one would fail its verify after the others were written and restarted.
        fault = _down(resolver, make_querier(resolver)) if ask else None
        if fault:
            found[resolver.name] = fault
            continue
        if not plan.changed:
            continue  # not touched: its configuration is its own business
        try:
            result = backend_for(resolver).test(resolver, transports[resolver.name])
        except TransportError as exc:
            found[resolver.name] = f"unreachable: {exc}"
            continue
        if not result.ok:
            found[resolver.name] = (f"its configuration as it stands already fails its test "
                                    f"({' '.join(resolver.test)}): {result.tail()}; fix that first")
    return found


def _down(resolver: Resolver, querier: Querier) -> str | None:
    try:
        querier("renamer-probe.invalid.", "A")  # any answer, NXDOMAIN included, is an answer
    except NoAnswer as exc:
        return (f"did not answer before the apply ({resolver.endpoint}: {exc}): a stopped resolver is "
                "not started by dns apply; start it, or leave it out with --resolvers")
    return None
