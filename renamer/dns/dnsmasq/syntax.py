"""dnsmasq's line syntax, as its read_file parses it: comments, quotes, commas, paths,
conf-dir suffixes, server specs and hosts-file lines (see dnsmasq/config.py for the walk)."""

from __future__ import annotations

import ipaddress
import posixpath
import re
from collections.abc import Sequence
from dataclasses import dataclass

from renamer import lazy_re

SPACE = " \t\n\r\v\f"  # C isspace() in the C locale
_ESCAPES = {"t": "\t", "n": "\n", "b": "\b", "r": "\r", "e": "\033", '"': '"', "\\": "\\"}
_HOSTS_SPLIT = lazy_re.compile(r"[ \t\r\v\f]+")
_SNIPPET_HEAD = lazy_re.compile(r"[a-z0-9_-]+")  # what can stand before ".conf" in a renamer-<site>.conf name


@dataclass(frozen=True)
class Directive:
    file: str
    line: int  # 1-based
    key: str  # the long option name: conf-dir, host-record, server, no-resolv...
    value: str  # as written after `=` (quotes kept), trimmed; "" for a bare option


@dataclass(frozen=True)
class HostsEntry:
    file: str
    line: int
    address: str
    names: tuple[str, ...]



def strip_comment(raw: str) -> str | None:
    """The line without its comment, trimmed; None for an unclosed quote (src/option.c read_file).

    `#` is a comment at the start of the line or after whitespace, never inside double
    quotes. As in dnsmasq, a closing quote does not count as whitespace or text: the
    character after it is judged by what came before the quote."""
    out: list[str] = []
    white = True
    i, size = 0, len(raw)
    while i < size:
        char = raw[i]
        if char == '"':
            j = i + 1
            while j < size and raw[j] != '"':
                j += 2 if raw[j] == "\\" and j + 1 < size and raw[j + 1] in _ESCAPES else 1
            if j >= size:
                return None
            out.append(raw[i:j + 1])
            i = j + 1
            continue
        if char in SPACE:
            white = True
        elif white and char == "#":
            break
        else:
            white = False
        out.append(char)
        i += 1
    return "".join(out).strip(SPACE)


def unquote(text: str) -> str:
    """What dnsmasq makes of a quoted value: quotes removed, escapes applied inside them."""
    if '"' not in text:
        return text
    out: list[str] = []
    quoted = False
    i = 0
    while i < len(text):
        char = text[i]
        if char == '"':
            quoted = not quoted
        elif quoted and char == "\\" and i + 1 < len(text) and text[i + 1] in _ESCAPES:
            out.append(_ESCAPES[text[i + 1]])
            i += 1
        else:
            out.append(char)
        i += 1
    return "".join(out)


def split_commas(value: str) -> list[str]:
    """Comma-separated items, trimmed, a comma inside quotes kept (dnsmasq's split())."""
    items: list[str] = []
    current: list[str] = []
    quoted = False
    i = 0
    while i < len(value):
        char = value[i]
        if quoted and char == "\\" and i + 1 < len(value) and value[i + 1] in _ESCAPES:
            current.append(value[i:i + 2])
            i += 2
            continue
        if char == '"':
            quoted = not quoted
        if char == "," and not quoted:
            items.append("".join(current).strip(SPACE))
            current = []
        else:
            current.append(char)
        i += 1
    items.append("".join(current).strip(SPACE))
    return items if any(items) else []


def dhcp_host_fields(value: str) -> list[str]:
    """A dhcp-host line's comma-separated fields, lower case, an IPv6 address's brackets dropped."""
    return [p.strip().strip("[]").lower() for p in value.split(",")]


def bare_mac(field: str) -> str:
    """A dhcp-host MAC field without its ARP hardware type (`01-aa:bb:..` is `aa:bb:..`)."""
    return field.split("-")[-1]


def resolve(path: str, cwd: str) -> str:
    return path if path.startswith("/") else posixpath.join(cwd or "/", path)


def key(path: str) -> str:
    """A path for comparison: no repeated or trailing slash, no `.`/`..` steps."""
    return posixpath.normpath(re.sub("/+", "/", path))


def join(folder: str, name: str) -> str:
    return folder.rstrip("/") + "/" + name


# conf-dir filters

def always_skipped(name: str) -> bool:
    """Emacs backups and dotfiles, skipped in every folder dnsmasq reads (file_filter)."""
    return (not name or name.endswith("~") or name.startswith(".")
            or (name.startswith("#") and name.endswith("#")))


