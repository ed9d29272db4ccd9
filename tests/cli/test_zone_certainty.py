"""A zone fragment's zone known for certain, or not at all (issue 27, break-it round 3, findings 5,
6, 10 and 17): an `$INCLUDE` path that names several repo files, a fragment two zones of different
origins include, a fragment nobody includes (records with no SOA), an ip6.arpa fragment, and a
backed-up named.conf. Where the zone is not certain, a relative old spelling is `zone-origin` (its
record with it) and a changed fragment whose zone's serial cannot be named is `zone-serial`: exit
1, never a silent edit. Zones BIND loads are checked with named-checkzone."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Result
from tests.testing.zones import loaded, serial

Repo = Callable[..., Path]
Run = Callable[..., Result]
ALLOW = "version: 1\ncurrent: ['**']\n"
INSIDE = ("version: 1\nrenames:\n  hosts: {ana-ml2.ana.lan: fv-ml1.ana.lan}\n"
          "  addresses: {10.250.50.54: 10.250.50.99}\nallowlist: allow.yaml\n")
HEAD = "$TTL 300\n@ IN SOA ns1 root 1 1 1 1 1\n@ IN NS ns1\nns1 IN A 10.0.0.53\n"


def _findings(run: Run, root: Path) -> set[tuple[str, int, str, str]]:
    out = json.loads(run(root, "verify", "--format", "json").stdout)["findings"]
    return {(f["path"], f["line"], f["old"], f["reason"]) for f in out}


def _reasons(run: Run, root: Path) -> set[tuple[str, str]]:
    return {(path, reason) for path, _, _, reason in _findings(run, root)}


@pytest.mark.parametrize("include", [
    pytest.param("/etc/bind/hosts.inc", id="reported-absolute-path-two-files"),
    pytest.param("/srv/dns/zones/hosts.inc", id="deeper-absolute-path-two-files"),
])
def test_an_include_path_naming_two_repo_files_is_never_a_silent_edit(repo: Repo, run: Run, include: str) -> None:
    """The reproduction: each site's zone includes `hosts.inc` by a path both repo files answer to.
    Neither fragment's zone is certain: its relative owner and its record stay, `zone-origin`, and
    the serial to bump is not known, `zone-serial`; exit 1, verify fails."""
    zone = "$ORIGIN ana.lan.\n" + HEAD + f"$INCLUDE {include}\n"
    fragment = "ana-ml2 IN A 10.250.50.54\n"
    root = repo({"site-a/db.ana": zone, "site-b/db.ana": zone, "site-a/hosts.inc": fragment,
                 "site-b/hosts.inc": fragment}, config=INSIDE, allowlist=ALLOW)
    result = run(root, "sweep", "--commit")
    assert result.exit_code == 1, result.stdout + result.stderr
    for site in ("site-a", "site-b"):
        assert (root / site / "hosts.inc").read_text() == fragment
        assert (root / site / "db.ana").read_text() == zone
    assert _findings(run, root) == {(f"{site}/hosts.inc", 1, old, "zone-origin")
                                    for site in ("site-a", "site-b") for old in ("ana-ml2", "10.250.50.54")}
    assert run(root, "verify", "--strict").exit_code == 1


def test_an_absolute_edit_in_an_unsure_fragment_says_the_serial_is_left(repo: Repo, run: Run) -> None:
    """An absolute CNAME target is certain and rewritten, but which zone's serial makes BIND load
    it is not: a `zone-serial` residual on the fragment, exit 1, no zone's serial touched."""
    zone = "$ORIGIN ana.lan.\n" + HEAD + "$INCLUDE /etc/bind/hosts.inc\n"
    fragment = "www IN CNAME ana-ml2.ana.lan.\n"
    root = repo({"site-a/db.ana": zone, "site-b/db.ana": zone, "site-a/hosts.inc": fragment,
                 "site-b/hosts.inc": fragment}, config=INSIDE, allowlist=ALLOW)
    result = run(root, "sweep", "--commit")
    assert result.exit_code == 1, result.stdout + result.stderr
    assert "not certain" in result.stdout
    for site in ("site-a", "site-b"):
        assert (root / site / "hosts.inc").read_text() == "www IN CNAME fv-ml1.ana.lan.\n"
        assert (root / site / "db.ana").read_text() == zone  # its serial too
    # A serial is the sweep's to bump as it writes: its residual is said then (as for a placeholder).
    assert all(f"{site}/hosts.inc:1:1: SOA serial (zone-serial" in result.stdout for site in ("site-a", "site-b"))
    assert "not certain" in result.stdout  # the shared explanation, said once under Why (t35 finding 23)


