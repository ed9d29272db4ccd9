"""One operator at a time: a lock per resolver, on the resolver itself.

`dns apply` creates `<backup_dir>/renamer-apply.lock` on every resolver it reaches (in name
order, exclusively: O_EXCL locally, noclobber over ssh) before it reads or writes a snippet,
and removes it at the end. A second apply, from this machine or any other, finds it and is
refused, naming the holder (host, pid, user) and when it started. A lock left by an apply
that was killed is stale: when its process is provably gone (same host, no such pid) it is
taken over, and said so; otherwise (another host, or older than `lock_max_age`) the refusal
says how to clear it.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import getpass
import json
import os
import posixpath
import shlex
import socket
from collections.abc import Iterator, Sequence

from renamer.dns.inventory import Resolver
from renamer.dns.transport import Transport, TransportError, Unreachable, by_hand
from renamer.errors import UnsafeError

LOCK = "renamer-apply.lock"
MAX_AGE = dt.timedelta(hours=1)


@contextlib.contextmanager
def locked(resolvers: Sequence[Resolver], transports: dict[str, Transport],
           notes: list[str], unreachable: dict[str, str] | None = None) -> Iterator[None]:
    """Hold every resolver's lock for the duration; `notes` gets each stale lock taken over.
    With `unreachable`, a resolver that cannot be reached at all is named there and left
    out (nothing can be written there either); without it, that stops everything."""
    held: list[Resolver] = []
    mine = _holder()
    try:
        for resolver in sorted(resolvers, key=lambda r: r.name):  # one order: no two applies deadlock
            try:
                _take(resolver, transports[resolver.name], mine, notes)
            except Unreachable as exc:
                if unreachable is None:
                    raise
                unreachable[resolver.name] = str(exc)
                continue
            held.append(resolver)
        yield
    finally:
        for resolver in reversed(held):
            # The last round trip: what the apply left queued (dns/applies.end), then the lock.
            with contextlib.suppress(TransportError):
                transports[resolver.name].remove(_path(resolver))
                transports[resolver.name].flush()


def _take(resolver: Resolver, transport: Transport, mine: bytes, notes: list[str]) -> None:
    path = _path(resolver)
    for _ in range(2):
        if transport.create(path, mine):
            return
        raw = transport.read(path)
        if raw is None:
            continue  # released in between: try again
        holder = _parse(raw)
        if not _gone(holder):
            raise UnsafeError(_refusal(resolver, path, holder))
        notes.append(f"{resolver.name}: took over a stale lock of pid {holder.get('pid')} on "
                     f"{holder.get('host')} (that process is gone), started {holder.get('started')}")
        transport.remove(path)
    raise UnsafeError(f"{resolver.name}: cannot take the lock {path}: another apply keeps taking it")


def _holder() -> bytes:
    started = dt.datetime.now(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    try:
        user = getpass.getuser()
    except (KeyError, OSError):
        user = str(os.getuid())
    return (json.dumps({"host": socket.gethostname(), "pid": os.getpid(), "user": user,
                        "started": started}) + "\n").encode()


def _parse(raw: bytes) -> dict[str, object]:
    try:
        data = json.loads(raw.decode("utf-8", "replace"))
    except json.JSONDecodeError:
        return {}
    return data if isinstance(data, dict) else {}


def _checkable(holder: dict[str, object]) -> int | None:
    """The holder's pid where renamer can check it: taken on this machine, a real pid."""
    pid = holder.get("pid")
    if holder.get("host") != socket.gethostname() or not isinstance(pid, int) or isinstance(pid, bool):
        return None
    return pid if pid > 0 else None


def _gone(holder: dict[str, object]) -> bool:
    """Is the process that holds the lock provably gone (this host, no such pid)?"""
    pid = _checkable(holder)
    if pid is None:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except PermissionError:
        return False  # alive, another user's
    return False


def _refusal(resolver: Resolver, path: str, holder: dict[str, object]) -> str:
    """Refused: the holder's process may be running. Where renamer can see it is (this machine,
    that pid alive), wait; where it cannot tell (another machine, a lock with no pid renamer can
    check: a hand-run playbook of an older export, an unreadable lock), the person who can look
    is told what to look for and the exact command that clears it."""
    who = (f"{holder.get('user', '?')}@{holder.get('host', '?')} pid {holder.get('pid', '?')}, "
           f"since {holder.get('started', '?')}") if holder else "an unreadable holder"
    head = f"{resolver.name}: another dns apply holds the lock ({who})"
    if _alive_here(holder):
        return f"{head}; it is running on this machine: wait for it to end; nothing written"
    started = _started(holder)
    old = started is not None and dt.datetime.now(dt.UTC) - started > MAX_AGE
    hours = int(MAX_AGE.total_seconds() // 3600)
    why = (f"it is over {hours} h old, but " if old else "") + _unprovable(holder)
    clear = shlex.join(by_hand(resolver, ["rm", "--", path]))
    return (f"{head}; {why}: once you know no apply runs there, clear it with `{clear}` and apply "
            "again (a half-done resolver is then found and named); nothing written")


def _unprovable(holder: dict[str, object]) -> str:
    """Why renamer cannot prove this holder gone."""
    pid, host = holder.get("pid"), holder.get("host")
    if not holder:
        return "renamer cannot read who holds it"
    if host != socket.gethostname():
        where = f"on {host}" if isinstance(host, str) else "on the machine that took it"
        return f"its process runs, or ran, {where}, not on this machine, so renamer cannot check it"
    if _checkable(holder) is None:
        return "it names no process renamer can check (a playbook run by hand from an older export?)"
    return f"pid {pid} on this machine is another user's"


def _alive_here(holder: dict[str, object]) -> bool:
    """Its process provably runs: this machine, a pid of this user's that answers kill 0."""
    pid = _checkable(holder)
    if pid is None:
        return False
    try:
        os.kill(pid, 0)
    except OSError:  # gone (then it was taken over), or another user's: not provably an apply
        return False
    return True


def _started(holder: dict[str, object]) -> dt.datetime | None:
    value = holder.get("started")
    if not isinstance(value, str):
        return None
    try:
        return dt.datetime.strptime(value, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=dt.UTC)
    except ValueError:
        return None


def _path(resolver: Resolver) -> str:
    return posixpath.join(resolver.backup_dir, LOCK)


def holder_of(resolver: Resolver, transport: Transport) -> str | None:
    """Who holds this resolver's lock, as `dns plan` says it (None: nobody): an apply running
    now, or one killed outright that left it."""
    raw = transport.read(_path(resolver))
    if raw is None:
        return None
    holder = _parse(raw)
    who = (f"{holder.get('user', '?')}@{holder.get('host', '?')} pid {holder.get('pid', '?')}, "
           f"since {holder.get('started', '?')}") if holder else "an unreadable holder"
    return f"{_path(resolver)} is held by {who}" + (" (that process is gone)" if _gone(holder) else "")