def suffixes(items: Sequence[str]) -> tuple[list[str], list[str]]:
    """(required, excluded) suffixes of a conf-dir: `*.conf` is required, `.bak` excluded, `*` nothing."""
    required = [item[1:] for item in items if item.startswith("*") and len(item) > 1]
    excluded = [item for item in items if item and not item.startswith("*")]
    return required, excluded


def ends(name: str, suffix: str) -> bool:
    return len(name) > len(suffix) and name.endswith(suffix)  # dnsmasq: len > ls && strcmp(...) == 0


def dir_loads(name: str, required: Sequence[str], excluded: Sequence[str]) -> bool:
    if always_skipped(name):
        return False
    if required and not any(ends(name, suffix) for suffix in required):
        return False
    return not any(ends(name, suffix) for suffix in excluded)


def loads_every_snippet(required: Sequence[str], excluded: Sequence[str]) -> bool:
    """Would the filters load every renamer-<site>.conf name renamer can write?"""
    if required and not any(".conf".endswith(suffix) for suffix in required):
        return False
    return not any(may_end_snippet(suffix) for suffix in excluded)


def may_end_snippet(suffix: str) -> bool:
    """Could some renamer-<site>.conf name end with `suffix`? (Conservative: yes when unsure.)"""
    if ".conf".endswith(suffix):
        return True
    return suffix.endswith(".conf") and _SNIPPET_HEAD.fullmatch(suffix[:-5]) is not None


# server=, local=, rev-server=

def server_spec(value: str) -> tuple[list[str], str] | None:
    """(domain patterns, upstream) of `/d1/d2/upstream`; None for a line without domains."""
    if not value.startswith("/"):
        return None
    body = value[1:]
    cut = body.rfind("/")
    if cut < 0:
        return None
    return body[:cut].split("/"), body[cut + 1:].strip(SPACE)


def covers(pattern: str, target: str) -> bool:
    """Does a server= domain pattern match `target` or a name under it?"""
    core = pattern.strip(SPACE).lower().rstrip(".")
    core = core.removeprefix("*").lstrip(".")
    return bool(core) and (core == target or core.endswith("." + target))


def reverse_zones(spec: str) -> list[str]:
    """The in-addr.arpa / ip6.arpa domains dnsmasq makes of `<address>[/<prefix>]` (domain_rev4/6):
    a prefix between octet (nibble) boundaries becomes every zone at the next boundary."""
    address, _, length = spec.strip(SPACE).partition("/")
    try:
        ip = ipaddress.ip_address(address)
        prefix = int(length) if length.strip() else ip.max_prefixlen
        if not 1 <= prefix <= ip.max_prefixlen:
            return []
        network = ipaddress.ip_network(f"{ip}/{prefix}", strict=False)
    except ValueError:
        return []
    unit = 8 if ip.version == 4 else 4
    aligned = -(-prefix // unit) * unit
    starts = [network.network_address] if aligned == prefix else [
        n.network_address for n in network.subnets(new_prefix=aligned)]
    keep = aligned // unit + 2  # the address labels plus in-addr.arpa / ip6.arpa
    return [".".join(start.reverse_pointer.split(".")[-keep:]) for start in starts]


# hosts files

def hosts_entries(path: str, data: bytes) -> tuple[list[HostsEntry], list[str]]:
    """Entries of a hosts file (src/cache.c read_hostsfile): `#` starts a comment anywhere."""
    entries: list[HostsEntry] = []
    problems: list[str] = []
    for number, raw in enumerate(data.decode("utf-8", "replace").split("\n"), 1):
        fields = [f for f in _HOSTS_SPLIT.split(raw.split("#", 1)[0]) if f]
        if not fields:
            continue
        if not is_address(fields[0]):
            problems.append(f"{path}:{number}: bad address {fields[0]!r} (dnsmasq skips the line)")
        elif len(fields) > 1:
            entries.append(HostsEntry(path, number, fields[0], tuple(fields[1:])))
    return entries, problems


def is_address(text: str) -> bool:
    """inet_pton(AF_INET) or inet_pton(AF_INET6): no scope id, no leading zeros in IPv4."""
    if "%" in text:
        return False
    try:
        ipaddress.ip_address(text)
    except ValueError:
        return False
    return True
