"""Reverse owners in every spelling (issue 27, item 6): a PTR owner written relative to any IPv4
reverse `$ORIGIN` (`in-addr.arpa.` itself, `10.in-addr.arpa.`, a relative `$ORIGIN`...) follows
the renumbered address, and the zone's serial is bumped; where the new address lies in another
reverse zone, the whole record is a residual `reverse-owner`, its PTR target included.

Each zone is checked by BIND's own named-checkzone, whose canonical dump (-D) says which reverse
name points at which host, before and after the sweep."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Result

Repo = Callable[..., Path]
Run = Callable[..., Result]
CONFIG = """\
version: 1
renames:
  hosts: {web01.lab.example: app01.lab.example, web01: app01}
  addresses: {10.0.0.70: 10.1.0.70, 10.0.0.80: 10.0.0.81}
allowlist: allow.yaml
"""
ALLOW = "version: 1\ncurrent: ['**']\n"
SOA = ("$TTL 300\n@ IN SOA ns.lab.example. admin.lab.example. 5 7200 3600 1209600 3600\n"
       "  IN NS ns.lab.example.\n")


def _zone(origin: str, records: str) -> str:
    return f"$ORIGIN {origin}\n{SOA}{records}"


def _ptrs(path: Path, origin: str) -> list[tuple[str, str]]:
    """(reverse name, target) of every PTR record, as BIND loads the zone."""
    done = subprocess.run(["named-checkzone", "-D", origin, str(path)], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    fields = [line.split() for line in done.stdout.splitlines()]
    return sorted((f[0].lower(), f[-1]) for f in fields if len(f) >= 5 and f[-2].upper() == "PTR")


def _serial(path: Path, origin: str) -> str:
    done = subprocess.run(["named-checkzone", origin, str(path)], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout.split("loaded serial ")[1].split()[0]


FOLLOWS = [
    pytest.param("in-addr.arpa.", "in-addr.arpa", "70.0.0.10 IN PTR web01.lab.example.\n", id="four-labels"),
    pytest.param("10.in-addr.arpa.", "10.in-addr.arpa", "70.0.0 IN PTR web01.lab.example.\n", id="three-labels"),
    pytest.param("IN-ADDR.ARPA.", "in-addr.arpa", "70.0.0.10 3600 in ptr web01.lab.example.\n",
                 id="upper-case-origin-ttl-lower-case-class"),
    pytest.param("10.in-addr.arpa.", "10.in-addr.arpa", "70.0.0\tIN\t3600\tPTR\tweb01.lab.example.\n",
                 id="class-before-ttl-tabs"),
    pytest.param("10.in-addr.arpa.", "10.in-addr.arpa", "70.0.0 1h PTR web01.lab.example.\n",
                 id="ttl-with-unit-no-class"),
]


@pytest.mark.parametrize(("origin", "zone", "record"), FOLLOWS)
def test_a_relative_owner_under_any_reverse_origin_follows(repo: Repo, run: Run, origin: str, zone: str,
                                                           record: str) -> None:
    root = repo({"rev.db": _zone(origin, record)}, config=CONFIG, allowlist=ALLOW)
    assert _ptrs(root / "rev.db", zone) == [("70.0.0.10.in-addr.arpa.", "web01.lab.example.")]
    assert run(root, "verify").exit_code == 1
    result = run(root, "sweep", "--commit")
    assert result.exit_code == 0, result.stdout + result.stderr
    assert _ptrs(root / "rev.db", zone) == [("70.0.1.10.in-addr.arpa.", "app01.lab.example.")]
    assert _serial(root / "rev.db", zone) == "6"
    assert run(root, "verify").exit_code == 0


def test_a_relative_origin_is_read_against_the_one_before(repo: Repo, run: Run) -> None:
    records = "$origin 10\n70.0.0 IN PTR web01.lab.example.\n80.0.0 IN PTR db.lab.example.\n"
    root = repo({"rev.db": _zone("in-addr.arpa.", records)}, config=CONFIG, allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 0
    assert _ptrs(root / "rev.db", "in-addr.arpa") == [("70.0.1.10.in-addr.arpa.", "app01.lab.example."),
                                                       ("81.0.0.10.in-addr.arpa.", "db.lab.example.")]
    assert _serial(root / "rev.db", "in-addr.arpa") == "6"
    assert run(root, "verify").exit_code == 0


@pytest.mark.parametrize(("origin", "zone", "owner"), [
    pytest.param("0.10.in-addr.arpa.", "0.10.in-addr.arpa", "70.0", id="two-labels"),
    pytest.param("0.0.10.in-addr.arpa.", "0.0.10.in-addr.arpa", "70", id="one-label"),
])
def test_an_owner_renumbered_into_another_zone_is_a_residual_with_its_target(repo: Repo, run: Run, origin: str,
                                                                             zone: str, owner: str) -> None:
    """10.0.0.70 -> 10.1.0.70 leaves the zone: the record must move by hand. Renaming its target
    alone would make the old address point at the new host."""
    records = f"{owner} IN PTR web01.lab.example.\n"
    root = repo({"rev.db": _zone(origin, records)}, config=CONFIG, allowlist=ALLOW)
    before = (root / "rev.db").read_text()
    run(root, "sweep", "--commit")
    assert (root / "rev.db").read_text() == before
    assert _serial(root / "rev.db", zone) == "5"
    verify = run(root, "verify", "--format", "json")
    assert verify.exit_code == 1
    findings = json.loads(verify.stdout)["findings"]
    assert [(f["line"], f["old"], f["reason"]) for f in findings] == [
        (5, owner, "reverse-owner"), (5, "web01.lab.example", "reverse-owner")]


def test_a_record_that_moves_zones_beside_one_that_follows(repo: Repo, run: Run) -> None:
    records = "70 IN PTR web01.lab.example.\n80 IN PTR db.lab.example.\n"
    root = repo({"rev.db": _zone("0.0.10.in-addr.arpa.", records), "hosts.txt": "web01 10.0.0.70\n"},
                config=CONFIG, allowlist=ALLOW)
    run(root, "sweep", "--commit")
    assert _ptrs(root / "rev.db", "0.0.10.in-addr.arpa") == [("70.0.0.10.in-addr.arpa.", "web01.lab.example."),
                                                              ("81.0.0.10.in-addr.arpa.", "db.lab.example.")]
    assert _serial(root / "rev.db", "0.0.10.in-addr.arpa") == "6"
    assert (root / "hosts.txt").read_text() == "app01 10.1.0.70\n"
    findings = json.loads(run(root, "verify", "--format", "json").stdout)["findings"]
    assert sorted({(f["path"], f["line"], f["reason"]) for f in findings}) == [("rev.db", 5, "reverse-owner")]


@pytest.mark.parametrize("records", [
    pytest.param("70.0.0.11 IN PTR web02.lab.example.\n", id="another-address"),
    # An owner of any type at the old reverse name follows (tests/cli/test_zone_origins.py: RFC 2317).
    pytest.param("70.0.0.11 IN TXT \"x\"\n", id="another-address-not-a-ptr"),
    pytest.param("x70.0.0.10 IN PTR other.lab.example.\n", id="longer-owner"),
    pytest.param("; 70.0.0.10 IN PTR other.lab.example.\n", id="comment-not-owner"),
])
def test_noop_owners_that_are_not_the_old_address(repo: Repo, run: Run, records: str) -> None:
    root = repo({"rev.db": _zone("in-addr.arpa.", records)}, config=CONFIG, allowlist=ALLOW)
    before = (root / "rev.db").read_text()
    assert run(root, "sweep", "--commit").exit_code == 0
    assert (root / "rev.db").read_text() == before
    assert run(root, "verify").exit_code == 0


NETWORKS = "version: 1\nrenames:\n  networks: {10.250.0.0/16: 10.251.0.0/16}\nallowlist: allow.yaml\n"


@pytest.mark.parametrize(("origin", "zone", "records", "expected"), [
    pytest.param("10.in-addr.arpa.", "10.in-addr.arpa", "54.50.250 IN PTR gpu.lab.example.\n9.9.9 IN PTR x.lab.example.\n",
                 [("54.50.251.10.in-addr.arpa.", "gpu.lab.example."), ("9.9.9.10.in-addr.arpa.", "x.lab.example.")],
                 id="wider-zone-owner-follows"),
    pytest.param("in-addr.arpa.", "in-addr.arpa", "54.50.250.10 3600 IN PTR gpu.lab.example.\n",
                 [("54.50.251.10.in-addr.arpa.", "gpu.lab.example.")], id="root-zone-owner-follows"),
])
def test_owners_follow_a_renumbered_network(repo: Repo, run: Run, origin: str, zone: str, records: str,
                                            expected: list[tuple[str, str]]) -> None:
    root = repo({"rev.db": _zone(origin, records)}, config=NETWORKS, allowlist=ALLOW)
    assert run(root, "verify").exit_code == 1
    assert run(root, "sweep", "--commit").exit_code == 0
    assert _ptrs(root / "rev.db", zone) == expected
    assert _serial(root / "rev.db", zone) == "6"
    assert run(root, "verify").exit_code == 0


def test_a_zone_inside_a_renumbered_network_takes_its_owners_along(repo: Repo, run: Run) -> None:
    root = repo({"rev.db": _zone("50.250.10.in-addr.arpa.", "54 IN PTR gpu.lab.example.\n")},
                config=NETWORKS, allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 0
    text = (root / "rev.db").read_text()
    assert text.startswith("$ORIGIN 50.251.10.in-addr.arpa.\n") and "\n54 IN PTR gpu.lab.example.\n" in text
    assert _ptrs(root / "rev.db", "50.251.10.in-addr.arpa") == [("54.50.251.10.in-addr.arpa.", "gpu.lab.example.")]
    assert run(root, "verify").exit_code == 0


NESTED = ("version: 1\nrenames:\n  addresses: {10.250.50.54: 10.250.50.64, 10.250.50.55: 10.250.51.55, "
          "10.250.50.56: 10.9.9.56}\nallowlist: allow.yaml\n")


@pytest.mark.parametrize("inner", [
    pytest.param("$ORIGIN 50\n", id="relative-nested-origin"),
    pytest.param("$ORIGIN 50.250.10.in-addr.arpa.\n", id="absolute-nested-origin"),
])
def test_a_nested_origin_inside_its_own_zone(repo: Repo, run: Run, inner: str) -> None:
    """The zone is 250.10.in-addr.arpa. (its SOA's); `54` under a nested `$ORIGIN 50` stays in it
    whether it stays under 50 (written relative) or moves to 51 (written absolute: still the same
    zone, no residual); only the address that leaves 10.250/16 is a residual."""
    records = f"{inner}54 PTR gpu.lab.example.\n55 PTR db.lab.example.\n56 PTR far.lab.example.\n"
    root = repo({"rev.db": _zone("250.10.in-addr.arpa.", records)}, config=NESTED, allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 1
    assert _ptrs(root / "rev.db", "250.10.in-addr.arpa") == [
        ("55.51.250.10.in-addr.arpa.", "db.lab.example."), ("56.50.250.10.in-addr.arpa.", "far.lab.example."),
        ("64.50.250.10.in-addr.arpa.", "gpu.lab.example.")]
    assert "\n64 PTR gpu.lab.example.\n55.51.250.10.in-addr.arpa. PTR db.lab.example.\n" in (root / "rev.db").read_text()
    assert _serial(root / "rev.db", "250.10.in-addr.arpa") == "6"
    findings = json.loads(run(root, "verify", "--format", "json").stdout)["findings"]
    assert sorted((f["line"], f["old"], f["reason"]) for f in findings) == [(8, "56", "reverse-owner")]


@pytest.mark.parametrize("owner", [
    pytest.param("70.0.0.10.in-addr.arpa.", id="absolute"),
    pytest.param("70.0.0.10.IN-ADDR.ARPA.", id="absolute-upper-case"),
])
def test_an_absolute_owner_renumbered_into_another_zone_is_a_residual(repo: Repo, run: Run, owner: str) -> None:
    """Before, the absolute owner followed as any reverse name does, and BIND dropped the record
    (out of zone). The owner and its PTR target stay, and wait for a decision."""
    root = repo({"rev.db": _zone("0.0.10.in-addr.arpa.", f"{owner} IN PTR web01.lab.example.\n")},
                config=CONFIG, allowlist=ALLOW)
    before = (root / "rev.db").read_text()
    assert run(root, "sweep", "--commit").exit_code == 1
    assert (root / "rev.db").read_text() == before
    findings = json.loads(run(root, "verify", "--format", "json").stdout)["findings"]
    assert sorted((f["line"], f["reason"]) for f in findings) == [(5, "reverse-owner"), (5, "reverse-owner")]


def test_an_owner_of_any_type_follows_the_address(repo: Repo, run: Run) -> None:
    """RFC 2317 classless delegation: the owner of the address's CNAME is its reverse name too."""
    records = "80 IN CNAME 80.64-26.0.0.10.in-addr.arpa.\n"
    root = repo({"rev.db": _zone("0.0.10.in-addr.arpa.", records)}, config=CONFIG, allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 0
    assert (root / "rev.db").read_text().endswith("\n81 IN CNAME 80.64-26.0.0.10.in-addr.arpa.\n")
    assert _serial(root / "rev.db", "0.0.10.in-addr.arpa") == "6"


def test_ipv6_nibble_owners_follow(repo: Repo, run: Run) -> None:
    """The same rules under an ip6.arpa origin: a relative nibble owner follows where it stays
    under its origin (relative), is written absolute where it moves elsewhere in the zone, and is a
    residual where it leaves the zone (2001:db9::/32 is another zone)."""
    config = ('version: 1\nrenames:\n  addresses: {"2001:db8::54": "2001:db8::64", '
              '"2001:db8::55": "2001:db8:1::55", "2001:db8::56": "2001:db9::56"}\nallowlist: allow.yaml\n')
    zeros = ".".join(["0"] * 22)
    records = (f"4.5.{zeros} IN PTR gpu.lab.example.\n$ORIGIN {zeros}.8.b.d.0.1.0.0.2.ip6.arpa.\n"
               "5.5 IN PTR db.lab.example.\n6.5 IN PTR far.lab.example.\n")
    root = repo({"rev6.db": _zone("8.b.d.0.1.0.0.2.ip6.arpa.", records)}, config=config, allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 1
    nibbles = "0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0"
    assert _ptrs(root / "rev6.db", "8.b.d.0.1.0.0.2.ip6.arpa") == [
        (f"4.6.0.0.{nibbles}.8.b.d.0.1.0.0.2.ip6.arpa.", "gpu.lab.example."),
        (f"5.5.0.0.{'.'.join(['0'] * 16)}.1.0.0.0.8.b.d.0.1.0.0.2.ip6.arpa.", "db.lab.example."),  # 2001:db8:1::55
        (f"6.5.0.0.{nibbles}.8.b.d.0.1.0.0.2.ip6.arpa.", "far.lab.example.")]
    assert _serial(root / "rev6.db", "8.b.d.0.1.0.0.2.ip6.arpa") == "6"
    findings = json.loads(run(root, "verify", "--format", "json").stdout)["findings"]
    assert sorted((f["line"], f["old"], f["reason"]) for f in findings) == [(8, "6.5", "reverse-owner")]
