"""Before anything is written: does the resolver's named.conf include renamer's zones file, does
the operator declare a zone renamer would declare, and which hand-written records in the
operator's own zone files keep an old value alive.

named reads one file (`named -c FILE`, default /etc/bind/named.conf on Debian) and what its
`include "FILE";` statements name (BIND 9.18 has no globs there). This follows them from
`conf_file`, reads every `zone "NAME" { ... file "FILE"; }` it finds, and the zone files of
those zones, as named would.

`check_layout: false` on a resolver skips the walk; named-checkconf -z and the canary still
guard the apply.
"""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass, field, replace
from typing import Any

from renamer import lazy_re
from renamer.dns.bind.render import ZONES, answers_of, pointer, render_resolver, strip_comment, zone_records
from renamer.dns.dnsmasq.effective import reader_for
from renamer.dns.inventory import Inventory, Resolver
from renamer.dns.transport import Transport, TransportError, real_paths

DEFAULT_CONF = "/etc/bind/named.conf"  # Debian's bind9 package
_DEPTH = 16
_COMMENT = lazy_re.compile(r'"(?:[^"\\]|\\.)*"|/\*.*?\*/|//[^\n]*|#[^\n]*', re.DOTALL)
_INCLUDE = lazy_re.compile(r'\binclude\s+"([^"]+)"\s*;')
_ZONE = lazy_re.compile(r'\bzone\s+"([^"]+)"\s*(?:[A-Za-z]+\s*)?\{')
_FILE = lazy_re.compile(r'\bfile\s+"([^"]+)"\s*;')
_DIRECTORY = lazy_re.compile(r'\bdirectory\s+"([^"]+)"\s*;')
_VIEW = lazy_re.compile(r'\bview\s+"?([^"\s{;]+)"?\s*(?:[A-Za-z]+\s*)?\{')


@dataclass(frozen=True)
class HandRecord:
    """A hand-written record line of a zone file the operator's named.conf loads."""

    file: str
    line: int  # 1-based
    text: str
    answers: tuple[tuple[str, str, str], ...]
    span: int = 1  # the lines it takes: a parenthesised record goes on; --retire-stale comments out each
    zone_file: str = ""  # the file of the zone it is in (itself, or the one whose $INCLUDE reads it)
    # why --retire-stale leaves it to the operator (a zone's NS or SOA, a dynamic zone); "": retired
    kept: str = ""


@dataclass
class Inspection:
    problem: str | None = None
    warnings: list[str] = field(default_factory=list)
    stale: list[HandRecord] = field(default_factory=list)


@dataclass(frozen=True)
class Zone:
    name: str  # lower case, no final dot
    file: str | None  # as written
    conf: str  # the named.conf file declaring it
    line: int
    dynamic: bool = False  # allow-update / update-policy: named keeps it in a journal, rewrites its file


def conf_file(resolver: Resolver) -> str:
    return posixpath.normpath(resolver.conf_file or DEFAULT_CONF)


def reads_ahead(resolver: Resolver) -> tuple[list[str], list[str], list[list[str]]]:
    folder = resolver.snippet_dir.rstrip("/") or "/"
    return [conf_file(resolver)], [folder], [["test", "-d", folder]]


def _blank(text: str) -> str:
    """`text` with its comments blanked (newlines kept, so offsets and line numbers hold)."""
    def keep(found: re.Match[str]) -> str:
        part = found.group(0)
        return part if part.startswith('"') else re.sub(r"[^\n]", " ", part)
    return _COMMENT.sub(keep, text)


def _block_end(text: str, start: int) -> int:
    depth = 0
    for i in range(start, len(text)):
        if text[i] == "{":
            depth += 1
        elif text[i] == "}":
            depth -= 1
            if depth == 0:
                return i
    return len(text)


@dataclass
class _Walk:
    files: dict[str, str] = field(default_factory=dict)
    includes: list[tuple[str, str, int]] = field(default_factory=list)  # (path, file, line)
    zones: list[Zone] = field(default_factory=list)
    views: list[tuple[str, str, int]] = field(default_factory=list)  # (name, file, line)
    directory: str | None = None
    problems: list[str] = field(default_factory=list)


