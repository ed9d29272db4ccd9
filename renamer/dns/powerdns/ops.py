"""Plan, apply, back up, roll back and lock a site's zones on one PowerDNS server, through its API.

`dns apply` uses the lock (`take`, `give_back`) through the backend's transport (transport.py),
and goes through the generic rollout for the rest; plan_site, apply_site and roll_back are the
same steps for one site as a library call (tests/dns/powerdns/test_powerdns.py).

The backup is the zones' RRsets as fetched before the PATCH, with the keys the plan changes,
as JSON in backup_dir on the machine running renamer (nothing is written on the server but
the RRsets and the lock). A rollback PATCHes exactly those keys back: an RRset that existed is
REPLACEd with its records, TTL and comments as fetched; one the apply created is DELETEd.

The lock: the zone's metadata X-RENAMER-LOCK, so two operators on two machines collide on the
server itself. The API has no compare-and-swap: renamer appends its entry (POST keeps the
others), reads the list back, and holds the lock where its entry is there with no live entry
before it; of two that race, the first entry's apply holds and the other refuses, naming it
(take says why no live holder's entry is ever dropped, and confirm re-reads the lists once
they are all taken, for a write the server made from an older read).
"""

from __future__ import annotations

import contextlib
import datetime as dt
import json
import os
import random
import secrets
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from renamer.dns import lock as local_lock
from renamer.dns.inventory import Site
from renamer.dns.powerdns import rrsets
from renamer.dns.powerdns.api import ApiError, Client, ZoneMissing
from renamer.errors import UnsafeError


def fetch(client: Client, zones: Sequence[str]) -> dict[str, dict[str, Any]]:
    """zone -> the zone's JSON; a zone the server lacks is refused (exit 3), nothing written."""
    out: dict[str, dict[str, Any]] = {}
    for zone in zones:
        try:
            out[zone] = client.zone(zone)
        except ZoneMissing as exc:
            raise UnsafeError(str(exc)) from None
    return out


def plan_site(client: Client, site: Site) -> tuple[rrsets.Plan, dict[str, dict[str, Any]]]:
    live = fetch(client, rrsets.zones(site))
    return rrsets.plan(site, live), live


def write_backup(folder: Path, site: Site, client: Client, live: dict[str, dict[str, Any]],
                 plan: rrsets.Plan) -> Path:
    """The zones as fetched and the keys the plan changes, in a new file under `folder`."""
    folder.mkdir(parents=True, exist_ok=True)
    stamp = dt.datetime.now(dt.UTC).strftime("%Y%m%dT%H%M%S%fZ")
    path = folder / f"powerdns-{site.name}-{stamp}.json"
    data = {"api": client.url, "server_id": client.server_id, "site": site.name,
            "changed": [[c.zone, *c.key] for c in plan.changes],
            "zones": {zone: found["rrsets"] for zone, found in live.items()}}
    with open(path, "x", encoding="utf-8") as out:  # never over an older backup
        json.dump(data, out, indent=1, sort_keys=True)
        out.flush()
        os.fsync(out.fileno())
    return path


def restore_body(backup: dict[str, Any]) -> dict[str, list[dict[str, Any]]]:
    """zone -> the PATCH that puts the backup's changed keys back as they were fetched."""
    out: dict[str, list[dict[str, Any]]] = {}
    for zone, name, rdtype in backup["changed"]:
        before = {(str(rr["name"]).lower(), str(rr["type"]).upper()): rr for rr in backup["zones"][zone]}
        rr = before.get((name, rdtype))
        if rr is None:
            out.setdefault(zone, []).append({"name": name, "type": rdtype, "changetype": "DELETE"})
        else:
            out.setdefault(zone, []).append({"name": rr["name"], "type": rr["type"], "ttl": rr["ttl"],
                                             "changetype": "REPLACE", "records": rr["records"],
                                             "comments": rr.get("comments", [])})
    return out


def roll_back(client: Client, backup_file: Path, *, lock: bool = True) -> list[str]:
    """PATCH a backup's changed RRsets back, then read them back: the steps taken. Refused
    (exit 3) when what the server holds afterwards is not what the backup holds."""
    backup = json.loads(backup_file.read_text(encoding="utf-8"))
    bodies = restore_body(backup)
    notes: list[str] = []
    with locked(client, sorted(bodies), notes) if lock else contextlib.nullcontext():
        steps = list(notes)
        for zone, body in bodies.items():
            client.patch(zone, body)
            steps.append(f"{zone}: {len(body)} RRset(s) put back from {backup_file.name}")
        wrong = _not_restored(client, backup)
    if wrong:
        raise UnsafeError(f"after the rollback from {backup_file}: {wrong[0]}", lines=wrong)
    return steps


