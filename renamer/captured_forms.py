"""Sets a name or address joins with no glob or regex syntax (issue 27, t36 findings 01 and 02).

sweep/captured.py reads globs, regexes, host sets and access networks. Membership is decided in
other spellings too, none of which a glob reader sees; each is read here as what it tests:

* **prefix, suffix and substring tests**: every language's `startswith`/`HasPrefix`/`includes`
  (prefix_tests.py's readers), rsyslog's property filters and RainerScript operators
  (`:hostname, startswith, "db"`, `if $fromhost-ip startswith '10.0.2.'`, `contains`, `endswith`),
  HAProxy's match methods (`hdr_beg(host) -i db`, `hdr_end`, `hdr_sub`, `hdr_dom`, `req.ssl_sni
  -m beg`), the value compared as text;
* **partial addresses in an access rule**: tcp_wrappers' trailing dot (`ALL: 10.0.2.` in
  hosts.allow/hosts.deny, every line of which is a rule) and Apache's partial address (`Require
  not ip 10.0.2`, `Allow from 10.0.2`): the first octets, whole;
* **SQL LIKE host masks**: a MySQL/MariaDB account's host (`'dba'@'db%'`, `'ro'@'10.0.2.%'`,
  `%` any run, `_` one character) and a `host` key holding `%` (Ansible `mysql_user`, Terraform
  `mysql_user`);
* **address ranges** (finding 02): `A-B`, `A - B` (Kea pools, MetalLB, kube-vip `range-*`,
  iptables `--src-range`), ISC dhcpd `range A B;`, dnsmasq `dhcp-range=A,B`, Windows
  `-StartRange A -EndRange B`; and a network in an address pool (a MetalLB `IPAddressPool`, a
  Cilium `LoadBalancerIPPool`, kube-vip `cidr-*`): a static host moved inside is an address the
  pool hands to another machine. A dnsmasq range beside a `dhcp-host` reservation of the host's
  address, or a Kea pool beside an `ip-address` reservation of it, excludes it and is not listed.

Each yields (start, end, old, new, what): the value falls under it after the rename and did not
before. The same readers, asked with `lost`, yield the other direction (the old value passed, the
new one does not: the set no longer holds the moved machine), which sweep/captured.py reports as a
`pattern` residual, as patterns.py does a glob written for the old value. Ranges are asked one way
only: a static host leaving a pool is no conflict. Pure: bytes in, spans out.
"""

from __future__ import annotations

import functools
import ipaddress
import re
from collections.abc import Sequence

from renamer import lazy_re, prefix_tests
from renamer.access_nets import NET, in_access_rule, network_of

Hit = tuple[int, int, str, str, str]

# rsyslog `:prop, [!]op, "text"` and RainerScript `$prop op 'text'`; also `contains_i`/`startswith_i`
_RSYSLOG = lazy_re.compile(rb"(?i)(?<![\w-])!?(?P<op>startswith|endswith|contains)(?:_i)?[ \t]*,?[ \t]*"
                           rb"""(?P<q>['"])(?P<text>[^'"\n\\]{1,128})(?P=q)""")
# HAProxy: a fetch's match suffix (`hdr_beg(host)`, `ssl_fc_sni_end`) or `-m beg`, its flags, its values
_HAPROXY = lazy_re.compile(rb"(?:_(?P<op>beg|end|sub|dom)(?:\([^()\n]*\))?"
                           rb"|(?<![\w-])-m[ \t]+(?P<op2>beg|end|sub|dom))"
                           rb"(?:[ \t]+-[a-z](?![\w-]))*(?P<values>(?:[ \t]+(?![-#{}])[^ \t\n#{}]+)+)")
_HAPROXY_WORDS = (b"hdr_", b"sni", b"_beg", b"_dom", b"-m beg", b"-m end", b"-m sub", b"-m dom")
_HAPROXY_STOP = frozenset((b"if", b"unless", b"or", b"||", b"!"))
_META = lazy_re.compile(rb"[*?\[\\(|^$+{%]")
# A partial IPv4 address: two or three octets, optionally a trailing dot; nothing of an address after
# (a backslash after it continues the address in an escaped spelling: `10.250.50\.5\4` in a shell)
# (each look-behind after the first digit: a pattern that begins with a character class lets the
# engine skip to the next digit, as access_nets.NET)
_PARTIAL = lazy_re.compile(rb"(?P<addr>[0-9](?<![\w.:/-][0-9])[0-9]{0,2}(?:\.[0-9]{1,3}){1,2})"
                           rb"\.?(?![\w./:%*\\-])")
