"""Expressions whose value depends on a network's length or end (t26-33 findings 01, 03, 04, 09, 16).

Under a resize (`192.168.40.0/24: 192.168.40.0/22`) every address keeps its offset from the network
address (prefix_moves.py), so an expression that computes an address or a subnet from the network
keeps its meaning only where what it computes counts from the start and keeps its length. Rewriting
the network literal to the new length changes the value of every other one: Terraform's
`cidrhost(net, -2)` (40.254 becomes 43.254), `cidrsubnet(net, 2, 1)` and `cidrsubnets(net, 2, 2)`
(the new bits count from the length), `cidrhost(cidrsubnet(net, 2, 3), 5)`; Ansible's
`ipaddr('last_usable')`, `ipsubnet(26, -1)`, `nthhost(-2)`; Python's `ip_network(net)[-2]`,
`list(net.hosts())[-1]`, `net.broadcast_address - 1`, `list(net.subnets())[1]`; on IPv4 and IPv6
literals alike, or on a name standing for one (`var.net`, `aws_vpc.main.cidr_block`, `NET`, a
Jinja variable: the caller resolves it).

`chains` reads each such expression as a base network and the steps applied to it; `judge`
evaluates the steps over the old and the new network and says whether the value follows (it is
the old value's place in the new network), falls outside the new network (a shrink: a refusal),
or changes meaning (a residual); a number that is not a literal is probed (0 and 1, or -1 and -2
where it is written negative), and under a shrink it may fall past the new end. Pure: bytes in,
spans and verdicts out; sweep/computed_resizes.py decides the matches.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import product

from renamer import computed_foreign, lazy_re

Network = ipaddress.IPv4Network | ipaddress.IPv6Network
Address = ipaddress.IPv4Address | ipaddress.IPv6Address
Value = Address | Network | tuple[Address | Network, ...] | int
# A chain's base that is an expression, not a literal or a name (sweep/opaque_bases.py reads it)
OPAQUE = "expr:"

# A quoted network literal, IPv4 or IPv6 (validated by ipaddress).
_V4 = rb"\d{1,3}(?:\.\d{1,3}){3}/\d{1,2}"
_V6 = rb"[0-9A-Fa-f]{0,4}(?::[0-9A-Fa-f]{0,4}){2,7}(?:\.\d{1,3}){0,3}/\d{1,3}"
_QNET = rb"""(?P<q>['"])(?P<net>""" + _V4 + rb"|" + _V6 + rb""")(?P=q)"""
_WS = rb"[ \t]*"
# Terraform: the functions, a reference (`var.net`, `local.net`, `aws_vpc.main.cidr_block`)
# (CDK for Terraform calls Terraform's own functions from TypeScript or Python: `Fn.cidrhost(...)`,
# the same meaning; t29-33, finding 18)
_TF_CALL = lazy_re.compile(
    rb"(?:(?<=\bFn\.)|(?<![\w.]))(?P<fn>cidrhost|cidrsubnets|cidrsubnet)" + _WS + rb"\(")
# (a map's key or a list's index after it: `var.nets["lan"]`, `var.lst[0]`; quotes escaped in .tf.json)
_TF_REF = lazy_re.compile(rb"[A-Za-z_][\w-]*(?:\.[A-Za-z_][\w-]*|\[" + _WS + rb'(?:\\?"[^"\\\n]*\\?"|\d+|'
                     rb'[A-Za-z_][\w.]{0,60})' + _WS + rb"\]){1,4}(?![\w.(\[])")
# a literal (`\"` in a .tf.json string), or a heredoc holding one (`trimspace(<<-EOT ... EOT)`)
_TF_STRING = lazy_re.compile(rb"""(?P<e>\\?)(?P<q>["'])(?P<net>""" + _V4 + rb"|" + _V6 + rb")(?P=e)(?P=q)")
_TF_HEREDOC = lazy_re.compile(rb"(?:(?P<fn>trimspace|chomp)" + _WS + rb"\(\s*)?"
                         rb"<<-?(?P<id>[A-Za-z_]\w*)[ \t]*\r?\n\s*"
                         rb"(?P<net>" + _V4 + rb"|" + _V6 + rb")\s*\r?\n[ \t]*(?P=id)[ \t]*(?:\r?\n\s*)?\)?")
# Bicep: cidrSubnet(network, newCIDR, index) (an absolute length), cidrHost(network, index) (the
# index-th usable address: .1 is 0 on IPv4); the network a quoted literal or a `var`/`param` name
_BICEP_CALL = lazy_re.compile(rb"(?<![\w.])(?:sys\.)?(?P<fn>cidrSubnet|cidrHost)" + _WS + rb"\(")
_BICEP_BASE = lazy_re.compile(rb"'(?P<net>" + _V4 + rb"|" + _V6 + rb")'|(?P<ref>[A-Za-z_]\w*)")
# CloudFormation: Fn::Cidr [ipBlock, count, cidrBits] (count subnets of cidrBits host bits), alone or
# in Fn::Select [i, ...]; YAML short form `!Cidr [...]`, long form `Fn::Cidr: [...]`, JSON
# `{"Fn::Cidr": [...]}`, a block sequence under `!Cidr`; the block a literal or a Ref to a Parameter


def _cfn_item(p: str) -> bytes:
    """Fn::Cidr's block: a literal (quoted or not), `!Ref NAME` or `{"Ref": "NAME"}`, groups named p*."""
    g = p.encode()
    return (rb"(?:(?P<" + g + rb"q>['" + rb'"]?)(?P<' + g + rb"net>" + _V4 + rb"|" + _V6 + rb")"
            rb"(?P=" + g + rb"q)"
            rb"|!Ref[ \t]+(?P<" + g + rb"ref>[A-Za-z]\w*)"
            rb'|\{[ \t]*"?Ref"?[ \t]*:[ \t]*"?(?P<' + g + rb'ref2>[A-Za-z]\w*)"?[ \t]*\})')


_CFN_NUM = rb"""(?:['"]?-?\d+['"]?|!Ref[ \t]+\w+|\{[^{}\n]*\})"""
_CFN_CIDR = lazy_re.compile(
    rb'(?:!Cidr|"?Fn::Cidr"?[ \t]*:)[ \t]*(?:\[[ \t]*' + _cfn_item("")
    + rb"[ \t]*,[ \t]*(?P<count>" + _CFN_NUM
    + rb")[ \t]*,[ \t]*(?P<bits>" + _CFN_NUM + rb")[ \t]*\]"
    rb"|[ \t]*\r?\n(?P<ind>[ \t]+)-[ \t]+" + _cfn_item("b") + rb"[ \t]*\r?\n(?P=ind)-[ \t]+(?P<bcount>"
    + _CFN_NUM + rb")[ \t]*\r?\n(?P=ind)-[ \t]+(?P<bbits>" + _CFN_NUM + rb")[ \t]*(?=\r?\n|$))")
_CFN_CLOSE = lazy_re.compile(rb"[ \t]*\]")
_CFN_CLOSE_JSON = lazy_re.compile(rb"[ \t]*\}?[ \t]*\]")
# what stands just before it where Fn::Select takes one of the subnets
_CFN_SELECT = lazy_re.compile(rb'(?:!Select|"?Fn::Select"?[ \t]*:)[ \t]*(?:\[[ \t]*(?P<i>' + _CFN_NUM
                         + rb")[ \t]*,[ \t]*(?:\{[ \t]*)?|\r?\n[ \t]+-[ \t]+(?P<bi>" + _CFN_NUM
                         + rb")[ \t]*\r?\n[ \t]+-[ \t]+)$")
# Ansible: a quoted literal or a Jinja variable, then filters
_JINJA_BASE = lazy_re.compile(_QNET + rb"|(?:\{\{-?|\()[ \t(]*(?P<ref>[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)(?="
                         + _WS + rb"\|)")
_FILTER = lazy_re.compile(
    _WS + rb"\|" + _WS + rb"(?:ansible\.(?:utils|netcommon)\.|ipaddr\.)?(?P<f>[A-Za-z_]\w*)"
                     rb"(?:" + _WS + rb"\((?P<args>[^()\n]*)\))?")
_FILTERS = (b"nthhost", b"ipaddr", b"ipsubnet", b"ipmath", b"ipv4", b"ipv6", b"usable_range",
            b"next_nth_usable", b"previous_nth_usable")
# `(net | usable_range)['usable_ips'][-2]`, `.usable_ips[-2]`: the list holds every address (its
# docs: 10.0.0.0 to 10.0.0.15 for a /28), so the index is the network's
_USABLE_AT = lazy_re.compile(
    _WS + rb"\)?" + _WS + rb"(?:\[" + _WS + rb"""['"]usable_ips['"]""" + _WS + rb"\]|\."
                        + _WS + rb"usable_ips)" + _WS + rb"\[" + _WS + rb"(?P<n>[-+]?\d+)" + _WS + rb"\]")
# Python: ip_network("net") (any of its spellings), or a name the caller resolves
# (netaddr's IPNetwork indexes as ipaddress does; a `u""` or `r""` literal is the same string: t29-33, 02)
_PY_CALL = (rb"(?<![\w.])(?:(?:ipaddress|netaddr)" + _WS + rb"\." + _WS + rb")?(?:ip_network|IPv4Network|"
            rb"IPv6Network|ip_interface|IPv4Interface|IPv6Interface|IPNetwork)" + _WS + rb"\(" + _WS
            + rb"[uUrR]?" + _QNET + rb"[^()\n]*\)"
            rb"(?:" + _WS + rb"\." + _WS + rb"network(?![\w]))?")
# a name, or an interface's `.network` (`IF = ip_interface("10.0.48.1/24")`, `IF.network[-2]`:
# t31-33, finding 08); the name resolves to the interface's network
_PY_NAME = rb"(?<![\w.])(?P<ref>[A-Za-z_]\w*)(?:" + _WS + rb"\." + _WS + rb"network(?![\w(]))?"
_PY_BASE = rb"(?:" + _PY_CALL + rb"|" + _PY_NAME + rb")"
_PY_FIELD = (rb"(?<![\w.])(?:(?:self|cls)" + _WS + rb"\." + _WS + rb"|[A-Za-z_]\w*(?:\.data)?" + _WS + rb"\["
             + _WS + rb"""(?P<fq>['"]))?(?P<ref>[A-Za-z_]\w*)(?(fq)(?P=fq)""" + _WS + rb"\])")
_INT = (rb"(?P<n>[-+]?" + _WS + rb"\d+|len" + _WS + rb"\([^\]\n]{1,200}?\)" + _WS + rb"-" + _WS + rb"\d+|"
        rb"[A-Za-z_][\w.]*(?:" + _WS + rb"[-+*]" + _WS + rb"[\w.]+)*)")
# An address value then `- 1` / `+ 1` (`NET[-1] - 1`, `max(NET.hosts()) - 1`): a step of its own
_PLUS = rb"(?:" + _WS + rb"(?P<sign>[-+])" + _WS + rb"(?P<k>\d+)(?![\w.\[(]))?"
_SEQ = rb"(?<![\w.])(?:list|tuple|sorted)" + _WS + rb"\(" + _WS
_HOSTS = rb"(?:hosts|iter_hosts)" + _WS + rb"\(" + _WS + rb"\)"
_PY_FORMS = (
    # NET[n], list(NET)[n], sorted(NET)[n] (t29-33, finding 02: and `- 1` after it)
    (re.compile(_PY_BASE + _WS + rb"\[" + _WS + _INT + _WS + rb"\]" + _PLUS), "host"),
    (re.compile(_SEQ + _PY_BASE + _WS + rb"\)" + _WS + rb"\[" + _WS + _INT + _WS + rb"\]" + _PLUS), "host"),
    # NET.broadcast_address - n (netaddr: NET.broadcast - n)
    (re.compile(_PY_BASE + _WS + rb"\." + _WS + rb"broadcast(?:_address)?" + _WS + rb"-" + _WS
                + rb"(?P<n>\d+)(?![\w.])"), "before_end"),
    # list(NET.hosts())[n], sorted(...)[n], tuple(...)[n] (netaddr: iter_hosts())
    (re.compile(_SEQ + _PY_BASE + _WS + rb"\." + _WS + _HOSTS + _WS + rb"\)" + _WS + rb"\[" + _WS + _INT + _WS
                + rb"\]" + _PLUS), "hosts"),
    # max(NET.hosts()): the last host (t29-33, finding 02)
    (re.compile(rb"(?<![\w.])max" + _WS + rb"\(" + _WS + _PY_BASE + _WS + rb"\." + _WS + _HOSTS + _WS + rb"\)"
                + _PLUS), "last_host"),
    # NET.network_address + n, over a field too: `self.NET`, `data["NET"]` (a pydantic
    # `default_factory=lambda data: data["svc_cidr"].network_address + 10` beside `svc_cidr: Cidr =
    # IPv4Network(..)`: t31-33 finding 23, a default shrunk under the address derived from it)
    (re.compile(rb"(?:" + _PY_CALL + rb"|" + _PY_FIELD + rb")" + _WS + rb"\." + _WS + rb"network_address"
                + _WS + rb"\+" + _WS + rb"(?P<n>\d+)(?![\w.(\[])"), "host"),
    # NET.supernet(...) (its length counts from the network's)
    (re.compile(_PY_BASE + _WS + rb"\." + _WS + rb"supernet" + _WS + rb"\((?P<args>[^()\n]*)\)"), "supernet"),
    # list(NET.subnets(...))[k]
    (re.compile(rb"(?<![\w.])list" + _WS + rb"\(" + _WS + _PY_BASE + _WS + rb"\." + _WS + rb"subnets" + _WS
                + rb"\((?P<args>[^()\n]*)\)" + _WS + rb"\)" + _WS + rb"\[" + _WS + _INT + _WS + rb"\]"),
     "subnets_at"),
    # NET.subnets(...) iterated whole
    (re.compile(_PY_BASE + _WS + rb"\." + _WS + rb"subnets" + _WS + rb"\((?P<args>[^()\n]*)\)"),
     "subnets_all"),
)
# The words one of which stands in every file `chains` reads.
# (Python's forms over a name read the file's own `NAME = ip_network(...)`: its words stand there.)
LITERALS = (b"cidrhost", b"cidrsubnet", b"nthhost", b"ipaddr", b"ipsubnet", b"ipmath", b"ip_network",
            b"IPv4Network", b"IPv6Network", b"ip_interface", b"IPv4Interface", b"IPv6Interface", b"IPNetwork",
            b"ipv4", b"ipv6", b"usable_range", b"nth_usable", *computed_foreign.WORDS,
            b"cidrSubnet", b"cidrHost", b"Cidr")


@dataclass(frozen=True)
class Step:
    """One operation: `op` with its numbers (None: not a literal, `said` gives its text)."""

    op: str
    args: tuple[int | None, ...]
    said: tuple[str, ...] = ()
    # the least value of each number that is not a literal, where its text proves one (`k + 20`
    # with `k` a `for` expression's index, `count.index + 1`: t29-33 finding 12); None: unknown
    floor: tuple[int | None, ...] = ()


@dataclass(frozen=True)
class Chain:
    """[start, end): an expression computing from `base` (a network literal at [base_start,
    base_end) where `literal`, else a name the caller resolves: `var.net`, `NET`, `jinja:net`)."""

    start: int
    end: int
    text: str
    base: str
    base_start: int
    base_end: int
    literal: bool
    steps: tuple[Step, ...]
    where: str = ""  # a literal bound to a name elsewhere in the file (computed_foreign): where


def might_hold(data: bytes) -> bool:
    return any(word in data for word in LITERALS)


def chains(data: bytes) -> Iterator[Chain]:
    """Every expression of `data` computing from a network by a step `judge` reads, outermost
    first, by start."""
    found = [*_terraform(data), *_jinja(data), *_python(data), *_foreign(data), *_bicep(data),
             *_cloudformation(data)]
    taken: list[Chain] = []
    for c in sorted(found, key=lambda c: (c.start, -c.end)):
        if taken and c.start < taken[-1].end:
            continue
        taken.append(c)
    yield from taken


# An index counting back from the network's size: `NET.num_addresses - 2`, `len(list(NET)) - 2`,
# netaddr's `NET.size - 2` (t29-33, finding 02): the same as -2.
_FROM_SIZE = lazy_re.compile(r"(?:[A-Za-z_][\w.]*\.(?:num_addresses|size)|len\(.*\))-(\d+)")


def _foreign(data: bytes) -> Iterator[Chain]:
    """Go, JavaScript/TypeScript and Ruby (computed_foreign.py; t29-33, finding 18)."""
    for start, end, net, bstart, bend, where, steps in computed_foreign.chains(data):
        yield Chain(start, end, data[start:end].decode("utf-8", "replace"), net, bstart, bend, True,
                    tuple(Step(op, args, said) for op, args, said in steps), where)


def _number(text: bytes) -> tuple[int | None, str]:
    said = re.sub(rb"\s+", b" ", text.strip()).decode("utf-8", "replace")
    plain = said.replace(" ", "").strip("'\"")
    if re.fullmatch(r"[-+]?\d+", plain):
        return int(plain), said
    back = _FROM_SIZE.fullmatch(plain)
    return (-int(back.group(1)), said) if back is not None else (None, said)


_SPECIAL = lazy_re.compile(rb'[()\[\]{},"\n]')


def _args(data: bytes, pos: int, limit: int = 400) -> tuple[list[bytes], int] | None:
    """The top-level arguments after `(` at `pos`, and the position after `)` (nested at most 4
    deep, within `limit` bytes: a hostile line costs at most that per call)."""
    depth, start, out = 0, pos, []
    end = min(len(data), pos + limit)
    i = pos
    while True:
        m = _SPECIAL.search(data, i, end)
        if m is None:
            return None
        c, i = m.group(), m.start()
        if c in (b"(", b"[", b"{"):
            depth += 1
            if depth > 4:
                return None
        elif c in (b")", b"]", b"}"):
            if depth == 0:
                if c != b")":
                    return None
                out.append(data[start:i])
                return out, i + 1
            depth -= 1
        elif c == b"," and depth == 0:
            out.append(data[start:i])
            start = i + 1
        elif c == b'"':
            close = data.find(b'"', i + 1, end)
            if close < 0:
                return None
            i = close
        i += 1


def _tf_parse(data: bytes, pos: int) -> tuple[int, str, int, int, bool, tuple[Step, ...]] | None:
    m = _TF_CALL.match(data, pos)
    if m is None:
        return None
    parsed = _args(data, m.end())
    if parsed is None or not parsed[0]:
        return None
    args, end = parsed
    first = args[0]
    first_at = m.end() + (len(first) - len(first.lstrip()))
    inner = _TF_CALL.match(data, first_at)
    if inner is not None:
        if inner.group("fn") != b"cidrsubnet":
            return None
        nested = _tf_parse(data, first_at)
        if nested is None or data[first_at:nested[0]].strip() != first.strip():
            return None
        _end, base, bstart, bend, literal, steps = nested
    else:
        string = _TF_STRING.fullmatch(first.strip())
        heredoc = _TF_HEREDOC.fullmatch(first.strip()) if string is None else None
        ref = _TF_REF.fullmatch(first.strip())
        if heredoc is not None and (heredoc.group("fn") is None) == (not first.strip().endswith(b")")):
            string = heredoc
        if string is not None:
            base, literal, steps = string.group("net").decode(), True, ()
            bstart = first_at + string.start("net")
            bend = bstart + len(base)
        elif ref is not None and not first.strip().startswith((b"count.", b"each.", b"path.", b"terraform.")):
            base = re.sub(r"\s+", "", first.strip().decode()).replace('\\"', '"')
            bstart, bend, literal, steps = first_at, first_at + len(first.strip()), False, ()
        elif first.strip() and not first.strip().startswith((b"count.", b"path.", b"terraform.")):
            # any other expression (`coalesce(..)`, `lookup(..)`, a conditional, `each.value.cidr`, a
            # template's variable: t31-33 findings 02, 07, 24): the caller reads what it may stand for
            base = OPAQUE + re.sub(r"\s+", " ", first.strip().decode("utf-8", "replace"))
            bstart, bend, literal, steps = first_at, first_at + len(first.strip()), False, ()
        else:
            return None
    numbers = [_number(a) for a in args[1:]]
    floors = tuple(floor(data, pos, said) if n is None else None for n, said in numbers)
    fn = m.group("fn")
    if fn == b"cidrhost" and len(numbers) == 1:
        step = Step("host", (numbers[0][0],), (numbers[0][1],), floors)
    elif fn == b"cidrsubnet" and len(numbers) == 2:
        step = Step("subnet", tuple(n for n, _ in numbers), tuple(s for _, s in numbers), floors)
    elif fn == b"cidrsubnets" and numbers:
        step = Step("subnets", tuple(n for n, _ in numbers), tuple(s for _, s in numbers), floors)
    else:
        return None
    return end, base, bstart, bend, literal, (*steps, step)


def _terraform(data: bytes) -> Iterator[Chain]:
    if b"cidr" not in data:
        return
    for m in _TF_CALL.finditer(data):
        parsed = _tf_parse(data, m.start())
        if parsed is None:
            continue
        end, base, bstart, bend, literal, steps = parsed
        yield Chain(m.start(), end, data[m.start():end].decode("utf-8", "replace"), base, bstart, bend,
                    literal, steps)


_FOR_KEY = lazy_re.compile(rb"\bfor[ \t]+(?P<k>[A-Za-z_]\w*)[ \t]*,[ \t]*[A-Za-z_]\w*[ \t]+in\b")
_FOR_RANGE = lazy_re.compile(rb"\bfor[ \t]+(?P<k>[A-Za-z_]\w*)[ \t]+in[ \t]+range[ \t]*\([ \t]*"
                        rb"(?:(?P<start>\d+)[ \t]*,)?")


def floor(data: bytes, pos: int, said: str) -> int | None:
    """The least value of a number that is not a literal, where its text proves one: `count.index`,
    a `for` expression's index (`[for k, v in list : ...]`, `[for i in range(2) : ...]`,
    `range(0, 5)` in Bicep), each plus a literal (`k + 20`); None for anything else (t29-33
    finding 12: `k + 20` was tried as 0)."""
    m = re.fullmatch(r"(?:(?P<a>\d+)\s*\+\s*)?(?P<name>[A-Za-z_][\w.]*)(?:\s*\+\s*(?P<b>\d+))?", said.strip())
    if m is None or (m.group("a") and m.group("b")):
        return None
    plus = int(m.group("a") or m.group("b") or 0)
    name = m.group("name")
    if name == "count.index":
        return plus
    before = data[max(0, pos - 400):pos]
    lines = before.split(b"\n")
    before = b"\n".join(lines[-3:])  # the expression's own line and the two before it
    least: int | None = None
    for found in _FOR_KEY.finditer(before):
        if found.group("k").decode() == name:
            least = 0
    for found in _FOR_RANGE.finditer(before):
        if found.group("k").decode() == name:
            least = int(found.group("start") or 0)
    return None if least is None else least + plus


def _bicep(data: bytes) -> Iterator[Chain]:
    if b"cidrSubnet" not in data and b"cidrHost" not in data:
        return
    for m in _BICEP_CALL.finditer(data):
        parsed = _args(data, m.end())
        if parsed is None:
            continue
        args, end = parsed
        first_at = m.end() + (len(args[0]) - len(args[0].lstrip()))
        base = _BICEP_BASE.fullmatch(args[0].strip())
        if base is None:
            continue
        if base.group("net") is not None:
            net, bstart, literal = base.group("net").decode(), first_at + 1, True
        else:
            net, bstart, literal = base.group("ref").decode(), first_at, False
        numbers = [_number(a) for a in args[1:]]
        floors = tuple(floor(data, m.start(), said) if n is None else None for n, said in numbers)
        if m.group("fn") == b"cidrSubnet" and len(numbers) == 2:
            step = Step("ipsubnet", tuple(n for n, _ in numbers), tuple(s for _, s in numbers), floors)
        elif m.group("fn") == b"cidrHost" and len(numbers) == 1:
            step = Step("usable", (numbers[0][0],), (numbers[0][1],), floors)
        else:
            continue
        yield Chain(m.start(), end, data[m.start():end].decode("utf-8", "replace"), net, bstart,
                    bstart + len(net), literal, (step,))


def _cloudformation(data: bytes) -> Iterator[Chain]:
    if b"Cidr" not in data:
        return
    for m in _CFN_CIDR.finditer(data):
        p = "" if m.group("count") is not None else "b"
        net, ref = m.group(p + "net"), m.group(p + "ref") or m.group(p + "ref2")
        if net is not None:
            base, bstart, literal = net.decode(), m.start(p + "net"), True
        elif ref is not None:
            group = p + "ref" if m.group(p + "ref") else p + "ref2"
            base, bstart, literal = f"cfn:{ref.decode()}", m.start(group), False
        else:
            continue
        bend = bstart + (len(net) if net is not None else len(ref or b""))
        count, said_count = _number(m.group(p + "count").strip(b"'\""))
        bits, said_bits = _number(m.group(p + "bits").strip(b"'\""))
        steps: tuple[Step, ...] = (Step("cfn_cidr", (count, bits), (said_count, said_bits)),)
        start, end = m.start(), m.end()
        select = _CFN_SELECT.search(data, max(0, start - 120), start)
        if select is not None:
            index, said_index = _number((select.group("i") or select.group("bi")).strip(b"'\""))
            steps = (*steps, Step("select", (index,), (said_index,)))
            start = select.start()
            if select.group("i") is not None:  # the flow form's own closing brackets
                closing = _CFN_CLOSE_JSON if b"{" in select.group() else _CFN_CLOSE
                tail = closing.match(data, end)
                end = tail.end() if tail is not None else end
        yield Chain(start, end, data[start:end].decode("utf-8", "replace"), base, bstart, bend, literal,
                    steps)


def _jinja(data: bytes) -> Iterator[Chain]:
    if not any(word in data for word in _FILTERS):
        return
    for m in _JINJA_BASE.finditer(data):
        pos = m.end()
        steps: list[Step] = []
        while True:
            f = _FILTER.match(data, pos)
            if f is None:
                break
            if f.group("f") == b"usable_range" and f.group("args") is None:
                # ansible.utils' usable_range: every address of the network, by index (t29-33, 02)
                at = _USABLE_AT.match(data, f.end())
                if at is not None:
                    number, said = _number(at.group("n"))
                    steps.append(Step("host", (number,), (said,)))
                    pos = at.end()
                break
            step = _filter_step(f.group("f"), f.group("args"))
            if step is None:
                break
            steps.append(step)
            pos = f.end()
        if not steps:
            continue
        if any(s.op == "nth_usable" for s in steps):
            # ansible.utils' next_nth_usable / previous_nth_usable count from the interface's own
            # address (`'10.0.48.1/24' | next_nth_usable(199)`, t31-33 finding 08): its offset in the
            # network is read from the literal; through a variable it is not known here
            offset = _interface_offset(m.group("net"))
            if offset is None or steps[0].op != "nth_usable" or len(steps) != 1:
                continue
            n = steps[0].args[0]
            steps = [Step("nth_usable", (None if n is None else offset + n,), steps[0].said)]
        if m.group("net") is not None:
            base, bstart, bend, literal = m.group("net").decode(), m.start("net"), m.end("net"), True
            start = m.start()
        else:
            base, literal = f"jinja:{m.group('ref').decode()}", False
            bstart, bend = m.start("ref"), m.end("ref")
            start = m.start("ref")
        yield Chain(start, pos, data[start:pos].decode("utf-8", "replace"), base, bstart, bend, literal,
                    tuple(steps))


def _interface_offset(net: bytes | None) -> int | None:
    """The offset of an interface literal's address in its network (`10.0.48.1/24`: 1)."""
    if net is None:
        return None
    try:
        iface = ipaddress.ip_interface(net.decode())
    except ValueError:
        return None
    return int(iface.ip) - int(iface.network.network_address)


def _filter_step(name: bytes, args: bytes | None) -> Step | None:
    parts = [a for a in (args or b"").split(b",")] if args and args.strip() else []
    if name in (b"next_nth_usable", b"previous_nth_usable") and len(parts) == 1:
        number, said = _number(parts[0])
        if number is not None and name == b"previous_nth_usable":
            number = -number
        return Step("nth_usable", (number,), (said,))
    if name in (b"ipv4", b"ipv6"):  # ipaddr's aliases for one family (t29-33, finding 02)
        name = b"ipaddr"
    if name in (b"nthhost", b"ipaddr") and len(parts) == 1:
        query = parts[0].strip().strip(b"'\"")
        if name == b"ipaddr" and query in (b"last_usable", b"first_usable", b"broadcast", b"range_usable"):
            return Step(query.decode(), ())
        number, said = _number(parts[0])
        if number is None and (name == b"ipaddr" or re.search(rb"['\"]", parts[0])):
            return None  # ipaddr('network'), ('address'): no count
        return Step("host", (number,), (said,))
    if name == b"ipsubnet" and len(parts) == 2:
        length, said_length = _number(parts[0])
        index, said_index = _number(parts[1])
        return Step("ipsubnet", (length, index), (said_length, said_index))
    if name == b"ipmath" and len(parts) == 1:
        number, said = _number(parts[0])
        return Step("plus", (number,), (said,))
    return None


def _python(data: bytes) -> Iterator[Chain]:
    if not any(w in data for w in (b"ip_network", b"Network", b"ip_interface", b"Interface")):
        return
    for form, op in _PY_FORMS:
        for m in form.finditer(data):
            if m.group("net") is not None:
                base, bstart, bend, literal = m.group("net").decode(), m.start("net"), m.end("net"), True
            else:
                ref = m.group("ref").decode()
                if ref in ("list", "tuple", "sorted", "max", "self", "cls") or ref[0].isdigit():
                    continue
                base, bstart, bend, literal = ref, m.start("ref"), m.end("ref"), False
            if op == "supernet":
                spec = _subnet_spec(m.group("args"))
                if spec is None:
                    continue
                steps: tuple[Step, ...] = (Step("supernet", spec),)
            elif op == "subnets_all" or op == "subnets_at":
                spec = _subnet_spec(m.group("args"))
                if spec is None:
                    continue
                if op == "subnets_all":
                    steps = (Step("subnets_all", spec),)
                else:
                    number, said = _number(m.group("n"))
                    steps = (Step("subnets_at", (*spec, number), ("", "", said)),)
            elif op == "last_host":
                steps = (Step("hosts", (-1,), ("-1",)),)
            else:
                number, said = _number(m.group("n"))
                steps = (Step(op, (number,), (said,)),)
            if "sign" in form.groupindex and m.group("sign") is not None:
                k = int(m.group("k"))
                steps = (*steps, Step("plus", (k if m.group("sign") == b"+" else -k,)))
            yield Chain(m.start(), m.end(), m.group().decode("utf-8", "replace"), base, bstart, bend, literal,
                        steps)


def _subnet_spec(args: bytes) -> tuple[int, int] | None:
    """Python's subnets(): (0, diff) for `prefixlen_diff=diff` (1 where none), (1, length) for
    `new_prefix=length`; None where it cannot be read."""
    text = args.strip()
    if not text:
        return (0, 1)
    m = re.fullmatch(rb"(?:prefixlen_diff" + _WS + rb"=" + _WS + rb")?(\d+)", text)
    if m is not None:
        return (0, int(m.group(1)))
    m = re.fullmatch(rb"new_prefix" + _WS + rb"=" + _WS + rb"(\d+)", text)
    return (1, int(m.group(1))) if m is not None else None


# --- evaluation -------------------------------------------------------------------------------


class NoValue(Exception):
    """The step has no value over this network (a host number past its end, too many new bits)."""


def evaluate(steps: tuple[Step, ...], network: Network) -> Value:
    """The value of `steps` over `network`, as its tool computes it (every number a literal)."""
    value: Value = network
    for step in steps:
        value = _apply(step, value)
    return value


def _net(value: Value) -> Network:
    if not isinstance(value, (ipaddress.IPv4Network, ipaddress.IPv6Network)):
        raise NoValue
    return value


def _index(net: Network, n: int) -> Address:
    try:
        return net[n]
    except IndexError as e:
        raise NoValue from e


def _subnet(net: Network, bits: int, number: int) -> Network:
    length = net.prefixlen + bits
    if bits < 0 and length >= 0 and number >= 0:
        # a negative count of new bits makes a wider network from its address (terraform's
        # `cidrsubnet("192.168.208.0/24", -1, 0)` is 192.168.208.0/23, seen on randomcoww/homelab: a
        # route over the service network; t38); terraform leaves an unaligned one unmasked, read masked
        wide = int(net.network_address) + number * 2 ** (net.max_prefixlen - length)
        if wide >= 2 ** net.max_prefixlen:
            raise NoValue
        return (ipaddress.IPv4Network((wide, length), strict=False) if net.version == 4
                else ipaddress.IPv6Network((wide, length), strict=False))
    if bits < 0 or length > net.max_prefixlen or not 0 <= number < 2 ** bits:
        raise NoValue
    base = int(net.network_address) + number * 2 ** (net.max_prefixlen - length)
    return ipaddress.ip_network((base, length)) if net.version == 4 else ipaddress.IPv6Network((base, length))


def _apply(step: Step, value: Value) -> Value:
    args = [a for a in step.args if a is not None]
    if len(args) != len(step.args):
        raise NoValue  # probed by judge before
    if step.op == "select":  # CloudFormation's Fn::Select over Fn::Cidr's list
        if not isinstance(value, tuple) or not 0 <= args[0] < len(value):
            raise NoValue
        return value[args[0]]
    if step.op == "plus":
        if not isinstance(value, (ipaddress.IPv4Address, ipaddress.IPv6Address)):
            raise NoValue
        try:
            return value + args[0]
        except ipaddress.AddressValueError as e:
            raise NoValue from e
    net = _net(value)
    if step.op == "host":
        return _index(net, args[0])
    if step.op == "before_end":
        return _index(net, -1 - args[0])
    if step.op == "hosts":  # Python's hosts(): no network address; IPv4 above /31: no broadcast address
        n = args[0]
        if n >= 0:
            return _index(net, n + 1)
        return _index(net, n - 1 if net.version == 4 and net.prefixlen < 31 else n)
    if step.op == "usable":  # Bicep's cidrHost: the n-th usable address (IPv4: from .1, not the broadcast)
        n = args[0]
        v4 = net.version == 4 and net.num_addresses > 2
        if n < 0 or n >= net.num_addresses - (2 if v4 else 0):
            raise NoValue
        return _index(net, n + 1 if v4 else n)
    if step.op == "nth_usable":  # ansible.utils' next_nth_usable: None outside first..last usable
        n = args[0]
        first, last = (0, net.num_addresses - 1) if net.num_addresses <= 2 else (1, net.num_addresses - 2)
        if not first <= n <= last:
            raise NoValue
        return _index(net, n)
    if step.op == "cfn_cidr":  # CloudFormation's Fn::Cidr: `count` subnets of `bits` host bits, in order
        count, bits = args
        length = net.max_prefixlen - bits
        if not 1 <= count <= 256 or bits < 0 or length < net.prefixlen \
                or count > 2 ** (length - net.prefixlen):
            raise NoValue
        return tuple(_subnet(net, length - net.prefixlen, i) for i in range(count))
    if step.op == "last_usable":
        return _index(net, -2) if net.num_addresses > 2 else _index(net, -1)
    if step.op == "first_usable":
        return _index(net, 1) if net.num_addresses > 2 else _index(net, 0)
    if step.op == "broadcast":
        return _index(net, -1)
    if step.op == "subnet":
        return _subnet(net, args[0], args[1])
    if step.op == "next_block":  # netmask's next(n): the block n sizes on
        base = int(net.network_address) + args[0] * net.num_addresses
        if not 0 <= base < 2 ** net.max_prefixlen:
            raise NoValue
        return ipaddress.ip_network((base, net.prefixlen)) if net.version == 4 else ipaddress.IPv6Network(
            (base, net.prefixlen))
    if step.op == "next_subnet":  # go-cidr's NextSubnet(n, len): the /len after the one holding n's end
        length = args[0]
        if not 0 <= length <= net.max_prefixlen:
            raise NoValue
        size = 2 ** (net.max_prefixlen - length)
        base = int(net.broadcast_address) // size * size + size
        if base >= 2 ** net.max_prefixlen:
            raise NoValue
        return (ipaddress.ip_network((base, length)) if net.version == 4
                else ipaddress.IPv6Network((base, length)))
    if step.op == "supernet":  # Python's supernet(): prefixlen_diff=1 by default, or new_prefix=
        length = args[1] if args[0] == 1 else net.prefixlen - args[1]
        if not 0 <= length <= net.prefixlen:
            raise NoValue
        return net.supernet(new_prefix=length)
    if step.op == "range_usable":  # Ansible's ipaddr('range_usable'): first to last usable
        return (_index(net, 1) if net.num_addresses > 2 else _index(net, 0),
                _index(net, -2) if net.num_addresses > 2 else _index(net, -1))
    if step.op == "subnets":  # Terraform's cidrsubnets: consecutive, each aligned to its own size
        out: list[Network] = []
        current = int(net.network_address)
        for bits in args:
            length = net.prefixlen + bits
            if bits < 1 or length > net.max_prefixlen:
                raise NoValue
            size = 2 ** (net.max_prefixlen - length)
            current = -(-current // size) * size
            if current + size > int(net.broadcast_address) + 1:
                raise NoValue
            out.append(ipaddress.ip_network((current, length)) if net.version == 4
                       else ipaddress.IPv6Network((current, length)))
            current += size
        return tuple(out)
    if step.op in ("ipsubnet", "subnets_at", "subnets_all"):
        if step.op == "ipsubnet":
            length, index = args
        else:
            kind, amount = args[0], args[1]
            length = amount if kind == 1 else net.prefixlen + amount
            if step.op == "subnets_all":
                if length < net.prefixlen or length > net.max_prefixlen:
                    raise NoValue
                return length  # the subnets it yields, by their length
            index = args[2]
        if length < net.prefixlen or length > net.max_prefixlen:
            raise NoValue
        count = 2 ** (length - net.prefixlen)
        if not -count <= index < count:
            raise NoValue
        return _subnet(net, length - net.prefixlen, index % count)
    raise NoValue


# --- judging ----------------------------------------------------------------------------------

FOLLOWS = "follows"
OUTSIDE = "outside"
CHANGES = "changes"


@dataclass(frozen=True)
class Verdict:
    kind: str  # OUTSIDE (a shrink leaves the old value no place) | CHANGES (another value at the new length)
    old_value: str
    new_value: str  # what the expression makes over the new network
    placed: str  # the old value's place in the new network ("" where none)
    why: str


def show(value: Value) -> str:
    if isinstance(value, tuple) and len(value) == 2 and all(
            isinstance(v, (ipaddress.IPv4Address, ipaddress.IPv6Address)) for v in value):
        return f"{value[0]}-{value[1]}"  # a range (Ansible's range_usable)
    if isinstance(value, tuple):
        return "[" + ", ".join(str(v) for v in value) + "]"
    return str(value)


def place(value: Value, old: Network, new: Network) -> Value | None:
    """The old value's place in the new network: an address at its offset (the old broadcast
    address the new one's), a subnet at its offset with its length; None where it has none."""
    if isinstance(value, tuple):
        placed = [place(v, old, new) for v in value]
        if any(p is None for p in placed):
            return None
        return tuple(p for p in placed if isinstance(p, (ipaddress.IPv4Network, ipaddress.IPv6Network,
                                                         ipaddress.IPv4Address, ipaddress.IPv6Address)))
    if isinstance(value, int):
        return value
    if isinstance(value, (ipaddress.IPv4Address, ipaddress.IPv6Address)):
        if value not in old:
            return value
        if old.version == 4 and old.prefixlen <= 30 and value == old.broadcast_address:
            return new.broadcast_address
        offset = int(value) - int(old.network_address)
        if offset >= new.num_addresses:
            return None
        return new.network_address + offset
    if value == old:
        return new
    if not value.subnet_of(old):  # type: ignore[arg-type]
        return value
    offset = int(value.network_address) - int(old.network_address)
    if value.prefixlen < new.prefixlen or offset + value.num_addresses > new.num_addresses:
        return None
    base = int(new.network_address) + offset
    return ipaddress.ip_network((base, value.prefixlen)) if new.version == 4 else ipaddress.IPv6Network(
        (base, value.prefixlen))


def _probes(step: Step) -> list[tuple[int, ...]]:
    """Each unknown number of `step` tried: from its least value where its text proves one (`k + 20`,
    `k` a `for` index: 20 and 21), else 0 and 1 (-1 and -2 where it is written negative)."""
    choices: list[list[int]] = []
    for i, (arg, said) in enumerate(_said(step)):
        least = step.floor[i] if i < len(step.floor) else None
        if arg is not None:
            choices.append([arg])
        elif least is not None:
            choices.append([least, least + 1])
        elif said.lstrip().startswith("-"):
            choices.append([-1, -2])
        else:
            choices.append([0, 1])
    return [tuple(c) for c in product(*choices)]


def _unbounded(steps: tuple[Step, ...]) -> list[str]:
    """The numbers not literal whose least value is not known (no value of theirs may be claimed)."""
    return [said for step in steps for i, (arg, said) in enumerate(_said(step))
            if arg is None and (i >= len(step.floor) or step.floor[i] is None)]


def judge(steps: tuple[Step, ...], old: Network, new: Network) -> Verdict | None:
    """What rewriting the base network from `old` to `new` does to the expression's value: None
    where it follows (or has no value at the old length), else a Verdict. A number that is not a
    literal is probed, but a value is said (and a refusal made) only from its least value where its
    text proves one (t29-33 finding 12: `k + 20` was said to be 0); else the verdict names it."""
    opaque = next((s for s in steps if s.op == computed_foreign.OPAQUE), None)
    if opaque is not None:  # a member renamer does not compute (computed_foreign.py)
        called = opaque.said[0] if opaque.said else "a call"
        return Verdict(CHANGES, "", "", "", f"it reads {called}, whose value renamer does not compute: it "
                                            f"may depend on the network's length, {old.prefixlen} before "
                                            f"and {new.prefixlen} after")
    unknown = [s for step in steps for a, s in _said(step)
               if a is None]
    unbounded = _unbounded(steps)
    numbers = ", ".join(f"`{u}`" for u in unbounded)
    variants = [steps]
    if unknown:
        variants = [tuple(Step(step.op, probe, step.said, step.floor)
                          for step, probe in zip(steps, combo, strict=True))
                    for combo in product(*(_probes(step) for step in steps))][:16]
    may_fall_out = False
    for variant in variants:
        try:
            before = evaluate(variant, old)
        except NoValue:
            continue
        try:
            after: Value | None = evaluate(variant, new)
        except NoValue:
            after = None
        placed = place(before, old, new)
        said = f" (with {_shown_probe(variant, steps)}; {_least(steps)})" if unknown else ""
        if placed is None:
            if unbounded:
                may_fall_out = True
                continue
            out = ([v for v in before if place(v, old, new) is None][:1] if isinstance(before, tuple)
                   else [before])
            part = f" ({show(out[0])} of it)" if isinstance(before, tuple) and out else ""
            return Verdict(OUTSIDE, show(before), show(after) if after is not None else "", "",
                           f"it is {show(before)}{said}{part}, which has no place in the new network {new}")
        if after != placed:
            if unbounded:
                why = (f"its number {numbers} is not a literal (no value of it is assumed), and the same "
                       f"number makes another value at {new}'s length than at {old}'s: {_because(steps)}")
                return Verdict(CHANGES, "", "", "", why)
            made = show(after) if after is not None else "nothing"
            return Verdict(CHANGES, show(before), made, show(placed),
                           f"it is {show(before)}{said} at {old}'s length and would be {made} at {new}'s, "
                           f"not {show(placed)}, that value's place: {_because(steps)}")
    if unknown and new.num_addresses < old.num_addresses and (may_fall_out or any(
            s.op in ("host", "hosts", "plus", "usable") and None in s.args for s in steps)):
        shown = numbers or ", ".join(f"`{u}`" for u in unknown)
        return Verdict(CHANGES, "", "", "", f"its number {shown} is not a literal, and the new network "
                                            f"{new} is smaller: what it makes may fall past its end")
    return None


def _least(steps: tuple[Step, ...]) -> str:
    return ", ".join(f"`{said}` is {step.floor[i]} or more" for step in steps
                     for i, (arg, said) in enumerate(_said(step))
                     if arg is None and i < len(step.floor) and step.floor[i] is not None)


def _shown_probe(variant: tuple[Step, ...], steps: tuple[Step, ...]) -> str:
    out = []
    for probe, step in zip(variant, steps, strict=True):
        for got, (had, said) in zip(probe.args, _said(step), strict=True):
            if had is None:
                out.append(f"`{said}` = {got}")
    return ", ".join(out)


def _because(steps: tuple[Step, ...]) -> str:
    ops = {s.op for s in steps}
    if ops & {"subnet", "subnets", "subnets_at", "subnets_all", "supernet", "next_block", "next_subnet"}:
        return "its new bits count from the network's length"
    if ops & {"last_usable", "before_end", "range_usable"} or any(_negative(s) for s in steps):
        return "it counts from the network's end"
    return "it depends on the network's length"


def _said(step: Step) -> list[tuple[int | None, str]]:
    """Each number of `step` with its text ("" where none was kept)."""
    return [(arg, step.said[i] if i < len(step.said) else "") for i, arg in enumerate(step.args)]


def _negative(step: Step) -> bool:
    """Does `step` count from the end (its last number negative, or written so)?"""
    if step.op not in ("host", "hosts", "ipsubnet", "subnets_at") or not step.args:
        return False
    arg, said = _said(step)[-1]
    return (arg is not None and arg < 0) or said.lstrip().startswith("-")
