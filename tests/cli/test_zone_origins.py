"""A zone file's origin known only from the repo's name-server configuration (issue 27, zone pass):
`db.10.250.50` with no `$ORIGIN`, named by `zone "50.250.10.in-addr.arpa" { file "..."; };` in a
named.conf (or an included named.conf.local, NSD's, Unbound's or Knot's configuration), is read
as if it began with `$ORIGIN 50.250.10.in-addr.arpa.`. Configured paths are matched against the
repo's own files only. Every zone is loaded by named-checkzone before and after."""

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
CONFIG = ("version: 1\nrenames:\n  hosts: {ana-ml2.lan: fv-ml1.lan}\n"
          "  addresses: {10.250.50.54: 10.251.50.54, 10.250.50.55: 10.250.50.65}\nallowlist: allow.yaml\n")
REVERSE = ("$TTL 300\n@ IN SOA ns.lan. admin.lan. 2026010101 7200 3600 1209600 3600\n  IN NS ns.lan.\n"
           "55 IN PTR db.lan.\n")
ZONE = '"50.250.10.in-addr.arpa"'
NAMED = f'options {{ directory "/var/cache/bind"; }};\nzone {ZONE} IN {{\n  type master; // primary\n  file "%s";\n}};\n'
MOVED = [("50.250.10.in-addr.arpa.", "NS", "ns.lan."), ("65.50.250.10.in-addr.arpa.", "PTR", "db.lan.")]


@pytest.mark.parametrize("files", [
    pytest.param({"bind/named.conf": NAMED % "db.10.250.50", "bind/db.10.250.50": REVERSE},
                 id="named-conf-relative-path-beside-it"),
    pytest.param({"bind/named.conf": 'include "/etc/bind/named.conf.local";\n',
                  "bind/named.conf.local": NAMED % "/etc/bind/zones/db.10.250.50",
                  "bind/zones/db.10.250.50": REVERSE}, id="included-named-conf-local-absolute-path"),
    pytest.param({"etc/named.conf": NAMED % "/var/named/db.10.250.50", "zones/db.10.250.50": REVERSE,
                  "zones/README": "the reverse zone"}, id="absolute-path-matched-by-file-name"),
    pytest.param({"roles/dns/templates/named.conf.local.j2":
                  '# {{ ansible_managed }}\nzone "50.250.10.in-addr.arpa" { type primary; file "{{ dir }}/db.10.250.50"; };\n',
                  "roles/dns/files/db.10.250.50": REVERSE}, id="jinja-template"),
    pytest.param({"nsd/nsd.conf": 'zone:\n  name: "50.250.10.in-addr.arpa"\n  zonefile: "db.10.250.50"\n',
                  "nsd/db.10.250.50": REVERSE}, id="nsd"),
    pytest.param({"unbound.conf": "auth-zone:\n    name: 50.250.10.in-addr.arpa.\n    zonefile: rev/db.10.250.50\n",
                  "rev/db.10.250.50": REVERSE}, id="unbound-auth-zone"),
    pytest.param({"knot/knot.conf": "zone:\n  - domain: 50.250.10.in-addr.arpa\n    file: db.10.250.50  # rev\n",
                  "knot/db.10.250.50": REVERSE}, id="knot"),
])
def test_a_reverse_zone_named_by_the_configuration_follows(repo: Repo, run: Run, files: dict[str, str]) -> None:
    root = repo(files, config=CONFIG, allowlist=ALLOW)
    zone = next(root / rel for rel in files if rel.endswith("db.10.250.50"))
    assert loaded(zone, "50.250.10.in-addr.arpa") == [MOVED[0], ("55.50.250.10.in-addr.arpa.", "PTR", "db.lan.")]
    assert run(root, "verify").exit_code == 1
    result = run(root, "sweep", "--commit")
    assert result.exit_code == 0, result.stdout + result.stderr
    assert loaded(zone, "50.250.10.in-addr.arpa") == MOVED
    assert serial(zone, "50.250.10.in-addr.arpa") != "2026010101"
    assert run(root, "verify").exit_code == 0


