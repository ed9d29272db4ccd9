"""DHCP reservations as keys: an address (or a name) two reservations of one server may not share.

dnsmasq refuses two `dhcp-host` lines of one address (sweep/keyed.py reads them); every other DHCP
server refuses two reservations of one address the same way, each in its own syntax (break-it
round 23, #09: an address renumbered onto another machine's reservation was warned about and
written in a Kea `reservations` list and in OpenWrt's `config host` sections). Each reservation
address here is a key that sweep/merges.py compares like a dhcp-host address: a renamed one meeting
one that stood already refuses the sweep, naming both lines.

* Kea: `"ip-address": "10.0.0.70"`, each address of `"ip-addresses": [...]` (DHCPv6), in a file
  holding `"reservations"` (one line or pretty-printed);
* OpenWrt UCI: a `config host` section's `option ip` (and its `option name`: both become a dnsmasq
  `dhcp-host` line);
* systemd-networkd: `Address=` of a `[DHCPServerStaticLease]` section;
* Windows DHCP: `Add-DhcpServerv4Reservation ... -IPAddress A`, `netsh dhcp server ... add
  reservedip A MAC`;
* MikroTik RouterOS: `/ip dhcp-server lease add ... address=A`, and `add address=A` under a
  `/ip dhcp-server lease` menu line (an export);
* ISC dhcpd: each address of a host declaration's `fixed-address` (one line or several).
"""

from __future__ import annotations

import re

from renamer import lazy_re
from renamer.sweep.keyed import Found, Key, canonical, is_address

_KEA_ONE = lazy_re.compile(r'"ip-address"\s*:\s*"(?P<a>[^"]+)"')
_KEA_MANY = lazy_re.compile(r'"ip-addresses"\s*:\s*\[(?P<list>[^\]]*)\]')
_QUOTED = lazy_re.compile(r'"(?P<a>[^"]+)"')
_UCI_CONFIG = lazy_re.compile(r"^\s*config\s+(?P<type>[\w-]+)")
_UCI_OPTION = lazy_re.compile(r"""^\s*option\s+(?P<opt>ip|name)\s+(?P<q>["']?)(?P<v>[^"'\s#]+)(?P=q)""")
_INI_SECTION = lazy_re.compile(r"^\s*\[(?P<name>[^\]]+)\]\s*$")
_NETWORKD = lazy_re.compile(r"^\s*Address\s*=\s*(?P<a>\S+)")
_WINDOWS = lazy_re.compile(r"(?i)\bAdd-DhcpServerv[46]Reservation\b[^\r\n]*?-IPAddress[ \t:]+[\"']?"
                      r"(?P<a>[0-9A-Fa-f.:]+)")
_WINDOWS_WHAT = "Windows DHCP reservation address"
_NETSH = lazy_re.compile(r"(?i)\badd[ \t]+reservedip[ \t]+(?P<a>[0-9.]+)")
_ROS_MENU = lazy_re.compile(r"^\s*/(?P<lease>ip\s+dhcp-server\s+lease\s*$)?")
_ROS_ADD = lazy_re.compile(r"^\s*add\b[^\r\n]*?(?<![\w-])address=(?P<a>[0-9A-Fa-f.:]+)")
_DHCPD = lazy_re.compile(r"(?<![\w-])fixed-address6?\s+(?P<list>[^;#]+);")
_MIKROTIK = lazy_re.compile(r"(?:^|[\s/])lease\s+add\b[^\r\n]*?(?<![\w-])address=(?P<a>[0-9A-Fa-f.:]+)")
# What a line each of the searches below reads must hold (in the searches' own case rule): a file
# holding none is not searched line by line (issue 30: three searches a line, 7 ms a merged file).
_SEARCHED = ((_WINDOWS, _WINDOWS_WHAT, re.compile(r"(?i)Reservation")),
             (_NETSH, _WINDOWS_WHAT, re.compile(r"(?i)reservedip")),
             (_MIKROTIK, "RouterOS static lease address", re.compile(r"lease")))


def with_reservations(lines: list[str], keys: dict[int, list[Found]]) -> dict[int, list[Found]]:
    """`keys` (keyed.line_keys's) with each line's reservation keys added."""
    kea = any('"reservations"' in line for line in lines)
    searched, dhcpd = _searched("\n".join(lines))
    section = ""  # the open UCI section's type, or the open INI section's name
    for index, line in enumerate(lines):
        text = line.rstrip("\r")
        if m := _UCI_CONFIG.match(text):
            section = "uci " + m.group("type")
            continue
        if m := _INI_SECTION.match(text):
            section = m.group("name").strip()
            continue
        if m := _ROS_MENU.match(text):  # a RouterOS export's menu line: `/ip dhcp-server lease`
            section = "ros lease" if m.group("lease") else ""
            if m.group("lease"):
                continue
        found: list[Found] = []
        if kea:
            found += [_address("Kea reservation address", x.group("a"), x.start("a"))
                      for x in _KEA_ONE.finditer(text) if is_address(x.group("a"))]
            for many in _KEA_MANY.finditer(text):
                found += [_address("Kea reservation address", x.group("a"), many.start("list") + x.start("a"))
                          for x in _QUOTED.finditer(many.group("list")) if is_address(x.group("a"))]
        if section == "uci host" and (m := _UCI_OPTION.match(text)):
            value, at = m.group("v"), m.start("v")
            if m.group("opt") == "ip" and is_address(value):
                found.append(_address("UCI host (a dnsmasq dhcp-host) address", value, at))
            elif m.group("opt") == "name":
                found.append(Found(Key("UCI host (a dnsmasq dhcp-host) name", "uci host name", value.lower()),
                                   (at, at + len(value)), ""))
        if section == "DHCPServerStaticLease" and (m := _NETWORKD.match(text)) and is_address(m.group("a")):
            found.append(_address("networkd static lease address", m.group("a"), m.start("a")))
        for rule, what in searched:
            found += [_address(what, x.group("a"), x.start("a")) for x in rule.finditer(text)
                      if is_address(x.group("a"))]
        if section == "ros lease" and (m := _ROS_ADD.match(text)) and is_address(m.group("a")):
            found.append(_address("RouterOS static lease address", m.group("a"), m.start("a")))
        for x in _DHCPD.finditer(text) if dhcpd else ():
            found += [_address("dhcpd fixed-address", a.group(), x.start("list") + a.start())
                      for a in re.finditer(r"[^\s,]+", x.group("list")) if is_address(a.group())]
        if found:
            keys.setdefault(index, []).extend(found)
    return keys


def _searched(text: str) -> tuple[list[tuple[re.Pattern[str], str]], bool]:
    """The line searches whose word `text` holds (each with what it finds), and whether it holds a
    dhcpd `fixed-address`."""
    return [(rule, what) for rule, what, word in _SEARCHED if word.search(text)], "fixed-address" in text


def _address(what: str, value: str, at: int) -> Found:
    return Found(Key(what, what, canonical(value)), (at, at + len(value)), "")
