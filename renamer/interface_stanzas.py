"""An interface's own address renamed out of the network its gateway stands in (outside pass t28,
finding 23).

`10.0.0.70 -> 10.0.1.90` rewrites netplan's `addresses: [10.0.0.70/24]` and ifupdown's
`address 10.0.0.70` (with `netmask 255.255.255.0`), while the same stanza's `via: 10.0.0.1`,
`gateway4: 10.0.0.1` or `gateway 10.0.0.1` stays: the host gets an off-link default route and
drops off the network after the move. Under renames.networks the gateway moves with it (it is
matched and rewritten into the new network): no problem.

A stanza is an ifupdown `iface` block (to the next `iface`, `auto`, `allow-`, `mapping` or
`source` line), or the YAML block an `addresses:` line stands in (the lines indented under its
parent key: a netplan interface). An own address is a matched address on an `address` /
`addresses` line (or a list item under `addresses:`) with its length (`/24`) or the stanza's
`netmask`. Where the renamed address leaves the network (old address and length) and a gateway
of the stanza that stood in the old network is not in the new one (after its own rewrite, if
any), the address's match is refused `gateway`: a person moves the gateway or the network.
Pure: bytes and matches in, matches out.
"""

from __future__ import annotations

import ipaddress
from dataclasses import replace

from renamer import lazy_re
from renamer.occurrences import Match

_IFACE = lazy_re.compile(rb"(?m)^(?:iface|auto|allow-[\w-]+|mapping|source)\b")
_ADDRESSES = lazy_re.compile(rb"(?m)^(?P<indent>[ \t]*)(?:-[ \t]+)?addresses[ \t]*:")
_OWN = lazy_re.compile(rb"^[ \t]*(?:-[ \t]+)?(?:address(?:es)?\b[ \t]*:?|-)[ \t]*\[?")
_NETMASK = lazy_re.compile(rb"(?m)^[ \t]*netmask[ \t]+(?P<mask>[0-9.]+)")
_GATEWAY = lazy_re.compile(rb"(?m)^[ \t]*(?:-[ \t]+)?(?:gateway[46]?|via)[ \t]*:?[ \t]+[\"']?"
                      rb"(?P<gw>[0-9A-Fa-f.:]+)")
_LENGTH = lazy_re.compile(rb"/(?P<len>[0-9]{1,3})(?![0-9])")


def might_hold(data: bytes) -> bool:
    return (b"gateway" in data or b"via" in data) and (b"address" in data)


def _stanzas(data: bytes) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    heads = [m.start() for m in _IFACE.finditer(data)]
    for i, start in enumerate(heads):
        if data.startswith(b"iface", start):
            out.append((start, heads[i + 1] if i + 1 < len(heads) else len(data)))
    for found in _ADDRESSES.finditer(data):
        indent = len(found.group("indent"))
        # the parent key: the nearest line above indented less
        at = found.start()
        parent_indent, begin = -1, 0
        while at > 0:
            line_start = data.rfind(b"\n", 0, at - 1) + 1
            line = data[line_start:at - 1] if at > 0 else b""
            stripped = line.lstrip(b" \t")
            if stripped and not stripped.startswith(b"#") and len(line) - len(stripped) < indent:
                parent_indent, begin = len(line) - len(stripped), line_start
                break
            at = line_start
        if parent_indent < 0:
            continue
        end, at = len(data), data.find(b"\n", found.start())
        while at != -1:
            nxt = data.find(b"\n", at + 1)
            line = data[at + 1:nxt if nxt != -1 else len(data)]
            stripped = line.lstrip(b" \t")
            shallow = len(line) - len(stripped) <= parent_indent
            if stripped.strip() and not stripped.startswith(b"#") and shallow:
                end = at + 1
                break
            at = nxt
        out.append((begin, end))
    return out


def with_gateways(data: bytes, matches: list[Match]) -> list[Match]:
    """`matches` with each interface's own address refused `gateway` where its rename leaves a
    gateway of its stanza off-link."""
    if not might_hold(data) or not any(m.kind == "address" for m in matches):
        return matches
    out = list(matches)
    for begin, end in _stanzas(data):
        inside = [i for i, m in enumerate(out) if begin <= m.start < end]
        mask = _NETMASK.search(data, begin, end)
        gateways = [g for g in _GATEWAY.finditer(data, begin, end)]
        if not gateways:
            continue
        for i in inside:
            m = out[i]
            if m.kind != "address" or m.refused is not None or m.kept is not None:
                continue
            line_start = data.rfind(b"\n", 0, m.start) + 1
            if _OWN.match(data[line_start:m.start]) is None:
                continue
            length = _LENGTH.match(data, m.end)
            prefix = length.group("len").decode() if length else mask.group("mask").decode() if mask else None
            if prefix is None:
                continue
            try:
                old_net = ipaddress.ip_interface(f"{m.old}/{prefix}").network
                new_net = ipaddress.ip_interface(f"{m.new}/{prefix}").network
            except ValueError:
                continue
            if old_net == new_net:
                continue
            for gateway in gateways:
                text = gateway.group("gw").decode()
                moved = next((g for g in out if g.start == gateway.start("gw") and g.refused is None
                              and g.kept is None), None)
                try:
                    was, now = ipaddress.ip_address(text), ipaddress.ip_address(moved.new if moved else text)
                except ValueError:
                    continue
                if was.version == old_net.version and was in old_net and now not in new_net:
                    number = data.count(b"\n", 0, gateway.start()) + 1
                    out[i] = replace(m, refused="gateway",
                                     note=f"line {number}'s gateway {now} would be outside {new_net}")
                    break
    return out
