"""Pi-hole v6's local names: a bare name its dnsmasq qualifies with the local domain.

Pi-hole v6 keeps its local records in `/etc/pihole/pihole.toml` (`[dns] hosts = ["10.0.40.11 pug"]`,
`domain = "ana.lan"` or `[dns.domain] name = "ana.lan"`, `expandHosts = true`; `[dhcp] hosts =
["aa:bb:cc:dd:ee:ff,10.0.40.11,pug"]`) or, in its docker image, in the same keys as environment
variables (`FTLCONF_dns_hosts`, `FTLCONF_dns_domain` / `FTLCONF_dns_domain_name`,
`FTLCONF_dns_expandHosts`, `FTLCONF_dhcp_hosts`: a compose `environment:`, an env file, `docker
run -e`). Its dnsmasq serves a bare `pug` of `dns.hosts` as pug.ana.lan where `expandHosts` is on
(dnsmasq's `expand-hosts`), and a DHCP host's name always takes the domain (dnsmasq's
`dhcp-host` + `domain=`). Rewritten alone, `pug -> wolf` then serves wolf.ana.lan where the
rename says wolf.fv.lan. This module is the grammar: the bare names and the domain of one file,
as tool_names.Composed. Pure: bytes in, spans out.
"""

from __future__ import annotations

import ipaddress
import re
import tomllib
from collections.abc import Collection, Iterator

from renamer import lazy_re
from renamer.tool_names import Composed

# One of these stands in every file `composed` reads (the scan's prefilter words).
LITERALS = (b"expandHosts", b"FTLCONF_", b"[dhcp]")

_DOMAIN = lazy_re.compile(r"[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)+")
_TABLE = lazy_re.compile(rb"^[ \t]*\[(?P<name>[A-Za-z0-9_.]+)\][ \t]*(?:#[^\n]*)?$", re.MULTILINE)
_HOSTS_KEY = lazy_re.compile(rb"^[ \t]*hosts[ \t]*=[ \t]*\[", re.MULTILINE)
_TOML_STRING = lazy_re.compile(rb"\"(?P<value>[^\"\r\n]*)\"|'(?P<single>[^'\r\n]*)'")
# `FTLCONF_dns_hosts: "..."`, `- FTLCONF_dns_hosts=...`, `-e FTLCONF_dns_hosts='...'`, `X = "...";`
# (the value read by a lookahead: one line may hold several)
_ENV = lazy_re.compile(
    rb"(?<![A-Za-z0-9_])FTLCONF_(?P<key>dns_hosts|dns_domain_name|dns_domain|dns_expandHosts|"
                  rb"dhcp_hosts)[\"']?[ \t]*[:=][ \t]*(?=(?P<value>[^\r\n]*))")
_WORD = lazy_re.compile(rb"[^\s,;\"']+")


def might_hold(data: bytes) -> bool:
    return any(word in data for word in LITERALS)


def composed(data: bytes, words: Collection[str]) -> Iterator[Composed]:
    """Each bare host word in `words` that Pi-hole serves qualified with its local domain."""
    if b"FTLCONF_" in data:
        yield from _env(data, words)
    if (b"expandHosts" in data or b"[dhcp]" in data) and b"hosts" in data:
        yield from _toml(data, words)


def _toml(data: bytes, words: Collection[str]) -> Iterator[Composed]:
    try:
        document = tomllib.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError):
        return  # a template, or no TOML: nothing certain
    dns = document.get("dns")
    if not isinstance(dns, dict):
        return
    domain = dns.get("domain")
    domain = domain.get("name") if isinstance(domain, dict) else domain
    if not isinstance(domain, str) or not _DOMAIN.fullmatch(domain):
        return  # Pi-hole's default `lan`, or none: no renamed domain to break
    expand = dns.get("expandHosts") is True
    tables = [(t.start(), t.group("name")) for t in _TABLE.finditer(data)]
    for key in _HOSTS_KEY.finditer(data):
        table = next((name for at, name in reversed(tables) if at < key.start()), b"")
        if table == b"dns" and expand:
            how = f'`expandHosts = true` and `domain = "{domain}"` of the same pihole.toml'
        elif table == b"dhcp":
            how = f'`domain = "{domain}"` of the same pihole.toml (a DHCP host\'s name takes it)'
        else:
            continue
        end = _array_end(data, key.end() - 1)
        for string in _TOML_STRING.finditer(data, key.end(), end):
            group = "value" if string.group("value") is not None else "single"
            yield from _entry(data, string.start(group), string.end(group), table == b"dhcp", words, domain,
                              how)


