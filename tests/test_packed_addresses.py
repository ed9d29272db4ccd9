"""packed_addresses: pure reads of an IPv4 address packed as DHCP option bytes, in a 6to4 prefix
or an ISATAP id, or in inet_aton's short form (issue 27, t36-sweep findings 12, 21, 22)."""

from __future__ import annotations

import ipaddress
import socket

import pytest

from renamer.occurrences import Match
from renamer.packed_addresses import PackedAddresses, packed_matches

RENAMED = PackedAddresses([("10.0.0.70", "10.0.1.90"), ("10.0.2.5", "10.0.3.6")])
MOVED = PackedAddresses([], [(ipaddress.ip_network("10.0.0.0/24"), ipaddress.ip_network("10.9.0.0/24"))])


def _found(packed: PackedAddresses, text: str) -> list[tuple[str, str, str | None]]:
    return [(m.old, m.new, m.refused) for m in packed.find(text.encode())]


@pytest.mark.parametrize(("line", "old", "new"), [
    ("dhcp-option=43,01:04:0A:00:00:46", "0A:00:00:46", "0A:00:01:5A"),
    ("option 43 hex f104.0a00.0046", "0a00.0046", "0a00.015a"),
    ("/ip dhcp-server option add code=43 value=0x01040a000205", "0a000205", "0a000306"),
    ("-OptionId 43 -Value 0x01,0x04,0x0a,0x00,0x00,0x46", "0a,0x00,0x00,0x46", "0a,0x00,0x01,0x5a"),
    ("option unifi code 43 = 01-04-0a-00-02-05", "0a-00-02-05", "0a-00-03-06"),
    ("dhcp-option=43,01:04:0a:00:00:46:01:04:0a:00:02:05", "0a:00:00:46", "0a:00:01:5a"),
])
def test_option_bytes_of_a_renamed_address_are_rewritten(line: str, old: str, new: str) -> None:
    assert _found(RENAMED, line)[0] == (old, new, None)


@pytest.mark.parametrize(("line", "old", "new"), [
    ("option 43 hex 01 04 0A 00 00 46", "0A 00 00 46", "0A 00 01 5A"),  # Huawei: spaced bytes
    ("option 43 hex 01 04 0a 00 00 46 added", "0a 00 00 46", "0a 00 01 5a"),  # a hex word after
])
def test_spaced_option_bytes_are_rewritten(line: str, old: str, new: str) -> None:
    assert _found(RENAMED, line) == [(old, new, None)]


def test_an_address_as_the_hex_of_its_text_is_rewritten_where_as_long() -> None:
    packed = PackedAddresses([("172.19.18.15", "172.19.18.16"), ("172.19.18.144", "172.19.18.9")])
    line = "option 43 hex 031A3137 322E3139 2E31382E 31352C31 37322E31 392E3138 2E313434"
    found = packed.find(line.encode())
    assert [(m.old, m.new, m.refused) for m in found] == [
        ("3137 322E3139 2E31382E 3135", "3137 322E3139 2E31382E 3136", None),
        ("31 37322E31 392E3138 2E313434", "31 37322E31 392E3138 2E313434", "packed-address")]  # shorter
    rewritten = line.replace(found[0].old, found[0].new).split("hex ")[1].replace(" ", "")
    assert bytes.fromhex(rewritten)[2:].decode() == "172.19.18.16,172.19.18.144"


def test_both_addresses_of_one_option_are_rewritten() -> None:
    assert [m.new for m in RENAMED.find(b"dhcp-option=43,01:04:0a:00:00:46:01:04:0a:00:02:05")] \
        == ["0a:00:01:5a", "0a:00:03:06"]


@pytest.mark.parametrize("line", [
    "hw 00:0a:00:00:46:01",  # a MAC: no DHCP option on the line
    "dhcp-option=43,1:04:0a:00:00:46:7",  # not whole bytes
    "dhcp-option=43,10a0:0004:67",  # the address's digits off a byte boundary
    "option routers 10.0.0.70;",  # a dotted address: the exact rules'
    "dhcp-option=43,0104a0000046",  # no address
    "option 43 hex 0a000047",
])
def test_noop_bytes_that_are_no_renamed_address(line: str) -> None:
    assert _found(RENAMED, line) == []


