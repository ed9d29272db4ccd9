"""Before the first write of a dns apply: what is already wrong on a resolver is found on
every resolver first, so that it stops the apply before a healthy resolver is written and
restarted for nothing (B-f3), and a resolver that is down is named, never started by the
apply's restart without a word (B-f2).

The lock, the reading of each resolver and its layout check come before this (dns/run.py);
here, for each resolver the apply will change: does it answer over DNS now, does its
configuration as it stands pass its own `test`, and has its backup_dir room for the backup?
A fault found here is a fault of that resolver with nothing written on it.
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
        fault = refusal(plan, transports[resolver.name])
        if fault:
            found[resolver.name] = fault
    return found


def refusal(plan: ResolverPlan, transport: Transport) -> str | None:
    """Why the apply would refuse this resolver, found on its files alone (no DNS): its
    configuration as it stands fails its `test`, or its backup_dir has no room for the backup.
    `dns plan` asks the same (dns/served.py), so it never promises an apply that is refused."""
    resolver = plan.resolver
    try:
        result = backend_for(resolver).test(resolver, transport)
    except TransportError as exc:
        return f"unreachable: {exc}"
    if not result.ok:
        return (f"its configuration as it stands already fails its test "
                f"({' '.join(resolver.test)}): {result.tail()}; fix that first")
    return _short_of_space(plan, transport)


def forwarders_down(forwarders: Sequence[Resolver],
                    make_querier: Callable[[Resolver], Querier]) -> dict[str, str]:
    """resolver name -> why, for each `manage: false` resolver in front of the apply (dns/run.py
    in_front) that does not answer now. Clients ask through it and the apply's last step asks
    it: down, that step could only fail after every managed resolver was written and restarted,
    so it is found here, before the first write. renamer never starts it."""
    found = {}
    for resolver in forwarders:
        why = silent(resolver, make_querier(resolver))
        if why is not None:
            found[resolver.name] = f"did not answer before the apply ({why}): {FORWARDER_STOPPED}"
    return found


# The free space under backup_dir, in KiB, from `df -P` (POSIX output; busybox has it too) on the
# nearest folder that exists: backup_dir itself is made by the first apply. The path is an
# argument, never part of the script.
_SPACE = ('d=$1; while [ ! -d "$d" ]; do d=${d%/*}; [ -n "$d" ] || d=/; done; '
          'exec df -Pk -- "$d"')  # two processes, no more: it runs on every resolver of every apply
BLOCK = 4096  # what a file takes at least on the usual filesystems
SPARE = 4  # the ABSENT list, the pending marker, renamer-apply-last, the folder itself: a block each


def space_probe(resolver: Resolver) -> list[str]:
    """The read-only command whose output `_short_of_space` reads (sent ahead with the reads)."""
    return ["sh", "-c", _SPACE, "renamer-space", resolver.backup_dir]


def _short_of_space(plan: ResolverPlan, transport: Transport) -> str | None:
    """Why backup_dir cannot take this apply's backup (a full disk found before any resolver is
    written, not halfway through the fleet); None when it can, or when df says nothing usable."""
    resolver = plan.resolver
    try:
        result = transport.run(space_probe(resolver))
    except TransportError:
        return None  # the writes will say it, with the path
    lines = result.stdout.decode("utf-8", "replace").splitlines()
    words = lines[-1].split() if lines else []  # the last line: df -P never wraps a long device name
    if not result.ok or len(words) < 4 or not words[3].isdigit():
        return None
    free = int(words[3]) * 1024
    saved = [len(data) for name in plan.changed if (data := plan.current.get(name)) is not None]
    need = (sum(-(-size // BLOCK) for size in saved) + SPARE) * BLOCK
    if free >= need:
        return None
    return (f"backup_dir {resolver.backup_dir} has {free // 1024} KiB free, the backup needs "
            f"{need // 1024} KiB: free some space there first")


def silent(resolver: Resolver, querier: Querier) -> str | None:
    """None when the resolver answers over DNS now (NXDOMAIN included); else `endpoint: why`."""
    try:
        querier("renamer-probe.invalid.", "A")  # any answer, NXDOMAIN included, is an answer
    except NoAnswer as exc:
        return f"{resolver.endpoint}: {exc}"
    return None


STOPPED = "a stopped resolver is not started by dns apply; start it, or leave it out with --resolvers"
# A forwarder in front cannot be left out with --resolvers: it serves the sites of the resolvers
# applied, and renamer never starts what it does not manage.
FORWARDER_STOPPED = ("a manage: false resolver in front of the resolvers applied (their sites' clients ask "
                     "through it) must answer before anything is written; start it, then apply again")


# The same, for a hand run of the exported playbook (`renamer dns verify --answering`): its way
# to leave a resolver out is Ansible's.
STOPPED_BY_HAND = "a stopped resolver is not started by the playbook; start it, or leave it out with --limit"


def _down(resolver: Resolver, querier: Querier, stopped: str = STOPPED) -> str | None:
    why = silent(resolver, querier)
    return None if why is None else f"did not answer before the apply ({why}): {stopped}"


def down_by_hand(resolver: Resolver, querier: Querier) -> str | None:
    """Why a managed resolver of a hand run does not answer now; None when it answers."""
    return _down(resolver, querier, STOPPED_BY_HAND)
