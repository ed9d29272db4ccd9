"""A moved network's leading octets (or groups) standing as a value of their own (break-it round 21,
findings 03, 04, 15, 17, 25, 27).

`base: "192.168.2"` in group_vars, `BASE=192.168.2` in a script, `variable "base" { default =
"192.168.2" }`, `netaddress: "192.168.178."`, `octets: [192, 168, 2]`, `PREFIX=fd00:250:0:1`: no
byte spells an address, so the sweep under `192.168.2.0/24 -> 192.168.4.0/24` wrote nothing there,
and every reader completing the value into an address (`{{ base }}.5`, `{{ networks['lan'].base
}}.5`, `{{ base ~ '.10' }}`, `'%s.11' | format(base)`, `join('.')`, Terraform's `format("%s.6",
var.base)`, Python's f-string, `printf "%s.7" "$BASE"`, `{{ r.netaddress }}{{ r.host }}`) kept
making an old address while verify said OK. The composers are a list of shapes per language that
never ends; what every one of them shares is the value. So the value is the residual (`prefix`),
whatever reads it: a token that spells the leading octets of a moved IPv4 network (two or three
octets, the block they spell lying inside the network: `192.168.2` of a /24, `10.1` or `10.1.7`
of a /16; with or without its final dot; never followed by a digit or by a dot and a digit, which
would make it a longer address; never after a letter, digit, dot, `:`, `@`, `/` or `-`, so no
version, path or OID tail) or an IPv6 network's leading groups (a /64's four: `fd00:250:0:1`,
no `::`; or, from three groups on, a wider head whose block holds the network: `prefix48:
"fd00:250:0"` composed as `{{ prefix48 }}:1::8` under a /64 move, round 21's finding 25's rest),
in a current-state file, where it stands as:

* a whole value: the whole of a quoted string, the whole value of an assignment (`=`), a key (`: `)
  or a list item (`- `), up to the line's end, a comment or a separator; not after a key naming a
  version, tag, release, image, chart, date or checksum (`version: 10.0.0`, `image_tag: "10.0.0"`);
* a flow list of its octets (`[192, 168, 2]`: joined with `.`);
* a head completed by a placeholder (`192.168.2.X`, `192.168.2.%d`, `192.168.2.$N`, `{{`, `<n>`);
  for a renamed address the same head with a printf directive or a placeholder word
  (`10.0.0.%d` of `with_sequence ... format=` or `seq -f`, `10.0.0.X/24` that `sed 's/X/12/'`
  completes) "may spell" it, unless a literal number given to the format is read
  (computed_addresses.py decides those).

A head wider than the moved IPv4 network (one or two octets, `10.0.` of 10.0.0.0/16 around a
10.0.0.0/24 move; issue 27, g31) is read only where its block holds the old network and not the new
one (a test over it, `startswith("10.0.")`, admitted the old addresses and refuses the new ones;
one whose block holds both still admits them, so nothing changes), and only with its final dot, as
the whole of a quoted string (`"10.0."`, `'10.'`) or before a SQL wildcard or a template
(`LIKE '10.0.%'`, `10.0.{{`, `10.0.$`): `10.0` alone, `10.0.x` and `10.x` are versions as often.

Prose is no value: `1.2.3` in a changelog sentence is left. Nothing is rewritten: whether a dotted
decimal is a network's head or a version string only its readers know (see docs/matching.md,
"Prefix values"). Pure: bytes in, spans out.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Iterable
from dataclasses import dataclass

from renamer import access_heads, computed_addresses, lazy_re
from renamer.occurrences import Match

REASON = "prefix"

# The byte before a head that makes it another token's tail (a version `v10.0.0`, `pkg@10.0.0`,
# `nginx:10.0.0`, a path, an OID `.1.3.6`, `foo-10.0.0`).
_LEFT = (rb"(?:(?<![A-Za-z0-9_.:@/\\-])"
         # a sendmail access-db tag before its key (`Connect:10.0.48  RELAY`, t29-33 finding 05)
         rb"|(?<=connect:)|(?<=from:)|(?<=to:)|(?<=spam:)|(?<=greetpause:)|(?<=clientrate:)|(?<=clientconn:))")
# After `HEAD.`: what completes it into an address where no digit stands.
_WORDS = rb"(?:XXX|xxx|XX|xx|X|x|NNN|NN|N|YYY|YY|Y|Z)(?![A-Za-z0-9_])"
_DIRECTIVE = rb"%0?\d{0,2}[diusg]"
_TEMPLATE = rb"(?:\$|\{|#\{|<[A-Za-z_])"
# `%` alone: a SQL host wildcard (MySQL's `'app'@'10.0.48.%'`, f28 finding 19).
_PLACE_V4 = lazy_re.compile(
    rb"(?:" + _WORDS + rb"|" + _DIRECTIVE + rb"|" + _TEMPLATE + rb"|%(?![0-9A-Za-z_]))")
# After a wider head's dot: a SQL wildcard or a template (no placeholder word: `10.0.x` is a version).
_PLACE_WIDE = lazy_re.compile(rb"(?:%|" + _TEMPLATE + rb")")
_PLACE_RENAMED = lazy_re.compile(rb"(?:" + _WORDS + rb"|" + _DIRECTIVE + rb")")
# A whole value: what may stand before (on its line) and after it.
_ASSIGNED = lazy_re.compile(rb"(?:(?<![=!<>~])=|(?<![:A-Za-z0-9_])-|:|\[|,)[ \t]*$")
_ENDS = lazy_re.compile(rb"[ \t]*(?:\r?\n|$|#|;|,|\]|\}|//)")
# The key (or line) before a value that says it is no network: a version and its kin.
_NOT_A_NETWORK = lazy_re.compile(rb"version|(?<![a-z])ver(?![a-z])|(?<![a-z])tag|release|image|chart|"
                            rb"(?<![a-z])date|checksum|(?<![a-z])sha(?:\d+|sum)?(?![a-z])|digest|(?<![a-z])oid(?![a-z])|"
                            rb"(?<![a-z])mib(?![a-z])|==|>=|<=|~>|\^", re.I)


@dataclass(frozen=True)
class Head:
    """[start, end): a prefix value, the network (or old address) it belongs to, and why."""

    start: int
    end: int
    text: str
    old: str  # the old network (or old address, for a renamed address's head)
    new: str  # the new network (or address)
    kind: str  # network | address
    note: str


@dataclass(frozen=True)
class _Move:
    old: ipaddress.IPv4Network | ipaddress.IPv6Network
    new: ipaddress.IPv4Network | ipaddress.IPv6Network


# The fewest groups of an IPv6 head wider than its moved network (a /48's `fd00:250:0`): two groups
# (`10:30`, `fd00:250`) are a clock time or a port as often as a network.
_WIDE_GROUPS = 3


class Prefixes:
    """The heads of the moved networks and renamed addresses, compiled once: one pattern."""

    def __init__(self, networks: Iterable[tuple[ipaddress.IPv4Network | ipaddress.IPv6Network,
                                                 ipaddress.IPv4Network | ipaddress.IPv6Network]],
                 addresses: Iterable[tuple[str, str]]) -> None:
        self._moves = [_Move(old, new) for old, new in networks]
        alternatives: list[bytes] = []
        gates: set[bytes] = set()
        self._octet_lists: list[tuple[re.Pattern[bytes], _Move]] = []
        wide: set[bytes] = set()
        for move in self._moves:
            if move.old.version == 4:
                for head in _wide_heads(move):
                    wide.add(head.encode())
                    gates.update(head.encode() + b"." + after for after in _WIDE_AFTER)
                found = _v4_head(move.old)
                if found is None:
                    continue
                fixed, least, most = found
                more = rb"(?:\.\d{1,3}){%d,%d}" % (least, most)
                alternatives.append(re.escape(fixed.encode()) + more)
                gates.add(fixed.encode())
                octets = str(move.old.network_address).split(".")[:move.old.prefixlen // 8]
                if len(octets) == 3:  # `[10, 0]` of a /16 is any pair of numbers: only a /24's three
                    spelled = rb"\[[ \t]*" + rb"[ \t]*,[ \t]*".join(o.encode() for o in octets) + rb"[ \t]*\]"
                    self._octet_lists.append((re.compile(spelled), move))
                    gates.update(f"{octets[0]},{sep}{octets[1]}".encode() for sep in ("", " "))
            elif 16 <= move.old.prefixlen <= 112 and (move.old.prefixlen % 16 == 0
                                                       or move.old.prefixlen >= 16 * _WIDE_GROUPS):
                # Its own leading groups (a /64's four) and, from three groups on, a wider head
                # whose block holds it (`fd00:250:0` of a /64: `{{ prefix48 }}:1::8` lands inside).
                full = move.old.prefixlen // 16
                least = full if move.old.prefixlen % 16 == 0 and full <= _WIDE_GROUPS else _WIDE_GROUPS
                groups = move.old.exploded.split("/")[0].split(":")[:full]
                each = [b"0{0,3}" + re.escape(g.lstrip("0").encode()) if g.lstrip("0") else b"0{1,4}"
                        for g in groups]
                alternatives.append(rb":".join(each[:least])
                                    + b"".join(rb"(?::" + g for g in each[least:])
                                    + rb")?" * (full - least) + rb"(?!:[0-9A-Fa-f])")
                gates.add((groups[0].lstrip("0") or "0").encode())
        # A renamed address's head (`10.0.0` of 10.0.0.70): reported only as a placeholder's head.
        self._renamed: dict[str, list[tuple[str, str]]] = {}
        for old, new in addresses:
            if ":" in old:
                continue
            head = old.rsplit(".", 1)[0]
            self._renamed.setdefault(head, []).append((old, new))
        renamed_heads = sorted(self._renamed, key=len, reverse=True)
        alternatives += [re.escape(h.encode()) for h in renamed_heads]
        alternatives += [re.escape(h) for h in sorted(wide, key=len, reverse=True)]  # last: the longest first
        self._wide_heads = frozenset(wide)
        self._gates = tuple(sorted(gates))
        # One of these stands in every file `might_hold` accepts (the first pass's gates).
        self.literals = tuple(sorted({*gates, *(h.encode() + b"." + p for h in renamed_heads
                                                for p in (b"%", b"X", b"x", b"N", b"Y", b"Z"))}))
        # The literals by the head each begins with: a file holding no head is asked one `in` a head.
        heads = sorted({*gates, *(h.encode() + b"." for h in renamed_heads)}, key=len)
        shortest = [h for i, h in enumerate(heads) if not any(h.startswith(g) for g in heads[:i])]
        self._by_head = tuple((h, tuple(lit for lit in self.literals if lit.startswith(h))) for h in shortest)
        self.pattern = (re.compile(_LEFT + rb"(?P<head>" + rb"|".join(alternatives) + rb")(?![0-9A-Za-z_])"
                                   rb"(?P<dot>[.:](?![0-9A-Fa-f.:]))?(?![0-9.])", re.I)
                        if alternatives else None)

    def might_hold(self, data: bytes) -> bool:
        """Can `data` hold a head (the moved networks' leading literal, a renamed head's placeholder)?"""
        return self.pattern is not None and any(head in data and any(literal in data for literal in literals)
                                                for head, literals in self._by_head)

    def find(self, data: bytes, rel: str = "") -> list[Head]:
        """Every prefix value of `data` (see the module's text), by start; `rel` (the file's path)
        tells the files whose lines are access lists (access_heads.py)."""
        if not self.might_hold(data):
            return []
        assert self.pattern is not None
        out: list[Head] = []
        for m in self.pattern.finditer(data):
            head = m.group("head").decode("ascii")
            dot = m.group("dot") or b""
            after = m.end()
            move = self._move_of(head)
            if dot == b":" and "." in head:  # `192.168.2:8080`: no IPv4 head ends with a colon
                dot, after = b"", after - 1
            if move is None and dot == b"." and head.encode() in self._wide_heads:
                wider = self._wide_move_of(head)
                if wider is not None and _network_line(data, m.start()) and (
                        _PLACE_WIDE.match(data, after) is not None or _quoted_whole(data, m.start(), after)):
                    out.append(self._wide(m.start(), after, head + ".", wider))
                    continue
            if move is not None:
                placed = bool(dot) and _PLACE_V4.match(data, after) is not None
                whole = _whole(data, m.start(), after)
                access = not whole and access_heads.in_access_list(data, m.start(), after, rel)
                if placed or ((whole or access) and _network_line(data, m.start())):
                    out.append(self._head(m.start(), after, head + dot.decode(), move, placed, access=access))
                continue
            olds = self._renamed.get(head)
            if olds and dot == b"." and _PLACE_RENAMED.match(data, after) is not None:
                end = _PLACE_RENAMED.match(data, after).end()  # type: ignore[union-attr]
                text = data[m.start():end].decode("ascii", "replace")
                spelled = ", ".join(f"{old} (renamed {new})" for old, new in olds)
                note = (f"`{text}` may spell {spelled}: a renamed address's first three octets and a "
                        "placeholder a format, a sequence or an edit (`sed 's/X/12/'`) completes; what it "
                        "makes cannot be told here")
                out.append(Head(m.start(), end, text, olds[0][0], olds[0][1], "address", note))
        for pattern, move in self._octet_lists:
            for m in pattern.finditer(data):
                text = data[m.start():m.end()].decode("ascii")
                out.append(self._head(m.start(), m.end(), text, move, False, listed=True))
        return sorted(out, key=lambda h: h.start)

    def _move_of(self, head: str) -> _Move | None:
        """The move whose old network holds the whole block `head` spells, if one does."""
        for move in self._moves:
            block = _block(head, move.old.version)
            if block is not None and block.subnet_of(move.old):  # type: ignore[arg-type]
                return move
            if (block is not None and move.old.version == 6 and block.prefixlen >= 16 * _WIDE_GROUPS
                    and move.old.subnet_of(block)):  # type: ignore[arg-type]
                return move  # a wider head: what completes it may land inside the moved network
        return None

    def _wide_move_of(self, head: str) -> _Move | None:
        """The IPv4 move whose old network the block `head` spells holds, and not its new one."""
        block = _block(head, 4)
        if block is None:
            return None
        return next((move for move in self._moves if move.old.version == 4 and move.old.subnet_of(block)  # type: ignore[arg-type]
                     and not move.new.subnet_of(block)), None)  # type: ignore[arg-type]

    def _wide(self, start: int, end: int, text: str, move: _Move) -> Head:
        block = _block(text.rstrip("."), 4)
        note = (f"`{text}` spells the leading octets of {block}, which holds the moved network {move.old} "
                f"and not the new {move.new}: a test or a template over it (`startswith(\"{text}\")`, "
                f"`LIKE '{text}%'`, `{text}{{{{ x }}}}`) admitted the old network's addresses and no longer "
                "admits the new ones")
        return Head(start, end, text, str(move.old), str(move.new), "network", note)

    def _head(self, start: int, end: int, text: str, move: _Move, placed: bool,
              listed: bool = False, access: bool = False) -> Head:
        new = _new_head(text, move)
        becomes = f" (`{new}` in the new network {move.new})" if new else f" (it moves to {move.new})"
        block = _block(text.rstrip(".:"), move.old.version) if not listed else None
        if block is not None and block.prefixlen < move.old.prefixlen:
            note = (f"`{text}` spells the leading groups of {block}, which holds the moved network "
                    f"{move.old} (it moves to {move.new}), a value of its own: what completes it "
                    f"(`{{{{ prefix48 }}}}:1::8`, `${{PREFIX}}:1::5`) may make an address of the moved "
                    f"network, and which one only its readers know")
            return Head(start, end, text, str(move.old), str(move.new), "network", note)
        what = ("a list of its octets" if listed else "a head a placeholder completes" if placed
                else "an access rule's partial address (it admits the old network, and refuses the new one)"
                if access else "a value of its own")
        parts = "groups" if move.old.version == 6 else "octets"
        note = (f"`{text}` spells the leading {parts} of the moved network {move.old}{becomes}, {what}: "
                f"what completes it into an address (`{{{{ base }}}}.5`, `format(\"%s.5\", var.base)`, "
                f"`${{BASE}}.5`, a join, a loop) makes an old address")
        return Head(start, end, text, str(move.old), str(move.new), "network", note)


# What follows a wider head's dot in every file `might_hold` reads it in (a quote, a wildcard, a template).
_WIDE_AFTER = (b'"', b"'", b"%", b"{", b"$", b"#{", b"<")


def _wide_heads(move: _Move) -> list[str]:
    """The one- and two-octet heads wider than `move`'s old network whose block holds it and not
    the new one: `10.0` and `10` of 10.0.0.0/24 -> 192.168.5.0/24, only `10.0` of -> 10.1.0.0/24."""
    out = []
    for octets in (1, 2):
        if 8 * octets >= move.old.prefixlen:
            break
        block = ipaddress.IPv4Network(f"{move.old.network_address}/{8 * octets}", strict=False)
        if not move.new.subnet_of(block):  # type: ignore[arg-type]
            out.append(".".join(str(block.network_address).split(".")[:octets]))
    return out


def _quoted_whole(data: bytes, start: int, end: int) -> bool:
    """Is [start, end) the whole of a quoted string (`"10.0."`, `'10.'`)?"""
    before = data[start - 1:start] if start else b""
    return before in (b'"', b"'") and data[end:end + 1] == before


def _v4_head(net: ipaddress.IPv4Network | ipaddress.IPv6Network) -> tuple[str, int, int] | None:
    """(the literal octets every head of `net` starts with, how many octets at least and at most
    follow it): heads hold two or three octets, the block they spell inside `net`."""
    least_octets = max(2, -(-net.prefixlen // 8))
    if least_octets > 3:
        return None  # a /25 and longer: no head of three octets lies inside it
    fixed = max(1, net.prefixlen // 8)
    octets = str(net.network_address).split(".")[:fixed]
    return ".".join(octets), max(0, least_octets - fixed), 3 - fixed


def _block(head: str, version: int) -> ipaddress.IPv4Network | ipaddress.IPv6Network | None:
    """The network a head spells: `192.168.2` is 192.168.2.0/24, `fd00:250:0:1` fd00:250:0:1::/64."""
    try:
        if version == 4:
            octets = head.split(".")
            if len(octets) > 3 or any(len(o) > 1 and o.startswith("0") for o in octets):
                return None
            return ipaddress.IPv4Network(".".join([*octets, *["0"] * (4 - len(octets))])
                                         + f"/{8 * len(octets)}")
        groups = head.split(":")
        return ipaddress.IPv6Network(":".join(groups) + ("::" if len(groups) < 8 else "")
                                     + f"/{16 * len(groups)}")
    except ValueError:
        return None


def _new_head(text: str, move: _Move) -> str | None:
    """The same head in the new network, where an equal-length move maps it whole."""
    if move.old.prefixlen != move.new.prefixlen:
        return None
    trail = text[-1] if text.endswith((".", ":")) else ""
    head = text[:-1] if trail else text
    if head.startswith("["):
        return None
    block = _block(head, move.old.version)
    if block is None:
        return None
    offset = int(block.network_address) - int(move.old.network_address)
    moved = move.new.network_address + offset
    if move.old.version == 4:
        return ".".join(str(moved).split(".")[:len(head.split("."))]) + trail
    groups = ipaddress.IPv6Address(moved).exploded.split(":")[:len(head.split(":"))]
    return ":".join(g.lstrip("0") or "0" for g in groups) + trail


# A code span's closing (opening) backticks, then markup, then a character of an address: the span is
# one piece of a value the markup splits.
_GLUED_AFTER = lazy_re.compile(rb"`+[*_~`]+[0-9A-Fa-f.:]")
_GLUED_BEFORE = lazy_re.compile(rb"[0-9A-Fa-f.:][*_~`]+`+\Z")


def _whole(data: bytes, start: int, end: int) -> bool:
    """Does [start, end) stand as a whole value: the whole of a quoted string, or all of an
    assignment's, key's or list item's value?"""
    before = data[start - 1:start] if start else b""
    if before == b"`":  # all of a Markdown (or rST ``double``) code span (f28, finding 22), unless
        # markup glues it to more of a value (`` `10.0.48.`**`1`** ``: markdown_joins.py reads that one)
        return data[end:end + 1] == before and _GLUED_AFTER.match(data, end) is None \
            and _GLUED_BEFORE.search(data[max(0, start - 16):start]) is None
    if before in (b'"', b"'"):
        return data[end:end + 1] == before
    line_start = data.rfind(b"\n", 0, start) + 1
    head = data[line_start:start]
    if before not in (b" ", b"\t", b"=", b"[", b","):
        return False
    if before != b"=" and not head.strip():
        return False  # a bare token at the start of a line: prose, not a value
    return _ASSIGNED.search(head) is not None and _ENDS.match(data, end) is not None


