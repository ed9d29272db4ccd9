"""An interface's own address whose length or gateway stands in a key of its own (outside pass t32,
round 25, findings 16 and 17).

host_roles.py reads the length written right after a renamed address (`10.0.0.70/24`,
` 255.255.255.0`, `netmask 0xffffff00`). Interface configurations often write it, and the gateway,
in a separate key of the same entry:

* NixOS `{ address = "10.0.0.70"; prefixLength = 24; }` (the innermost `{ }` around the address),
  `networking.defaultGateway = "10.0.1.1"` (or `defaultGateway = { address = "10.0.1.1"; }`)
  anywhere in the file;
* RHEL ifcfg `IPADDR=10.0.0.70` with `PREFIX=24` or `NETMASK=255.255.255.0` (the same index:
  `IPADDR1` with `PREFIX1`), and `GATEWAY=` in the file; NetworkManager keyfiles and systemd-networkd
  `.network` files write `gateway=` / `Gateway=` as a key of the file too;
* Debian ifupdown `address 10.0.0.70` with `netmask 255.255.255.0` (or `netmask 24`) and `gateway`
  in its `iface` stanza;
* PowerShell `New-NetIPAddress -IPAddress 10.0.0.70 -PrefixLength 24 -DefaultGateway 10.0.1.1` (the
  command's line).

`length_of` gives host_roles the length of such an own address (then `10.0.0.70 -> 10.0.1.255`
lands on the /24's broadcast address: `no-host`), and `gateways_of` the gateway written beside it
(then `10.0.0.70 -> 10.0.1.1` lands on the router's own address: `no-host`; and `10.0.0.70 ->
10.0.5.70` at /24 leaves the gateway 10.0.0.1 off-link: `gateway`, as interface_stanzas.py says
for netplan and ifupdown). An own address is an address
key's value only (`IPADDR`, `address`, `Address=`, `-IPAddress`): a DNS server or a route that
becomes the gateway's address is no collision. Pure: bytes and offsets in, answers out.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Sequence

from renamer import lazy_re
from renamer.occurrences import Match

# The key an own address stands in, right before its value (on its line).
_OWN = lazy_re.compile(rb"(?im)(?:^|[\s{;\"'])(?P<key>ipaddr(?P<index>[0-9]*)|address[0-9]*|-ipaddress)"
                  rb"[ \t]*(?:=|:|[ \t])[ \t]*[\"']?\Z")
_IFACE = lazy_re.compile(rb"(?m)^[ \t]*(?:iface|auto|allow-[\w-]+|mapping|source)\b")
_MASK = rb"(?P<mask>(?:[0-9]{1,3}\.){3}[0-9]{1,3}|[0-9]{1,2})(?![0-9.])"
_ADDR = rb"(?P<gw>[0-9]{1,3}(?:\.[0-9]{1,3}){3}|[0-9A-Fa-f]{0,4}(?::[0-9A-Fa-f]{0,4}){2,7})(?![0-9A-Za-z.:])"
_NIX_LENGTH = lazy_re.compile(rb"(?<![\w.])prefixLength[ \t]*=[ \t]*" + _MASK)
_NIX_GATEWAY = lazy_re.compile(rb"(?<![\w])defaultGateway6?(?:\.address)?[ \t]*=[ \t]*"
                          rb"(?:\{[^}]*?address[ \t]*=[ \t]*)?\"" + _ADDR)
_NIX_ENTRY_GATEWAY = lazy_re.compile(rb"(?<![\w.])gateway[ \t]*=[ \t]*\"" + _ADDR)
_IFUPDOWN_LENGTH = lazy_re.compile(rb"(?m)^[ \t]*netmask[ \t]+" + _MASK)
_IFUPDOWN_GATEWAY = lazy_re.compile(rb"(?m)^[ \t]*gateway[ \t]+" + _ADDR)
_FILE_GATEWAY = lazy_re.compile(rb"(?im)^[ \t]*(?:export[ \t]+)?gateway[0-9]*[ \t]*=[ \t]*[\"']?" + _ADDR)
_PS_LENGTH = lazy_re.compile(rb"(?i)(?<![\w-])-PrefixLength[ \t]+[\"']?" + _MASK)
_PS_GATEWAY = lazy_re.compile(rb"(?i)(?<![\w-])-DefaultGateway[ \t]+[\"']?" + _ADDR)


def _ifcfg_length(index: bytes) -> re.Pattern[bytes]:
    return re.compile(rb"(?im)^[ \t]*(?:export[ \t]+)?(?:prefix|netmask)" + re.escape(index) +
                      rb"[ \t]*=[ \t]*[\"']?" + _MASK)


def _line(data: bytes, at: int) -> tuple[int, int]:
    start = data.rfind(b"\n", 0, at) + 1
    end = data.find(b"\n", at)
    return start, len(data) if end < 0 else end


def own_key(data: bytes, m: Match) -> re.Match[bytes] | None:
    """The address key `m` is the value of (`IPADDR=`, `address `, `address = "`, `-IPAddress `)."""
    start, _ = _line(data, m.start)
    return _OWN.search(data, start, m.start)


def braces_around(data: bytes, at: int) -> tuple[int, int] | None:
    """The innermost `{ ... }` around `at` (a Nix attribute set, an HCL resource, a JSON object),
    within 2 KiB either side."""
    depth, i = 0, at - 1
    low = max(0, at - 2048)
    while i >= low:
        c = data[i]
        if c == 0x7D:
            depth += 1
        elif c == 0x7B:
            if depth == 0:
                break
            depth -= 1
        i -= 1
    else:
        return None
    begin, depth, j = i, 0, at
    high = min(len(data), at + 2048)
    while j < high:
        c = data[j]
        if c == 0x7B:
            depth += 1
        elif c == 0x7D:
            if depth == 0:
                return begin, j + 1
            depth -= 1
        j += 1
    return None


def _stanza(data: bytes, at: int) -> tuple[int, int] | None:
    """The ifupdown `iface` stanza around `at`: from its `iface` line to the next head line."""
    heads = [h for h in _IFACE.finditer(data)]
    before = [h for h in heads if h.start() <= at]
    if not before or not data[before[-1].start():before[-1].end()].lstrip().startswith(b"iface"):
        return None
    after = [h.start() for h in heads if h.start() > at]
    return before[-1].start(), after[0] if after else len(data)


def _mask_length(text: bytes) -> int | None:
    try:
        if b"." not in text:
            value = int(text)
            return value if 0 < value <= 128 else None
        return ipaddress.ip_network(f"0.0.0.0/{text.decode('ascii')}").prefixlen
    except ValueError:
        return None


def length_of(data: bytes, m: Match) -> tuple[int, str] | None:
    """The length written for the own address `m` in a separate key of its entry, and that key's text
    (`prefixLength = 24`, `PREFIX=24`, `netmask 255.255.255.0`, `-PrefixLength 24`); None where none."""
    key = own_key(data, m)
    if key is None:
        return None
    name = key.group("key").lower()
    found: re.Match[bytes] | None = None
    if name.startswith(b"ipaddr"):
        found = _ifcfg_length(key.group("index") or b"").search(data)
    elif name == b"-ipaddress":
        start, end = _line(data, m.start)
        found = _PS_LENGTH.search(data, start, end)
    else:
        stanza = _stanza(data, m.start)
        if stanza is not None:
            found = _IFUPDOWN_LENGTH.search(data, *stanza)
        else:
            braces = braces_around(data, m.start)
            if braces is not None:
                found = _NIX_LENGTH.search(data, *braces)
    if found is None:
        return None
    length = _mask_length(found.group("mask"))
    if length is None:
        return None
    text = data[found.start():found.end()].decode("ascii", "replace").strip()
    return length, text.replace("'", "").replace('"', "")


def gateways_of(data: bytes, m: Match, matches: Sequence[Match]) -> list[tuple[str, int, str]]:
    """Each gateway written beside the own address `m`: (its value after its own rewrite, where this
    sweep renames it too; its line; its value as written); empty where none is written."""
    key = own_key(data, m)
    if key is None:
        return []
    name = key.group("key").lower()
    spans: list[re.Match[bytes]] = []
    if name == b"-ipaddress":
        start, end = _line(data, m.start)
        spans += _PS_GATEWAY.finditer(data, start, end)
    else:
        stanza = _stanza(data, m.start) if name == b"address" else None  # not a keyfile's address1=
        if stanza is not None:
            spans += _IFUPDOWN_GATEWAY.finditer(data, *stanza)
        else:
            spans += _FILE_GATEWAY.finditer(data)
            spans += _NIX_GATEWAY.finditer(data)
            braces = braces_around(data, m.start)
            if braces is not None:  # `{ address = "A"; prefixLength = 24; gateway = "G"; }` (a module's)
                spans += _NIX_ENTRY_GATEWAY.finditer(data, *braces)
    out = []
    for gateway in spans:
        at = gateway.start("gw")
        text = gateway.group("gw").decode("ascii")
        moved = next((g for g in matches if g.start == at and g.refused is None and g.kept is None), None)
        out.append(((moved.new if moved is not None else text), data.count(b"\n", 0, at) + 1, text))
    return out
