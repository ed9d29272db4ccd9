"""Before anything is written: does the resolver's unbound.conf load renamer's file, and which
hand-written records elsewhere keep an old value alive.

Unbound reads one file (`unbound -c FILE`, default /etc/unbound/unbound.conf) and what its
`include:` and `include-toplevel:` lines name, globs included (Debian's packaging ships
`include-toplevel: "/etc/unbound/unbound.conf.d/*.conf"`). A file written to a folder no include
names changes nothing while plain answers may still look right; this proves the include
before the first write, by following the includes from `conf_file` as Unbound does.

`check_layout: false` on a resolver skips the walk (a layout renamer cannot read); the
canary still guards the apply.
"""

from __future__ import annotations

import fnmatch
import posixpath
from dataclasses import dataclass, field

from renamer import lazy_re
from renamer.dns.dnsmasq.effective import reader_for
from renamer.dns.inventory import Inventory, Resolver
from renamer.dns.transport import Transport, TransportError, real_paths
from renamer.dns.unbound.render import PREFIX, answers_of, parse, snippet_name, uncomment
from renamer.names import parse_address

DEFAULT_CONF = "/etc/unbound/unbound.conf"  # the packages' (and `unbound -c`'s) default
_INCLUDES = ("include:", "include-toplevel:")
_GLOB = set("*?[")
_CLAUSE = lazy_re.compile(r"^[a-z][a-z0-9-]*:$")  # server:, remote-control:, forward-zone:, ...
_DEPTH = 16  # includes within includes: deeper is refused, as a loop would be


@dataclass(frozen=True)
class HandData:
    """A hand-written local-data or local-data-ptr line outside renamer's files."""

    file: str
    line: int  # 1-based
    text: str


@dataclass
class Inspection:
    problem: str | None = None
    warnings: list[str] = field(default_factory=list)
    stale: list[HandData] = field(default_factory=list)


def conf_file(resolver: Resolver) -> str:
    return posixpath.normpath(resolver.conf_file or DEFAULT_CONF)


def reads_ahead(resolver: Resolver) -> tuple[list[str], list[str], list[list[str]]]:
    folder = resolver.snippet_dir.rstrip("/") or "/"
    return [conf_file(resolver)], [folder], [["test", "-d", folder]]


@dataclass
class _Walk:
    files: dict[str, str] = field(default_factory=dict)  # path -> text, in read order
    patterns: list[tuple[str, str, int]] = field(default_factory=list)  # (pattern, file, line)
    problems: list[str] = field(default_factory=list)
    # (file, line, clause) of each `include:` inside a clause other than server: with options of
    # that clause after it: renamer's file opens server:, so Unbound would read those as server:'s
    misplaced: list[tuple[str, int, str]] = field(default_factory=list)


def _value(line: str, key: str) -> str:
    value = line[len(key):].strip()
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
        value = value[1:-1]
    return value


def _walk(transport: Transport, main: str) -> _Walk:
    """Read `main` and every file its includes name (depth-first, as Unbound does)."""
    reader = reader_for(transport)
    walk = _Walk()

    def read(path: str, depth: int, where: str) -> None:
        if path in walk.files:
            return
        if depth > _DEPTH:
            walk.problems.append(f"{where}: includes nest deeper than {_DEPTH} (a loop?)")
            return
        try:
            data = reader.read(path)
        except (TransportError, OSError) as exc:
            walk.problems.append(f"{where}: cannot read {path}: {exc}")
            return
        if data is None:
            if depth == 0:
                walk.problems.append(f"cannot read {path} (conf_file): no such file")
            return  # an include of a missing file: unbound-checkconf says so, the test fails
        text = data.decode("utf-8", "replace")
        walk.files[path] = text
        clause, pending = "", None  # the clause open here; an include: in another clause than server:
        for number, raw in enumerate(text.splitlines(), 1):
            line = uncomment(raw).strip()
            key = next((k for k in _INCLUDES if line.startswith(k)), None)
            if _CLAUSE.match(line):
                clause, pending = line[:-1], None
            elif line and key is None and pending is not None:
                walk.misplaced.append(pending)
                pending = None
            if key is None:
                continue
            if key == "include:" and clause not in ("", "server"):
                pending = (path, number, clause)
            pattern = _value(line, key)
            walk.patterns.append((pattern, path, number))
            if not pattern.startswith("/"):
                continue  # relative to Unbound's working directory: not followed, never proof
            folder, name = posixpath.split(pattern)
            if _GLOB & set(folder):
                continue  # a glob above the last part: not followed
            if _GLOB & set(name):
                for entry in sorted(reader.list_dir(folder) or []):
                    if fnmatch.fnmatchcase(entry, name) and not entry.startswith("."):
                        read(posixpath.join(folder, entry), depth + 1, f"{path}:{number}")
            else:
                read(pattern, depth + 1, f"{path}:{number}")

    read(main, 0, main)
    return walk


