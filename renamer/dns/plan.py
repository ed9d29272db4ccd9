"""dns plan: what each resolver has now (read through its backend and transport), and what
it should have. Writes nothing; dns/rollout.py applies the plans."""

from __future__ import annotations

import datetime as dt
import hashlib
import posixpath
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from renamer import lazy_re
from renamer.clock import shown_time
from renamer.diffs import unified
from renamer.dns.backend import HandLine, backend_for
from renamer.dns.inventory import Inventory, Resolver
from renamer.dns.transport import Transport, TransportError, Unreachable
from renamer.errors import UnsafeError

PENDING = "renamer-apply-pending"  # in backup_dir while an apply has this resolver half-done


@dataclass
class ResolverPlan:
    resolver: Resolver
    desired: dict[str, str | None]  # None: a snippet of renamer's that must go (site removed)
    current: dict[str, bytes | None]
    interrupted: str | None = None  # the backup of an earlier apply that was killed midway
    problem: str | None = None  # why a snippet written here would not take effect (Backend.inspect)
    warnings: list[str] = field(default_factory=list)
    stale: list[str] = field(default_factory=list)  # hand-written records naming old values: file:line
    held: str | None = None  # its lock, left by an apply (dns/served.py)
    not_served: list[str] = field(default_factory=list)  # up-to-date snippets it does not serve, by DNS
    unreachable: str | None = None  # its machine could not be reached: nothing is known of it
    down: str | None = None  # it does not answer over DNS now (dns/served.py): apply would refuse it
    # its configuration as it stands fails its test, or backup_dir has no room (dns/preflight.refusal)
    preflight: str | None = None
    # what its hand-written records (`stale`) that the apply leaves in place (no --retire-stale)
    # make it answer, (name, type, value): its verify after the write meets them (dns/served.py)
    left_in_place: tuple[tuple[str, str, str], ...] = ()
    # why the apply would refuse or fail it, by the apply's own checks: a half-done resolver
    # (applies.interrupted), a verify that fails (dns/served.py)
    fails: list[str] = field(default_factory=list)
    # the clock its transitional aliases were judged by (Inventory.now): early_retirements reads it
    now: dt.datetime | None = None

    @property
    def pending(self) -> bool:
        """Anything left to do here: a snippet to change, a layout problem, an apply killed midway,
        a lock left behind, hand-written records contradicting the inventory, snippets that are
        written but not served, or a machine not reached. Only none of these is "up to date"."""
        return bool(self.changed or self.problem or self.interrupted or self.held or self.stale
                    or self.not_served or self.unreachable or self.down or self.preflight or self.fails)

    @property
    def changed(self) -> list[str]:
        return [name for name, text in self.desired.items()
                if self.current.get(name) != (None if text is None else text.encode("utf-8"))]

    @property
    def removed(self) -> list[str]:
        return [name for name in self.changed if self.desired[name] is None]

    def path(self, name: str) -> str:
        return posixpath.join(self.resolver.snippet_dir, name)

    def diff(self) -> str:
        out: list[str] = []
        for name in self.changed:
            before = (self.current.get(name) or b"").decode("utf-8", "replace")
            path = self.path(name)
            path = path if path.startswith("/") else f"/{path}"  # an API backend's: a URL
            label = "/dev/null" if self.current.get(name) is None else f"a{path}"
            target = "/dev/null" if self.desired[name] is None else f"b{path}"
            out.append(unified(before, self.desired[name] or "", label, target))
        return "".join(out)

    def drift(self) -> dict[str, list[str]]:
        """snippet name -> hand-made lines in it that this apply replaces."""
        hand_made = backend_for(self.resolver).drift
        found = {name: hand_made((self.current.get(name) or b"").decode("utf-8", "replace"))
                 for name in self.changed if not name.startswith("/")}  # renamer's own snippets
        return {name: lines for name, lines in found.items() if lines}

    def document(self) -> dict[str, Any]:
        """What `dns plan --format json` says of this resolver; `apply --plan` checks the digests."""
        added, changed, removed = self.record_changes()
        return {
            "resolver": self.resolver.name, "target": self.resolver.target, "managed": self.resolver.manage,
            "snippet_dir": self.resolver.snippet_dir, "changes": self.pending, "problem": self.problem,
            "interrupted": self.interrupted, "lock": self.held, "not_served": self.not_served,
            "unreachable": self.unreachable, "down": self.down, "preflight": self.preflight,
            "would_fail": self.fails,
            "warnings": self.warnings, "hand_written": self.stale,
            "records": {"added": added, "changed": changed, "removed": removed},
            "drift": self.drift(),
            "snippets": [{"file": name, "action": "remove" if self.desired[name] is None else "write",
                          "current_sha256": _digest(self.current.get(name)),
                          "desired_sha256": _digest(None if self.desired[name] is None
                                                    else (self.desired[name] or "").encode())}
                         for name in sorted(self.desired)],
            "diff": self.diff(),
        }

    def record_changes(self) -> tuple[list[str], list[str], list[str]]:
        """Names added, changed and removed across this resolver's snippets."""
        records = backend_for(self.resolver).records
        old: dict[str, str] = {}
        new: dict[str, str] = {}
        for name in self.desired:
            old.update(records((self.current.get(name) or b"").decode("utf-8", "replace")))
            new.update(records(self.desired[name] or ""))
        added = sorted(n for n in new if n not in old)
        removed = sorted(n for n in old if n not in new)
        changed = sorted(n for n in new if n in old and old[n] != new[n])
        return added, changed, removed


