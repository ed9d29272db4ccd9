"""Render a resolver's BIND zone files: pure and deterministic but for the SOA serial.

BIND serves a zone only from a whole zone file, so renamer owns whole files in snippet_dir:
one per zone - each site's forward zone (its domain) and each reverse zone of its networks
(the enclosing octet, or nibble, boundary: 10.251.0.0/16 -> 251.10.in-addr.arpa) - and
`renamer-zones.conf`, which declares them (`zone "fv.lan" { type master; file "..."; };`)
and which the operator's named.conf includes once. Every owner name is written absolute, so
no $ORIGIN is needed to read a file back. Records: A/AAAA for each host's FQDN, a PTR naming
the FQDN for each address, a CNAME to the FQDN for each alias (BIND answers the CNAME with its
target's address), the canary TXT. One-label names are no zone's: BIND serves FQDNs only.

The SOA serial is YYYYMMDDnn: `render` writes today's nn=00; `settle` keeps the live file as it
is when nothing else changed, else moves the serial past the live one by RFC 1982 (dns/plan.py
calls it once the live files are read; a live serial it cannot read is refused); `restored`
moves a rolled-back file's serial past the failed apply's. The canary digests a site's records,
never the serial.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import ipaddress
import re
import textwrap
from collections.abc import Iterable

from renamer import lazy_re
from renamer.clock import shown_time
from renamer.dns.inventory import Inventory, Resolver, Site
from renamer.dns.transport import OwnFiles
from renamer.errors import ConfigError, UnsafeError
from renamer.names import IPNetwork

PREFIX = "renamer-"
ZONES = "renamer-zones.conf"  # the one file named.conf includes
# the highest SOA serial renamer has written for each zone, kept when a zone's file goes (a site
# taken off, a network moved, a rollback removing a zone the apply added), so the zone written
# afresh later goes past what named served and its secondaries hold (DNS break-it round 3, 01)
SERIALS = "renamer-serials"
SNIPPET = lazy_re.compile(r"renamer-(?:zones\.conf|serials|[a-z0-9][a-z0-9._-]{0,250}\.zone)")
LEFTOVER = lazy_re.compile(r"\.renamer-(?:serials|[a-z0-9][a-z0-9._-]{0,250}\.(?:zone|conf))"
                      r"\.[A-Za-z0-9_]{6,12}(?:\.tmp)?")
FILES = OwnFiles(SNIPPET, "renamer-*", LEFTOVER, ".renamer-*.?????? .renamer-*.????????.tmp")
CANARY_NAME = "_renamer."
TTL = 300
_TYPES = {"A", "AAAA", "PTR", "CNAME", "TXT", "SOA", "NS", "MX", "SRV", "CAA", "DNAME"}
_CLASSES = {"IN", "CH", "HS", "CS"}


def zone_file(zone: str) -> str:
    return f"{PREFIX}{zone}.zone"


def snippet_name(site: Site) -> str:
    return zone_file(site.domain)


def reverse_zone(network: IPNetwork) -> str:
    """The reverse zone holding `network`: its prefix cut down to an octet (IPv4) or nibble (IPv6)."""
    step = 8 if network.version == 4 else 4
    whole = network.prefixlen // step * step
    if whole == 0:
        raise ConfigError(f"network {network}: shorter than /{step}, no reverse zone of its own for BIND")
    pointer = network.network_address.reverse_pointer.split(".")
    labels = 4 if network.version == 4 else 32
    return ".".join(pointer[labels - whole // step:])


def _site_records(site: Site) -> tuple[list[str], list[tuple[str, str]]]:
    """(forward zone lines, (reverse pointer, PTR line)) of one site, owner names absolute."""
    forward: list[str] = []
    ptrs: list[tuple[str, str]] = []
    for host in site.hosts:
        warning = host.warning_text()
        if warning:
            forward += [f"; {part}" for part in textwrap.wrap(f"WARNING {host.name}: {warning}", width=76)]
        fqdn = site.fqdn(host.name)
        for address in host.addresses:
            forward.append(f"{fqdn}. IN {'AAAA' if address.version == 6 else 'A'} {address}")
            ptrs.append((address.reverse_pointer, f"{address.reverse_pointer}. IN PTR {fqdn}."))
        forward += [f"{site.fqdn(alias)}. IN CNAME {fqdn}." for alias in host.aliases]
    for moved in site.transitional:  # an old name, a CNAME to its new FQDN until its date (dns/transition.py)
        forward += [f"; transitional until {shown_time(moved.expires)}: {moved.name}, renamed {moved.host}",
                    f"{moved.fqdn}. IN CNAME {moved.target}."]
    return forward, ptrs


def canary(site: Site) -> tuple[str, str]:
    """(TXT name, value) that prove a resolver serves this very rendering of `site`."""
    forward, ptrs = _site_records(site)
    body = "\n".join(forward + [line for _, line in ptrs]) + "\n"
    return f"{CANARY_NAME}{site.name}.{site.domain}", hashlib.sha256(body.encode()).hexdigest()[:16]


def today_serial(today: dt.date | None = None) -> int:
    return int((today or dt.date.today()).strftime("%Y%m%d")) * 100


def _zone_text(zone: str, sources: Iterable[str], lines: list[str]) -> str:
    head = [f"; Managed by renamer: zone {zone}, from {', '.join(sorted(set(sources)))}.",
            "; Do not edit: `renamer dns apply` overwrites this file. Change the inventory instead.",
            f"$TTL {TTL}",
            f"{zone}. IN SOA localhost. hostmaster.{zone}. {today_serial()} 3600 600 604800 {TTL}",
            f"{zone}. IN NS localhost."]
    for line in lines:  # the inventory's grammar already refuses this: a second, independent guard
        if not line.isprintable() or '"' in line.partition(" TXT ")[0]:
            raise ConfigError(f"refusing to render a zone line BIND would misread: {line!r}")
    return "\n".join(head + lines) + "\n"


def render_zones(sites: list[Site]) -> dict[str, str]:
    """file name -> zone file, for these sites: a forward zone per domain, a reverse zone per
    network (sites sharing a zone share its file)."""
    zones: dict[str, list[str]] = {}
    sources: dict[str, list[str]] = {}
    for site in sites:
        forward, _ = _site_records(site)
        name, digest = canary(site)
        zones.setdefault(site.domain, []).extend([*forward, f'{name}. IN TXT "{digest}"'])
        sources.setdefault(site.domain, []).append(site.source)
        for network in site.networks:
            sources.setdefault(reverse_zone(network), []).append(site.source)
            zones.setdefault(reverse_zone(network), [])
    reverse = sorted((z for z in zones if z.endswith(".arpa")), key=len, reverse=True)
    for site in sites:
        for pointer, line in _site_records(site)[1]:
            home = next((z for z in reverse if pointer.endswith("." + z)), None)
            if home is not None:
                zones[home].append(line)
    # Nested zones (a site's /24 inside another's /16, lab.ana.lan under ana.lan) are served
    # fine: each PTR is homed in the longest zone above, and a forward name in its site's domain.
    # Only a forward name that falls inside another, longer zone renamer writes would be hidden
    # (named answers that name from the longer zone alone): refused, naming both.
    for zone, lines in zones.items():
        for line in lines:
            owner = line.split(" ", 1)[0].rstrip(".")
            inner = next((other for other in zones if len(other) > len(zone) and other != zone
                          and (owner == other or owner.endswith("." + other))), None)
            if inner is not None and not line.startswith(";"):
                outer_from, inner_from = (", ".join(sorted(set(sources[z]))) for z in (zone, inner))
                raise ConfigError(f"{owner} (zone {zone}, from {outer_from}) lies inside zone {inner} (from "
                                  f"{inner_from}), which renamer writes too: named would answer {owner} from "
                                  f"{inner} alone, where it is not: rename the host, or serve the two sites "
                                  "on separate resolvers")
    return {zone_file(zone): _zone_text(zone, sources[zone], zones[zone]) for zone in sorted(zones)}


def render_site(site: Site, resolver: Resolver | None = None) -> str:
    """The zone files of one site, one after the other (`dns render`)."""
    return "".join(render_zones([site]).values())


def zones_conf(folder: str, names: Iterable[str]) -> str:
    lines = ["// Managed by renamer: the zones of renamer's zone files here. Do not edit.",
             f'// named.conf includes it once: include "{folder}/{ZONES}";']
    for name in sorted(names):
        zone = name[len(PREFIX):-len(".zone")]
        path = f"{folder}/{name}"
        if '"' in path or not path.isprintable():
            raise ConfigError(f"snippet_dir {folder!r}: a path BIND's configuration cannot quote")
        lines.append(f'zone "{zone}" {{ type master; file "{path}"; }};')
    return "\n".join(lines) + "\n"


def render_resolver(inventory: Inventory, resolver: Resolver) -> dict[str, str]:
    try:
        files = render_zones([s for s in inventory.sites if s.name in resolver.sites])
    except ConfigError as exc:  # the line names the resolver whose zones these are
        raise ConfigError(f"{resolver.name} (backend: bind): {exc}") from None
    folder = resolver.snippet_dir.rstrip("/") or "/"
    return {**files, ZONES: zones_conf(folder, files)}


SERIAL_SPACE = 2**32  # RFC 1982: serials are 32-bit, compared and incremented modulo this


class SerialUnreadable(Exception):
    """A zone file whose SOA serial cannot be read: `line` (1-based) and why."""

    def __init__(self, line: int, why: str) -> None:
        super().__init__(why)
        self.line = line


def _tokens(text: str) -> Iterable[list[tuple[str, int, int]]]:
    """Each record of a zone file as its tokens (text, offset, line): comments dropped,
    parentheses joined (a record ends at a newline outside them), `$` directives skipped."""
    record: list[tuple[str, int, int]] = []
    depth, line, i, n = 0, 1, 0, len(text)
    while i < n:
        char = text[i]
        if char == "\n":
            line += 1
            if depth == 0:
                if record and not record[0][0].startswith("$"):
                    yield record
                record = []
            i += 1
        elif char == ";":
            while i < n and text[i] != "\n":
                i += 1
        elif char in "()":
            depth = max(0, depth + (1 if char == "(" else -1))
            i += 1
        elif char.isspace():
            i += 1
        else:
            start = i
            quote = char == '"'
            i += 1
            while i < n and (quote or not (text[i].isspace() or text[i] in "();")):
                if quote and text[i] == '"':
                    i += 1
                    break
                if text[i] == "\\":
                    i += 1
                i += 1
            record.append((text[start:i], start, line))
    if record and not record[0][0].startswith("$"):
        yield record


def serial_span(text: str) -> tuple[int, int, int] | None:
    """(start, end, line) of the SOA serial in a zone file, in any legal form (one line or in
    parentheses over several, with a TTL, a class in any case, comments); None when the file has
    no SOA; SerialUnreadable when its SOA has no serial renamer can read."""
    for record in _tokens(text):
        owner_given = record[0][1] == 0 or text[record[0][1] - 1] == "\n"
        fields = record[1:] if owner_given else record
        for index, (word, _, line) in enumerate(fields[:3]):
            if word.upper() == "SOA":
                rdata = fields[index + 1:]
                if len(rdata) < 3:
                    raise SerialUnreadable(line, "its SOA record ends before the serial")
                serial, start, at = rdata[2]
                if not serial.isdigit() or int(serial) >= SERIAL_SPACE:
                    raise SerialUnreadable(at, f"{serial!r} is not a serial (a decimal number below 2^32)")
                return start, start + len(serial), at
            if not (word.isdigit() or word.upper() in _CLASSES or re.fullmatch(r"(?i)(\d+[smhdw])+", word)):
                break
    return None


def serial_of(text: str) -> int | None:
    """The zone file's SOA serial, or None when there is none or it cannot be read."""
    try:
        span = serial_span(text)
    except SerialUnreadable:
        return None
    return int(text[span[0]:span[1]]) if span else None


