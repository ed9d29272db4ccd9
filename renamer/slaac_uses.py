"""Where an IPv6 /64 is one that SLAAC or EUI-64 uses, so a move of it to another length cannot set
it (outside pass t29-33, findings 09 and 11). Pure and I/O free; `match.Matcher._lengthed` asks it
of an address of a /64 that a move gives another length.

SLAAC takes only a /64 (RFC 4862 5.5.3: the advertised prefix and a 64-bit interface identifier
make 128 bits), and an EUI-64 address fills the low 64 bits from the interface's MAC address. A /64
written on such a line and rewritten to `/60` stops address autoconfiguration on the link; under a
shrink the hosts configure addresses outside the new network. So each is a `mask` residual, left as
written, wherever its line (or its block) says so:

* a router advertisement's prefix: the word before it is `prefix` (radvd's `prefix A/64 {`, VyOS's
  `router-advert ... prefix`, JunOS `router-advertisement ... prefix`, Cisco IOS `ipv6 nd prefix`,
  BIRD's radv `prefix`, OpenWrt's `option prefix`, RouterOS `/ipv6 nd prefix add prefix=`), except
  a prefix-list's entry (`prefix-list6 ... rule 5 prefix A/64`, on its line or in its block) and an
  INI key `Prefix=` in a section other than systemd-networkd's `[IPv6Prefix]` (`[IPv6AddressLabel]
  Prefix=` is an RFC 6724 address-selection label, `[IPv6PREF64Prefix]` a NAT64 prefix: finding 11);
* an EUI-64 address: `eui-64` / `eui64` on its line (JunOS `family inet6 address A/64 eui-64`, Cisco
  IOS `ipv6 address A/64 eui-64`, VyOS `ipv6 address eui64 A/64`, RouterOS `eui-64=yes`);
* a RouterOS `/ipv6 address` whose prefix is advertised: `advertise=yes`, which RouterOS sets by
  default on a /64 address, so any `add address=A/64` under `/ipv6 address` without `advertise=no`;
* dnsmasq's `dhcp-range` in a SLAAC mode (`ra-only`, `slaac`, `ra-names`, `ra-stateless`): the hosts
  of the range's /64 make their own addresses;
* (never a router advertisement's prefix whose autonomous flag is off: IOS `no-autoconfig`, radvd
  `AdvAutonomous off;` in its block, networkd `AddressAutoconfiguration=no` in its `[IPv6Prefix]`,
  JunOS `no-autonomous`, VyOS `no-autonomous-flag`, BIRD `autonomous no`, RouterOS `autonomous=no`:
  the prefix gives on-link information only, no host configures an address from it, so it follows
  the move as the interface's address does; t31-33, finding 17)
* FreeBSD rtadvd.conf's `:addr="A":` (its `prefixlen#64` beside it), and a Windows route with
  `publish=yes` (netsh), which go out in router advertisements.
"""

from __future__ import annotations

from renamer import lazy_re, prefix_moves

# `[IPv6Prefix]`: the INI section header nearest above a line.
_SECTION = lazy_re.compile(rb"(?m)^[ \t]*\[([A-Za-z0-9_.-]+)\][ \t]*\r?$")
_INI_PREFIX = lazy_re.compile(rb"(?im)(?:^|[ \t])prefix[ \t]*=[ \t]*[\"']?\Z")
_PREFIX_LIST = lazy_re.compile(rb"(?i)prefix-list|route-filter|prefix-set")
_EUI64 = lazy_re.compile(rb"(?i)(?<![A-Za-z0-9-])eui-?64(?![A-Za-z0-9-])(?![ \t]*=[ \t]*no\b)")
_ADVERTISE = lazy_re.compile(rb"(?i)(?<![A-Za-z0-9-])advertise[ \t]*=[ \t]*(yes|no)\b")
_ROUTEROS_ADDRESS = lazy_re.compile(rb"(?im)^[ \t]*/ipv6[ \t]+address\b")
_ROUTEROS_MENU = lazy_re.compile(rb"(?m)^[ \t]*/[a-z]")
_ROUTEROS_ADD = lazy_re.compile(rb"(?im)(?:^|[ \t])(?:add|set)[ \t].*\baddress[ \t]*=[ \t]*\Z")
# Windows `netsh interface ipv6 add route A/64 "LAN" publish=yes`: the route goes out in RAs.
_PUBLISH = lazy_re.compile(rb"(?i)(?<![A-Za-z0-9-])publish[ \t]*=[ \t]*(?:yes|age)\b")
# FreeBSD rtadvd.conf(5), termcap style: `:addr="2001:db8:a:10::":prefixlen#64:`.
_RTADVD_ADDR = lazy_re.compile(rb"(?i):addr[0-9]*[ \t]*=[ \t]*\"?\Z")
_DNSMASQ_RANGE = lazy_re.compile(rb"(?i)^[ \t]*(?:--)?dhcp-range[ \t]*=")
_DNSMASQ_SLAAC = lazy_re.compile(rb"(?i),[ \t]*(ra-only|slaac|ra-names|ra-stateless)[ \t]*(?=,|#|\r?$)")

# The autonomous (A) flag off, on the prefix's line or in its block / section.
_NO_AUTONOMOUS = lazy_re.compile(rb"(?i)(?<![A-Za-z0-9-])(?:no-autoconfig|no-autonomous(?:-flag)?"
                            rb"|AdvAutonomous[ \t]+off"
                            rb"|AddressAutoconfiguration[ \t]*=[ \t]*(?:no|false|off|0)"
                            rb"|autonomous[ \t]*(?:=[ \t]*)?(?:no|off|false))(?![A-Za-z0-9-])")