_WRAPPERS = ("hosts.allow", "hosts.deny")
# A MySQL account's host mask with LIKE wildcards, or a `host` key's value holding `%`
_ACCOUNT = lazy_re.compile(rb"""@[ \t]*(?P<q>['"`])(?P<text>[A-Za-z0-9.%_-]*[%_][A-Za-z0-9.%_-]*)(?P=q)""")
_HOST_KEY = lazy_re.compile(rb"""(?i)(?<![\w-])["']?host["']?[ \t]*(?::|=>?)[ \t]*(?P<q>['"]?)"""
                            rb"(?P<text>[A-Za-z0-9._-]*%[A-Za-z0-9.%_-]*)(?P=q)(?![\w%{])")
_V4 = rb"[0-9]{1,3}(?:\.[0-9]{1,3}){3}"
_RANGES = (
    lazy_re.compile(rb"(?P<a>[0-9](?<![\w.][0-9])[0-9]{0,2}(?:\.[0-9]{1,3}){3})"
                    rb"[ \t]*(?:-|\xe2\x80\x93|\xe2\x80\x94)[ \t]*(?P<b>" + _V4 + rb")(?![\w.]|/[0-9])"),
    lazy_re.compile(rb"(?<![\w-])range[ \t]+(?:dynamic-bootp[ \t]+)?(?P<a>" + _V4 + rb")[ \t]+(?P<b>" + _V4
                    + rb")(?![\w.])"),
    lazy_re.compile(rb"(?<![\w-])dhcp-range[ \t]*=[ \t]*(?:[^,\n]*,)*?(?P<a>" + _V4 + rb")[ \t]*,[ \t]*(?P<b>"
                    + _V4 + rb")(?![\w.])"),
    lazy_re.compile(rb"(?i)-StartRange[ \t]+(?P<a>" + _V4 + rb")[ \t]+-EndRange[ \t]+(?P<b>" + _V4 + rb")"),
)
# What `A-B` needs, found from its dash (a literal the engine skips ahead to): the dash, then an address.
_DASHED_END = lazy_re.compile(rb"(?:-|\xe2\x80[\x93\x94])[ \t]*[0-9]{1,3}\.[0-9]{1,3}\.[0-9]{1,3}\.[0-9]")
_POOL_KINDS = (b"IPAddressPool", b"LoadBalancerIPPool")
# A key naming a pool (kube-vip `cidr-global`, `load_balancer_ip_pool`, `loadbalancer_ip_range`)
_POOL_KEY = lazy_re.compile(rb"(?i)(?:cidr-[\w-]+|range-[\w-]+|[\w-]*(?:pool|ip[_-]?range)[\w-]*)"
                            rb"[\"']?[ \t]*[:=]")
_POOL_WORDS = (b"pool", b"cidr-", b"range")


def _falls(op: str, literal: str, value: str) -> bool:
    lit, val = literal.lower(), value.lower()
    if op == "beg":
        return val.startswith(lit)
    if op == "end":
        return val.endswith(lit)
    if op == "dom":
        return f".{lit.strip('.')}." in f".{val}."
    return lit in val


def _literal_hits(spans: Sequence[tuple[int, int, str]], data: bytes,
                  pairs: Sequence[tuple[str, str]], what: str, lost: bool) -> list[Hit]:
    out = []
    for start, end, op in spans:
        literal = data[start:end].decode("utf-8", "replace")
        for old, new in pairs:
            if lost and old.lower() in literal.lower():
                continue  # spelled: the exact matcher's to rewrite
            inside, outside = (old, new) if lost else (new, old)
            if _falls(op, literal, inside) and not _falls(op, literal, outside):
                out.append((start, end, old, new, f"the {what} test `{literal}` ({_WORDS[op]})"))
                break
    return out


_WORDS = {"beg": "a prefix", "end": "a suffix", "sub": "a substring", "dom": "a domain"}
_GRAMMARS = {prefix_tests.PREFIX: "beg", prefix_tests.PREFIX_REGEX: "beg", prefix_tests.GLOB_PREFIX: "beg",
             prefix_tests.CONTAINS: "sub", prefix_tests.REGEX_CONTAINS: "sub"}


def _may_pass(lowered: bytes, pairs: Sequence[tuple[str, str]]) -> bool:
    """False only where no literal of a prefix test (two characters or more) or a substring test
    (three or more) can pass a new value and not its old one: such a literal spells the new value's
    first characters past what it shares with the old one, or three characters of it in a row."""
    for old, new in pairs:
        low, was = new.lower().encode(), old.lower().encode()
        shared = next((i for i, (a, b) in enumerate(zip(low, was, strict=False)) if a != b),
                      min(len(low), len(was)))
        if low[:max(2, shared + 1)] in lowered:
            return True
        # A substring literal that the new value holds and the old one does not overlaps what differs
        # between them (past their shared head and tail): one of the three-character windows over it
        # stands in the file (on a 10/8 repo `10.` and `.50` are everywhere, `251` seldom).
        tail = next((i for i, (a, b) in enumerate(zip(low[::-1], was[::-1], strict=False)) if a != b),
                    min(len(low), len(was)))
        first, last = max(0, shared - 2), min(len(low) - 3, len(low) - tail - 1)
        if first > last:  # (head and tail overlap: one value repeats the other) every window
            first, last = 0, len(low) - 3
        if any(low[i:i + 3] in lowered for i in range(first, last + 1)):
            return True
    return False


