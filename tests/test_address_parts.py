"""address_parts.py: address-shaped words holding a template (tests/cli/test_composed_addresses.py
checks what the sweep makes of them on real repos)."""

from __future__ import annotations

import pytest

from renamer.address_parts import bare_tails, find, literals, might_hold


@pytest.mark.parametrize(("data", "expected"), [
    pytest.param(b'command: ["--listen-address=${LAB_PREFIX}.5"]', ["${LAB_PREFIX}.5"], id="the-report"),
    pytest.param(b"ping $P.5 now", ["$P.5"], id="bare"),
    pytest.param(b"server {{ prefix }}.5;", ["{{ prefix }}.5"], id="jinja"),
    pytest.param(b'"${var.prefix}.5"', ["${var.prefix}.5"], id="terraform"),
    pytest.param(b"at ${X:-10.0.0}.5.", ["${X:-10.0.0}.5"], id="a-default-a-sentence-dot"),
    pytest.param(b"http://10.0.0.${HOST}:80/", ["10.0.0.${HOST}"], id="a-literal-prefix"),
    pytest.param(b"ptr-record=${PTR}.${REV},ns1.${ZONE}", ["${PTR}.${REV}"], id="two-templates"),
    pytest.param(b"${A}.${B}.in-addr.arpa x", ["${A}.${B}.in-addr.arpa"], id="a-reverse-tail"),
    # break-it round 7, finding 13: quotes between the parts, arithmetic, the dot inside the value
    pytest.param(b'ping "$NET".5 ${NET}\'.5\'', ['$NET".5', "${NET}'.5"], id="quotes-between"),
    pytest.param(b'ping 10.0.0."$OCT"', ['10.0.0."$OCT'], id="quotes-before-the-template"),
    pytest.param(b"ping 10.0.0.$((OCT)) 10.0.0.$(( $O ))", ["10.0.0.$((OCT))", "10.0.0.$(( $O ))"],
                 id="arithmetic"),
    pytest.param(b"ping ${IP}5", ["${IP}5"], id="the-dot-inside-the-value"),
])
def test_compositions(data: bytes, expected: list[str]) -> None:
    assert [c.text for c in find(data)] == expected


@pytest.mark.parametrize("data", [
    pytest.param(b"${IP} $IP", id="a-template-alone"),
    pytest.param(b"v1.${P}.5 x${P}.5", id="part-of-a-longer-word"),
    pytest.param(b"ns1.${ZONE}", id="a-name"),
    pytest.param(b"${P}-5 ${P}:5", id="no-dot"),
    pytest.param(b'echo "$OCT". done; x "${A}" y', id="a-quote-then-a-sentence-dot"),
    pytest.param(b"10.0.0.$((OCT + 1))", id="arithmetic-that-computes"),
])
def test_no_composition(data: bytes) -> None:
    assert find(data) == []


def test_the_prefilter_needs_a_literal_of_every_composition() -> None:
    addresses = ["10.0.0.5"]
    needles, bare = literals(addresses), bare_tails(addresses)
    assert all(might_hold(data, needles, bare) for data in
               (b"${P}.5", b"$P.5", b"$P.0.5", b"10.0.0.$H", b"{{ p }}.5", b"${A}.${B}"))
    assert not any(might_hold(data, needles, bare) for data in (b"$P.6", b"version 1.5", b"${P}", b"a.b"))