def _includes(patterns: list[tuple[str, str, int]], path: str, real: dict[str, str] | None = None) -> bool:
    """Does an absolute include pattern name `path` (a glob's `*` never crosses a `/`)? `real`:
    folders' real paths (a folder reached through a symlink is the folder it names)."""
    folder, name = posixpath.split(path)
    real = real or {}
    for pattern, _, _ in patterns:
        if not pattern.startswith("/"):
            continue
        pattern_folder, pattern_name = posixpath.split(posixpath.normpath(pattern))
        if real.get(pattern_folder, pattern_folder) == real.get(folder, folder) \
                and fnmatch.fnmatchcase(name, pattern_name) \
                and not (name.startswith(".") and not pattern_name.startswith(".")):
            return True
    return False


def inspect(inventory: Inventory, resolver: Resolver, transport: Transport) -> Inspection:
    folder = resolver.snippet_dir.rstrip("/") or "/"
    if not transport.run(["test", "-d", folder]).ok:
        return Inspection(f"{resolver.name}: snippet_dir {folder} does not exist; renamer never creates it "
                          f"(a typo would hide the file): create it and include it in unbound.conf "
                          f"(include: \"{folder}/{PREFIX}*.conf\")")
    if not resolver.check_layout:
        return Inspection()
    main = conf_file(resolver)
    walk = _walk(transport, main)
    if main not in walk.files:
        return Inspection(f"{resolver.name}: {walk.problems[0]}; set conf_file to the unbound.conf the "
                          "daemon reads, or check_layout: false")
    found = Inspection(warnings=[f"{resolver.name}: {p}" for p in walk.problems])
    names = [snippet_name(s) for s in inventory.sites if s.name in resolver.sites] or [f"{PREFIX}x.conf"]
    included = [posixpath.dirname(posixpath.normpath(p)) for p, _, _ in walk.patterns if p.startswith("/")]
    real = real_paths(transport, [folder, *included])
    missing = [n for n in names if not _includes(walk.patterns, posixpath.join(folder, n), real)]
    if missing:
        found.problem = (f"{resolver.name}: {posixpath.join(folder, missing[0])} would not be loaded: no "
                         f"include: in {main} (or what it includes) names it; add "
                         f"`include: \"{folder}/{PREFIX}*.conf\"` to {main}")
    for path, number, clause in walk.misplaced:
        at = [(p, f, n) for p, f, n in walk.patterns if (f, n) == (path, number)]
        if found.problem is None and _includes(at, posixpath.join(folder, names[0])):
            found.problem = (f"{resolver.name}: {path}:{number}: the include: of renamer's files sits in "
                             f"the {clause}: clause, with {clause}: options after it: renamer's file opens "
                             "server:, so Unbound would read those as server: options and fail; move the "
                             "include to the server: clause or the end of the file")
    # the spellings of snippet_dir an include reaches it by (a symlink to it, finding 09)
    aliases = {d for d in real if real[d] == real[folder]}
    if found.problem is None:
        found.problem = _zone_overridden(inventory, resolver, walk.files, aliases)
    found.stale = stale_lines(inventory, resolver, walk.files, aliases)
    return found