def _not_restored(client: Client, backup: dict[str, Any]) -> list[str]:
    """The changed keys the server does not hold as the backup does, read back through the API."""
    wrong = []
    for zone in dict.fromkeys(z for z, _, _ in backup["changed"]):
        now = rrsets.fetched(client.zone(zone))
        then = rrsets.fetched({"rrsets": backup["zones"][zone]})
        for z, name, rdtype in backup["changed"]:
            key = (name, rdtype)
            if z == zone and (rrsets.contents(now[key]) if key in now else None) \
                    != (rrsets.contents(then[key]) if key in then else None):
                wrong.append(f"{zone}: {name} {rdtype} is not as the backup holds it")
    return wrong


@dataclass
class Applied:
    plan: rrsets.Plan
    backup: Path | None
    steps: list[str]


def apply_site(client: Client, site: Site, backup_dir: Path) -> Applied:
    """Under the zones' locks: plan, back up, then PATCH zone by zone; a failed PATCH rolls back
    what was patched (and says so)."""
    fetch(client, rrsets.zones(site))  # a missing zone: refused before any lock is taken
    notes: list[str] = []
    with locked(client, rrsets.zones(site), notes):
        applied = _apply_locked(client, site, backup_dir)
    applied.steps[:0] = notes
    return applied


def _apply_locked(client: Client, site: Site, backup_dir: Path) -> Applied:
    plan, live = plan_site(client, site)
    if plan.conflicts:
        raise UnsafeError(f"{len(plan.conflicts)} RRset(s) in the way on {client.url}: {plan.conflicts[0]}",
                          lines=plan.conflicts)
    if not plan.changes:
        return Applied(plan, None, ["nothing to change"])
    backup = write_backup(backup_dir, site, client, live, plan)
    steps = [f"backup {backup}"]
    done: list[str] = []
    try:
        for zone, changes in plan.by_zone().items():
            client.patch(zone, rrsets.patch_body(site, changes))
            done.append(zone)
            steps.append(f"{zone}: {len(changes)} RRset(s) changed")
    except ApiError as exc:
        if done:
            steps += roll_back(client, backup, lock=False)  # the locks are held
        raise UnsafeError(f"PATCH failed on {client.url}: {exc}; "
                          f"{'rolled back ' + ', '.join(done) if done else 'nothing was changed'}") from None
    return Applied(plan, backup, steps)


class Contended(UnsafeError):
    """Refused because another apply asked for the lock at the same time (take_all tries again)."""


# Tries of take_all where applies race: each refused one gives its entries back and waits a random
# while, so that one of them finds the others' entries, or none, the next time.
ATTEMPTS = 4


def take_all(client: Client, zones: Sequence[str], mine: str, notes: list[str]) -> list[str]:
    """Hold X-RENAMER-LOCK on every zone of `zones` (in name order) with the entry `mine`, confirmed
    (confirm); the zones held. A lock another apply holds is refused (exit 3) naming it; where two
    ask at the same time (Contended: an entry of each, or one dropped by the other's write), each
    gives its entries back and tries again after a random wait, so that of two applies at once
    exactly one holds and the other refuses naming it. Nothing of this apply's is left where it
    refuses."""
    for attempt in range(ATTEMPTS):
        held: list[str] = []
        try:
            for zone in sorted(zones):
                held.append(zone)  # its entry may be there even when take fails midway
                take(client, zone, mine, notes)
            confirm(client, held, mine)
            return held
        except BaseException as exc:
            with contextlib.suppress(ApiError):
                give_back(client, held, mine)
            if not isinstance(exc, Contended) or attempt == ATTEMPTS - 1:
                raise
        time.sleep(random.uniform(0.2, 1.5))
    raise AssertionError("unreachable")  # the last attempt returns or raises


@contextlib.contextmanager
def locked(client: Client, zones: Sequence[str], notes: list[str] | None = None) -> Iterator[None]:
    """Hold X-RENAMER-LOCK on every zone (in name order); released at the end. A lock whose holder
    is provably gone (lock.judge: this machine and boot, the process ended) is taken over, and
    `notes` says so; any other is refused, naming its holder."""
    mine = entry(local_lock._holder().decode())
    held = take_all(client, zones, mine, notes if notes is not None else [])
    try:
        yield
    finally:
        give_back(client, held, mine)


def entry(holder: str) -> str:
    """This apply's X-RENAMER-LOCK entry: the lock's holder (dns/lock.py) and a nonce of its own, so
    that no two applies ever write the same entry (PowerDNS keeps one of two equal values)."""
    data = local_lock.parse(holder.encode())
    return json.dumps({**data, "nonce": secrets.token_hex(8)}, sort_keys=True)


def give_back(client: Client, zones: Sequence[str], mine: str) -> None:
    """Take `mine` out of each zone's X-RENAMER-LOCK, last taken first, and the entries of holders
    provably gone with it (one a racing apply put back); every other entry stays."""
    for zone in reversed(zones):
        with contextlib.suppress(ApiError):
            values = client.metadata(zone)
            if mine in values:  # never a PUT where there is nothing of this apply's to take out
                client.set_metadata(zone, [v for v in values if v != mine and _state(v)[0] != "gone"])


