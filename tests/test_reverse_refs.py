"""reverse_refs: a full PTR owner whose record names its zone apart from the owner (a zone the file
names, or a zone key whose zone cannot be read; t32 round 25, finding 19); pure logic, the sweep end
to end is tests/cli/test_reverse_refs.py's."""

from __future__ import annotations

import pytest

from renamer.occurrences import Match
from renamer.reverse_refs import REASON, refused

OLD, NEW = "4.0.168.192.in-addr.arpa", "4.10.168.192.in-addr.arpa"


def _decided(text: str, old: str = OLD, new: str = NEW) -> list[tuple[str | None, str | None]]:
    data = text.encode()
    matches, at = [], data.lower().find(old.encode())
    while at >= 0:
        matches.append(Match(at, at + len(old), data[at:at + len(old)].decode(), new, "reverse"))
        at = data.lower().find(old.encode(), at + 1)
    return [(m.refused, m.note) for m in refused(data, matches)]


@pytest.mark.parametrize("text", [
    "INSERT INTO domains (id, name) VALUES (2, '0.168.192.in-addr.arpa');\n"
    "INSERT INTO records (domain_id, name, type) VALUES (2, '4.0.168.192.in-addr.arpa', 'PTR');\n",
    'resource "aws_route53_zone" "rev" {\n  name = "0.168.192.in-addr.arpa"\n}\n'
    'resource "aws_route53_record" "p" {\n  zone_id = aws_route53_zone.rev.zone_id\n'
    '  name = "4.0.168.192.in-addr.arpa"\n}\n',
    "- community.general.nsupdate:\n    zone: 0.168.192.in-addr.arpa.\n    record: 4.0.168.192.IN-ADDR.ARPA.\n",
    'D("0.168.192.in-addr.arpa", REG_NONE,\r\n  PTR("4.0.168.192.in-addr.arpa.", "hermes.lab.example.")\r\n);\r\n',
])
def test_an_owner_outside_the_zone_the_file_names_is_refused(text: str) -> None:
    [(reason, note)] = _decided(text)
    assert reason == REASON and "does not hold 4.10.168.192.in-addr.arpa" in (note or ""), note


@pytest.mark.parametrize("text", [
    'resource "google_dns_record_set" "p" {\n  managed_zone = var.reverse_zone\n'
    '  name = "4.0.168.192.in-addr.arpa."\n  type = "PTR"\n}\n',
    "Add-DnsServerResourceRecord -ZoneName $rev -Name 4.0.168.192.in-addr.arpa -Ptr -PtrDomainName h\n",
    "INSERT INTO records (domain_id, name, type) VALUES (7, '4.0.168.192.in-addr.arpa', 'PTR');\n",
])
def test_an_owner_whose_zone_is_named_by_a_reference_is_refused(text: str) -> None:
    [(reason, note)] = _decided(text)
    assert reason == REASON and "names its zone by reference" in (note or ""), note


@pytest.mark.parametrize(("text", "new"), [
    ("ptr-record=4.0.168.192.in-addr.arpa,hermes.lab.example\n", NEW),  # dnsmasq: no zone
    ("The PTR 4.0.168.192.in-addr.arpa points at hermes.\n", NEW),  # prose
    # the zone the file names holds the new owner too
    ("INSERT INTO domains VALUES (2, '0.168.192.in-addr.arpa');\n"
     "INSERT INTO records (domain_id, name) VALUES (2, '4.0.168.192.in-addr.arpa');\n", "5.0.168.192.in-addr.arpa"),
    # a zone key, but the new owner keeps the old one's parent: any zone holding one holds both
    ("INSERT INTO records (domain_id, name) VALUES (7, '4.0.168.192.in-addr.arpa');\n",
     "5.0.168.192.in-addr.arpa"),
    # another zone the file names holds the new owner (the longest holding the old one decides)
    ("zone: 168.192.in-addr.arpa\nrecord: 4.0.168.192.in-addr.arpa\n", NEW),
    # a zone of its own named after the host's reverse name (BIND's per-host reverse zone, nsupdate's
    # `zone`): the zone key names this very name, no record's reference; it follows the address
    ('zone "4.0.168.192.in-addr.arpa" {\n  type master;\n  file "db.192.168.0.4";\n};\n', NEW),
    ("zone 4.0.168.192.in-addr.arpa\n", NEW),
])
def test_noop_an_owner_its_zone_still_holds_or_with_no_zone(text: str, new: str) -> None:
    assert _decided(text, new=new) == [(None, None)]


def test_noop_a_network_moves_reverse_names_are_that_moves() -> None:
    """Under renames.networks a reverse name is the move's (its zones go with it: reverse_zones.py)."""
    data = b"zone: 0.168.192.in-addr.arpa\nrecord: 4.0.168.192.in-addr.arpa\n"
    at = data.index(OLD.encode())
    found = refused(data, [Match(at, at + len(OLD), OLD, NEW, "network")])
    assert [m.refused for m in found] == [None]
