"""`dns who-asks`: the clients that still ask the resolvers for an old name or address, read
from each resolver's query log (`query_log:`, through its transport: local or over ssh), as its
daemon writes it (Backend.query). What a log cannot prove is said, never taken for "nobody asks":
a log that is missing, unreadable, holds no query at all (logging off), or begins after the window
starts (logging turned on since, or rotated) is a problem of that resolver's, and the command then
exits 1."""

from __future__ import annotations

import datetime as dt
import ipaddress
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from renamer import lazy_re
from renamer.dns.backend import backend_for
from renamer.dns.inventory import Inventory, Resolver
from renamer.dns.transport import Transport, TransportError
from renamer.errors import ConfigError
from renamer.table import table

_MONTHS = {m: i for i, m in enumerate(("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct",
                                        "nov", "dec"), start=1)}
_PRIORITY = lazy_re.compile(
    r"^<\d{1,3}>\d{0,2} ?")  # a syslog line as sent: <30>1 (RFC 5424), <30> (RFC 3164)
_EPOCH = lazy_re.compile(r"\[(\d{9,11})\]")  # Unbound's logfile: [1796543155]
# rsyslog's and the journal's 2026-12-06T07:45:50.123+00:00
_ISO = lazy_re.compile(r"(\d{4})-(\d\d)-(\d\d)[T ](\d\d):(\d\d):(\d\d)(?:[.,]\d+)?(Z|[+-]\d\d:?\d\d)?")
_SYSLOG = lazy_re.compile(r"([A-Za-z]{3})\s+(\d{1,2}) (\d\d):(\d\d):(\d\d)")  # Dec  6 07:45:50 (no year)
_BIND = lazy_re.compile(r"(\d{1,2})-([A-Za-z]{3})-(\d{4}) (\d\d):(\d\d):(\d\d)")  # 06-Dec-2026 07:46:01.292


def when(stamp: str, now: dt.datetime, host_zone: dt.tzinfo | None = None) -> dt.datetime | None:
    """The time a log line's stamp says (aware), or None. A time without a zone is taken in
    `host_zone` (the resolver host's: host_zones), or, without one, this machine's; a syslog time
    without a year in the year that puts it at or before `now` (a day's slack for clocks)."""
    local = host_zone or now.astimezone().tzinfo
    stamp = _PRIORITY.sub("", stamp, count=1)
    try:
        if found := _EPOCH.match(stamp):
            return dt.datetime.fromtimestamp(int(found[1]), dt.UTC)
        if found := _ISO.match(stamp):
            zone = found[7]
            tz = (dt.UTC if zone == "Z" else local if zone is None
                  else dt.timezone(dt.timedelta(hours=int(zone[1:3]), minutes=int(zone[-2:]))
                                   * (-1 if zone[0] == "-" else 1)))
            year, month, day, hour, minute, second = (int(found[i]) for i in range(1, 7))
            return dt.datetime(year, month, day, hour, minute, second, tzinfo=tz)
        if found := _BIND.match(stamp):
            named = _MONTHS.get(found[2].lower())
            if named is None:
                return None
            hour, minute, second = int(found[4]), int(found[5]), int(found[6])
            return dt.datetime(int(found[3]), named, int(found[1]), hour, minute, second, tzinfo=local)
        if found := _SYSLOG.match(stamp):
            logged = _MONTHS.get(found[1].lower())
            if logged is None:
                return None
            parts = (logged, int(found[2]), int(found[3]), int(found[4]), int(found[5]))
            guess = dt.datetime(now.year, *parts, tzinfo=local)
            late = guess > now + dt.timedelta(days=1)
            return dt.datetime(now.year - 1, *parts, tzinfo=local) if late else guess
    except ValueError:  # a day or hour out of range: no time
        return None
    return None


@dataclass
class Asker:
    """A client that asked for an old value: how often, when last, of which resolver."""

    old: str
    client: str
    resolver: str
    count: int = 0
    last: dt.datetime | None = None
    types: set[str] = field(default_factory=set)


@dataclass
class LogRead:
    """What one resolver's query log held: its queries in the window, the span it covers."""

    resolver: str
    path: str
    queries: int = 0  # in the window
    own: int = 0  # of them, renamer's own checks (dns/own_case.py): no client's
    first: dt.datetime | None = None  # the earliest query the log holds
    last: dt.datetime | None = None
    problem: str | None = None  # why it cannot say who asks (missing, empty, rotated ...)


@dataclass
class WhoAsks:
    since: dt.datetime
    olds: tuple[str, ...]
    logs: list[LogRead]
    askers: list[Asker]

    @property
    def ok(self) -> bool:
        """No client asked, and every log could prove it."""
        return not self.askers and not any(log.problem for log in self.logs)


