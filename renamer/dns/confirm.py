"""Commit-confirmed apply: `dns apply --confirm-within 10m` leaves, on each resolver it changed, a
revert that runs there by itself unless `renamer dns confirm` disarms it first.

The revert is no part of renamer's process: a fixed shell script (SCRIPT) written next to the
apply's backup on the resolver's machine, with its data in a file beside it (OPS: base64 fields,
as ssh_batch.py sends them, so nothing from the inventory is ever parsed by a shell as code).
It waits, claims the decision (the file DECIDED, created exclusively: a confirm that claimed it
first wins, and the revert then does nothing), restores each changed file from the backup byte
for byte (through a temporary file and a rename), runs the backend's activation commands (only
where the apply ran them), records the apply as rolled back (`renamer-apply-last`), drops the
pending marker and releases renamer's lock. A step that fails stops it there, says why in
REVERT.failed, and keeps the lock: the resolver is then refused to the next apply and listed
by `dns status`, never passed over.

It is started by LAUNCH, detached from the session that started it (`setsid nohup sh SCRIPT N`,
whose first step is `sleep N`), or, where systemd is PID 1 (/run/systemd/system exists) and
systemd-run is there, as a transient timer (`systemd-run --on-active=N --unit renamer-revert-...`).
Either way, the operator's session, renamer's process, the ssh connection and the mesh may all
die: the resolver reverts by itself. The lock names what was armed (`armed`: the apply, its
deadline by the resolver's clock, the pid or unit, the script); `dns confirm` claims the
decision, stops that process (its /proc/PID/cmdline must still name the script: a pid reused
since is never killed) or unit, records the apply as applied, and releases the lock.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import hashlib
import json
import posixpath
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal

from renamer import lazy_re
from renamer.dns import applies
from renamer.dns.backend import backend_for
from renamer.dns.inventory import Resolver
from renamer.dns.lock import LOCK, OVERDUE, armed_of, judge, parse
from renamer.dns.plan import PENDING, ResolverPlan, backup_name
from renamer.dns.ssh_batch import Op, encode
from renamer.dns.transport import Transport, TransportError, Unreachable
from renamer.errors import ConfigError, UnsafeError

SCRIPT_NAME = "REVERT"  # in the apply's backup folder: the revert script
OPS = "REVERT.ops"  # its data
LOG = "REVERT.log"  # what it said (the detached way; systemd's journal otherwise)
FAILED = "REVERT.failed"  # why it stopped, where a step failed
DECIDED = "DECIDED"  # `confirmed ...` or `reverting ...`: whoever created it first decides
DEADLINE = "DEADLINE"  # the deadline pushed on while the apply's batch goes on (push)
PUSH_SETTLE = 1.5  # seconds a revert that claimed just before a push takes to see it and let go
SYSTEMD = "/run/systemd/system"  # exists where systemd is PID 1 (sd_booted(3))
LONGEST = 24 * 3600  # --confirm-within at most a day: a revert armed for longer is a mistake
_WITHIN = lazy_re.compile(r"([1-9][0-9]{0,5})([smh])")
_UNIT = {"s": 1, "m": 60, "h": 3600}

How = Literal["detached", "systemd"]

# The revert, run on the resolver's machine as `sh SCRIPT SECONDS` (0 under a systemd timer).
# Constant text: its data come from OPS beside it, one operation a line, each field base64
# (`=` + base64): F restore a file (backup, target, sha256 of what the apply wrote there or
# `absent`), D remove a file (one the apply added; the sha256 of what it wrote),
# X run an argv (the activation), E write a file (renamer-apply-last), P remove the pending
# marker, L release the lock (only while it names this apply).
SCRIPT = r"""# renamer: the commit-confirmed revert of one `renamer dns apply --confirm-within` (see
# renamer/dns/confirm.py). Unless `renamer dns confirm` decides first, it restores the files that
# apply changed from the backup in this folder, reactivates the daemon, and releases the lock.
sleep "${1:-0}"
here=$(dirname -- "$0")
d() { printf '%s' "${1#=}" | base64 -d; }
now() { date -u +%Y-%m-%dT%H:%M:%SZ; }
# The deadline the apply pushed on (DEADLINE, seconds since the epoch by this machine's clock):
# while its batch is still being applied, the window does not run out under it.
later() { dl=$(cat -- "$here/DEADLINE" 2>/dev/null) && [ "$(date +%s)" -lt "$dl" ] 2>/dev/null; }
while later; do sleep 1; done
# Its data opened first (`command`: a failed redirection must not end the shell before it says
# why): a REVERT.ops gone is a failure said in REVERT.failed, never a `done`.
if ! command exec 3< "$here/REVERT.ops"; then
  printf '%s %s\n' "$(now)" "cannot read REVERT.ops: nothing restored" > "$here/REVERT.failed"
  echo "renamer revert: FAILED: cannot read $here/REVERT.ops (the lock is kept)"; exit 1
