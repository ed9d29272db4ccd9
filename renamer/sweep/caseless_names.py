"""Old names in another case where SMB, Windows, LDAP or mail read them (t31 round 24, finding 08).

NetBIOS and Windows computer names are upper case by convention and compared caselessly, and so
are an LDAP DN's attribute values and a mail address's domain (RFC 5321 2.4): `\\\\WEB01\\backup`
(a UNC path, and its escaped `\\\\\\\\WEB01\\\\` in a string), a cifs/smb source `//WEB01/backup` or
`smb://WEB01/`, PowerShell's `-ComputerName WEB01` (and `-CimSession`, `-Server`, `Enter-PSSession`,
`/node:`), an AD DN `CN=WEB01,OU=...` and `ops@WEB01.lab.example` are the old host, live, though
renamer matches names in their case elsewhere. Each such spelling (a short name or an FQDN) is a
residual `dns-case`, as a virtual host's name in another case is (sweep/resolved_case.py): not
rewritten (the case the new name should take is the author's), and verify fails on it.
"""

from __future__ import annotations

import re

from renamer import lazy_re
from renamer.occurrences import Match
from renamer.sweep.resolved_case import REASON, other_case

# What stands right before a caselessly read name.
_BEFORE = lazy_re.compile(
    rb"(?:(?<![\\\w])\\\\(?:\\\\)?"  # a UNC path's `\\`, or `\\\\` escaped in a string
    rb"|(?:(?i:smb|cifs)://|(?<![\w:/])//)"  # smb://, a cifs source `//NAME/share`
    rb"|(?i:-ComputerName|-CimSession|-Server|-PSComputerName)(?:[ \t]*:|[ \t]+)[ \t]*(?:@\([ \t]*)?"
    rb"(?:[\"']?[\w.-]+[\"']?[ \t]*,[ \t]*)*[\"']?"  # PowerShell, lists too
    rb"|(?i:Enter-PSSession|New-PSSession)[ \t]+[\"']?|(?i:/node:)[\"']?"
    rb"|(?<![\w])(?i:CN|DC)=|[\w.+-]@)\Z")  # an LDAP DN's value, a mail domain
# What must follow a UNC/smb host: a separator; a DN's value: `,`, `/` or the end.
_AFTER = {b"\\": re.compile(rb"(?:\\|$|[\s\"'])", re.M), b"/": re.compile(rb"(?:/|$|[\s\"'])", re.M)}
_NAME = frozenset(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_")
WORDS = (b"\\\\", b"//", b"omputerName", b"OMPUTERNAME", b"omputername", b"CimSession", b"-Server",
         b"PSSession", b"/node:", b"CN=", b"cn=", b"@")


def might_hold(data: bytes) -> bool:
    return any(word in data for word in WORDS)


def _bounded(data: bytes, start: int, end: int) -> bool:
    after = data[end] if end < len(data) else 0x20
    if after in _NAME:
        return False
    return not (after == 0x2E and end + 1 < len(data) and data[end + 1] in _NAME)


def caseless_matches(data: bytes, matches: list[Match], hosts: list[tuple[str, str]]) -> list[Match]:
    """`matches` with each old name spelled in another case where SMB, Windows, LDAP or mail reads
    it caselessly added as a residual `dns-case`."""
    added: list[Match] = []
    for at, end, spelled, old, new in other_case(data, hosts):
        line_start = data.rfind(b"\n", 0, at) + 1
        head = data[max(line_start, at - 300):at]
        if (_bounded(data, at, end) and _BEFORE.search(head) is not None
                and not any(m.start < end and at < m.end and m.refused is not None for m in added)
                and not any(m.start < end and at < m.end and m.old == spelled.decode("ascii", "replace")
                            for m in matches)):
            text = spelled.decode("ascii", "replace")
            note = (f"{text} is {old} (renamed {new}) in another case, where SMB, Windows, LDAP or mail "
                    "compares names in any case (a UNC path, -ComputerName, a DN, a mail domain)")
            added.append(Match(at, end, text, new, "host", refused=REASON, note=note))
    if not added:
        return matches
    spans = [(m.start, m.end) for m in added]
    kept = [m for m in matches if not any(m.start < e and s < m.end for s, e in spans)]
    return sorted([*kept, *added], key=lambda m: m.start)