@pytest.mark.parametrize("zones", [
    pytest.param({"db.ana": "$ORIGIN ana.lan.\n", "db.other": "$ORIGIN other.lan.\n"}, id="reported-two-origins"),
    pytest.param({"db.ana": "$ORIGIN lan.\n$ORIGIN ana\n", "db.other": "$ORIGIN other.lan.\n"},
                 id="relative-origin-in-one"),
    pytest.param({"db.ana": "$ORIGIN ana.lan.\n", "db.other": "$ORIGIN ana.lan.\n",
                  "db.third": "$ORIGIN third.lan.\n"}, id="two-agree-a-third-differs"),
])
def test_a_fragment_two_origins_include_keeps_its_relative_old_names(repo: Repo, run: Run,
                                                                     zones: dict[str, str]) -> None:
    """`hosts.inc` means `ana-ml2.ana.lan` in one zone and `ana-ml2.other.lan` in another: never
    rewritten, never silent; each relative old spelling is `zone-origin`."""
    fragment = "ana-ml2 IN A 10.0.0.7\nwww IN CNAME ana-ml2\n"
    files = {rel: text + HEAD + "$INCLUDE hosts.inc\n" for rel, text in zones.items()}
    root = repo({**files, "hosts.inc": fragment}, config=INSIDE, allowlist=ALLOW)
    result = run(root, "sweep", "--commit")
    assert result.exit_code == 1, result.stdout + result.stderr
    assert (root / "hosts.inc").read_text() == fragment
    assert _findings(run, root) == {("hosts.inc", 1, "ana-ml2", "zone-origin"),
                                    ("hosts.inc", 2, "ana-ml2", "zone-origin")}