fi
# Its lock and apply, from the L line: before it claims the decision and before each step, the
# lock must still name this apply (a revert resumed late, after the lock was cleared and another
# apply ran, does nothing) and DECIDED must still be its own claim.
set -- $(grep '^L ' "$here/REVERT.ops"); lock=$(d "${2:-=}"); id=$(d "${3:-=}")
named() { [ -n "$id" ] && grep -qF -- "\"apply\": \"$id\"" "$lock" 2>/dev/null; }
# What a file holds now, as the apply recorded what it wrote (sha256, or `absent`).
digest() {
  if [ ! -e "$1" ] && [ ! -L "$1" ]; then echo absent; return; fi
  if s=$(sha256sum < "$1" 2>/dev/null); then printf '%s\n' "${s%% *}"; else echo unreadable; fi
}
if [ -e "$here/DECIDED" ]; then  # a confirm or a rollback decided first
  echo "renamer revert: $(cat -- "$here/DECIDED" 2>/dev/null) first: nothing done"; exit 0
fi
if ! named; then
  if [ -e "$lock" ]; then  # another apply's, or unreadable (truncated): said where status finds it
    why="the lock $lock does not name apply $id (another apply's, or unreadable): nothing restored"
    printf '%s %s\n' "$(now)" "$why" > "$here/REVERT.failed"
  fi
  echo "renamer revert: the lock no longer names apply $id: nothing done $(now)"; exit 0
fi
# Before anything is claimed or restored: each file must still be what the apply wrote. One
# edited since (a hand fix made while armed) is never overwritten: nothing is restored on this
# resolver, the edit is kept, and REVERT.failed says which file (the lock is kept: status names
# it, and `renamer dns confirm` keeps the apply with the edit).
edited=
while IFS=' ' read -r op f1 f2 f3 rest <&4; do
  case $op in
  F) want=$(d "${f3:-=}"); dst=$(d "$f2");;
  D) want=$(d "${f2:-=}"); dst=$(d "$f1");;
  *) continue;;
  esac
  [ -n "$want" ] || continue  # a revert armed before digests were recorded
  got=$(digest "$dst")
  if [ "$got" != "$want" ]; then edited="$edited $dst"; fi
done 4< "$here/REVERT.ops"
if [ -n "$edited" ]; then
  why="edited since apply $id wrote it:$edited (sha256 differs): nothing restored, the edit kept"
  printf '%s %s\n' "$(now)" "$why" > "$here/REVERT.failed"
  echo "renamer revert: FAILED: $why (the lock is kept: see renamer dns status)"; exit 1
fi
mine="reverting $(now) pid $$"
t=$(mktemp "$here/.DECIDED.XXXXXX") || exit 1
printf '%s\n' "$mine" > "$t"
if ! ln -- "$t" "$here/DECIDED" 2>/dev/null; then
  rm -f -- "$t"; echo "renamer revert: $(cat -- "$here/DECIDED" 2>/dev/null) first: nothing done"; exit 0
fi
rm -f -- "$t"
if later; then  # pushed on meanwhile (the apply's batch went on): the claim back, wait again
  if [ "$(cat -- "$here/DECIDED" 2>/dev/null)" = "$mine" ]; then rm -f -- "$here/DECIDED"; fi
  echo "renamer revert: the deadline was pushed on to $(cat -- "$here/DEADLINE"): waiting $(now)"
  exec 3<&- && exec sh "$0" 0
fi
echo "renamer revert: started $(now)"
fail=
while IFS=' ' read -r op f1 f2 rest <&3; do
  if [ "$(cat -- "$here/DECIDED" 2>/dev/null)" != "$mine" ]; then
    echo "renamer revert: DECIDED is no longer its own claim: stopped $(now)"; exit 0
  fi
  if ! named; then
    echo "renamer revert: the lock no longer names apply $id: stopped $(now)"; exit 0
  fi
  case $op in
  F) src=$(d "$f1"); dst=$(d "$f2"); tmp="$(dirname -- "$dst")/.$(basename -- "$dst").revert.$$"
     if cat -- "$src" > "$tmp" && chmod 644 -- "$tmp" && mv -f -- "$tmp" "$dst"; then
       echo "restored $dst"
     else rm -f -- "$tmp"; fail="cannot restore $dst from $src"; fi;;
  D) dst=$(d "$f1"); if rm -f -- "$dst"; then echo "removed $dst"; else fail="cannot remove $dst"; fi;;
  X) set --; for w in $f1 $f2 $rest; do set -- "$@" "$(d "$w")"; done
     if "$@" < /dev/null 3<&-; then echo "ran $*"; else fail="exit status $? from: $*"; fi;;
  E) dst=$(d "$f1"); tmp="$dst.revert.$$"
     if d "$f2" > "$tmp" && mv -f -- "$tmp" "$dst"; then :
     else rm -f -- "$tmp"; fail="cannot write $dst"; fi;;
  P) rm -f -- "$(d "$f1")" || fail="cannot remove the pending marker";;
  L) rm -f -- "$lock" || fail="cannot remove $lock";;
  esac
  if [ -n "$fail" ]; then
    printf '%s %s\n' "$(now)" "$fail" > "$here/REVERT.failed"
    echo "renamer revert: FAILED: $fail (the lock is kept: see renamer dns status)"; exit 1
  fi
