"""size_counts.py (t33-33 findings 13, 14): size counts beside a resized network, broadcast columns."""

from __future__ import annotations

import ipaddress

from renamer.match import Matcher
from renamer.prefix_moves import PrefixMove
from renamer.size_counts import count_matches, new_count


def _move(old: str, new: str) -> PrefixMove:
    return PrefixMove(ipaddress.ip_network(old), ipaddress.ip_network(new))


def test_new_count_is_the_one_function_the_value_matches() -> None:
    move = _move("10.0.48.0/24", "10.0.60.0/22")
    assert new_count(move, "usable_hosts", 254) == ("usable hosts", 1022)
    assert new_count(move, "Hosts", 256) == ("addresses", 1024)
    assert new_count(move, "hosts", 37) is None  # hosts in use: no function of the length
    assert new_count(move, "vlan", 254) is None  # not a count's name
    v6 = _move("2001:db8:a::/48", "2001:db8:a::/52")
    assert new_count(v6, "subnets_64", 65536) == ("/64s", 4096)
    assert new_count(_move("10.0.48.0/29", "10.0.48.0/28"), "usable", 6) == ("usable hosts", 14)


def test_yaml_counts_and_the_written_residual() -> None:
    move = _move("10.0.48.0/24", "10.0.60.0/22")
    data = b"lab:\n  cidr: 10.0.48.0/24\n  usable_hosts: 254\n  total_addresses: 256\n"
    found = [(m.old, m.new, m.refused) for m in count_matches(data, "s.yaml", [], [move])]
    assert found == [("254", "1022", None), ("256", "1024", None)]
    written = b"lab:\n  cidr: 10.0.60.0/22\n  usable_hosts: 254\n"
    assert [(m.old, m.refused) for m in count_matches(written, "s.yaml", [], [move])] == [("254", "tied-length")]
    # pretty-printed JSON and HCL siblings, a one-line object
    pretty = (b'{\n  "lab": {\n    "cidr": "10.0.48.0/24",\n    "usable_hosts": 254,\n    "addresses": 256,\n'
              b'    "size": 256\n  }\n}\n')  # `size` (a disk's as often): said, never written (round 7)
    assert [(m.old, m.new, m.refused) for m in count_matches(pretty, "s.json", [], [move])] == \
        [("254", "1022", None), ("256", "1024", None), ("256", "256", "tied-length")]
    hcl = b'lab = {\n  cidr         = "10.0.48.0/24"\n  usable_hosts = 254\n}\n'
    assert [(m.old, m.new) for m in count_matches(hcl, "x.tf", [], [move])] == [("254", "1022")]
    inline = b'subnets = [{"cidr": "10.0.48.0/24", "hosts": 254}, {"cidr": "10.9.0.0/24", "hosts": 254}]\n'
    assert [(m.old, m.new) for m in count_matches(inline, "x.json", [], [move])] == [("254", "1022")]
    # two networks in the mapping: no one network's count
    both = b"lab:\n  cidr: 10.0.48.0/24\n  peer: 10.9.0.0/24\n  usable_hosts: 254\n"
    assert count_matches(both, "s.yaml", [], [move]) == []


def test_table_counts_and_a_broadcast_column() -> None:
    move = _move("10.0.48.0/24", "10.0.60.0/22")
    matcher = Matcher(networks=[(move.old, move.new)])
    data = b"network,prefix_length,broadcast,usable_hosts\n10.0.48.0,24,10.0.48.255,254\n"
    found = matcher.table_lengths(data, "ipam.csv", matcher.find(data))
    assert [(m.old, m.new, m.refused) for m in found] == [
        ("10.0.48.0", "10.0.60.0", None), ("24", "22", None), ("10.0.48.255", "10.0.63.255", None),
        ("254", "1022", None)]
    other = b"network,prefix_length,gateway\n10.0.48.0,24,10.0.48.255\n"
    kept = matcher.table_lengths(other, "ipam.csv", matcher.find(other))
    assert [m.refused for m in kept if m.old == "10.0.48.255"] == ["broadcast"]
    assert move.new.broadcast_address == ipaddress.ip_address("10.0.63.255")


def test_count_names_read_by_their_words() -> None:
    """Round 7 (q33-counts): names not listed, read by their words; bare sizes only `maybe`."""
    from renamer.size_counts import kind

    for name in ("max_hosts", "num_addresses", "usableHostCount", "ipCapacity", "total_ips", "subnet_size",
                 "hosts", "host_count", "address_count"):
        assert kind(name) == "count", name
    for name in ("size", "capacity", "count", "total", "pool_size"):
        assert kind(name) == "maybe", name
    for name in ("disk_size", "ip", "host", "vlan", "hostname", "prefix_length", "hosts_file", "address"):
        assert kind(name) is None, name


def test_a_mask_column_gives_the_rows_network_its_length() -> None:
    """t36-33 finding 08: `| IoT | 192.168.40.0 | 255.255.255.0 | 254 |` is 192.168.40.0/24's row."""
    move = PrefixMove(ipaddress.ip_network("192.168.40.0/24"), ipaddress.ip_network("192.168.40.0/22"))
    table = b"| VLAN | Network | Mask | Hosts |\n|---|---|---|---|\n| IoT | 192.168.40.0 | 255.255.255.0 | 254 |\n"
    assert [(m.old.strip(), m.new.strip()) for m in count_matches(table, "t.md", [], [move])] == [("254", "1022")]
    other = table.replace(b"| Mask |", b"| Gateway |")  # no mask column: no length, no count
    assert count_matches(other, "t.md", [], [move]) == []
