"""One operator at a time: a lock per resolver, on the resolver itself.

`dns apply` creates `<backup_dir>/renamer-apply.lock` on every resolver it reaches (in name
order, exclusively: O_EXCL locally, noclobber over ssh) before it reads or writes a snippet,
and removes it at the end. A second apply, from this machine or any other, finds it and is
refused, naming the holder (host, pid, user) and when it started. A lock left by an apply
that was killed is stale: when its process is provably gone it is taken over, and said so;
otherwise the refusal says how old it is and how to clear it.

"Provably gone" needs more than a host name and a pid: two controllers may share a host name
(cloned VMs, containers named alike), and a pid is reused once its process ends. So the lock
also names the machine (/etc/machine-id), its boot (the kernel's boot_id) and the holder's
start time (field 22 of /proc/PID/stat, in clock ticks since that boot). Only a lock taken
on this very machine and boot is checked; its pid is gone, or runs a process that started at
another time (a reused pid), or it provably still runs.
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
from collections.abc import Callable, Iterator, Sequence
from typing import Literal

from renamer.dns.inventory import Resolver
from renamer.dns.transport import Transport, TransportError, Unreachable, by_hand
from renamer.errors import UnsafeError

LOCK = "renamer-apply.lock"
# Held with flock(1) by the exported playbook's test and restarts while they run on the host: a
# step a run killed outright left running there (dns/playbook/playbook.yml, renamer_step_argv).
STEP = ".renamer-apply.step"
MAX_AGE = dt.timedelta(hours=1)
OVERDUE = 60  # seconds past an armed revert's deadline before its lock is said to be overdue (dns/confirm.py)
MACHINE_ID = ("/etc/machine-id", "/var/lib/dbus/machine-id")
BOOT_ID = "/proc/sys/kernel/random/boot_id"

State = Literal["live", "gone", "unproven"]
# Why nothing will end the armed apply a lock names (dns/confirm.finishable), or None; its last
# argument: the caller takes the lock over (a stopped revert is stopped for good first).
Lost = Callable[[Resolver, Transport, dict[str, object], bool], "str | None"]


@contextlib.contextmanager
def locked(resolvers: Sequence[Resolver], transports: dict[str, Transport],
           notes: list[str], unreachable: dict[str, str] | None = None,
           kept: set[str] | None = None, lost: Lost | None = None, finish: bool = False) -> Iterator[None]:
    """Hold every resolver's lock for the duration; `notes` gets each stale lock taken over.
    With `unreachable`, a resolver that cannot be reached at all is named there and left
    out (nothing can be written there either); without it, that stops everything. The
    resolvers named in `kept` by the end keep their lock: a commit-confirmed apply armed a
    revert there, which releases it (or `dns confirm` does: dns/confirm.py).
    `lost` says why nothing will ever end an armed apply whose lock is found (its revert killed
    midway, or the rollback that disarmed it: dns/confirm.finishable); with `finish` (--rollback,
    --resume) that lock is taken over, and the apply finds its resolver half-done and restores
    it; without, the refusal names that way out."""
    held: list[Resolver] = []
    mine = _holder()
    try:
        for resolver in sorted(resolvers, key=lambda r: r.name):  # one order: no two applies deadlock
            try:
                _take(resolver, transports[resolver.name], mine, notes, lost, finish)
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
                if kept is None or resolver.name not in kept:
                    transports[resolver.name].remove(_path(resolver))
                transports[resolver.name].flush()


def _take(resolver: Resolver, transport: Transport, mine: bytes, notes: list[str], lost: Lost | None = None,
          finish: bool = False) -> None:
    path = _path(resolver)
    if resolver.shared_backup_dir is not None:
        _refuse_from_before_sharing(resolver, transport)
    for _ in range(2):
        if transport.create(path, mine):
            return
        raw = transport.read(path)
        if raw is None:
            continue  # released in between: try again
        holder = parse(raw)
        if armed_of(holder) is not None:  # a commit-confirmed apply's revert waits there (dns/confirm.py)
            why = lost(resolver, transport, holder, finish) if lost is not None else None
            if why is None:
                raise UnsafeError(armed_refusal(resolver, holder, revert_failed(transport, holder)))
            if not finish:
                raise UnsafeError(f"{resolver.name}: {_armed_text(resolver, holder)}, but {why}: finish it "
                                  f"with `renamer dns apply --resolvers {resolver.name} --rollback` (restore "
                                  "from the backup, reload, verify), or `--resume` (then apply again); "
                                  "nothing written")
            notes.append(f"{resolver.name}: took over the lock of the armed apply "
                         f"{(armed_of(holder) or {}).get('apply')}: {why}")
            transport.remove(path)
            continue
        state, why = judge(holder)
        if state != "gone":
            raise UnsafeError(_refusal(resolver, path, holder, state, why))
        if _step_running(resolver, transport):
            # its process is gone, but a step it started on the host (a slow restart) still runs:
            # taking over now would let that step finish in the middle of this apply
            step = posixpath.join(resolver.backup_dir, STEP)
            raise UnsafeError(f"{resolver.name}: the lock's holder (pid {holder.get('pid')} on "
                              f"{holder.get('host')}) is gone, but a step it started there still runs (it "
                              f"holds {step}: a test or a restart): wait for it to end, then apply again; "
                              "nothing written")
        notes.append(f"{resolver.name}: took over a stale lock of pid {holder.get('pid')} on "
                     f"{holder.get('host')} ({why}), started {holder.get('started')}")
        transport.remove(path)
    raise UnsafeError(f"{resolver.name}: cannot take the lock {path}: another apply keeps taking it")


def _refuse_from_before_sharing(resolver: Resolver, transport: Transport) -> None:
    """A backup_dir shared since (dns/resolvers.own_backup_dirs): each resolver keeps its lock and
    pending marker in `<backup_dir>/<name>` now, so a lock or marker still in the shared folder
    itself is an apply's from before, which nothing would see: refused, naming it."""
    shared = resolver.shared_backup_dir
    assert shared is not None
    for name in (LOCK, "renamer-apply-pending"):  # dns/plan.PENDING (plan cannot be imported here)
        left = posixpath.join(shared, name)
        if transport.read(left) is not None:
            raise UnsafeError(f"{resolver.name}: backup_dir {shared} is shared with other resolvers of its "
                              f"machine, so each keeps its lock and records in {shared}/<resolver> now, "
                              f"but {left} is still there, from an apply made before it was shared: end "
                              f"that apply first (confirm it, or move the file into {resolver.backup_dir} "
                              f"if it is {resolver.name}'s and apply with --rollback or --resume); nothing "
                              "written")


