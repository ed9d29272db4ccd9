"""Reverse zones of an IPv6 move a resize cannot carry (docs/reliability.md "Known gaps"; g31-gaps33).

Under `2001:db8:8::/46: 2001:db8:c::/48` the summary said "remove 9.0.0.0.8.b.d.0.1.0.0.2.ip6.arpa,
a..., b..." and the repo still declared them after the sweep while `verify --strict` said OK; the
IPv4 twin (`10.0.48.0/22: 10.0.48.0/24`, `49.0.10.in-addr.arpa`) was a `reverse-zone` residual.
Each such nibble zone is one now, wherever it is written (a BIND zone statement, its zone file's
`$ORIGIN` and name, Unbound's `local-zone`, dnsmasq's `server=/zone/`, a PowerDNS `pdnsutil`
line, upper case), before the sweep and after it; a zone the move carries (the /48 that lands on
the new /48, a /52 sub-zone of an equal-length move) follows, and BIND still loads the result.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from tests.testing.findings import networks_config as _config
from tests.testing.repos import Repo, Run
from tests.testing.said import once

ALLOW = 'version: 1\ncurrent: ["**"]\n'
SOA = "$TTL 60\n@ IN SOA ns.lab. admin.lab. 1 3600 600 86400 60\n@ IN NS ns.lab.\n"
Z8 = "8.0.0.0.8.b.d.0.1.0.0.2.ip6.arpa"
Z9 = "9.0.0.0.8.b.d.0.1.0.0.2.ip6.arpa"
ZA = "a.0.0.0.8.b.d.0.1.0.0.2.ip6.arpa"
ZB = "b.0.0.0.8.b.d.0.1.0.0.2.ip6.arpa"
ZC = "c.0.0.0.8.b.d.0.1.0.0.2.ip6.arpa"


def _checkconf(root: Path) -> None:
    """named-checkconf -z: the configuration parses and every zone it declares loads."""
    done = subprocess.run(["named-checkconf", "-z", "-t", str(root), "/named.conf"], capture_output=True,
                          text=True, check=False)
    assert done.returncode == 0, done.stdout + done.stderr


def _residuals(run: Run, root: Path, *args: str) -> list[tuple[str, str, str]]:
    data = json.loads(run(root, "verify", "--format", "json", *args).stdout)
    return sorted((r["path"], r["old"], r["reason"]) for r in data["findings"]
                  if r["status"] == "residual" and r["reason"])


FILES = {
    "named.conf": (f'zone "{Z8}" {{ type master; file "/db.8"; }};\n'
                   f'zone "{Z9}" {{ type master; file "/zones/{Z9}.zone"; }};\n'),
    "db.8": SOA + "5.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0 IN PTR nas.lab.\n",
    f"zones/{Z9}.zone": f"$ORIGIN {Z9}.\n" + SOA,
    "unbound.conf": f'server:\n  local-zone: "{ZA}." static\n',
    "dnsmasq.conf": f"auth-zone=lab,2001:db8:8::/46\nserver=/{ZB}/127.0.0.1#5353\n",
    "pdns.sh": f"pdnsutil create-zone {ZA}\n",
}


def test_the_zones_a_shrink_cannot_carry_are_residuals_before_and_after_the_sweep(repo: Repo, run: Run) -> None:
    root = repo(FILES, config=_config('"2001:db8:8::/46": "2001:db8:c::/48"'), allowlist=ALLOW)
    _checkconf(root)
    dry = run(root, "sweep", "--dry-run", "--strict")
    assert dry.exit_code == 1, dry.stdout + dry.stderr
    expected = sorted([("dnsmasq.conf", ZB, "reverse-zone"), ("named.conf", Z9, "reverse-zone"),
                       ("pdns.sh", ZA, "reverse-zone"), ("unbound.conf", ZA, "reverse-zone"),
                       (f"zones/{Z9}.zone", Z9, "reverse-zone"), (f"zones/{Z9}.zone", Z9, "reverse-zone"),
                       ("named.conf", Z9, "reverse-zone")])
    assert _residuals(run, root) == expected
    once(dry.stdout, f"named.conf:2:7: {Z9} (reverse-zone", "the reverse zone of 2001:db8:9::/48, inside "
         "2001:db8:8::/46, cannot follow its move to 2001:db8:c::/48")
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1, done.stdout + done.stderr
    # the carried zone follows (the summary's rename), the others stay as they were, said
    assert (root / "named.conf").read_text() == FILES["named.conf"].replace(Z8, ZC)
    assert (root / "dnsmasq.conf").read_text() == FILES["dnsmasq.conf"].replace("2001:db8:8::/46", "2001:db8:c::/48")
    for name in ("unbound.conf", "pdns.sh", f"zones/{Z9}.zone"):
        assert (root / name).read_text() == FILES[name]
    _checkconf(root)  # BIND loads the renamed zone and the one left
    checked = run(root, "verify", "--strict")
    assert checked.exit_code == 1, checked.stdout
    once(checked.stdout, f"named.conf:2:7: residual (reverse-zone): {Z9}", "the reverse zone of 2001:db8:9::/48")
    assert _residuals(run, root) == expected
    # audit lists them too
    audit = json.loads(run(root, "audit", "--format", "json").stdout)
    assert sorted((r["path"], r["old"], r["reason"]) for r in audit["references"]
                  if r["status"] == "residual") == expected


def test_the_ipv4_twin_and_the_ipv6_case_say_the_same(repo: Repo, run: Run) -> None:
    files = {"named.conf": f'zone "49.0.10.in-addr.arpa" {{ type master; file "a"; }};\nzone "{Z9}" '
                           '{ type master; file "b"; };\n'}
    root = repo(files, config=_config('10.0.48.0/22: 10.0.48.0/24, "2001:db8:8::/46": "2001:db8:c::/48"'),
                allowlist=ALLOW)
    assert _residuals(run, root) == [("named.conf", "49.0.10.in-addr.arpa", "reverse-zone"),
                                     ("named.conf", Z9, "reverse-zone")]


@pytest.mark.parametrize(("networks", "text", "after", "residual"), [
    # upper case, as BIND reads it
    pytest.param('"2001:db8:8::/46": "2001:db8:c::/48"', f'zone "{Z9.upper()}" {{ type master; file "x"; }};\n',
                 None, Z9.upper(), id="upper-case"),
    # a /52 sub-zone of a /48 shrunk to a /52 elsewhere: outside the new network
    pytest.param('"2001:db8:8::/48": "2001:db8:c::/52"', 'zone "1.8.0.0.0.8.b.d.0.1.0.0.2.ip6.arpa" {};\n',
                 None, "1.8.0.0.0.8.b.d.0.1.0.0.2.ip6.arpa", id="sub-zone-outside-a-shrink"),
    # the first /52 sub-zone lands on the new /52 itself: it follows
    pytest.param('"2001:db8:8::/48": "2001:db8:c::/52"', 'zone "0.8.0.0.0.8.b.d.0.1.0.0.2.ip6.arpa" {};\n',
                 'zone "0.c.0.0.0.8.b.d.0.1.0.0.2.ip6.arpa" {};\n', None, id="sub-zone-carried-by-a-shrink"),
    # an equal-length move carries every sub-zone, keeping its offset
    pytest.param('"2001:db8:8::/46": "2001:db8:10::/46"', 'zone "1.9.0.0.0.8.b.d.0.1.0.0.2.ip6.arpa" {};\n',
                 'zone "1.1.1.0.0.8.b.d.0.1.0.0.2.ip6.arpa" {};\n', None, id="sub-zone-equal-length"),
    # a grow: a /64 sub-zone (16 nibbles) of the /60 keeps its offset in the /56
    pytest.param('"2001:db8:a:10::/60": "2001:db8:b:100::/56"',
                 'local-zone: "3.1.0.0.a.0.0.0.8.b.d.0.1.0.0.2.ip6.arpa." static\n',
                 'local-zone: "3.0.1.0.b.0.0.0.8.b.d.0.1.0.0.2.ip6.arpa." static\n', None, id="sub-zone-grow"),
    # a zone wider than the old network is none of its own: untouched, no residual
    pytest.param('"2001:db8:8::/48": "2001:db8:c::/52"', 'zone "0.0.8.b.d.0.1.0.0.2.ip6.arpa" {};\n',
                 'zone "0.0.8.b.d.0.1.0.0.2.ip6.arpa" {};\n', None, id="wider-zone"),
])
def test_nibble_zones_of_every_length_follow_or_are_said(repo: Repo, run: Run, networks: str, text: str,
                                                        after: str | None, residual: str | None) -> None:
    root = repo({"named.conf": text}, config=_config(networks), allowlist=ALLOW)
    found = _residuals(run, root)
    assert found == ([("named.conf", residual, "reverse-zone")] if residual else []), found
    done = run(root, "sweep", "--commit")
    assert done.exit_code == (1 if residual else 0), done.stdout + done.stderr
    assert (root / "named.conf").read_text() == (after or text)
    assert run(root, "verify", "--strict").exit_code == (1 if residual else 0)