def with_serial(text: str, serial: int) -> str:
    span = serial_span(text)
    assert span is not None
    return f"{text[:span[0]]}{serial}{text[span[1]:]}"


def newer(a: int, b: int) -> bool:
    """RFC 1982 section 3.2: serial `a` is greater than `b`."""
    return a != b and (a - b) % SERIAL_SPACE < 2**31


def next_serial(live: int, today: dt.date | None = None) -> int:
    """The serial after `live`: today's YYYYMMDD00 when that is newer than `live` by RFC 1982,
    else `live` + 1 (wrapping to 0 past 2^32-1, as RFC 1982 section 3.1 allows: named and its
    secondaries take it as newer)."""
    candidate = today_serial(today)
    return candidate if newer(candidate, live) else (live + 1) % SERIAL_SPACE


def restored(saved: str, now: str | None) -> str:
    """A zone file put back by a rollback: its records as they were, its serial past both the
    saved one and the one the failed apply wrote (named may have served and notified that one:
    secondaries take only a newer serial), so no serial is ever lowered or used twice."""
    if now is None or now == saved:
        return saved
    try:
        before, after = serial_span(saved), serial_span(now)
    except SerialUnreadable:
        return saved
    if before is None or after is None:
        return saved
    old, written = int(saved[before[0]:before[1]]), int(now[after[0]:after[1]])
    highest = written if newer(written, old) else old
    return with_serial(saved, (highest + 1) % SERIAL_SPACE)


