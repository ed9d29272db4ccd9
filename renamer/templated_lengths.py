"""A prefix length right after a templated address, on a line or in a stanza that names a resized
network (the lead's trial on khaddict/homelab).

`qm set .. -ipconfig0 ip=<% ctx().ip_addr %>/24,gw=192.168.0.254`, `ipconfig0 =
"ip=${var.ip}/24,gw=192.168.0.254"`, `nmcli .. ipv4.addresses "${IP}/24" ipv4.gateway
192.168.0.254`, netplan's `addresses: ["{{ ip }}/24"]` over `gateway4: 192.168.0.254`: under
`192.168.0.0/24: 10.20.0.0/22` the gateway followed, the `/24` after the template stayed, sweep 0 and
verify OK: the machine comes up with a /24 in a /22. The template's value is not known, so the
length is never rewritten; where it spells the old length of a resized network that the same line
(or its stanza) names, old or new, it is a `mask` residual naming the length to write.

Pure: bytes and moves in, (start, end, old length, new length, why) out; `prefix_moves.length_hits` asks.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Callable, Iterator, Sequence

from renamer import lazy_re
from renamer.names import IPNetwork

# The close of a template expression, or a shell variable, right before `/N`: Jinja `{{ ip }}`,
# StackStorm/ERB `<% .. %>`, `${var.ip}`, `$IP`, `%IP%` (a Windows batch variable).
_TEMPLATED = lazy_re.compile(rb"(?:\}\}?|%>|\$[A-Za-z_][A-Za-z0-9_]*|%[A-Za-z_][A-Za-z0-9_]*%)"
                        rb"/([0-9]{1,3})(?![0-9A-Za-z./:])")
_ADDRESS = re.compile(rb"(?<![0-9A-Za-z.:])((?:[0-9]{1,3}\.){3}[0-9]{1,3}"
                      rb"|[0-9A-Fa-f]{0,4}(?::[0-9A-Fa-f]{0,4}){2,7})(?![0-9A-Za-z.:])")

Stanza = Callable[[int], list[tuple[int, int]]]


def templated(data: bytes, moves: Sequence[tuple[IPNetwork, IPNetwork]],
              stanza: Stanza) -> Iterator[tuple[int, int, str, str, str]]:
    """Each `/N` after a template of a resized move's old length whose line or stanza names that
    move's old or new network: (start, end, N, the new length, why)."""
    if b"/" not in data:
        return
    lengths: dict[int, list[tuple[IPNetwork, IPNetwork]]] = {}
    for old, new in moves:
        if old.prefixlen != new.prefixlen:
            lengths.setdefault(old.prefixlen, []).append((old, new))
    if not lengths:
        return
    for x in _TEMPLATED.finditer(data):
        n = int(x.group(1))
        if n in lengths and _in_url(data, x.start()):
            continue  # `https://{{ host }}/24`: a path
        spans = stanza(x.start()) if n in lengths else []
        found = next(((named, old, new) for old, new in lengths.get(n, ())
                      if (named := _named(data, spans, old, new)) is not None), None)
        if found is None:
            continue
        named, old, new = found
        yield (x.start(1), x.end(1), x.group(1).decode(), str(new.prefixlen),
               f"/{n} follows a templated address whose value renamer cannot know, beside {named} of "
               f"{old}, which becomes {new}: where the address is in that network, write "
               f"/{new.prefixlen}")


def _in_url(data: bytes, at: int) -> bool:
    """Is the template closing at `at` part of a URL (`https://{{ host }}/24`: the `/N` a path)?"""
    close = data[at:at + 2]
    opener = b"{{" if close == b"}}" else b"<%" if close == b"%>" else b"{" if close[:1] == b"}" else b""
    begin = data.rfind(opener, 0, at) if opener else at
    if begin < 0:
        return False
    token = max(data.rfind(c, 0, begin) for c in (b" ", b"\t", b"\n", b'"', b"'", b"=", b","))
    return b"://" in data[token + 1:begin]


def _named(data: bytes, spans: list[tuple[int, int]], old: IPNetwork, new: IPNetwork) -> str | None:
    """The first address of `old` or `new` in `spans`, or None."""
    for start, end in spans:
        for x in _ADDRESS.finditer(data, start, end):
            try:
                address = ipaddress.ip_address(x.group(1).decode("ascii"))
            except ValueError:
                continue
            if address.version == old.version and (address in old or address in new):
                return x.group(1).decode("ascii")
    return None
