"""Zone files: detection by content, the SOA serial's span, and how it is bumped."""

from __future__ import annotations

import datetime
import shutil
import subprocess
from pathlib import Path

import pytest

from renamer.formats.zone import (
    SERIAL_MAX,
    bumped_serial,
    find_serial,
    is_zone,
    placeholder_serial,
    serial_edit,
)

TODAY = datetime.date(2026, 11, 29)

ONE_LINE = b"$TTL 3600\n@ 3600 IN SOA ns1.lab. admin.lab. 2026050401 7200 3600 1209600 3600\n"
MULTI_LINE = (
    b"$ORIGIN lab.\n"
    b"$TTL 1h\n"
    b"@ IN SOA ns1.lab. admin.lab. (\n"
    b"  2026050401 ; serial\n"
    b"  3600       ; refresh\n"
    b"  600        ; retry\n"
    b"  1209600    ; expire\n"
    b"  300 )      ; minimum\n"
    b"@ IN NS ns1.lab.\n"
    b"ns1 IN A 192.0.2.1\n"
)


@pytest.mark.parametrize(("data", "serial"), (
    pytest.param(ONE_LINE, b"2026050401", id="one-line"),
    pytest.param(MULTI_LINE, b"2026050401", id="multi-line-comments"),
    pytest.param(MULTI_LINE.replace(b"\n", b"\r\n"), b"2026050401", id="crlf"),
    pytest.param(b"; the SOA below: serial 1999010101 1 2 3 4\n; @ IN SOA ns0. old. 1999010101 1 2 3 4\n"
                 b"@ IN SOA ns1.lab. admin.lab. 7 1 2 3 4\n", b"7", id="comments-mention-soa"),
    pytest.param(b"@ IN SOA ns1.lab. admin.lab. ( ; SOA 11 22 33 44 55\n 8 1 2 3 4 )\n", b"8",
                 id="soa-in-comment-inside-group"),
    pytest.param(b"$ORIGIN lab.\n$TTL 1h\n@ IN NS ns1\n\tIN SOA ns1 admin 42 1h 15m 2w 5m\n", b"42", id="owner-omitted-tab"),
    pytest.param(b"    IN SOA ns1 admin 43 1 2 3 4\n", b"43", id="owner-omitted-spaces"),
    pytest.param(b"@\t3600\tIN\tSOA\tns1.lab.\tadmin.lab.\t44\t1\t2\t3\t4\n", b"44", id="tabs"),
    pytest.param(b"@ in soa ns1.lab. admin.lab. 45 1 2 3 4\n", b"45", id="lower-case"),
    pytest.param(b"@ In SoA ns1.lab. admin.lab. 46 1 2 3 4\n", b"46", id="mixed-case"),
    pytest.param(b"@ 3600 SOA ns1.lab. admin.lab. 47 1 2 3 4\n", b"47", id="class-omitted"),
    pytest.param(b"@ SOA ns1.lab. admin.lab. 48 1 2 3 4\n", b"48", id="ttl-and-class-omitted"),
    pytest.param(b"@ IN 3600 SOA ns1.lab. admin.lab. 49 1 2 3 4\n", b"49", id="ttl-after-class"),
    pytest.param(b"lab. 1h IN SOA ns1.lab. admin.lab. 50 1 2 3 4\n", b"50", id="ttl-with-unit"),
    pytest.param(b"@ IN SOA (\n ns1.lab.\n admin.lab.\n 51\n 1\n 2\n 3\n 4\n)\n", b"51", id="paren-after-soa"),
    pytest.param(b"@ IN SOA ns1.lab. admin.lab.(52 1 2 3 4)\n", b"52", id="paren-without-blanks"),
    pytest.param(b"@ IN SOA ns1.lab. admin.lab. 53 (\n1 2 3 4)\n", b"53", id="paren-after-serial"),
    pytest.param(b'x IN TXT "a ; (b"\n@ IN SOA ns1.lab. admin.lab. 54 1 2 3 4\n', b"54",
                 id="quoted-semicolon-and-paren"),
    pytest.param(b"@ IN SOA ns1.lab. john\\.doe.lab. 55 1 2 3 4\n", b"55", id="escaped-dot-in-rname"),
    pytest.param(b"@ IN SOA ns1.lab. admin.lab. 56 1 2 3 4", b"56", id="no-final-newline"),
    pytest.param(b"@ IN SOA a. b. 57 1 2 3 4\nx IN SOA c. d. 58 1 2 3 4\n", b"57", id="first-of-several"),
    pytest.param(b"@ IN SOA ns1.lab. admin.lab. 0002026050401 1 2 3 4\n", b"0002026050401", id="leading-zeros"),
))
def test_finds_the_serial(data: bytes, serial: bytes) -> None:
    assert is_zone(data)
    span = find_serial(data)
    assert span is not None
    assert data[span[0]:span[1]] == serial