def operator_hits(data: bytes, pairs: Sequence[tuple[str, str]], lost: bool = False) -> list[Hit]:
    """Prefix, suffix, substring and domain tests (any language, rsyslog, HAProxy) whose literal
    the new value passes and the old one does not (`lost`: the old one passes and the new one does
    not; prefix_tests.py's languages are patterns.py's in that direction already)."""
    if not pairs:
        return []
    spans: list[tuple[int, int, str]] = []
    lowered = data.lower()
    for start, end, grammar in () if lost or not _may_pass(lowered, pairs) else prefix_tests.positions(data):
        op = _GRAMMARS.get(grammar)
        if op is not None and _META.search(data, start, end) is None:
            spans.append((start, end, op))
    if b"startswith" in lowered or b"endswith" in lowered or b"contains" in lowered:
        for x in _RSYSLOG.finditer(data):
            word = x.group("op").lower()
            op = "beg" if word == b"startswith" else "end" if word == b"endswith" else "sub"
            spans.append((*x.span("text"), op))
    if any(word in lowered for word in _HAPROXY_WORDS):
        for x in _HAPROXY.finditer(data):
            op = (x.group("op") or x.group("op2")).decode()
            at = x.start("values")
            for word in re.finditer(rb"[^ \t]+", x.group("values")):
                if word.group() in _HAPROXY_STOP:
                    break
                if _META.search(word.group()) is None:
                    spans.append((at + word.start(), at + word.end(), op))
    return _literal_hits(sorted(set(spans)), data, pairs, "match", lost)


def _v4(value: str) -> ipaddress.IPv4Address | None:
    try:
        return ipaddress.IPv4Address(value)
    except ValueError:
        return None


_Moved = tuple[str, str, ipaddress.IPv4Address, ipaddress.IPv4Address]


def _moved(pairs: Sequence[tuple[str, str]]) -> list[_Moved]:
    return _moved_once(tuple(pairs))


@functools.lru_cache(maxsize=64)
def _moved_once(pairs: tuple[tuple[str, str], ...]) -> list[_Moved]:
    return [(o, n, ov, nv) for o, n in pairs if (ov := _v4(o)) is not None and (nv := _v4(n)) is not None]


def partial_hits(path: str, data: bytes, pairs: Sequence[tuple[str, str]], lost: bool = False) -> list[Hit]:
    """Partial addresses (`10.0.2.`, `10.0.2`) in an access rule (every line of hosts.allow and
    hosts.deny) that hold a new address and not its old one (`lost`: the old and not the new)."""
    moved = _moved(pairs)
    if not moved:
        return []
    # A partial address that holds one of a pair and not the other spells the first octets of the
    # one it holds, past the first octet where the two differ: only where such a head stands can one
    # begin (on a 10/8 repo a pass of _PARTIAL over every file cost more than the rest of this).
    starts: set[int] = set()
    for _, _, old_ip, new_ip in moved:
        inside, outside = (old_ip, new_ip) if lost else (new_ip, old_ip)
        differ = next((i for i in range(4) if inside.packed[i] != outside.packed[i]), 4)
        for count in (2, 3):
            if count > differ:
                spelled = ".".join(str(o) for o in inside.packed[:count]).encode()
                at = data.find(spelled)
                while at != -1:
                    starts.add(at)
                    at = data.find(spelled, at + 1)
    if not starts:
        return []
    wrappers = path.rsplit("/", 1)[-1] in _WRAPPERS
    out = []
    # (a partial never begins inside another: its look-behind refuses a digit or a dot before it,
    # so matching at each head is what a pass over the whole file finds there)
    for found in (m for at in sorted(starts) if (m := _PARTIAL.match(data, at)) is not None):
        octets = found.group("addr").split(b".")
        if any(int(o) > 255 or (len(o) > 1 and o[:1] == b"0") for o in octets):
            continue
        head = [int(o) for o in octets]
        for old, new, old_ip, new_ip in moved:
            inside, outside = (old_ip, new_ip) if lost else (new_ip, old_ip)
            if list(inside.packed[:len(head)]) == head and list(outside.packed[:len(head)]) != head \
                    and (wrappers or in_access_rule(data, found.start())):
                text = found.group().decode()
                out.append((found.start(), found.end(), old, new,
                            f"the partial address `{text}` of an access rule (the address's first octets)"))
                break
    return out