done
echo "renamer revert: done $(now)"
"""

# Started through the transport as `sh -c LAUNCH renamer-arm SCRIPT SECONDS UNIT LOG SYSTEMD`;
# prints `detached PID EPOCH` or `systemd UNIT EPOCH` (the resolver's clock when armed).
LAUNCH = r"""script=$1 secs=$2 unit=$3 log=$4 marker=$5
if [ -d "$marker" ] && command -v systemd-run >/dev/null 2>&1; then
  if systemd-run --quiet --collect --unit="$unit" --on-active="$secs" -- /bin/sh "$script" 0 \
      > /dev/null 2>&1; then
    printf 'systemd %s %s\n' "$unit" "$(date +%s)"; exit 0
  fi
  echo "systemd-run failed: starting it detached instead" >> "$log"
fi
setsid nohup sh "$script" "$secs" < /dev/null >> "$log" 2>&1 &
printf 'detached %s %s\n' "$!" "$(date +%s)"
"""

# Whether pid N is the revert (`sh -c ALIVE renamer-alive PID SCRIPT`): its argv exactly
# `sh SCRIPT SECONDS` (or `/bin/sh SCRIPT 0`) and it leads its own process group, as setsid made
# it. Prints `mine`, `stopped` (it, in state T: SIGSTOP, a frozen cgroup, a debugger: it runs
# nothing until continued), `gone` or `other` (a pid reused since, even by a reader of the script).
ALIVE = r"""pid=$1 script=$2
if [ ! -r "/proc/$pid/cmdline" ]; then echo gone; exit 0; fi
set -- $(sed 's/.*) //' "/proc/$pid/stat" 2>/dev/null)
got=$(tr '\000' '\n' < "/proc/$pid/cmdline") nl='
'
for sh in sh /bin/sh; do
  case $got in
  "$sh$nl$script$nl"*) secs=${got#"$sh$nl$script$nl"}
     case $secs in ''|*[!0-9]*) ;; *) if [ "${3:-}" = "$pid" ]; then
       case ${1:-} in T|t) echo stopped;; *) echo mine;; esac; exit 0; fi;; esac;;
  esac
