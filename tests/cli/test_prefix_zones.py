"""Reverse zones of a network move of any length, end to end (issue 33 item 3).

A move that changes which reverse zones answer for a network (a /24 grown to a /22 needs four
in-addr.arpa zones; a /16 moved renames its zone; a shrink leaves some answering for addresses
outside the new network) says so in the sweep's report and JSON, and `verify` fails while the repo
declares the move's zones but not every one the new network needs. RFC 2317 classless names
(`0/26.50.168.192.in-addr.arpa`, `$GENERATE` CNAMEs) are reported, never rewritten.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from tests.testing.findings import networks_config as _config
from tests.testing.repos import Repo, Run, snapshot
from tests.testing.said import once

ALLOW = ('version: 1\ncurrent: ["**"]\nrecords:\n'
         '  - {name: notes, paths: ["notes/**"], reason: dated notes}\n')
SOA = "@ IN SOA ns1.lab.example. admin.lab.example. 1 3600 600 86400 300\n@ IN NS ns1.lab.example.\n"


def _zone(origin: str, records: str) -> str:
    return f"$TTL 3600\n$ORIGIN {origin}.\n{SOA}{records}"


def _checkzone(origin: str, path: Path) -> None:
    done = subprocess.run(["named-checkzone", origin, str(path)], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout + done.stderr


def _zone_statement(name: str, file: str) -> str:
    return f'zone "{name}" {{ type master; file "{file}"; }};\n'


GROW = _config("192.168.40.0/24: 192.168.40.0/22")


def test_a_grow_lists_the_zones_it_needs_and_verify_fails_until_declared(repo: Repo, run: Run) -> None:
    files = {
        "named.conf.local": _zone_statement("40.168.192.in-addr.arpa", "db.192.168.40"),
        "db.192.168.40": _zone("40.168.192.in-addr.arpa", "1 IN PTR gw.lab.example.\n20 IN PTR db.lab.example.\n"),
        "lan.yaml": "lan: 192.168.40.0/24\nrouter: 192.168.40.1\n",
    }
    root = repo(files, config=GROW, allowlist=ALLOW)
    shown = run(root, "sweep", "--dry-run")
    assert ("  192.168.40.0/24 -> 192.168.40.0/22: add 41.168.192.in-addr.arpa, 42.168.192.in-addr.arpa, "
            "43.168.192.in-addr.arpa (part of 192.168.40.0/22, which no zone of 192.168.40.0/24 becomes)") \
        in shown.stdout, shown.stdout
    data = json.loads(run(root, "sweep", "--dry-run", "--format", "json").stdout)
    assert data["reverse_zones"] == [{"from": "192.168.40.0/24", "to": "192.168.40.0/22", "renamed": [],
                                      "add": ["41.168.192.in-addr.arpa", "42.168.192.in-addr.arpa",
                                              "43.168.192.in-addr.arpa"], "remove": [], "classless": []}]
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1, done.stdout + done.stderr  # written; three zones left to declare
    assert "renamer: left for a decision: 3 (listed above)" in done.stderr
    assert (root / "lan.yaml").read_text() == "lan: 192.168.40.0/22\nrouter: 192.168.40.1\n"
    assert (root / "db.192.168.40").read_text() == files["db.192.168.40"]  # the /24 zone still answers
    _checkzone("40.168.192.in-addr.arpa", root / "db.192.168.40")
    checked = run(root, "verify")
    assert checked.exit_code == 1, checked.stdout
    for third in (41, 42, 43):
        # (at the zone statement, where the new zones are declared; t36-33 finding 18)
        assert (f"named.conf.local:1:7: residual (reverse-zone): {third}.168.192.in-addr.arpa: "
                f"192.168.40.0/24 -> 192.168.40.0/22 needs the reverse zone "
                f"{third}.168.192.in-addr.arpa, which no current-state file names (40.168.192.in-addr.arpa is "
                "named here)") in checked.stdout, checked.stdout
    assert "40.168.192.in-addr.arpa -> 40.168.192.in-addr.arpa" not in checked.stdout
    data = json.loads(run(root, "verify", "--format", "json").stdout)
    assert sorted(f["old"] for f in data["findings"]) == [f"{t}.168.192.in-addr.arpa" for t in (41, 42, 43)]
    # Declared (the zone statements and their files): verify passes, the zones parse.
    more = {"named.conf.local": files["named.conf.local"]}
    for third in (41, 42, 43):
        origin = f"{third}.168.192.in-addr.arpa"
        more["named.conf.local"] += _zone_statement(origin, f"db.192.168.{third}")
        more[f"db.192.168.{third}"] = _zone(origin, "")
    for rel, text in more.items():
        (root / rel).write_text(text)
    for third in (41, 42, 43):
        _checkzone(f"{third}.168.192.in-addr.arpa", root / f"db.192.168.{third}")
    assert run(root, "verify").exit_code == 0


def test_a_repo_that_names_no_reverse_zone_of_the_move_has_nothing_missing(repo: Repo, run: Run) -> None:
    """Reverse DNS kept elsewhere (or nowhere): the report lists the zones, verify has nothing to say;
    a PTR owner's name (`5.41.168.192.in-addr.arpa`) is no zone named."""
    root = repo({"lan.yaml": "lan: 192.168.40.0/24\nptr: 5.40.168.192.in-addr.arpa\n"}, config=GROW, allowlist=ALLOW)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    assert "add 41.168.192.in-addr.arpa" in done.stdout
    checked = run(root, "verify")
    assert checked.exit_code == 0, checked.stdout


