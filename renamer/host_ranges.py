"""Ranges of every host of a network a move grows (t31-33 finding 01, what k32-ranges left).

Under a grow (`10.0.48.0/24: 10.0.60.0/22`) every address keeps its offset from the network
address (prefix_moves.py), so a range written as the whole old network's hosts, from its first
usable address to its last (`10.0.48.1-10.0.48.254`, dnsmasq `dhcp-range=10.0.48.1,10.0.48.254`
and `synth-domain=lab,10.0.48.1,10.0.48.254`, a Kea or ISC dhcpd pool, a MetalLB address pool, a
NetBox IP-range CSV row `10.0.48.1/24,10.0.48.254/24`, `10.0.48.1-254`) became 10.0.60.1-254, a
quarter of the /22, with no word: a DHCP server then leases, and synth-domain names, only a quarter
of the network. Whether such a pool should grow with the network (every host of the new one) or is
a fixed pool that keeps its offsets is the operator's decision, so neither is written: both ends
are one `range` residual, naming both readings, before the sweep and after it (the old text
stays), in `sweep`, `verify` and `audit`.

The ends that make "every host": IPv4, the first usable address (or the network address) to the
last usable one (the broadcast address minus one; a range that reaches the broadcast address is
Matcher._range_at_broadcast's); IPv6, which has no broadcast address, the network address or the
first after it to the last address but one (a range to the last address is Matcher._range_at_last's).
A shrink that leaves the range's last end outside the new network is refused as before (its end is
an address a shrink cannot place); an equal-length move keeps every offset and says nothing.

Pure: `hits` reads the ends' spans (the caller's readers, and `own_ends` here: dnsmasq
`synth-domain=`, CSV `start_address`/`end_address` columns, `A.B.C.D-N`) and the moves.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from renamer import lazy_re
from renamer.names import IPAddress
from renamer.prefix_moves import PrefixMove

REASON = "range"
Span = tuple[int, int]

_V4 = rb"[0-9]{1,3}(?:\.[0-9]{1,3}){3}"
_V6 = rb"[0-9A-Fa-f]{0,4}(?::[0-9A-Fa-f]{0,4}){2,7}"
_END = rb"(?:" + _V4 + rb"|" + _V6 + rb")"
# dnsmasq: synth-domain=<domain>,<address range>[,<prefix>] (the range as `A,B` or `A-B`)
_SYNTH = lazy_re.compile(rb"(?m)^[ \t]*(?:--)?synth-domain[ \t]*=[ \t]*[^,\n]*,[ \t]*(?P<a>" + _END
                    + rb")[ \t]*[,-][ \t]*(?P<b>" + _END + rb")(?![0-9A-Za-z:.])")
# `10.0.48.1-254`: a range of last octets
_SHORT = lazy_re.compile(rb"(?<![A-Za-z0-9.])(?P<a>" + _V4 + rb")[ \t]*-[ \t]*\.?(?P<b>[0-9]{1,3})"
                    rb"(?![0-9A-Za-z_]|\.[0-9])")
# a scan of a range given by its two ends: `fping -g A B` (`--generate`), `prips A B` (t33-33 finding 06)
_SCAN = lazy_re.compile(rb"(?<![A-Za-z0-9_-])(?:fping[ \t][^\n]*?(?:-g|--generate)"
                   rb"|prips(?:[ \t]+-[a-z](?:[ \t]+\S+)?)*)[ \t]+(?P<a>" + _END
                   + rb")[ \t]+(?P<b>" + _END + rb")(?![0-9A-Za-z:./])")
# a CSV header naming a range's two ends (NetBox's IP ranges: start_address,end_address)
_CSV_HEAD = lazy_re.compile(rb"(?im)^(?P<head>[^\n]*\bstart_address\b[^\n]*\bend_address\b[^\n]*)$")
_CSV_VALUE = lazy_re.compile(rb'[ \t]*"?(?P<v>' + _END + rb")(?:/[0-9]{1,3})?\"?[ \t]*")


@dataclass(frozen=True)
class Hit:
    """One end of a range of every host, at [start, end) of the bytes: a `range` residual."""

    start: int
    end: int
    text: str
    note: str


def own_ends(data: bytes) -> list[tuple[Span, Span]]:
    """The two ends' spans of each range the Matcher's readers do not see: dnsmasq's
    `synth-domain=`, a CSV's `start_address`/`end_address` columns, and a range of last octets
    (`10.0.48.1-254`: its second span is the last octet alone), a scan's `fping -g A B`, `prips A B`."""
    out = [((m.start("a"), m.end("a")), (m.start("b"), m.end("b"))) for m in _SYNTH.finditer(data)]
    out += [((m.start("a"), m.end("a")), (m.start("b"), m.end("b"))) for m in _SHORT.finditer(data)]
    if b"fping" in data or b"prips" in data:
        out += [((m.start("a"), m.end("a")), (m.start("b"), m.end("b"))) for m in _SCAN.finditer(data)]
    for head in _CSV_HEAD.finditer(data):
        names = [n.strip(b" \t\"'\r").lower() for n in head.group("head").split(b",")]
        if b"start_address" not in names or b"end_address" not in names:
            continue  # another separator, or the words inside a longer column name
        first, last = names.index(b"start_address"), names.index(b"end_address")
        pos = head.end() + 1
        while pos < len(data):
            stop = data.find(b"\n", pos)
            stop = len(data) if stop == -1 else stop
            cells, at = [], pos
            for cell in data[pos:stop].split(b","):
                cells.append((at, cell))
                at += len(cell) + 1
            if len(cells) <= max(first, last):
                break
            ends = []
            for at, cell in (cells[first], cells[last]):
                value = _CSV_VALUE.fullmatch(cell.rstrip(b"\r"))
                if value is not None:
                    ends.append((at + value.start("v"), at + value.end("v")))
            if len(ends) == 2:
                out.append((ends[0], ends[1]))
            pos = stop + 1
    return out


