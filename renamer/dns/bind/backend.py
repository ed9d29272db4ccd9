"""BIND 9 behind dns/backend.py's Protocol: whole zone files renamer owns in snippet_dir and
`renamer-zones.conf` declaring them, which the resolver's named.conf includes;
`named-checkconf -z` tests the configuration and every zone file; activation is `rndc reconfig`
when renamer-zones.conf changed, then `rndc reload ZONE` per zone renamer changed (`reloads`):
an operator's own zones are never reloaded by renamer. named loads zones
after rndc has returned, so `activate` then waits until each of renamer's zones is served with
its file's SOA serial (asked over DNS): until then the old records are still answered."""

from __future__ import annotations

import posixpath
import time
from collections.abc import Sequence

from renamer.dns.answers import NoAnswer
from renamer.dns.bind import querylog, render
from renamer.dns.bind.layout import DEFAULT_CONF, HandRecord, Inspection, inspect, per_zone, reads_ahead
from renamer.dns.file_backend import FileBackend, Renderer
from renamer.dns.inventory import Inventory, Resolver, Site
from renamer.dns.logged import Logged
from renamer.dns.query import dnspython_querier
from renamer.dns.transport import CommandResult, OwnFiles, Transport


class Bind(FileBackend):
    name = "bind"
    renderer: Renderer = render
    files: OwnFiles = render.FILES
    restored_glob = "renamer-*.zone"
    unused_keys = frozenset({"dhcp", "hosts_dir"})  # BIND serves no DHCP and has no hostsdir=
    cname_aliases = True  # named answers a CNAME with its in-zone target's address
    restores_past = True  # a restored zone's serial moves past the failed apply's (restored)
    loads_late = True  # named loads a zone after rndc reload has returned (served)
    follows_other_zones = False  # with recursion off, named answers a CNAME into another zone alone
    short_names = False  # a zone holds FQDNs: no one-label name is served
    comment = ";"

    def default_commands(self, resolver_conf: str | None) -> tuple[tuple[str, ...], tuple[str, ...]] | None:
        conf = resolver_conf or DEFAULT_CONF
        return ("named-checkconf", "-z", conf), ("rndc", "reload")

    def settle(self, desired: dict[str, str | None],
               current: dict[str, bytes | None]) -> dict[str, str | None]:
        return render.settle(desired, current)

    def desired(self, inventory: Inventory, resolver: Resolver) -> dict[str, str]:
        # SERIALS too, its content settled from the live files (render.settle)
        return {**render.render_resolver(inventory, resolver), render.SERIALS: ""}

    def restored(self, name: str, saved: bytes, now: bytes | None) -> bytes:
        if name == render.SERIALS:
            return render.restored_marks(saved, now)
        if now is None or not (name.endswith(".zone") or "/" in name):
            return saved
        # renamer's zone, or an operator's zone file --retire-stale edited (its serial moved on):
        # the records as they were, the serial past the one the failed apply served; a file with
        # no SOA (an $INCLUDEd fragment) or no UTF-8 goes back as it is
        try:
            back = render.restored(saved.decode("utf-8"), now.decode("utf-8"))
        except UnicodeDecodeError:
            return saved
        return back.encode("utf-8")

    def inspect(self, inventory: Inventory, resolver: Resolver, transport: Transport) -> Inspection:
        return inspect(inventory, resolver, transport)

    def reads(self, resolver: Resolver) -> tuple[list[str], list[str], list[list[str]]]:
        return reads_ahead(resolver)

    def answers(self, line: object) -> list[tuple[str, str, str]]:
        assert isinstance(line, HandRecord)
        return list(line.answers)

    def shown(self, line: object) -> str:
        assert isinstance(line, HandRecord)
        kept = f" (--retire-stale leaves it: {line.kept})" if line.kept else ""
        return f"{line.file}:{line.line}: {line.text}{kept}"

    def settle_retired(self, changes: dict[str, tuple[bytes, str]], retired: Sequence[object],
                       transport: Transport) -> dict[str, tuple[bytes, str]]:
        out = dict(changes)
        for zone_file in sorted({r.zone_file for r in retired if isinstance(r, HandRecord) and r.zone_file}):
            # the zone's own file carries the SOA (the records may sit in a file its $INCLUDE reads)
            before, text = out[zone_file] if zone_file in out else _text_of(transport, zone_file)
            serial = render.serial_of(text) if text else None
            if serial is not None:
                out[zone_file] = (before, render.with_serial(text, render.next_serial(serial)))
        return out

    def canary(self, site: Site, resolver: Resolver) -> tuple[str, str]:
        return render.canary(site)

    def activate(self, resolver: Resolver, transport: Transport, names: Sequence[str] = ()) -> CommandResult:
        done = CommandResult(0, "")
        for argv in reloads(resolver, transport, names):
            done = transport.run(argv)
            if not done.ok:
                return done
        late = served(resolver, transport)
        return done if late is None else CommandResult(1, f"{done.output.strip()}\n{late}")

    def activation(self, resolver: Resolver, names: Sequence[str],
                   present: Sequence[str]) -> list[tuple[str, ...]]:
        return reload_steps(resolver, names, present)

    def loaded(self, resolver: Resolver, transport: Transport) -> str | None:
        return served(resolver, transport)

    def query(self, line: str) -> Logged | None:
        return querylog.query(line)


