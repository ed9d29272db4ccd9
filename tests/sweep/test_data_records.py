"""sweep/data_records.py: owners decided by their meaning, and a zone list's serial (pure)."""

from __future__ import annotations

import datetime as dt
import ipaddress

from renamer.match import Matcher
from renamer.sweep.data_records import record_owner_matches, with_serials
from renamer.sweep.model import Edit, apply_edits

ROLE = (b"zones:\n  - name: 0.10.in-addr.arpa\n    serial: 2024102001\n    rrs:\n"
        b"      - {label: 12.0, type: PTR, rdata: x.}\n      - {label: 13.0, type: PTR, rdata: y.}\n"
        b"  - name: 1.10.in-addr.arpa\n    serial: 9\n    rrs:\n      - {label: 5.0, type: PTR, rdata: z.}\n")


def decided(data: bytes, rel: str, matcher: Matcher) -> list[tuple[str, str, str | None]]:
    return [(m.old, m.new, m.refused) for m in record_owner_matches(data, rel, [], matcher)]


def test_a_reverse_owner_follows_a_network_move_inside_its_zone() -> None:
    move = Matcher(networks=[(ipaddress.ip_network("10.0.0.0/24"), ipaddress.ip_network("10.0.1.0/24"))])
    assert decided(ROLE, "v.yml", move) == [("12.0", "12.1", None), ("13.0", "13.1", None)]
    out = Matcher(networks=[(ipaddress.ip_network("10.0.0.0/16"), ipaddress.ip_network("10.9.0.0/16"))])
    assert [r for _, _, r in decided(ROLE, "v.yml", out)] == ["reverse-owner", "reverse-owner"]


def test_a_forward_owner_follows_its_fqdn() -> None:
    data = b"web01:\n  type: A\n  value: 10.0.0.70\n"
    same = Matcher(hosts=[("web01.lab.example", "app01.lab.example")])
    assert decided(data, "config/lab.example.yaml", same) == [("web01", "app01", None)]
    other = Matcher(hosts=[("WEB01.lab.example", "app01.other.example")])
    assert decided(data, "config/lab.example.yaml", other) == [("web01", "app01.other.example", "zone-owner")]
    assert decided(data, "config/other.example.yaml", same) == []


def test_the_serial_of_the_zone_whose_records_change_grows_alone() -> None:
    at = ROLE.index(b"12.0")
    edits = [Edit(at, at + 4, b"42.0")]
    out = apply_edits(ROLE, with_serials("v.yml", ROLE, edits, dt.date(2026, 12, 6)))
    assert b"serial: 2026120601" in out and b"serial: 9\n" in out and b"label: 42.0" in out
    assert with_serials("v.yml", ROLE, [], dt.date(2026, 12, 6)) == []
