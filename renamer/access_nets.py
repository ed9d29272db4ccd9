"""The first pass's question for access rules around a renamed address (break-it round 21, finding
29, part b): can a file hold an access rule's network literal holding a renamed IPv4 address,
where no byte spells an old value (`allow 10.0.0.64/29;` when 10.0.0.70 is renamed)?

sweep/access_sets.py decides such a literal (a residual `access-set`), but it read only files the
first pass let through for an old value, so a rule file holding none was never read and verify said
OK while the renamed host lost its access. A full read of every file for network literals would
cost each repo a regex pass per file; instead the first pass (Python and native alike) asks for the
literals such a network literal begins with: each network address holding the renamed address and
not its new one, /8 to /31, with its slash (`10.0.0.64/`, `10.0.0.0/`: a prefix length or a
dotted mask follows), and the old address with its slash (host bits set to it). A literal whose
host bits are set to another address of a /24 to /31 holding the renamed one (`allow 10.0.0.66/29;`,
which nginx, iptables and Samba read as the /29; issue 27, g31) begins with that address and its
slash: every address of the widest such network that does not hold the new address is a literal
too (at most 256 per renamed address). Only a file holding one of those is asked `might_hold` (a
network literal in an access rule's context holding a renamed address the rule would no longer
admit), and only a file where that holds gets the full scan. Not read: host bits set to another
address of a network wider than a /24 (`10.0.3.9/16`): the first pass would need up to 2^24
spellings; strict readers (nftables, ipaddress) refuse such a literal anyway. Pure: bytes in,
answers out.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Iterable

from renamer import lazy_re, mask_nets

# An access rule's words: `allow`, `deny`, `Allow from`, iptables `-s`/`-d`, `hosts allow`, ...
# (t31 sweep finding 01: and the other spellings of an access rule's source set: Vault's
# `token_bound_cidrs`, AWS `CidrIp`, Traefik `sourceRange`/`ipAllowList`, Caddy `remote_ip`, sshd
# `Match Address`, firewalld `source address=`, Cilium `fromCIDR`/`toCIDRSet` and its `except`, GCP
# `authorized_networks`, a `*_whitelist`/`*AllowList`/`*_denylist` key, `ingress_cidr_blocks`, nftables
# `saddr`/`daddr`, Windows' `-RemoteAddress`, an authorized_keys `from="..."` option; VyOS
# `allow-client address`, t36-33 finding 04)
ACCESS = lazy_re.compile(
    rb"(?i)(?:(?<![\w-])(?:allow|deny|allow-client|permit|accept|reject|trusted[\w-]*|allowed[\w-]*|mynetworks|ignoreip"
    rb"|set_real_ip_from|allow-query|allow-recursion|allow-transfer|acl|whitelist|allowlist|source_ranges"
    rb"|sourceRanges|cidr_blocks|ipBlock|loadBalancerSourceRanges|except|remote_ip|client_ip"
    rb"|(?:from|to)CIDR(?:Set)?|authorized_networks)(?![\w-])"
    rb"|(?<![\w-])-[sd](?![\w-])|--(?:source|destination|src|dst)(?![\w-])|hosts[ \t]+(?:allow|deny)"
    rb"|(?<![\w-])match[ \t]+address(?![\w-])|(?<![\w-])source[ \t]+address(?![\w-])"
    rb"|(?<![\w-])require[ \t]+(?:not[ \t]+)?ip(?![\w-])"  # Apache 2.4's `Require ip` (g31)
    rb"|(?<![\w-])from=[\"']?"
    rb"|(?<![\w:-])[+?~-]?ip[46]:"  # SPF's `ip4:`/`ip6:` (`v=spf1 ip4:10.0.0.64/28 -all`; t36 finding 03)
    rb"|[\w-]*(?:bound[_-]?cidrs|cidr[_-]?ipv?6?|cidr[_-]?blocks|source[_-]?ranges?|src[_-]?ranges?|source[_-]?ips?"
    rb"|remote[_-]?address(?:es)?|[sd]addr"
    rb"|allow[_-]?list|white[_-]?list|deny[_-]?list|black[_-]?list|allowed[_-]?(?:cidrs|ips|networks))"
    rb"(?![a-z0-9]))")
# At least one of these (lower-cased) is in any text ACCESS matches: every alternative above holds
# one (`-s`/`-d` also cover `--src`, `--dst`, `--destination`; `addr` covers `address`). A line without
# any is no access rule's before the regex is asked (issue 30: the regex, with no literal to start
# from, tried every position of every line before each address).
_ACCESS_WORDS = (b"allow", b"deny", b"permit", b"accept", b"reject", b"trusted", b"mynetworks", b"ignoreip",
                 b"set_real_ip_from", b"acl", b"white", b"black", b"source", b"cidr", b"ipblock", b"except",
                 b"remote", b"client_ip", b"authorized_networks", b"-s", b"-d", b"require", b"from=",
                 b"src", b"addr", b"ip4:", b"ip6:")


def may_name_access(text: bytes) -> bool:
    """False only where ACCESS cannot match `text` (a necessary condition, cheap)."""
    lowered = text.lower()
    return any(word in lowered for word in _ACCESS_WORDS)


# A pg_hba.conf line (`host all all 10.0.0.70/31 scram-sha-256`): its address field is a client set.
_PG_HBA = lazy_re.compile(rb"[ \t]*host(?:ssl|nossl|gssenc|nogssenc)?[ \t]+[^ \t\n]+[ \t]+[^ \t\n]+[ \t]+\Z")
# A MySQL/MariaDB account's host mask (`'app'@'10.0.0.70/255.255.255.252'`): `@` and a quote before it.
_ACCOUNT_HOST = lazy_re.compile(rb"@['\"`]?\Z")
# A YAML key line (`ipBlock:`, `- toCIDRSet:`, `"except":`) and the key's text
_KEY_LINE = lazy_re.compile(rb"[ \t]*(?:-[ \t]+)?[\"']?(?P<key>[A-Za-z_][\w.-]*)[\"']?[ \t]*:(?:[ \t]|$)")
# An IPv4 network literal: a prefix length or a dotted mask.
# (The look-behind after the first digit, not before it: a pattern that begins with a character
# class lets the engine skip ahead to the next digit, 2.4x faster over a 10/8 repo's files.)
NET = lazy_re.compile(rb"(?P<addr>[0-9](?<![0-9.][0-9])[0-9]{0,2}(?:\.[0-9]{1,3}){3})"
                      rb"/(?P<len>[0-9]{1,2}(?![0-9.])|[0-9]{1,3}(?:\.[0-9]{1,3}){3}(?![0-9.]))")
_LIST_ITEM = lazy_re.compile(rb"[ \t]*-[ \t]")
# An item of a list: YAML's `- x`, or a JSON array's item on a line of its own (`  "10.0.0.70/30",`)
_ITEM = lazy_re.compile(rb"[ \t]*(?:-[ \t]|[\"']?[0-9])")


def network_of(found: re.Match[bytes]) -> ipaddress.IPv4Network | None:
    """The network a NET match spells (host bits allowed), None for no network or a /32."""
    try:
        net = ipaddress.IPv4Network(f"{found.group('addr').decode()}/{found.group('len').decode()}",
                                    strict=False)
    except ValueError:
        return None
    return net if net.prefixlen < 32 else None


def in_access_rule(data: bytes, at: int) -> bool:
    """Whether an access word stands before `at` on its line (or the line is a pg_hba entry, or a
    MySQL account's host mask), or, for a YAML list item or key, on the line of a key above it that
    encloses it (`ipBlock:` over `cidr:`, `except:` over `- 10.0.0.68/30`)."""
    line_start = data.rfind(b"\n", 0, at) + 1
    if (may_name_access(data[line_start:at]) and ACCESS.search(data, line_start, at) is not None) \
            or _PG_HBA.match(data, line_start, at) is not None \
            or _ACCOUNT_HOST.search(data, line_start, at) is not None:
        return True
    indent = _indent(data, line_start)
    listed = _ITEM.match(data, line_start) is not None
    if not listed and _KEY_LINE.match(data, line_start) is None:
        return False
    while line_start > 0 and indent >= 0:
        prev_start = data.rfind(b"\n", 0, line_start - 1) + 1
        prev = data[prev_start:line_start - 1]
        line_start = prev_start
        if not prev.strip() or prev.lstrip()[:1] == b"#":
            continue
        prev_indent = _indent(prev, 0)
        if listed and _ITEM.match(prev) is not None and prev_indent == indent:
            continue  # a sibling item of the same list
        if prev_indent > indent or (prev_indent == indent and not listed):
            continue  # a sibling key, or deeper
        key = _KEY_LINE.match(prev)
        if key is None:
            return False  # no YAML key encloses it
        if ACCESS.search(key.group("key")) is not None:
            return True
        indent, listed = prev_indent, _LIST_ITEM.match(prev) is not None
        if indent == 0 and not listed:
            return False
    return False


def in_route_rule(data: bytes, at: int) -> bool:
    """Whether the literal at `at` stands in an access rule or on a route line (OpenVPN `route`,
    `push "route`, `iroute`, a `route add` command: mask_nets.ROUTE): where a network written with
    its mask apart (`route 10.0.0.64 255.255.255.240`) is a set the renamed host leaves."""
    line_start = data.rfind(b"\n", 0, at) + 1
    return in_access_rule(data, at) or mask_nets.ROUTE.match(data, line_start, at) is not None


def _indent(data: bytes, start: int) -> int:
    end = start
    while end < len(data) and data[end:end + 1] in (b" ", b"\t"):
        end += 1
    return end - start



def host_literal(head: bytes) -> re.Pattern[bytes]:
    """`HEAD` then a number and a slash (`10.0.0.` then `54/`), not inside a longer address: the
    literal first, its look behind after it, so that `re` skips to the literal (issue 30)."""
    return re.compile(re.escape(head) + rb"(?<![0-9.]" + re.escape(head) + rb")([0-9]{1,3})/")

class AccessNets:
    """The renamed IPv4 addresses, and the literals any network literal holding one begins with."""

    def __init__(self, addresses: Iterable[tuple[str, str]]) -> None:
        self._olds: list[tuple[ipaddress.IPv4Address, ipaddress.IPv4Address]] = []
        literals: set[bytes] = set()
        # `10.0.0.`: the addresses of a /24 (or narrower) network holding a renamed address and not
        # its new one, any of which may begin a literal with host bits set (`10.0.0.66/`)
        self._hosts: dict[bytes, set[bytes]] = {}
        # `10.0.0.64 `: a network literal with its mask apart (`permit 10.0.0.64 0.0.0.15`, t32 round 25,
        # finding 03): each network address holding a renamed address and not its new one, and the old
        spaced: set[bytes] = set()
        for old, new in addresses:
            try:
                pair = (ipaddress.IPv4Address(old), ipaddress.IPv4Address(new))
            except ValueError:
                continue
            self._olds.append(pair)
            literals.add(f"{old}/".encode())  # host bits set to the old address (a needle already)
            spaced.add(f"{old} ".encode())
            for length in range(8, 32):
                net = ipaddress.IPv4Network(f"{old}/{length}", strict=False)
                if pair[1] not in net:  # a network holding both admits the host as before
                    literals.add(f"{net.network_address}/".encode())
                    spaced.add(f"{net.network_address} ".encode())
            for length in range(24, 32):  # the widest /24 or narrower that does not hold the new one
                net = ipaddress.IPv4Network(f"{old}/{length}", strict=False)
                if pair[1] not in net:
                    head = str(net.network_address).rsplit(".", 1)[0].encode() + b"."
                    lasts = {str(host).rsplit(".", 1)[1].encode() for host in
                             (net.network_address + i for i in range(net.num_addresses))}
                    self._hosts.setdefault(head, set()).update(lasts)
                    literals.update(head + last + b"/" for last in lasts)
                    break
        self.spaced = tuple(sorted(spaced))
        self.literals = tuple(sorted(literals | spaced))
        self._host_literal = {head: host_literal(head) for head in self._hosts}

    def holds_literal(self, data: bytes) -> bool:
        """Does `data` hold one of the literals (the reader's own cheap test, before it is counted)?
        A head's many host literals are one search each (`10.0.0.` then a number and a slash)."""
        if any(literal in data for literal in self.spaced) and mask_nets.might_hold(data):
            return True
        if b"/" not in data:
            return False
        for head, pattern in self._host_literal.items():
            if head in data and any(m.group(1) in self._hosts[head] for m in pattern.finditer(data)):
                return True
        return any(literal in data for literal in self.literals if literal[:literal.rfind(b".") + 1]
                   not in self._hosts and literal.endswith(b"/"))

    def might_hold(self, data: bytes) -> bool:
        """Does `data` hold a network literal in an access rule's context that holds a renamed
        address and not its new one (the rule would no longer admit the host)?"""
        if not self._olds or not self.holds_literal(data):
            return False
        for found in NET.finditer(data):
            net = network_of(found)
            if net is not None and any(old in net and new not in net for old, new in self._olds) \
                    and in_access_rule(data, found.start()):
                return True
        for found in mask_nets.SPACED.finditer(data) if mask_nets.might_hold(data) else ():
            length = mask_nets.length_of(found.group("mask"))
            try:
                net = ipaddress.IPv4Network(f"{found.group('addr').decode()}/{length}", strict=False)
            except ValueError:
                continue
            if length is not None and any(old in net and new not in net for old, new in self._olds) \
                    and in_route_rule(data, found.start()):
                return True
        return False