def targets(inventory: Inventory, olds: Sequence[str]) -> dict[str, str]:
    """Query name (lower case, no final dot) -> the old value it asks for: a name as written and
    under each site's domain (a client's search list), an address as its PTR name. No `olds`:
    renamer.yaml's old names and addresses and every site's retired names."""
    values = list(olds) or [*inventory.old_hosts, *inventory.old_addresses,
                            *(site.fqdn(name) for site in inventory.sites for name in site.retired)]
    out: dict[str, str] = {}
    for value in values:
        text = value.strip().rstrip(".").lower()
        try:
            address = ipaddress.ip_address(text)
        except ValueError:
            out[text] = text
            for site in inventory.sites:
                domain = site.domain.lower().rstrip(".")
                out.setdefault(f"{text}.{domain}", text)
                # an old FQDN under a site's domain: a client with that search domain asks its first
                # label alone, and retiring the FQDN breaks it too (t25-34 finding 09)
                if text.endswith(f".{domain}") and "." not in text[:-len(domain) - 1]:
                    out.setdefault(text[:-len(domain) - 1], text)
        else:
            out[address.reverse_pointer] = str(address)
    return out


def who_asks(inventory: Inventory, spec: str, olds: Sequence[str], window: dt.timedelta,
             now: dt.datetime | None = None) -> WhoAsks:
    """Read the query log of each resolver of `spec` that names one (`query_log:`), and gather
    the clients that asked for an old value within `window` before `now`."""
    now = now or dt.datetime.now(dt.UTC)
    since = now - window
    selected = inventory.select(spec)
    resolvers = [r for r in selected if r.query_log]
    if not resolvers:
        raise ConfigError(f"--resolvers {spec}: no resolver names a query_log: set `query_log:` (the file "
                          "its daemon logs queries to) on the resolvers whose clients you want to see")
    wanted = targets(inventory, olds)
    if not wanted:
        raise ConfigError("no old name or address to look for: name them (`renamer dns who-asks ana-ml2 "
                          "10.250.50.54`), or give renamer.yaml's renames")
    # a managed resolver of `spec` whose log is not read: its clients are not known
    logs = [LogRead(r.name, "-", problem="no query_log: its clients' queries are not read")
            for r in selected if r.manage and not r.query_log]
    askers: dict[tuple[str, str, str], Asker] = {}
    for resolver in resolvers:
        assert resolver.query_log is not None
        read = LogRead(resolver.name, resolver.query_log)
        logs.append(read)
        transport = backend_for(resolver).transport(inventory, resolver)
        try:
            data = transport.read(resolver.query_log)
            zones = host_zones(transport, since) if data is not None else ()
        except TransportError as exc:
            read.problem = f"cannot read {resolver.query_log}: {exc}"
            continue
        finally:
            transport.close()
        if isinstance(zones, str):  # its zone-less times cannot be placed: never judged in renamer's zone
            read.problem = (f"{resolver.query_log}: the zone of its times is not known ({zones}): renamer "
                            "cannot tell which queries fall in the window")
            continue
        if data is None:
            read.problem = f"{resolver.query_log} does not exist"
            continue
        lines = data.decode("utf-8", "replace").splitlines()
        _read_log(resolver, lines, wanted, since, now, read, askers, zones)
    ordered = sorted(askers.values(), key=lambda a: (a.old, a.resolver, -a.count, a.client))
    return WhoAsks(since, tuple(dict.fromkeys(wanted.values())), logs, ordered)


_OFFSET = lazy_re.compile(r"([+-])(\d\d)(\d\d)")
# the resolver host's UTC offset now and at the window's start (GNU, busybox: `date -d @EPOCH`)
_ZONES = 'date +%z && { date -d "@$1" +%z 2>/dev/null || true; }'


def host_zones(transport: Transport, since: dt.datetime) -> tuple[dt.tzinfo, ...] | str:
    """The zone a resolver host writes its zone-less log times in (dnsmasq's log-facility, a
    syslog file): its UTC offset now and, where `date -d` reads an epoch, at the window's start
    (a daylight-saving change inside the window); asked through the resolver's own transport.
    Why not, in words, where it cannot say (t25-34 finding 08: never this machine's zone)."""
    done = transport.run(["sh", "-c", _ZONES, "renamer-zone", str(int(since.timestamp()))])
    words = done.stdout.decode("ascii", "replace").split()
    found = [m for m in (_OFFSET.fullmatch(w) for w in words) if m]
    if not done.ok or not found or len(found) != len(words):
        return f"`date +%z` there: {done.tail() or 'no answer'}"
    return tuple(dict.fromkeys(dt.timezone((-1 if m[1] == "-" else 1) * dt.timedelta(hours=int(m[2]),
                                                                                    minutes=int(m[3])))
                               for m in found))