@pytest.mark.parametrize("data", (
    pytest.param(b"Bump the SOA record serial 2026050401 after every edit.\n", id="markdown-sentence"),
    pytest.param(b"The SOA serial (2026050401) must grow; see RFC 1982 (serial arithmetic).\n"
                 b"In SOA records, ns1.lab. admin.lab. 2026050401 7200 are MNAME, RNAME, serial, refresh.\n",
                 id="markdown-paragraph"),
    pytest.param(b"# Zones\n\nEach zone has one SOA.\n\n```\n@ IN SOA ns1.lab. admin.lab. 2026050401 1 2 3 4\n```\n",
                 id="markdown-fenced-record"),
    pytest.param(b"~~~\n$ORIGIN lab.\n~~~\n", id="markdown-fenced-origin"),
    pytest.param(b"    @ IN SOA ns1.lab. admin.lab. 2026050401 1 2 3 4\n", id="markdown-indented-code"),
    pytest.param(b"zone: lab\nsoa:\n  mname: ns1.lab.\n  rname: admin.lab.\n  serial: 2026050401\n", id="yaml-soa-key"),
    pytest.param(b"records:\n  - type: SOA\n    data: ns1.lab. admin.lab. 2026050401 1 2 3 4\n", id="yaml-soa-value"),
    pytest.param(b'SOA = "@ IN SOA ns1.lab. admin.lab. 2026050401 1 2 3 4"\n\ndef soa(serial: int) -> int:\n'
                 b"    return serial + 1\n", id="python"),
    pytest.param(b"@ IN SOA ns1.lab. admin.lab. 2026050401 1 2 3\n", id="six-fields"),
    pytest.param(b"@ IN SOA ns1.lab. admin.lab. 2026050401 1 2 3 4 5\n", id="eight-fields"),
    pytest.param(b"@ IN SOA ns1.lab. admin.lab. 2026050401 1 2 3 soon\n", id="timer-not-a-number"),
    pytest.param(b'@ IN SOA "ns1.lab." admin.lab. 2026050401 1 2 3 4\n', id="quoted-name"),
    pytest.param(b"@ IN TXT SOA ns1.lab. admin.lab. 2026050401 1 2 3 4\n", id="soa-as-data"),
    pytest.param(b"$TTL 3600\n; @ IN SOA ns1.lab. admin.lab. 2026050401 1 2 3 4\n", id="only-in-comment"),
    pytest.param(b"export LD_RUN_PATH='$ORIGIN/../lib'\n$ORIGIN/bin/tool\n", id="shell-origin"),
    pytest.param(b"", id="empty"),
    pytest.param(b"\x00\xffSOA\x00\x01", id="binary"),
))
def test_not_a_zone(data: bytes) -> None:
    assert not is_zone(data)
    assert serial_edit(data, TODAY) is None


@pytest.mark.parametrize("data", (
    pytest.param(b"$ORIGIN lab.\n@ IN NS ns1\nns1 IN A 192.0.2.1\n", id="origin-only"),
    pytest.param(b"$origin lab.\n", id="origin-lower-case"),
    pytest.param(b"$ORIGIN lab.\n@ IN SOA ns1 admin 2026x 1 2 3 4\n", id="serial-not-decimal"),
    pytest.param(b"$ORIGIN lab.\n@ IN SOA ns1 admin 4294967296 1 2 3 4\n", id="serial-over-32-bits"),
    pytest.param(b"$ORIGIN lab.\n@ IN SOA ns1 admin 1x 1 2 3 4\nx IN SOA ns1 admin 5 1 2 3 4\n",
                 id="first-soa-decides"),
))
def test_zone_without_usable_serial(data: bytes) -> None:
    assert is_zone(data)
    assert find_serial(data) is None
    assert serial_edit(data, TODAY) is None


