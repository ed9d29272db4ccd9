"""The access-rule reader's own arithmetic: a network literal's span computed with integers, as
`ipaddress.IPv4Network(..., strict=False)` reads it (the CLI behaviour: tests/cli/test_access_sets.py)."""

from __future__ import annotations

import ipaddress

from hypothesis import given
from hypothesis import strategies as st

from renamer.sweep.access_sets import _span

_OCTET = st.one_of(st.integers(0, 255).map(str), st.integers(256, 999).map(str),
                   st.integers(0, 99).map(lambda n: f"0{n}"))
_ADDRESS = st.lists(_OCTET, min_size=4, max_size=4).map(".".join)
_MASK = st.one_of(
    st.integers(0, 32).map(lambda p: (0xFFFFFFFF << (32 - p)) & 0xFFFFFFFF),  # netmask
    st.integers(0, 32).map(lambda p: (1 << p) - 1),  # hostmask (wildcard)
    st.integers(0, 0xFFFFFFFF),  # mostly neither
).map(lambda m: str(ipaddress.IPv4Address(m)))
_LENGTH = st.one_of(st.integers(0, 40).map(str), st.integers(0, 9).map(lambda n: f"0{n}"), _MASK,
                    st.just("255.255.0.00"))


@given(_ADDRESS, _LENGTH)
def test_the_span_is_what_ipaddress_reads(address: str, length: str) -> None:
    try:
        net = ipaddress.IPv4Network(f"{address}/{length}", strict=False)
        expected = None if net.prefixlen >= 32 else (int(net.network_address), int(net.broadcast_address))
    except ValueError:
        expected = None
    assert _span(address.encode(), length.encode()) == expected


def test_examples() -> None:
    assert _span(b"10.0.0.70", b"30") == (int(ipaddress.IPv4Address("10.0.0.68")),
                                          int(ipaddress.IPv4Address("10.0.0.71")))
    assert _span(b"10.0.0.64", b"255.255.255.248") == _span(b"10.0.0.64", b"29")
    assert _span(b"10.0.0.64", b"0.0.0.7") == _span(b"10.0.0.64", b"29")  # a wildcard
    assert _span(b"10.0.0.70", b"32") is None and _span(b"10.0.0.70", b"255.255.255.255") is None
    assert _span(b"10.0.0.064", b"29") is None  # a leading zero: refused as ipaddress does