def _step_running(resolver: Resolver, transport: Transport) -> bool:
    """Does a step of a killed run still hold the step file (flock -n fails: exit 1)? A host
    without flock(1), or without the file, has none renamer can see."""
    step = posixpath.join(resolver.backup_dir, STEP)
    result = transport.run(["sh", "-c", '[ ! -e "$1" ] || ! command -v flock >/dev/null 2>&1 || '
                            'flock -n "$1" true', "renamer-step", step])
    return result.returncode == 1


def identity(pid: int) -> dict[str, object]:
    """What tells process `pid` of this machine from any other: the machine, its boot, and the
    process's start time (None where this system does not say)."""
    return {"machine": _first_line(*MACHINE_ID), "boot": _first_line(BOOT_ID), "pid_start": start_of(pid)}


def _holder() -> bytes:
    started = dt.datetime.now(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    try:
        user = getpass.getuser()
    except (KeyError, OSError):
        user = str(os.getuid())
    return (json.dumps({"host": socket.gethostname(), "pid": os.getpid(), "user": user,
                        "started": started, **identity(os.getpid())}) + "\n").encode()


def _first_line(*paths: str) -> str | None:
    for path in paths:
        try:
            with open(path, encoding="ascii", errors="replace") as handle:
                line = handle.readline().strip()
        except OSError:
            continue
        if line:
            return line
    return None


def start_of(pid: int) -> str | None:
    """The start time of process `pid` in clock ticks since boot (/proc/PID/stat field 22), as
    text; None when there is no such process or no /proc. Read after the last `)`: the command
    name before it may hold spaces and parentheses."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as handle:
            fields = handle.read().rsplit(")", 1)[-1].split()
    except OSError:
        return None
    return fields[19] if len(fields) > 19 and fields[19].isdigit() else None


def parse(raw: bytes) -> dict[str, object]:
    first = raw.decode("utf-8", "replace").strip().splitlines()
    try:
        data = json.loads(first[0]) if first else None
    except json.JSONDecodeError:
        return {}
    return data if isinstance(data, dict) else {}


def judge(holder: dict[str, object]) -> tuple[State, str]:
    """Does the lock's process provably run (live), provably not (gone), or can renamer not
    tell (unproven)? With the reason, as the messages say it."""
    pid, host = holder.get("pid"), holder.get("host")
    if not holder:
        return "unproven", "renamer cannot read who holds it"
    if host != socket.gethostname():
        where = f"on {host}" if isinstance(host, str) else "on the machine that took it"
        return "unproven", (f"its process runs, or ran, {where}, not on this machine, so renamer cannot "
                            "check it")
    machine, boot = _first_line(*MACHINE_ID), _first_line(BOOT_ID)
    if holder.get("machine") not in (None, machine):
        # the same host name, another machine (F8): its pid means nothing here
        return "unproven", (f"it was taken on another machine of the same name (machine id "
                            f"{holder.get('machine')}, this one's is {machine}), so renamer cannot check it")
    if not isinstance(pid, int) or isinstance(pid, bool) or pid <= 0:
        return "unproven", ("it names no process renamer can check (a playbook run by hand from an older "
                            "export?)")
    if holder.get("boot") not in (None, boot):
        return "unproven", ("it was taken before this machine last booted, or on a clone of it: renamer "
                            "cannot tell which")
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return "gone", "that process is gone"
    except PermissionError:
        pass  # it exists, another user's: its start time still says whether it is the holder
    now, then = start_of(pid), holder.get("pid_start")
    if isinstance(then, str) and now is not None:
        if now != then:
            return "gone", f"that process is gone: pid {pid} is now another process, started later"
        return "live", "it is running on this machine"
    return "unproven", (f"pid {pid} runs on this machine, but the lock does not say when its process "
                        f"started (an older renamer or export), so renamer cannot tell it from a reused pid: "
                        f"see `ps -o lstart=,args= -p {pid}`")


def _who(holder: dict[str, object]) -> str:
    if not holder:
        return "an unreadable holder"
    return (f"{holder.get('user', '?')}@{holder.get('host', '?')} pid {holder.get('pid', '?')}, "
            f"since {holder.get('started', '?')}{_age(holder)}")


def _refusal(resolver: Resolver, path: str, holder: dict[str, object], state: State, why: str) -> str:
    """Refused: the holder's process may be running. Where renamer can see it is (this machine and
    boot, that very process), wait; where it cannot tell, the person who can look is told what to
    look for and the exact command that clears it."""
    head = f"{resolver.name}: another dns apply holds the lock ({_who(holder)})"
    if state == "live":
        return f"{head}; it is running on this machine: wait for it to end; nothing written"
    started = _started(holder)
    old = started is not None and dt.datetime.now(dt.UTC) - started > MAX_AGE
    hours = int(MAX_AGE.total_seconds() // 3600)
    clear = shlex.join(by_hand(resolver, ["rm", "--", path]))
    return (f"{head}; {f'it is over {hours} h old, but ' if old else ''}{why}: once you know no apply runs "
            f"there, clear it with `{clear}` and apply again (a half-done resolver is then found and named); "
            "nothing written")


def _age(holder: dict[str, object]) -> str:
    started = _started(holder)
    if started is None:
        return ""
    minutes = max(0, int((dt.datetime.now(dt.UTC) - started).total_seconds() // 60))
    hours, minutes = divmod(minutes, 60)
    return f", {f'{hours} h ' if hours else ''}{minutes} min ago"


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


def armed_of(holder: dict[str, object]) -> dict[str, object] | None:
    """The `armed` part of a lock a commit-confirmed apply keeps (dns/confirm.py), or None."""
    value = holder.get("armed")
    return value if isinstance(value, dict) else None


def revert_failed(transport: Transport, holder: dict[str, object]) -> str | None:
    """REVERT.failed's line in the armed apply's folder (dns/confirm.py FAILED), or None."""
    folder = (armed_of(holder) or {}).get("folder")
    raw = transport.read(posixpath.join(folder, "REVERT.failed")) if isinstance(folder, str) else None
    return None if raw is None else raw.decode("utf-8", "replace").strip()


def armed_refusal(resolver: Resolver, holder: dict[str, object], failed: str | None = None) -> str:
    """Why a lock held for an armed revert refuses another apply: the apply, the deadline (by
    the resolver's clock), and what ends it; where its revert stopped (`failed`: REVERT.failed,
    a hand edit kept among others), that first."""
    if failed is not None:
        return (f"{resolver.name}: {_armed_text(resolver, holder)}, but its revert stopped: {failed}; "
                "the lock is kept (see `renamer dns status`); this apply is refused until it is confirmed or "
                "cleared; nothing written")
    deadline = (armed_of(holder) or {}).get("deadline")
    if isinstance(deadline, int) and dt.datetime.now(dt.UTC).timestamp() > deadline + OVERDUE:
        clear = shlex.join(by_hand(resolver, ["rm", "--", _path(resolver)]))
        return (f"{resolver.name}: {_armed_text(resolver, holder)}, but that time is past and the lock is "
                "still there: its revert did not run, or did not end (see `renamer dns status` and "
                "REVERT.log in the apply's backup folder); once you know it will not run, clear the lock "
                f"with `{clear}` (the apply is then found half-done: --rollback or --resume); nothing "
                "written")
    return (f"{resolver.name}: {_armed_text(resolver, holder)} (see `renamer dns status`); this apply is "
            "refused until then; nothing written")


def _armed_text(resolver: Resolver, holder: dict[str, object]) -> str:
    armed = armed_of(holder) or {}
    deadline = armed.get("deadline")
    when = (dt.datetime.fromtimestamp(deadline, dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
            if isinstance(deadline, int) else "?")
    return (f"a commit-confirmed apply ({armed.get('apply', '?')}, by {_who(holder)}) is armed there: it "
            f"reverts at {when} unless `renamer dns confirm --resolvers {resolver.name}` keeps it")


def holder_of(resolver: Resolver, transport: Transport) -> str | None:
    """Who holds this resolver's lock, as `dns plan` says it (None: nobody): an apply running
    now, or one killed outright that left it."""
    raw = transport.read(_path(resolver))
    if raw is None:
        return None
    holder = parse(raw)
    if armed_of(holder) is not None:
        return f"{_path(resolver)} is held: {_armed_text(resolver, holder)}"
    state, why = judge(holder)
    return f"{_path(resolver)} is held by {_who(holder)}" + (f" ({why})" if state != "unproven" else "")