def test_kea_data_counts_in_a_file_with_option_data_only() -> None:
    assert _found(RENAMED, '"option-data": [\n{"data": "01:04:0a:00:00:46"}]') \
        == [("0a:00:00:46", "0a:00:01:5a", None)]
    assert _found(RENAMED, '{"data": "01:04:0a:00:00:46"}') == []


def test_a_moved_networks_option_bytes_are_a_residual() -> None:
    assert _found(MOVED, "dhcp-option=43,01:04:0a:00:00:46") == [("0a:00:00:46", "0a:00:00:46", "packed-address")]


@pytest.mark.parametrize(("text", "new"), [
    ("2002:a00:46::1", "2002:a00:15a::1"),
    ("2002:0a00:0046:1::", "2002:0a00:015a:1::"),
    ("2002:A00:205::", "2002:A00:306::"),
    ("fe80::5efe:a00:46", "fe80::5efe:a00:15a"),
    ("FE80::200:5EFE:0A00:0046", "FE80::200:5EFE:0A00:015A"),
    ("fe80::5efe:a00:205", "fe80::5efe:a00:306"),
])
def test_6to4_and_isatap_of_a_renamed_address_are_rewritten(text: str, new: str) -> None:
    assert _found(RENAMED, f"ip {text}/48\n") == [(text, new, None)]
    carried = ipaddress.IPv6Address(new)
    v4 = carried.sixtofour or ipaddress.IPv4Address(carried.packed[-4:])
    assert str(v4) in ("10.0.1.90", "10.0.3.6")


@pytest.mark.parametrize("text", ["2001:db8::a00:46", "2002:a00:47::1", "fe80::5eff:a00:46", "2003:a00:46::"])
def test_noop_v6_that_carries_no_renamed_address(text: str) -> None:
    assert _found(RENAMED, f"ip {text}\n") == []


def test_a_moved_networks_6to4_prefix_is_a_residual() -> None:
    assert _found(MOVED, "2002:a00:46::/48") == [("2002:a00:46::", "2002:a00:46::", "packed-address")]


@pytest.mark.parametrize("line", ["ping 10.70", "ssh root@10.0.70", "curl http://10.70:8080/",
                                  "ping 0xa.0x46", "nc -z 10.0X46 22", "wget https://u:p@10.0.517/x",
                                  "traceroute -n 10.517", "ping6 -c1 [10.70]",
                                  "scp -r dist deploy@10.0.70:/srv", "rsync -a x/ root@10.70:/x"])
def test_short_forms_where_a_network_tool_takes_them_are_residuals(line: str) -> None:
    found = _found(RENAMED, line)
    assert [r for _, _, r in found] == ["short-address"], found
    assert socket.inet_aton(found[0][0]) in (socket.inet_aton("10.0.0.70"), socket.inet_aton("10.0.2.5"))


@pytest.mark.parametrize("line", ['"version": "10.0.70"', "upgrade to 10.70", "ping 10.71", "ping 10.70.1",
                                  "ping 110.70", "pip install foo==10.0.517", "ping 10.0.0.70",
                                  "npm install foo@10.0.70", "see https://example.org/v10.70"])
def test_noop_short_forms_elsewhere(line: str) -> None:
    assert _found(RENAMED, line) == []


def test_packed_matches_leaves_what_a_match_covers() -> None:
    data = b"dhcp-option=43,01:04:0a:00:00:46"
    covering = Match(0, len(data), data.decode(), "x", "host")
    assert packed_matches(data, [covering], RENAMED) == [covering]
    assert len(packed_matches(data, [], RENAMED)) == 1


def test_nothing_renamed_holds_no_literal() -> None:
    assert PackedAddresses([]).literals == ()
    assert PackedAddresses([]).find(b"dhcp-option=43,01:04:0a:00:00:46") == []
