"""Lengths written beside a moved network's address in the forms `prefix_moves` did not read, and
addresses whose role a resize changes (outside pass t26-33, findings 02, 07, 12, 14, 15, 18, 23).
Pure and I/O free; `match.Matcher._lengthed`, `_mapped_match`, `_range_at_broadcast` and
`prefix_moves.length_hits`/`stanza_length` ask it.

* A length after blanks (Cisco IOS `network 192.168.40.0 /24`, nft's `10.0.48.0 / 24`) or after an
  IPv6 zone ID (`2001:db8:a::1%eth0/48`, RFC 4007 11.7) is the address's length as `/24` is.
* An IPv4 address written as the dotted tail of an IPv4-mapped or NAT64 IPv6 address
  (`::ffff:10.0.48.0/120`, `64:ff9b::10.0.48.0/120`) carries a length 96 past its IPv4 length.
* An IPv6 netmask spelled as an address (`/ffff:ffff:ffff:ffff::`, nft's `& ffff:ffff:ffff:ffff:: ==`)
  spells a length as the dotted IPv4 mask does.
* A length or address key's family by its name (`prefix6`, `<subnetv6>`, `address6`, `ipv6_...`):
  an IPv6 key's length is no IPv4 address's, and an untagged length beside an IPv6-tagged address
  key is the untagged address's.
* Under a resize, an address at offset 0 of a network that has no network address (an IPv4 /31 or
  /32, RFC 3021; an IPv6 /127 or /128, RFC 6164) is a host; in a network that has one it would be
  the network address (IPv6: the Subnet-Router anycast address): refused where its line does not
  write it as the network.
"""

from __future__ import annotations

import ipaddress
import re
from dataclasses import dataclass

from renamer import lazy_re
from renamer.names import IPAddress, IPNetwork

MAPPED_SHIFT = 96  # an IPv4-mapped or NAT64 (64:ff9b::/96) address: the IPv4 length plus 96


@dataclass(frozen=True)
class Length:
    """A length written after an address: where it ends, the text between the address and the
    digits (`/`, ` /`, `%eth0/`), and the number."""

    end: int
    between: str
    value: int

    @property
    def text(self) -> str:
        return f"{self.between}{self.value}"


_PLAIN = lazy_re.compile(rb"/([0-9]{1,3})(?![0-9])")
# After blanks or a zone ID: the digits must end as a length does (no `.9`, no word, no path), so
# `10.9.0.5 / 10.9.0.6` and `10.9.0.5 /24hours` are none.
_SPELLED = lazy_re.compile(
    rb"(%[0-9A-Za-z_.~-]+)?([ \t]*/[ \t]*)([0-9]{1,3})(?![0-9A-Za-z_/-])(?!\.[0-9A-Za-z])")


# After a bracketed address, outside its bracket: Postfix's `mynetworks = [2001:db8:a:10::]/64`,
# Dovecot's and Exim's the same (t29-33, finding 23: the address moved, the length stayed).
_BRACKETED = re.compile(rb"\]/([0-9]{1,3})(?![0-9])")


def length_after(data: bytes, end: int, *, v6: bool, bracketed: bool = False) -> Length | None:
    """The length written right after the address ending at `end`: `/24`, ` /24`, ` / 24`, and for
    an IPv6 address `%zone/48`; after the closing bracket of one in brackets (`bracketed`: the
    byte before the address is `[`), `]/64`. None where there is none."""
    if bracketed:
        outside = _BRACKETED.match(data, end)
        if outside is not None:
            return Length(outside.end(), "]/", int(outside.group(1)))
    plain = _PLAIN.match(data, end)
    if plain is not None:
        return Length(plain.end(), "/", int(plain.group(1)))
    spelled = _SPELLED.match(data, end)
    if spelled is None or (spelled.group(1) is not None and not v6):
        return None
    if spelled.group(1) is None and spelled.group(2) == b"/":
        return None
    between = (spelled.group(1) or b"") + spelled.group(2)
    return Length(spelled.end(), between.decode("ascii"), int(spelled.group(3)))