def _network_line(data: bytes, start: int) -> bool:
    """Is nothing before the value on its line a version's key or a version operator?"""
    line_start = data.rfind(b"\n", 0, start) + 1
    return _NOT_A_NETWORK.search(data, line_start, start) is None


# Documentation: a renamed address's network stays, so `10.0.0.X` there describes it still.
_PROSE = (".md", ".markdown", ".rst", ".adoc", ".txt")


def prefix_matches(data: bytes, matches: list[Match], prefixes: Prefixes, rel: str = "") -> list[Match]:
    """`matches` with a `prefix` residual for each prefix value (Prefixes.find) that no match covers
    already (a composition evaluated, a templated head, a range decide their own bytes), nor an
    address a format computes from a literal number (computed_addresses.py reads that one). In
    documentation (`rel` a `.md`, `.rst`, `.txt` ...) a renamed address's head is left: its network
    does not move, so `10.0.0.X` there still describes it; a moved network's head is reported there
    too (the network it names is gone)."""
    found = prefixes.find(data, rel)
    if not found:
        return matches
    computed: list[tuple[int, int]] | None = None
    added: list[Match] = []
    for head in found:
        if any(m.start < head.end and head.start < m.end for m in matches):
            continue
        if head.kind == "address":
            if rel.lower().endswith(_PROSE):
                continue
            if computed is None:
                computed = [(c.start, c.end) for c in computed_addresses.computed(data)]
            if any(start < head.end and head.start < end for start, end in computed):
                continue
        added.append(Match(head.start, head.end, head.text, head.text, head.kind, refused=REASON,
                           note=head.note))
    return sorted([*matches, *added], key=lambda m: m.start) if added else matches
