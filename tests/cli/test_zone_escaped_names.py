"""A zone's names spelled with escapes behave exactly as their plain spelling (break-it round 4,
finding 3): `ana\\-ml2`, `\\097na-ml2` and `ana\\045ml2` are all ana-ml2 to BIND (RFC 1035 5.1), so
an owner, an RDATA target (CNAME, MX, SRV, NS, PTR), a `$ORIGIN` or an `@` under it is compared,
rewritten or refused by that name: a rename that moves the host to another zone leaves an escaped
owner a residual `zone-owner` with its record, as it does the plain one, never rewritten in-zone.

Each case is swept twice, once spelled plainly and once with escapes; BIND's own reading of the
result (named-checkzone's canonical dump) and verify's findings must be the same."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from renamer.names import presentation_name
from tests.conftest import Result
from tests.testing.repos import make_repo
from tests.testing.zones import loaded

Run = Callable[..., Result]
ALLOW = "version: 1\ncurrent: ['**']\n"
MOVE = ("version: 1\nrenames:\n  hosts: {ana-ml2: fv-ml1, ana-ml2.ana.lan: fv-ml1.fv.lan}\n"
        "  addresses: {10.250.50.54: 10.251.50.54}\nallowlist: allow.yaml\n")
IN_ZONE = "version: 1\nrenames:\n  hosts: {ana-ml2.ana.lan: fv-ml1.ana.lan}\nallowlist: allow.yaml\n"
HEAD = "$ORIGIN ana.lan.\n$TTL 300\n@ IN SOA ns1 root 2026010101 1 1 1 1\n@ IN NS ns1\nns1 IN A 10.0.0.53\n"
SPELLINGS = [pytest.param("ana\\-ml2", id="backslash-dash"), pytest.param("\\097na-ml2", id="decimal-first-letter"),
             pytest.param("ana\\045ml2", id="decimal-dash"), pytest.param("AN\\065\\045ML2", id="upper-case-decimal")]
RECORDS = [
    pytest.param("{n} IN A 10.250.50.54\n", id="relative-owner"),
    pytest.param("{n}.ana.lan. IN A 10.0.0.54\n  IN TXT \"x\"\n", id="absolute-owner-and-omitted-owner"),
    pytest.param("www IN CNAME {n}\nweb IN CNAME {n}.ana.lan.\n", id="cname-targets"),
    pytest.param("mail IN MX 10 {n}\n_http._tcp IN SRV 0 5 80 {n}.ana.lan.\nsub IN NS {n}\n", id="mx-srv-ns"),
    pytest.param("$ORIGIN {n}.ana.lan.\n@ IN A 10.0.0.54\nwww IN A 10.0.0.55\n", id="nested-origin-and-at"),
]


def _swept(root: Path, run: Run, name: str, origin: str) -> tuple[int, list[tuple[str, str, str]], list[tuple[int, str]]]:
    """(the sweep's exit code, BIND's records after it, verify's findings as (line, reason))."""
    code = run(root, "sweep", "--commit").exit_code
    findings = json.loads(run(root, "verify", "--format", "json").stdout)["findings"]
    return code, loaded(root / name, origin), sorted((f["line"], f["reason"] or "") for f in findings)


@pytest.mark.parametrize("config", [pytest.param(MOVE, id="moved-to-another-zone"),
                                    pytest.param(IN_ZONE, id="renamed-in-its-zone")])
@pytest.mark.parametrize("records", RECORDS)
@pytest.mark.parametrize("spelled", SPELLINGS)
def test_an_escaped_name_is_decided_as_its_plain_spelling(tmp_path: Path, run: Run, config: str, records: str,
                                                         spelled: str) -> None:
    plain_zone = HEAD + records.format(n=presentation_name(spelled.encode()))  # `ANA-ML2` for `AN\\065\\045ML2`
    escaped_zone = HEAD + records.format(n=spelled)
    plain = make_repo(tmp_path / "plain", {"db.ana": plain_zone}, config=config, allowlist=ALLOW)
    escaped = make_repo(tmp_path / "escaped", {"db.ana": escaped_zone}, config=config, allowlist=ALLOW)
    assert loaded(plain / "db.ana", "ana.lan") == loaded(escaped / "db.ana", "ana.lan")  # BIND: one zone
    expected = _swept(plain, run, "db.ana", "ana.lan")
    assert _swept(escaped, run, "db.ana", "ana.lan") == expected
    if expected[0] == 1:  # something left as it was: the escapes with it
        assert spelled in (escaped / "db.ana").read_text()


REVERSE_HEAD = ("$ORIGIN 50.250.10.in-addr.arpa.\n$TTL 300\n@ IN SOA ns.ana.lan. root.ana.lan. 1 1 1 1 1\n"
                "@ IN NS ns.ana.lan.\n")


@pytest.mark.parametrize(("owner", "target"), [
    pytest.param("\\0534", "ana-ml2.ana.lan.", id="escaped-reverse-owner"),
    pytest.param("5\\052", "ana\\045ml2.ana.lan.", id="escaped-owner-and-ptr-target"),
    pytest.param("54", "\\097na-ml2.ana.lan.", id="escaped-ptr-target"),
])
def test_an_escaped_reverse_owner_or_ptr_target_is_decided_as_its_plain_spelling(
        tmp_path: Path, run: Run, owner: str, target: str) -> None:
    """The owner `54` moves to 10.251.50.54's reverse zone: a residual `reverse-owner`, its PTR target
    with it, however either is spelled; a PTR target alone follows."""
    plain = make_repo(tmp_path / "plain", {"db.10.250.50": REVERSE_HEAD + "54 IN PTR ana-ml2.ana.lan.\n"
                                           "55 IN PTR ana-ml2.ana.lan.\n"}, config=MOVE, allowlist=ALLOW)
    escaped = make_repo(tmp_path / "escaped", {"db.10.250.50": REVERSE_HEAD + f"{owner} IN PTR {target}\n"
                                               f"55 IN PTR {target}\n"}, config=MOVE, allowlist=ALLOW)
    origin = "50.250.10.in-addr.arpa"
    assert loaded(plain / "db.10.250.50", origin) == loaded(escaped / "db.10.250.50", origin)
    expected = _swept(plain, run, "db.10.250.50", origin)
    assert expected[0] == 1 and [r for _, r in expected[2]] == ["reverse-owner", "reverse-owner"]
    assert ("55.50.250.10.in-addr.arpa.", "PTR", "fv-ml1.fv.lan.") in expected[1]
    assert _swept(escaped, run, "db.10.250.50", origin) == expected


@pytest.mark.parametrize(("records", "after", "note"), [
    pytest.param("ana\\045ml2 IN A 10.0.0.54\n", "fv\\045ml1 IN A 10.0.0.54\n", False, id="decimal-dash-kept"),
    pytest.param("ana\\-ml2 IN A 10.0.0.54\n", "fv\\-ml1 IN A 10.0.0.54\n", False, id="backslash-dash-kept"),
    pytest.param("www IN CNAME ana\\045ml2.ana.lan.\n", "www IN CNAME fv\\045ml1.ana.lan.\n", False,
                 id="absolute-target-kept"),
    pytest.param("\\097na-ml2 IN A 10.0.0.54\n", "fv-ml1 IN A 10.0.0.54\n", True, id="one-a-of-two-escaped"),
    pytest.param("ana\\-ml2 IN A 10.0.0.54\n", "fvml1 IN A 10.0.0.54\n", True, id="no-dash-in-the-new-name"),
])
def test_the_file_s_escapes_are_kept_where_they_can_be_and_the_reference_says_where_not(
        tmp_path: Path, run: Run, records: str, after: str, note: bool) -> None:
    new = "fvml1" if "fvml1" in after else "fv-ml1"
    config = IN_ZONE.replace("fv-ml1.ana.lan", f"{new}.ana.lan")
    root = make_repo(tmp_path / "repo", {"db.ana": HEAD + records}, config=config, allowlist=ALLOW)
    (finding,) = json.loads(run(root, "verify", "--format", "json").stdout)["findings"]
    assert ("escapes are not all carried over" in finding["note"]) is note
    assert run(root, "sweep", "--commit").exit_code == 0
    assert (root / "db.ana").read_text().endswith(after)
    assert f"{new}.ana.lan." in {owner for owner, _, _ in loaded(root / "db.ana", "ana.lan")} | {
        data for _, _, data in loaded(root / "db.ana", "ana.lan")}
    assert run(root, "verify", "--strict").exit_code == 0


@pytest.mark.parametrize("native", ["0", "1"])
@pytest.mark.parametrize("owner", ["\\097na-ml2", "ana\\-ml2", "AN\\065\\045ML2"])
def test_the_first_pass_keeps_a_zone_whose_only_old_name_is_escaped(tmp_path: Path, run: Run,
                                                                   monkeypatch: pytest.MonkeyPatch,
                                                                   native: str, owner: str) -> None:
    """No needle stands in the bytes (the rename names only the FQDN): the relative owner is found
    through the zone's decoded reading, by the Python first pass and by the native one alike."""
    monkeypatch.setenv("RENAMER_NATIVE", native)
    root = make_repo(tmp_path / "repo", {"db.ana": HEAD + f"{owner} IN A 10.0.0.54\n", "notes.txt": "x\n"},
                     config=IN_ZONE, allowlist=ALLOW)
    assert run(root, "verify").exit_code == 1
    assert run(root, "sweep", "--commit").exit_code == 0
    assert ("fv-ml1.ana.lan.", "A", "10.0.0.54") in loaded(root / "db.ana", "ana.lan")


def _findings(run: Run, root: Path) -> list[tuple[int, str]]:
    return sorted((f["line"], f["reason"] or "") for f in json.loads(run(root, "verify", "--format", "json").stdout)
                  ["findings"])


@pytest.mark.parametrize("spelled", SPELLINGS)
def test_in_a_fragment_of_unknown_origin_an_escaped_name_is_decided_as_its_plain_spelling(
        tmp_path: Path, run: Run, spelled: str) -> None:
    """No `$ORIGIN`, no SOA, nobody includes it: the relative owner is a residual `zone-origin`
    with its record, the absolute CNAME target follows, in the file's escapes where they can be kept."""
    records = "{n} IN A 10.250.50.54\nwww IN CNAME {n}.ana.lan.\n"
    plain = make_repo(tmp_path / "plain", {"hosts.inc": records.format(n=presentation_name(spelled.encode()))},
                      config=MOVE, allowlist=ALLOW)
    escaped = make_repo(tmp_path / "escaped", {"hosts.inc": records.format(n=spelled)}, config=MOVE, allowlist=ALLOW)
    assert _findings(run, escaped) == _findings(run, plain) == [(1, "zone-origin"), (1, "zone-origin"), (2, "")]
    assert run(escaped, "sweep", "--commit").exit_code == run(plain, "sweep", "--commit").exit_code == 1
    assert _findings(run, escaped) == _findings(run, plain)
    target = (escaped / "hosts.inc").read_text().splitlines()[1]
    assert presentation_name(target.split()[-1].encode()) in ("fv-ml1.fv.lan.", "FV-ML1.fv.lan.")


def test_in_a_signed_zone_an_escaped_name_is_a_residual(tmp_path: Path, run: Run) -> None:
    """Never edited, never silent: the escaped owner and its target are residuals like the plain ones."""
    records = ("{n} IN A 10.0.0.54\nwww IN CNAME {m}.ana.lan.\n"
               "www IN RRSIG A 5 3 300 20300101000000 20200101000000 12345 ana.lan. AAAA\n")
    plain = make_repo(tmp_path / "plain", {"db.ana": HEAD + records.format(n="ana-ml2", m="ana-ml2")},
                      config=MOVE, allowlist=ALLOW)
    zone = HEAD + records.format(n="\\097na-ml2", m="ana\\045ml2")
    root = make_repo(tmp_path / "repo", {"db.ana": zone}, config=MOVE, allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == run(plain, "sweep", "--commit").exit_code == 1
    assert (root / "db.ana").read_text() == zone
    assert [line for line, _ in _findings(run, root)] == [line for line, _ in _findings(run, plain)] == [6, 7]
