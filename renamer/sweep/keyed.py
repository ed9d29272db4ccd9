"""Keyed lines: what two lines of one kind may not share, in every keyed format the sweep knows.

Each line gives its keys, each with its character span on the line and the data it holds there
(two identical records are one; two different ones under one name are two machines):

* mapping keys and `key=` lines of one parent, INI/TOML sections, hosts of one Ansible INI group;
* ssh `Host` blocks (ssh uses the first that matches: the second would never apply);
* hosts-file entries, by name;
* zone records by absolute owner and type (`$ORIGIN` and `@` resolved, an owner left out is the
  previous line's), and the owner itself where a CNAME stands (a CNAME beside other data is an
  error to every DNS server);
* dnsmasq `host-record`, `dhcp-host` (by name and by address: dnsmasq refuses a duplicate
  dhcp-host address), `address=/name/`, `cname`, `ptr-record`, `txt-record`;
* Unbound `local-data` (as a zone record) and `local-data-ptr` (by address).

Keys compare by what their reader takes them to mean, not by their bytes (issue 27, break-it 1
and 4): a double-quoted key's escapes decoded (`"fv\\u002dml1"`, `"fv\\x2dml1"` are `fv-ml1`), an
address in its canonical spelling (`[fd00:251:0:0::54]`, `::ffff:10.0.0.5`), DNS names and ssh
`Host` names (ssh lower-cases the host it matches) in lower case. `may_stand` answers, cheaply,
whether a new value stands in a file in any of those spellings: only then are its keys compared.

sweep/merges.py compares them; this module only reads lines.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Iterable
from dataclasses import dataclass

from renamer import lazy_re
from renamer.escapes import decoded

_SECTION = lazy_re.compile(r"^\s*\[\[?\s*(?P<key>[^\]]+?)\s*\]\]?\s*(?:[#;].*)?$")
_MAPPING = lazy_re.compile(r"""^(?P<indent>\s*)(?P<item>-\s+)?(?P<q>["']?)(?P<key>[^\s:#="'{}\[\],]+)(?P=q)"""
                      r"\s*:(?:\s|$)")
_ASSIGN = lazy_re.compile(
    r"""^(?P<indent>\s*)(?:export\s+)?(?P<q>["']?)(?P<key>[A-Za-z_][\w.-]*)(?P=q)\s*=""")
# A TOML (or INI-like) key in double quotes that holds escapes: `"fv\u002dml1" = 2`.
_QUOTED_ASSIGN = lazy_re.compile(r'^(?P<indent>\s*)(?P<q>")(?P<key>(?:[^"\\\n]|\\.)+)"\s*=')
# What a double-quoted YAML, JSON or TOML key's escapes spell; a single-quoted or bare key has none.
_KEY_ESCAPE = lazy_re.compile(r"\\(?:x(?P<x>[0-9A-Fa-f]{2})|u(?P<u>[0-9A-Fa-f]{4})|U(?P<U>[0-9A-Fa-f]{8})"
                         r"|(?P<c>.))")
_SIMPLE = {"n": "\n", "t": "\t", "r": "\r", "0": "\0", "b": "\b", "f": "\f", "e": "\x1b", " ": " ",
           "/": "/", "\\": "\\", '"': '"', "_": "\xa0", "N": "\x85", "L": "\u2028", "P": "\u2029"}
# An IPv6 address (or IPv4-mapped) in any spelling, for `may_stand`.
_V6_WORD = lazy_re.compile(rb"(?:[0-9A-Fa-f]{0,4}:){2,7}(?:\d{1,3}(?:\.\d{1,3}){3}|[0-9A-Fa-f]{1,4})?")
_TYPES = r"A|AAAA|CNAME|PTR|MX|TXT|SRV|NS|CAA|SSHFP|HINFO|DNAME|TLSA|HTTPS|SVCB"
# A zone record: owner (or none: the previous line's), TTL and class in either order, type, data.
# Asked only of a zone (line_keys' `records`), where keywords are case-insensitive (`www in a`).
_RECORD = lazy_re.compile(r"^(?P<key>[^\s;$\"]+)?\s+(?:(?:\d+[smhdw]?|IN|CH|HS)\s+)*"
                     rf"(?P<type>{_TYPES})\s+(?P<data>[^;]+?)\s*(?:;.*)?$", re.IGNORECASE)
_ORIGIN = lazy_re.compile(r"^\$ORIGIN\s+(?P<origin>\S+)", re.IGNORECASE)
_DNSMASQ = lazy_re.compile(r"^\s*(?P<type>host-record|dhcp-host|address|cname|ptr-record|txt-record)\s*="
                      r"(?P<value>.*?)\s*$")
_UNBOUND = lazy_re.compile(
    r"""^\s*(?P<type>local-data|local-data-ptr)\s*:\s*(?P<q>["'])(?P<value>.*)(?P=q)\s*$""")
# ssh_config: `Host web01 web01.lab` (`host = web01` is an INI or TOML key: values may merge).
# (Not dhcpd's `host web01 { ... }`: a brace opens a declaration, no ssh block; round 23, #09.)
# A pg_hba.conf line: its type, database, user and address (with a mask) are its key, PostgreSQL
# taking the first line that matches (the second of one key is never reached); the method its data.
_PG_HBA = lazy_re.compile(r"^\s*(?P<key>(?:host|hostssl|hostnossl|hostgssenc|hostnogssenc)\s+\S+\s+\S+\s+"
                     r"(?P<address>[0-9A-Fa-f.:]+/\d+|[0-9.]+\s+[0-9.]+))\s+(?P<method>\S+.*?)\s*(?:#.*)?$")
_SSH_HOST = lazy_re.compile(r"^\s*(?:Host|host|HOST)\s+(?P<names>[^#=\s{][^#={]*?)\s*(?:#.*)?$")
# A hosts file's line: an address, then its names.
_HOSTS_LINE = lazy_re.compile(r"^\s*(?P<address>[0-9A-Fa-f.:]+(?:%\w+)?)\s+(?P<names>[^#]+?)\s*(?:#.*)?$")
# An Ansible INI inventory's host line inside a group: a name, then only `var=value` pairs.
_INVENTORY_HOST = lazy_re.compile(r"^(?P<key>[A-Za-z0-9_.\-]+)(?:\s+[\w.]+=\S*)*\s*$")
_WORD = lazy_re.compile(r"\S+")
_FIELD = lazy_re.compile(r"[^,]+")
_MAC = lazy_re.compile(r"^(?:[0-9A-Fa-f*]{1,2}[:-]){5}[0-9A-Fa-f*]{1,2}$")
_LEASE = lazy_re.compile(r"^(?:\d+[smhdw]?|infinite)$", re.IGNORECASE)


@dataclass(frozen=True)
class Key:
    what: str  # what the two would become, said in the message: "key", "section", "A record"
    scope: str  # the parent (mapping line, INI section), the record type
    name: str


@dataclass(frozen=True)
class Found:
    key: Key
    span: tuple[int, int]  # the characters of the line that name the key
    data: str  # what the line holds under the key: two identical records are one
    # A key that no other key may stand beside (a CNAME's owner); `data` is then the type.
    alone: bool = False


def line_keys(lines: list[str], *, records: bool = True) -> dict[int, list[Found]]:
    """Each line's keys, by 0-based line index; `records`: the text is a zone (formats/zone.py
    says so), whose record lines are keys too."""
    out: dict[int, list[Found]] = {}
    parents: list[tuple[int, str]] = []  # (indent, line) of the open YAML mappings
    section, origin, owner = "", "", ""
    for index, line in enumerate(lines):
        text = line.rstrip("\r")
        if not text.strip() or text.lstrip().startswith(("#", ";")):
            continue
        if m := _ORIGIN.match(text):
            origin = _absolute(m.group("origin"), origin)
            continue
        if m := _SECTION.match(text):
            section = m.group("key")
            out[index] = [Found(Key("section", "", section), m.span("key"), "")]
            parents = []
            continue
        if m := _DNSMASQ.match(text):
            out[index] = _dnsmasq(m.group("type"), m.group("value"), m.start("value"))
            continue
        if m := _UNBOUND.match(text):
            out[index] = _unbound(m.group("type"), m.group("value"), m.start("value"))
            continue
        if records and (m := _RECORD.match(text)) and (m.group("key") or owner):
            if m.group("key"):
                owner = _absolute(m.group("key"), origin)
            span = m.span("key") if m.group("key") else (0, 0)  # left out: the previous line's
            out[index] = _record(owner, m.group("type"), m.group("data"), span)
            continue
        if m := _PG_HBA.match(text):  # no ssh `Host` line (t33-33 finding 12)
            out[index] = [Found(Key("pg_hba entry", "pg_hba", " ".join(m.group("key").split())),
                                m.span("address"), m.group("method"))]
            continue
        if found := _words(text, _SSH_HOST, "names", "ssh Host block", "Host", "", lower=True):
            out[index] = found
            continue
        if (m := _HOSTS_LINE.match(text)) and is_address(m.group("address")):
            out[index] = _words(text, _HOSTS_LINE, "names", "hosts-file entry", "hosts",
                                canonical(m.group("address")), lower=True)
            continue
        indent = len(text) - len(text.lstrip())
        while parents and parents[-1][0] >= indent:
            parents.pop()
        if m := _MAPPING.match(text) or _ASSIGN.match(text) or _QUOTED_ASSIGN.match(text):
            # Two items of a list are two mappings: `- a:` and `- b:` never share a parent.
            item = f"\nitem {index}" if m.groupdict().get("item") else ""
            scope = section + "\n" + "\n".join(p for _, p in parents) + item
            key = unquoted(m.group("key")) if m.group("q") == '"' else m.group("key")
            out[index] = [Found(Key("key", scope, key), m.span("key"), "")]
            parents.append((indent, text.strip()))
        elif section and (m := _INVENTORY_HOST.match(text)):
            name = f"{m.group('key')} of the inventory group [{section}]"
            out[index] = [Found(Key("host", section, name), m.span("key"), "")]
    return out


def _absolute(name: str, origin: str) -> str:
    """A zone owner as an absolute, lower-case name (DNS names are case-insensitive)."""
    name = name.lower()
    if name == "@":
        return origin
    if name.endswith("."):
        return name
    return f"{name}.{origin}" if origin else name


def _record(owner: str, kind: str, data: str, span: tuple[int, int]) -> list[Found]:
    kind = kind.upper()
    data = " ".join(data.split()).lower()
    if kind in ("A", "AAAA") and is_address(data):
        data = canonical(data)  # `fd00::5` and `fd00:0::5` are one record
    found = [Found(Key(f"{kind} record", kind, owner), span, data)]
    # Every record of an owner meets a CNAME there: one key per owner, `alone` where a CNAME stands.
    found.append(Found(Key("owner of a CNAME", "owner", owner), span, kind, alone=kind == "CNAME"))
    return found


def _dnsmasq(kind: str, value: str, base: int) -> list[Found]:
    """dnsmasq's records: which fields are names, which the data they hold."""
    if kind == "address":  # address=/a/b/10.0.0.1: names between slashes, the address last
        parts = [(m.start(), m.group()) for m in re.finditer(r"[^/]+", value)]
        if len(parts) < 2 or not value.startswith("/"):
            return []
        data = canonical(parts[-1][1])
        return [Found(Key("address record", kind, name.lower()), (base + at, base + at + len(name)), data)
                for at, name in parts[:-1]]
    fields = [(m.start(), m.group().strip()) for m in _FIELD.finditer(value)]
    if kind == "dhcp-host":
        return _dhcp_host(fields, base)
    if kind == "host-record":
        names = [(at, f) for at, f in fields if not is_address(f) and not f.isdigit()]
        data = ",".join(sorted(canonical(f) for _, f in fields if is_address(f)))
    else:  # cname=alias[,alias],target[,ttl]; ptr-record=name,target; txt-record=name,text
        if len(fields) < 2:
            return []
        named = fields[:-2] if kind == "cname" and fields[-1][1].isdigit() else fields[:-1]
        names = named if kind == "cname" else fields[:1]
        data = ",".join(f for _, f in fields[len(names):])
    return [Found(Key(f"{kind} record", kind, name.lower()), (base + at, base + at + len(name)), data.lower())
            for at, name in names]


def _dhcp_host(fields: list[tuple[int, str]], base: int) -> list[Found]:
    """dhcp-host=[hwaddr][,id:..][,set:..][,address][,name][,lease]: a name and an address that
    two lines may not share (dnsmasq refuses a duplicate address); the data is the client."""
    client = ",".join(f.lower() for _, f in fields if _MAC.match(f) or f.startswith("id:"))
    out = []
    for at, f in fields:
        span = (base + at, base + at + len(f))
        if is_address(f.strip("[]")):
            out.append(Found(Key("dhcp-host address", "dhcp-host address", canonical(f.strip("[]"))), span,
                             client))
        elif not (_MAC.match(f) or ":" in f or _LEASE.match(f) or f in ("ignore", "*")):
            out.append(Found(Key("dhcp-host name", "dhcp-host", f.lower()), span, client))
    return out


def _unbound(kind: str, value: str, base: int) -> list[Found]:
    if kind == "local-data-ptr":
        words = list(_WORD.finditer(value))
        if len(words) < 2:
            return []
        first = words[0]
        return [Found(Key("local-data-ptr", kind, canonical(first.group())),
                      (base + first.start(), base + first.end()), words[-1].group().lower().rstrip("."))]
    m = _RECORD.match(value)
    if m is None or not m.group("key"):
        return []
    owner = _absolute(m.group("key"), "")
    owner = owner if owner.endswith(".") else owner + "."  # Unbound reads every owner as absolute
    start, end = m.span("key")
    return _record(owner, m.group("type"), m.group("data"), (base + start, base + end))


def _words(text: str, pattern: re.Pattern[str], group: str, what: str, scope: str, payload: str,
           *, lower: bool = False) -> list[Found]:
    """One key per word of a line's name list (`Host a b`, `10.0.0.1 a a.lan`)."""
    m = pattern.match(text)
    if m is None:
        return []
    base = m.start(group)
    return [Found(Key(what, scope, w.group().lower() if lower else w.group()),
                  (base + w.start(), base + w.end()), payload) for w in _WORD.finditer(m.group(group))]


def is_address(text: str) -> bool:
    try:
        ipaddress.ip_address(text.split("%", 1)[0])
    except ValueError:
        return False
    return True


def canonical(text: str) -> str:
    """An address as every reader compares it: IPv6 compressed in lower case, an IPv4-mapped IPv6
    address as its IPv4 address, a zone index (`%eth0`) kept; anything else as it is."""
    address, _, zone = text.partition("%")
    try:
        parsed = ipaddress.ip_address(address)
    except ValueError:
        return text
    if isinstance(parsed, ipaddress.IPv6Address) and parsed.ipv4_mapped is not None:
        parsed = parsed.ipv4_mapped
    return f"{parsed.compressed}%{zone}" if zone else parsed.compressed


def unquoted(key: str) -> str:
    """A double-quoted key as its reader decodes it (`fv\\u002dml1` is `fv-ml1`); an escape no
    reader knows stays as written."""
    def one(m: re.Match[str]) -> str:
        digits = m.group("x") or m.group("u") or m.group("U")
        if digits is not None:
            code = int(digits, 16)
            return chr(code) if code <= 0x10FFFF and not 0xD800 <= code < 0xE000 else m.group()
        return _SIMPLE.get(m.group("c"), m.group())
    return _KEY_ESCAPE.sub(one, key) if "\\" in key else key


def may_stand(data: bytes, news: Iterable[str]) -> bool:
    """Whether any new value may stand in `data` already, in any spelling a key comparison reads
    as the same (any case, escaped, an address spelled otherwise): the cheap question asked of
    each file the sweep changes before its keys are compared."""
    values = set(news)
    lowered = data.lower()
    if any(new.lower().encode() in lowered for new in values):
        return True
    if b"\\" in data or b"%" in data or b"&#" in data:
        plain = decoded(data).lower()
        if any(new.lower().encode() in plain for new in values):
            return True
    addresses = {canonical(new) for new in values if is_address(new)}
    if not addresses or b":" not in data:
        return False
    return any(canonical(w.group().decode()) in addresses for w in _V6_WORD.finditer(data))
