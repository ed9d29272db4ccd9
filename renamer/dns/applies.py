"""Which apply a resolver's backup belongs to: each `dns apply` has an id, and each resolver
counts the applies that wrote it.

An apply's id is a UTC stamp for people plus a random part (`20261201T120000Z.3fa2b1c4`): it
names the backup folder (`<backup_dir>/<resolver>-<id>`) and is unique, but it is never compared
for order, since a skewed clock (the controller's, or a resolver's) would make that lie. Order
comes from a per-resolver sequence number instead: before its first write on a resolver, an
apply takes the number after the one `renamer-apply-last` holds there (read under the
resolver's lock, so no two applies take the same one), and the pending marker says
`<folder>\n<id>\n<sequence>`. When the apply ends there (applied and final, or rolled back),
`renamer-apply-last` says `<sequence> <id> <outcome>` before the marker goes. Both engines
write the same (the Ansible engine's playbook does it in shell, under the same lock).

`--rollback` and `--resume` restore a resolver for an interrupted apply only when that apply is
the last thing that happened to it (B-f1): where its marker is, the resolver's sequence must
still be the one before the marker's (or the marker's own, applied, a kill between the two
writes of `end`); where only its backup folder is, `renamer-apply-last` must name that apply,
applied. Anything else is refused with the reason. A resolver written by a version without
sequences (`<id> <outcome>`, a marker of two lines) counts as sequence 0; its marker belongs to
it unless that same apply already ended there (no apply starts where a marker is, so any other
record there is older than the marker).
The control machine keeps a log of the same (`renamer-dns-applies.jsonl` in renamer's state
folder), for the operator; the resolvers' own records decide.
"""

from __future__ import annotations

import datetime as dt
import json
import posixpath
import secrets
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
    """Unique by its random part; the stamp is only a label for people (never compared)."""
    return f"{dt.datetime.now(dt.UTC):%Y%m%dT%H%M%SZ}.{secrets.token_hex(4)}"


def folder_of(resolver: Resolver, apply_id: str) -> str:
    return posixpath.join(resolver.backup_dir, f"{resolver.name}-{apply_id}")


def used(resolver: Resolver, apply_id: str) -> str:
    """The file that says `apply_id` already wrote a backup on this resolver: its ABSENT list,
    which both engines write into every backup folder before the pending marker (a folder
    without it was never marked, so no rollback reads it)."""
    return posixpath.join(folder_of(resolver, apply_id), "ABSENT")


def refuse_reused(resolvers: list[Resolver], transports: dict[str, Transport], apply_id: str) -> None:
    """Before anything is written: refuse an apply whose id already names a backup folder on a
    resolver. Writing into it would overwrite that earlier apply's backup, and its rollback
    would then restore the state this apply found, not the one it found (F5)."""
    for resolver in resolvers:
        if transports[resolver.name].read(used(resolver, apply_id)) is not None:
            folder = folder_of(resolver, apply_id)
            raise UnsafeError(f"{resolver.name}: the backup folder {folder} exists already: apply id "
                              f"{apply_id} was used there before, and this apply would overwrite that "
                              "apply's backup; apply again with an id never used (a new apply makes "
                              "its own); nothing written")


def id_of(folder: str) -> str:
    """The apply id of a backup folder (`.../<resolver>-<id>`)."""
    return posixpath.basename(folder).rsplit("-", 1)[-1]


@dataclass(frozen=True)
class LastApply:
    sequence: int  # 0: written by a version without sequences
    apply_id: str
    outcome: str  # Ended, or what an unknown writer left


@dataclass(frozen=True)
class Marker:
    folder: str
    apply_id: str
    sequence: int | None  # None: a marker of a version without sequences


def parse_last(raw: bytes | None) -> LastApply | None:
    words = raw.decode("utf-8", "replace").split() if raw else []
    if not words:
        return None
    if words[0].isdigit() and len(words) > 1:  # `<sequence> <id> <outcome>`
        return LastApply(int(words[0]), words[1], " ".join(words[2:]))
    return LastApply(0, words[0], " ".join(words[1:]))  # the old `<id> <outcome>`


def last_apply(resolver: Resolver, transport: Transport) -> LastApply | None:
    return parse_last(transport.read(posixpath.join(resolver.backup_dir, LAST)))


def sequence_of(last: LastApply | None) -> int:
    return last.sequence if last is not None else 0


def marker(resolver: Resolver, transport: Transport) -> Marker | None:
    raw = transport.read(posixpath.join(resolver.backup_dir, PENDING))
    lines = raw.decode("utf-8", "replace").splitlines() if raw else []
    if not lines:
        return None
    apply_id = lines[1].strip() if len(lines) > 1 and lines[1].strip() else id_of(lines[0])
    third = lines[2].strip() if len(lines) > 2 else ""
    return Marker(lines[0], apply_id, int(third) if third.isdigit() else None)


def mark_pending(resolver: Resolver, transport: Transport, folder: str, apply_id: str, sequence: int) -> None:
    transport.write(posixpath.join(resolver.backup_dir, PENDING),
                    f"{folder}\n{apply_id}\n{sequence}\n".encode())


