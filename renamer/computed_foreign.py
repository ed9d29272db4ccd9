"""Addresses computed from a network in Go, JavaScript/TypeScript and Ruby (t29-33, finding 18).

Under `192.168.40.0/24: 192.168.40.0/22` the sweep rewrote the literal of Go's
`_, n, _ := net.ParseCIDR("192.168.40.0/24")` before go-cidr's `cidr.Host(n, -2)` (the library under
Terraform's cidrhost), Node's netmask `new Netmask("192.168.40.0/24").last` and Ruby's
`IPAddr.new("192.168.40.0/24").to_range.to_a[-2]`: each value moved from 192.168.40.254 to
192.168.43.254, sweep 0, verify OK. This module reads each such expression as a base network (a
literal in the constructor, or a name bound to one in the file) and the steps applied to it, in the
vocabulary computed_lengths evaluates; a member whose value renamer does not compute (go-cidr's
`PreviousSubnet`, Go's `n.Mask` arithmetic, ipaddress's `split(4)`) is an `opaque` step, which
computed_lengths judges as a change with the call named. A member whose value is the network itself,
its address, its length, its size or its whole range (`.Contains`, `.base`, `.to_range.last`) follows.

What is read (the libraries' documented meanings):

* Go: `net.ParseCIDR("...")` (its second value) with go-cidr's `cidr.Host(n, k)` (a negative k
  counts from the end), `cidr.Subnet(n, bits, num)`, `cidr.NextSubnet(n, len)`; `netip.ParsePrefix`
  / `netip.MustParsePrefix` and its methods.
* JavaScript/TypeScript: netmask's `new Netmask("...")` (`.last`: the last usable address,
  `.next(n)`), ip-cidr's `new IPCIDR("...")` (`.toArray()[n]`), ipaddr.js' `parseCIDR("...")`,
  cidr-tools' `expandCidr("...")` (`[...expandCidr(..)][n]`) and `parseCidr("...")` (`.end`).
* Ruby: `IPAddr.new("...")` (`.to_range.to_a[n]`, `.to_range.last`), the ipaddress gem's
  `IPAddress("...")`, `IPAddress.parse`, `IPAddress::IPv4.new` (`.last`: the last usable host,
  `.hosts[n]`, `.supernet(len)`, `.split(k)`).

Pure: bytes in, tuples out (computed_lengths.chains makes them Chains; it imports this module).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from renamer import lazy_re

# The words one of which stands in every file `chains` reads.
WORDS = (b"ParseCIDR", b"ParsePrefix", b"Netmask", b"IPAddr", b"IPAddress", b"IPCIDR", b"parseCIDR",
         b"expandCidr", b"parseCidr")

RawStep = tuple[str, tuple[int | None, ...], tuple[str, ...]]
# (start, end, base literal, base start, base end, where it is bound ("" inline), steps)
Raw = tuple[int, int, str, int, int, str, tuple[RawStep, ...]]

_WS = rb"[ \t]*"
_V4 = rb"\d{1,3}(?:\.\d{1,3}){3}/\d{1,3}"
_V6 = rb"[0-9A-Fa-f]{0,4}(?::[0-9A-Fa-f]{0,4}){2,7}(?:\.\d{1,3}){0,3}/\d{1,3}"
_QNET = rb"""(?P<q>['"`])(?P<net>""" + _V4 + rb"|" + _V6 + rb""")(?P=q)"""
_OPEN = _WS + rb"\(" + _WS
_CLOSE = _WS + rb"\)"
# The network: a literal, or a name the file binds to one (`const lanCIDR = "192.168.40.0/24"`)
_ARG = rb"(?:" + _QNET + rb"|(?P<ref>[A-Za-z_]\w*))"
_STRING_BIND = lazy_re.compile(
    rb"(?<![\w.$@])(?P<name>[A-Za-z_]\w*)(?:" + _WS + rb":" + _WS + rb"string)?" + _WS
                          + rb":?=" + _WS + _QNET + rb"[ \t]*[;,]?[ \t]*(?:(?://|#)[^\n]*)?$", re.M)
# Each constructor with the kind of what it makes.
_MAKERS = (
    (re.compile(rb"(?<![\w.])net" + _WS + rb"\." + _WS + rb"ParseCIDR" + _OPEN + _ARG + _CLOSE), "ipnet"),
    (re.compile(rb"(?<![\w.])netip" + _WS + rb"\." + _WS + rb"(?:Must)?ParsePrefix" + _OPEN + _ARG + _CLOSE),
     "prefix"),
    (re.compile(rb"(?<![\w.])new" + _WS + rb"Netmask" + _OPEN + _ARG + _CLOSE), "netmask"),
    (re.compile(rb"(?<![\w.])new" + _WS + rb"IPCIDR" + _OPEN + _ARG + _CLOSE), "ipcidr"),
    (re.compile(rb"(?<![\w])(?:ipaddr" + _WS + rb"\." + _WS + rb"(?:IPv[46]" + _WS + rb"\." + _WS
                + rb")?)?parseCIDR" + _OPEN + _ARG + _CLOSE), "ipaddrjs"),
    # (`[...expandCidr("..")][n]`, `Array.from(expandCidr(".."))[n]`: from the call, its closer after)
    (re.compile(rb"(?<![\w])expandCidr" + _OPEN + rb"\[?" + _WS + _ARG + _WS + rb"\]?" + _CLOSE
                + rb"(?:" + _WS + rb"[\])])?"), "array"),
    (re.compile(rb"(?<![\w.])parseCidr" + _OPEN + _ARG + _CLOSE), "cidrtools"),
    (re.compile(rb"(?<![\w.:])IPAddr" + _WS + rb"\." + _WS + rb"new" + _OPEN + _ARG + _CLOSE), "rb_ipaddr"),
    (re.compile(rb"(?<![\w.:])IPAddress(?:" + _WS + rb"\." + _WS + rb"parse|::IPv[46]" + _WS + rb"\." + _WS
                + rb"new)?" + _OPEN + _ARG + _CLOSE), "rb_ipaddress"),
)
# What binds the value to a name, on the line before the constructor.
_BINDS = {
    "ipnet": re.compile(rb"(?:var[ \t]+)?(?:\w+|_)" + _WS + rb"," + _WS + rb"(?P<name>\w+)" + _WS + rb","
                        + _WS + rb"(?:\w+|_)" + _WS + rb":?=" + _WS + rb"\Z"),
}
_BIND = lazy_re.compile(rb"(?:(?:const|let|var)[ \t]+)?(?P<name>@{0,2}[A-Za-z_]\w*)(?:" + _WS + rb":" + _WS
                   + rb"[\w.<>\[\]]+)?(?:" + _WS + rb"," + _WS + rb"(?:\w+|_))?" + _WS + rb":?=" + _WS
                   + rb"\Z")
# One accessor: `.name`, `.name(args)`, `[index]`.
_MEMBER = lazy_re.compile(_WS + rb"(?:\." + _WS + rb"(?P<m>\w+[?!]?)(?:" + _WS + rb"\((?P<args>[^()\n]*)\))?|"
                     rb"\[(?P<i>[^\[\]\n]{1,200})\])")
_PLUS = lazy_re.compile(_WS + rb"(?P<sign>[-+])" + _WS + rb"(?P<k>\d+)n?(?![\w.\[(])")
# go-cidr's functions over a bound net.IPNet: `cidr.Host(n, -2)`
_GO_CIDR = lazy_re.compile(rb"(?<![\w.])cidr" + _WS + rb"\." + _WS + rb"(?P<fn>[A-Z]\w*)" + _OPEN
                      + rb"(?P<name>\w+)(?P<args>(?:" + _WS + rb",[^()\n]*)?)" + _CLOSE)

FOLLOW = "follow"
OPAQUE = "opaque"
# Per kind: member -> FOLLOW (its value is the network, its address, length, size or whole range),
# OPAQUE (renamer does not compute it), a kind (another object), or a step (op, kind after).
_FOLLOWS = {
    "ipnet": {"IP", "String", "Contains", "Network"},
    "prefix": {"Addr", "Bits", "Masked", "Contains", "String", "IsValid", "Overlaps", "IsSingleIP",
               "MarshalText", "AppendTo"},
    "netmask": {"base", "mask", "bitmask", "hostmask", "broadcast", "size", "first", "contains", "forEach",
                "toString", "toJSON"},
    "ipcidr": {"start", "end", "toRange", "contains", "toString", "address", "addressStart", "addressEnd",
               "size", "loop", "toObject"},
    "array": {"length", "forEach", "map", "filter", "includes", "indexOf", "some", "every"},
    "hostarray": {"length", "size", "count", "each", "include?", "map", "select"},
    "ipaddrjs": {"toString"},
    "cidrtools": {"start", "cidr", "prefix", "version", "single", "ip"},
    "rb_ipaddr": {"to_s", "to_string", "prefix", "include?", "netmask", "inspect", "ipv4?", "ipv6?",
                  "private?", "hton", "to_i", "family", "cover?", "==="},
    "rb_range": {"first", "min", "each", "include?", "cover?", "count", "size", "step", "to_a", "entries"},
    "rb_ipaddress": {"network", "broadcast", "first", "address", "prefix", "netmask", "size", "to_string",
                     "to_s", "include?", "each", "each_host", "octets", "to_u32", "subnet", "u32", "to_i",
                     "ipv4?", "ipv6?", "network?", "hexstring", "bits", "to_string_uncompressed"},
}
_ADDRESS_FOLLOWS = {"to_s", "toString", "String", "to_string", "toNormalizedString", "inspect"}


def might_hold(data: bytes) -> bool:
    return any(word in data for word in WORDS)


def chains(data: bytes) -> Iterator[Raw]:
    """Every expression of `data` over a network a constructor of these libraries makes, by start."""
    if not might_hold(data):
        return
    strings: dict[bytes, tuple[str, int, int, int] | None] = {}
    for b in _STRING_BIND.finditer(data):
        line = data.count(b"\n", 0, b.start()) + 1
        value = (b.group("net").decode("ascii"), b.start("net"), b.end("net"), line)
        known = strings.get(b.group("name"), value)
        strings[b.group("name")] = value if known is not None and known[0] == value[0] else None
    for pattern, kind in _MAKERS:
        for m in pattern.finditer(data):
            if m.group("ref") is not None:  # a name bound to a literal in the file (and to one only)
                bound = strings.get(m.group("ref"))
                if bound is None:
                    continue
                net, net_start, net_end, net_line = bound
                via = f"`{m.group('ref').decode()}` at line {net_line}"
            else:
                net, via = m.group("net").decode("ascii"), ""
                net_start, net_end = m.start("net"), m.end("net")
            line_start = data.rfind(b"\n", 0, m.start()) + 1
            head = data[line_start:m.start()]
            bind = _BINDS.get(kind, _BIND).search(head)
            # inline: the members right after the constructor
            found = _read(data, m.end(), kind)
            if found is not None and (found[1] or bind is None):
                end, steps = found
                yield (m.start(), end, net, net_start, net_end, via, steps)
                continue
            if bind is None:
                continue
            name = bind.group("name")
            line = data.count(b"\n", 0, m.start()) + 1
            where = f"`{name.decode()}` at line {line}" + (f", from {via}" if via else "")
            yield from _uses(data, m.end(), name, kind, net, net_start, net_end, where)


def _uses(data: bytes, after: int, name: bytes, kind: str, net: str, bstart: int, bend: int,
          where: str) -> Iterator[Raw]:
    """Each use of the bound `name` after its binding: members read as steps; go-cidr's calls."""
    use = re.compile(rb"(?<![\w.$@])" + re.escape(name) + rb"(?![\w?!])")
    for u in use.finditer(data, after):
        found = _read(data, u.end(), kind)
        if found is not None and found[1]:
            yield (u.start(), found[0], net, bstart, bend, where, found[1])
    if kind != "ipnet" or b"cidr" not in data:
        return
    for c in _GO_CIDR.finditer(data, after):
        if c.group("name") != name:
            continue
        args = [a for a in c.group("args").split(b",")[1:]]
        numbers = [_number(a) for a in args]
        fn = c.group("fn").decode()
        if fn == "Host" and len(numbers) == 1:
            steps: tuple[RawStep, ...] = (("host", (numbers[0][0],), (numbers[0][1],)),)
        elif fn == "Subnet" and len(numbers) == 2:
            steps = (("subnet", tuple(n for n, _ in numbers), tuple(s for _, s in numbers)),)
        elif fn == "NextSubnet" and len(numbers) == 1:
            steps = (("next_subnet", (numbers[0][0],), (numbers[0][1],)),)
        elif fn in ("AddressRange", "AddressCount", "Contains"):
            continue
        else:
            steps = ((OPAQUE, (), (f"go-cidr's cidr.{fn}",)),)
        yield (c.start(), c.end(), net, bstart, bend, where, steps)


def _read(data: bytes, pos: int, kind: str) -> tuple[int, tuple[RawStep, ...]] | None:
    """The members read from `pos` on an object of `kind`: (end, steps); steps empty where the
    value follows; None where no member is there."""
    steps: list[RawStep] = []
    end = pos
    read = False
    while True:
        m = _MEMBER.match(data, end)
        if m is None:
            break
        read = True
        member = m.group("m").decode() if m.group("m") is not None else None
        args = m.group("args")
        index = m.group("i")
        end = m.end()
        if kind == "address":
            if member in _ADDRESS_FOLLOWS:
                continue
            return end, ((OPAQUE, (), (f"`.{member or '[...]'}` on its address",)),)
        step, kind = _member(kind, member, args, index)
        if isinstance(step, str):  # FOLLOW
            return end, ()
        if step is None:
            continue
        if step[0] == OPAQUE:
            return end, (step,)
        steps.append(step)
    if not read:
        return None
    plus = _PLUS.match(data, end)
    if steps and plus is not None and kind == "address":
        k = int(plus.group("k"))
        steps.append(("plus", (k if plus.group("sign") == b"+" else -k,), ()))
        end = plus.end()
    return end, tuple(steps)


def _member(kind: str, member: str | None, args: bytes | None, index: bytes | None
            ) -> tuple[RawStep | str | None, str]:
    """One accessor on an object of `kind`: (a step, FOLLOW, or None for none; the kind after)."""
    said = f"`.{member}`" if member is not None else f"`[{(index or b'').decode('utf-8', 'replace')}]`"
    if member is not None and member in _FOLLOWS.get(kind, set()) and not (kind == "rb_range" and args):
        if kind == "rb_range" and member in ("to_a", "entries"):
            return None, "array"
        return FOLLOW, kind
    if index is not None and kind in ("array", "hostarray"):
        number, text = _number(index)
        return ("host" if kind == "array" else "hosts", (number,), (text,)), "address"
    if index is not None and kind in ("ipaddrjs", "rb_ipaddress"):
        return FOLLOW, kind  # ipaddr.js' [address, length]; the gem's [n] is an octet
    if kind == "netmask" and member == "last":
        return ("last_usable", (), ()), "address"
    if kind == "netmask" and member == "next":
        number, text = _number(args or b"1") if (args or b"").strip() else (1, "1")
        return ("next_block", (number,), (text,)), "netmask"
    if kind == "ipcidr" and member == "toArray" and not (args or b"").strip():
        return None, "array"
    if kind == "array" and member == "at" and args:
        number, text = _number(args)
        return ("host", (number,), (text,)), "address"
    if kind == "array" and member == "pop" and not (args or b"").strip():
        return ("host", (-1,), ("-1",)), "address"
    if kind == "cidrtools" and member == "end":
        return ("broadcast", (), ()), "address"
    if kind == "rb_ipaddr" and member == "to_range":
        return None, "rb_range"
    if kind == "rb_range" and member in ("last", "max") and not (args or b"").strip():
        return ("broadcast", (), ()), "address"
    if kind == "rb_ipaddress" and member == "last":
        return ("last_usable", (), ()), "address"
    if kind == "rb_ipaddress" and member == "hosts":
        return None, "hostarray"
    if kind == "hostarray" and member in ("first", "last") and not (args or b"").strip():
        n = 0 if member == "first" else -1
        return ("hosts", (n,), (str(n),)), "address"
    if kind == "rb_ipaddress" and member == "supernet" and args:
        number, _text = _number(args)
        if number is not None:
            return ("supernet", (1, number), ()), "rb_ipaddress"
    return (OPAQUE, (), (f"{said} of {_NAMES.get(kind, kind)}",)), kind


_NAMES = {
    "ipnet": "Go's net.IPNet", "prefix": "Go's netip.Prefix", "netmask": "netmask's Netmask",
    "ipcidr": "ip-cidr's IPCIDR", "array": "its addresses", "hostarray": "its hosts",
    "ipaddrjs": "ipaddr.js' parseCIDR", "cidrtools": "cidr-tools' parseCidr", "rb_ipaddr": "Ruby's IPAddr",
    "rb_range": "its range", "rb_ipaddress": "the ipaddress gem's network",
}

# An index counting back from the size: `all.length - 2`, `len(all) - 2`, `all.size - 2`.
_FROM_SIZE = lazy_re.compile(r"(?:[A-Za-z_$@][\w.$()]*\.(?:length|size|count)|len\(.*\))-(\d+)n?")


def _number(text: bytes) -> tuple[int | None, str]:
    said = re.sub(rb"\s+", b" ", text.strip()).decode("utf-8", "replace")
    plain = said.replace(" ", "").strip("'\"")
    literal = re.fullmatch(r"([-+]?\d+)n?", plain)
    if literal is not None:
        return int(literal.group(1)), said
    back = _FROM_SIZE.fullmatch(plain)
    return (-int(back.group(1)), said) if back is not None else (None, said)
