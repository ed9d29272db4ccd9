"""IPv4 addresses written as regular expressions or globs, decided by what they match (break-it
round 16, #4).

`10\\.0\\.40\\.[0-9]+`, `10.0.40.(11|12):(22|8006)` (a Prometheus probe), nginx's `~ "^10\\.0\\.40\\."`,
`10.0.40.*` spell no address, so under `renames.networks` none was seen and verify said OK. A
token starts with literal octets (its *head*: `10\\.0\\.40\\.`, dots escaped or not) and goes on
with regex or glob syntax, or spells an address with escaped dots. Its head names a block
(`10.0.40.0/24`); every address the token can match lies in that block. So, per renamed network:

* the block lies inside the old network: the network's move maps the block onto a block of the
  new one, offsets kept, so rewriting the head's octets makes the token match exactly the moved
  addresses: rewritten (kind `network`), the rest of the token as it is;
* the old network lies inside a wider block (`10\\.0\\.[0-9]+\\.1` around 10.0.40.0/24): the token
  may match addresses inside and outside it. Each address of the old network (all of them up
  to a /16, a spread sample beyond) is tried: none matched, nothing to decide; each matched
  one's new address matched too, the token covers the move (`10\\.0\\.[0-9]+\\.[0-9]+`): nothing to
  decide; else a residual `pattern` (no text substitution knows what it should become);
* otherwise the token matches nothing of the network.

And for a renamed address (`addresses`): a group of alternatives holding the old address's last
octet alone (`10.42.1.(91|92|93|10)` for 10.42.1.91 -> 10.42.1.95) has that alternative rewritten
where the new address keeps the head, so the others match what they did; where the head moves
too (10.0.40.11 -> 10.0.50.21) or the new octet is an alternative already, it stays a residual
`pattern` (patterns.py finds it).

A file is read only where it holds a network's first octet before a dot (escaped or not) and regex
syntax; the tokens are found by one regex starting with that literal; each is compiled under
regex_guard and tried on addresses only.
"""

from __future__ import annotations

import fnmatch
import functools
import ipaddress
import re
import warnings
from collections.abc import Sequence
from dataclasses import dataclass, replace

from renamer import lazy_re, work
from renamer.regex_guard import UnsafeRegex, compile_untrusted

Net = tuple[ipaddress.IPv4Network, ipaddress.IPv4Network]

_DOT = rb"(?:\\{1,2}\.|\[\.\]|\.)"
# Bytes that end a token: blanks, quotes and the punctuation around a value in configs.
_STOPS = frozenset(b" \t\r\n\"'`;<>=")
_MAX = 128
_SYNTAX = frozenset(b"[(*+?{|\\")
_SAMPLE = 65536  # addresses tried of one network at most


@dataclass(frozen=True)
class Decision:
    start: int
    end: int
    old: str  # the text as it stands (a rewrite) or the network or address it matches (a residual)
    new: str  # its replacement, or the new network or address
    rewrite: bool
    kind: str = "network"  # a residual's: network, or address (a renamed address's pattern)
    reason: str = "pattern"  # a residual's; `composed-address`: a template completes the head
    note: str | None = None
    # A template completes a head wider than the network (`10.0.48.` around 10.0.48.0/28): it may
    # make one of its addresses, or another's; said only where the template's value is unknown.
    wide: bool = False


def literals(nets: Sequence[Net], pairs: Sequence[tuple[str, str]]) -> tuple[bytes, ...]:
    """One of these is in every file holding a token this module decides: a first octet and its
    dot, escaped or not (a network's; an address's only beside an alternation)."""
    firsts = {str(old.network_address).split(".")[0] for old, _ in nets}
    firsts |= {old.split(".")[0] for old, _ in pairs}
    dots = (".", "\\.", "\\\\.", "\\\\\\\\.", "[.]")
    return tuple(sorted(f"{first}{dot}".encode() for first in firsts for dot in dots))