# octoDNS's safety thresholds: on a site that already has this many records on a resolver, an
# apply may delete, or update, at most this share of them without --force.
MIN_EXISTING = 10
MAX_SHARE = 0.30


# A transitional alias as renamer writes it in a snippet (dnsmasq, Unbound, BIND render.py): its date
# (shown_time) and its one-label old name
_PROMISED = lazy_re.compile(r"transitional until (\d{4}-\d{2}-\d{2})(?: (\d{2}):(\d{2}) UTC)?: ([a-z0-9-]+),")


def early_retirements(plan: ResolverPlan, now: dt.datetime | None) -> list[str]:
    """Transitional aliases a resolver serves now, written with a date still ahead of `now`, that
    this plan would drop (renamer.yaml's renames or cutover changed, the target host moved on or
    left the inventory): retired before the date they were promised until (t24-alias finding 4)."""
    if now is None:
        return []
    out = []
    for name in plan.changed:
        before = (plan.current.get(name) or b"").decode("utf-8", "replace")
        after = plan.desired[name] or ""
        kept = {found.group(4) for found in _PROMISED.finditer(after)}
        for found in _PROMISED.finditer(before):
            day, hour, minute, label = found.groups()
            try:
                until = dt.datetime.fromisoformat(f"{day}T{hour or '00'}:{minute or '00'}:00+00:00")
            except ValueError:
                continue
            if until > now and label not in kept:
                out.append(f"{plan.resolver.name}: {name}: the apply would retire the transitional alias "
                           f"{label}, served until {shown_time(until)}, before its date (renamer.yaml no "
                           "longer keeps it: its renames, cutover or target host changed)")
    return out


def over_thresholds(plans: Sequence[ResolverPlan]) -> list[str]:
    """Each snippet whose change would delete or update more than MAX_SHARE of a site's existing
    records (counted apart; a renumbered address is an update), as `resolver: file: counts`; and
    each transitional alias it would retire before its date (early_retirements, by the plan's clock)."""
    out = []
    for plan in plans:
        out += early_retirements(plan, plan.now)
        records = backend_for(plan.resolver).records
        for name in plan.changed:
            old = records((plan.current.get(name) or b"").decode("utf-8", "replace"))
            if len(old) < MIN_EXISTING:
                continue
            new = records(plan.desired[name] or "")
            deleted = sum(1 for key in old if key not in new)
            updated = sum(1 for key in old if key in new and new[key] != old[key])
            for count, verb in ((deleted, "delete"), (updated, "update")):
                if count > MAX_SHARE * len(old):
                    out.append(f"{plan.resolver.name}: {name}: the apply would {verb} {count} of its "
                               f"{len(old)} records ({100 * count // len(old)} %, over "
                               f"{int(MAX_SHARE * 100)} %)")
    return out


def plan_resolvers(inventory: Inventory, resolvers: Sequence[Resolver],
                   transports: dict[str, Transport], *, retire_stale: bool = False,
                   unreachable: Mapping[str, str] | None = None) -> list[ResolverPlan]:
    """Read what each resolver has now; render what it should have. Writes nothing. A resolver
    that cannot be reached (or is in `unreachable` already) gets a plan saying so; the others
    are planned all the same."""
    gone = dict(unreachable or {})
    for resolver in resolvers:
        try:
            if resolver.name not in gone:
                transports[resolver.name].check_sudo()  # before anything is read or written
        except Unreachable as exc:
            gone[resolver.name] = str(exc)
    plans = []
    for resolver in resolvers:
        if resolver.name not in gone:
            try:
                plans.append(_plan_one(inventory, resolver, transports[resolver.name], retire_stale))
                continue
            except Unreachable as exc:
                gone[resolver.name] = str(exc)
        plans.append(ResolverPlan(resolver, {}, {}, unreachable=gone[resolver.name]))
    return plans