def marks_of(data: bytes | str | None, strict: bool = False) -> dict[str, int]:
    """zone -> the highest serial renamer wrote for it, as SERIALS holds them (`serial ZONE N`, a
    zone in any case, with or without its final dot, a `;` comment after). `strict`: a line that
    says otherwise raises SerialUnreadable (its line): a serial dropped might be published again."""
    text = data.decode("utf-8", "replace") if isinstance(data, bytes) else (data or "")
    out: dict[str, int] = {}
    for number, line in enumerate(text.lstrip("\ufeff").splitlines(), start=1):
        words = line.split(";", 1)[0].split()
        if not words:
            continue
        if len(words) == 3 and words[0] == "serial" and words[2].isdigit() and int(words[2]) < SERIAL_SPACE:
            zone = words[1].lower().rstrip(".")
            out[zone] = _higher(out.get(zone), int(words[2]))
        elif strict:
            raise SerialUnreadable(number, f"expected `serial ZONE NUMBER`, got {line.strip()!r}")
    return out


def marks_text(marks: dict[str, int]) -> str:
    return ("; renamer: the highest SOA serial it has written for each zone, past which it writes the next\n"
            + "".join(f"serial {zone} {marks[zone]}\n" for zone in sorted(marks)))


def _zone_of(name: str) -> str:
    """The zone of one of renamer's zone files (`renamer-fv.lan.zone`), or ""."""
    ok = name.startswith(PREFIX) and name.endswith(".zone") and "/" not in name
    return name[len(PREFIX):-len(".zone")] if ok else ""