def _like(mask: str) -> re.Pattern[str]:
    return re.compile("".join(".*" if c == "%" else "." if c == "_" else re.escape(c) for c in mask), re.I)


def like_hits(data: bytes, pairs: Sequence[tuple[str, str]], lost: bool = False) -> list[Hit]:
    """SQL LIKE host masks (a MySQL account's `'u'@'db%'`, a `host: "10.0.2.%"` key) that match a
    new value in full and not its old one (`lost`: the old one and not the new one)."""
    if not pairs or (b"%" not in data and b"@" not in data):
        return []
    quoted = b"@'" in data or b'@"' in data or b"@`" in data or b"@ " in data or b"@\t" in data
    found = [*_ACCOUNT.finditer(data)] if quoted else []
    if b"%" in data and b"host" in data.lower():
        found += [x for x in _HOST_KEY.finditer(data)]
    out = []
    seen: set[int] = set()
    for x in found:
        if x.start("text") in seen:
            continue
        seen.add(x.start("text"))
        mask = x.group("text").decode()
        like = _like(mask)
        for old, new in pairs:
            inside, outside = (old, new) if lost else (new, old)
            if lost and old.lower() in mask.lower():
                continue  # spelled: the exact matcher's to rewrite
            if like.fullmatch(inside) and not like.fullmatch(outside):
                out.append((*x.span("text"), old, new,
                            f"the SQL host mask `{mask}` (LIKE: `%` any run, `_` one character)"))
                break
    return sorted(out)


def _reserved(data: bytes, address: str) -> bool:
    """Whether the file reserves `address` for one client, which the server's pool then excludes:
    dnsmasq `dhcp-host=...,A`, Kea `"ip-address": "A"`."""
    spelled = re.escape(address.encode())
    host = rb"(?m)^[ \t]*dhcp-host[ \t]*=[^\n]*(?<![\w.])" + spelled + rb"(?![\w.])"
    return re.search(host, data) is not None \
        or re.search(rb"\"ip-address\"[ \t]*:[ \t]*\"" + spelled + b"\"", data) is not None


def _pooled(data: bytes, at: int) -> bool:
    """Whether a pool's key stands before `at` on its line, or encloses its YAML list item."""
    line_start = data.rfind(b"\n", 0, at) + 1
    if _POOL_KEY.search(data, line_start, at) is not None:
        return True
    line = data[line_start:at]
    if not line.lstrip().startswith(b"- "):
        return False
    indent = len(line) - len(line.lstrip())
    while line_start > 0:
        prev_start = data.rfind(b"\n", 0, line_start - 1) + 1
        prev = data[prev_start:line_start - 1]
        line_start = prev_start
        if not prev.strip() or prev.lstrip()[:1] in (b"#", b"-"):
            continue
        if len(prev) - len(prev.lstrip()) <= indent:
            return _POOL_KEY.match(prev.lstrip()) is not None
    return False


def range_hits(data: bytes, pairs: Sequence[tuple[str, str]]) -> list[Hit]:
    """Address ranges and pool networks that hold a new address and not its old one."""
    moved = _moved(pairs)
    if not moved:
        return []
    out: list[Hit] = []
    taken: set[int] = set()
    for reader, word in zip(_RANGES, (b"", b"range", b"dhcp-range", b"StartRange"), strict=True):
        if word not in data or (reader is _RANGES[0] and _DASHED_END.search(data) is None):
            continue
        for x in reader.finditer(data):
            first, last = _v4(x.group("a").decode()), _v4(x.group("b").decode())
            if first is None or last is None or first > last or x.start("a") in taken:
                continue
            taken.add(x.start("a"))
            for old, new, old_ip, new_ip in moved:
                if first <= new_ip <= last and not first <= old_ip <= last \
                        and not _reserved(data, old) and not _reserved(data, new):
                    out.append((x.start("a"), x.end("b"), old, new,
                                f"the address range {first}-{last} (a DHCP or load-balancer pool hands "
                                "its addresses to other machines; an access rule's range admits them)"))
                    break
    lowered = data.lower()
    if any(word in lowered for word in _POOL_WORDS):
        kind = any(kind in data for kind in _POOL_KINDS)
        for found in NET.finditer(data):
            if not kind and not _pooled(data, found.start()):
                continue
            net = network_of(found)
            if net is None or in_access_rule(data, found.start()):
                continue  # an access rule's network is captured.network_hits'
            for old, new, old_ip, new_ip in moved:
                if new_ip in net and old_ip not in net:
                    out.append((found.start(), found.end(), old, new,
                                f"the address pool {net} (it hands its addresses to other machines)"))
                    break
    return sorted(out)