# How long after taking its zones an apply reads them again (confirm): PowerDNS's POST of metadata
# is a read and a write inside the server, so a POST that read the list before this apply's entry
# was there can still land after this apply read it back, and drop it.
CONFIRM_AFTER = 0.5


def take(client: Client, zone: str, mine: str, notes: list[str]) -> None:
    """Hold X-RENAMER-LOCK on `zone` with the entry `mine`, or refuse (exit 3) naming the holder; an
    unreachable server is an ApiError (status 0).

    PowerDNS's API has no compare-and-set: a POST adds a value to the kind's list (the others
    kept), a PUT replaces the list. So an apply appends its entry and reads the list back, and
    holds the lock exactly when its entry is there and every entry before it (the list keeps the
    order they came in) is of a holder provably gone (lock.judge: this machine and boot, its
    process ended). Two that race: the one whose entry came first holds, the other refuses
    naming it; one whose entry another's write dropped refuses. A gone holder's entries are then
    taken out by a compare-and-set: the list read again, and replaced only if it is still the
    list judged (a write between the two is an apply that reads this one's entry first, or finds
    its own gone: it refuses either way). No entry of a live holder is ever dropped by renamer:
    each PUT keeps every entry the list held when it was read but its own and gone holders'."""
    try:
        before = client.metadata(zone)
    except ApiError as exc:
        if exc.status in (404, 422):
            raise UnsafeError(f"zone {zone} is not on server {client.server_id} at {client.url}: "
                              "create it there first (renamer never creates a zone)") from None
        if exc.status == 0:
            raise
        raise UnsafeError(f"cannot read the lock of {zone} on {client.url}: {exc}") from None
    live = [v for v in before if _state(v)[0] != "gone"]
    if live:  # held: refused before anything is added
        raise UnsafeError(_held(client, zone, live[0]))
    client.add_metadata(zone, mine)
    after = client.metadata(zone)
    if mine not in after:  # dropped by another's write at the same time
        other = next((v for v in after if _state(v)[0] != "gone"), None)
        raise Contended(_held(client, zone, other, at_once=True))
    ahead = after[:after.index(mine)]
    first = next((v for v in ahead if _state(v)[0] != "gone"), None)
    if first is not None:  # another apply's entry came first: it holds the lock
        give_back(client, [zone], mine)
        raise Contended(_held(client, zone, first, at_once=True))
    gone = [v for v in after if v != mine and _state(v)[0] == "gone"]
    if gone:
        for value in gone:
            holder = local_lock.parse(value.encode())
            why = local_lock.judge(holder)[1]
            notes.append(f"{zone}: took over the lock of {local_lock._who(holder)} ({why})")
        with contextlib.suppress(ApiError):  # compare-and-set: only the list judged is replaced
            if client.metadata(zone) == after:
                client.set_metadata(zone, [v for v in after if v not in gone])


def confirm(client: Client, zones: Sequence[str], mine: str, delay: float = CONFIRM_AFTER) -> None:
    """After taking `zones`: wait `delay`, then read each again: this apply's entry must still be
    there with no live entry before it (take's rule), else it refuses (exit 3) naming the holder;
    the caller gives its entries back."""
    if not zones:
        return
    time.sleep(delay)
    for zone in zones:
        now = client.metadata(zone)
        ahead = now[:now.index(mine)] if mine in now else now
        first = next((v for v in ahead if v != mine and _state(v)[0] != "gone"), None)
        if mine not in now or first is not None:
            raise Contended(_held(client, zone, first, at_once=True))


def _state(value: str) -> tuple[local_lock.State, str]:
    holder = local_lock.parse(value.encode())
    return local_lock.judge(holder) if holder else ("unproven", "")


def _held(client: Client, zone: str, value: str | None, at_once: bool = False) -> str:
    """The refusal: `zone` is locked by the holder of `value`. None: this apply's entry was dropped
    by a write made at the same time, and no live entry was there yet: the list is read again a
    few times for the one that holds it, to name it (else "an unreadable holder")."""
    for _ in range(5 if value is None else 0):
        time.sleep(0.2)
        with contextlib.suppress(ApiError):
            value = next((v for v in client.metadata(zone) if _state(v)[0] != "gone"), None)
        if value is not None:
            break
    holder = local_lock.parse(value.encode()) if value else {}
    state, why = local_lock.judge(holder)
    race = ", taken at the same time as this apply's" if at_once else ""
    return (f"{zone} on {client.url} is locked (metadata X-RENAMER-LOCK) by "
            f"{local_lock._who(holder)}{f' ({why})' if state != 'unproven' else ''}{race}: another "
            "dns apply holds the lock, or one was killed; once you know none runs, clear it with "
            f"DELETE {client.base}/zones/{zone}/metadata/X-RENAMER-LOCK; nothing written")