def _address(text: str) -> IPAddress | None:
    try:
        return ipaddress.ip_address(text)
    except ValueError:
        return None


def every_host(move: PrefixMove, first: IPAddress, last: IPAddress) -> bool:
    """Do `first`-`last` run over every host of the move's old network (see the module's text), or
    every host but the gateway's at either end (`.2-.254` after a gateway at .1, libvirt's default
    network and FortiGate's DHCP ip-range; `.1-.253`; t33-33 finding 06)?"""
    old = move.old
    if first.version != old.version or last.version != old.version:
        return False
    if old.num_addresses < 4:  # a /31 or /32 (/127, /128): no hosts between a first and a last
        return False
    lead, tail = int(first) - int(old.network_address), int(old.broadcast_address) - int(last)
    if old.num_addresses < 16:  # a /29 or longer: a host fewer at an end is a pool of its own
        return lead in (0, 1) and tail == 1
    return lead in (0, 1, 2) and tail in (1, 2) and (lead, tail) != (2, 2)


def hits(data: bytes, moves: Sequence[PrefixMove], pairs: Iterable[tuple[Span, Span]]) -> list[Hit]:
    """Both ends of each range of `pairs` that runs over every host of a network a move grows."""
    grows = [m for m in moves if m.new.num_addresses > m.old.num_addresses]
    if not grows:
        return []
    out: list[Hit] = []
    seen: set[Span] = set()
    for a, b in pairs:
        if a in seen or b in seen:
            continue
        a_text = data[a[0]:a[1]].decode("ascii", "replace")
        b_text = data[b[0]:b[1]].decode("ascii", "replace")
        first = _address(a_text)
        if "." not in b_text and ":" not in b_text and first is not None and first.version == 4:
            last = _address(f"{a_text.rsplit('.', 1)[0]}.{b_text}")  # `10.0.48.1-254`
        else:
            last = _address(b_text)
        if first is None or last is None:
            continue
        move = next((m for m in grows if every_host(m, first, last)), None)
        if move is None:
            continue
        seen.update((a, b))
        if "." not in b_text and ":" not in b_text:  # `10.0.48.1-254`: one residual over the range
            whole = data[a[0]:b[1]].decode("ascii", "replace")
            out.append(Hit(a[0], b[1], whole, _note(move, a_text, str(last))))
            continue
        note = _note(move, a_text, b_text)
        out += [Hit(a[0], a[1], a_text, note), Hit(b[0], b[1], b_text, note)]
    return sorted(out, key=lambda h: h.start)


def _note(move: PrefixMove, first: str, last: str) -> str:
    new = move.new
    kept = (new.network_address + (int(ipaddress.ip_address(first)) - int(move.old.network_address)),
            new.network_address + (int(ipaddress.ip_address(last)) - int(move.old.network_address)))
    whole = (new.network_address + 1, new.broadcast_address - 1)
    lead = int(ipaddress.ip_address(first)) - int(move.old.network_address)
    tail = int(move.old.broadcast_address) - int(ipaddress.ip_address(last))
    but = " but the first (a gateway's)" if lead == 2 else " but the last (a gateway's)" if tail == 2 else ""
    if but:
        whole = (new.network_address + (2 if lead == 2 else 1),
                 new.broadcast_address - (2 if tail == 2 else 1))
    gateway = " but its gateway" if but else ""
    return (f"the range {first}-{last} runs over every host of {move.old}{but}, which grows into {new}: it "
            f"covered the whole old network{gateway}, so whether it grows to every host of {new} "
            f"({whole[0]}-{whole[1]}) or keeps its offsets ({kept[0]}-{kept[1]}, part of {new}) is yours to "
            "decide; edit it by hand (or keep it with `renamer: keep`)")
