"""An old FQDN in another case where a resolver reads it (break-it round 21, finding 09).

Outside the files whose names are DNS names, renamer matches names in their case (DESIGN: a
`PUG` constant is no host). But a URL's host is case-insensitive (RFC 3986 3.2.2) and is looked up
through DNS, which ignores case (RFC 4343): `https://ANA-ML2.ANA.LAN/api`, `postgres://u@Ana-Ml2.ana.lan`,
nginx's `proxy_pass http://ANA-ML2.ana.lan:8080`, a Prometheus target `ANA-ML2.ana.lan:9100`, ssh's
`HostName ANA-ML2.ANA.LAN` are the old name, live. Such an FQDN (a name with a dot) in another case,
in a URL's authority, before a `:port`, or after ssh's `HostName`, is a residual `dns-case`: it is
not rewritten (which case the new name should take is the author's), and verify fails on it
instead of saying OK over a near-miss warning.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from renamer import lazy_re
from renamer.match import Matcher
from renamer.occurrences import Match

REASON = "dns-case"
_URL_BEFORE = lazy_re.compile(rb"[A-Za-z][A-Za-z0-9+.-]*://(?:[^/@\s\"'<>]*@)?\Z")
_HOSTNAME_BEFORE = lazy_re.compile(rb"(?i)(?:^|\s)HostName[ \t]*=?[ \t]*[\"']?\Z")
_PORT_AFTER = lazy_re.compile(rb":[0-9]{1,5}(?![0-9A-Za-z])")
_NAME = frozenset(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_")


def fqdns(matcher: Matcher) -> list[tuple[str, str]]:
    return [(old, new) for old, new in matcher.hosts if "." in old.strip(".")]


def resolved_case_matches(data: bytes, matches: list[Match], pairs: list[tuple[str, str]]) -> list[Match]:
    """`matches` with each old FQDN spelled in another case where a resolver reads it added as a
    refused match (a residual `dns-case`)."""
    lowered = data.lower()
    added: list[Match] = []
    for old, new in pairs:
        needle = old.lower().encode()
        at = lowered.find(needle)
        while at >= 0:
            end = at + len(needle)
            spelled = data[at:end]
            if (spelled != old.encode() and _bounded(data, at, end) and _resolved(data, at, end)
                    and not any(m.start < end and at < m.end for m in [*matches, *added])):
                text = spelled.decode("ascii", "replace")
                note = f"{text} is {old} (renamed {new}) in another case"
                added.append(Match(at, end, text, new, "host", refused=REASON, note=note))
            at = lowered.find(needle, end)
    if not added:
        return matches
    return sorted([*matches, *added], key=lambda m: m.start)


def _bounded(data: bytes, start: int, end: int) -> bool:
    before = data[start - 1] if start > 0 else 0x20
    after = data[end] if end < len(data) else 0x20
    if before in _NAME or before == 0x2E:  # `x.ANA-ML2.ana.lan`: a longer name
        return False
    if after in _NAME:
        return False
    return not (after == 0x2E and end + 1 < len(data) and data[end + 1] in _NAME)


def _resolved(data: bytes, start: int, end: int) -> bool:
    line_start = data.rfind(b"\n", 0, start) + 1
    head = data[max(line_start, start - 300):start]
    if _URL_BEFORE.search(head) or _HOSTNAME_BEFORE.search(head):
        return True
    tail = end + 1 if data[end:end + 1] == b"." else end  # `ana-ml2.ana.lan.:53`
    return _PORT_AFTER.match(data, tail) is not None


# Break-it round 23, finding 05: names a server compares caselessly with what a client sends or a
# resolver answers, by definition rather than by a URL's syntax: nginx's `server_name` list,
# Apache's `ServerName`/`ServerAlias`, a Caddyfile's site addresses, Traefik's `Host(...)` rule
# (`HostSNI`, `HostRegexp` too), and the name of an ethers(5) line (HAProxy's `hdr(host) -i` is a
# `pattern` residual already)
# (MAC -> name, resolved through DNS). Short names as well as FQDNs (`ServerAlias WEB01`).
_VHOST_BEFORE = lazy_re.compile(
    rb"(?:^|[;{\s])server_name[ \t]+(?:[^;\n]*[ \t])?\Z"
    rb"|(?im:^[ \t]*(?:ServerName|ServerAlias)[ \t]+(?:[^\s#]+[ \t]+)*(?:https?://)?\Z)"
    rb"|Host(?:SNI|Regexp)?\((?:[^)\n]*,[ \t]*)?[`\"']\Z")
_CADDY_SITE = lazy_re.compile(rb"(?:[^\s{}#,][^\s{},]*(?:,[ \t]*|[ \t]+))*(?:https?://)?\Z")
_CADDY_OPEN = lazy_re.compile(rb"(?::[0-9]{1,5})?(?:[,\s][^{\n#]*)?\{[ \t]*\r?$", re.MULTILINE)
_MAC = lazy_re.compile(rb"[ \t]*[0-9A-Fa-f]{1,2}(?:[:-][0-9A-Fa-f]{1,2}){5}[ \t]+\Z")
VHOST_WORDS = (b"server_name", b"ServerName", b"ServerAlias", b"servername", b"serveralias", b"Host(",
               b"HostSNI(", b"HostRegexp(")


def might_hold_vhost(rel: str, data: bytes) -> bool:
    name = rel.rsplit("/", 1)[-1].lower()
    return _caddy(name) or name == "ethers" or any(word in data for word in VHOST_WORDS)


def _caddy(name: str) -> bool:
    return name == "caddyfile" or name.endswith((".caddyfile", ".caddy")) or name.startswith("caddyfile.")


def other_case(data: bytes, hosts: list[tuple[str, str]]) -> Iterator[tuple[int, int, bytes, str, str]]:
    """Each place an old name (longest first) stands spelled in another case than its own:
    (start, end, the bytes there, old, new); the caller judges the place."""
    lowered = data.lower()
    for old, new in sorted(hosts, key=lambda pair: len(pair[0]), reverse=True):
        needle = old.lower().encode()
        at = lowered.find(needle)
        while at >= 0:
            end = at + len(needle)
            if data[at:end] != old.encode():
                yield at, end, data[at:end], old, new
            at = lowered.find(needle, end)


def vhost_case_matches(data: bytes, rel: str, matches: list[Match],
                       hosts: list[tuple[str, str]]) -> list[Match]:
    """`matches` with each old name (short or FQDN) spelled in another case where a server compares
    it caselessly (a virtual host's name, an ethers name) added as a residual `dns-case`."""
    name = rel.rsplit("/", 1)[-1].lower()
    added: list[Match] = []
    for at, end, spelled, old, new in other_case(data, hosts):
        if (_bounded(data, at, end) and _vhost(data, at, end, name)
                and not any(m.start < end and at < m.end for m in [*matches, *added])):
            text = spelled.decode("ascii", "replace")
            note = (f"{text} is {old} (renamed {new}) in another case, where the server compares names "
                    "in any case (a virtual host's name, an ethers entry)")
            added.append(Match(at, end, text, new, "host", refused=REASON, note=note))
    if not added:
        return matches
    return sorted([*matches, *added], key=lambda m: m.start)


def _vhost(data: bytes, start: int, end: int, name: str) -> bool:
    line_start = data.rfind(b"\n", 0, start) + 1
    head = data[max(line_start, start - 300):start]
    if _VHOST_BEFORE.search(head):
        return True
    if name == "ethers":
        return _MAC.fullmatch(head) is not None
    if _caddy(name):  # a site block's addresses: the line's words before its `{`, at the top level
        depth = data.count(b"{", 0, line_start) - data.count(b"}", 0, line_start)
        return (depth == 0 and _CADDY_SITE.fullmatch(head) is not None
                and _CADDY_OPEN.match(data, end) is not None)
    return False