def _higher(one: int | None, other: int) -> int:
    return other if one is None or newer(other, one) else one


def settle(desired: dict[str, str | None], current: dict[str, bytes | None],
           today: dt.date | None = None) -> dict[str, str | None]:
    """The desired zone files against the live ones: a file whose records are unchanged stays
    as it is (its serial too); a changed one gets the serial after the live one (next_serial),
    and after the highest one renamer ever wrote for that zone (SERIALS), as does a zone written
    afresh. A live file whose serial cannot be read is refused (UnsafeError naming FILE:LINE): a
    serial guessed lower than what named serves would never reach its secondaries. SERIALS, where
    `desired` holds it, gets every zone's highest serial, those of zones dropped too."""
    out = dict(desired)
    try:
        marks = marks_of(current.get(SERIALS), strict=True)
    except SerialUnreadable as exc:
        raise UnsafeError(f"{SERIALS}:{exc.line}: cannot read it ({exc}); renamer will not guess a zone's "
                          "highest serial (one lower than named served never reaches its secondaries): "
                          "mend the line to `serial ZONE NUMBER`") from None
    _raise_marks(marks, current)  # a live file written before SERIALS was kept
    for name, text in desired.items():
        if text is None or not _zone_of(name):
            continue
        mark = marks.get(_zone_of(name))
        data = current.get(name)
        if data is None:
            if mark is not None and not newer(serial_of(text) or 0, mark):  # written afresh: past every one
                out[name] = with_serial(text, next_serial(mark, today))
            continue
        live = data.decode("utf-8", "replace")
        try:
            span = serial_span(live)
            if span is None:
                raise SerialUnreadable(1, "it has no SOA record")
        except SerialUnreadable as exc:
            raise UnsafeError(f"{name}:{exc.line}: SOA serial: cannot read the live serial ({exc}); renamer "
                              "will not guess one (a serial lower than named serves never reaches its "
                              "secondaries): give the file's SOA a decimal serial, or remove the file"
                              ) from None
        if with_serial(live, 0) == with_serial(text, 0):
            out[name] = live
            continue
        out[name] = with_serial(text, next_serial(_higher(mark, int(live[span[0]:span[1]])), today))
    if SERIALS in desired:
        _raise_marks(marks, out)
        out[SERIALS] = marks_text(marks)
    return out