def _walk(transport: Transport, main: str) -> _Walk:
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
            walk.problems.append(f"cannot read {path} ({'conf_file' if depth == 0 else where}): no such file")
            return
        text = _blank(data.decode("utf-8", "replace"))
        walk.files[path] = text
        if walk.directory is None and (found := _DIRECTORY.search(text)):
            walk.directory = found.group(1)
        walk.views += [(found.group(1), path, text.count("\n", 0, found.start()) + 1)
                       for found in _VIEW.finditer(text)]
        for found in _ZONE.finditer(text):
            block = text[found.end():_block_end(text, found.end() - 1)]
            named = _FILE.search(block)
            walk.zones.append(Zone(found.group(1).lower().rstrip("."), named.group(1) if named else None,
                                   path, text.count("\n", 0, found.start()) + 1,
                                   _DYNAMIC.search(block) is not None))
        for found in _INCLUDE.finditer(text):
            number = text.count("\n", 0, found.start()) + 1
            target = found.group(1)
            if not target.startswith("/"):
                target = posixpath.join(walk.directory or posixpath.dirname(path), target)
            target = posixpath.normpath(target)
            walk.includes.append((target, path, number))
            read(target, depth + 1, f"{path}:{number}")

    read(main, 0, main)
    return walk


def inspect(inventory: Inventory, resolver: Resolver, transport: Transport) -> Inspection:
    folder = resolver.snippet_dir.rstrip("/") or "/"
    ours = posixpath.join(folder, ZONES)
    if not transport.run(["test", "-d", folder]).ok:
        return Inspection(f"{resolver.name}: snippet_dir {folder} does not exist; renamer never creates it "
                          "(a typo would hide the files): create it and include its zones file in named.conf "
                          f"(include \"{ours}\";)")
    if not resolver.check_layout:
        return Inspection()
    main = conf_file(resolver)
    walk = _walk(transport, main)
    if main not in walk.files:
        return Inspection(f"{resolver.name}: {walk.problems[0]}; set conf_file to the named.conf the "
                          "daemon reads, or check_layout: false")
    found = Inspection(warnings=[f"{resolver.name}: {p}" for p in walk.problems])
    real = real_paths(transport, [folder, *(posixpath.dirname(path) for path, _, _ in walk.includes)])
    if not any(posixpath.basename(path) == ZONES and real[posixpath.dirname(path)] == real[folder]
               for path, _, _ in walk.includes):
        found.problem = (f"{resolver.name}: {ours} would not be loaded: no include in {main} (or what it "
                         f"includes) names it; add `include \"{ours}\";` to {main}")
    if walk.views and found.problem is None and per_zone(resolver):
        name, where, line = walk.views[0]
        found.problem = (f"{resolver.name}: {where}:{line}: named.conf has views (view \"{name}\""
                         f"{_more([v[0] for v in walk.views])}): renamer's `rndc reload ZONE` names no view "
                         "(named refuses a zone found in several) and its zones file must sit in each view "
                         "that serves the site; not supported: serve the site from a named without views, or "
                         "give the resolver a `reload` of your own (e.g. [systemctl, reload, named]), run as "
                         "written")
    # renamer's zones file included by another spelling of snippet_dir (a symlink, finding 09): its
    # zones are renamer's, as declared in `ours`
    aliases = {d for d in real if real[d] == real[folder]}
    walk.zones = [replace(z, conf=ours) if posixpath.basename(z.conf) == ZONES
                  and posixpath.dirname(z.conf) in aliases else z for z in walk.zones]
    rendered = render_resolver(inventory, resolver)
    wanted = {name[len("renamer-"):-len(".zone")]: text for name, text in rendered.items()
              if name.endswith(".zone")}
    for zone in walk.zones:
        if zone.conf != ours and zone.name in wanted and found.problem is None:
            found.problem = (f"{resolver.name}: {zone.conf}:{zone.line}: zone \"{zone.name}\" is declared "
                             f"there; renamer would declare it in {ours} (named refuses a zone twice): "
                             "remove that declaration, or serve the site elsewhere")
    if found.problem is None:
        found.problem = shadowed(resolver, walk, transport, wanted)
    skipped: list[str] = []
    found.stale = stale_records(inventory, resolver, walk, transport, skipped)
    found.warnings += [f"{resolver.name}: {w}" for w in skipped]
    # what an update added lives in the zone's journal until named writes the file: not read here
    mine = posixpath.normpath(resolver.snippet_dir)
    found.warnings += [f"{resolver.name}: {zone.conf}:{zone.line}: zone {zone.name} is dynamic: records "
                       "updates added since named last wrote its file are in its journal, which renamer "
                       f"does not read (neither for old names nor for names its zones would hide): run "
                       f"`rndc sync {zone.name}` before the plan" for zone in walk.zones
                       if zone.dynamic and posixpath.dirname(zone.conf) != mine]
    return found


