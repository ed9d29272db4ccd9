"""Zone fragments and zones of unknown origin (issue 27, break-it pass 27b, item 1).

A file a zone `$INCLUDE`s is read with the origin in force at the directive, also where the zone
says its own name (`$ORIGIN`, an absolute SOA owner) and no named.conf names it; a change inside
a fragment bumps the serial of every zone file including it. A relative name whose origin is
unknown and that spells an old name relatively is a `zone-origin` residual. Each zone is loaded by
named-checkzone (BIND's own reading, `$INCLUDE`s followed) before and after the sweep."""

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
OUT = ("version: 1\nrenames:\n  hosts: {ana-ml2.ana.lan: fv-ml1.fv.lan}\n  addresses: {10.0.0.1: 10.0.1.1}\n"
       "allowlist: allow.yaml\n")
INSIDE = ("version: 1\nrenames:\n  hosts: {ana-ml2.ana.lan: fv-ml1.ana.lan}\n  addresses: {10.0.0.1: 10.0.1.1}\n"
          "allowlist: allow.yaml\n")
HEAD = "$TTL 300\n@ IN SOA ns1 root 1 1 1 1 1\n@ IN NS ns1\nns1 IN A 10.0.0.53\n"
FRAGMENT = "ana-ml2 IN A 10.0.0.1\nweb IN CNAME ana-ml2\n"


def _findings(run: Run, root: Path) -> list[tuple[str, int, str, str]]:
    out = json.loads(run(root, "verify", "--format", "json").stdout)["findings"]
    return sorted((f["path"], f["line"], f["old"], f["reason"]) for f in out)


def test_the_reported_fragment_is_read_under_its_zone_and_the_zone_serial_is_bumped(repo: Repo, run: Run) -> None:
    """The reproduction: the owner leaves ana.lan, so it and its record are a residual; the CNAME
    pointing at it follows (absolute); the including zone's serial grows."""
    root = repo({"zones/ana.zone": "$ORIGIN ana.lan.\n" + HEAD + "$INCLUDE zones/hosts.inc\n",
                 "zones/hosts.inc": FRAGMENT}, config=OUT, allowlist=ALLOW)
    zone = root / "zones/ana.zone"
    before = serial(zone, "ana.lan", root)
    result = run(root, "sweep", "--commit")
    assert result.exit_code == 1, result.stdout + result.stderr  # residuals that need a decision
    assert "NOT bumped" not in result.stdout
    assert ("ana-ml2.ana.lan.", "A", "10.0.0.1") in loaded(zone, "ana.lan", root)
    assert ("web.ana.lan.", "CNAME", "fv-ml1.fv.lan.") in loaded(zone, "ana.lan", root)
    assert serial(zone, "ana.lan", root) != before
    assert _findings(run, root) == [("zones/hosts.inc", 1, "10.0.0.1", "zone-owner"),
                                    ("zones/hosts.inc", 1, "ana-ml2", "zone-owner")]
    assert run(root, "verify", "--strict").exit_code == 1


@pytest.mark.parametrize(("zone", "include"), [
    pytest.param("$ORIGIN ana.lan.\n" + HEAD + "$INCLUDE hosts.inc\n", "hosts.inc", id="origin-first"),
    pytest.param(HEAD.replace("@ IN SOA", "ana.lan. IN SOA") + "$INCLUDE hosts.inc\n", "hosts.inc",
                 id="absolute-soa-owner-no-origin"),
    pytest.param("$ORIGIN lan.\n" + HEAD.replace("@ ", "ana ").replace("ns1", "ns1.ana") + "$INCLUDE hosts.inc ana.lan.\n",
                 "hosts.inc", id="origin-given-on-the-directive"),
    pytest.param("$ORIGIN ana.lan.\n" + HEAD + "$INCLUDE mid.inc\n", "inner.inc", id="a-fragment-included-by-a-fragment"),
])
def test_a_rename_inside_the_zone_follows_in_the_fragment(repo: Repo, run: Run, zone: str, include: str) -> None:
    """Variants of the directive: the fragment's relative owner and CNAME follow, relative, and
    the zone (not the fragment) gets the serial bump; BIND loads the result."""
    files = {"db.ana": zone, include: FRAGMENT}
    if include == "inner.inc":
        files["mid.inc"] = "; the hosts\n$INCLUDE inner.inc\n"
    root = repo(files, config=INSIDE, allowlist=ALLOW)
    before = serial(root / "db.ana", "ana.lan", root)
    result = run(root, "sweep", "--commit")
    assert result.exit_code == 0, result.stdout + result.stderr
    assert (root / include).read_text() == "fv-ml1 IN A 10.0.1.1\nweb IN CNAME fv-ml1\n"
    records = loaded(root / "db.ana", "ana.lan", root)
    assert ("fv-ml1.ana.lan.", "A", "10.0.1.1") in records
    assert ("web.ana.lan.", "CNAME", "fv-ml1.ana.lan.") in records
    assert serial(root / "db.ana", "ana.lan", root) != before
    assert "serial NOT bumped" not in result.stdout
    assert run(root, "verify", "--strict").exit_code == 0


