"""Unit tests of snmp_indexes: an OID's instance index spelling an old address (t36-33 finding 14)."""

from __future__ import annotations

import ipaddress

import pytest

from renamer.snmp_indexes import SnmpIndexes

MOVE = [(ipaddress.ip_network("192.168.40.0/24"), ipaddress.ip_network("10.20.0.0/22"))]


@pytest.mark.parametrize("line", [
    b"snmpget -v2c -c public host IP-MIB::ipAdEntNetMask.192.168.40.1",
    b"snmpget host .1.3.6.1.2.1.4.20.1.3.192.168.40.1",
    b'oid = "1.3.6.1.2.1.4.20.1.2.192.168.40.1"',
    b"key: ipAdEntIfIndex.192.168.40.1",
    b"BGP4-MIB::bgpPeerState.192.168.40.1",
    b"IP-MIB::ipNetToMediaPhysAddress.3.192.168.40.1",  # ifIndex.address
    b"RFC1213-MIB::ipRouteNextHop.192.168.40.0",
    b"IP-FORWARD-MIB::ipCidrRouteIfIndex.10.9.0.0.255.255.255.0.0.192.168.40.1",  # dest.mask.tos.hop
])
def test_an_old_address_in_an_index_is_refused(line: bytes) -> None:
    found = SnmpIndexes([], MOVE).find(line)
    assert [m.refused for m in found] == ["snmp-index"], found
    m = found[0]
    assert line[m.start:m.end].decode() == m.old and m.old.startswith("192.168.40."), m
    assert m.new == m.old


@pytest.mark.parametrize("line", [
    b"IP-MIB::ipAdEntNetMask.10.9.0.1",  # another network
    b"snmpget 192.168.40.1 sysUpTime.0",  # the agent: the exact rules'
    b"version 1.3.6.1.192.168.40.1.7",  # not the last four numbers of a numeric OID
    b"server.192.168.40.1",  # no OID
    b"IP-MIB::ipAdEntNetMask.192.168.040.1",  # padded: dressed_addresses'
])
def test_other_dotted_runs_are_left(line: bytes) -> None:
    assert SnmpIndexes([], MOVE).find(line) == []


def test_a_renamed_address_in_an_index_is_refused() -> None:
    found = SnmpIndexes([("10.0.0.70", "10.0.1.70")]).find(b"IP-MIB::ipAdEntNetMask.10.0.0.70\n")
    assert [(m.old, m.refused) for m in found] == [("10.0.0.70", "snmp-index")]
    assert SnmpIndexes([]).literals == ()


@pytest.mark.parametrize("line", [
    b"1.3.6.1.4.1.2021.10.1.3.1",  # UCD-SNMP laLoad.1 (t37-break finding 12): its index is .1
    b"oid: .1.3.6.1.4.1.2021.10.1.5.2",  # laLoadInt.2
    b'oid = "1.3.6.1.2.1.2.2.1.10.192.168.40.1"',  # ifInOctets: ifIndex-indexed, no address
    b"1.3.6.1.4.1.9.9.109.1.1.1.1.8.192.168.40.7",  # an enterprise table: its MIB says its index
])
def test_a_numeric_oid_outside_the_address_tables_is_no_index_of_a_moved_network(line: bytes) -> None:
    move = [(ipaddress.ip_network("10.1.3.0/24"), ipaddress.ip_network("10.1.9.0/24")), *MOVE]
    assert SnmpIndexes([], move).find(line) == []


def test_a_numeric_oid_anywhere_spelling_a_renamed_address_is_still_refused() -> None:
    found = SnmpIndexes([("192.168.40.7", "10.20.0.7")]).find(b"1.3.6.1.4.1.9.9.109.1.1.1.1.8.192.168.40.7")
    assert [(m.old, m.refused) for m in found] == [("192.168.40.7", "snmp-index")]
