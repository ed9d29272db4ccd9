"""Legacy double-byte encodings (break-it round 10, finding 6): a file that is not UTF-8 is matched
byte by byte (Latin-1), but in Shift_JIS/CP932, GBK/GB18030, Big5 and UHC a character's second
byte may be an ASCII letter or digit. `ホストpug` reads `…gpug` byte by byte: a live reference was
missed with no near-miss, and a lead byte before a name (`ヂna-ml2` is `0x83` + `ana-ml2`) would
have been rewritten inside a character. Where the readings disagree, the occurrence is a
`multibyte` residual, never rewritten (sweep/multibyte.py); Latin-1 files work as before."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from renamer.sweep import multibyte
from tests.conftest import Result

Repo = Callable[..., Path]
Run = Callable[..., Result]
PLAIN = b"ssh ana-ml2\r\n"  # a line both readings agree on: rewritten
PLAIN_AFTER = b"ssh fv-ml1\r\n"


def _residuals(run: Run, root: Path) -> set[tuple[str, int, str, str]]:
    audit = json.loads(run(root, "audit", "--format", "json").stdout)
    return {(r["path"], r["line"], r["old"], r["reason"]) for r in audit["references"]
            if r["status"] == "residual"}


@pytest.mark.parametrize(("line", "old"), [
    # ト is 0x83 0x67 ('g'): `…gana-ml2` byte by byte.
    pytest.param("rem ホストana-ml2を再起動\r\n".encode("cp932"), "ana-ml2", id="shift-jis-host"),
    # ア is 0x83 0x41 ('A'): an FQDN and an address after it.
    pytest.param("set TARGET=アana-ml2.ana.lan\r\n".encode("cp932"), "ana-ml2.ana.lan", id="cp932-fqdn"),
    pytest.param("アドレスア10.250.50.54\r\n".encode("cp932"), "10.250.50.54", id="cp932-address"),
    pytest.param("主机乤ana-ml2重启\r\n".encode("gbk"), "ana-ml2", id="gbk"),  # 乤 is 0x81 'a'
    pytest.param("主機乙ana-ml2\r\n".encode("big5"), "ana-ml2", id="big5"),  # 乙 is 0xa4 'A'
    pytest.param("호스트갵ana-ml2\r\n".encode("cp949"), "ana-ml2", id="uhc"),  # 갵 is 0x81 'a'
    # GB18030's four-byte form ends in an ASCII digit: `0` + `10.250.50.54` byte by byte.
    pytest.param("地址\u008010.250.50.54\r\n".encode("gb18030"), "10.250.50.54", id="gb18030-four-bytes"),
    # ヂ is 0x83 0x61 ('a'): byte by byte `\x83` + `ana-ml2` is a whole name, which an edit
    # would rewrite inside the character (corrupting it and the name).
    pytest.param("ヂna-ml2の手順\r\n".encode("cp932"), "ana-ml2", id="lead-byte-before-a-name"),
])
def test_an_occurrence_the_readings_disagree_about_is_a_residual_never_rewritten(
        repo: Repo, run: Run, line: bytes, old: str) -> None:
    data = PLAIN + line
    root = repo({"stacks/restart.bat": data})
    sweep = run(root, "sweep", "--commit")
    assert sweep.exit_code == 1, sweep.stdout
    assert (root / "stacks/restart.bat").read_bytes() == PLAIN_AFTER + line  # that line: every byte
    verify = run(root, "verify")
    assert verify.exit_code == 1 and "stacks/restart.bat:2:" in verify.stdout
    assert "residual (multibyte)" in verify.stdout and "convert the file to UTF-8" in verify.stdout
    assert _residuals(run, root) == {("stacks/restart.bat", 2, old, "multibyte")}


@pytest.mark.parametrize("native", ["0", "1"])  # the hyperscan first pass lets the file through too
def test_the_residual_says_both_readings_and_shows_the_line_decoded(
        repo: Repo, run: Run, monkeypatch: pytest.MonkeyPatch, native: str) -> None:
    monkeypatch.setenv("RENAMER_NATIVE", native)
    root = repo({"stacks/runbook.txt": "ホストana-ml2を再起動する\n".encode("shift_jis")})
    verify = run(root, "verify")
    assert verify.exit_code == 1
    assert ("read as Shift_JIS/CP932 ('ホストana-ml2を再起動する'" in verify.stdout
            and "a whole name; read byte by byte (Latin-1), part of a longer word" in verify.stdout)


def test_a_near_miss_only_a_double_byte_reading_sees_is_a_warning(repo: Repo, run: Run) -> None:
    data = "ホストANA-ML2を再起動\n".encode("cp932")  # `…gANA-ML2` byte by byte: no near-miss there
    root = repo({"stacks/runbook.txt": data})
    assert run(root, "sweep", "--commit").exit_code == 0
    assert (root / "stacks/runbook.txt").read_bytes() == data
    plain = run(root, "verify")
    assert plain.exit_code == 0 and "stacks/runbook.txt:1:7: warning: near-miss" in plain.stdout
    assert "a whole name where the file is read as Shift_JIS/CP932" in plain.stdout
    assert run(root, "verify", "--strict").exit_code == 1


def test_latin1_and_utf8_files_are_rewritten_as_before(repo: Repo, run: Run) -> None:
    latin1 = "café ana-ml2 · 10.250.50.54\r\nRéunion: ana-ml2\r\n".encode("latin-1")  # `éu` reads as GBK too
    utf8 = "ホストana-ml2を再起動\n".encode()
    euc = "ホストana-ml2を再起動\n".encode("euc-jp")  # second bytes >= 0x80: no other reading
    root = repo({"stacks/latin1.txt": latin1, "stacks/utf8.txt": utf8, "stacks/euc.txt": euc})
    assert run(root, "sweep", "--commit").exit_code == 0
    assert (root / "stacks/latin1.txt").read_bytes() == latin1.replace(b"ana-ml2", b"fv-ml1").replace(
        b"10.250.50.54", b"10.251.50.54")
    assert (root / "stacks/utf8.txt").read_bytes() == utf8.replace(b"ana-ml2", b"fv-ml1")
    assert (root / "stacks/euc.txt").read_bytes() == euc.replace(b"ana-ml2", b"fv-ml1")
    assert run(root, "verify", "--strict").exit_code == 0


def test_a_latin1_letter_that_a_double_byte_reading_joins_to_a_name_is_not_guessed(
        repo: Repo, run: Run) -> None:
    """`·ana-ml2` in Latin-1 is a whole name; in GBK, `\\xb7a` is one character and `na-ml2` follows it. Which one the
    file is cannot be told from its bytes: reported, not rewritten."""
    data = "·ana-ml2\n".encode("latin-1")
    root = repo({"stacks/notes.txt": data})
    assert run(root, "sweep", "--commit").exit_code == 1
    assert (root / "stacks/notes.txt").read_bytes() == data
    assert _residuals(run, root) == {("stacks/notes.txt", 1, "ana-ml2", "multibyte")}


def test_readings_only_where_a_second_byte_is_ascii() -> None:
    assert multibyte.readings(b"ssh ana-ml2\n") == []
    assert multibyte.readings("ホストana-ml2".encode()) == []
    assert multibyte.readings("ホストana-ml2".encode("euc-jp")) == []
    assert multibyte.readings("café ana-ml2\n".encode("latin-1")) == []  # `é ` is no character anywhere
    (reading,) = multibyte.readings("ホストana-ml2".encode("cp932"))
    assert reading.label == "Shift_JIS/CP932" and reading.masked.count(multibyte.MASK) >= 3