def might_hold(data: bytes, needles: tuple[bytes, ...]) -> bool:
    return any(sign in data for sign in _SIGNS) and any(needle in data for needle in needles)


_SIGNS = (b"\\", b"[", b"(", b"*", b"?", b"+", b"{", b"$")


def heads(pairs: Sequence[tuple[str, str]]) -> re.Pattern[bytes]:
    """Where no network is renamed, a token decides something only where its head's octets are
    the start of a renamed address (_by_address): all three of them (an alternative after them),
    or a start the new address does not share (a prefix). One of those heads, its first two
    octets at least, stands in every file where decide finds anything: dots as _HEAD reads them,
    an octet with leading zeros. A file holding none is not read (issue 30: `10.` and a `[`
    stand in nearly every file of a repo on 10/8)."""
    found: set[tuple[int, ...]] = set()
    for old, new in pairs:
        octets, moved = _octets(old), _octets(new)  # a config refused for a bad pair loads this too
        if octets is None:
            continue
        moved = moved or ()
        found.add(octets[:3])
        found |= {octets[:k] for k in (1, 2, 3) if octets[:k] != moved[:k]}
    dot = rb"(?:\\{0,4}\.|\[\.\])"
    shortest = {head[:2] for head in found}
    spelled = {str(head[0]).encode() + dot + (b"0*" + str(head[1]).encode() if len(head) > 1 else b"")
               for head in shortest}
    return re.compile(b"|".join(sorted(spelled)))


def _octets(address: str) -> tuple[int, ...] | None:
    """The four octets of a dotted IPv4 address (any value: 300 is refused elsewhere), or None."""
    parts = address.split(".")
    return tuple(map(int, parts)) if len(parts) == 4 and all(p.isdigit() for p in parts) else None


@functools.lru_cache(maxsize=64)
def _starts(first: bytes) -> re.Pattern[bytes]:
    """Where a token whose head starts with the octet `first` begins: the octet after no name
    character, its dot escaped, or a dotted head followed by syntax."""
    lit = re.escape(first)
    return re.compile(lit + rb"(?:(?<![0-9A-Za-z_.\-]" + lit + rb")|(?<=\\b" + lit + rb"))(?:\\{1,4}\.|\[\.\]"
                      rb"|(?=(?:\.[0-9]{1,3}){0,2}\.[0-9]{0,3}(?:[\[(*+?{|\\]|\.[*+?]))"
                      # a template completing the head: `10.0.40.${count.index + 11}`, `{{ n }}`, `$P`
                      rb"|(?=(?:\.[0-9]{1,3}){0,2}\.(?:\$[{(A-Za-z_]|\{\{|%\{)))")


def decide(data: bytes, nets: Sequence[Net], pairs: Sequence[tuple[str, str]],
           only: re.Pattern[bytes] | None = None) -> list[Decision]:
    """Every address pattern in `data` that a renamed network or address moves, in file order.
    `only` (heads(pairs)), where no network is renamed: a token is read only where it starts so."""
    only = only if not nets else None
    firsts = {str(old.network_address).split(".")[0].encode() for old, _ in nets}
    firsts |= {old.split(".")[0].encode() for old, _ in pairs}
    out: dict[int, Decision] = {}
    for first in sorted(firsts):
        for hit in _starts(first).finditer(data):
            if only is not None and not only.match(data, hit.start()):
                continue
            work.add("address pattern tokens")
            token = _token(data, hit.start())
            if token is None:
                continue
            start, end = token
            caret = data[start - 1:start] == b"^"
            decision = _decide(data[start:end].decode("ascii", "replace"), start, tuple(nets), tuple(pairs),
                               caret)
            if decision is not None and decision.reason == "composed-address":
                at = decision.end  # the template's opener: its end read in the data, blanks and all
                window = data[at:at + _MAX].split(b"\n", 1)[0].decode("ascii", "replace")
                decision = replace(decision, end=at + _template_end(window))
                if decision.wide and not _may_lie_in(data, decision):
                    decision = None  # its literal tail (`.200`) no address of the network ends with
            if decision is not None:
                out.setdefault(decision.start, decision)
    return [out[key] for key in sorted(out)]


