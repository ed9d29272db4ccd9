"""An IPv4 address spelled as the upper-case hex file name a network boot loader computes from the
client's address (break-it round 25, finding 12): PXELINUX/SYSLINUX and U-Boot's `pxe` look up
`pxelinux.cfg/0A000046` for 10.0.0.70, GRUB's network boot `grub.cfg-0A000046`. Renamed in the
file's text only, the client at the new address asks for another name and gets `default`.

Where such a name decodes to an old address, the new address's name (`0A00015A` for 10.0.1.90) is
its rewrite: the file is renamed, a reference to it (`pxelinux.cfg/0A000046` in a script or a
playbook) follows. Only a whole eight-digit name in one of those places is read, never a shorter
prefix file (`0A0000` serves a whole network: a network move's, not a host's) nor a lower-case one
(no loader asks for it). Pure: text in, spans and names out.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable

from renamer import lazy_re
from renamer.names import IPNetwork

REASON = "hex-name"
Moves = Iterable[tuple[IPNetwork, IPNetwork]]
# A folder or file name prefix where a boot loader looks a client's address up in hex.
_PATH = lazy_re.compile(r"(?:^|/)(?:pxelinux\.cfg/|grub\.cfg-)(?P<hex>[0-9A-F]{8})(?=$|/)")
# PXELINUX's shorter names: the client's hex address with one digit after another taken off
# (`C0A828` serves 192.168.40.0/24); GRUB asks for whole addresses only.
_PREFIX_PATH = lazy_re.compile(r"(?:^|/)pxelinux\.cfg/(?P<hex>[0-9A-F]{1,7})(?=$|/)")
_TEXT = lazy_re.compile(rb"(?:pxelinux\.cfg[/\\]|grub\.cfg-)(?P<hex>[0-9A-F]{8})(?![0-9A-Za-z_.-])")
WORDS = (b"pxelinux.cfg", b"grub.cfg-")


def to_hex(address: str) -> str:
    """`10.0.1.90` as a boot loader spells it: `0A00015A`."""
    return f"{int(ipaddress.IPv4Address(address)):08X}"


def _table(pairs: Iterable[tuple[str, str]]) -> dict[str, tuple[str, str, str]]:
    """Each old IPv4 address's hex name -> (old address, new address, new hex name)."""
    out = {}
    for old, new in pairs:
        try:
            out[to_hex(old)] = (old, new, to_hex(new))
        except ValueError:  # an IPv6 address, a network: no hex file name
            continue
    return out


def path_rename(rel: str, pairs: Iterable[tuple[str, str]],
                networks: Moves = ()) -> tuple[str, int, str, str] | None:
    """(the renamed path, the column of the hex name, old address, new address) where `rel` is a
    boot loader's hex file name for an old address (a renamed one, or one a network move carries
    by its offset, t36-33 finding 12), or PXELINUX's shorter name for a block inside a moved
    network (`C0A828` of 192.168.40.0/24: `0A1400` under a move to 10.20.0.0/22), or None."""
    if not in_path(rel):
        return None
    table = _table(pairs)
    moves = list(networks)
    for m in _PATH.finditer(rel):
        hit = table.get(m.group("hex")) or _moved(m.group("hex"), moves)
        if hit is not None:
            old, new, name = hit
            return rel[:m.start("hex")] + name + rel[m.end("hex"):], m.start("hex") + 1, old, new
    for m in _PREFIX_PATH.finditer(rel):
        hit = _moved(m.group("hex"), moves)
        if hit is not None:
            old, new, name = hit
            return rel[:m.start("hex")] + name + rel[m.end("hex"):], m.start("hex") + 1, old, new
    return None


def path_unplaced(rel: str, networks: Moves) -> tuple[int, str, str] | None:
    """(column, hex name, why) where `rel` is a boot loader's hex file name a network move cannot
    carry: a host a shrink leaves outside the new network, a PXELINUX prefix block the new network
    cannot hold, or a prefix block wider than the moved network that holds it (`C0A8` around a
    moved 192.168.40.0/24: its clients fall back to another file after the move)."""
    if not in_path(rel):
        return None
    moves = list(networks)
    for pattern in (_PATH, _PREFIX_PATH):
        for m in pattern.finditer(rel):
            text = m.group("hex")
            if pattern is _PREFIX_PATH and len(text) == 8:
                continue
            block = _block(text)
            for old_net, new_net in moves:
                if not (isinstance(old_net, ipaddress.IPv4Network)
                        and isinstance(new_net, ipaddress.IPv4Network)):
                    continue
                if block.subnet_of(old_net):
                    if _moved(text, [(old_net, new_net)]) is None:
                        return (m.start("hex") + 1, text,
                                f"`{text}` is {block}, inside {old_net}, which the move to {new_net} cannot "
                                "place at its offset")
                elif block.supernet_of(old_net) and not block.supernet_of(new_net):
                    return (m.start("hex") + 1, text,
                            f"`{text}` is PXELINUX's file for {block}, which holds {old_net} and not "
                            f"{new_net}: after the move its clients ask for other names and no longer "
                            "read it")
    return None


def _block(text: str) -> ipaddress.IPv4Network:
    """A hex name's block: eight digits an address (/32), fewer a network of four bits a digit."""
    bits = 4 * len(text)
    return ipaddress.IPv4Network((int(text, 16) << (32 - bits), bits))


def _moved(text: str, moves: list[tuple[IPNetwork, IPNetwork]]) -> tuple[str, str, str] | None:
    """(old, new, new hex name) of a hex name whose block lies in a moved network and lands, at its
    offset, whole inside the new one on a hex boundary; None otherwise."""
    block = _block(text)
    for old_net, new_net in moves:
        if not isinstance(old_net, ipaddress.IPv4Network) or not block.subnet_of(old_net):
            continue
        offset = int(block.network_address) - int(old_net.network_address)
        if offset + block.num_addresses > new_net.num_addresses:
            return None
        start = int(new_net.network_address) + offset
        name = f"{start:08X}"[:len(text)]
        if int(name, 16) << (32 - 4 * len(text)) != start:
            return None
        old = str(block.network_address) if len(text) == 8 else str(block)
        new = str(ipaddress.IPv4Address(start)) if len(text) == 8 \
            else str(ipaddress.IPv4Network((start, block.prefixlen)))
        return old, new, name
    return None


def in_path(rel: str) -> bool:
    """Cheap: might `rel` be a boot loader's hex file name?"""
    return "pxelinux.cfg/" in rel or "grub.cfg-" in rel


def might_hold(data: bytes) -> bool:
    return any(word in data for word in WORDS)


def text_spans(data: bytes, pairs: Iterable[tuple[str, str]],
               networks: Moves = ()) -> list[tuple[int, int, str, str]]:
    """(start, end, old hex name, new hex name) of each reference to an old address's hex file name
    (`pxelinux.cfg/0A000046`, `grub.cfg-0A000046`) in `data`, a moved network's address too."""
    if not might_hold(data):
        return []
    table = _table(pairs)
    moves = list(networks)
    out = []
    for m in _TEXT.finditer(data):
        hit = table.get(m.group("hex").decode()) or _moved(m.group("hex").decode(), moves)
        if hit is not None:
            out.append((m.start("hex"), m.end("hex"), m.group("hex").decode(), hit[2]))
    return out