def _raise_marks(marks: dict[str, int], files: dict[str, str | None] | dict[str, bytes | None]) -> None:
    """`marks` raised to the serial of each of renamer's zone files in `files` that has one."""
    for name, data in files.items():
        zone = _zone_of(name)
        text = data.decode("utf-8", "replace") if isinstance(data, bytes) else data
        serial = serial_of(text) if text is not None and zone else None
        if serial is not None:
            marks[zone] = _higher(marks.get(zone), serial)


def restored_marks(saved: bytes, now: bytes | None) -> bytes:
    """SERIALS put back by a rollback: every zone's highest serial of both, never lowered (the
    failed apply's serials may have been served)."""
    marks = marks_of(saved)
    for zone, serial in marks_of(now).items():
        marks[zone] = _higher(marks.get(zone), serial)
    return marks_text(marks).encode("utf-8")


def strip_comment(line: str) -> str:
    """The zone line without its comment: a `;` outside quotes starts one."""
    quote = False
    for i, char in enumerate(line):
        if char == '"':
            quote = not quote
        elif char == ";" and not quote:
            return line[:i]
    return line


def zone_records(text: str, origin: str = ".") -> list[tuple[int, str, str, str]]:
    """(line number, owner lower case without the final dot, TYPE, value) of each simple record
    line of a zone file: $ORIGIN followed, a blank owner is the previous one, `@` the origin.
    Parenthesised multi-line records give their first line only (an SOA: never a host record)."""
    out = []
    owner = origin
    for number, raw in enumerate(text.splitlines(), 1):
        line = strip_comment(raw)
        words = line.split()
        if not words:
            continue
        if words[0].upper() == "$ORIGIN" and len(words) > 1:
            origin = words[1] if words[1].endswith(".") else f"{words[1]}.{origin}".replace("..", ".")
            continue
        if words[0].startswith("$"):
            continue
        if not line[0].isspace():
            name, words = words[0], words[1:]
            owner = origin if name == "@" else name if name.endswith(".") else f"{name}.{origin}"
        while words and (words[0].isdigit() or words[0].upper() in _CLASSES):
            words = words[1:]
        if len(words) < 2 or words[0].upper() not in _TYPES:
            continue
        rdtype, value = words[0].upper(), " ".join(words[1:])
        if rdtype in ("PTR", "CNAME") and not value.endswith("."):
            value = f"{value}.{origin}".replace("..", ".")
        out.append((number, owner.lower().rstrip(".") or ".", rdtype, value))
    return out


def answers_of(text: str) -> list[tuple[str, str, str]]:
    return [(name, rdtype, value) for _, name, rdtype, value in zone_records(text)]


def canary_of(text: str) -> tuple[str, str] | None:
    for name, rdtype, value in answers_of(text):
        if rdtype == "TXT" and name.startswith(CANARY_NAME):
            return name, value.strip('"')
    return None


_RENDERED = lazy_re.compile(
    r'^\S+\. IN (?:A|AAAA|PTR|CNAME|NS|SOA) .*$|^_renamer\.\S+\. IN TXT "[0-9a-f]{16}"$'
                       r'|^\$TTL \d+$|^zone "[^"]+" \{ type master; file "[^"]+"; \};$|^serial \S+ \d+$')


def drift(text: str) -> list[str]:
    """Lines of a managed file that renamer never writes (edited by hand)."""
    return [line for line in text.splitlines()
            if line.strip() and not line.lstrip().startswith((";", "//")) and not _RENDERED.match(line)]


def host_records(text: str) -> list[tuple[list[str], str]]:
    return [([name], value) for name, rdtype, value in answers_of(text) if rdtype in ("A", "AAAA")]


def records(text: str) -> dict[str, str]:
    """name -> what it points at (plan summaries): the keys dnsmasq's render.records gives."""
    out: dict[str, str] = {}
    for name, rdtype, value in answers_of(text):
        if rdtype in ("A", "AAAA"):
            out[f"{name} AAAA" if rdtype == "AAAA" else name] = f"{rdtype} {value}"
        elif rdtype == "CNAME":
            out[name] = f"CNAME {value.rstrip('.')}"
        elif rdtype not in ("PTR", "SOA", "NS") and not (rdtype == "TXT" and name.startswith(CANARY_NAME)):
            out[f"{rdtype.lower()}:{name}"] = f"{rdtype} {value}"
    return out


def pointer(address: str) -> str:
    return ipaddress.ip_address(address).reverse_pointer
