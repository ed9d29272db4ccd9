"""Plan, apply, back up, roll back and lock a site's zones on one PowerDNS server, through its API.

`dns apply` uses the lock (`take`, `give_back`) through the backend's transport (transport.py),
and goes through the generic rollout for the rest; plan_site, apply_site and roll_back are the
same steps for one site as a library call (tests/dns/powerdns/test_powerdns.py).

The backup is the zones' RRsets as fetched before the PATCH, with the keys the plan changes,
as JSON in backup_dir on the machine running renamer (nothing is written on the server but
the RRsets and the lock). A rollback PATCHes exactly those keys back: an RRset that existed is
REPLACEd with its records, TTL and comments as fetched; one the apply created is DELETEd.

The lock: the zone's metadata X-RENAMER-LOCK, so two operators on two machines collide on the
server itself. The API has no compare-and-swap, so renamer adds its entry with POST (PowerDNS
keeps the others), reads the list back, and holds the lock only where the list is its entry
alone; otherwise it takes its entry out again and refuses, naming the holder. Two that race may
both refuse; neither can hold while the other does.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import json
import os
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


@contextlib.contextmanager
def locked(client: Client, zones: Sequence[str], notes: list[str] | None = None) -> Iterator[None]:
    """Hold X-RENAMER-LOCK on every zone (in name order); released at the end. A lock whose holder
    is provably gone (lock.judge: this machine and boot, the process ended) is taken over, and
    `notes` says so; any other is refused, naming its holder."""
    mine = local_lock._holder().decode().strip()
    held: list[str] = []
    try:
        for zone in sorted(zones):
            take(client, zone, mine, notes if notes is not None else [])
            held.append(zone)
        yield
    finally:
        give_back(client, held, mine)


def give_back(client: Client, zones: Sequence[str], mine: str) -> None:
    """Take `mine` out of each zone's X-RENAMER-LOCK (the others' entries stay), last taken first."""
    for zone in reversed(zones):
        with contextlib.suppress(ApiError):
            client.set_metadata(zone, [v for v in client.metadata(zone) if v != mine])


def take(client: Client, zone: str, mine: str, notes: list[str]) -> None:
    """Hold X-RENAMER-LOCK on `zone` with the entry `mine` (a holder as dns/lock.py writes it), or
    refuse (exit 3) naming the holder; an unreachable server is an ApiError (status 0)."""
    try:
        before = client.metadata(zone)
    except ApiError as exc:
        if exc.status in (404, 422):
            raise UnsafeError(f"zone {zone} is not on server {client.server_id} at {client.url}: "
                              "create it there first (renamer never creates a zone)") from None
        if exc.status == 0:
            raise
        raise UnsafeError(f"cannot read the lock of {zone} on {client.url}: {exc}") from None
    holder = local_lock.parse(before[0].encode()) if len(before) == 1 else {}
    state, why = local_lock.judge(holder) if holder else ("unproven", "")
    if state == "gone":  # taken on this machine and boot by a process that is provably gone
        client.set_metadata(zone, [mine])
        if client.metadata(zone) == [mine]:
            notes.append(f"{zone}: took over the lock of {local_lock._who(holder)} ({why})")
            return
        before = [v for v in client.metadata(zone) if v != mine]
    elif not before:
        client.add_metadata(zone, mine)
        after = client.metadata(zone)
        if after == [mine]:
            return
        with contextlib.suppress(ApiError):  # another took it at the same time: give ours back
            client.set_metadata(zone, [v for v in client.metadata(zone) if v != mine])
        before = [v for v in after if v != mine]
    holder = local_lock.parse(before[0].encode()) if before else {}
    state, why = local_lock.judge(holder)
    raise UnsafeError(f"{zone} on {client.url} is locked (metadata X-RENAMER-LOCK) by "
                      f"{local_lock._who(holder)}{f' ({why})' if state != 'unproven' else ''}: another "
                      "dns apply holds the lock, or one was killed; once you know none runs, clear it with "
                      f"DELETE {client.base}/zones/{zone}/metadata/X-RENAMER-LOCK")