def _read_log(resolver: Resolver, lines: Iterable[str], wanted: dict[str, str], since: dt.datetime,
              now: dt.datetime, read: LogRead, askers: dict[tuple[str, str, str], Asker],
              zones: tuple[dt.tzinfo, ...] = ()) -> None:
    backend = backend_for(resolver)
    undated = 0
    for line in lines:
        query = backend.query(line)
        if query is None:
            continue
        # a zone-less time read in each offset the host had in the window (one, but for a daylight-
        # saving change): the latest reading decides whether it is in the window (never a client
        # missed) and where the log begins, the earliest where it ends (never a log said to reach
        # further than it may)
        readings = [at for zone in zones or (None,) if (at := when(query.stamp, now, zone)) is not None]
        if not readings:
            undated += 1
            continue
        at, early = max(readings), min(readings)
        read.first = at if read.first is None else min(read.first, at)
        read.last = early if read.last is None else max(read.last, early)
        if at < since:
            continue
        read.queries += 1
        old = wanted.get(query.name)
        if old is None:
            continue
        if query.own:  # renamer's own check that the old value is gone: not a client still using it
            read.own += 1
            continue
        asker = askers.setdefault((old, resolver.name, query.client), Asker(old, query.client, resolver.name))
        asker.count += 1
        asker.types.add(query.rdtype)
        asker.last = at if asker.last is None else max(asker.last, at)
    path = resolver.query_log
    if read.first is None or read.last is None:
        unread = f" ({undated} with a time renamer cannot read)" if undated else ""
        read.problem = f"{path}: no query logged{unread}: is query logging on ({_how(resolver)})?"
    elif undated:
        read.problem = (f"{path}: {undated} query line(s) with a time renamer cannot read: who asked then "
                        "is not known")
    elif read.last < since:
        read.problem = (f"{path}: its last query is from {read.last:%Y-%m-%d %H:%M:%S %Z}, before the "
                        "window: logging stopped, or the queries go to another file")
    elif read.first > since:
        read.problem = (f"{path} holds queries from {read.first:%Y-%m-%d %H:%M:%S %Z} on only, after the "
                        "window's start (logging turned on since, or older queries rotated into a file "
                        "renamer does not read): it proves nothing before then; give a --since within it, "
                        "or point query_log at a log that reaches back")


def _how(resolver: Resolver) -> str:
    return {"unbound": "Unbound: log-queries: yes", "bind": "BIND: querylog yes; and a queries channel"}.get(
        resolver.backend, "dnsmasq: log-queries and log-facility")


def document(found: WhoAsks) -> dict[str, object]:
    """`dns who-asks --format json`."""
    def stamp(value: dt.datetime | None) -> str | None:
        return None if value is None else value.isoformat(timespec="seconds")

    return {"ok": found.ok, "since": stamp(found.since), "olds": list(found.olds),
            "logs": [{"resolver": log.resolver, "path": log.path, "queries": log.queries, "own": log.own,
                      "first": stamp(log.first), "last": stamp(log.last), "problem": log.problem}
                     for log in found.logs],
            "askers": [{"old": a.old, "client": a.client, "resolver": a.resolver, "count": a.count,
                        "types": sorted(a.types), "last": stamp(a.last)} for a in found.askers]}


def text(found: WhoAsks, width: int | None = None) -> tuple[str, str]:
    """(the table and the logs' lines, the verdict line) of `dns who-asks`; `width`: the
    terminal's (table.table fits the columns to it), or None."""
    rows = [("old", "client", "asked", "last", "resolver")]
    rows += [(a.old, a.client, str(a.count), _shown(a.last), a.resolver) for a in found.askers]
    lines = table(rows, width=width).splitlines() if found.askers else []
    for log in found.logs:
        if log.problem:
            lines.append(f"{log.resolver}: {log.problem}")
        else:
            lines.append(f"{log.resolver}: {log.path}: {log.queries} queries in the window (the log: "
                         f"{_shown(log.first)} to {_shown(log.last)})")
        if log.own:
            lines.append(f"{log.resolver}: {log.own} question(s) for an old value were renamer's own checks "
                         "(asked in its own case: KiD1-Pc.HoMe.LaN), not counted")
    since = f"since {found.since:%Y-%m-%d %H:%M:%S %Z}"
    clients = {(a.client, a.resolver) for a in found.askers}
    if found.askers:
        olds = {a.old for a in found.askers}
        verdict = (f"dns who-asks: {len(clients)} client(s) still ask for {len(olds)} old value(s) {since}: "
                   "point them at the new names before the old ones are retired")
    elif found.ok:
        verdict = f"dns who-asks: OK: no client asked for {', '.join(found.olds)} {since}"
    else:
        bad = sum(1 for log in found.logs if log.problem)
        verdict = (f"dns who-asks: no client asked in the logs read, but {bad} log(s) cannot prove it "
                   "(see above)")
    return "".join(f"{line}\n" for line in lines), verdict


def _shown(value: dt.datetime | None) -> str:
    return "" if value is None else f"{value:%Y-%m-%d %H:%M:%S}"