def end(resolver: Resolver, transport: Transport, apply_id: str, outcome: Ended, sequence: int) -> None:
    """This apply is over on this resolver: say so first, then drop the pending marker (a kill
    in between leaves a marker that `belongs` sees is over)."""
    transport.write(posixpath.join(resolver.backup_dir, LAST), f"{sequence} {apply_id} {outcome}\n".encode())
    transport.remove(posixpath.join(resolver.backup_dir, PENDING))


def _ended(last: LastApply) -> str:
    return f"{last.apply_id} (sequence {last.sequence}), {last.outcome or 'ended'}"


def belongs(apply_id: str, last: LastApply | None, pending: Marker | None = None) -> str | None:
    """None when a resolver's backup of `apply_id` may be restored for it; else why not.
    `pending`: the resolver's marker, when it names `apply_id`; None where only the apply's
    backup folder is there."""
    if last is not None and last.apply_id == apply_id:  # this apply ended here
        if pending is not None and pending.sequence not in (None, last.sequence):
            return (f"its record says apply {apply_id} ended there as sequence {last.sequence}, its marker "
                    f"says {pending.sequence}: check it by hand")
        return None if last.outcome == "applied" else f"apply {apply_id} is already {last.outcome} there"
    if pending is None:  # its backup folder alone: it never ended here, or something ended here since
        if last is None:
            return f"apply {apply_id} never ended there (no record of an apply there)"
        return f"the last apply there is {_ended(last)}, not {apply_id}"
    if pending.sequence is None:  # an older version's marker: any other record there is older
        return None
    now = sequence_of(last)
    if now == pending.sequence - 1:
        return None  # nothing ended here since this apply began
    if last is not None and now >= pending.sequence:
        return (f"a later apply, {_ended(last)}, ended there since (apply {apply_id} wrote sequence "
                f"{pending.sequence})")
    return (f"its sequence is {now}, but apply {apply_id} began there after sequence {pending.sequence - 1}: "
            "its record was changed by hand")


def log_ended(inventory_folder: Path, apply_id: str, outcomes: dict[str, str],
              sequences: dict[str, int] | None = None) -> None:
    """One line in the control machine's log: the apply, each resolver's outcome, and the
    sequence it took on each resolver it wrote."""
    entry: dict[str, object] = {"apply": apply_id, "resolvers": outcomes}
    if sequences:
        entry["sequences"] = sequences
    try:
        with open(state_folder(inventory_folder) / LOG, "a", encoding="utf-8") as handle:
            handle.write(json.dumps(entry, sort_keys=True) + "\n")
    except OSError:
        pass  # the log is for people; the resolvers' own records decide


def interrupted(plans: list[ResolverPlan], transports: dict[str, Transport],
                after_interrupt: AfterInterrupt, *, dry: bool = False) -> list[str]:
    """Which resolvers the interrupted apply left half-done: `plan.interrupted` stays set on
    those alone. A marker whose apply already ended there (a kill between the two steps of
    `end`) is dropped; a kill while the markers were being cleared leaves some resolvers
    of that apply unmarked, which its backup folder names, when their record says that apply
    ended there, applied (a batch made final before a later batch failed, too). Refuses
    markers of two applies at once, and a marker its resolver's sequence contradicts.
    `dry` (dns plan): decide the same, but drop no marker. Returns notes."""
    notes: list[str] = []
    plans = [p for p in plans if p.unreachable is None]  # nothing is known of the others
    last = {p.resolver.name: last_apply(p.resolver, transports[p.resolver.name]) for p in plans}
    ids: dict[str, str] = {}
    for plan in (p for p in plans if p.interrupted):
        name = plan.resolver.name
        pending = marker(plan.resolver, transports[name])
        apply_id = pending.apply_id if pending is not None else id_of(plan.interrupted or "")
        why = belongs(apply_id, last[name], pending)
        if why is None:
            ids[name] = apply_id
            continue
        ended = last[name]
        if ended is None or ended.apply_id != apply_id or ended.outcome == "applied":
            raise UnsafeError(f"{name}: its pending marker names apply {apply_id}, but {why}: check "
                              f"{plan.resolver.backup_dir} by hand; nothing written")
        if not dry:
            transports[name].remove(posixpath.join(plan.resolver.backup_dir, PENDING))
        notes.append(f"{name}: {'would drop' if dry else 'dropped'} the marker of apply {apply_id}: {why}")
        plan.interrupted = None
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
        notes += [f"{name}: its last apply, {_ended(ended)} there"
                  for name, ended in last.items() if ended is not None]
    return notes


def restored_sequence(resolver: Resolver, transport: Transport, apply_id: str) -> int:
    """The sequence a restore of `apply_id` records on this resolver: its marker's, or the
    one its record gives that apply (a resolver it left unmarked); for an older version's
    marker, the next one."""
    pending = marker(resolver, transport)
    if pending is not None and pending.apply_id == apply_id and pending.sequence is not None:
        return pending.sequence
    last = last_apply(resolver, transport)
    if last is not None and last.apply_id == apply_id:
        return last.sequence
    return sequence_of(last) + 1
