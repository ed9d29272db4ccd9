"""`$GENERATE` expanded as BIND does (formats/zone_generate.py), checked against named-checkzone's
own expansion of the same lines; and which files are zone records with no SOA (formats/zone.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from renamer.formats.zone import is_records, record_type
from renamer.formats.zone_generate import expand, generated_addresses, generates
from tests.testing.zones import loaded

HEAD = "$TTL 300\n@ IN SOA ns1 root 1 1 1 1 1\n@ IN NS ns1\nns1 IN A 10.0.0.53\n"


@pytest.mark.parametrize("line", [
    "$GENERATE 1-12/3 host-${2,3,d} A 10.0.0.$",
    "$GENERATE 8-10 h${0,4,x} 300 IN CNAME t${-8,2,o}.example.",
    "$GENERATE 250-252 $.${0,3,n}x PTR p$.example.",
    "$GENERATE 84-85 ${0,6,N}x PTR p.example.",
])
def test_expansion_is_what_bind_loads(tmp_path: Path, line: str) -> None:
    zone = tmp_path / "db"
    zone.write_text("$ORIGIN example.\n" + HEAD + line + "\n")
    bind = [r for r in loaded(zone, "example") if r[1] in ("A", "CNAME", "PTR") and not r[0].startswith("ns1.")]
    (found,) = generates(zone.read_bytes(), None)
    assert found.origin == "example."
    ours = sorted((f"{owner}.example.".lower(), rdata) for owner, rdata in found.records())
    assert sorted((owner, data) for owner, _, data in bind) == ours


def test_the_modifiers() -> None:
    assert expand("a${1,3,d}-$", 4) == "a005-4"
    assert expand("${0,2,X}", 255) == "FF"
    assert expand("${0,3,n}", 0x54) == "4.5"  # BIND's own: the width counts the dot
    assert expand("${0,4,n}", 250) == "a.f."
    assert expand("${0,6,N}", 0xAB) == "B.A.0."
    assert expand("\\$x", 7) == "$x"


@pytest.mark.parametrize(("text", "records"), [
    ("ana-ml2 IN A 10.1.1.1\n", True),
    ("$TTL 60\nwww 300 IN CNAME x.\n  IN TXT \"a b\"\n; a comment\n", True),
    ("x IN TYPE46 \\# 1 00\n", True),
    ("ana-ml2 A 10.1.1.1\n", False),  # no class anywhere: too weak a sign
    ("10.0.0.1 ana-ml2\n", False),
    ("ana-ml2 is IN the A team\n", False),
    (HEAD, False),  # an SOA: a zone (is_zone's), not a fragment
    ("```\nana-ml2 IN A 10.1.1.1\n```\n", False),
])
def test_records_with_no_soa(text: str, records: bool) -> None:
    assert is_records(text.encode()) is records


def test_generic_types_read_as_their_mnemonic() -> None:
    assert record_type(b"type46") == b"RRSIG"
    assert record_type(b"TYPE63") == b"ZONEMD"
    assert record_type(b"TYPE65280") == b"TYPE65280"
    assert record_type(b"mx") == b"MX"


def test_generated_addresses_a_ptr_and_aaaa() -> None:
    """t36-33 finding 16: each address a line makes, from its RDATA or its reverse owner."""
    data = (b"$ORIGIN lab.\n$GENERATE 1-3 dyn-$ A 192.168.40.${100}\n"
            b"$ORIGIN 40.168.192.in-addr.arpa.\n$GENERATE 7-8 $ PTR dyn-$.lab.\n"
            b"$ORIGIN lab.\n$GENERATE 10-11 v6-$ AAAA 2001:db8::${0,4,x}\n$GENERATE 1-2 c-$ CNAME dyn-$\n")
    found = [[(v, str(a)) for v, a in generated_addresses(line)] for line in generates(data, None)]
    assert found == [[(1, "192.168.40.101"), (2, "192.168.40.102"), (3, "192.168.40.103")],
                     [(7, "192.168.40.7"), (8, "192.168.40.8")],
                     [(10, "2001:db8::a"), (11, "2001:db8::b")], []]