def _zone_text(zone: Zone, walk: _Walk, folder: str, transport: Transport) -> tuple[str, str] | None:
    """(path, text) of an operator's zone file (None: renamer's own, none named, or unreadable)."""
    if zone.file is None or posixpath.dirname(zone.conf) == folder:
        return None
    path = zone.file if zone.file.startswith("/") else posixpath.join(walk.directory or "/", zone.file)
    path = posixpath.normpath(path)
    if posixpath.dirname(path) == folder and posixpath.basename(path).startswith("renamer-"):
        return None
    try:
        data = reader_for(transport).read(path)
    except (TransportError, OSError):
        return None
    return (path, data.decode("utf-8", "replace")) if data is not None else None


def _under(name: str, zone: str) -> bool:
    return name == zone or name.endswith("." + zone)


def shadowed(resolver: Resolver, walk: _Walk, transport: Transport, wanted: dict[str, str]) -> str | None:
    """Why a zone renamer would declare hides names an operator's zone on the same named serves
    today, or None (DNS break-it round 2, findings 02 and 11). named answers every name under a
    zone from that zone's file alone: renamer's 251.10.in-addr.arpa inside the operator's
    10.in-addr.arpa (or fv.lan inside `lan`) would hide the operator's names under it that
    renamer does not write; an operator's zone inside renamer's would hide renamer's names."""
    folder = posixpath.normpath(resolver.snippet_dir)
    ours = {zone: {name for name, _, _ in answers_of(text)} for zone, text in wanted.items()}
    own_conf = posixpath.join(folder, ZONES)
    for zone in walk.zones:
        if zone.name in wanted or zone.conf == own_conf:
            continue
        wider = [w for w in wanted if _under(w, zone.name)]
        narrower = [w for w in wanted if _under(zone.name, w)]
        if not wider and not narrower:
            continue
        where = f"{resolver.name}: {zone.conf}:{zone.line}: the operator's zone \"{zone.name}\""
        for inner in narrower:  # renamer's names under the operator's narrower zone
            hidden = sorted(n for n in ours[inner] if _under(n, zone.name))
            if hidden:
                return (f"{where} lies inside zone {inner} that renamer would declare: named would answer "
                        f"{hidden[0]}{_more(hidden)} from the operator's zone, not renamer's: remove that "
                        "zone, or serve the site elsewhere")
        found = _zone_text(zone, walk, folder, transport) if wider else None
        if found is None:
            continue
        path, text = found
        records = zone_records(text, zone.name + ".")
        for inner in wider:
            # a wildcard above renamer's zone answers every name under it today (DNS trial 02)
            # (of the types verify and clients ask: a TXT-only wildcard hides no address)
            covering = [(number, name) for number, name, rdtype, _ in records
                        if name.startswith("*.") and _under(inner, name[2:]) and inner != name[2:]
                        and rdtype in ("A", "AAAA", "CNAME", "DNAME")]
            if covering:
                number, name = covering[0]
                return (f"{where} ({path}:{number}) serves every name under {inner} by its wildcard {name}; "
                        f"the zone {inner} renamer would declare would answer them NXDOMAIN (named answers "
                        "every name under a zone from that zone's file alone): give the names the wildcard "
                        "serves there records of their own (in the inventory), or serve the site elsewhere")
            hidden_at = [(number, name) for number, name, _, _ in records
                         if _under(name, inner) and name not in ours[inner]]
            if hidden_at:
                names = sorted({name for _, name in hidden_at})
                them = "them" if len(names) > 1 else "it"
                return (f"{where} ({path}:{hidden_at[0][0]}) serves {names[0]}{_more(names)} under {inner}; "
                        f"the zone {inner} renamer would declare would hide {them} "
                        "(named answers every name under a zone from that zone's file alone): move those "
                        "records into the inventory or out of that range, or serve the site elsewhere")
    return None


