"""computed_foreign: Go, JavaScript/TypeScript and Ruby expressions over a network (t29-33, 18)."""

from __future__ import annotations

import ipaddress

import pytest

from renamer import computed_foreign, computed_lengths

OLD = ipaddress.ip_network("192.168.40.0/24")
NEW = ipaddress.ip_network("192.168.40.0/22")


def _one(text: bytes) -> computed_lengths.Chain:
    [chain] = list(computed_lengths.chains(text))
    return chain


@pytest.mark.parametrize(("text", "ops", "value"), [
    (b'_, n, _ := net.ParseCIDR("192.168.40.0/24")\nip, _ := cidr.Host(n, -2)\n', ["host"], "192.168.40.254"),
    (b'_, n, _ := net.ParseCIDR("192.168.40.0/24")\ns, _ := cidr.Subnet(n, 2, 1)\n', ["subnet"], "192.168.40.64/26"),
    (b'_, n, _ := net.ParseCIDR("192.168.40.0/24")\ns, _ := cidr.NextSubnet(n, 24)\n', ["next_subnet"],
     "192.168.41.0/24"),
    (b'const lan = new Netmask("192.168.40.0/24");\nx = lan.last;\n', ["last_usable"], "192.168.40.254"),
    (b'x = new Netmask("192.168.40.0/24").next(2);\n', ["next_block"], "192.168.42.0/24"),
    (b'R = IPAddr.new("192.168.40.0/24").to_range.to_a[-2]\n', ["host"], "192.168.40.254"),
    (b'L = IPAddress::IPv4.new("192.168.40.0/24").hosts.last\n', ["hosts"], "192.168.40.254"),
    (b'e = parseCidr("192.168.40.0/24").end - 1n;\n', ["broadcast", "plus"], "192.168.40.254"),
    (b'a = Array.from(expandCidr("192.168.40.0/24"))[200];\n', ["host"], "192.168.40.200"),
])
def test_each_library_reads_as_steps_with_its_value(text: bytes, ops: list[str], value: str) -> None:
    chain = _one(text)
    assert [s.op for s in chain.steps] == ops and chain.base == "192.168.40.0/24"
    assert computed_lengths.show(computed_lengths.evaluate(chain.steps, OLD)) == value
    assert text[chain.base_start:chain.base_end] == b"192.168.40.0/24"


def test_what_keeps_its_meaning_is_no_chain_and_what_is_not_computed_is_opaque() -> None:
    follows = (b'const lan = new Netmask("192.168.40.0/24");\nb = lan.base; c = lan.contains(x);\n'
               b'p := netip.MustParsePrefix("192.168.40.0/24").Addr()\nok = IPAddr.new("192.168.40.0/24").include?(ip)\n')
    assert list(computed_lengths.chains(follows)) == []
    chain = _one(b'_, n, _ := net.ParseCIDR("192.168.40.0/24")\nm := n.Mask\n')
    assert [s.op for s in chain.steps] == [computed_foreign.OPAQUE]
    verdict = computed_lengths.judge(chain.steps, OLD, NEW)
    assert verdict is not None and "`.Mask` of Go's net.IPNet" in verdict.why


def test_cdktf_functions_read_as_terraform_s() -> None:
    chain = _one(b"const dmz = Fn.cidrsubnet('192.168.40.0/24', 2, 1);\n")
    verdict = computed_lengths.judge(chain.steps, OLD, NEW)
    assert verdict is not None and verdict.old_value == "192.168.40.64/26" and verdict.new_value == "192.168.41.0/24"
