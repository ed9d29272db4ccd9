"""IPv4 addresses packed where the exact rules do not read them (issue 27, outside pass t36-sweep,
findings 12, 21, 22). Under `10.0.0.70 -> 10.0.1.90` each was left with no residual, sweep 0,
verify --strict OK:

* **Hex bytes in a DHCP option** (finding 12): a UniFi/AP controller handed out as option 43,
  dnsmasq `dhcp-option=tag:unifi,43,01:04:0a:00:00:46`, ISC `option vendor-encapsulated-options
  01:04:0a:00:00:46;`, Cisco IOS `option 43 hex f104.0a00.0046`, MikroTik `value=0x01040a000046`,
  Windows `-Value 0x01,0x04,0x0a,0x00,0x00,0x46`, Kea `"data": "01:04:0A:00:00:46"` under
  `option-data`; Huawei's `option 43 hex 01 04 0A 00 64 02`. On a line that says it is a DHCP
  option (`option` or `dhcp` on it; Kea's `"data"`
  in a file holding `option-data`), a run of hex bytes (`:`, `.`, `-` or `,` between groups of
  whole bytes, `0x` before the run or each group) whose bytes, at a byte boundary, are a renamed
  address is REWRITTEN: the DHCP server sends those bytes as they stand and the client reads the
  four as the address (that is what the option is for), so the new address's bytes are the only
  right answer; separators, widths and case are kept. A moved network's address so spelled is a
  residual `packed-address` (four bytes of a longer option may fall in a network by chance). The
  dotted text of an address as hex bytes (sub-option 3 of Huawei, Aruba: `031A3137322E...`) is
  rewritten where the new text is as long, a residual where not (the option's length bytes).
* **6to4 and ISATAP** (finding 22): in 6to4 (RFC 3056) a site's prefix `2002:V4HI:V4LO::/48` IS its
  IPv4 address, and an ISATAP interface id (RFC 5214) `[0|200]:5efe:V4HI:V4LO` ends in it. A
  renamed address so carried is REWRITTEN (the prefix is computed from the address by definition,
  every reader reads it so), in the spelling written (`spelling.v6_like`); a moved network's
  address so carried is a residual `packed-address`. The dotted ISATAP twin is an exact form.
* **inet_aton's short dotted forms** (finding 21): `10.70` and `10.0.70` (the last part fills the
  bytes left) are 10.0.0.70 to ping, ssh, curl. `1.2.3` is as often a version, so a renamed
  address's short form is looked for only where a network tool or a URL takes it (`ping 10.70`,
  `ssh root@10.0.70`, `http://10.70/`; a part may be `0x` hex, `0xa.0x46`), and is a residual
  `short-address` there, never rewritten.
  (inet_aton's per-octet hex quad `0xa.0.0.0x46` is dressed_addresses'.)

Pure: bytes in, matches out.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Iterable

from renamer import forms as spelling
from renamer import lazy_re
from renamer.literal_readers import LiteralReader
from renamer.names import IPNetwork, v4_renames
from renamer.occurrences import Match

PACKED = "packed-address"
SHORT = "short-address"

# A line that says it is a DHCP option (the literals of the file gate: a caseless pattern reads
# four times slower).
_OPTION_LINE = lazy_re.compile(rb"option|OPTION|Option|dhcp|DHCP|Dhcp")
_KEA_DATA = lazy_re.compile(rb"\"data\"[ \t]*:")
# A run of hex groups, `0x` optional before each, joined by one separator (a space too: Huawei's
# `option 43 hex 01 04 0A 00 64 02`), standing alone: whole bytes where every group has an even
# count of digits (_in_run asks).
_RUN = lazy_re.compile(rb"(?<![0-9A-Za-z_])(?:0[xX])?[0-9A-Fa-f]+(?:[:.,\t -](?:0[xX])?[0-9A-Fa-f]+)*"
                       rb"(?![0-9A-Za-z_])")
_GROUP = lazy_re.compile(rb"(?:0[xX])?([0-9A-Fa-f]+)")
# A dotted quad in decoded option bytes, standing alone.
_ASCII_QUAD = lazy_re.compile(rb"(?<![0-9.])[0-9]{1,3}(?:\.[0-9]{1,3}){3}(?![0-9]|\.[0-9])")
_DECIMAL_QUAD = lazy_re.compile(rb"[0-9]{1,3}(?:\.[0-9]{1,3}){3}")
# An IPv6 address (or its prefix) starting 6to4's 2002: or holding ISATAP's 5efe: (any case).
_V6 = lazy_re.compile(rb"(?<![0-9A-Za-z:.])[0-9A-Fa-f]{0,4}(?::[0-9A-Fa-f]{0,4}){2,7}(?![0-9A-Za-z:.])")
SIX_TO_FOUR = 0x2002
ISATAP = 0x5EFE
# Where a network tool (its `user@` allowed) or a URL takes the word after it as an address (read
# backwards); a bare `name@` is npm's version as often (`foo@10.0.70`).
_TAKEN = lazy_re.compile(
    rb"(?:(?:^|(?<=[\s;|&(`'\"$]))(?:ping6?|fping|arping|ssh|scp|sftp|mosh|telnet|nc|ncat|netcat|socat|curl|"
    rb"wget|rsync|ftp|tftp|dig|host|nslookup|traceroute6?|tracepath|mtr|nmap)\b[^\n;|&]*?[ \t=\[]"
    rb"(?:[^\s@\[]+@)?|://(?:[^\s/@]*@)?\[?)\Z")
_LOOK_BACK = 120


class PackedAddresses(LiteralReader):
    """The renamed IPv4 addresses and moved IPv4 networks, read packed (see the module's text)."""

    def __init__(self, addresses: Iterable[tuple[str, str]],
                 networks: Iterable[tuple[IPNetwork, IPNetwork]] = ()) -> None:
        self._renamed = {old: ipaddress.IPv4Address(new) for old, new in v4_renames(addresses).items()
                         if _v4(new) is not None}
        self._moves = [(old, new) for old, new in networks if old.version == 4]
        literals: set[bytes] = set()
        if self._renamed or self._moves:
            literals.update((b"option", b"OPTION", b"Option", b"dhcp", b"DHCP", b"Dhcp",
                             b"2002:", b"5efe:", b"5EFE:", b"5Efe:"))
        short: list[bytes] = []
        for old in self._renamed:
            for parts in _short_parts(old):
                short.append(rb"\.".join(_part(p) for p in parts))
                literals.update((b".%d" % parts[-1], b".0x", b".0X"))
        self._short = re.compile(rb"(?<![0-9A-Za-z.])(?:" + b"|".join(short) + rb")(?![0-9A-Za-z]|\.[0-9])") \
            if short else None
        self.literals = tuple(sorted(literals))

    def find(self, data: bytes) -> list[Match]:
        if not self.literals or not self.holds_literal(data):
            return []
        out: list[Match] = []
        if _OPTION_LINE.search(data) is not None:
            out += self._option_bytes(data)
        if b"2002:" in data or b"5efe:" in data.lower():
            out += self._tunnels(data)
        if self._short is not None:
            out += self._short_forms(data)
        return sorted(out, key=lambda m: m.start)

    # -- hex bytes in a DHCP option (finding 12) --------------------------------------------------

    def _option_bytes(self, data: bytes) -> list[Match]:
        """Runs of hex on the lines that name a DHCP option (only those lines are read)."""
        lines = [m.start() for m in _OPTION_LINE.finditer(data)]
        if b"option-data" in data:  # Kea: `"data": "01:04:..."` under `option-data`
            lines += [m.start() for m in _KEA_DATA.finditer(data)]
        out: list[Match] = []
        done = -1
        for at in sorted(lines):
            if at < done:
                continue  # a line read already
            start = data.rfind(b"\n", 0, at) + 1
            done = data.find(b"\n", at)
            done = len(data) if done < 0 else done
            for run in _RUN.finditer(data, start, done):
                if run.end() - run.start() < 8 or _DECIMAL_QUAD.fullmatch(run.group()):
                    continue  # too short for four bytes, or a dotted decimal address: the exact rules'
                out += self._in_run(data, run.start(), run.end())
        return out

    def _in_run(self, data: bytes, start: int, end: int) -> list[Match]:
        groups = list(_GROUP.finditer(data, start, end))
        if not any(data[g.start() - 1:g.start()] in (b" ", b"\t") for g in groups[1:]):
            if any(len(g.group(1)) % 2 for g in groups):
                return []  # not whole bytes
            return self._in_bytes(data, [d for g in groups for d in range(g.start(1), g.end(1))])
        # Between spaces, a word of prose may follow the bytes (`01 04 0a 00 00 46 added`): each
        # stretch of whole-byte groups of up to four bytes is read on its own.
        out: list[Match] = []
        digits: list[int] = []
        for group in [*groups, None]:
            if group is None or len(group.group(1)) % 2 or len(group.group(1)) > 8:
                out += self._in_bytes(data, digits) if digits else []
                digits = []
            else:
                digits += range(group.start(1), group.end(1))
        return out

    def _in_bytes(self, data: bytes, digits: list[int]) -> list[Match]:
        """The renamed (or moved) addresses among whole hex bytes whose digits stand at `digits`."""
        written = bytes(data[i] for i in digits).decode("ascii")
        hexed = written.lower()
        run_upper = any(c in "ABCDEF" for c in written) and not any(c in "abcdef" for c in written)
        out = self._in_ascii(data, digits, hexed, run_upper)
        taken = {d for m in out for d in range(m.start, m.end)}
        i = 0
        while i + 8 <= len(hexed):
            address = ipaddress.IPv4Address(int(hexed[i:i + 8], 16))
            first, last = digits[i], digits[i + 7] + 1
            text = data[first:last].decode("ascii")
            new = self._renamed.get(address)
            if first in taken or last - 1 in taken:
                i += 2
                continue
            if new is not None:
                spelled = _rehex(data, digits[i:i + 8], first, last, f"{int(new):08x}", run_upper)
                out.append(Match(first, last, text, spelled, "address",
                                 note=f"`{text}` is {address} as hex bytes of a DHCP option, renamed {new}"))
                i += 8
                continue
            moved = next(((o, n) for o, n in self._moves if address in o), None)
            if moved is not None:
                out.append(Match(first, last, text, text, "address", refused=PACKED,
                                 note=f"`{text}` is {address} as hex bytes of a DHCP option, inside "
                                      f"{moved[0]}, which moves to {moved[1]}: if it is that address, "
                                      "write the new one's bytes by hand; else keep it with a keep rule"))
                i += 8
                continue
            i += 2
        return out

    def _in_ascii(self, data: bytes, digits: list[int], hexed: str, run_upper: bool) -> list[Match]:
        """An address as the hex of its dotted text (option 43 sub-option 3 of Huawei, Aruba, Cisco's
        `5A1D;...;I172.16.1.10`): rewritten where the new text is as long (the option's length byte
        stays right), a residual where it is not (or for a moved network's address)."""
        raw = bytes.fromhex(hexed)
        out: list[Match] = []
        for found in _ASCII_QUAD.finditer(raw):
            try:
                address = ipaddress.IPv4Address(found.group().decode("ascii"))
            except ValueError:
                continue
            first, last = digits[2 * found.start()], digits[2 * found.end() - 1] + 1
            text = data[first:last].decode("ascii")
            new = self._renamed.get(address)
            where = f"`{text}` is the text {address} as hex bytes of a DHCP option"
            if new is not None and len(str(new)) == len(str(address)):
                spelled = _rehex(data, digits[2 * found.start():2 * found.end()], first, last,
                                 str(new).encode().hex(), run_upper)
                out.append(Match(first, last, text, spelled, "address", note=f"{where}, renamed {new}"))
            elif new is not None:
                out.append(Match(first, last, text, text, "address", refused=PACKED,
                                 note=f"{where}, renamed {new}, whose text is of another length: the "
                                      "option's length bytes must change with it; write it by hand"))
            elif (moved := next(((o, n) for o, n in self._moves if address in o), None)) is not None:
                out.append(Match(first, last, text, text, "address", refused=PACKED,
                                 note=f"{where}, inside {moved[0]}, which moves to {moved[1]}: write the "
                                      "new one's bytes (and the option's length) by hand, or keep it"))
        return out

    # -- 6to4 and ISATAP (finding 22) -------------------------------------------------------------

    def _tunnels(self, data: bytes) -> list[Match]:
        out: list[Match] = []
        for found in _V6.finditer(data):
            text = found.group().decode("ascii")
            try:
                address = ipaddress.IPv6Address(text)
            except ValueError:
                continue
            value = int(address)
            if value >> 112 == SIX_TO_FOUR:
                shift, how = 80, "the 6to4 prefix (RFC 3056) of"
            elif (value >> 32) & 0xFCFFFFFF == ISATAP:
                shift, how = 0, "the ISATAP interface id (RFC 5214) of"
            else:
                continue
            v4 = ipaddress.IPv4Address((value >> shift) & 0xFFFFFFFF)
            new = self._renamed.get(v4)
            if new is not None:
                moved = ipaddress.IPv6Address(value & ~(0xFFFFFFFF << shift) | int(new) << shift)
                spelled = spelling.v6_like(text, moved)
                if ipaddress.IPv6Address(spelled) != moved:
                    spelled = moved.compressed
                out.append(Match(found.start(), found.end(), text, spelled, "address",
                                 note=f"`{text}` is {how} {v4}, renamed {new}"))
                continue
            hit = next(((o, n) for o, n in self._moves if v4 in o), None)
            if hit is not None:
                out.append(Match(found.start(), found.end(), text, text, "address", refused=PACKED,
                                 note=f"`{text}` is {how} {v4}, inside {hit[0]}, which moves to {hit[1]}: "
                                      "write the new address's prefix by hand, or keep it with a keep rule"))
        return out

    # -- inet_aton's short dotted forms (finding 21) ----------------------------------------------

    def _short_forms(self, data: bytes) -> list[Match]:
        assert self._short is not None
        out: list[Match] = []
        for found in self._short.finditer(data):
            line = data.rfind(b"\n", 0, found.start()) + 1
            if _TAKEN.search(data, max(line, found.start() - _LOOK_BACK), found.start()) is None:
                continue  # `1.2.3` outside a network tool's argument or a URL may be a version
            text = found.group().decode("ascii")
            address = _from_short(text)
            new = self._renamed.get(address) if address is not None else None
            if address is None or new is None:
                continue
            out.append(Match(found.start(), found.end(), text, text, "address", refused=SHORT,
                             note=f"`{text}` is {address} in inet_aton's short form (ping, ssh, curl read it "
                                  f"so), renamed {new}"))
        return out


def _v4(text: str) -> ipaddress.IPv4Address | None:
    try:
        return ipaddress.IPv4Address(text)
    except ValueError:
        return None


def _short_parts(address: ipaddress.IPv4Address) -> list[tuple[int, ...]]:
    """inet_aton's three- and two-part values of `address`: (10, 0, 70), (10, 70) for 10.0.0.70."""
    a, b, c, d = address.packed
    return [(a, b, c << 8 | d), (a, b << 16 | c << 8 | d)]


def _part(value: int) -> bytes:
    """A part as inet_aton reads it: decimal, or `0x` hex (any case, zero-padded or not)."""
    return b"(?:%d|0[xX]0*(?i:%x))" % (value, value)


def _from_short(text: str) -> ipaddress.IPv4Address | None:
    """inet_aton's reading of a two- or three-part form (decimal or `0x` parts), or None."""
    parts = [int(p, 16) if p[:2].lower() == "0x" else int(p) for p in text.split(".")]
    if len(parts) == 3 and parts[0] < 256 and parts[1] < 256 and parts[2] < 1 << 16:
        return ipaddress.IPv4Address(parts[0] << 24 | parts[1] << 16 | parts[2])
    if len(parts) == 2 and parts[0] < 256 and parts[1] < 1 << 24:
        return ipaddress.IPv4Address(parts[0] << 24 | parts[1])
    return None


def _rehex(data: bytes, digits: list[int], first: int, last: int, spelled: str, run_upper: bool) -> str:
    """The span [first, last) with its hex digits (at `digits`) those of `spelled`, separators
    kept, in upper case where every letter of the old digits is (where they hold none: where
    every letter of the run is)."""
    span = bytearray(data[first:last])
    letters = [chr(data[i]) for i in digits if chr(data[i]).isalpha()]
    upper = all(c.isupper() for c in letters) if letters else run_upper
    for i, offset in enumerate(digits):
        span[offset - first] = ord(spelled[i].upper() if upper else spelled[i])
    return span.decode("ascii")


def packed_matches(data: bytes, matches: list[Match], packed: PackedAddresses) -> list[Match]:
    """`matches` with each packed address (PackedAddresses.find) no match covers."""
    found = packed.find(data)
    added = [n for n in found if not any(m.start < n.end and n.start < m.end for m in matches)]
    return sorted([*matches, *added], key=lambda m: m.start) if added else matches
