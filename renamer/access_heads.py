"""A moved network named by a partial address in an access rule's list (f28, finding 19).

Access rules of several tools name a network by its leading octets: Samba's `hosts allow = 127.
10.0.48.` (a trailing dot), Apache's documented partial address `Require ip 10.0.48` (and 2.2's
`Allow from 10.0.48`, ProFTPD's `Allow from 10.0.48.`), xinetd's `only_from = 10.0.48.`, TCP
wrappers' `sshd: 127.0.0.1, 10.0.48.` (hosts.allow, hosts.deny), a Postfix or sendmail access map's
key (`10.0.48   OK`, sendmail's `Connect:10.0.48  RELAY`: by the action after it, whatever the
file's name), networks(5)'s `lab  10.0.48` (t29-33, finding 05), a pg_hba-style `host all all
10.0.48 md5` (which PostgreSQL refuses, so it is said too). No byte spells an address, so the
sweep wrote nothing and verify said OK while each rule went on admitting the old network and
refused the new one.

Where prefix_values.py finds a moved network's head (the block it spells inside the old network)
that is not a whole value, it asks here whether the head stands as one item of such a list: a
token bounded by blanks, commas, semicolons, quotes or the line's ends, on a line whose directive
(its first words) is an access rule's, or in a TCP-wrappers file after the daemon list's colon, or
first on a line of an access map. Then it is a residual `prefix`, never rewritten (the new network
may need several heads, `10.20.0.` to `10.20.3.` for a /22, or a CIDR the tool accepts). A MySQL
account's host wildcard (`'app'@'10.0.48.%'`) is a head a placeholder completes: prefix_values.py
reads `%` as one. Pure: bytes in, a yes or no out.
"""

from __future__ import annotations

import re

from renamer import lazy_re

# A line whose first words are an access rule's directive (case-insensitive), up to where its list starts.
_DIRECTIVE = lazy_re.compile(
    rb"(?i)[ \t]*(?:"
    rb"hosts?[ \t]+(?:allow|deny)[ \t]*=|(?:allow|deny)[ \t]+hosts[ \t]*="  # Samba
    rb"|require(?:[ \t]+not)?[ \t]+ip(?=[ \t])"  # Apache 2.4
    rb"|(?:allow|deny)[ \t]+from(?=[ \t])"  # Apache 2.2, ProFTPD, lighttpd-like
    rb"|(?:only_from|no_access)[ \t]*\+?="  # xinetd
    rb"|<?(?:allow|deny|permit)(?=[ \t])"  # nginx-like `allow 10.0.48;`, a router ACL's `permit`
    rb"|(?:host|hostssl|hostnossl|hostgssenc|hostnogssenc)[ \t]+\S+[ \t]+\S+(?=[ \t])"  # pg_hba
    rb"|(?:mynetworks|trusted_networks|trusted[-_]hosts|ignoreip|allowed[-_]hosts)[ \t]*[=:]"
    rb")")
# TCP wrappers' files, and access maps whose keys are a client's address or its head.
_WRAPPERS = lazy_re.compile(r"(?:^|/)hosts\.(?:allow|deny)\Z")
_MAPS = lazy_re.compile(r"(?:^|/)(?:[\w.-]*[_.-])?(?:access|access\.db\.txt|access_client)(?:\.txt)?\Z")
# networks(5) (`/etc/networks`): `name  number`, the number a network's leading octets (`lab  10.0.48`).
_NETWORKS = lazy_re.compile(r"(?:^|/)networks\Z")
# A Postfix access(5) or sendmail access-db key whatever the file's name (t29-33, finding 05): first on
# its line, after a sendmail tag (`Connect:`, `From:`, `GreetPause:`) or none, then an action.
_PROSE = (".txt", ".md", ".markdown", ".rst", ".adoc")  # a note's `10.0.48  OK` is no map
_MAP_TAG = lazy_re.compile(rb"[ \t]*(?:[A-Za-z][A-Za-z_]*:)?\Z")
_MAP_ACTION = lazy_re.compile(
    rb"(?i)[ \t]+(?:ok|reject|relay|discard|dunno|permit|hold|defer|defer_if_permit|defer_if_reject|warn|"
    rb"filter|prepend|redirect|bcc|info|skip|quarantine|error:|[45][0-9][0-9](?![0-9])|(?:permit|reject|check)_\w+"
    rb")(?![\w-])")
_BEFORE = frozenset(b" \t,=\"'(:")
_AFTER = lazy_re.compile(rb"(?:[ \t,;\"')]|\r?\n|$)")


def in_access_list(data: bytes, start: int, end: int, rel: str = "") -> bool:
    """Does the head at [start, end) stand as one item of an access rule's list?"""
    before = data[start - 1:start] if start else b"\n"
    if before and before[0] not in _BEFORE and before != b"\n":
        return False
    if _AFTER.match(data, end) is None:
        return False
    line_start = data.rfind(b"\n", 0, start) + 1
    head = data[line_start:start]
    if head.lstrip().startswith((b"#", b";", b"//")):
        return False  # a comment
    if _WRAPPERS.search(rel) is not None:
        return b":" in head  # `daemon_list : client_list`: a client
    if _MAPS.search(rel) is not None and not head.strip(b" \t"):
        return True  # an access map's key
    if _MAP_TAG.match(head) is not None and _MAP_ACTION.match(data, end) is not None \
            and not rel.lower().endswith(_PROSE):
        return True  # `10.0.48  OK`, `Connect:10.0.48  RELAY`: an access map's key, by its action
    if _NETWORKS.search(rel) is not None:
        return re.fullmatch(rb"[ \t]*[^\s#]+[ \t]+", head) is not None  # networks(5): the number after a name
    directive = _DIRECTIVE.match(data, line_start)
    return directive is not None and directive.end() <= start