def test_a_moved_16_renames_its_zone(repo: Repo, run: Run) -> None:
    """10.250.0.0/16 -> 10.251.0.0/16 (the fv move as a network move): the zone's name follows, in
    named.conf and in the zone file, and the zone still parses under its new name."""
    files = {
        "named.conf.local": _zone_statement("250.10.in-addr.arpa", "db.10.250"),
        "db.10.250": _zone("250.10.in-addr.arpa", "54.50 IN PTR fv-ml1.fv.lan.\n"
                           "$ORIGIN 50.250.10.in-addr.arpa.\n1 IN PTR gw.fv.lan.\n"),
    }
    root = repo(files, config=_config("10.250.0.0/16: 10.251.0.0/16"), allowlist=ALLOW)
    shown = run(root, "sweep", "--dry-run")
    assert "  10.250.0.0/16 -> 10.251.0.0/16: rename 250.10.in-addr.arpa -> 251.10.in-addr.arpa" in shown.stdout
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    assert (root / "named.conf.local").read_text() == _zone_statement("251.10.in-addr.arpa", "db.10.250")
    assert "$ORIGIN 251.10.in-addr.arpa.\n" in (root / "db.10.250").read_text()
    assert "$ORIGIN 50.251.10.in-addr.arpa.\n" in (root / "db.10.250").read_text()
    _checkzone("251.10.in-addr.arpa", root / "db.10.250")
    assert run(root, "verify").exit_code == 0


def test_a_shrink_lists_the_zones_it_drops_and_verify_names_each(repo: Repo, run: Run) -> None:
    config = _config("192.168.40.0/22: 192.168.40.0/24")
    conf = "".join(_zone_statement(f"{t}.168.192.in-addr.arpa", f"db.192.168.{t}") for t in (40, 41))
    root = repo({"named.conf.local": conf, "lan.yaml": "lan: 192.168.40.0/22\n"}, config=config, allowlist=ALLOW)
    shown = run(root, "sweep", "--dry-run")
    assert ("  192.168.40.0/22 -> 192.168.40.0/24: remove 41.168.192.in-addr.arpa, 42.168.192.in-addr.arpa, "
            "43.168.192.in-addr.arpa (answering for addresses outside 192.168.40.0/24)") in shown.stdout, shown.stdout
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1, done.stdout + done.stderr  # the /24 zone of 41 is left for a decision
    assert (root / "named.conf.local").read_text() == conf
    checked = run(root, "verify")
    assert "named.conf.local:2:7: residual (reverse-zone): 41.168.192.in-addr.arpa" in checked.stdout, checked.stdout
    assert "named.conf.local:1:" not in checked.stdout


CLASSLESS = _config("192.168.50.0/26: 192.168.51.0/26")


