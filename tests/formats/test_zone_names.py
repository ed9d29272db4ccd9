"""A zone's names and the origin each is read against (pure)."""

from __future__ import annotations

import pytest

from renamer.formats.zone_names import absolute, includes, zone_names


@pytest.mark.parametrize(("text", "origin", "expected"), [
    pytest.param("nas.local", "lab.example.", "nas.local.lab.example.", id="relative-two-labels"),
    pytest.param("NAS", "lab.example.", "nas.lab.example.", id="lower-cased"),
    pytest.param("nas.lab.example.", "other.", "nas.lab.example.", id="absolute"),
    pytest.param("@", "lab.example.", "lab.example.", id="at"),
    pytest.param("host", ".", "host.", id="root-origin"),
    pytest.param("host", None, None, id="no-origin"),
])
def test_absolute(text: str, origin: str | None, expected: str | None) -> None:
    assert absolute(text, origin) == expected


ZONE = (b"$TTL 300\n@ IN SOA ns admin ( 5 1 2 3 4 )\n  IN NS ns\nwww 60 IN CNAME host\n  IN TXT \"host\"\n"
        b"$ORIGIN sub\nmx IN MX 10 mail.example.\n_s._tcp IN SRV 0 5 80 t ; a comment names x\n"
        b"$GENERATE 1-4 h$ A 10.0.0.$\n\\@odd IN A 10.0.0.9\n")


def test_names_roles_and_origins() -> None:
    found = zone_names(ZONE, "lab.example.")
    assert found.apex == "lab.example."
    assert [(n.text, n.role, n.origin) for n in found.names] == [
        ("@", "owner", "lab.example."), ("ns", "rdata", "lab.example."), ("ns", "rdata", "lab.example."),
        ("www", "owner", "lab.example."), ("host", "rdata", "lab.example."), ("sub", "origin", "lab.example."),
        ("mx", "owner", "sub.lab.example."), ("mail.example.", "rdata", "sub.lab.example."),
        ("_s._tcp", "owner", "sub.lab.example."), ("t", "rdata", "sub.lab.example.")]
    www = found.names[3]
    assert ZONE[www.record[0]:www.record[1]] == b'www 60 IN CNAME host\n  IN TXT "host"'  # the next record too


@pytest.mark.parametrize(("data", "apex"), [
    pytest.param(b"$ORIGIN a.example.\n@ IN SOA ns admin 1 2 3 4 5\n", "a.example.", id="soa-owner-at"),
    pytest.param(b"$ORIGIN x.\nb.example. IN SOA ns admin 1 2 3 4 5\n", "b.example.", id="soa-owner-absolute"),
    pytest.param(b"$ORIGIN c.example.\nwww IN A 10.0.0.1\n", "c.example.", id="first-origin-without-soa"),
    pytest.param(b"www IN A 10.0.0.1\n", None, id="unknown"),
])
def test_apex(data: bytes, apex: str | None) -> None:
    assert zone_names(data).apex == apex


def test_signed() -> None:
    assert zone_names(b"@ IN SOA ns admin 1 2 3 4 5\n  RRSIG SOA 13 2 300 ( 1 2 3 x. abc= )\n").signed
    assert not zone_names(b"@ IN SOA ns admin 1 2 3 4 5\nx IN TXT \"RRSIG\"\n").signed


@pytest.mark.parametrize(("data", "expected"), [
    pytest.param(b"$INCLUDE hosts.inc\n", [("hosts.inc", "lab.example.")], id="origin-in-force"),
    pytest.param(b'$ORIGIN sub\n$include "a b.inc" x\n', [("a b.inc", "x.sub.lab.example.")],
                 id="quoted-relative-origin-given"),
    pytest.param(b"$INCLUDE /z/rev.inc 50.250.10.in-addr.arpa.\n", [("/z/rev.inc", "50.250.10.in-addr.arpa.")],
                 id="absolute-origin-given"),
    pytest.param(b"; $INCLUDE hosts.inc\n  $INCLUDE indented\n", [], id="noop-comment-or-not-at-line-start"),
])
def test_includes(data: bytes, expected: list[tuple[str, str]]) -> None:
    assert includes(data, "lab.example.") == expected


@pytest.mark.parametrize(("token", "text", "spelled"), [
    pytest.param(b"ana\\-ml2", "ana-ml2", "ana\\-ml2", id="backslash-dash"),
    pytest.param(b"\\097na-ml2", "ana-ml2", "\\097na-ml2", id="decimal-letter"),
    pytest.param(b"ana\\045ml2.ana.lan.", "ana-ml2.ana.lan.", "ana\\045ml2.ana.lan.", id="decimal-dash-absolute"),
    pytest.param(b"ana-ml2", "ana-ml2", None, id="plain"),
])
def test_a_name_is_read_with_its_escapes_decoded(token: bytes, text: str, spelled: str | None) -> None:
    """Owner, RDATA target and `$ORIGIN` alike (RFC 1035 5.1), the file's spelling kept beside."""
    data = b"$ORIGIN " + token + b"\n" + token + b" IN CNAME " + token + b"\n"
    found = zone_names(data)
    assert [(n.text, n.role, n.spelled) for n in found.names] == [
        (text, "origin", spelled), (text, "owner", spelled), (text, "rdata", spelled)]
    assert all(n.written == token.decode() for n in found.names)
    assert found.names[1].origin == absolute(text, None)  # the owner is read against the decoded $ORIGIN


@pytest.mark.parametrize("token", [
    pytest.param(b"ana\\.ml2", id="escaped-dot-a-dot-inside-a-label"),
    pytest.param(b"ana\\032ml2", id="a-blank"),
    pytest.param(b"ana\\256ml2", id="no-byte"),
    pytest.param(b"\\@", id="escaped-at-is-no-origin"),
])
def test_noop_an_escape_no_host_name_holds_is_no_name(token: bytes) -> None:
    assert zone_names(b"$ORIGIN lab.\n" + token + b" IN A 10.0.0.1\n").names[1:] == ()


def test_escaped_names_are_listed_with_their_reading_owners_and_rdata_alike() -> None:
    data = b"$ORIGIN lab.\n$ORIGIN a\\.b.lab.\npug\\.x IN CNAME pug\\045x\nw IN MX 10 pug\\032y\nok IN A 10.0.0.1\n"
    found = zone_names(data)
    assert [(data[at:at + r.at[-1]], r.text, bool(r.opaque)) for at, r in found.escaped] == [
        (b"a\\.b.lab.", "a_b.lab.", True), (b"pug\\.x", "pug_x", True), (b"pug\\045x", "pug-x", False),
        (b"pug\\032y", "pug_y", True)]
    # the names under an opaque $ORIGIN are read against it, and an opaque owner's RDATA is read
    assert [(n.text, n.origin) for n in found.names if n.role == "rdata"] == [("pug-x", "a_b.lab.")]
    assert ("ok", "owner", "a_b.lab.") in [(n.text, n.role, n.origin) for n in found.names]
