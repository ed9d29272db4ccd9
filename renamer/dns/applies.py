"""Which apply a resolver's backup belongs to: each `dns apply` has an id, and each resolver
records the last apply that ended on it.

An apply's id is its stamp (`20261201T120000.123456Z`, sortable): it names the backup folder
(`<backup_dir>/<resolver>-<id>`), the pending marker names it while the resolver is half-done,
and when the apply ends there (applied and final, or rolled back) `renamer-apply-last` in
backup_dir says `<id> <outcome>` before the marker goes. `--rollback` and `--resume` restore a
resolver for an interrupted apply only when that apply is the last thing that happened to it:
never a resolver that was already rolled back, or that a later apply changed since (B-f1).
The control machine keeps a log of the same (`renamer-dns-applies.jsonl` in renamer's state
folder), for the operator; the resolvers' own records decide.
"""

from __future__ import annotations

import datetime as dt
import json
import posixpath
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from renamer.dns.inventory import Resolver
from renamer.dns.plan import PENDING, ResolverPlan
from renamer.dns.transport import Transport
from renamer.errors import UnsafeError
from renamer.state import state_folder

LAST = "renamer-apply-last"  # in backup_dir: the last apply that ended on this resolver
LOG = "renamer-dns-applies.jsonl"  # on the control machine: one line per apply that ended

Ended = Literal["applied", "rolled back"]
AfterInterrupt = Literal["refuse", "resume", "rollback"]  # what to do with an apply killed outright


def new_id() -> str:
    return dt.datetime.now(dt.UTC).strftime("%Y%m%dT%H%M%S.%fZ")


def folder_of(resolver: Resolver, apply_id: str) -> str:
    return posixpath.join(resolver.backup_dir, f"{resolver.name}-{apply_id}")


def id_of(folder: str) -> str:
    """The apply id of a backup folder (`.../<resolver>-<id>`)."""
    return posixpath.basename(folder).rsplit("-", 1)[-1]


@dataclass(frozen=True)
class LastApply:
    apply_id: str
    outcome: str  # Ended, or what an unknown writer left


def last_apply(resolver: Resolver, transport: Transport) -> LastApply | None:
    raw = transport.read(posixpath.join(resolver.backup_dir, LAST))
    words = raw.decode("utf-8", "replace").split(maxsplit=1) if raw else []
    return LastApply(words[0], words[1].strip() if len(words) > 1 else "") if words else None


def mark_pending(resolver: Resolver, transport: Transport, folder: str, apply_id: str) -> None:
    transport.write(posixpath.join(resolver.backup_dir, PENDING), f"{folder}\n{apply_id}\n".encode())


def end(resolver: Resolver, transport: Transport, apply_id: str, outcome: Ended) -> None:
    """This apply is over on this resolver: say so first, then drop the pending marker (a kill
    in between leaves a marker that `belongs` sees is over)."""
    transport.write(posixpath.join(resolver.backup_dir, LAST), f"{apply_id} {outcome}\n".encode())
    transport.remove(posixpath.join(resolver.backup_dir, PENDING))


def belongs(apply_id: str, last: LastApply | None) -> str | None:
    """None when a resolver's backup of `apply_id` may be restored for it; else why not."""
    if last is None or last.apply_id < apply_id:
        return None  # nothing ended here since: the interrupted apply is the last change
    if last.apply_id == apply_id:
        return None if last.outcome == "applied" else f"apply {apply_id} is already {last.outcome} there"
    return f"a later apply, {last.apply_id}, {last.outcome or 'ended'} there since"


def log_ended(inventory_folder: Path, apply_id: str, outcomes: dict[str, str]) -> None:
    """One line in the control machine's log: the apply and each resolver's outcome."""
    try:
        with open(state_folder(inventory_folder) / LOG, "a", encoding="utf-8") as handle:
            handle.write(json.dumps({"apply": apply_id, "resolvers": outcomes}, sort_keys=True) + "\n")
    except OSError:
        pass  # the log is for people; the resolvers' own records decide


def interrupted(plans: list[ResolverPlan], transports: dict[str, Transport],
                after_interrupt: AfterInterrupt) -> list[str]:
    """Which resolvers the interrupted apply left half-done: `plan.interrupted` stays set on
    those alone. A marker whose apply already ended there (a kill between the two steps of
    `end`) is dropped; a kill while the markers were being cleared leaves some resolvers
    of that apply unmarked, which its backup folder names, unless that apply, or a later one,
    ended there since (dns/py). Refuses markers of two applies at once. Returns notes."""
    notes: list[str] = []
    plans = [p for p in plans if p.unreachable is None]  # nothing is known of the others
    last = {p.resolver.name: last_apply(p.resolver, transports[p.resolver.name]) for p in plans}
    for plan in (p for p in plans if p.interrupted):
        name, apply_id = plan.resolver.name, id_of(plan.interrupted or "")
        why = belongs(apply_id, last[name])
        if why is None:
            continue
        ended = last[name]
        if ended is not None and ended.apply_id != apply_id:
            raise UnsafeError(f"{name}: its pending marker names apply {apply_id}, but {why}: check "
                              f"{plan.resolver.backup_dir} by hand; nothing written")
        transports[name].remove(posixpath.join(plan.resolver.backup_dir, PENDING))
        notes.append(f"{name}: dropped the marker of apply {apply_id}: {why}")
        plan.interrupted = None
    ids = {p.resolver.name: id_of(p.interrupted) for p in plans if p.interrupted}
    if len(set(ids.values())) > 1 and after_interrupt != "refuse":
        shown = ", ".join(f"{name} by apply {apply_id}" for name, apply_id in sorted(ids.items()))
        raise UnsafeError(f"the resolvers were left half-done by {len(set(ids.values()))} different applies "
                          f"({shown}): --{after_interrupt} one apply at a time, naming its resolvers with "
                          "--resolvers; nothing written")
    for apply_id in set(ids.values()):
        for plan in (p for p in plans if p.interrupted is None):
            resolver, transport = plan.resolver, transports[plan.resolver.name]
            folder = folder_of(resolver, apply_id)
            if transport.read(posixpath.join(folder, "ABSENT")) is None:
                continue  # it took no part in that apply
            why = belongs(apply_id, last[resolver.name])
            if why is None:
                plan.interrupted = folder
            else:
                notes.append(f"{resolver.name}: left as it is, not part of the interrupted apply {apply_id}: "
                             f"{why}")
    if not ids and after_interrupt == "rollback":  # say why there is nothing to roll back
        notes += [f"{name}: its last apply, {ended.apply_id}, {ended.outcome or 'ended'} there"
                  for name, ended in last.items() if ended is not None]
    return notes