def _plan_one(inventory: Inventory, resolver: Resolver, transport: Transport,
              retire_stale: bool) -> ResolverPlan:
    """One resolver's plan: its live configuration read, its desired files rendered."""
    backend = backend_for(resolver)
    desired: dict[str, str | None] = dict(backend.desired(inventory, resolver))
    inspection = backend.inspect(inventory, resolver, transport)
    problem = inspection.problem
    try:
        listed = transport.list_snippets(resolver.snippet_dir, backend.files)
    except TransportError as exc:
        if problem is None or isinstance(exc, Unreachable):
            raise
        listed = []  # a missing snippet_dir: the problem says so
    for name in listed:  # a site removed, or renamed
        desired.setdefault(name, None)
    live = backend.live_files(resolver)
    if live is not None and problem is None:  # the hosts files of a site removed go too
        for name in transport.list_snippets(live[0], live[1]):
            desired.setdefault(posixpath.join(live[0], name), None)
    current = {name: transport.read(posixpath.join(resolver.snippet_dir, name)) for name in desired}
    try:
        desired = backend.settle(desired, current)
    except UnsafeError as exc:  # a live file it cannot build on (BIND: an SOA serial it cannot read)
        problem = problem or f"{resolver.name}: {posixpath.join(resolver.snippet_dir, str(exc))}"
    # hand-written records naming old values: commented out, but those the operator must edit
    # (a BIND zone's NS or SOA, a record of a dynamic zone: HandRecord.kept)
    retired = [r for r in inspection.stale if not getattr(r, "kept", "")] if retire_stale else []
    if retired and problem is None:
        today = dt.date.today().isoformat()
        edits = _retired(transport, retired, today, backend.comment)
        changes = backend.settle_retired(edits, retired, transport)
        for path, (before, after) in changes.items():
            desired[path], current[path] = after, before
    # a hand-written record in the way of what renamer writes (PowerDNS: an A where the window's
    # CNAME goes): refused, unless `--retire-stale` deletes it in this apply, first (t24-alias 19)
    for why, records in getattr(inspection, "needs_retired", ()):
        if problem is None and any(r not in retired for r in records):
            problem = (f"{why}: it is a hand-written record naming an old value: `dns apply --retire-stale` "
                       "deletes it in the same apply, before renamer writes there (backed up, put back by a "
                       "rollback), or remove it by hand")
    marker = transport.read(posixpath.join(resolver.backup_dir, PENDING))
    interrupted = marker.decode("utf-8", "replace").splitlines()[0] if marker else None
    kept = [r for r in inspection.stale if r not in retired]  # retired ones are commented out by the apply
    return ResolverPlan(resolver, desired, current, interrupted, problem, list(inspection.warnings),
                        [backend.shown(r) for r in inspection.stale],
                        left_in_place=tuple(a for r in kept for a in backend.answers(r)), now=inventory.now)


def backup_name(name: str) -> str:
    """A changed file's name inside a backup folder: a snippet's own name; a hand-written file
    retired elsewhere (an absolute path) flattened, `%` for each `/`."""
    return name if not name.startswith("/") else "retired" + name.replace("%", "%25").replace("/", "%")


RETIRED_LIST = "RETIRED"  # in a backup folder: the hand-written files the apply changed
RETIRED = "# retired by `renamer dns apply --retire-stale` {date}: "


def _retired(transport: Transport, stale: Sequence[HandLine], today: str,
             comment: str = "#") -> dict[str, tuple[bytes, str]]:
    """file -> (its bytes now, its text with each stale line commented out)."""
    lines_of: dict[str, set[int]] = {}
    for record in stale:  # each line a record takes (a zone file's parenthesised record: several)
        span = getattr(record, "span", 1)
        lines_of.setdefault(record.file, set()).update(range(record.line, record.line + span))
    out = {}
    for path, numbers in sorted(lines_of.items()):
        data = transport.read(path)
        if data is None:
            continue
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            continue  # not text renamer can write back byte for byte: listed, not retired
        lines = text.split("\n")
        for number in sorted(numbers):
            if 0 < number <= len(lines) and not lines[number - 1].lstrip().startswith(comment):
                lines[number - 1] = comment + RETIRED.format(date=today)[1:] + lines[number - 1]
        out[path] = (data, "\n".join(lines))
    return out


def _digest(data: bytes | None) -> str | None:
    return None if data is None else hashlib.sha256(data).hexdigest()
