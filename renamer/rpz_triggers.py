"""BIND response policy zone IP triggers under a network move (outside pass t31-33, finding 03),
pure and I/O free; `Matcher.find` asks it of a file that holds `rpz-`.

An RPZ names a network as the owner name `PREFIXLEN.reversed-address.rpz-ip` (also `rpz-client-ip`
and `rpz-nsip`): `24.0.48.0.10.rpz-ip` is 10.0.48.0/24, `32.7.48.0.10.rpz-ip` the address 10.0.48.7;
IPv6 reverses the 16-bit groups and writes `zz` for the `::` run: `64.zz.10.a.db8.2001.rpz-ip` is
2001:db8:a:10::/64. No address stands in such a name as text, so nothing else reads it.

A trigger inside a moved network (`renames.networks`, any length change or none) is rewritten by
its offset: the moved network itself becomes the new one (`22.0.60.0.10.rpz-ip` under `10.0.48.0/24:
10.0.60.0/22`), a longer one keeps its own length. One a shrink leaves outside the new network is
refused `outside-prefix`; one wider than the moved network is left (it names more than the move).

An owner written relative to an `$ORIGIN` that holds the `rpz-ip` label (`$ORIGIN rpz-ip.rpz.local.`
then `24.0.48.0.10 CNAME .`; t32-33 finding 14) is the same trigger: its labels and the origin's
before `rpz-ip` are read together. Its owner is rewritten where the new spelling keeps the origin's
labels (`22.0.60.0.10`); where the move would change a label the `$ORIGIN` holds (`$ORIGIN
48.0.10.rpz-ip.rpz.local.` then `24.0`), it is a `reverse-zone` residual: the origin is not the
trigger's alone.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from renamer import lazy_re
from renamer.names import IPNetwork
from renamer.prefix_moves import OUTSIDE, ZONE, PrefixMove

NEEDLE = b"rpz-"
_TRIGGER = lazy_re.compile(rb"(?<![A-Za-z0-9_.-])([0-9]{1,3})\.((?:[0-9A-Fa-fZz]{1,4}\.){1,8})"
                      rb"(rpz-(?:ip|client-ip|nsip))(?![A-Za-z0-9_-])")
_KIND = lazy_re.compile(r"(?i)rpz-(?:ip|client-ip|nsip)")
_LABEL = lazy_re.compile(r"[0-9A-Fa-fZz]{1,4}")
# A zone file line: `$ORIGIN name`, or an owner name in the first column.
_ORIGIN = lazy_re.compile(rb"(?im)^\$ORIGIN[ \t]+([^ \t\r\n;]+)")
_OWNER = lazy_re.compile(rb"(?m)^([^ \t\r\n;$@()\"][^ \t\r\n;()\"]*)")


@dataclass(frozen=True)
class Trigger:
    start: int  # the owner name's first byte (its length label)
    end: int  # the end of the `rpz-ip` label
    old: str
    new: str
    refused: str | None
    note: str


def parse(length: str, labels: list[str]) -> IPNetwork | None:
    """The network of a trigger's length and its reversed labels (None: no RPZ trigger)."""
    try:
        if len(labels) == 4 and all(label.isdigit() for label in labels):
            return ipaddress.ip_network(f"{'.'.join(reversed(labels))}/{length}")
        groups = [label.lower() for label in reversed(labels)]
        if groups.count("zz") > 1 or (len(groups) != 8 and "zz" not in groups):
            return None
        if "zz" in groups:
            at = groups.index("zz")
            text = ":".join(groups[:at]) + "::" + ":".join(groups[at + 1:])
        else:
            text = ":".join(groups)
        return ipaddress.ip_network(f"{text}/{length}")
    except ValueError:
        return None


def spell(net: IPNetwork) -> str:
    """A network's trigger labels before `.rpz-ip`: `22.0.60.0.10`, `60.zz.20.b.db8.2001`."""
    if net.version == 4:
        return f"{net.prefixlen}." + ".".join(reversed(str(net.network_address).split(".")))
    text = net.network_address.compressed
    if "::" in text:
        left, right = text.split("::")
        groups = [*(left.split(":") if left else []), "zz", *(right.split(":") if right else [])]
    else:
        groups = text.split(":")
    return f"{net.prefixlen}." + ".".join(reversed(groups))


def _moved(net: IPNetwork, move: PrefixMove) -> IPNetwork | None:
    """Where a trigger network inside the move's old one lands (None: outside the new)."""
    offset = int(net.network_address) - int(move.old.network_address)
    if offset >= move.new.num_addresses:
        return None
    length = net.prefixlen if net.prefixlen > move.old.prefixlen else move.new.prefixlen
    address = ipaddress.ip_address(int(move.new.network_address) + offset)
    return ipaddress.ip_network(f"{address}/{length}", strict=False)


