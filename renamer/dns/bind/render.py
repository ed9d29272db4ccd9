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
is when nothing else changed, else bumps the serial past the live one (dns/plan.py calls it
once the live files are read). The canary digests a site's records, never the serial.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import ipaddress
import re
import textwrap
from collections.abc import Iterable

from renamer.dns.inventory import Inventory, Resolver, Site
from renamer.dns.transport import OwnFiles
from renamer.errors import ConfigError
from renamer.names import IPNetwork

PREFIX = "renamer-"
ZONES = "renamer-zones.conf"  # the one file named.conf includes
SNIPPET = re.compile(r"renamer-(?:zones\.conf|[a-z0-9][a-z0-9._-]{0,250}\.zone)")
LEFTOVER = re.compile(r"\.renamer-[a-z0-9][a-z0-9._-]{0,250}\.(?:zone|conf)\.[A-Za-z0-9_]{6,12}(?:\.tmp)?")
FILES = OwnFiles(SNIPPET, "renamer-*", LEFTOVER, ".renamer-*.?????? .renamer-*.????????.tmp")
CANARY_NAME = "_renamer."
TTL = 300
SOA = re.compile(r"^(\S+\s+IN\s+SOA\s+\S+\s+\S+\s+)(\d{1,10})(\s.*)$", re.MULTILINE)
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
    for zone in zones:
        if any(zone != other and zone.endswith("." + other) for other in zones):
            raise ConfigError(f"zone {zone} lies inside another zone renamer would write for these sites "
                              "(BIND serves the longer one alone): give them separate domains")
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
    files = render_zones([s for s in inventory.sites if s.name in resolver.sites])
    folder = resolver.snippet_dir.rstrip("/") or "/"
    return {**files, ZONES: zones_conf(folder, files)}


def serial_of(text: str) -> int | None:
    found = SOA.search(text)
    return int(found.group(2)) if found else None


def settle(desired: dict[str, str | None], current: dict[str, bytes | None],
           today: dt.date | None = None) -> dict[str, str | None]:
    """The desired zone files against the live ones: a file whose records are unchanged stays
    as it is (its serial too); a changed one gets max(today's YYYYMMDD00, live serial + 1)."""
    out = dict(desired)
    for name, text in desired.items():
        if text is None or not name.endswith(".zone") or "/" in name:
            continue
        data = current.get(name)
        live = data.decode("utf-8", "replace") if data is not None else None
        live_serial = serial_of(live) if live is not None else None
        if live is None or live_serial is None:
            continue
        if SOA.sub(r"\g<1>0\g<3>", live) == SOA.sub(r"\g<1>0\g<3>", text):
            out[name] = live
            continue
        serial = max(today_serial(today), live_serial + 1)
        if serial >= 2**32:
            raise ConfigError(f"{name}: live SOA serial {live_serial} cannot grow past 2^32-1")
        out[name] = SOA.sub(rf"\g<1>{serial}\g<3>", text, count=1)
    return out


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


_RENDERED = re.compile(r'^\S+\. IN (?:A|AAAA|PTR|CNAME|NS|SOA) .*$|^_renamer\.\S+\. IN TXT "[0-9a-f]{16}"$'
                       r'|^\$TTL \d+$|^zone "[^"]+" \{ type master; file "[^"]+"; \};$')


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
