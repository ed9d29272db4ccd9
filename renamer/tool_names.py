"""Names a tool composes from a host word and a domain it keeps apart (break-it round 8, finding 7).

ssh's `Host pug` with `HostName %h.ana.lan` connects to pug.ana.lan (`%h`, `%n`: the host as
given, which the Host line names); a compose service's `hostname: pug` with `domainname: ana.lan`
is pug.ana.lan inside its container; dnsmasq's `dhcp-host=...,pug` with `domain=ana.lan` gives the
lease pug.ana.lan; systemd's template `check@.service` with `%i.ana.lan` (`%I`) makes pug.ana.lan
for its instance `check@pug.service`. No byte spells pug.ana.lan, so the plain rules rewrite the
host word alone, and where the rename moves the host to another domain (`pug.ana.lan ->
wolf.fv.lan`) the tool then builds wolf.ana.lan, a name that does not exist. This module is the
grammar: each (host word, what the tool adds around it) pair of a file. Whether it breaks is
sweep/tool_names.py's. Pure: bytes in, spans out.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterator
from dataclasses import dataclass


@dataclass(frozen=True)
class Composed:
    """The host word at [start, end) that a tool composes into `prefix + word + suffix`; `how`
    says where the rest comes from (for the note)."""

    start: int
    end: int
    word: str
    prefix: str
    suffix: str
    how: str


_SSH_BLOCK = re.compile(rb"^(?:\xef\xbb\xbf)?[ \t]*"  # a leading BOM: still the first block
                        rb"(?P<kw>Host|Match)(?:[ \t]*=[ \t]*|[ \t]+)(?P<rest>[^\r\n]*)",
                        re.MULTILINE | re.IGNORECASE)
_SSH_HOSTNAME = re.compile(rb"^[ \t]*HostName(?:[ \t]*=[ \t]*|[ \t]+)[\"']?(?P<value>[^\s\"'#]+)",
                           re.MULTILINE | re.IGNORECASE)
_WORD = re.compile(rb"[^\s,#\"']+")
_COMPOSE_KEY = re.compile(rb"^(?P<indent>[ \t]*)(?P<key>hostname|domainname)[ \t]*:[ \t]*[\"']?"
                          rb"(?P<value>[A-Za-z0-9._-]+)[\"']?[ \t]*(?:#[^\n]*)?$", re.MULTILINE)
_DNSMASQ_DOMAIN = re.compile(rb"^[ \t]*domain[ \t]*=[ \t]*(?P<value>[A-Za-z0-9._-]+)", re.MULTILINE)
_DNSMASQ_HOST = re.compile(rb"^[ \t]*dhcp-host[ \t]*=(?P<value>[^\r\n#]*)", re.MULTILINE)
_SYSTEMD_TOKEN = re.compile(rb"%[iI](?P<suffix>\.[A-Za-z0-9][A-Za-z0-9.-]*[A-Za-z0-9])")
_TEMPLATE = re.compile(r"(?:^|/)(?P<unit>[A-Za-z0-9:_.\\-]+)@\.(?P<type>service|socket|timer|path|mount)$")


# One of these stands in every file `might_hold` accepts (the scan's prefilter words).
LITERALS = (b"%h.", b"%n.", b"domainname", b"dhcp-host")


def might_hold(data: bytes) -> bool:
    return any(word in data for word in LITERALS)


def composed(data: bytes, words: Collection[str]) -> Iterator[Composed]:
    """Every host word in `words` that ssh, compose or dnsmasq composes with a kept domain."""
    yield from _ssh(data, words)
    yield from _compose(data, words)
    yield from _dnsmasq(data, words)


def _ssh(data: bytes, words: Collection[str]) -> Iterator[Composed]:
    if b"%h" not in data and b"%n" not in data:
        return
    blocks = list(_SSH_BLOCK.finditer(data))
    for i, block in enumerate(blocks):
        if block.group("kw").lower() != b"host":
            continue
        end = blocks[i + 1].start() if i + 1 < len(blocks) else len(data)
        name = _SSH_HOSTNAME.search(data, block.end(), end)
        if name is None:
            continue
        value = name.group("value").decode("utf-8", "replace")
        tokens = re.findall(r"%[hn]", value)
        if len(tokens) != 1 or "%" in value.replace(tokens[0], ""):
            continue  # one token, the rest literal: the composition is certain
        prefix, suffix = value.split(tokens[0])
        for word in _WORD.finditer(data, block.start("rest"), block.end("rest")):
            text = word.group().decode("utf-8", "replace")
            if text in words:
                yield Composed(word.start(), word.end(), text, prefix, suffix,
                               f"`HostName {value}` in its `Host` block")


def _compose(data: bytes, words: Collection[str]) -> Iterator[Composed]:
    if b"domainname" not in data:
        return
    keys = list(_COMPOSE_KEY.finditer(data))
    for host in (k for k in keys if k.group("key") == b"hostname"):
        word = host.group("value").decode("utf-8", "replace")
        if word not in words:
            continue
        indent = host.group("indent")
        for domain in (k for k in keys if k.group("key") == b"domainname" and k.group("indent") == indent):
            first, last = sorted((host.start(), domain.start()))
            between = data[first:last].split(b"\n")[1:]
            if any(line.strip() and len(line) - len(line.lstrip()) < len(indent) for line in between):
                continue  # another service's
            value = domain.group("value").decode("utf-8", "replace")
            yield Composed(host.start("value"), host.end("value"), word, "", f".{value}",
                           f"`domainname: {value}` of the same service")


def _dnsmasq(data: bytes, words: Collection[str]) -> Iterator[Composed]:
    if b"dhcp-host" not in data:
        return
    domains = [d.group("value").decode() for d in _DNSMASQ_DOMAIN.finditer(data)]
    if len(set(domains)) != 1:
        return  # none, or several (per range): which one a lease takes cannot be told here
    for host in _DNSMASQ_HOST.finditer(data):
        pos = host.start("value")
        for field in host.group("value").split(b","):
            text = field.strip().decode("utf-8", "replace")
            if text in words:
                start = pos + field.index(field.strip())
                yield Composed(start, start + len(field.strip()), text, "", f".{domains[0]}",
                               f"`domain={domains[0]}` of the same file")
            pos += len(field) + 1


def template_unit(rel: str) -> tuple[str, str] | None:
    """(`check`, `service`) for a systemd template unit `.../check@.service`, else None."""
    found = _TEMPLATE.search(rel)
    return (found.group("unit"), found.group("type")) if found is not None else None


def template_suffixes(data: bytes) -> Iterator[tuple[int, int, str]]:
    """Each `%i.ana.lan` (`%I`) of a template unit: the span and the literal after the token."""
    for found in _SYSTEMD_TOKEN.finditer(data):
        yield found.start(), found.end(), found.group("suffix").decode("utf-8", "replace")


def instances(paths: Collection[str], unit: str, kind: str) -> list[tuple[str, str]]:
    """The instances of template `unit@.kind` the repo's paths name: (path, instance)."""
    pattern = re.compile(r"(?:^|/)" + re.escape(unit) + r"@(?P<instance>[^/@]+)\." + re.escape(kind) + r"$")
    return [(p, m.group("instance")) for p in paths if (m := pattern.search(p)) is not None]