@pytest.mark.parametrize(("old", "new"), (
    pytest.param("2026050401", "2026112901", id="date-earlier-day"),
    pytest.param("2026112901", "2026112902", id="date-today"),
    pytest.param("2026112905", "2026112906", id="date-today-already-bumped"),
    pytest.param("2027010103", "2027010104", id="date-in-future"),
    pytest.param("2026112999", "2026113000", id="date-today-nn-overflow"),
    pytest.param("2024022901", "2026112901", id="date-leap-day"),
    pytest.param("2023022901", "2023022902", id="not-a-date-feb-29"),
    pytest.param("2026133101", "2026133102", id="not-a-date-month-13"),
    pytest.param("1234567890", "1234567891", id="ten-digit-counter"),
    pytest.param("0000000001", "2", id="year-zero-counter"),
    pytest.param("202611290", "202611291", id="nine-digits"),
    pytest.param("20261129", "20261130", id="eight-digit-date-is-a-counter"),
    pytest.param("0", "1", id="counter-zero"),
    pytest.param("41", "42", id="counter"),
    pytest.param("0041", "42", id="counter-leading-zeros"),
    pytest.param("4294967294", "4294967295", id="counter-at-max"),
    pytest.param("4294967295", "1", id="wrap-skips-zero"),
))
def test_bumped_serial(old: str, new: str) -> None:
    assert bumped_serial(old, TODAY) == new
    # RFC 1982: the new serial is greater than the old one in sequence space.
    assert 0 < (int(new) - int(old)) % 2**32 < 2**31


@pytest.mark.parametrize("old", ("", "12a", "-1", "+1", " 1", "4294967296", "\uff11\uff12"))
def test_bumped_serial_refuses(old: str) -> None:
    with pytest.raises(ValueError, match="not an SOA serial"):
        bumped_serial(old, TODAY)


def test_serial_max_is_32_bits() -> None:
    assert SERIAL_MAX == 4294967295


@pytest.mark.parametrize(("data", "old", "new"), (
    pytest.param(ONE_LINE, "2026050401", "2026112901", id="one-line"),
    pytest.param(MULTI_LINE.replace(b"\n", b"\r\n"), "2026050401", "2026112901", id="multi-line-crlf"),
    pytest.param(b"@ IN SOA ns1.lab. admin.lab. 7 1 2 3 4\n", "7", "8", id="counter"),
))
def test_serial_edit(data: bytes, old: str, new: str) -> None:
    edit = serial_edit(data, TODAY)
    assert edit is not None
    start, end, replacement, got_old, got_new = edit
    assert (got_old, got_new, replacement) == (old, new, new.encode())
    edited = data[:start] + replacement + data[end:]
    assert edited == data.replace(old.encode(), new.encode(), 1)
    assert find_serial(edited) == (start, start + len(replacement))


@pytest.mark.parametrize("data", (
    pytest.param(MULTI_LINE, id="multi-line"),
    pytest.param(MULTI_LINE.replace(b"\n", b"\r\n"), id="multi-line-crlf"),
    pytest.param(b"$TTL 3600\nlab. IN 3600 SOA ns1.lab. admin.lab.(7 1h 15m 2w 5m)\n"
                 b"lab. IN NS ns1.lab.\nns1.lab. A 192.0.2.1\n", id="one-line-counter"),
))
def test_named_checkzone_accepts_before_and_after(data: bytes, tmp_path: Path) -> None:
    checkzone = shutil.which("named-checkzone") or shutil.which("/usr/bin/named-checkzone")
    if checkzone is None:
        pytest.fail("named-checkzone is missing: install Debian's bind9-utils (CI does)")
    edit = serial_edit(data, TODAY)
    assert edit is not None
    start, end, replacement, old, new = edit
    for content, serial in ((data, old), (data[:start] + replacement + data[end:], new)):
        zone = tmp_path / "db.lab"
        zone.write_bytes(content)
        result = subprocess.run([checkzone, "lab", str(zone)], capture_output=True, text=True, check=False)
        assert result.returncode == 0, result.stdout + result.stderr
        assert f"loaded serial {int(serial)}" in result.stdout


@pytest.mark.parametrize(("data", "expected"), (
    pytest.param(b"@ IN SOA ns. admin. ( SERIALNUMBERPLACEHOLDER 3600 1800 604800 86400 )\n",
                 "SERIALNUMBERPLACEHOLDER", id="word"),
    pytest.param(b"@ IN SOA ns. admin. @SERIAL@ 1 2 3 4\n", "@SERIAL@", id="at-signs"),
    pytest.param(b"@ IN SOA ns. admin. %SERIAL% 1 2 3 4\n", "%SERIAL%", id="percent"),
    pytest.param(b"@ IN SOA ns. admin. 2026050401 1 2 3 4\n", None, id="noop-a-number"),
    pytest.param(b"@ IN SOA ns. admin. {{ serial }} 1 2 3 4\n", None, id="noop-several-words"),
    pytest.param(b"the SOA record, serial X 1 2 3 4\n", None, id="noop-prose"),
))
def test_placeholder_serial(data: bytes, expected: str | None) -> None:
    assert placeholder_serial(data) == expected
    assert is_zone(data) == (expected is not None or find_serial(data) is not None)
