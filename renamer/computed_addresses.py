"""Addresses computed from a literal network and a host number (break-it round 8, finding 8).

`cidrhost("10.0.40.0/24", 11)` is 10.0.40.11 to Terraform (and `cidrhost("10.0.40.0/28", -5)`,
counting from the end), as Ansible's `'10.0.40.0/24' | ansible.utils.nthhost(11)` (and
`ipaddr(11)`), Python's `ip_network("10.0.40.0/24")[11]`, `ip_address("10.0.40.0") + 11` and
Ansible's `ipmath(11)`, and a format whose last octet is a directive given a literal number
(`printf '10.0.40.%d' 11`, Terraform's `format("10.0.40.%d", 11)`, Python's `'10.0.40.%d' % 11`,
Jinja's `'10.0.40.%d' | format(11)`) are: no byte spells the address, so the sweep rewrote nothing
and verify said OK. Each such expression is evaluated here, as its tool does (`evaluate`); where
the number is not a literal (`cidrhost("10.0.40.0/24", count.index + 10)`), the expression may
make any address of the network (`unknown`). Whether an address is an old one is the caller's
(sweep/composed_addresses.computed_matches). Pure: bytes in, spans and addresses out.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

from renamer import lazy_re

_NET = rb"""(?P<q>['"])(?P<net>\d{1,3}(?:\.\d{1,3}){3}/\d{1,2})(?P=q)"""
_ADDR = rb"""(?P<q>['"])(?P<net>\d{1,3}(?:\.\d{1,3}){3})(?:/\d{1,2})?(?P=q)"""
# The number: a literal integer (quoted for Ansible's filters), else any argument (`arg`).
_NUM = rb"""(?:['"]?(?P<num>[-+]?\d+)['"]?|(?P<arg>[^()\[\],\n \t]+(?:[ \t]+[^()\[\],\n \t]+)*))"""
_INDEX_FORMS = (
    # Terraform's cidrhost(prefix, hostnum)
    # (CDK for Terraform's `Fn.cidrhost(...)` too: Terraform's own function; t29-33, finding 18)
    re.compile(rb"(?:(?<=\bFn\.)|(?<![\w.]))cidrhost[ \t]*\([ \t]*" + _NET + rb"[ \t]*,[ \t]*" + _NUM
               + rb"[ \t]*\)"),
    # Ansible's `'net' | nthhost(n)` (ansible.utils., ansible.netcommon., ipaddr's `ipaddr(n)`)
    re.compile(_NET + rb"[ \t]*\|[ \t]*(?:ansible\.(?:utils|netcommon)\.)?(?:nthhost|ipaddr)[ \t]*\([ \t]*"
               + _NUM + rb"[ \t]*\)"),
    # Python's ip_network("net")[n] (ipaddress., IPv4Network, strict=False)
    re.compile(rb"(?<![\w])(?:ip_network|IPv4Network|ip_interface|IPv4Interface)[ \t]*\([ \t]*" + _NET
               + rb"[^()\n]*\)(?:[ \t]*\.[ \t]*network)?[ \t]*\[[ \t]*" + _NUM + rb"[ \t]*\]"),
)
# Terraform's cidrhost(cidrsubnet(prefix, newbits, netnum), hostnum): the subnet first
# Terraform's cidrsubnet(prefix, newbits, netnum) alone: a network, `address` its `A.B.C.D/len`
_SUBNET = lazy_re.compile(rb"(?:(?<=\bFn\.)|(?<![\w.]))cidrsubnet[ \t]*\([ \t]*" + _NET
                     + rb"[ \t]*,[ \t]*(?P<bits>\d+)[ \t]*,[ \t]*(?P<netnum>\d+)[ \t]*\)")
_SUBNET_HOST = lazy_re.compile(
    rb"(?:(?<=\bFn\.)|(?<![\w.]))cidrhost[ \t]*\([ \t]*cidrsubnet[ \t]*\([ \t]*" + _NET
                          + rb"[ \t]*,[ \t]*(?P<bits>\d+)[ \t]*,[ \t]*(?P<netnum>\d+)[ \t]*\)[ \t]*,[ \t]*"
                          + _NUM + rb"[ \t]*\)")
_ADD_FORMS = (
    # Python's ip_address("a") + n, IPv4Address; Ansible's `'a' | ipmath(n)`
    re.compile(rb"(?<![\w])(?:ip_address|IPv4Address)[ \t]*\([ \t]*" + _ADDR + rb"[ \t]*\)[ \t]*\+[ \t]*"
               rb"(?P<num>\d+)(?![\w.])"),
    re.compile(_ADDR + rb"[ \t]*\|[ \t]*(?:ansible\.(?:utils|netcommon)\.)?ipmath[ \t]*\([ \t]*['\"]?"
               rb"(?P<num>[-+]?\d+)['\"]?[ \t]*\)"),
)
# A format whose directive is the last octet: `10.0.40.%d` with the number given after it.
_DIRECTIVE = rb"(?P<net>\d{1,3}\.\d{1,3}\.\d{1,3}\.)%(?:0?\d*)?[dius]"
_FORMAT_FORMS = (
    re.compile(rb"""(?<![\w-])printf[ \t]+(?:-v[ \t]+\w+[ \t]+)?(?P<q>['"])[^'"%\n]*?""" + _DIRECTIVE
               + rb"""[^'"%\n]*(?P=q)[ \t]+['"]?(?P<num>\d+)(?![\w.])"""),
    re.compile(rb"""(?<![\w])format[ \t]*\([ \t]*(?P<q>")[^"%\n]*?""" + _DIRECTIVE
               + rb"""[^"%\n]*(?P=q)[ \t]*,[ \t]*(?P<num>\d+)[ \t]*\)"""),
    re.compile(rb"""(?P<q>['"])[^'"%\n]*?""" + _DIRECTIVE + rb"""[^'"%\n]*(?P=q)[ \t]*%[ \t]*\(?[ \t]*"""
               rb"""(?P<num>\d+)(?![\w.])"""),
    re.compile(rb"""(?P<q>['"])[^'"%\n]*?""" + _DIRECTIVE + rb"""[^'"%\n]*(?P=q)[ \t]*\|[ \t]*format[ \t]*"""
               rb"""\([ \t]*(?P<num>\d+)[ \t]*\)"""),
)
# Python's `"10.0.40.{}".format(11)` (break-it round 9, finding 9)
_BRACE_FORMAT = lazy_re.compile(
    rb"""(?P<q>['"])[^'"{}%\n]*?(?P<net>\d{1,3}\.\d{1,3}\.\d{1,3}\.)\{\d*(?::d)?\}"""
                           rb"""[^'"{}\n]*(?P=q)[ \t]*\.[ \t]*format[ \t]*\([ \t]*(?P<num>\d+)[ \t]*\)""")
# Python's `ip_network("10.0.40.0/24").network_address + 11`, `list(ip_network(..).hosts())[10]`
# (hosts() leaves the network's own address out: one more), and `"%s.%d" % ("10.0.40", 11)`
_NET_CALL = (rb"(?<![\w])(?:ip_network|IPv4Network)[ \t]*\([ \t]*" + _NET + rb"[^()\n]*\)")
_OFFSET_FORMS = (
    (re.compile(_NET_CALL + rb"[ \t]*\.[ \t]*network_address[ \t]*\+[ \t]*(?P<num>\d+)(?![\w.])"), 0),
    (re.compile(rb"(?<![\w.])list[ \t]*\([ \t]*(?:ipaddress[ \t]*\.[ \t]*)?" + _NET_CALL
                + rb"[ \t]*\.[ \t]*hosts[ \t]*\([ \t]*\)[ \t]*\)[ \t]*\[[ \t]*(?P<num>\d+)[ \t]*\]"), 1),
)
_PREFIX_FORMAT = lazy_re.compile(rb"""(?P<q>['"])%s\.%[dis](?P=q)[ \t]*%[ \t]*\([ \t]*(?P<q2>['"])"""
                            rb"""(?P<net>\d{1,3}\.\d{1,3}\.\d{1,3})(?P=q2)[ \t]*,[ \t]*"""
                            rb"""(?P<num>\d+)[ \t]*\)""")
# A network through a name the caller resolves (break-it round 9, finding 9): Terraform's
# `cidrhost(var.net, 11)`, `cidrhost(local.net, 11)`, `cidrhost(cidrsubnet(var.net, 8, 1), 11)`;
# Python's `NET[11]`, `NET.network_address + 11`, `list(NET.hosts())[10]` where
# `NET = ip_network("10.0.40.0/24")`.
_TF_REF = rb"(?P<ref>(?:var|local)[ \t]*\.[ \t]*[A-Za-z_][\w-]*)"
_PY_REF = rb"(?P<ref>[A-Za-z_]\w*)"
_REF_FORMS = (
    (re.compile(rb"(?<![\w.])cidrhost[ \t]*\([ \t]*" + _TF_REF + rb"[ \t]*,[ \t]*" + _NUM + rb"[ \t]*\)"), 0),
    (re.compile(rb"(?<![\w.])" + _PY_REF + rb"[ \t]*\[[ \t]*" + _NUM + rb"[ \t]*\]"), 0),
    (re.compile(rb"(?<![\w.])list[ \t]*\([ \t]*" + _PY_REF + rb"[ \t]*\.[ \t]*hosts[ \t]*\([ \t]*\)[ \t]*\)"
                rb"[ \t]*\[[ \t]*(?P<num>\d+)[ \t]*\]"), 1),
    (re.compile(rb"(?<![\w.])" + _PY_REF + rb"[ \t]*\.[ \t]*network_address[ \t]*\+[ \t]*"
                rb"(?P<num>\d+)(?![\w.])"), 0),
)
_REF_SUBNET = lazy_re.compile(rb"(?<![\w.])cidrhost[ \t]*\([ \t]*cidrsubnet[ \t]*\([ \t]*" + _TF_REF
                         + rb"[ \t]*,[ \t]*(?P<bits>\d+)[ \t]*,[ \t]*(?P<netnum>\d+)[ \t]*\)[ \t]*,[ \t]*"
                         + _NUM + rb"[ \t]*\)")
# Ansible's filters over a variable (break-it round 21, finding 31): `{{ subnet | nthhost(70) }}`,
# `{{ subnet | ansible.utils.ipaddr(70) }}`, `{{ gw | ansible.utils.ipmath(69) }}`; the caller resolves
# the name, asked as `jinja:NAME` (the whole path, `jinja:net.lan.cidr`), to a literal network or address.
_JINJA_REF = (rb"\{\{-?[ \t]*(?P<ref>[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)[ \t]*\|[ \t]*"
              rb"(?:ansible\.(?:utils|netcommon)\.)?")
_JINJA_FORMS = (
    (re.compile(_JINJA_REF + rb"(?:nthhost|ipaddr)[ \t]*\([ \t]*" + _NUM + rb"[ \t]*\)"), False),
    (re.compile(_JINJA_REF + rb"ipmath[ \t]*\([ \t]*['\"]?(?P<num>[-+]?\d+)['\"]?[ \t]*\)"), True),
)
# Python's `NET = ipaddress.ip_network("10.0.40.0/24")`: a name the file's own index forms read
_PY_NETWORK = lazy_re.compile(rb"^[ \t]*(?P<name>[A-Za-z_]\w*)[ \t]*(?::[^=\n]*)?=[ \t]*"
                         rb"(?:ipaddress[ \t]*\.[ \t]*)?(?:ip_network|IPv4Network)[ \t]*\([ \t]*" + _NET
                         + rb"[^()\n]*\)[ \t]*(?:#.*)?$", re.M)
# Sums of an address and a number (t36-33 finding 09), the number a literal or a loop variable:
# Node's `ip.toLong("10.0.40.1") + 200` (inside `ip.fromLong(...)`), PHP's `ip2long('10.0.40.1') + 200`
# (inside `long2ip(...)`), Ruby's `IPAddr.new("10.0.40.1") + 200`, Python's `ip_address("a") + i`,
# `ip_network("n").network_address + i`, and a Python name bound to an address, `GW + 200`.
_TAIL = rb"[ \t]*\+[ \t]*(?:(?P<num>\d+)(?![\w.])|(?P<var>[A-Za-z_]\w*)(?![\w.(\[]))"
_SUM_FORMS = (
    re.compile(rb"(?<![\w])(?:toLong|ip2long)[ \t]*\([ \t]*" + _ADDR + rb"[ \t]*\)" + _TAIL),
    re.compile(rb"(?<![\w])IPAddr[ \t]*\.[ \t]*new[ \t]*\([ \t]*" + _ADDR + rb"[ \t]*\)" + _TAIL),
    re.compile(rb"(?<![\w])(?:ip_address|IPv4Address)[ \t]*\([ \t]*" + _ADDR + rb"[ \t]*\)[ \t]*\+[ \t]*"
               rb"(?P<var>[A-Za-z_]\w*)(?![\w.(\[])"),
    re.compile(_NET_CALL + rb"[ \t]*\.[ \t]*network_address[ \t]*\+[ \t]*(?P<var>[A-Za-z_]\w*)(?![\w.(\[])"),
)
_PY_ADDRESS = lazy_re.compile(rb"^[ \t]*(?P<name>[A-Za-z_]\w*)[ \t]*(?::[^=\n]*)?=[ \t]*"
                              rb"(?:ipaddress[ \t]*\.[ \t]*)?(?:ip_address|IPv4Address)[ \t]*\([ \t]*" + _ADDR
                              + rb"[ \t]*\)[ \t]*(?:#.*)?$", re.M)
_NAME_SUM = lazy_re.compile(rb"(?<![\w.])(?P<ref>[A-Za-z_]\w*)" + _TAIL)
_REF_NET_SUM = lazy_re.compile(rb"(?<![\w.])" + _PY_REF + rb"[ \t]*\.[ \t]*network_address[ \t]*\+[ \t]*"
                               rb"(?P<var>[A-Za-z_]\w*)(?![\w.(\[])")
# A loop variable's bound: Python's `for i in range(150, 200)` (a comprehension on the line, or a loop
# above), JavaScript's `for (let i = 150; i < 200; i++)` (`<=`)
_PY_RANGE = (rb"for[ \t]+%s[ \t]+in[ \t]+range[ \t]*\([ \t]*(\d+)[ \t]*(?:,[ \t]*(\d+)[ \t]*)?"
             rb"(?:,[ \t]*\d+[ \t]*)?\)")
_JS_RANGE = rb"for[ \t]*\([ \t]*(?:let|var)?[ \t]*%s[ \t]*=[ \t]*(\d+)[ \t]*;[ \t]*%s[ \t]*(<=?)[ \t]*(\d+)"
# The words one of which stands in every file `might_hold` accepts (besides `A.B.C.%`).
LITERALS = (b"cidrhost", b"cidrsubnet", b"nthhost", b"ipaddr", b"ipmath", b"ip_network", b"IPv4Network",
            b"ip_interface",
            b"IPv4Interface", b"ip_address", b"IPv4Address", b"toLong", b"ip2long", b"IPAddr")


@dataclass(frozen=True)
class Computed:
    """An expression at [start, end) computing `address` (None: from an unknown number), with the
    network literal's span (net_start, net_end) and what it is."""

    start: int
    end: int
    text: str
    network: str
    net_start: int
    net_end: int
    address: str | None
    number: str
    via: str = ""  # where the network a name stands for is written (`var.net` at main.tf:1)


def literals(addresses: Iterable[str]) -> tuple[bytes, ...]:
    """The prefilter's words: the functions, and `A.B.C.%` for each old IPv4 address."""
    prefixes = {old.rsplit(".", 1)[0].encode() + b"." for old in addresses if ":" not in old}
    quoted = {q + p[:-1] + q for p in prefixes for q in (b'"', b"'")}  # `"%s.%d" % ("10.0.40", 11)`
    return (*LITERALS, *sorted(p + b"%" for p in prefixes), *sorted(p + b"{" for p in prefixes),
            *sorted(quoted))


def might_hold(data: bytes, words: tuple[bytes, ...]) -> bool:
    return any(word in data for word in words)


Resolve = Callable[[str], "tuple[str, str] | None"]  # `var.net` -> (its network, where it is written)


def python_networks(data: bytes) -> dict[str, tuple[str, int]]:
    """A Python file's `NAME = ip_network("10.0.40.0/24")`: name -> (network, line)."""
    return {m.group("name").decode(): (m.group("net").decode(), data.count(b"\n", 0, m.start()) + 1)
            for m in _PY_NETWORK.finditer(data)}


def computed(data: bytes, resolve: Resolve | None = None) -> Iterator[Computed]:
    """Every computed address of `data`, by start (overlapping forms: the first); with `resolve`,
    those whose network is a name it resolves (`cidrhost(var.net, 11)`, `NET[11]`) too."""
    found: list[Computed] = []
    if resolve is not None:
        found += _through_names(data, resolve)
    for form in _INDEX_FORMS:
        for m in form.finditer(data):
            number = m.group("num")
            address = _nth(m.group("net"), int(number)) if number is not None else None
            if number is None and address is None and not m.group("arg").strip():
                continue
            found.append(_computed(m, address, (number or m.group("arg")).decode("utf-8", "replace")))
    for m in _SUBNET_HOST.finditer(data):
        subnet = _subnet(m.group("net"), int(m.group("bits")), int(m.group("netnum")))
        number = m.group("num")
        address = (_nth(subnet.encode(), int(number)) if subnet else "") if number is not None else None
        if address is None and not subnet:
            continue
        found.append(_computed(m, address, (number or m.group("arg")).decode("utf-8", "replace")))
    for m in _SUBNET.finditer(data):  # inside a cidrhost(...) found above, that one is taken
        subnet = _subnet(m.group("net"), int(m.group("bits")), int(m.group("netnum")))
        if subnet:
            found.append(_computed(m, subnet, m.group("netnum").decode()))
    for form, offset in _OFFSET_FORMS:
        for m in form.finditer(data):
            address = _nth(m.group("net"), int(m.group("num")) + offset)
            found.append(_computed(m, address, m.group("num").decode()))
    for m in _PREFIX_FORMAT.finditer(data):
        spelled = m.group("net") + b"." + m.group("num")
        found.append(_computed(m, spelled.decode() if _valid(spelled) else "", m.group("num").decode()))
    for form in _ADD_FORMS:
        for m in form.finditer(data):
            found.append(_computed(m, _plus(m.group("net"), int(m.group("num"))), m.group("num").decode()))
    found += _sums(data, resolve)
    for form in (*_FORMAT_FORMS, _BRACE_FORMAT):
        for m in form.finditer(data):
            spelled = m.group("net") + m.group("num")
            found.append(_computed(m, spelled.decode() if _valid(spelled) else "", m.group("num").decode()))
    taken: list[Computed] = []
    for c in sorted(found, key=lambda c: (c.start, -c.end)):
        if c.address == "" or (taken and c.start < taken[-1].end):
            continue
        taken.append(c)
    yield from taken


def _through_names(data: bytes, resolve: Resolve) -> list[Computed]:
    out: list[Computed] = []
    for form, offset in _REF_FORMS:
        for m in form.finditer(data):
            ref = re.sub(rb"[ \t]+", b"", m.group("ref")).decode()
            resolved = resolve(ref)
            number = m.group("num")
            if resolved is None or (number is None and not m.group("arg").strip()):
                continue
            network, where = resolved
            address = _nth(network.encode(), int(number) + offset) if number is not None else None
            said = (number or m.group("arg")).decode("utf-8", "replace")
            out.append(_named(m, address, said, network, where))
    for form, adds in _JINJA_FORMS:
        for m in form.finditer(data):
            ref = m.group("ref").decode()
            resolved = resolve(f"jinja:{ref}")
            number = m.group("num")
            arg = m.group("arg") if "arg" in form.groupindex else None
            if resolved is None or (number is None and not (arg or b"").strip()):
                continue
            network, where = resolved
            if not adds and "/" not in network:
                continue  # nthhost of an address without its length: Ansible refuses it
            made: str | None = (_plus(network.encode(), int(number)) if adds
                                else _nth(network.encode(), int(number)) if number is not None else None)
            if made == "":
                continue
            said = (number or arg or b"").decode("utf-8", "replace")
            out.append(_named(m, made, said, network, where))
    for m in _REF_SUBNET.finditer(data):
        resolved = resolve(re.sub(rb"[ \t]+", b"", m.group("ref")).decode())
        if resolved is None:
            continue
        subnet = _subnet(resolved[0].encode(), int(m.group("bits")), int(m.group("netnum")))
        number = m.group("num")
        if not subnet:
            continue
        address = _nth(subnet.encode(), int(number)) if number is not None else None
        said = (number or m.group("arg")).decode("utf-8", "replace")
        out.append(_named(m, address, said, subnet, resolved[1]))
    return out


def _last(data: bytes, m: re.Match[bytes]) -> int | None:
    """The number a sum adds: its literal, or the last value of the loop variable it names (the
    highest host it makes), None where the loop is not read."""
    if m.groupdict().get("num") is not None:
        return int(m.group("num"))
    var = re.escape(m.group("var"))
    end = data.find(b"\n", m.end())
    window = data[max(0, m.start() - 2000):len(data) if end < 0 else end]
    last: int | None = None
    for r in re.finditer(_PY_RANGE % var, window):
        last = int(r.group(2)) - 1 if r.group(2) is not None else int(r.group(1)) - 1
    for r in re.finditer(_JS_RANGE % (var, var), window):
        last = int(r.group(3)) - (1 if r.group(2) == b"<" else 0)
    return last


def _said(m: re.Match[bytes], number: int | None) -> str:
    if m.groupdict().get("num") is not None:
        return m.group("num").decode()
    var = m.group("var").decode()
    return f"{var} (up to {number})" if number is not None else var


def _sums(data: bytes, resolve: Resolve | None) -> list[Computed]:
    """Sums of an address and a number (`_SUM_FORMS`), and of a name bound to one (t36-33 09)."""
    out: list[Computed] = []
    if any(word in data for word in (b"toLong", b"ip2long", b"IPAddr", b"ip_address", b"IPv4Address",
                                     b"network_address")):
        for form in _SUM_FORMS:
            for m in form.finditer(data):
                number = _last(data, m)
                if "/" in m.group("net").decode() and b"network_address" in m.group():
                    address = _nth(m.group("net"), number) if number is not None else None
                else:
                    address = _plus(m.group("net"), number) if number is not None else None
                if address is None and b"network_address" not in m.group():
                    continue  # an address plus an unread number: no network to say it may leave
                out.append(_computed(m, address, _said(m, number)))
    names = {m.group("name"): m for m in _PY_ADDRESS.finditer(data)}
    if names:
        for m in _NAME_SUM.finditer(data):
            bound = names.get(m.group("ref"))
            number = _last(data, m) if bound is not None else None
            if bound is None or number is None:
                continue
            line = data.count(b"\n", 0, bound.start()) + 1
            address = _plus(bound.group("net"), number)
            if address:
                out.append(_named(m, address, _said(m, number), bound.group("net").decode(), f"line {line}"))
    if resolve is not None and b"network_address" in data:
        for m in _REF_NET_SUM.finditer(data):
            resolved = resolve(m.group("ref").decode())
            if resolved is None:
                continue
            number = _last(data, m)
            network, where = resolved
            made = _nth(network.encode(), number) if number is not None else None
            out.append(_named(m, made, _said(m, number), network, where))
    return out


def _named(m: re.Match[bytes], address: str | None, number: str, network: str, where: str) -> Computed:
    return Computed(m.start(), m.end(), m.group().decode("utf-8", "replace"), network, m.start("ref"),
                    m.end("ref"), address, number, where)


def _computed(m: re.Match[bytes], address: str | None, number: str) -> Computed:
    return Computed(m.start(), m.end(), m.group().decode("utf-8", "replace"), m.group("net").decode(),
                    m.start("net"), m.end("net"), address, number)


def _nth(network: bytes, n: int) -> str:
    """The nth address of `network` as cidrhost and Python count (negative: from its end); ''
    where there is none (out of range, not a network)."""
    try:
        net = ipaddress.ip_network(network.decode(), strict=False)
        return str(net[n])
    except (ValueError, IndexError):
        return ""


def _subnet(network: bytes, bits: int, number: int) -> str:
    """Terraform's cidrsubnet: the `number`th subnet `bits` longer than `network` ('' where none)."""
    try:
        net = ipaddress.ip_network(network.decode(), strict=False)
        prefix = net.prefixlen + bits
        if prefix > net.max_prefixlen or number >= 2 ** bits:
            return ""
        base = int(net.network_address) + number * 2 ** (net.max_prefixlen - prefix)
        return f"{ipaddress.ip_address(base)}/{prefix}"
    except ValueError:
        return ""


def _plus(address: bytes, n: int) -> str:
    try:
        return str(ipaddress.ip_address(address.decode().split("/")[0]) + n)
    except (ValueError, ipaddress.AddressValueError):
        return ""


def _valid(address: bytes) -> bool:
    try:
        ipaddress.IPv4Address(address.decode())
    except ValueError:
        return False
    return True


def addresses_of(network: str) -> ipaddress.IPv4Network | ipaddress.IPv6Network | None:
    """The network a literal names (a host address in it too: `10.0.40.5/24`), or None."""
    try:
        return ipaddress.ip_network(network, strict=False)
    except ValueError:
        return None