def test_an_address_change_in_a_fragment_bumps_each_view_including_it(repo: Repo, run: Run) -> None:
    """Two zone files of one zone (an internal and an external view) include one fragment: only an
    address changes there, and both serials grow."""
    views = {f"{v}/db.ana": "$ORIGIN ana.lan.\n" + HEAD + "$INCLUDE common/hosts.inc\n" for v in ("int", "ext")}
    root = repo({**views, "common/hosts.inc": "app IN A 10.0.0.1\n"}, config=INSIDE, allowlist=ALLOW)
    result = run(root, "sweep", "--commit")
    assert result.exit_code == 0, result.stdout + result.stderr
    for view in views:
        assert serial(root / view, "ana.lan", root) != "1"
        assert ("app.ana.lan.", "A", "10.0.1.1") in loaded(root / view, "ana.lan", root)
    again = run(root, "sweep", "--dry-run")
    assert "would change 0 files" in again.stdout  # the bump is not repeated once done


def test_a_zone_whose_own_records_change_is_bumped_once(repo: Repo, run: Run) -> None:
    root = repo({"db.ana": "$ORIGIN ana.lan.\n" + HEAD + "old IN A 10.0.0.1\n$INCLUDE hosts.inc\n",
                 "hosts.inc": FRAGMENT}, config=INSIDE, allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 0
    assert serial(root / "db.ana", "ana.lan", root) != "1"
    assert (root / "db.ana").read_text().count("IN SOA ns1 root 1 ") == 0


NO_ORIGIN = HEAD + FRAGMENT


@pytest.mark.parametrize(("records", "expected"), [
    pytest.param(FRAGMENT, [(5, "ana-ml2"), (6, "ana-ml2")], id="reported-owner-and-cname"),
    pytest.param("ana-ml2.ana IN A 10.0.0.9\nx IN MX 10 ana-ml2\n", [(5, "ana-ml2.ana"), (6, "ana-ml2")],
                 id="two-label-spelling-and-mx"),
    pytest.param("ANA-ML2 IN A 10.0.0.9\n", [(5, "ANA-ML2")], id="other-case"),
])
def test_a_relative_old_name_under_an_unknown_origin_is_a_residual(repo: Repo, run: Run, records: str,
                                                                   expected: list[tuple[int, str]]) -> None:
    config = "version: 1\nrenames:\n  hosts: {ana-ml2.ana.lan: fv-ml1.ana.lan}\nallowlist: allow.yaml\n"
    root = repo({"master/internal.db": HEAD + records}, config=config, allowlist=ALLOW)
    before = (root / "master/internal.db").read_text()
    assert run(root, "sweep", "--commit").exit_code == 1
    assert (root / "master/internal.db").read_text() == before
    assert _findings(run, root) == [("master/internal.db", line, old, "zone-origin") for line, old in expected]
    assert run(root, "verify", "--strict").exit_code == 1


def test_names_that_are_certain_under_an_unknown_origin_are_not_residuals(repo: Repo, run: Run) -> None:
    """An absolute old name is rewritten; a relative name spelling no old name is no finding."""
    config = "version: 1\nrenames:\n  hosts: {ana-ml2.ana.lan: fv-ml1.ana.lan}\nallowlist: allow.yaml\n"
    root = repo({"internal.db": HEAD + "web IN CNAME ana-ml2.ana.lan.\nana-ml3 IN A 10.0.0.2\n"},
                config=config, allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 0
    assert "web IN CNAME fv-ml1.ana.lan.\nana-ml3 IN A 10.0.0.2\n" in (root / "internal.db").read_text()
    assert run(root, "verify", "--strict").exit_code == 0


def test_a_zone_serial_that_cannot_be_bumped_is_a_residual_of_the_fragment(repo: Repo, run: Run) -> None:
    """The including zone's serial is a placeholder a deploy fills in: the fragment is still
    rewritten, and the sweep says the serial is left, with exit 1 (never a silent pass)."""
    zone = "$ORIGIN ana.lan.\n" + HEAD.replace(" root 1 ", " root SERIAL_FROM_CI ") + "$INCLUDE hosts.inc\n"
    root = repo({"db.ana": zone, "hosts.inc": FRAGMENT}, config=INSIDE, allowlist=ALLOW)
    result = run(root, "sweep", "--commit")
    assert result.exit_code == 1, result.stdout + result.stderr
    assert "hosts.inc:1:1: SOA serial (zone-serial:" in result.stdout and "serial of db.ana" in result.stdout
    assert (root / "hosts.inc").read_text() == "fv-ml1 IN A 10.0.1.1\nweb IN CNAME fv-ml1\n"
    assert (root / "db.ana").read_text() == zone


def test_an_old_address_as_a_relative_ptr_owner_under_an_unknown_origin_is_a_residual(repo: Repo, run: Run) -> None:
    """A reverse zone with no `$ORIGIN` and no named.conf: `54` and `54.50` may be 10.250.50.54's
    PTR owner (the file names no old value at all); `54.51` and `55` cannot be."""
    config = "version: 1\nrenames:\n  addresses: {10.250.50.54: 10.251.50.54}\nallowlist: allow.yaml\n"
    zone = ("$TTL 300\n@ IN SOA ns.lan. root.lan. 1 1 1 1 1\n@ IN NS ns.lan.\n54 IN PTR db.lan.\n"
            "54.51 IN PTR x.lan.\n55 IN PTR y.lan.\n54.50 IN PTR z.lan.\n")
    root = repo({"db.rev": zone}, config=config, allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 1
    assert (root / "db.rev").read_text() == zone
    assert _findings(run, root) == [("db.rev", 4, "54", "zone-origin"), ("db.rev", 7, "54.50", "zone-origin")]