@pytest.mark.parametrize(("name", "records", "expected"), [
    pytest.param("solo.zone", "ana-ml2 IN A 10.1.1.1\n", {(1, "ana-ml2")}, id="reported-solo-fragment"),
    pytest.param("hosts.db", "$TTL 60\nana-ml2 300 IN A 10.1.1.1\n  IN TXT \"x\"\nmx IN MX 10 ana-ml2.ana\n",
                 {(2, "ana-ml2"), (4, "ana-ml2.ana")}, id="ttl-omitted-owner-two-labels"),
    pytest.param("internal", "web IN CNAME ANA-ML2\n", {(1, "ANA-ML2")}, id="no-suffix-upper-case"),
])
def test_records_nobody_includes_are_a_zone_of_unknown_origin(repo: Repo, run: Run, name: str, records: str,
                                                              expected: set[tuple[int, str]]) -> None:
    root = repo({name: records}, config=INSIDE, allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 1
    assert (root / name).read_text() == records
    assert _findings(run, root) == {(name, line, old, "zone-origin") for line, old in expected}


def test_an_absolute_edit_in_a_fragment_nobody_includes_says_the_serial_is_left(repo: Repo, run: Run) -> None:
    root = repo({"frag.zone": "www IN CNAME ana-ml2.ana.lan.\n"}, config=INSIDE, allowlist=ALLOW)
    result = run(root, "sweep", "--commit")
    assert result.exit_code == 1, result.stdout + result.stderr
    assert (root / "frag.zone").read_text() == "www IN CNAME fv-ml1.ana.lan.\n"
    assert "frag.zone:1:1: SOA serial (zone-serial:" in result.stdout
    assert "no zone in the repo $INCLUDEs it" in result.stdout


@pytest.mark.parametrize("text", [
    pytest.param("10.0.0.1 ana-ml2\n", id="hosts-file"),
    pytest.param("[web]\nana-ml2 ansible_host=10.0.0.1\n", id="inventory"),
    pytest.param("ana-ml2 is the A record of the lab\n", id="prose"),
])
def test_files_that_are_not_records_stay_plain_text(repo: Repo, run: Run, text: str) -> None:
    """Only a file every line of which reads as a record is a fragment: these are rewritten as
    before (the short name is no rename here, so nothing at all happens to it)."""
    config = "version: 1\nrenames:\n  hosts: {ana-ml2.ana.lan: fv-ml1.ana.lan, ana-ml2: fv-ml1}\nallowlist: allow.yaml\n"
    root = repo({"notes": text}, config=config, allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 0
    assert (root / "notes").read_text() == text.replace("ana-ml2", "fv-ml1")


V6 = "version: 1\nrenames:\n  addresses: {fd00:250::54: fd00:251::54}\nallowlist: allow.yaml\n"
NIBBLES = "4.5.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0"  # fd00:250::54's first 20 nibbles


@pytest.mark.parametrize(("records", "expected"), [
    pytest.param(f"{NIBBLES} IN PTR ana-ml2.ana.lan.\n", {(1, NIBBLES)}, id="reported-20-nibbles"),
    pytest.param("4.5 IN PTR a.lan.\n4.6 IN PTR b.lan.\n", {(1, "4.5")}, id="two-nibbles-and-a-neighbour"),
    pytest.param(HEAD.replace("ns1 IN A 10.0.0.53\n", "") + "4 IN PTR a.lan.\n", {(4, "4")},
                 id="one-nibble-in-a-zone-with-soa"),
])
def test_an_ipv6_relative_reverse_owner_under_an_unknown_origin_is_a_residual(repo: Repo, run: Run, records: str,
                                                                              expected: set[tuple[int, str]]) -> None:
    root = repo({"zones/rev6.frag": records}, config=V6, allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 1
    assert (root / "zones/rev6.frag").read_text() == records
    assert _findings(run, root) == {("zones/rev6.frag", line, old, "zone-origin") for line, old in expected}


def test_an_ipv6_reverse_owner_under_a_known_origin_follows(repo: Repo, run: Run) -> None:
    """The same nibbles under the /64's `$ORIGIN`: read as fd00:250::54's reverse name, renumbered
    into the other /48's zone, which is a residual `reverse-owner` (never a silent pass)."""
    origin = "0.0.0.0.0.5.2.0.0.0.d.f.ip6.arpa."
    zone = f"$ORIGIN {origin}\n$TTL 300\n@ IN SOA ns.lan. root.lan. 1 1 1 1 1\n@ IN NS ns.lan.\n{NIBBLES} IN PTR a.lan.\n"
    root = repo({"db.v6": zone}, config=V6, allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 1
    assert (root / "db.v6").read_text() == zone
    assert _reasons(run, root) == {("db.v6", "reverse-owner")}


RECORDS = ("version: 1\ncurrent: ['**']\nrecords:\n  - name: backups\n    paths: %s\n"
           "    reason: what the server ran before\n")
NAMED = 'zone "%s" { type master; file "/etc/bind/db.ana"; };\n'


@pytest.mark.parametrize("backup", [
    pytest.param("backups/named.conf.local", id="reported-backups-folder"),
    pytest.param("archive/2024/named.conf", id="archive-folder"),
])
def test_a_backed_up_named_conf_is_not_configuration(repo: Repo, run: Run, backup: str) -> None:
    """The live named.conf says db.ana holds ana.lan; a backup (a record) names it old.lan: only
    the live one counts, so the relative owner follows and the serial grows."""
    allow = RECORDS % "[backups/**, archive/**]"
    zone = HEAD + "ana-ml2 IN A 10.0.0.7\n"
    root = repo({"bind/named.conf.local": NAMED % "ana.lan", backup: NAMED % "old.lan", "bind/db.ana": zone},
                config=INSIDE, allowlist=allow)
    result = run(root, "sweep", "--commit")
    assert result.exit_code == 0, result.stdout + result.stderr
    assert ("fv-ml1.ana.lan.", "A", "10.0.0.7") in loaded(root / "bind/db.ana", "ana.lan", root / "bind")
    assert serial(root / "bind/db.ana", "ana.lan", root / "bind") != "1"
    assert (root / backup).read_text() == NAMED % "old.lan"
    explained = run(root, "explain", "bind/db.ana")
    assert "zone-origin" not in explained.stdout
    assert run(root, "verify", "--strict").exit_code == 0


def test_a_backed_up_zone_does_not_make_a_fragment_ambiguous(repo: Repo, run: Run) -> None:
    """A backup of the zone from when it was another origin includes the same fragment: it is no
    zone a server loads, so the fragment follows the live zone."""
    allow = RECORDS % "[backups/**]"
    root = repo({"db.ana": "$ORIGIN ana.lan.\n" + HEAD + "$INCLUDE hosts.inc\n",
                 "backups/db.old": "$ORIGIN old.lan.\n" + HEAD + "$INCLUDE ../hosts.inc\n",
                 "hosts.inc": "ana-ml2 IN A 10.0.0.7\n"}, config=INSIDE, allowlist=allow)
    result = run(root, "sweep", "--commit")
    assert result.exit_code == 0, result.stdout + result.stderr
    assert (root / "hosts.inc").read_text() == "fv-ml1 IN A 10.0.0.7\n"
    assert serial(root / "db.ana", "ana.lan", root) != "1"