_BLOCK_LINES = 40  # how far down a prefix's own block or section is read

_MOST_LINES = 400  # how far up a block's header or a RouterOS menu is looked for


def _line(data: bytes, start: int) -> tuple[int, int]:
    line_start = data.rfind(b"\n", 0, start) + 1
    line_end = data.find(b"\n", start)
    return line_start, len(data) if line_end < 0 else line_end


def _section(data: bytes, line_start: int) -> bytes | None:
    """The INI section the line at `line_start` is in (`IPv6Prefix`), None where no header is above."""
    headers = _SECTION.findall(data, 0, line_start)
    return headers[-1] if headers else None


def _in_prefix_list(data: bytes, line_start: int) -> bool:
    """Is the line inside a `{ }` block whose header names a prefix list (VyOS config.boot's
    `prefix-list6 PL { rule 5 { prefix A/64 } }`, JunOS `prefix-list`, `route-filter`)?"""
    depth = 0
    end = line_start
    for _ in range(_MOST_LINES):
        if end <= 0:
            return False
        begin = data.rfind(b"\n", 0, end - 1) + 1
        line = data[begin:end]
        depth += line.count(b"}") - line.count(b"{")
        if depth < 0:  # an opener of a block the line is in
            if _PREFIX_LIST.search(line):
                return True
            depth = 0
        end = begin
    return False


def _routeros_menu(data: bytes, line_start: int) -> bool:
    """Is the line under RouterOS's `/ipv6 address` menu (an export's header line above it, or the
    line itself a `/ipv6 address add ...` command)?"""
    menus = list(_ROUTEROS_MENU.finditer(data, max(0, line_start - 200 * _MOST_LINES), line_start + 1))
    nearest = menus[-1].start() if menus else -1
    return nearest >= 0 and _ROUTEROS_ADDRESS.match(data, nearest) is not None


def _autonomous_off(data: bytes, line_start: int, line_end: int) -> bool:
    """Does the RA prefix on the line say its autonomous flag is off: on the line itself, in the
    `{ }` block the line opens (radvd, BIRD, JunOS), or in its INI section (networkd)?"""
    if _NO_AUTONOMOUS.search(data, line_start, line_end):
        return True
    line = data[line_start:line_end]
    ini = _INI_PREFIX.search(line) is not None or _section(data, line_start) is not None
    depth = line.count(b"{") - line.count(b"}")
    if depth <= 0 and not ini:
        return False
    at = line_end + 1
    for _ in range(_BLOCK_LINES):
        if at >= len(data):
            return False
        end = data.find(b"\n", at)
        end = len(data) if end < 0 else end
        text = data[at:end]
        if depth <= 0 and _SECTION.match(text):
            return False  # the next INI section
        if _NO_AUTONOMOUS.search(text):
            return True
        if depth > 0:
            depth += text.count(b"{") - text.count(b"}")
            if depth <= 0:
                return False  # the prefix's block closed
        at = end + 1
    return False


def slaac_use(data: bytes, start: int) -> str | None:
    """Why the IPv6 prefix or address at `start` is one SLAAC or EUI-64 uses (a note's words), or
    None where its line says nothing of either."""
    line_start, line_end = _line(data, start)
    line = data[line_start:line_end]
    if prefix_moves.ra_prefix(data, start):
        if _PREFIX_LIST.search(line) or _in_prefix_list(data, line_start):
            return None  # a prefix-list's entry: its bounds are prefix_lists.py's
        if _INI_PREFIX.search(data, line_start, start):
            section = _section(data, line_start)
            if section is not None and section.lower() != b"ipv6prefix":
                return None  # `[IPv6AddressLabel] Prefix=`, `[IPv6PREF64Prefix] Prefix=` (finding 11)
        if _autonomous_off(data, line_start, line_end):
            return None  # on-link information only: no host makes an address from it (t31-33, 17)
        return ("a router advertisement's prefix (radvd, VyOS, JunOS, IOS `prefix`, networkd "
                "`[IPv6Prefix] Prefix=`)")
    if _EUI64.search(line):
        return "an EUI-64 address (`eui-64`, `eui64`): its interface identifier fills the low 64 bits"
    advertise = _ADVERTISE.search(line)
    if advertise is not None and advertise.group(1).lower() == b"yes":
        return "a RouterOS address with `advertise=yes`: its prefix goes out in router advertisements"
    if advertise is None and _ROUTEROS_ADD.search(data, line_start, start) \
            and _routeros_menu(data, line_start):
        return ("a RouterOS `/ipv6 address` of a /64, whose prefix RouterOS advertises unless "
                "`advertise=no` says otherwise")
    if _PUBLISH.search(line):
        return "a route Windows publishes in router advertisements (`publish=yes`)"
    if _RTADVD_ADDR.search(data, line_start, start):
        return "a router advertisement's prefix (rtadvd's `:addr=`)"
    if _DNSMASQ_RANGE.match(line) and _DNSMASQ_SLAAC.search(line):
        return "dnsmasq's `dhcp-range` in a SLAAC mode (`ra-only`, `slaac`, `ra-names`, `ra-stateless`)"
    return None
