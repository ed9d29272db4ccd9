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

# A folder or file name prefix where a boot loader looks a client's address up in hex.
_PATH = lazy_re.compile(r"(?:^|/)(?:pxelinux\.cfg/|grub\.cfg-)(?P<hex>[0-9A-F]{8})(?=$|/)")
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


def path_rename(rel: str, pairs: Iterable[tuple[str, str]]) -> tuple[str, int, str, str] | None:
    """(the renamed path, the column of the hex name, old address, new address) where `rel` is a
    boot loader's hex file name for an old address, or None."""
    if not in_path(rel):
        return None
    table = _table(pairs)
    for m in _PATH.finditer(rel):
        hit = table.get(m.group("hex"))
        if hit is not None:
            old, new, name = hit
            return rel[:m.start("hex")] + name + rel[m.end("hex"):], m.start("hex") + 1, old, new
    return None


def in_path(rel: str) -> bool:
    """Cheap: might `rel` be a boot loader's hex file name?"""
    return "pxelinux.cfg/" in rel or "grub.cfg-" in rel


def might_hold(data: bytes) -> bool:
    return any(word in data for word in WORDS)


def text_spans(data: bytes, pairs: Iterable[tuple[str, str]]) -> list[tuple[int, int, str, str]]:
    """(start, end, old hex name, new hex name) of each reference to an old address's hex file name
    (`pxelinux.cfg/0A000046`, `grub.cfg-0A000046`) in `data`."""
    if not might_hold(data):
        return []
    table = _table(pairs)
    out = []
    for m in _TEXT.finditer(data):
        hit = table.get(m.group("hex").decode())
        if hit is not None:
            out.append((m.start("hex"), m.end("hex"), m.group("hex").decode(), hit[2]))
    return out