def per_zone(resolver: Resolver) -> bool:
    """Whether renamer activates zone by zone (`rndc ... reload`: backend.reload_steps)."""
    argv = resolver.reload
    return bool(argv) and argv[-1] == "reload" and posixpath.basename(argv[0]) == "rndc"


def _more(names: list[str]) -> str:
    return f" (and {len(names) - 1} more)" if len(names) > 1 else ""


def stale_records(inventory: Inventory, resolver: Resolver, walk: _Walk,
                  transport: Transport, warnings: list[str] | None = None) -> list[HandRecord]:
    """Hand-written records in the operator's zone files that answer an old or retired name,
    point at or from an old address, give a current name of a served site (a host's or an
    alias's) a second address, or a current address a second PTR."""
    gone = {n.lower() for n in inventory.old_hosts}
    for site in inventory.sites:
        gone |= {n.lower() for name in site.retired for n in (name, site.fqdn(name))}
    short = {n for n in gone if "." not in n}  # an old short name under any zone's domain is that name
    old = set(inventory.old_addresses)
    old_pointers = {pointer(a) for a in old}
    served = [(site, h) for site in inventory.sites if site.name in resolver.sites for h in site.hosts]
    current = {n.lower(): {str(a) for a in h.addresses} for site, h in served
               for n in (site.fqdn(h.name), *(site.fqdn(a) for a in h.aliases))}
    pointers = {pointer(str(a)): site.fqdn(h.name).lower() for site, h in served for a in h.addresses}
    warnings = [] if warnings is None else warnings
    folder = posixpath.normpath(resolver.snippet_dir)
    reader = reader_for(transport)
    out: list[HandRecord] = []
    for zone in walk.zones:
        if zone.file is None or posixpath.dirname(zone.conf) == folder:
            continue
        path = zone.file if zone.file.startswith("/") else posixpath.join(walk.directory or "/", zone.file)
        path = posixpath.normpath(path)
        if posixpath.dirname(path) == folder and posixpath.basename(path).startswith("renamer-"):
            continue
        texts = zone_texts(reader, path, zone.name + ".", walk.directory, warnings)
        records = [(file, text, spans, _qualified(zone_records(text, origin), origin))
                   for file, text, spans, origin in texts]
        # the zone's name servers (a relative one under the zone): their addresses (glue) go with its NS
        servers = {value.lower().rstrip(".") for *_, found in records for _, _, rdtype, value in found
                   if rdtype == "NS"}
        for file, text, spans, found in records:
            lines = text.split("\n")
            for number, name, rdtype, value in found:
                target = value.lower().rstrip(".")
                if (name in gone or name.split(".", 1)[0] in short or target in gone or value in old
                        or name in old_pointers
                        or (rdtype in ("A", "AAAA") and name in current and value not in current[name])
                        or (rdtype == "PTR" and name in pointers and target != pointers[name])):
                    why = _kept(zone, "NS" if rdtype in ("A", "AAAA") and name in servers else rdtype)
                    out.append(HandRecord(file, number, lines[number - 1].strip(), ((name, rdtype, value),),
                                          spans.get(number, 1), path, why))
    return out


_ZONE_DEPTH = 8  # $INCLUDEs in $INCLUDEd files, at most
_DYNAMIC = lazy_re.compile(r"\b(?:allow-update\s*\{\s*(?!none\s*;\s*\})|update-policy\b)")


_NAMED_VALUES = {"CNAME", "NS", "PTR", "DNAME"}  # records whose value is one domain name


def _qualified(records: list[tuple[int, str, str, str]], origin: str) -> list[tuple[int, str, str, str]]:
    """The records with a relative name as value (`@ IN NS ns1`, `www IN CNAME web`) made absolute
    under `origin`, as named reads them (`$ORIGIN` changes inside a file are not followed here)."""
    suffix = "" if origin == "." else origin
    return [(number, name, rdtype, value if rdtype not in _NAMED_VALUES or value.endswith(".")
             else (suffix.rstrip(".") if value == "@" else f"{value}.{suffix}").rstrip(".") + ".")
            for number, name, rdtype, value in records]