# OpenBSD's hostname.if(5) writes an IPv6 length as a bare number after the address: `inet6
# 2001:db8:a:10::7 64`, `inet6 alias 2001:db8:a:10::8 64` (t29-33, finding 08: it stayed 64).
_INET6_BEFORE = lazy_re.compile(rb"(?m)(?:^|[ \t])inet6[ \t]+(?:alias[ \t]+)?\Z")
_BARE_AFTER = lazy_re.compile(rb"([ \t]+)([0-9]{1,3})(?=[ \t]|#|\r?$)", re.M)


def bare_length(data: bytes, start: int, end: int) -> Length | None:
    """The length of OpenBSD's `inet6 [alias] ADDRESS LENGTH` (hostname.if), for the IPv6 address
    at `start`..`end`: the number after it where `inet6` (and `alias`) stands right before it."""
    line = data.rfind(b"\n", 0, start) + 1
    if _INET6_BEFORE.search(data, line, start) is None:
        return None
    found = _BARE_AFTER.match(data, end)
    if found is None or int(found.group(2)) > 128:
        return None
    return Length(found.end(), found.group(1).decode("ascii"), int(found.group(2)))


# The IPv6 head of a dotted tail: `::ffff:`, `0:0:0:0:0:ffff:`, `64:ff9b::`.
_V6_HEAD = lazy_re.compile(rb"(?<![0-9A-Za-z.:])[0-9A-Fa-f:]*:\Z")


def mapped_shift(data: bytes, start: int) -> int:
    """96 where the IPv4 address at `start` is the dotted tail of an IPv4-mapped (`::ffff:`) or
    NAT64 (`64:ff9b::`) IPv6 address, whose length counts the 96 bits before it; else 0."""
    head = _V6_HEAD.search(data, max(0, start - 40), start)
    if head is None:
        return 0
    try:
        value = int(ipaddress.IPv6Address(head.group().decode("ascii") + "0.0.0.0"))
    except ValueError:
        return 0
    return MAPPED_SHIFT if value >> 32 in (0xFFFF, 0x0064FF9B << 64) else 0


def v6_mask_length(text: str) -> int | None:
    """The prefix length an IPv6 netmask spelled as an address gives (`ffff:ffff:ffff:ffff::`: 64),
    None for any other text (an address that is no run of ones then zeros, `::`, all ones)."""
    if ":" not in text:
        return None
    try:
        value = int(ipaddress.IPv6Address(text))
    except ValueError:
        return None
    full = (1 << 128) - 1
    inverted = value ^ full
    if value in (0, full) or (inverted & (inverted + 1)) != 0:
        return None
    return bin(value).count("1")


def v6_netmask(net: IPNetwork) -> ipaddress.IPv6Address:
    return ipaddress.IPv6Address(int(net.netmask))


_V6_MASK_AFTER = lazy_re.compile(rb"/([0-9A-Fa-f:]*:[0-9A-Fa-f:]*)(?![0-9A-Za-z:.])")


def v6_masked_length(data: bytes, end: int) -> int | None:
    """The length of an IPv6 netmask right after the address ending at `end` (ip6tables'
    `2001:db8:a::/ffff:ffff:ffff::`), or None."""
    found = _V6_MASK_AFTER.match(data, end)
    return v6_mask_length(found.group(1).decode("ascii")) if found is not None else None


# -- a key's family by its name ---------------------------------------------------------------

_KEY_WORD = lazy_re.compile(rb"[A-Za-z][A-Za-z0-9_-]*")
_TAG6 = lazy_re.compile(rb"(?i)ip6|inet6|(?:v|[a-z_-])6(?![0-9A-Za-z])")
_TAG4 = lazy_re.compile(rb"(?i)ip4|inet4|(?:v|[a-z_-])4(?![0-9A-Za-z])")


def key_family(key: bytes) -> int | None:
    """6 or 4 where a key's name says its family (`prefix6`, `<subnetv6>`, `address6`, `ip6addr`,
    `ipv6_address`; `ipv4_netmask`), else None. `key` is its line up to the value."""
    words = _KEY_WORD.findall(key)  # the key's own name: the last word before the value (a flow
    name = words[-1] if words else b""  # mapping's line holds other keys' values: `2001:db8:a6::1`)
    tag6, tag4 = _TAG6.search(name), _TAG4.search(name)
    if tag6 is not None and tag4 is None:
        return 6
    if tag4 is not None and tag6 is None:
        return 4
    return None