def _token(data: bytes, start: int) -> tuple[int, int] | None:
    """The token from `start`: up to a blank, a quote, `;<>=`, a `,` outside `{m,n}`, a `|` or
    `)` closing no group opened inside it; None where longer than _MAX."""
    depth = brace = 0
    end = start
    # a regex literal's `/` delimiter before the token (`/10\.0\.48\.[0-9]+/`, Grafana's `regex`, a JS
    # literal `/^10\.0\.48\./i`): its closing `/` ends the token (t33-33 finding 05)
    slashed = data[start - 1:start] == b"/" or data[max(start - 2, 0):start] == b"/^"
    while end < len(data) and end - start <= _MAX:
        byte = data[end]
        if byte in _STOPS or (byte == ord(",") and not brace):
            break
        if slashed and byte == ord("/") and data[end - 1:end] != b"\\":
            break
        if byte == ord("\\") and data[end + 1:end + 2] in (b'"', b"'"):
            break  # the backslash of an escaped quote ending a JSON string
        if byte == ord("("):
            depth += 1
        elif byte == ord(")"):
            if depth == 0:
                break
            depth -= 1
        elif byte == ord("|") and depth == 0:
            break
        elif byte == ord("{"):
            brace += 1
        elif byte == ord("}"):
            if brace == 0:
                break  # PromQL's `{instance=~...}` closing
            brace -= 1
        end += 1
    if end - start > _MAX:
        return None
    return start, end


# (up to four backslashes: a regex in a string in JSON, `10\\\\.0` of a Grafana dashboard's PromQL)
_HEAD = lazy_re.compile(r"([0-9]{1,3})(\\{1,4}\.|\[\.\]|\.)")


@dataclass(frozen=True)
class _Parsed:
    octets: tuple[int, ...]
    spans: tuple[tuple[int, int], ...]  # each head octet's digits in the token
    rest: str  # the token after the head
    escaped: bool  # a dot of the head escaped


def _parse(token: str) -> _Parsed | None:
    octets: list[int] = []
    spans: list[tuple[int, int]] = []
    pos, escaped = 0, False
    while len(octets) < 3:
        head = _HEAD.match(token, pos)
        if head is None:
            break
        after = token[head.end():head.end() + 1]
        if (after == "{" and token[head.end() + 1:head.end() + 2].isdigit()) or (after in ("*", "+", "?")
                            and (head.group(2) != "." or int(head.group(1)) * 10 <= 255)):
            # The dot is quantified: no literal boundary, unless the octet can take no digit
            # after it (`10.0.40.*`: `10.0.40` then anything is an address of 10.0.40.0/24 or none).
            break
        if int(head.group(1)) > 255:
            return None
        octets.append(int(head.group(1)))
        spans.append((head.start(1), head.end(1)))
        escaped = escaped or head.group(2) != "."
        pos = head.end()
    if not octets:
        return None
    return _Parsed(tuple(octets), tuple(spans), token[pos:], escaped)


def _decide(token: str, offset: int, nets: tuple[Net, ...], pairs: tuple[tuple[str, str], ...],
            caret: bool = False) -> Decision | None:
    parsed = _parse(token)
    if parsed is None:
        return None
    rest = parsed.rest
    if _TEMPLATE.match(rest):
        return _templated(token, offset, parsed, nets) if nets else None
    if re.fullmatch(r"[0-9]{1,3}", rest) and not parsed.escaped:
        return None  # a plain address: the exact matcher's
    if not rest and not parsed.escaped:
        return None  # `10.0.40.` ending a sentence
    if len(parsed.octets) < 3 and re.fullmatch(r"[0-9]{1,3}", rest):
        return None  # `10\.0`: a number, not an address
    if nets:
        found = _by_network(token, offset, parsed, nets, caret)
        if found is not None:
            return found
    return _by_address(token, offset, parsed, pairs) if pairs else None


