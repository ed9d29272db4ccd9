"""An SNMP OID whose instance index is an old address (issue 33, outside pass t36-33, finding 14):
`IP-MIB::ipAdEntNetMask.192.168.40.1`, `.1.3.6.1.2.1.4.20.1.3.192.168.40.1`, a Telegraf or
Zabbix item's `oid`. The address tables (ipAdEnt*, ipNetToMedia*, ipRoute*, ipCidrRoute*, BGP4-MIB
peers, OSPF neighbours) are indexed by addresses: the agent beside it moved, the index kept the
old address (no exact rule reads an address with a `.` on its left), and every poll returned "No
Such Instance"; sweep 0, verify OK.

Read: an index after a MIB-qualified object (`SOME-MIB::object.`), after a bare object of an
address-indexed table (`ipAdEntNetMask.`), or the last four numbers of a numeric OID under
`1.3.6.1` (with or without its leading dot): under an address-indexed table's own OID, any
address a move carries; under any other, only a renamed address spelled whole. Where four
consecutive numbers of the index are such an address, it is a residual `snmp-index`: nothing
rewritten (an index may hold a mask, a ToS and a next hop beside the address, and which part the
poller means is the MIB's), so verify fails until a person writes the new index. Pure.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable

from renamer import lazy_re
from renamer.literal_readers import LiteralReader
from renamer.names import IPNetwork, v4_renames
from renamer.occurrences import Match

REASON = "snmp-index"
_TABLES = (r"ipAdEnt|ipNetToMedia|ipNetToPhysical|ipRoute|ipCidrRoute|inetCidrRoute|bgpPeer|bgp4PathAttr|"
           r"ospfNbr|ospfIf|ospfVirtNbr|atNetAddress|atPhysAddress|atIfIndex|tcpConn|udpLocal|"
           r"ipAddressIfIndex|ipAddressType|ipAddressPrefix|ipAddressStatus")
_OID = lazy_re.compile(
    rb"(?:[A-Za-z][A-Za-z0-9-]*-MIB::[A-Za-z][A-Za-z0-9]*"
    rb"|(?<![A-Za-z0-9_.])(?:" + _TABLES.encode() + rb")[A-Za-z0-9]*"
    rb"|(?<![A-Za-z0-9_.])\.?1\.3\.6\.1(?:\.[0-9]+)+?)"
    rb"(?P<index>(?:\.[0-9]{1,10}){4,})(?![0-9A-Za-z]|\.[0-9])")
LITERALS = (b"-MIB::", b"1.3.6.1.", *(t.encode() for t in _TABLES.split("|")))
# The numeric OIDs of those tables' entries (MIB-II, IP-FORWARD-MIB, IP-MIB, BGP4-MIB, OSPF-MIB):
# under them an index holds an address. Any other numeric OID (an enterprise subtree, UCD-SNMP's
# laLoad `1.3.6.1.4.1.2021.10.1.3.1`) is indexed by what its MIB says, seldom an address: its tail
# is one only where it spells a renamed address itself, never for merely lying in a moved network
# (t37-break, finding 12: laLoad.1 under a move of 10.1.3.0/24 read as the index 10.1.3.1).
_ADDRESS_TABLES = tuple(f"1.3.6.1.2.1.{entry}.".encode() for entry in (
    "3.1.1", "4.20.1", "4.21.1", "4.22.1", "4.24.4.1", "4.24.7.1", "4.34.1", "4.35.1", "6.13.1", "7.5.1",
    "15.3.1", "15.6.1", "14.7.1", "14.10.1", "14.11.1"))


class SnmpIndexes(LiteralReader):
    """The renamed IPv4 addresses and moved IPv4 networks, read out of OID instance indexes."""

    def __init__(self, addresses: Iterable[tuple[str, str]],
                 networks: Iterable[tuple[IPNetwork, IPNetwork]] = ()) -> None:
        self._renamed = v4_renames(addresses)
        self._moves = [(old, new) for old, new in networks if old.version == 4]
        self.literals = LITERALS if (self._renamed or self._moves) else ()

    def find(self, data: bytes) -> list[Match]:
        """Each old address in an OID's index, refused."""
        if not self.literals or not self.holds_literal(data):
            return []
        out: list[Match] = []
        for found in _OID.finditer(data):
            parts = found.group("index").decode("ascii").split(".")[1:]
            numeric = found.group().lstrip(b".").startswith(b"1.3.6.1")
            starts = [len(parts) - 4] if numeric else range(len(parts) - 3)
            base = found.start("index")
            offsets = [base + sum(len(p) + 1 for p in parts[:i]) + 1 for i in range(len(parts))]
            for i in starts:
                window = parts[i:i + 4]
                if any(len(p) > 1 and p[0] == "0" for p in window) or any(int(p) > 255 for p in window):
                    continue
                address = ipaddress.IPv4Address(".".join(window))
                known = not numeric or found.group().lstrip(b".").startswith(_ADDRESS_TABLES)
                why = self._why(address, moved=known)
                if why is None:
                    continue
                start = offsets[i]
                text = ".".join(window)
                out.append(Match(start, start + len(text), text, text, "address", refused=REASON,
                                 note=f"`{text}` is the index of an SNMP object: {why}; the agent answers "
                                      "for its new address, so write the new index by hand"))
        return out

    def _why(self, address: ipaddress.IPv4Address, *, moved: bool = True) -> str | None:
        if address in self._renamed:
            return f"{address} is renamed {self._renamed[address]}"
        for old, new in self._moves if moved else ():
            if address in old:
                return f"{address} lies in {old}, which moves to {new}"
        return None


def snmp_matches(data: bytes, matches: list[Match], indexes: SnmpIndexes) -> list[Match]:
    """`matches` with each refused index (SnmpIndexes.find) no match covers."""
    found = indexes.find(data)
    added = [n for n in found if not any(m.start < n.end and n.start < m.end for m in matches)]
    return sorted([*matches, *added], key=lambda m: m.start) if added else matches
