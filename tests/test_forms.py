"""The spellings of an old value: the case a DNS name's new value takes (pure logic)."""

from __future__ import annotations

import ipaddress

import pytest

from renamer.forms import canonical, case_like, v6_like


@pytest.mark.parametrize(("found", "new", "expected"), (
    pytest.param("ana-ml2", "fv-ml1", "fv-ml1", id="lower-as-configured"),
    pytest.param("ANA-ML2", "fv-ml1", "FV-ML1", id="upper"),
    pytest.param("Ana-Ml2", "fv-ml1", "Fv-Ml1", id="capitalised-runs"),
    pytest.param("ANA-ml2", "fv-ml1", "FV-ml1", id="run-by-run"),
    pytest.param("Ana-ML2.ana.lan", "fv-ml1.fv.lan", "Fv-ML1.fv.lan", id="fqdn-run-by-run"),
    pytest.param("ANA-ML2.ANA.LAN", "fv-ml1.fv.lan", "FV-ML1.FV.LAN", id="fqdn-upper"),
    pytest.param("aNa-mL2", "fv-ml1", "fv-ml1", id="irregular-as-configured"),
    pytest.param("Ana-Ml2", "fvml1", "fvml1", id="other-run-count-as-configured"),
    pytest.param("ana-ml2", "FV-ml1", "FV-ml1", id="configured-case-kept-for-lower"),
    pytest.param("10.250.50.54", "10.251.50.54", "10.251.50.54", id="no-letters"),
))
def test_case_like(found: str, new: str, expected: str) -> None:
    assert case_like(found, new) == expected


@pytest.mark.parametrize(("old", "new", "expected"), [
    # t29-33, finding 21: a canonical spelling stays canonical whatever groups the new head ends in
    ("2001:db8:a:ab00::", "2001:db8:b::", "2001:db8:b::"),
    ("2001:db8:a:ab00::1", "2001:db8:b::1", "2001:db8:b::1"),
    ("2001:DB8:A:AB00::1", "2001:db8:b::1", "2001:DB8:B::1"),
    ("ffff:ffff:ffff:ffff::", "ffff:ffff:ffff::", "ffff:ffff:ffff::"),
    ("2001:db8:a:10::1", "2001:db8:c:0:1::1", "2001:db8:c:0:1::1"),  # a lone zero group stays `0`
    # a file's own dress is kept where it was not canonical
    ("2001:0db8:000a:0010::1", "2001:db8:c::1", "2001:0db8:000c:0000::1"),
    ("2001:db8:a:0::10", "2001:db8:b::10", "2001:db8:b:0::10"),
    ("2001:Db8:a:ab00::1", "2001:db8:b::1", "2001:db8:b:0::1"),  # mixed case: no canonical spelling
])
def test_a_canonical_ipv6_spelling_is_written_canonical(old: str, new: str, expected: str) -> None:
    assert canonical(old) == (old.lower() == str(ipaddress.IPv6Address(old)) and old in (old.lower(), old.upper()))
    assert v6_like(old, ipaddress.IPv6Address(new)) == expected
