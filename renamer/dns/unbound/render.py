"""Render a site's Unbound file for one resolver: pure and deterministic.

One file per site, `renamer-<site>.conf` in snippet_dir, which the resolver's unbound.conf pulls
in with `include:` (or Debian's `include-toplevel:`): it opens its own `server:` clause, so it
loads the same either way. Each host gets `local-data:` A/AAAA records for its FQDN and its
short name and a `local-data-ptr:` naming the FQDN for each address; `local-zone: "<domain>."
static` only for an authoritative site (NXDOMAIN for every other name of the domain, as
dnsmasq's `local=`). An alias is written as its host's own A/AAAA records, not a CNAME:
Unbound's local-data does not chase a CNAME (1.17 answers the CNAME alone, which a client's
stub resolver does not follow, and a `redirect` zone resolves the target by recursion, never
from local-data), so a CNAME there would leave the alias with no address.
"""

from __future__ import annotations

import hashlib
import textwrap

from renamer import lazy_re
from renamer.clock import shown_time
from renamer.dns.inventory import Inventory, Resolver, Site
from renamer.dns.transport import OwnFiles
from renamer.errors import ConfigError
from renamer.names import parse_address

PREFIX = "renamer-"
SNIPPET = lazy_re.compile(r"renamer-[a-z0-9][a-z0-9_-]{0,62}\.conf")
LEFTOVER = lazy_re.compile(r"\.renamer-[a-z0-9][a-z0-9_-]{0,62}\.conf\.[A-Za-z0-9_]{6,12}(?:\.tmp)?")
FILES = OwnFiles(SNIPPET, "renamer-*.conf", LEFTOVER, ".renamer-*.conf.?????? .renamer-*.conf.????????.tmp")
CANARY_NAME = "_renamer."
# local-data: "NAME [TTL] [CLASS] TYPE VALUE" (double or single quotes), local-data-ptr: "ADDRESS [TTL] NAME"
LINE = lazy_re.compile(
    r"""^\s*(local-data|local-data-ptr|local-zone)\s*:\s*(?:"([^"]*)"|'([^']*)')\s*(.*)$""")
_CLASSES = {"IN", "CH", "HS", "CS"}


def snippet_name(site: Site) -> str:
    return f"{PREFIX}{site.name}.conf"


def _data(name: str, rdtype: str, value: str) -> str:
    return f'  local-data: "{name}. {rdtype} {value}"'


def render_site(site: Site, resolver: Resolver | None = None) -> str:
    """The file for `site` (the same for every Unbound resolver: no DHCP, no hosts_dir)."""
    lines = [
        f"# Managed by renamer: site {site.name}, from {site.source}.",
        "# Do not edit: `renamer dns apply` overwrites this file. Change the inventory instead.",
        "server:",
    ]
    if site.authoritative:  # NXDOMAIN for every other name of the domain, forwarded ones too
        lines.append(f'  local-zone: "{site.domain}." static')
    for host in site.hosts:
        warning = host.warning_text()
        if warning:
            wrapped = textwrap.wrap(f"WARNING {host.name}: {warning}", width=76)
            lines += [f"  # {wrapped[0]}"] + [f"  #   {part}" for part in wrapped[1:]]
        for address in host.addresses:
            rdtype = "AAAA" if address.version == 6 else "A"
            for name in (site.fqdn(host.name), host.name):
                lines.append(_data(name, rdtype, str(address)))
            lines.append(f'  local-data-ptr: "{address} {site.fqdn(host.name)}."')
        for alias in host.aliases:  # the host's addresses under the alias (see the module's docstring)
            for address in host.addresses:
                rdtype = "AAAA" if address.version == 6 else "A"
                lines += [_data(name, rdtype, str(address)) for name in (site.fqdn(alias), alias)]
    for moved in site.transitional:  # an old name until its date (dns/transition.py): as an alias
        lines.append(f"  # transitional until {shown_time(moved.expires)}: {moved.name}, "
                     f"renamed {moved.host}")
        for address in moved.addresses:
            rdtype = "AAAA" if address.version == 6 else "A"
            lines += [_data(name, rdtype, str(address)) for name in (moved.fqdn, moved.name)]
    for line in lines:  # the inventory's grammar already refuses this: a second, independent guard
        if not line.isprintable() or ('"' in line.partition(": ")[2].strip('"') and "local-data" in line):
            raise ConfigError(f"{site.source}: refusing to render a line Unbound would misread: {line!r}")
    body = "\n".join(lines) + "\n"
    name, digest = canary(site, body)
    return body + ("  # The canary: `renamer dns verify` asks for it to prove the resolver reads this file.\n"
                   f"  local-data: '{name}. TXT \"{digest}\"'\n")