def _zone_overridden(inventory: Inventory, resolver: Resolver, files: dict[str, str],
                     aliases: set[str]) -> str | None:
    """An operator's own `local-zone:` for a domain renamer declares `static` (an authoritative
    site's), of another type, anywhere Unbound reads: Unbound keeps one local-zone per name, the
    one it reads last (its log says `duplicate local-zone`, nothing fails), so whether the domain
    answers NXDOMAIN for the names the inventory does not hold, or forwards them to the old DNS,
    would hang on file order. A static one agrees with renamer's: no problem."""
    declared = {f"{s.domain.lower().rstrip('.')}.": s.name for s in inventory.sites
                if s.name in resolver.sites and s.authoritative}
    for path, text in files.items():
        if _ours(path, resolver, aliases):
            continue
        for number, line in enumerate(text.splitlines(), 1):
            parsed = parse(line)
            if parsed is None or parsed[0] != "local-zone" or len(parsed[1]) < 2:
                continue
            zone, kind = f"{parsed[1][0].lower().rstrip('.')}.", parsed[1][1].lower()
            if zone in declared and kind != "static":
                return (f"{resolver.name}: {path}:{number}: local-zone \"{zone}\" {kind} overrides or is "
                        f"overridden by renamer's `local-zone: \"{zone}\" static` (site {declared[zone]} is "
                        "authoritative: NXDOMAIN for every name the inventory does not hold): Unbound keeps "
                        "the one it reads last, so which holds depends on file order; remove that line, or "
                        f"set authoritative: false for site {declared[zone]}")
    return None


def _ours(path: str, resolver: Resolver, aliases: set[str] | frozenset[str] = frozenset()) -> bool:
    folder = posixpath.normpath(resolver.snippet_dir)
    return posixpath.dirname(path) in {folder, *aliases} and posixpath.basename(path).startswith(PREFIX)


def stale_lines(inventory: Inventory, resolver: Resolver, files: dict[str, str],
                aliases: set[str] | frozenset[str] = frozenset()) -> list[HandData]:
    """Hand-written local-data / local-data-ptr lines outside renamer's files that answer an old
    or retired name, point at or from an old address, give a current name of a site this
    resolver serves (a host's or an alias's: renamer writes an alias as its host's addresses) a
    second address, or a current address a second PTR (Unbound then answers both)."""
    gone = {n.lower() for n in inventory.old_hosts}
    for site in inventory.sites:
        gone |= {n.lower() for name in site.retired for n in (name, site.fqdn(name))}
    old = set(inventory.old_addresses)
    old_pointers = {_pointer(a) for a in old}
    served = [(site, h) for site in inventory.sites if site.name in resolver.sites for h in site.hosts]
    current = {n.lower(): {str(a) for a in h.addresses} for site, h in served
               for n in (h.name, site.fqdn(h.name), *(m for a in h.aliases for m in (a, site.fqdn(a))))}
    pointers = {_pointer(str(a)): site.fqdn(h.name).lower() for site, h in served for a in h.addresses}
    out = []
    for path, text in files.items():
        if _ours(path, resolver, aliases):
            continue
        for number, line in enumerate(text.splitlines(), 1):
            for name, rdtype, value in answers_of(line):
                target = value.lower().rstrip(".")
                if (name in gone or target in gone or value in old or name in old_pointers
                        or (rdtype in ("A", "AAAA") and name in current and value not in current[name])
                        or (rdtype == "PTR" and name in pointers and target != pointers[name])):
                    out.append(HandData(path, number, line.strip()))
                    break
    return out


def _pointer(address: str) -> str:
    parsed = parse_address(address)
    return parsed.reverse_pointer if parsed is not None else address