done
echo other
"""

# Run through the transport as `sh -c DISARM renamer-disarm PID SCRIPT ALIVE`: stops the detached
# revert only while ALIVE says the pid is it (a pid reused since is left alone). SIGKILL, of its
# process group (the script and its sleep): the decision is claimed already, so it has nothing to
# clean up, and it may ignore SIGTERM (started while renamer ignored it, which a non-interactive
# shell keeps: a stray SIGTERM or Ctrl-C never stops a revert halfway).
DISARM = r"""case $(sh -c "$3" renamer-alive "$1" "$2") in
mine|stopped) kill -KILL "-$1" 2>/dev/null || kill -KILL "$1"; echo stopped;;
gone) echo gone;;
*) echo other;;
esac
"""


def parse_within(text: str) -> int:
    """`--confirm-within`: a whole number and one unit, s, m or h (`3s`, `10m`, `1h`), at most a day."""
    match = _WITHIN.fullmatch(text)
    seconds = int(match.group(1)) * _UNIT[match.group(2)] if match else 0
    if not match:
        raise ConfigError(f"--confirm-within: expected a whole number and a unit, s, m or h (3s, 10m, 1h); "
                          f"got {text!r}")
    if seconds > LONGEST:
        raise ConfigError(f"--confirm-within: {text} is longer than a day (24h): a revert armed that long "
                          "outlives the operator's attention; confirm sooner")
    return seconds


@dataclass(frozen=True)
class Armed:
    """What the lock of a resolver says was armed there."""

    apply_id: str
    sequence: int
    seconds: int
    deadline: int  # the resolver's clock (seconds since the epoch) when the revert runs
    how: How
    pid: int | None  # the detached script's (its process group's leader)
    unit: str | None  # the systemd unit's name
    script: str
    folder: str

    def document(self) -> dict[str, object]:
        return {"apply": self.apply_id, "sequence": self.sequence, "seconds": self.seconds,
                "deadline": self.deadline, "how": self.how, "pid": self.pid, "unit": self.unit,
                "script": self.script, "folder": self.folder}

    @property
    def when(self) -> str:
        return stamp(self.deadline)


def stamp(epoch: int) -> str:
    return dt.datetime.fromtimestamp(epoch, dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def armed(holder: dict[str, Any]) -> Armed | None:
    """The Armed of a lock's holder, or None (a plain apply's lock, or one renamer cannot read)."""
    data = armed_of(holder)
    if data is None:
        return None
    try:
        how = data["how"]
        return Armed(str(data["apply"]), _int(data["sequence"]), _int(data["seconds"]),
                     _int(data["deadline"]), how if how in ("detached", "systemd") else "detached",
                     _int(data["pid"]) if isinstance(data.get("pid"), int) else None,
                     str(data["unit"]) if isinstance(data.get("unit"), str) else None,
                     str(data["script"]), str(data["folder"]))
    except (KeyError, TypeError, ValueError):
        return None


def _int(value: object) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise ValueError(value)
    return value


def armed_here(resolver: Resolver, transport: Transport) -> Armed | None:
    """What is armed at this resolver now (its lock read), or None."""
    raw = transport.read(posixpath.join(resolver.backup_dir, LOCK))
    return None if raw is None else armed(parse(raw))


def refuse_unsupported(resolvers: Sequence[Resolver]) -> None:
    """Before anything is read or written: a resolver without files on a machine (an API backend)
    has nowhere a revert could run by itself; refused, naming it."""
    for resolver in resolvers:
        if not backend_for(resolver).has_files:
            raise UnsafeError(f"{resolver.name}: --confirm-within needs a revert that runs on the "
                              f"resolver's own machine, and backend: {resolver.backend} is reached through "
                              "its API only: apply it without --confirm-within (or leave it out with "
                              "--resolvers); nothing written")


def _ops(plan: ResolverPlan, folder: str, apply_id: str, sequence: int, restarted: bool,
         prepared: dict[str, str]) -> bytes:
    """The revert's data: each changed file back from the backup (or the prepared copy a backend
    that restores past needs), the files the apply added removed, the activation where the
    apply ran it, then the record, the marker and the lock."""
    resolver = plan.resolver
    lines: list[list[str]] = []
    for name in plan.changed:
        wrote = plan.desired[name]  # what the apply writes there: the revert restores only over it
        digest = "absent" if wrote is None else hashlib.sha256(wrote.encode("utf-8")).hexdigest()
        if plan.current[name] is None:
            lines.append(["D", plan.path(name), digest])
        else:
            saved = prepared.get(name, posixpath.join(folder, backup_name(name)))
            lines.append(["F", saved, plan.path(name), digest])
    if restarted:
        present = [n for n in plan.current if "/" not in n and plan.current[n] is not None]
        for argv in backend_for(resolver).activation(resolver, plan.changed, present):
            lines.append(["X", *argv])
    lines.append(["E", posixpath.join(resolver.backup_dir, applies.LAST),
                  f"{sequence} {apply_id} rolled back\n"])
    lines.append(["P", posixpath.join(resolver.backup_dir, PENDING)])
    lines.append(["L", posixpath.join(resolver.backup_dir, LOCK), apply_id])
    return encode([Op(line[0], tuple(w.encode("utf-8", "surrogateescape") for w in line[1:]))
                   for line in lines])


def arm(plan: ResolverPlan, transport: Transport, *, folder: str, apply_id: str, sequence: int,
        restarted: bool, seconds: int, systemd_marker: str | None = None) -> Armed:
    """Write the revert next to the backup, say in the lock what is armed, start it, and name its
    pid (or unit) in the lock. A TransportError or UnsafeError says what failed; a revert that was
    started is then disarmed again (the caller rolls the resolver back itself)."""
    resolver = plan.resolver
    backend = backend_for(resolver)
    lock_path = posixpath.join(resolver.backup_dir, LOCK)
    prepared: dict[str, str] = {}
    if backend.restores_past:  # BIND: the serial moves past what this apply wrote (Backend.restored)
        for name in plan.changed:
            saved, wrote = plan.current[name], plan.desired[name]
            if saved is not None:
                data = backend.restored(name, saved, None if wrote is None else wrote.encode("utf-8"))
                if data != saved:
                    prepared[name] = posixpath.join(folder, backup_name(name) + ".revert")
                    transport.write(prepared[name], data)
    script = posixpath.join(folder, SCRIPT_NAME)
    transport.write(posixpath.join(folder, OPS), _ops(plan, folder, apply_id, sequence, restarted, prepared))
    transport.write(script, SCRIPT.encode("ascii"))
    holder = parse(transport.read(lock_path) or b"")
    if not holder or armed_of(holder) is not None:
        raise UnsafeError(f"{resolver.name}: the lock {lock_path} is not this apply's any more: "
                          "nothing armed")
    unit = "renamer-revert-" + re.sub(r"[^A-Za-z0-9_.-]", "_", f"{resolver.name}-{apply_id}")
    # Said in the lock before it starts: a kill of renamer from here on leaves a lock that names
    # this apply, which the revert then releases, or (never started) says what was meant.
    first = Armed(apply_id, sequence, seconds, int(time.time()) + seconds, "detached", None, None,
                  script, folder)
    transport.write(lock_path, _holder_text(holder, first))
    transport.flush()
    try:
        done = _launch(resolver, transport, first, unit, systemd_marker or SYSTEMD)
        transport.write(lock_path, _holder_text(holder, done))
        transport.flush()
    except (TransportError, UnsafeError):
        # Whatever was started must never run now: the caller rolls this resolver back itself.
        with contextlib.suppress(TransportError):
            claim(transport, first, "aborted")  # a pid it may not know: the claim stops it
        raise
    return done


def push(resolver: Resolver, transport: Transport, what: Armed) -> Armed | str:
    """Push the armed revert's deadline on to the full window from now (the resolver's clock):
    its DEADLINE file, which it waits for, and the lock. The pushed Armed; or, where its revert
    claimed the decision already and did not let go (it started: the window ran out before the
    push), what DECIDED says."""
    deadline = _clock(transport) + what.seconds
    transport.write(posixpath.join(what.folder, DEADLINE), f"{deadline}\n".encode())
    pushed = replace(what, deadline=deadline)
    lock_path = posixpath.join(resolver.backup_dir, LOCK)
    holder = parse(transport.read(lock_path) or b"")
    now_armed = armed(holder)
    if now_armed is not None and now_armed.apply_id == what.apply_id:
        transport.write(lock_path, _holder_text(holder, replace(now_armed, deadline=deadline)))
    transport.flush()
    decided = posixpath.join(what.folder, DECIDED)
    said = transport.read(decided)
    if said is not None:  # a revert that claimed just before the push sees it and lets go at once
        time.sleep(PUSH_SETTLE)
        said = transport.read(decided)
    return pushed if said is None else (said.decode("utf-8", "replace").strip() or "decided")


def _launch(resolver: Resolver, transport: Transport, first: Armed, unit: str, systemd_marker: str) -> Armed:
    started = transport.run(["sh", "-c", LAUNCH, "renamer-arm", first.script, str(first.seconds), unit,
                             posixpath.join(first.folder, LOG), systemd_marker])
    words = started.stdout.decode("utf-8", "replace").split()
    if not started.ok or len(words) != 3 or not words[2].isdigit():
        raise TransportError(f"{resolver.name}: cannot start the revert ({started.tail()})")
    how: How = "systemd" if words[0] == "systemd" else "detached"
    pid = int(words[1]) if how == "detached" and words[1].isdigit() else None
    return replace(first, deadline=int(words[2]) + first.seconds, how=how, pid=pid,
                   unit=words[1] if how == "systemd" else None)


def _holder_text(holder: dict[str, Any], what: Armed) -> bytes:
    return (json.dumps({**holder, "armed": what.document()}) + "\n").encode()


def claim(transport: Transport, what: Armed, word: str) -> str | None:
    """Create DECIDED (`word` and the time), exclusively: None when this call did; else what it
    says (the revert's `reverting ...`, or an earlier confirm's `confirmed ...`)."""
    decided = posixpath.join(what.folder, DECIDED)
    if transport.create(decided, f"{word} {stamp(int(time.time()))}\n".encode()):
        return None
    said = transport.read(decided)
    return (said or b"").decode("utf-8", "replace").strip() or "decided"


def halt(transport: Transport, what: Armed) -> str:
    """Stop the revert's unit, or its process group while /proc/PID/cmdline names its script; what
    was done, in words."""
    if what.how == "systemd" and what.unit:
        done = transport.run(["systemctl", "stop", f"{what.unit}.timer", f"{what.unit}.service"])
        return f"unit {what.unit} stopped" if done.ok else f"unit {what.unit}: {done.tail()}"
    if what.pid is None:
        return "no pid was recorded (it never started)"
    done = transport.run(["sh", "-c", DISARM, "renamer-disarm", str(what.pid), what.script, ALIVE])
    word_back = done.stdout.decode("utf-8", "replace").strip()
    told = {"stopped": f"pid {what.pid} stopped", "gone": f"pid {what.pid} had ended",
            "other": f"pid {what.pid} is now another process: left alone"}
    return told.get(word_back, f"pid {what.pid}: {done.tail()}")


State = Literal["free", "held", "armed", "reverting", "overdue", "revert failed", "revert lost",
                "confirm unfinished", "unreachable", "not read"]


@dataclass
class LockState:
    """What `dns status` says of one resolver."""

    resolver: Resolver
    state: State
    holder: dict[str, Any]
    armed: Armed | None = None
    now: int = 0  # the resolver's clock
    failed: str | None = None  # REVERT.failed's line
    error: str | None = None  # unreachable, or the lock unreadable
    last: str | None = None  # renamer-apply-last, as it stands

    @property
    def left(self) -> int | None:
        return None if self.armed is None else self.armed.deadline - self.now

    @property
    def ok(self) -> bool:  # a lock renamer cannot read needs a look: nobody can tell who holds it
        return self.state in ("free", "held", "armed", "reverting", "not read") and not (
            self.state == "held" and not self.holder)

    def document(self) -> dict[str, object]:
        holder = {k: self.holder.get(k) for k in ("user", "host", "pid", "started")} if self.holder else None
        return {"resolver": self.resolver.name, "target": self.resolver.target, "state": self.state,
                "holder": holder, "armed": None if self.armed is None else {
                    **self.armed.document(), "deadline": self.armed.when, "seconds_left": self.left},
                "failed": self.failed, "error": self.error, "last": self.last}


def _clock(transport: Transport) -> int:
    done = transport.run(["date", "+%s"])
    text = done.stdout.decode("ascii", "replace").strip()
    return int(text) if done.ok and text.isdigit() else int(time.time())


def state_of(resolver: Resolver, transport: Transport) -> LockState:
    """Read one resolver's lock, its armed revert and that revert's end, as they stand."""
    raw = transport.read(posixpath.join(resolver.backup_dir, LOCK))
    last_raw = transport.read(posixpath.join(resolver.backup_dir, applies.LAST))
    last = last_raw.decode("utf-8", "replace").strip() if last_raw else None
    if raw is None:
        return LockState(resolver, "free", {}, last=last)
    holder = parse(raw)
    what = armed(holder)
    if what is None:
        return LockState(resolver, "held", holder, last=last,
                         error=None if holder else "renamer cannot read who holds the lock")
    now = _clock(transport)
    failed = transport.read(posixpath.join(what.folder, FAILED))
    if failed is not None:
        return LockState(resolver, "revert failed", holder, what, now,
                         failed.decode("utf-8", "replace").strip(), last=last)
    decided = transport.read(posixpath.join(what.folder, DECIDED))
    if decided is not None and decided.startswith(b"confirmed"):  # a confirm claimed it, then stopped
        return LockState(resolver, "confirm unfinished", holder, what, now, last=last, error=(
            f"a confirm claimed the decision ({decided.decode('utf-8', 'replace').strip()}) but did not "
            f"finish: nothing reverts; run `renamer dns confirm --resolvers {resolver.name}` again"))
    late = now > what.deadline + OVERDUE
    lost = _lost(transport, what)
    if lost is not None and transport.read(posixpath.join(resolver.backup_dir, LOCK)) != raw:
        return state_of(resolver, transport)  # it ended meanwhile: read again
    finish = finishable(resolver, transport, holder) if lost is not None else None
    rollback = f"`renamer dns apply --resolvers {resolver.name} --rollback`"
    if lost is not None and finish is not None:  # only the next apply's --rollback ends it
        return LockState(resolver, "overdue" if late else "revert lost", holder, what, now, last=last, error=(
            f"{finish}: finish the rollback with {rollback} (restore from the backup, reload, verify)"))
    if lost is not None and decided is not None and not decided.startswith(b"confirmed"):
        # claimed by an in-run rollback whose dns apply may still run (or renamer cannot tell)
        return LockState(resolver, "overdue" if late else "reverting", holder, what, now, last=last, error=(
            f"{decided.decode('utf-8', 'replace').strip()}: a dns apply rolls it back (the lock's holder "
            f"may still run); wait for it; once it is known to have ended, {rollback} finishes it"))
    if lost is not None and late:  # a minute past its deadline: `overdue`, and why
        return LockState(resolver, "overdue", holder, what, now, last=last, error=f"{lost}")
    if lost is not None:
        return LockState(resolver, "revert lost", holder, what, now, last=last, error=(
            f"{lost}: nothing will revert apply {what.apply_id} there; keep it with `renamer dns confirm "
            f"--resolvers {resolver.name}`, or, once its deadline has passed, roll it back with {rollback}"))
    if decided is not None and decided.startswith(b"reverting") and not late:
        return LockState(resolver, "reverting", holder, what, now, last=last)
    return LockState(resolver, "overdue" if late else "armed", holder, what, now, last=last)


def _lost(transport: Transport, what: Armed) -> str | None:
    """Why nothing will run the revert armed there (its files gone, its process or unit not
    running, never started), or None while it is waiting or running."""
    for name in (SCRIPT_NAME, OPS):
        if transport.read(posixpath.join(what.folder, name)) is None:
            return f"its revert's {name} in {what.folder} is gone"
    if what.how == "systemd" and what.unit:
        done = transport.run(["systemctl", "is-active", f"{what.unit}.timer", f"{what.unit}.service"])
        states = done.stdout.decode("utf-8", "replace").split()
        if any(word in ("active", "activating", "reloading") for word in states):
            return None
        return f"its revert's unit {what.unit} is not active ({' '.join(states) or done.tail()})"
    if what.pid is None:
        return "its revert was never started (no pid in the lock)"
    done = transport.run(["sh", "-c", ALIVE, "renamer-alive", str(what.pid), what.script])
    word = done.stdout.decode("utf-8", "replace").strip()
    if word == "mine":
        return None
    if word == "stopped":
        return (f"its revert (pid {what.pid}) is stopped (state T: SIGSTOP, a frozen cgroup or a debugger): "
                "it runs nothing until it is continued")
    if word == "other":
        return f"its revert (pid {what.pid}) is not running: that pid is now another process"
    if word == "gone":
        return f"its revert (pid {what.pid}) is not running"
    return f"cannot tell whether its revert (pid {what.pid}) runs: {done.tail()}"


def finishable(resolver: Resolver, transport: Transport, holder: dict[str, Any],
               take: bool = False) -> str | None:
    """Why nothing will ever end the armed apply this lock names, so that `dns apply --rollback`
    (or `--resume`) may take the lock over and finish it from the backup (restore, reload,
    verify: run.restore_interrupted); None while anything may still end it (its revert waits,
    runs or is stopped; a confirm claimed it; an in-run rollback's renamer may still run; its
    revert stopped on a hand edit, REVERT.failed: that is the operator's to decide).

    Two half states have no other way out: the revert killed midway (it claimed DECIDED
    `reverting`, restored some files, never reloaded: the daemon serves what the apply wrote)
    and renamer killed in an in-run rollback (it claimed `aborted` and halted the revert).
    `take` (the apply about to take the lock over): a revert stopped (state T) is killed first,
    so that it never goes on over what the rollback writes."""
    why = _finishable(transport, holder)
    if why is not None and take:
        what = armed(holder)
        assert what is not None
        halt(transport, what)
    return why


def _finishable(transport: Transport, holder: dict[str, Any]) -> str | None:
    what = armed(holder)
    if what is None or transport.read(posixpath.join(what.folder, FAILED)) is not None:
        return None
    lost = _lost(transport, what)
    if lost is None:
        return None
    raw = transport.read(posixpath.join(what.folder, DECIDED))
    decided = None if raw is None else raw.decode("utf-8", "replace").strip() or "decided"
    if decided is not None and decided.startswith("confirmed"):
        return None  # a confirm claimed it: `dns confirm` again ends it, keeping the apply
    gone = judge(holder)[0] == "gone"
    if decided is not None and decided.startswith("aborted"):
        if not gone:  # the apply rolling it back may still run (or renamer cannot tell)
            return None
        return (f"the rollback of apply {what.apply_id} by dns apply (pid {holder.get('pid')}) claimed it "
                f"({decided}), halted its revert and did not finish: nothing reverts it")
    if not gone and _clock(transport) <= what.deadline:
        return None  # not due yet, and the apply that armed it may still push it on
    if decided is not None:
        return (f"its revert claimed it ({decided}) and is no longer running ({lost}): it did not finish, "
                "so the files on disk may be restored while the daemon still serves what the apply wrote")
    return f"{lost}: nothing will revert apply {what.apply_id}"


def status(resolvers: Sequence[Resolver], transport_of: Callable[[Resolver], Transport]) -> list[LockState]:
    out = []
    for resolver in resolvers:
        if not backend_for(resolver).has_files:  # its lock is the zones' metadata, on the server
            out.append(LockState(resolver, "not read", {}, error=(
                f"backend: {resolver.backend}: its lock lives in the zones' metadata on the server "
                "(X-RENAMER-LOCK), which dns status does not read; nothing is ever armed there "
                "(--confirm-within is refused for it)")))
            continue
        transport = transport_of(resolver)
        try:
            out.append(state_of(resolver, transport))
        except TransportError as exc:
            out.append(LockState(resolver, "unreachable", {}, error=str(exc)))
        finally:
            transport.close()
    return out


@dataclass
class Confirmed:
    """What `dns confirm` did on one resolver."""

    resolver: Resolver
    ok: bool
    line: str


def confirm_one(resolver: Resolver, transport: Transport) -> Confirmed:
    """Disarm the revert armed on this resolver: claim the decision, stop the revert, record the
    apply as applied there, release the lock."""
    name = resolver.name
    lock_path = posixpath.join(resolver.backup_dir, LOCK)
    raw = transport.read(lock_path)
    holder = parse(raw) if raw is not None else {}
    what = armed(holder)
    if what is None:
        return _nothing_armed(resolver, transport, raw is not None)
    lost = claim(transport, what, "confirmed")
    if lost is not None and not lost.startswith("confirmed") and _lost(transport, what) is not None:
        finish = finishable(resolver, transport, holder)
        if finish is not None:
            return Confirmed(resolver, False, f"{name}: not confirmed, not rolled back: {finish}; finish the "
                                              f"rollback with `renamer dns apply --resolvers {name} "
                                              "--rollback` (restore, reload, verify)")
        if lost.startswith("aborted"):
            return Confirmed(resolver, False, f"{name}: too late: a dns apply rolls apply {what.apply_id} "
                                              f"back there ({lost}); see `renamer dns status`")
    if lost is not None and not lost.startswith("confirmed"):
        failed = transport.read(posixpath.join(what.folder, FAILED))
        why = f"; it failed: {failed.decode('utf-8', 'replace').strip()}" if failed else ""
        return Confirmed(resolver, False, f"{name}: too late: the revert of apply {what.apply_id} started "
                                          f"first ({lost}){why}: it is rolled back there, or being rolled "
                                          "back; see `renamer dns status`, then apply again")
    stopped = halt(transport, what)  # also where an earlier confirm claimed it and stopped short
    applies.end(resolver, transport, what.apply_id, "applied", what.sequence)
    now = parse(transport.read(lock_path) or b"")
    again = armed(now)
    if again is not None and again.apply_id == what.apply_id:
        transport.remove(lock_path)
    transport.flush()
    return Confirmed(resolver, True, f"{name}: confirmed apply {what.apply_id}: its revert (due {what.when}) "
                                     f"disarmed ({stopped}), the lock released")


def _nothing_armed(resolver: Resolver, transport: Transport, held: bool) -> Confirmed:
    name = resolver.name
    raw = transport.read(posixpath.join(resolver.backup_dir, LOCK)) if held else None
    if held and not parse(raw or b""):
        return Confirmed(resolver, False, f"{name}: its lock cannot be read (see `renamer dns status`): "
                                          "renamer cannot tell what is armed there; nothing confirmed")
    if held:
        return Confirmed(resolver, False, f"{name}: nothing armed there: its lock is held by an apply "
                                          "without --confirm-within (see `renamer dns status`); nothing "
                                          "confirmed")
    last = applies.last_apply(resolver, transport)
    if last is not None and last.outcome == "rolled back":
        decided = transport.read(posixpath.join(applies.folder_of(resolver, last.apply_id), DECIDED))
        if decided is not None and decided.startswith(b"reverting"):
            return Confirmed(resolver, False, f"{name}: too late: the revert of apply {last.apply_id} ran "
                                              f"({decided.decode('utf-8', 'replace').strip()}): it is rolled "
                                              "back there; apply again")
    return Confirmed(resolver, False, f"{name}: nothing armed there (no lock); nothing confirmed")


def confirm(resolvers: Sequence[Resolver], transport_of: Callable[[Resolver], Transport]) -> list[Confirmed]:
    out = []
    for resolver in resolvers:
        transport = transport_of(resolver)
        try:
            out.append(confirm_one(resolver, transport))
        except Unreachable as exc:
            out.append(Confirmed(resolver, False, f"{resolver.name}: unreachable: {exc}; nothing confirmed"))
        except TransportError as exc:
            again = f"renamer dns confirm --resolvers {resolver.name}"
            out.append(Confirmed(resolver, False, f"{resolver.name}: {exc}: run `{again}` again (a confirm "
                                                  "that claimed the decision goes on where it stopped; "
                                                  "`renamer dns status` says where)"))
        finally:
            transport.close()
    return out