# A template's opener: shell/Terraform `${`, `$(`, `$((`, `$VAR`; Jinja `{{`; Terraform's `%{`.
_TEMPLATE = lazy_re.compile(r"\$[{(A-Za-z_]|\{\{|%\{")


def _templated(token: str, offset: int, parsed: _Parsed, nets: tuple[Net, ...]) -> Decision | None:
    """A head inside a renamed network completed by a template: whatever the template makes, the
    address is one of that network (`"10.0.40.${count.index + 11}/24"`): a residual
    `composed-address`, as a renamed address's start completed so is (composed_tails.py)."""
    k = len(parsed.octets)
    if k < 2:
        return None
    block = ipaddress.IPv4Network((".".join(map(str, [*parsed.octets, *[0] * (4 - k)])), 8 * k))
    head = token[:len(token) - len(parsed.rest)]
    for old, new in nets:
        if block.subnet_of(old):
            # strict=False: a shrink to a network off the head's octet boundary (`10.0.40.0/24:
            # 10.0.50.128/25`) moves the head's block to no block of its own (it crashed, exit 2)
            moved = ipaddress.IPv4Network((int(new.network_address) + int(block.network_address)
                                           - int(old.network_address), 8 * k), strict=False)
            shown = ".".join(str(moved.network_address).split(".")[:k]) + "."
            note = (f"`{head}` then a template makes an address of {old} (renamed {new}) whatever the "
                    f"template gives; the sweep does not write into a template's word: the new network's "
                    f"is `{shown}`")
            return Decision(offset, offset + len(head), str(old), str(new), False, "network",
                            "composed-address", note)
    for old, new in nets:
        if old.subnet_of(block) and not (old.network_address == new.network_address
                                         and new.prefixlen <= old.prefixlen):  # a grow in place moves none
            # Issue 33 (f25, item 1): `10.0.48.${count.index + 9}` around 10.0.48.0/28 was silent, as
            # the head alone does not prove the address is the network's; nor does anything prove it
            # is not, and a move (a shrink above all) leaves what it makes unplaced: a residual.
            note = (f"`{head}` then a template whose value renamer cannot tell (defined nowhere, a loop or "
                    f"arithmetic it does not evaluate) may make an address of {old} (renamed {new}); "
                    "nothing proves it does not, and the sweep does not write into a template's word")
            return Decision(offset, offset + len(head), str(old), str(new), False, "network",
                            "composed-address", note, wide=True)
    return None


_TAIL = lazy_re.compile(rb"(?:\.[0-9]{1,3})+(?![0-9])")


def _may_lie_in(data: bytes, decision: Decision) -> bool:
    """Whether a wide head's word may be an address of its network: the literal octets after the
    template (`.5` of `10.0.${x}.5`) must be the low octets of one of its addresses."""
    tail = _TAIL.match(data, decision.end)
    if tail is None:
        return True
    octets = [int(o) for o in tail.group(0).split(b".")[1:]]
    if any(o > 255 for o in octets):
        return False  # no address at all
    if len(octets) > 2:
        return True  # not read: said
    network = ipaddress.IPv4Network(decision.old)
    bits = 8 * len(octets)
    if network.prefixlen <= 32 - bits:
        return True
    low = (1 << bits) - 1
    value = int.from_bytes(bytes(octets), "big")
    return int(network.network_address) & low <= value <= int(network.broadcast_address) & low


def _template_end(rest: str) -> int:
    """Where the template opening `rest` ends (its closing bracket, or the variable's name)."""
    opener = _TEMPLATE.match(rest)
    assert opener is not None
    if rest[1:2].isalpha() or rest[1:2] == "_":
        name = re.match(r"\$[A-Za-z_][A-Za-z0-9_]*", rest)
        return name.end() if name else len(rest)
    closer = "))" if rest.startswith("$((") else {"{{": "}}", "%{": "}", "$(": ")", "${": "}"}[rest[:2]]
    found = rest.find(closer, 2)
    return len(rest) if found == -1 else found + len(closer)