def test_an_owner_that_leaves_the_configured_zone_is_a_residual_with_its_record(repo: Repo, run: Run) -> None:
    records = REVERSE + "54 IN PTR ana-ml2.lan.\n"
    root = repo({"named.conf": NAMED % "db.10.250.50", "db.10.250.50": records}, config=CONFIG, allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 1
    assert loaded(root / "db.10.250.50", "50.250.10.in-addr.arpa") == [
        *MOVED[:1], ("54.50.250.10.in-addr.arpa.", "PTR", "ana-ml2.lan."), MOVED[1]]
    findings = json.loads(run(root, "verify", "--format", "json").stdout)["findings"]
    assert sorted((f["line"], f["old"], f["reason"]) for f in findings) == [
        (5, "54", "reverse-owner"), (5, "ana-ml2.lan", "reverse-owner")]


def test_a_forward_zone_named_by_the_configuration(repo: Repo, run: Run) -> None:
    """No `$ORIGIN`: relative owners are read against named.conf's zone; one renamed out of it is a
    residual, one renamed inside it follows, relative."""
    config = ("version: 1\nrenames:\n  hosts: {ana-ml2.ana.lan: fv-ml1.fv.lan, nas.ana.lan: store.ana.lan}\n"
              "allowlist: allow.yaml\n")
    zone = ("$TTL 300\n@ IN SOA ns admin 5 1 2 3 4\n  IN NS ns\nns IN A 10.0.0.1\n"
            "ana-ml2 IN A 10.0.0.54\nnas IN A 10.0.0.9\nfiles IN CNAME nas\n")
    named = 'zone "ana.lan" { type master; file "/etc/bind/db.ana"; };\n'
    root = repo({"named.conf": named, "db.ana": zone}, config=config, allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 1
    assert (root / "db.ana").read_text().endswith("store IN A 10.0.0.9\nfiles IN CNAME store\n")
    assert loaded(root / "db.ana", "ana.lan") == [
        ("ana-ml2.ana.lan.", "A", "10.0.0.54"), ("ana.lan.", "NS", "ns.ana.lan."),
        ("files.ana.lan.", "CNAME", "store.ana.lan."), ("ns.ana.lan.", "A", "10.0.0.1"),
        ("store.ana.lan.", "A", "10.0.0.9")]
    findings = json.loads(run(root, "verify", "--format", "json").stdout)["findings"]
    assert [(f["line"], f["old"], f["reason"]) for f in findings] == [(5, "ana-ml2", "zone-owner")]


@pytest.mark.parametrize("files", [
    pytest.param({"named.conf": NAMED % "../../../../etc/db.10.250.50", "db.10.250.50": REVERSE},
                 id="path-out-of-the-repo-matched-by-name-only"),
])
def test_a_path_leading_out_of_the_repo_names_only_a_repo_file(repo: Repo, run: Run, files: dict[str, str]) -> None:
    """`../../../../etc/db.10.250.50` is never opened: only the repo file of that name is a candidate."""
    root = repo(files, config=CONFIG, allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 0
    assert loaded(root / "db.10.250.50", "50.250.10.in-addr.arpa") == MOVED


@pytest.mark.parametrize("files", [
    pytest.param({"named.conf": NAMED % "/etc/bind/db.10.250.50", "a/db.10.250.50": REVERSE,
                  "b/db.10.250.50": REVERSE}, id="two-repo-files-could-be-it"),
    pytest.param({"named.conf": NAMED % "db.10.250.50"
                  + 'view "x" { zone "51.250.10.in-addr.arpa" { file "db.10.250.50"; }; };\n',
                  "db.10.250.50": REVERSE}, id="two-zones-name-the-file"),
    pytest.param({"named.conf": NAMED % "db.other", "db.10.250.50": REVERSE}, id="another-file"),
    pytest.param({"named.conf": "// " + (NAMED % "db.10.250.50").replace("\n", "\n// "),
                  "db.10.250.50": REVERSE}, id="commented-out"),
    pytest.param({"notes.md": NAMED % "db.10.250.50", "db.10.250.50": REVERSE}, id="not-a-configuration-file"),
])
def test_noop_when_the_origin_is_not_known_for_certain(repo: Repo, run: Run, files: dict[str, str]) -> None:
    """Nothing is written; the owner `55` that may be 10.250.50.55's is a residual `zone-origin`
    (issue 27b: a relative old spelling under an unknown origin is never a silent pass)."""
    root = repo(files, config=CONFIG, allowlist=ALLOW)
    before = {rel: (root / rel).read_text() for rel in files}
    assert run(root, "sweep", "--commit").exit_code == 1
    assert {rel: (root / rel).read_text() for rel in files} == before
    findings = json.loads(run(root, "verify", "--format", "json").stdout)["findings"]
    assert {(f["old"], f["reason"]) for f in findings} == {("55", "zone-origin")}


PLACEHOLDER_ZONE = ("$TTL 86400\n@ IN SOA ns-a.home.example. admin.home.example. (\n"
                    "        SERIAL_FROM_CI ;Serial\n        3600 ;Refresh\n        1800 ;Retry\n"
                    "        604800 ;Expire\n        86400 ;Minimum TTL\n)\n@ IN NS ns-a.home.example.\n"
                    "ns-a IN A 10.20.0.231\nnas.local IN A 10.20.0.122\n")
PLACEHOLDER_REVERSE = PLACEHOLDER_ZONE.split("@ IN NS")[0] + ("@ IN NS ns-a.home.example.\n"
                                                              "231 IN PTR ns-a.home.example.\n"
                                                              "122\tIN\tPTR\tnas.local.home.example.\n")


def _deployed(path: Path, tmp: Path) -> Path:
    """The zone as the repo's CI deploys it: its placeholder replaced by `sed` with a number."""
    out = tmp / path.name
    out.write_text(path.read_text().replace("SERIAL_FROM_CI", "1000"))
    return out


def test_a_placeholder_serial_and_owners_known_from_named_conf(repo: Repo, run: Run, tmp_path: Path) -> None:
    """The layout of a public repo tried by hand (no `$ORIGIN`, two-label relative owners, a serial
    a CI step fills in, named.conf.local naming both zones by absolute paths): the host renamed and
    renumbered everywhere its zones name it, the serial placeholder left and said so."""
    named = ('include "/etc/bind/zones.rfc1918";\nzone "home.example" IN { type master; '
             'file "/etc/bind/home.example.db"; };\nzone "0.20.10.in-addr.arpa" IN {\n type master;\n'
             ' file "/etc/bind/home.example.rev";\n};\n')
    config = ("version: 1\nrenames:\n  hosts: {ns-a.home.example: ns1.home.example, "
              "nas.local.home.example: store.local.home.example}\n"
              "  addresses: {10.20.0.231: 10.20.0.232, 10.20.0.122: 10.20.0.125}\nallowlist: allow.yaml\n")
    root = repo({"etc/bind/named.conf.local": named, "etc/bind/home.example.db": PLACEHOLDER_ZONE,
                 "etc/bind/home.example.rev": PLACEHOLDER_REVERSE}, config=config, allowlist=ALLOW)
    result = run(root, "sweep", "--commit")
    assert result.exit_code == 0, result.stdout + result.stderr
    assert ("etc/bind/home.example.db: serial SERIAL_FROM_CI is a placeholder filled in when the zone is "
            "deployed: left as it is") in result.stdout
    forward = _deployed(root / "etc/bind/home.example.db", tmp_path)
    assert loaded(forward, "home.example") == [
        ("home.example.", "NS", "ns1.home.example."), ("ns1.home.example.", "A", "10.20.0.232"),
        ("store.local.home.example.", "A", "10.20.0.125")]
    reverse = _deployed(root / "etc/bind/home.example.rev", tmp_path)
    assert loaded(reverse, "0.20.10.in-addr.arpa") == [
        ("0.20.10.in-addr.arpa.", "NS", "ns1.home.example."),
        ("125.0.20.10.in-addr.arpa.", "PTR", "store.local.home.example."),
        ("232.0.20.10.in-addr.arpa.", "PTR", "ns1.home.example.")]
    assert run(root, "verify").exit_code == 0


def test_explain_reads_the_file_as_the_sweep_does(repo: Repo, run: Run) -> None:
    root = repo({"bind/named.conf": NAMED % "db.10.250.50", "bind/db.10.250.50": REVERSE},
                config=CONFIG, allowlist=ALLOW)
    result = run(root, "explain", "bind/db.10.250.50")
    assert result.exit_code == 0, result.stdout + result.stderr
    assert "  4:1  55 -> 65: rewritten: " in result.stdout


@pytest.mark.parametrize(("directive", "included"), [
    pytest.param("$INCLUDE inc/hosts.inc\n", "ana-ml2 IN A 10.0.0.54\nnas IN A 10.0.0.9\n", id="origin-in-force"),
    # Under the origin lab.ana.lan., the absolute owner is still in the including zone ana.lan.
    pytest.param('$INCLUDE "inc/hosts.inc" lab\n', "ana-ml2.ana.lan. IN A 10.0.0.54\n"
                 "$ORIGIN ana.lan.\nnas IN A 10.0.0.9\n", id="origin-given-relative"),
])
def test_an_included_file_is_read_against_its_origin(repo: Repo, run: Run, directive: str, included: str) -> None:
    """A zone named.conf names `$INCLUDE`s a file with no `$ORIGIN` of its own: its relative owners
    mean what they mean in the zone, and the same rules hold for them."""
    config = ("version: 1\nrenames:\n  hosts: {ana-ml2.ana.lan: fv-ml1.fv.lan, nas.ana.lan: store.ana.lan}\n"
              "allowlist: allow.yaml\n")
    zone = "$TTL 300\n@ IN SOA ns admin 5 1 2 3 4\n  IN NS ns\nns IN A 10.0.0.1\n" + directive
    named = 'zone "ana.lan" { type master; file "/etc/bind/db.ana"; };\n'
    root = repo({"named.conf": named, "db.ana": zone, "inc/hosts.inc": included}, config=config, allowlist=ALLOW)
    before = loaded(root / "db.ana", "ana.lan", root)
    assert run(root, "sweep", "--commit").exit_code == 1
    after = loaded(root / "db.ana", "ana.lan", root)
    assert [r for r in before if r not in after] == [("nas.ana.lan.", "A", "10.0.0.9")]
    assert [r for r in after if r not in before] == [("store.ana.lan.", "A", "10.0.0.9")]
    findings = json.loads(run(root, "verify", "--format", "json").stdout)["findings"]
    assert [(f["path"], f["line"], f["reason"]) for f in findings] == [("inc/hosts.inc", 1, "zone-owner")]