def triggers(data: bytes, moves: Sequence[PrefixMove]) -> Iterator[Trigger]:
    """Each RPZ IP trigger of a moved network, its new spelling or why it is refused."""
    if NEEDLE not in data and b"RPZ-" not in data:
        return
    yield from _relative(data, moves)
    for x in _TRIGGER.finditer(data):
        labels = x.group(2).decode("ascii").rstrip(".").split(".")
        net = parse(x.group(1).decode("ascii"), labels)
        if net is None:
            continue
        move = next((m for m in moves if m.old.version == net.version
                     and net.subnet_of(m.old)), None)  # type: ignore[arg-type]
        if move is None:
            continue
        old = data[x.start():x.end()].decode("ascii")
        lands = _moved(net, move)
        if lands is None:
            yield Trigger(x.start(), x.end(), old, old, OUTSIDE,
                          f"the RPZ trigger {old} ({net}; {move.old} -> {move.new}): "
                          "decide the policy by hand")
            continue
        if lands == net:
            continue
        new = f"{spell(lands)}.{x.group(3).decode('ascii')}"
        yield Trigger(x.start(), x.end(), old, new, None,
                      f"an RPZ trigger for {net} ({move.old} -> {move.new})")


def _origins(data: bytes) -> list[tuple[int, list[str], str]]:
    """(where it starts, labels before the rpz label, the rpz label) of each `$ORIGIN` whose name
    holds `rpz-ip` (`rpz-client-ip`, `rpz-nsip`); one without it closes the one before."""
    out: list[tuple[int, list[str], str]] = []
    current: list[str] = []
    for x in _ORIGIN.finditer(data):
        name = x.group(1).decode("ascii", "replace")
        labels = [label for label in name.rstrip(".").split(".") if label]
        current = labels if name.endswith(".") else [*labels, *current]
        at = next((i for i, label in enumerate(current) if _KIND.fullmatch(label)), None)
        out.append((x.end(), current[:at] if at is not None else [],
                    current[at].lower() if at is not None else ""))
    return out


def _relative(data: bytes, moves: Sequence[PrefixMove]) -> Iterator[Trigger]:
    """Each trigger whose owner name is written relative to an `$ORIGIN` holding `rpz-ip`."""
    if b"$ORIGIN" not in data.upper():
        return
    origins = _origins(data)
    for i, (begin, tail, kind) in enumerate(origins):
        if not kind:
            continue
        stop = origins[i + 1][0] if i + 1 < len(origins) else len(data)
        for x in _OWNER.finditer(data, begin, stop):
            owner = x.group(1).decode("ascii", "replace")
            if owner.endswith(".") or _KIND.search(owner):
                continue  # absolute, or a trigger `triggers` reads itself
            mine = owner.split(".")
            if len(mine) < 1 or not all(_LABEL.fullmatch(label) for label in mine[1:]) \
                    or not mine[0].isdigit():
                continue
            net = parse(mine[0], [*mine[1:], *tail])
            if net is None:
                continue
            move = next((m for m in moves if m.old.version == net.version
                         and net.subnet_of(m.old)), None)  # type: ignore[arg-type]
            if move is None:
                continue
            whole = ".".join([*mine, *tail, kind])
            lands = _moved(net, move)
            if lands is None:
                yield Trigger(x.start(1), x.end(1), owner, owner, OUTSIDE,
                              f"the RPZ trigger {owner} under $ORIGIN {'.'.join([*tail, kind])} ({whole}; "
                              f"{net}; {move.old} -> {move.new}): decide the policy by hand")
                continue
            if lands == net:
                continue
            labels = spell(lands).split(".")
            if tail and labels[len(labels) - len(tail):] != tail:
                yield Trigger(x.start(1), x.end(1), owner, owner, ZONE,
                              f"the RPZ trigger {owner} under $ORIGIN {'.'.join([*tail, kind])} ({net}) "
                              f"becomes {spell(lands)}.{kind} under {move.old} -> {move.new}, which changes "
                              "labels the $ORIGIN holds: rewrite the owner and its origin by hand")
                continue
            new = ".".join(labels[:len(labels) - len(tail)])
            yield Trigger(x.start(1), x.end(1), owner, new, None,
                          f"an RPZ trigger for {net} under $ORIGIN {'.'.join([*tail, kind])} "
                          f"({move.old} -> {move.new})")