def _by_network(token: str, offset: int, parsed: _Parsed, nets: tuple[Net, ...],
                caret: bool) -> Decision | None:
    k = len(parsed.octets)
    block = ipaddress.IPv4Network((".".join(map(str, [*parsed.octets, *[0] * (4 - k)])), 8 * k))
    for old, new in nets:
        if block.subnet_of(old):
            at = int(new.network_address) + int(block.network_address) - int(old.network_address)
            grown = block == old and new.prefixlen < old.prefixlen
            if grown and _matches_some(("^" if caret else "") + token, block):
                # A grow: the head names the whole old network, and a head of the same octets names
                # only the part of the new one it lands on (t29-33, finding 05: sshd's `10.0.48.*`
                # became `10.20.0.*`, a quarter of the /22; kept, under a grow in place, silently).
                return Decision(offset, offset + len(token), str(old), str(new), False,
                                note=f"an address pattern whose literal head names all of {old}, which "
                                     f"grows to {new}: the same head names only {block.num_addresses} of "
                                     f"its {new.num_addresses} addresses; write the new network as its "
                                     "tool allows (a CIDR, or one head per block)")
            if block.prefixlen < new.prefixlen or at + block.num_addresses > int(new.broadcast_address) + 1:
                # a shrink: the moved block would reach past the new network (other machines)
                return Decision(offset, offset + len(token), str(old), str(new), False,
                                note=f"an address pattern whose literal head names {block}, which the move "
                                     f"of {old} to {new} cannot hold: rewritten, it would match addresses "
                                     "outside the new network")
            moved = ipaddress.IPv4Address(at)
            octets = str(moved).split(".")[:k]
            last, parts = 0, []
            for (start, end), octet in zip(parsed.spans, octets, strict=True):
                parts += [token[last:start], octet]
                last = end
            head_end = parsed.spans[-1][1]
            written = token[:head_end]
            rewritten = "".join(parts)
            if rewritten == written:
                return None
            if not _matches_some(("^" if caret else "") + token, block):
                return None  # no address at all (a version's `10\\.0\\.(1|2)`): no address pattern
            note = (f"an address pattern whose literal head `{written}` lies in the renamed network {old}: "
                    f"with its head rewritten it matches the same addresses moved to {new}")
            return Decision(offset, offset + head_end, written, rewritten, True, note=note)
        if old.subnet_of(block):
            regex = _compiled(("^" if caret else "") + token)
            if regex is None:
                return None
            olds = [a for a in _sample(old) if regex(str(a))]
            if not olds:
                continue
            shift = int(new.network_address) - int(old.network_address)
            if all(regex(str(ipaddress.IPv4Address(int(a) + shift))) for a in olds):
                return None  # covers the machines before the move and after it
            return Decision(offset, offset + len(token), str(old), str(new), False)
    return None


def _by_address(token: str, offset: int, parsed: _Parsed,
                pairs: tuple[tuple[str, str], ...]) -> Decision | None:
    """A renamed address's last octet as one alternative of a group after its head, the new
    address keeping the head: that alternative rewritten. A head ending in an escaped dot with
    nothing after it (nginx's `~ "^10\\.0\\.40\\."`: a prefix) spelling the old address's first
    octets: a residual `pattern` where the new address does not start so."""
    if not parsed.rest and parsed.escaped:
        k = len(parsed.octets)
        for old, new in pairs:
            if tuple(map(int, old.split(".")[:k])) == parsed.octets:
                if tuple(map(int, new.split(".")[:k])) == parsed.octets:
                    return None  # it covers the new address too
                return Decision(offset, offset + len(token), old, new, False, "address")
        return None
    if len(parsed.octets) != 3:
        return None
    group = _GROUP.match(parsed.rest)
    if group is None:
        return None
    alternatives = group.group("alts").split("|")
    head = ".".join(map(str, parsed.octets))
    for old, new in pairs:
        old_head, _, old_last = old.rpartition(".")
        new_head, _, new_last = new.rpartition(".")
        if old_head != head or old_last not in alternatives:
            continue
        if new_head != head or new_last in alternatives:
            return None  # the head moves, or two alternatives become one: patterns.py's residual
        start = len(token) - len(parsed.rest) + group.start("alts")
        for alternative in alternatives[:alternatives.index(old_last)]:
            start += len(alternative) + 1
        first = offset + parsed.spans[0][0]
        end = len(token) - len(parsed.rest) + group.end()
        written = token[parsed.spans[0][0]:end]
        rewritten = token[parsed.spans[0][0]:start] + new_last + token[start + len(old_last):end]
        note = (f"`{old_last}` is one alternative of an address pattern, {old}'s last octet: rewritten "
                f"alone, the other alternatives match what they did")
        return Decision(first, offset + end, written, rewritten, True, note=note)
    return None


