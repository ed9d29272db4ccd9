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

from renamer.match import Matcher
from renamer.occurrences import Match

REASON = "dns-case"
_URL_BEFORE = re.compile(rb"[A-Za-z][A-Za-z0-9+.-]*://(?:[^/@\s\"'<>]*@)?\Z")
_HOSTNAME_BEFORE = re.compile(rb"(?i)(?:^|\s)HostName[ \t]*=?[ \t]*[\"']?\Z")
_PORT_AFTER = re.compile(rb":[0-9]{1,5}(?![0-9A-Za-z])")
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