def test_classless_names_are_reported_never_rewritten(repo: Repo, run: Run) -> None:
    """RFC 2317: the child zone's name in named.conf, the parent's NS for `0/26` and its
    `$GENERATE` CNAMEs, an absolute CNAME target: each a residual, none rewritten."""
    parent = _zone("50.168.192.in-addr.arpa", "0/26 IN NS ns1.lab.example.\n"
                   "$GENERATE 0-63 $ CNAME $.0/26.50.168.192.in-addr.arpa.\n"
                   "70 IN CNAME 70.64-127.50.168.192.in-addr.arpa.\n")
    child = ("$TTL 3600\n$ORIGIN 0/26.50.168.192.in-addr.arpa.\n" + SOA + "5 IN PTR db.lab.example.\n")
    files = {
        "named.conf.local": (_zone_statement("50.168.192.in-addr.arpa", "db.192.168.50")
                             + _zone_statement("0/26.50.168.192.in-addr.arpa", "db.192.168.50.0-26")),
        "db.192.168.50": parent,
        "db.192.168.50.0-26": child,
        "site.env": "DB=192.168.50.5\n",
    }
    root = repo(files, config=CLASSLESS, allowlist=ALLOW)
    _checkzone("50.168.192.in-addr.arpa", root / "db.192.168.50")
    _checkzone("0/26.50.168.192.in-addr.arpa", root / "db.192.168.50.0-26")
    shown = run(root, "sweep", "--dry-run")
    assert ("  192.168.50.0/26 -> 192.168.51.0/26: classless 0/26.50.168.192.in-addr.arpa -> "
            "0/26.51.168.192.in-addr.arpa (RFC 2317") in shown.stdout, shown.stdout
    before = snapshot(root)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1, done.stdout + done.stderr
    assert (root / "site.env").read_text() == "DB=192.168.51.5\n"
    for rel in ("named.conf.local", "db.192.168.50", "db.192.168.50.0-26"):
        assert (root / rel).read_bytes() == before[rel], rel
    checked = run(root, "verify")
    assert checked.exit_code == 1
    note = "is an RFC 2317 classless name: its delegation"
    once(checked.stdout, "db.192.168.50:5:1: residual (reverse-zone): 0/26", "0/26.50.168.192.in-addr.arpa " + note)
    for where in ("named.conf.local:2:7: residual (reverse-zone): 0/26.50.168.192.in-addr.arpa",
                  "db.192.168.50:6:1: residual (reverse-zone): 0/26.50.168.192.in-addr.arpa",
                  "db.192.168.50.0-26:2:9: residual (reverse-zone): 0/26.50.168.192.in-addr.arpa"):
        assert where in checked.stdout, (where, checked.stdout)
    # 64-127 lies outside the moved /26: another network's delegation, unreported
    assert "64-127" not in checked.stdout


def test_an_ipv6_grow_needs_nibble_zones(repo: Repo, run: Run) -> None:
    """2001:db8:a::/48 -> 2001:db8:c::/46: the /48 zone is renamed, three more /48 zones are needed."""
    old_zone = "a.0.0.0.8.b.d.0.1.0.0.2.ip6.arpa"
    files = {"named.conf.local": _zone_statement(old_zone, "db.v6"),
             "db.v6": _zone(old_zone, "1.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0 IN PTR gw.lab.example.\n")}
    root = repo(files, config=_config('"2001:db8:a::/48": "2001:db8:c::/46"'), allowlist=ALLOW)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1, done.stdout + done.stderr  # written; three zones left to declare
    assert f"rename {old_zone} -> c.0.0.0.8.b.d.0.1.0.0.2.ip6.arpa" in done.stdout
    new_zone = "c.0.0.0.8.b.d.0.1.0.0.2.ip6.arpa"
    assert (root / "named.conf.local").read_text() == _zone_statement(new_zone, "db.v6")
    _checkzone(new_zone, root / "db.v6")
    checked = run(root, "verify")
    assert checked.exit_code == 1
    for nibble in "def":
        assert f"needs the reverse zone {nibble}.0.0.0.8.b.d.0.1.0.0.2.ip6.arpa" in checked.stdout, checked.stdout


def test_a_zone_above_the_needed_ones_serves_them(repo: Repo, run: Run) -> None:
    """`168.192.in-addr.arpa` declared beside the delegated `40.168.192.in-addr.arpa`: the names of
    41-43 are the /16 zone's, nothing is missing; a trailing dot and unbound's spelling count too."""
    files = {
        "named.conf.local": (_zone_statement("168.192.in-addr.arpa.", "db.192.168")
                             + _zone_statement("40.168.192.in-addr.arpa", "db.192.168.40")),
        "unbound.conf": 'local-zone: "50.168.192.in-addr.arpa." static\n',
        "lan.yaml": "lan: 192.168.40.0/24\n",
    }
    root = repo(files, config=GROW, allowlist=ALLOW)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    assert run(root, "verify").exit_code == 0
    (root / "named.conf.local").write_text(_zone_statement("40.168.192.in-addr.arpa", "db.192.168.40"))
    checked = run(root, "verify")
    assert checked.exit_code == 1
    assert "needs the reverse zone 41.168.192.in-addr.arpa" in checked.stdout