def canary(site: Site, body: str) -> tuple[str, str]:
    """(TXT name, value) that prove a resolver serves this very file: a digest of the rest."""
    return f"{CANARY_NAME}{site.name}.{site.domain}", hashlib.sha256(body.encode()).hexdigest()[:16]


def render_resolver(inventory: Inventory, resolver: Resolver) -> dict[str, str]:
    return {snippet_name(site): render_site(site, resolver)
            for site in inventory.sites if site.name in resolver.sites}


def uncomment(line: str) -> str:
    """The line without its comment: a `#` outside quotes starts one (Unbound's lexer)."""
    quote = ""
    for i, char in enumerate(line):
        if quote:
            quote = "" if char == quote else quote
        elif char in "\"'":
            quote = char
        elif char == "#":
            return line[:i]
    return line


def parse(line: str) -> tuple[str, list[str]] | None:
    """(key, words of the quoted value) of a local-data, local-data-ptr or local-zone line."""
    found = LINE.match(uncomment(line))
    if found is None:
        return None
    key, value = found.group(1), found.group(2) if found.group(2) is not None else found.group(3)
    words = value.split() if key != "local-zone" else [value, *found.group(4).split()]
    return key, words


def rr(words: list[str]) -> tuple[str, str, str] | None:
    """(name lower case without the final dot, TYPE, value) of local-data's words."""
    if len(words) < 3:
        return None
    name, rest = words[0], words[1:]
    while len(rest) > 2 and (rest[0].isdigit() or rest[0].upper() in _CLASSES):
        rest = rest[1:]  # the TTL and the class
    return name.lower().rstrip("."), rest[0].upper(), " ".join(rest[1:])


def ptr(words: list[str]) -> tuple[str, str, str] | None:
    """(reverse name, PTR, target with its final dot) of local-data-ptr's words."""
    address = parse_address(words[0]) if words else None
    if address is None or len(words) < 2:
        return None
    target = words[-1].lower()
    return address.reverse_pointer, "PTR", target if target.endswith(".") else target + "."


def answers_of(line: str) -> list[tuple[str, str, str]]:
    """What Unbound answers because of one line: (name, TYPE, value); nothing for other lines."""
    parsed = parse(line)
    if parsed is None:
        return []
    key, words = parsed
    found = rr(words) if key == "local-data" else ptr(words) if key == "local-data-ptr" else None
    return [found] if found is not None else []


def canary_of(text: str) -> tuple[str, str] | None:
    for line in text.splitlines():
        for name, rdtype, value in answers_of(line):
            if rdtype == "TXT" and name.startswith(CANARY_NAME):
                return name, value.strip('"')
    return None


def drift(text: str) -> list[str]:
    """Lines of a managed file that renamer never writes (edited by hand)."""
    return [line for line in text.splitlines()
            if line.strip() and not line.strip().startswith("#") and line.strip() != "server:"
            and not _rendered(line)]


def _rendered(line: str) -> bool:
    """A line of a kind render_site writes: a static local-zone, a PTR, an A or AAAA, the canary."""
    parsed = parse(line)
    if parsed is None:
        return False
    key, words = parsed
    if key == "local-zone":
        return words[1:] == ["static"]  # the only zone render_site writes
    if key == "local-data-ptr":
        return True
    found = rr(words)
    return found is not None and (found[1] in ("A", "AAAA")
                                  or (found[1] == "TXT" and found[0].startswith(CANARY_NAME)))


def host_records(text: str) -> list[tuple[list[str], str]]:
    """(names, address) of each A or AAAA record in a file."""
    return [([name], value) for line in text.splitlines() for name, rdtype, value in answers_of(line)
            if rdtype in ("A", "AAAA")]


def records(text: str) -> dict[str, str]:
    """name -> what it points at (plan summaries): the keys dnsmasq's render.records gives."""
    out: dict[str, str] = {}
    for line in text.splitlines():
        for name, rdtype, value in answers_of(line):
            if rdtype in ("A", "AAAA"):
                out[f"{name} AAAA" if rdtype == "AAAA" else name] = f"{rdtype} {value}"
            elif rdtype == "CNAME":
                out[name] = f"CNAME {value.rstrip('.')}"
            elif rdtype not in ("PTR",) and not (rdtype == "TXT" and name.startswith(CANARY_NAME)):
                out[f"{rdtype.lower()}:{name}"] = line.strip()  # a line renamer never writes: counted too
    return out
