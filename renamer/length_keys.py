"""The names of keys that hold a prefix length, beside those `prefix_moves` read first (outside pass
t29-33, findings 04, 13, 17, 22). Pure vocabulary: `prefix_moves` builds its key patterns from it.

* A length word with a tail: `mask_bits`, `maskbits`, `cidr_bits`, `cidr_len`, `cidr_suffix`,
  `netbits`, `net_bits`, `netmask_bits`, `network_bits`, `subnet_bits` (pfSense's virtual IPs),
  `prefixlen`, `prefix_length`, `masklen`, `mask_length`, and a `size` tail after a length word
  (`prefix_size`, `prefixSize`, `cidr_size`, `cidr_block_size`; t31-33 finding 10): as strong as
  `prefix` or `netmask` alone (`size` alone is no length word).
* A weak tail after a name of its own (`lab_bits`, `LAN_LEN`, `lanSuffix`) or alone (`LEN=24`,
  `bits: 24`, `length: 24`): `len`, `length`, `bits` and `suffix` name many other counts (`key_bits`,
  `max_len`), so such a key is a length only where an address key of the same own name ties it
  (`lab_network`, `LAN_NET`), or, alone, where its stanza's address keys name the moved network
  only; never a residual where nothing ties it.
* `=>` assigns as `:` and `=` do (Puppet `prefix => 24`, PHP `'prefix' => 24`, Perl, Ruby
  `:netmask => '255.255.255.0'`).
"""

from __future__ import annotations

import re

from renamer import lazy_re

SEP = rb"(?:=>|[:=])"
TAILS = rb"(?:len(?:gth)?|bits|suffix)"
# `size` only after a length word (`prefix_size`, `prefixSize`, `cidr_size`, `cidr_block_size`:
# t31-33, finding 10), never alone: `size` alone names a disk's, a pool's, a file's.
# (`subnet_size`, `network_size` may count addresses: no length word takes `size` there.)
COMPOUND = (rb"(?:(?:prefix|cidr|netmask|mask|subnet[_-]?mask|subnet|network|net)[_-]?" + TAILS
            + rb"|(?:prefix|cidr(?:[_-]?block)?|netmask|mask|subnet[_-]?mask)[_-]?size)")
WEAK = TAILS
# One of these stands in every key a tail names (a byte search before the regex's scan).
TAIL_NEEDLES = (b"len", b"Len", b"LEN", b"its", b"ITS", b"ffix", b"FFIX")

# A weak tail, its name's own part before it (`lab_bits`, `LAN_LEN`, `labBits`) or none (`LEN`).
WEAK_KEY = lazy_re.compile(
    rb"(?:(?<![A-Za-z0-9_.-])|(?<=[A-Za-z0-9][_.-])|(?<=[a-z0-9])(?=[A-Z]))(?i:" + TAILS + rb")"
    rb"[\"']?[ \t]*" + SEP + rb"[ \t]*[\"']?([0-9]{1,3})(?![0-9.A-Za-z_])")
_OWN = lazy_re.compile(rb"[A-Za-z0-9_.-]*\Z")
_ADDRESS_WORDS = rb"(?:ip|ipv4|ipv6|ipaddr|ip[_-]?address|address(?:es)?|addr|network|net|subnet|cidr|prefix)"


def own_name(data: bytes, key_start: int) -> bytes:
    """The own part of a weak key's name that starts its tail at `key_start`: `lab` of `lab_bits`,
    `LAN` of `LAN_LEN`, `lab` of `labBits`, empty for `LEN`."""
    found = _OWN.search(data, max(0, key_start - 64), key_start)
    name = found.group() if found is not None else b""
    return name.rstrip(b"_.-").lstrip(b"_.-")


def address_key(own: bytes) -> re.Pattern[bytes]:
    """An address key of the own name `own` and its value's start: `lab_network = "`, `LAN_NET=`,
    `labAddress: `."""
    return re.compile(rb"(?i)(?<![A-Za-z0-9_])" + re.escape(own) + rb"(?:[_.-]|(?=[A-Za-z]))" + _ADDRESS_WORDS
                      + rb"[\"']?[ \t]*" + SEP + rb"[ \t]*[\"']?")