BIND = Bind()


def reloads(resolver: Resolver, transport: Transport, names: Sequence[str]) -> list[tuple[str, ...]]:
    """reload_steps, with the files present in snippet_dir read from the resolver."""
    present = transport.list_snippets(resolver.snippet_dir, render.FILES) if names else []
    return reload_steps(resolver, names, present)


def reload_steps(resolver: Resolver, names: Sequence[str], present: Sequence[str]) -> list[tuple[str, ...]]:
    """The commands that make named serve renamer's changed files and nothing else (issue 31):
    with an `rndc ... reload` command, `rndc ... reconfig` when renamer-zones.conf changed (it
    loads a new zone and drops a removed one, and reloads no zone file), then `rndc ... reload
    ZONE` for each of renamer's zone files changed and `present` (still there). So an operator's
    pending edit of their own zone file is never made live by renamer's apply, nor left live by
    its rollback. Any other reload command, no names, or a hand-written zone file among them
    (`--retire-stale` edits the operator's own files: the whole server is reloaded then) runs it
    as it is written."""
    argv = tuple(resolver.reload)
    if not names or any("/" in name for name in names) or not per_zone(resolver):
        return [argv]
    there = set(present)
    out: list[tuple[str, ...]] = [(*argv[:-1], "reconfig")] if render.ZONES in names else []
    for name in sorted(set(names)):
        if name.endswith(".zone") and "/" not in name and name in there:
            out.append((*argv, name[len(render.PREFIX):-len(".zone")]))
    return out  # none where only renamer-serials changed: named reads no file of it


def _text_of(transport: Transport, path: str) -> tuple[bytes, str]:
    """A file's bytes and its UTF-8 text; "" where it is missing or no UTF-8 (renamer writes back
    only what it can byte for byte: plan._retired skips such a file too)."""
    data = transport.read(path) or b""
    try:
        return data, data.decode("utf-8")
    except UnicodeDecodeError:
        return data, ""


LOAD_WAIT = 15.0  # seconds named gets to load the zones once rndc reload has returned


def served(resolver: Resolver, transport: Transport) -> str | None:
    """None once named serves each zone file of renamer's in snippet_dir with its SOA serial
    (LOAD_WAIT at most); else why not, naming the first zone still served otherwise."""
    wanted: dict[str, int] = {}
    for name in transport.list_snippets(resolver.snippet_dir, render.FILES):
        data = transport.read(posixpath.join(resolver.snippet_dir, name)) if name.endswith(".zone") else None
        serial = render.serial_of(data.decode("utf-8", "replace")) if data is not None else None
        if serial is not None:
            wanted[name[len(render.PREFIX):-len(".zone")]] = serial
    ask = dnspython_querier(resolver)
    deadline = time.monotonic() + LOAD_WAIT
    while True:
        late = {}
        for zone, serial in wanted.items():
            try:
                answer = ask(f"{zone}.", "SOA")
                got = next((v.split()[2] for t, v in answer.records if t == "SOA"), answer.rcode)
            except NoAnswer:
                got = "no answer"
            if got != str(serial):
                late[zone] = (serial, got)
        wanted = {zone: wanted[zone] for zone in late}
        if not late:
            return None
        if time.monotonic() > deadline:
            zone, (serial, got) = next(iter(late.items()))
            return (f"named still serves zone {zone} with SOA serial {got}, its file says {serial} "
                    f"({LOAD_WAIT:.0f} s after rndc reload; {len(late)} zone(s) so): see named's log")
        time.sleep(0.05)