def _kept(zone: Zone, rdtype: str) -> str:
    """Why `--retire-stale` must not comment out a record of this zone (the operator edits it), or ""."""
    if zone.dynamic:
        return (f"zone {zone.name} is dynamic ({zone.conf}:{zone.line}: named keeps its records in a journal "
                "and rewrites the file): remove the record with nsupdate")
    if rdtype in ("NS", "SOA"):  # (an address of one of its name servers comes here as NS)
        return (f"the zone's {rdtype} record or its name server's address: without it zone {zone.name} "
                "would not load; edit it by hand")
    return ""


def zone_texts(reader: Any, path: str, origin: str, directory: str | None,
               warnings: list[str]) -> list[tuple[str, str, dict[int, int], str]]:
    """A zone file and the files its `$INCLUDE` lines name, as named reads them: (file, its text
    with each parenthesised record joined onto its first line (the lines it took left blank, so
    numbers hold), {first line: lines taken}, the origin the file starts with). A relative
    $INCLUDE is read from named's working directory (`directory`), as named does, the origin is
    the line's own or the one in force there; a file that cannot be read, or one that includes
    itself (a loop), is named in `warnings` (its records are not checked), never read twice."""
    out: list[tuple[str, str, dict[int, int], str]] = []

    def read(file: str, start: str, chain: tuple[str, ...], where: str) -> None:
        if file in chain or len(chain) > _ZONE_DEPTH:
            warnings.append(f"{where}: $INCLUDE {file}: an include loop (or nested deeper than "
                            f"{_ZONE_DEPTH}): not read; its records are not checked for old values")
            return
        try:
            data = reader.read(file)
        except (TransportError, OSError):
            data = None
        if data is None:
            if chain:
                warnings.append(f"{where}: $INCLUDE {file}: cannot read it; its records are not checked for "
                                "old values")
            return
        text, spans = joined(data.decode("utf-8", "replace"))
        out.append((file, text, spans, start))
        current = start
        for number, raw in enumerate(text.split("\n"), 1):
            words = strip_comment(raw).split()
            if len(words) > 1 and words[0].upper() == "$ORIGIN":
                current = _absolute(words[1], current)
            elif len(words) > 1 and words[0].upper() == "$INCLUDE":
                target = words[1].strip('"')
                if not target.startswith("/"):
                    target = posixpath.join(directory or posixpath.dirname(file), target)
                inner = _absolute(words[2], current) if len(words) > 2 else current
                read(posixpath.normpath(target), inner, (*chain, file), f"{file}:{number}")

    read(path, origin, (), path)
    return out


def _absolute(name: str, origin: str) -> str:
    return name if name.endswith(".") else f"{name}.{origin}".replace("..", ".")


def joined(text: str) -> tuple[str, dict[int, int]]:
    """`text` with each parenthesised record (`name IN CNAME (` ... `)`) on its first line, its
    parentheses and comments dropped, the lines it took after the first left empty; and
    {first line: lines taken} for each."""
    lines = text.split("\n")
    spans: dict[int, int] = {}
    i = 0
    while i < len(lines):
        first = strip_comment(lines[i])
        depth = _parens(first)
        if depth <= 0:
            i += 1
            continue
        start, parts = i, [first]
        while depth > 0 and i + 1 < len(lines):
            i += 1
            part = strip_comment(lines[i])
            parts.append(part)
            depth += _parens(part)
        words = " ".join(parts).replace("(", " ").replace(")", " ").split()
        lines[start] = (" " if first[:1].isspace() else "") + " ".join(words)  # a blank owner stays blank
        lines[start + 1:i + 1] = [""] * (i - start)
        spans[start + 1] = i - start + 1
        i += 1
    return "\n".join(lines), spans


def _parens(line: str) -> int:
    """Opened minus closed parentheses outside quotes."""
    depth, quote = 0, False
    for char in line:
        if char == '"':
            quote = not quote
        elif not quote:
            depth += (char == "(") - (char == ")")
    return depth