# A group of alternatives of one octet each, then the token's end, a port or `$`.
_GROUP = lazy_re.compile(r"\((?:\?:)?(?P<alts>[0-9]{1,3}(?:\|[0-9]{1,3})+)\)"
                    r"(?=\$?\Z|(?:\\b)?\Z|:)")


@functools.lru_cache(maxsize=1024)
def _matches_some(token: str, block: ipaddress.IPv4Network) -> bool:
    """Does `token` match an address of `block` (tried as _sample tries a network)? Asked once per
    distinct token: a dashboard repeats its regex on every panel."""
    regex = _compiled(token)
    return regex is not None and any(regex(str(a)) for a in _sample(block))


def _sample(net: ipaddress.IPv4Network) -> list[ipaddress.IPv4Address]:
    if net.num_addresses <= _SAMPLE:
        return list(net)
    # every last octet of 256 /24s spread over the network
    blocks, base = net.num_addresses // 256, int(net.network_address)
    return [ipaddress.IPv4Address(base + (j * blocks // 256) * 256 + last)
            for j in range(256) for last in range(256)]


@functools.lru_cache(maxsize=1024)
def _compiled(token: str) -> _Tester | None:
    """`token` as a test of an address: a regex (JSON's `\\\\.` read as `\\.`), anchored as the
    tools using such tokens anchor it: a leading `^` without a trailing `$`, or a head ending in
    a dot, is a prefix; a port (`:9100`, `:(22|8006)`) after it is no part of the address."""
    if "?" in token and not set(token) & _REGEX_ONLY:
        # a glob (hosts_access(5) `10.0.48.??`, a shell's case): `?` is one character, as tcpd reads
        # it, never a regex's optional dot (t33-33 finding 16)
        try:
            return _Tester(compile_untrusted(fnmatch.translate(token), lines=False), False)
        except (re.error, UnsafeRegex):
            return None
    text = token.replace("\\\\\\\\", "\\").replace("\\\\", "\\")  # JSON's escaping, once or twice
    colon = _port(text)
    if colon is not None:
        text = text[:colon]
    prefix = (text.startswith("^") and not text.endswith("$")) or text.endswith(("\\.", "[.]"))
    text = re.sub(r"^(?:\^|\\b)+|(?:\$|\\b)+$", "", text)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", FutureWarning)
            regex = compile_untrusted(text, lines=False)
    except (re.error, OverflowError, RecursionError, UnsafeRegex, FutureWarning):
        return None
    return _Tester(regex, prefix)


_REGEX_ONLY = frozenset("\\[](){}+|^$")


@dataclass(frozen=True)
class _Tester:
    regex: re.Pattern[str]
    prefix: bool

    def __call__(self, address: str) -> bool:
        if self.prefix:
            return self.regex.match(address) is not None
        return self.regex.fullmatch(address) is not None


def _port(text: str) -> int | None:
    """Where a `:port` part starts: the first `:` outside a group (`(?:` is a group's)."""
    depth = 0
    for i, char in enumerate(text):
        if char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
        elif char == ":" and depth == 0 and text[i - 1:i] != "?":
            return i
    return None
