"""What a zone's bytes do not spell (issue 27, break-it round 3, findings 7, 14 and 15): RFC 1035's
`\\DDD` is DECIMAL in a zone file (and a name server's configuration), so `ana\\045ml2` is ana-ml2
and `ana\\055ml2` the other name ana7ml2; a ZONEMD digest, or DNSSEC records in RFC 3597's generic
`TYPEnn` syntax, mean the zone is never edited; a `$GENERATE` line whose records cover an old
address or name is a `range`. Zones are loaded by named-checkzone (BIND's own reading)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Result
from tests.testing.zones import loaded

Repo = Callable[..., Path]
Run = Callable[..., Result]
ALLOW = "version: 1\ncurrent: ['**']\n"
CONFIG = ("version: 1\nrenames:\n  hosts: {ana-ml2: fv-ml1, ana-ml2.ana.lan: fv-ml1.fv.lan}\n"
          "  addresses: {10.250.50.54: 10.251.50.54}\nallowlist: allow.yaml\n")
HEAD = "$ORIGIN ana.lan.\n$TTL 300\n@ IN SOA ns1 root 2026010101 1 1 1 1\n@ IN NS ns1\nns1 IN A 10.0.0.53\n"


def _findings(run: Run, root: Path) -> set[tuple[str, int, str, str]]:
    out = json.loads(run(root, "verify", "--format", "json").stdout)["findings"]
    return {(f["path"], f["line"], f["old"], f["reason"]) for f in out}


@pytest.mark.parametrize(("records", "found", "after"), [
    pytest.param("ana\\045ml2 IN A 10.1.1.8\nwww IN CNAME ana\\045ml2.ana.lan.\n", {(6, "zone-owner")},
                 "ana\\045ml2 IN A 10.1.1.8\nwww IN CNAME fv\\045ml1.fv.lan.\n", id="reported-owner-and-target"),
    pytest.param("mx IN MX 10 \\097na-ml2.ana.lan.\n", set(), "mx IN MX 10 fv-ml1.fv.lan.\n", id="first-letter-escaped"),
    pytest.param("txt IN CNAME ana-ml\\050.ana.lan.\n", set(), "txt IN CNAME fv-ml1.fv.lan.\n", id="last-digit-escaped"),
])
def test_a_decimal_escape_spelling_an_old_name_is_found(repo: Repo, run: Run, records: str,
                                                        found: set[tuple[int, str]], after: str) -> None:
    """BIND reads these as ana-ml2 (we load the zone to prove it): never a silent pass, and decided
    as the plain name would be (break-it round 4, finding 3: tests/cli/test_zone_escaped_names.py):
    the owner that would leave the zone is a residual `zone-owner`, targets follow."""
    root = repo({"db.ana": HEAD + records}, config=CONFIG, allowlist=ALLOW)
    assert any(owner.startswith("ana-ml2.") or data.startswith(("ana-ml2.", "10 ana-ml2."))
               for owner, _, data in loaded(root / "db.ana", "ana.lan"))
    assert run(root, "sweep", "--commit").exit_code == (1 if found else 0)
    assert (root / "db.ana").read_text().endswith(after)
    assert not any("ana-ml2" in data for _, _, data in loaded(root / "db.ana", "ana.lan"))
    assert {(line, reason) for _, line, _, reason in _findings(run, root)} == found


@pytest.mark.parametrize("records", [
    pytest.param("ana\\055ml2 IN A 10.1.1.8\n", id="reported-055-is-ana7ml2"),
    pytest.param("www IN CNAME ana\\055ml2.ana.lan.\n", id="target"),
    pytest.param("ana\\x2dml2 IN A 10.1.1.8\n", id="backslash-x-is-the-letter-x"),
])
def test_an_escape_bind_reads_as_another_name_is_no_finding(repo: Repo, run: Run, records: str) -> None:
    root = repo({"db.ana": HEAD + records}, config=CONFIG, allowlist=ALLOW)
    assert not any("ana-ml2" in owner or "ana-ml2" in data for owner, _, data in loaded(root / "db.ana", "ana.lan"))
    assert run(root, "sweep", "--commit").exit_code == 0
    assert (root / "db.ana").read_text() == HEAD + records
    assert run(root, "verify", "--strict").exit_code == 0


@pytest.mark.parametrize(("name", "text"), [
    pytest.param("unbound.conf", 'server:\n  local-data: "ana\\045ml2.ana.lan. A 10.1.1.8"\n', id="unbound"),
    pytest.param("bind/named.conf.local", 'zone "ana\\045ml2.ana.lan" { type master; file "x"; };\n', id="named-conf"),
])
def test_a_name_server_s_configuration_reads_ddd_as_decimal(repo: Repo, run: Run, name: str, text: str) -> None:
    root = repo({name: text, f"{name}.055": text.replace("045", "055")}, config=CONFIG, allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 1
    assert (root / name).read_text() == text
    assert {(path, reason) for path, _, _, reason in _findings(run, root)} == {(name, "encoded")}


SIGNATURE = "5 3 300 20300101000000 20200101000000 12345 ana.lan. AAAA"


@pytest.mark.parametrize(("records", "reason"), [
    pytest.param("@ IN ZONEMD 2026010101 1 1 ( 0123456789abcdef0123456789abcdef0123456789abcdef"
                 "0123456789abcdef0123456789abcdef0123456789abcdef )\n", "zonemd", id="reported-zonemd"),
    pytest.param("@ 300 IN TYPE63 \\# 6 7848B78C0101\n", "zonemd", id="zonemd-generic"),
    pytest.param("www IN TYPE46 \\# 4 0A000001\n", "signed-zone", id="reported-rrsig-type46"),
    pytest.param("www IN TYPE47 \\# 4 0A000001\n", "signed-zone", id="nsec-type47"),
    pytest.param("www IN NSEC3 \\# 4 0A000001\n", "signed-zone", id="nsec3-generic-rdata"),
    pytest.param(f"www IN RRSIG A {SIGNATURE}\n", "signed-zone", id="rrsig-by-name"),
    pytest.param(f"w\\119w IN RRSIG A {SIGNATURE}\n", "signed-zone", id="rrsig-with-an-escaped-owner"),
])
def test_a_digested_or_signed_zone_is_never_edited(repo: Repo, run: Run, records: str, reason: str) -> None:
    """The owner, the CNAME target and the address all stay: each old value is a residual."""
    zone = HEAD + "ana-ml2 IN A 10.250.50.54\nweb IN CNAME ana-ml2.ana.lan.\n" + records
    root = repo({"db.ana": zone}, config=CONFIG, allowlist=ALLOW)
    result = run(root, "sweep", "--commit")
    assert result.exit_code == 1, result.stdout + result.stderr
    assert (root / "db.ana").read_text() == zone
    assert _findings(run, root) == {("db.ana", 6, "ana-ml2", reason), ("db.ana", 6, "10.250.50.54", reason),
                                    ("db.ana", 7, "ana-ml2.ana.lan", reason)}
    explained = run(root, "explain", "db.ana")
    assert reason in explained.stdout
    assert ("ZONEMD" if reason == "zonemd" else "DNSSEC") in explained.stdout


def test_dnskey_in_generic_syntax_still_guards_its_owner(repo: Repo, run: Run) -> None:
    """A zone renamed whole through its `$ORIGIN` with a DNSKEY written `TYPE48`: `dnssec-key`."""
    config = "version: 1\nrenames:\n  hosts: {ana.lan: fv.lan}\nallowlist: allow.yaml\n"
    zone = HEAD + "@ IN TYPE48 \\# 4 01010303\nweb IN A 10.0.0.2\n"
    root = repo({"db.ana": zone}, config=config, allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 1
    assert (root / "db.ana").read_text() == zone
    assert {reason for *_, reason in _findings(run, root)} == {"dnssec-key"}


@pytest.mark.parametrize(("line", "old"), [
    pytest.param("$GENERATE 50-60 dyn-$ A 10.250.50.$", "10.250.50.54", id="reported-forward"),
    pytest.param("$GENERATE 50-60/2 dyn-$ A 10.250.50.$", "10.250.50.54", id="stepped"),
    pytest.param("$GENERATE 4-6 dyn-${50} A 10.250.50.${50}", "10.250.50.54", id="offset-modifier"),
    pytest.param("$GENERATE 1-3 ana-ml$ IN A 10.0.0.$", "ana-ml2.ana.lan", id="name-member-relative"),
    pytest.param("$GENERATE 1-3 ana-ml${0,1} 300 IN CNAME web.ana.lan.", "ana-ml2.ana.lan", id="width-ttl-class"),
])
def test_a_generate_range_covering_an_old_value_is_a_range(repo: Repo, run: Run, line: str, old: str) -> None:
    zone = HEAD + line + "\n"
    root = repo({"db.ana": zone}, config=CONFIG, allowlist=ALLOW)
    loaded(root / "db.ana", "ana.lan")  # BIND loads it as written
    assert run(root, "sweep", "--commit").exit_code == 1
    assert (root / "db.ana").read_text() == zone
    assert _findings(run, root) == {("db.ana", 6, old, "range")}


def test_a_reverse_generate_covering_an_old_address_is_a_range(repo: Repo, run: Run) -> None:
    zone = ("$ORIGIN 50.250.10.in-addr.arpa.\n$TTL 300\n@ IN SOA ns.lan. root.lan. 1 1 1 1 1\n@ IN NS ns.lan.\n"
            "$GENERATE 50-60 $ PTR dyn-$.ana.lan.\n")
    root = repo({"db.10.250.50": zone}, config=CONFIG, allowlist=ALLOW)
    loaded(root / "db.10.250.50", "50.250.10.in-addr.arpa")
    assert run(root, "sweep", "--commit").exit_code == 1
    assert (root / "db.10.250.50").read_text() == zone
    assert {(line, reason) for _, line, _, reason in _findings(run, root)} == {(5, "range")}


@pytest.mark.parametrize("line", [
    pytest.param("$GENERATE 60-70 dyn-$ A 10.250.50.$", id="range-misses-the-address"),
    pytest.param("$GENERATE 50-60 dyn-$ A 10.250.51.$", id="other-network"),
    pytest.param("$GENERATE 3-9 ana-ml$ A 10.0.0.$", id="misses-the-name"),
])
def test_a_generate_range_missing_every_old_value_is_no_finding(repo: Repo, run: Run, line: str) -> None:
    zone = HEAD + line + "\n"
    root = repo({"db.ana": zone}, config=CONFIG, allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 0
    assert (root / "db.ana").read_text() == zone
    assert run(root, "verify", "--strict").exit_code == 0


def test_a_constant_old_name_in_a_generate_line_is_rewritten(repo: Repo, run: Run) -> None:
    """The template's constant text spells the old name: every member changes alike, so the line
    is rewritten as any other (and BIND loads the result)."""
    zone = HEAD + "$GENERATE 1-3 alias$ CNAME ana-ml2.ana.lan.\n"
    root = repo({"db.ana": zone}, config=CONFIG, allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 0
    assert "$GENERATE 1-3 alias$ CNAME fv-ml1.fv.lan.\n" in (root / "db.ana").read_text()
    assert ("alias2.ana.lan.", "CNAME", "fv-ml1.fv.lan.") in loaded(root / "db.ana", "ana.lan")