def _array_end(data: bytes, opened: int) -> int:
    """Where the TOML array opened at `opened` closes (strings and comments skipped)."""
    at = opened + 1
    while at < len(data):
        byte = data[at:at + 1]
        if byte in (b'"', b"'"):
            close = data.find(byte, at + 1)
            at = close if close >= 0 else len(data)
        elif byte == b"#":
            newline = data.find(b"\n", at)
            at = newline if newline >= 0 else len(data)
        elif byte == b"]":
            return at
        at += 1
    return len(data)


def _entry(data: bytes, start: int, end: int, dhcp: bool, words: Collection[str], domain: str,
           how: str) -> Iterator[Composed]:
    """The host words of one `dns.hosts` entry (`10.0.40.11 pug rex`: the names after an
    address) or one `dhcp.hosts` entry (`aa:bb:cc:dd:ee:ff,10.0.40.11,pug`: any field)."""
    found = list(_WORD.finditer(data, start, end))
    if not dhcp:
        if not found or not _address(found[0].group()):
            return
        found = found[1:]
    for word in found:
        text = word.group().decode("utf-8", "replace")
        if text in words:
            yield Composed(word.start(), word.end(), text, "", f".{domain}", how)


def _address(text: bytes) -> bool:
    try:
        ipaddress.ip_address(text.decode("ascii", "replace"))
    except ValueError:
        return False
    return True


def _env(data: bytes, words: Collection[str]) -> Iterator[Composed]:
    """The same keys as FTLCONF_ variables of one file (a compose `environment:`, an env file,
    `docker run -e`, a Nix attribute set): a list's entries split at `;` or a new line."""
    values: dict[bytes, list[tuple[int, int]]] = {}
    for found in _ENV.finditer(data):
        start, end = _value(data, found)
        if found.group("key") != b"dns_hosts" and found.group("key") != b"dhcp_hosts":
            token = data[start:end].split(None, 1)  # a domain, a boolean: one word (`-e X=ana.lan -e ...`)
            end = start + len(token[0]) if token else start
        values.setdefault(found.group("key"), []).append((start, end))
    domains = {data[s:e].strip().decode("utf-8", "replace") for key in (b"dns_domain", b"dns_domain_name")
               for s, e in values.get(key, [])}
    domains.discard("")
    if len(domains) != 1:
        return
    domain = domains.pop()
    if not _DOMAIN.fullmatch(domain):
        return
    expand = any(data[s:e].strip().lower() == b"true" for s, e in values.get(b"dns_expandHosts", []))
    for key, dhcp in ((b"dns_hosts", False), (b"dhcp_hosts", True)):
        if not dhcp and not expand:
            continue
        how = (f"`FTLCONF_dns_domain={domain}` of the same file (a DHCP host's name takes it)" if dhcp else
               f"`FTLCONF_dns_expandHosts` and `FTLCONF_dns_domain={domain}` of the same file")
        for start, end in values.get(key, []):
            at = start
            for entry in re.split(rb"[;\n]", data[start:end]):
                yield from _entry(data, at, at + len(entry), dhcp, words, domain, how)
                at += len(entry) + 1


def _value(data: bytes, found: re.Match[bytes]) -> tuple[int, int]:
    """The span of an FTLCONF_ variable's value: a quoted string, a YAML block scalar's lines
    (`|-`), or the rest of the line (a comment and a closing quote left out)."""
    start, end = found.start("value"), found.end("value")
    raw = found.group("value")
    before = data[found.start() - 1:found.start()]
    if before in (b'"', b"'"):  # `- "FTLCONF_dns_hosts=..."`, `-e 'FTLCONF_dns_hosts=...'`: to its quote
        close = data.find(before, start, end)
        return (start, close) if close >= 0 else (start, end)
    if raw[:1] in (b'"', b"'"):
        close = data.find(raw[:1], start + 1)
        return (start + 1, close) if close >= 0 else (start + 1, end)
    if raw.rstrip()[:1] in (b"|", b">"):  # a block scalar: the lines below, indented deeper
        line_start = data.rfind(b"\n", 0, found.start()) + 1
        indent = len(data[line_start:found.start()]) - len(data[line_start:found.start()].lstrip(b" \t-"))
        at = end + 1
        stop = end
        for line in data[end + 1:].split(b"\n"):
            if line.strip() and len(line) - len(line.lstrip(b" \t")) <= indent:
                break
            at += len(line) + 1
            stop = at - 1
        return end + 1, max(stop, end + 1)
    comment = raw.find(b" #")
    if comment >= 0:
        end = start + comment
    while end > start and data[end - 1:end] in (b'"', b"'", b" ", b"\t", b"\r", b";"):
        end -= 1
    return start, end