def test_a_relative_classless_owner_follows_a_parent_zone_the_move_renames(repo: Repo, run: Run) -> None:
    """Under `192.168.50.0/24: 192.168.51.0/24` the parent zone is renamed whole: its relative `0/26`
    owner then names 0/26.51.168.192..., as it should; the child zone's absolute name is still said."""
    parent = _zone("50.168.192.in-addr.arpa", "0/26 IN NS ns1.lab.example.\n")
    files = {"db.192.168.50": parent,
             "named.conf.local": _zone_statement("0/26.50.168.192.in-addr.arpa", "db.child")}
    root = repo(files, config=_config("192.168.50.0/24: 192.168.51.0/24"), allowlist=ALLOW)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1, done.stdout + done.stderr
    assert (root / "db.192.168.50").read_text() == parent.replace("$ORIGIN 50.168", "$ORIGIN 51.168").replace(
        " 1 3600 600", " 2 3600 600")
    _checkzone("51.168.192.in-addr.arpa", root / "db.192.168.50")
    checked = run(root, "verify")
    assert "named.conf.local:1:7: residual (reverse-zone): 0/26.50.168.192.in-addr.arpa" in checked.stdout
    assert "db.192.168.50" not in checked.stdout, checked.stdout


UNBOUND = 'server:\n  local-zone: "40.168.192.in-addr.arpa." static\n  local-data-ptr: "192.168.40.5 nas.lab"\n'
DNSMASQ = ("local=/40.168.192.in-addr.arpa/\nrev-server=192.168.40.0/24,192.168.40.1\n"
           "server=/40.168.192.in-addr.arpa/192.168.40.1\n")


def _zones_said(run: Run, root: Path) -> set[tuple[str, int, str]]:
    data = json.loads(run(root, "verify", "--format", "json").stdout)
    return {(f["path"], f["line"], f["old"]) for f in data["findings"] if f["reason"] == "reverse-zone"}


def test_each_resolver_that_declared_the_old_zone_must_declare_the_new_ones(repo: Repo, run: Run) -> None:
    """t36-33 finding 18: Unbound and dnsmasq both answered for the /24's reverse zone; once Unbound
    declared the grown network's zones, verify said OK while dnsmasq's `local=/` and `server=/` still
    named the /24's only (PTR queries for 192.168.41-43.x leaked upstream from it). Each resolver's
    declarations are counted on their own now, each directive of a file apart."""
    root = repo({"unbound.conf": UNBOUND, "dnsmasq.conf": DNSMASQ}, config=GROW, allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 1
    needed = [f"{t}.168.192.in-addr.arpa" for t in (41, 42, 43)]
    assert _zones_said(run, root) == {(path, line, zone) for zone in needed
                                      for path, line in (("unbound.conf", 2), ("dnsmasq.conf", 1), ("dnsmasq.conf", 3))}
    # Unbound declares them: dnsmasq's lines still fail verify, each naming its directive.
    (root / "unbound.conf").write_text(UNBOUND + "".join(f'  local-zone: "{z}." static\n' for z in needed))
    checked = run(root, "verify")
    assert checked.exit_code == 1, checked.stdout
    assert "which this file's `local` lines do not name" in checked.stdout
    assert "which this file's `server` lines do not name" in checked.stdout
    assert _zones_said(run, root) == {(path, line, zone) for zone in needed
                                      for path, line in (("dnsmasq.conf", 1), ("dnsmasq.conf", 3))}
    # dnsmasq's local= by a parent zone (it answers for every name under it), its server= one by one
    swept = (root / "dnsmasq.conf").read_text()
    assert "rev-server=192.168.40.0/22," in swept
    (root / "dnsmasq.conf").write_text(swept.replace("local=/40.168.192", "local=/168.192")
                                       + "".join(f"server=/{z}/192.168.40.1\n" for z in needed))
    assert _zones_said(run, root) == set()
    assert run(root, "verify").exit_code == 0
    tested = subprocess.run(["dnsmasq", "--test", "-C", str(root / "dnsmasq.conf")], capture_output=True, text=True)
    assert tested.returncode == 0, tested.stderr  # the resolver reads what verify now accepts


def test_zone_files_hold_one_zone_each_and_are_no_declaration(repo: Repo, run: Run) -> None:
    """A zone file's `$ORIGIN` and SOA name its own zone only: declared in named.conf, the three new
    zones in files of their own satisfy verify; the /24's zone file is not asked to name them."""
    files = {"named.conf.local": "".join(_zone_statement(f"{t}.168.192.in-addr.arpa", f"db.192.168.{t}")
                                         for t in (40, 41, 42, 43)),
             **{f"db.192.168.{t}": _zone(f"{t}.168.192.in-addr.arpa", "") for t in (40, 41, 42, 43)},
             "lan.yaml": "lan: 192.168.40.0/24\n"}
    root = repo(files, config=GROW, allowlist=ALLOW)
    assert _zones_said(run, root) == set()
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    assert run(root, "verify").exit_code == 0
