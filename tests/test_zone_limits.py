"""zone_limits: the length-limited DNS values a longer new name can overflow (t36 finding 05; pure
logic; the sweep's refusal is tests/cli/test_zone_limits.py's)."""

from __future__ import annotations

import pytest

from renamer import zone_limits
from renamer.name_limits import LIMIT, limited
from renamer.occurrences import Match


def _spans(found: object, data: bytes) -> list[bytes]:
    return [data[a:b] for a, b in found]  # type: ignore[attr-defined]


def test_txt_strings_quoted_unquoted_in_parentheses_and_after_comments() -> None:
    data = (b'$ORIGIN lab.example.\n@ IN TXT ( "v=spf1 a:web01" ; first\n  "two \\" q" ) \n'
            b"web01 IN A 10.0.0.70 ; TXT \"not\"\nx 300 IN TXT plain\ny IN SPF \"spf\" \"b\"\nz IN MX 10 txt\n")
    assert _spans(zone_limits.txt_strings(data), data) == [b"v=spf1 a:web01", b'two \\" q', b"plain", b"spf", b"b"]


def test_prose_naming_txt_is_no_record_string_unless_it_looks_like_one() -> None:
    data = b"The TXT records hold SPF. Add a TXT\nrecord.\n"
    assert _spans(zone_limits.txt_strings(data), data) == []


@pytest.mark.parametrize(("value", "size"), [(b"abc", 3), (b"a\\\"b", 3), (b"\\059x", 2), (b"\\\\", 1)])
def test_string_length_counts_an_escape_as_one_byte(value: bytes, size: int) -> None:
    assert zone_limits.string_length(value) == size


def test_mail_values_quoted_unquoted_and_a_route53_split() -> None:
    data = (b'records = ["v=spf1 a:web01 -all"]\nvalue: v=DMARC1; p=none; rua=mailto:x@web01\n'
            b'records = ["v=spf1 a:one\\"\\"two"]\nprose v=spf1x\n')
    assert _spans(zone_limits.mail_values(data), data) == [
        b"v=spf1 a:web01 -all", b"v=DMARC1; p=none; rua=mailto:x@web01", b"v=spf1 a:one"]


def test_zone_names_leave_comments_and_strings_and_need_a_zone() -> None:
    data = b'$TTL 300\nweb01 IN CNAME a.web01.lab. ; old.web01\nt IN TXT "web01.x"\n'
    assert b"a.web01.lab." in _spans(zone_limits.zone_names(data), data)
    assert b"old.web01" not in _spans(zone_limits.zone_names(data), data)
    assert b"web01.x" not in _spans(zone_limits.zone_names(data), data)
    assert list(zone_limits.zone_names(b"ssh web01.lab.example\n")) == []
    assert zone_limits.is_zone(b"@ IN SOA ns1 h 1 2 3 4 5\n") and not zone_limits.is_zone(b"SOA notes\n")


def test_longest_label_and_name_length() -> None:
    assert zone_limits.longest_label(b"a.bbb.cc.") == 3
    assert zone_limits.name_length(b"a.bbb.cc.") == 8


def _hits(data: bytes, old: str, new: str) -> list[Match]:
    out, at = [], data.find(old.encode())
    while at >= 0:
        out.append(Match(at, at + len(old), old, new, "host"))
        at = data.find(old.encode(), at + 1)
    return out


def test_a_zone_label_grown_past_63_is_refused_and_one_that_fits_is_not() -> None:
    data = b"$ORIGIN lab.example.\nweb01-ilom IN A 10.0.0.71\n"
    over = limited("lab.zone", data, _hits(data, "web01", "w" * 59))
    assert [m.refused for m in over] == [LIMIT] and "a DNS label holds 63" in (over[0].note or "")
    fits = limited("lab.zone", data, _hits(data, "web01", "w" * 58))
    assert [m.refused for m in fits] == [None]
    prose = b"web01-ilom is the OOB port\n"  # no zone: no label limit read
    assert [m.refused for m in limited("notes.md", prose, _hits(prose, "web01", "w" * 59))] == [None]


def test_a_txt_string_over_255_before_is_still_refused_in_a_zone_but_not_an_spf_value_elsewhere() -> None:
    long = b"v=spf1 a:web01 " + b"x" * 250
    zone = b'$TTL 300\n@ IN TXT "' + long + b'"\n'
    assert [m.refused for m in limited("z.zone", zone, _hits(zone, "web01", "web0001"))] == [LIMIT]
    tf = b'records = ["' + long + b'"]\n'  # a provider that splits it itself: only a grown one is refused
    assert [m.refused for m in limited("dns.tf", tf, _hits(tf, "web01", "web0001"))] == [None]
