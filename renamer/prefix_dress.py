"""A network's length written after its address in another dress than `/N` (outside pass t29-33,
findings 03 and 15). Pure and I/O free; `match.Matcher._lengthed` asks it where
`prefix_spellings.length_after` finds no plain length.

* JSON's escaped solidus `10.0.48.0\\/24` (PHP's json_encode writes it by default; every JSON
  reader, and sed between slashes, reads `\\/` as `/`).
* A percent-encoded slash `10.0.48.0%2F24` (`%2f`): in a URL's path the encoded slash keeps the
  network in one segment, so a real `/` may follow (`/subnets/10.0.48.0%2F24/hosts`).
* A REST path that puts the length in the segment after the address, after a segment that says so
  (phpIPAM's `/api/app/subnets/cidr/10.0.48.0/24/`, `/subnets/search/10.0.48.0/24/`): the `/24/`
  is the length, where elsewhere `/24/x` is a path.
* Varnish VCL's ACL entries, the length outside the address's quotes: `"10.0.48.0"/24;`,
  `! "2001:db8:a::" / 48;` (the outside pass's round 7): read only where a quote opens right
  before the address.
* An identifier that carries the network with its length after a dash or an underscore: Proxmox
  VE SDN subnet ids (`subnet: lab-10.0.48.0-24`, `lab-2001:db8:a:10::-64`, the zone's name glued
  before), and `10.0.48.0_24` (a file or object name): read as a length only where the address is
  that length's network address (never a range's first end, `10.0.48.100-200`, nor a host).

Each is returned as `prefix_spellings.Length`, its `between` kept, so the length is written back
in its own dress (`\\/22`, `%2F22`, `/22/`, `-22`).
"""

from __future__ import annotations

import ipaddress

from renamer import lazy_re
from renamer.names import IPAddress
from renamer.prefix_spellings import Length

# The digits end as a length does: no digit, letter, `_` or `.digit` after them (a real `/` may
# follow an encoded slash's segment; or sed's delimiter after `\/`; an escaped `\/` after it makes it a path).
_ESCAPED = lazy_re.compile(rb"\\/([0-9]{1,3})(?![0-9A-Za-z_])(?!\.[0-9A-Za-z])(?!\\/)")
_ENCODED = lazy_re.compile(rb"(%2[Ff])([0-9]{1,3})(?![0-9A-Za-z_])(?!\.[0-9A-Za-z])(?!%2[Ff])")
_SEGMENT = lazy_re.compile(rb"/([0-9]{1,3})(?=/|[\"'?#\s]|\Z)")
# A URL's host in the same dress (`http:\/\/10.0.48.3\/29`, `http%3A%2F%2F10.0.48.3%2F29`): its path.
_HOST = lazy_re.compile(rb"(?i)(?:\\/\\/|%2F%2F)\Z")
# VCL's `"10.0.48.0"/24`: the closing quote, then the length (blanks allowed, as VCC's lexer reads).
_QUOTED = lazy_re.compile(rb"(\"[ \t]*/[ \t]*)([0-9]{1,3})(?![0-9A-Za-z_])(?!\.[0-9A-Za-z])")
# The path segment before the address that makes the next one its length (phpIPAM's REST API).
_CIDR_SEGMENT = lazy_re.compile(rb"(?i)/(?:cidr|search)/\Z")
# `-24`, `_24` ending as a length does (not `-24-x`, `_24.5`).
_GLUED = lazy_re.compile(rb"([-_])([0-9]{1,3})(?![0-9A-Za-z_])(?!\.[0-9A-Za-z])(?![-_][0-9A-Za-z])")
# A Proxmox-style identifier glued before the address: `lab-` (the SDN zone's name).
_ID_HEAD = lazy_re.compile(rb"[A-Za-z][A-Za-z0-9_]*-\Z")


def dressed_length(data: bytes, start: int, end: int, address: IPAddress) -> Length | None:
    """The length in another dress after the address at [start, end), or None."""
    if _HOST.search(data, max(0, start - 6), start) is not None:
        return None
    escaped = _ESCAPED.match(data, end)
    if escaped is not None:
        return Length(escaped.end(), "\\/", int(escaped.group(1)))
    encoded = _ENCODED.match(data, end)
    if encoded is not None:
        return Length(encoded.end(), encoded.group(1).decode("ascii"), int(encoded.group(2)))
    quoted = _QUOTED.match(data, end) if data[start - 1:start] == b'"' else None
    if quoted is not None:
        return Length(quoted.end(), quoted.group(1).decode("ascii"), int(quoted.group(2)))
    segment = _SEGMENT.match(data, end)
    if segment is not None and _CIDR_SEGMENT.search(data, max(0, start - 8), start) is not None:
        return Length(segment.end(), "/", int(segment.group(1)))
    glued = _GLUED.match(data, end)
    if glued is None:
        return None
    value = int(glued.group(2))
    if not _network_address(address, value):
        return None
    if glued.group(1) == b"-" and _ID_HEAD.search(data, max(0, start - 64), start) is None \
            and address.version == 4:
        return None  # `10.0.48.0-24` alone may be a range of last octets (.0 to .24)
    return Length(glued.end(), glued.group(1).decode("ascii"), value)


def _network_address(address: IPAddress, length: int) -> bool:
    """Is `address` the network address of a network of `length` (`10.0.48.0` and 24; not
    `10.0.48.8` and 24, nor any address and a length past its family's)?"""
    if not 0 < length <= address.max_prefixlen:
        return False
    try:
        ipaddress.ip_network(f"{address}/{length}")
    except ValueError:
        return False
    return True