def length_family(key: bytes, text: str) -> int | None:
    """A length's family: a dotted mask is IPv4's, a length over 32 and an IPv6 mask IPv6's, else
    what its key's name says (None: either)."""
    if "." in text:
        return 4
    if ":" in text or (text.isdigit() and int(text) > 32):
        return 6
    return key_family(key)


def owners_of_family(family: int | None, named: list[tuple[str, int | None]]) -> list[str]:
    """The addresses of a stanza (each with its key's family) that a length of `family` may be the
    length of: an IPv6 one's IPv6 addresses, an IPv4 one's IPv4 addresses, and an untagged one's
    addresses on keys not tagged IPv6 (`<subnet>` beside `<ipaddr>`, not `<ipaddrv6>`: that has
    `<subnetv6>`), all of them where every key is so tagged."""
    if family == 6:
        return [t for t, f in named if ":" in t and f != 4]
    if family == 4:
        return [t for t, f in named if ":" not in t and f != 6]
    untagged = [t for t, f in named if f != 6]
    return untagged if untagged else [t for t, _ in named]


# -- an address whose role a resize changes (finding 23) -----------------------------------------

def has_network_address(net: IPNetwork) -> bool:
    """Does the network reserve its first address (IPv4 up to /30; IPv6 up to /126, the
    Subnet-Router anycast address)? A /31 (RFC 3021) and a /127 (RFC 6164) use it as a host."""
    return net.prefixlen <= net.max_prefixlen - 2


# The words before an address that make it a host's (an interface's, a gateway's) or a network's.
_HOST_WORD = lazy_re.compile(
    rb"(?i)(?<![A-Za-z0-9])(?:ip[_-]?address|ipaddr|address(?:es)?|addr|inet6?|ifconfig|"
                        rb"local|peer|remote|gateway|gw|via|next-?hop|host|server|endpoint|default-router|"
                        # `ip:` as a key is a host's; nft's `ip saddr` is no word of either
                        rb"router|ip(?:v[46])?(?=[\"']?[ \t]*[:=]))(?![A-Za-z])")
# (`saddr`, `dst`, `AllowedIPs` take a host or a network: written without a length, a host.)
_NET_WORD = lazy_re.compile(rb"(?i)(?<![A-Za-z0-9])(?:network|net|subnet|route|prefix|cidr)(?![A-Za-z])")


def host_becomes_network(old: IPNetwork, new: IPNetwork, address: IPAddress) -> bool:
    """Is `address` offset 0 of an old network with no network address, under a move to one that
    has one (a /31 grown to a /30, a /127 to a /126)?"""
    return (address == old.network_address and not has_network_address(old)
            and has_network_address(new))


def written_as_network(data: bytes, start: int, length: int | None, old_length: int) -> bool:
    """Does the line write the address at `start` as its network: with the old length after it
    (`10.0.48.0/31`) and no host word nearest before it (`Address=`, `ip address`, `inet`), or
    with a network word nearest before it (`network 10.0.48.0 255.255.255.254`, `route`)?"""
    line = data.rfind(b"\n", 0, start) + 1
    words = [(x.start(), "host") for x in _HOST_WORD.finditer(data, line, start)]
    words += [(x.start(), "network") for x in _NET_WORD.finditer(data, line, start)]
    nearest = max(words, default=(0, ""))[1]
    if nearest == "network":
        return True
    return length == old_length and nearest != "host"


ROLE_NOTE = "no host goes there"  # in every role_note: sweep/refusals.py heads its refusal by it


def role_note(text: str, old: IPNetwork, new: IPNetwork) -> str:
    reserved = "the network address" if new.version == 4 else "the Subnet-Router anycast address"
    if old.prefixlen == old.max_prefixlen:
        why = f"a /{old.prefixlen} is one host"
    else:
        rfc = "RFC 3021" if old.version == 4 else "RFC 6164"
        why = f"a /{old.prefixlen} uses its first address as a host, {rfc}"
    return (f"{text} is a host of {old} ({why}), "
            f"and at its offset in {new} it would be {new.network_address}, {reserved} of {new}: "
            f"{ROLE_NOTE}, so the move cannot place it (give it another address by hand)")
