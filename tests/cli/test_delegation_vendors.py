"""Delegation lengths of JunOS address-assignment pools, Cisco IOS `ipv6 local pool` and dibbler's
`pd-class` tied to a resized IPv6 pool (t32-33 finding 03; delegation_lengths.py), end to end on real
git repos. Before: each pool was rewritten to /58 and kept delegating /56 prefixes (none fits), sweep 0,
verify OK. None of these daemons is installed: the rule (a pool hands out 2 ** (L - N) prefixes of
length L, none where L < N) is checked in Python on what is written.
"""

from __future__ import annotations

import ipaddress
import re
import tempfile
from pathlib import Path

import pytest

from tests.testing.repos import Run, make_repo, snapshot

ALLOW = 'version: 1\ncurrent: ["**"]\n'
JUNOS_SET = ("set access address-assignment pool pd family inet6 prefix 2001:db8:a::/48\n"
             "set access address-assignment pool pd family inet6 range r1 prefix-length 56\n"
             "set access address-assignment pool other family inet6 prefix 2001:db8:f::/48\n"
             "set access address-assignment pool other family inet6 range r1 prefix-length 52\n")
JUNOS_TREE = ("access {\n    address-assignment {\n        pool pd {\n            family inet6 {\n"
              "                prefix 2001:db8:a::/48;\n                range r1 {\n"
              "                    prefix-length 56;\n                }\n            }\n        }\n    }\n}\n")
IOS = "ipv6 local pool PD-POOL 2001:db8:a::/48 56\nipv6 dhcp pool PD\n prefix-delegation pool PD-POOL lifetime 1800 600\n"
DIBBLER = 'iface "eth0" {\n  pd-class {\n    pd-pool 2001:db8:a::/48\n    pd-length 56\n  }\n}\n'
FILES = {"junos.set": JUNOS_SET, "junos.conf": JUNOS_TREE, "ios.cfg": IOS, "dibbler-server.conf": DIBBLER}
WHERE = {"junos.set": 2, "junos.conf": 7, "ios.cfg": 1, "dibbler-server.conf": 4}
WHAT = {"junos.set": "JunOS's address-assignment range prefix-length", "junos.conf": "JunOS's address-assignment "
        "range prefix-length", "ios.cfg": "Cisco IOS's ipv6 local pool assigned length",
        "dibbler-server.conf": "dibbler's pd-class pd-length"}


def _repo(tmp: Path, files: dict[str, str], networks: str) -> Path:
    config = f"version: 1\nrenames:\n  networks: {{{networks}}}\nallowlist: allow.yaml\n"
    return make_repo(Path(tempfile.mkdtemp(dir=tmp)) / "repo", files, config=config, allowlist=ALLOW)


@pytest.mark.parametrize("new", ["2001:db8:a::/58", "2001:db8:a::/60"])
def test_a_delegation_length_the_new_pool_cannot_hold_refuses(run: Run, tmp_path: Path, new: str) -> None:
    root = _repo(tmp_path, FILES, f"2001:db8:a::/48: {new}")
    before = snapshot(root)
    assert run(root, "sweep", "--dry-run", "--strict").exit_code == 3
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 3, done.stdout + done.stderr
    assert snapshot(root) == before
    for name, line in WHERE.items():
        assert f"{name}:{line}: tool-refuses: {WHAT[name]} 56 is tied to the pool 2001:db8:a::/48, which becomes " \
               f"{new}: no /56 fits" in done.stderr, done.stderr
    assert "junos.set:4" not in done.stderr  # the other pool's range is its own
    assert run(root, "verify", "--strict").exit_code == 1


def test_fewer_delegations_are_residuals_and_a_grow_follows(run: Run, tmp_path: Path) -> None:
    root = _repo(tmp_path, FILES, "2001:db8:a::/48: 2001:db8:a::/52")
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1, done.stdout + done.stderr
    for name, text in FILES.items():
        assert (root / name).read_text() == text, name  # each pool left with its length
    out = run(root, "verify", "--strict")
    assert out.exit_code == 1
    for where in ("junos.set:1:59", "junos.conf:5:24", "ios.cfg:1:25", "dibbler-server.conf:3:13"):
        assert f"{where}: residual (tied-length): 2001:db8:a::/48" in out.stdout, out.stdout
    assert "which hands out 256 /56 prefixes, as 2001:db8:a::/52 it would hand out 16" in out.stdout
    root = _repo(tmp_path, FILES, "2001:db8:a::/48: 2001:db8:10::/44")
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    for name in FILES:
        text = (root / name).read_text()
        pool = ipaddress.ip_network(re.findall(r"2001:db8:[0-9a-f:]*/\d+", text)[0])
        assert pool == ipaddress.ip_network("2001:db8:10::/44") and 2 ** (56 - pool.prefixlen) == 4096, name
    assert run(root, "verify", "--strict").exit_code == 0


def test_an_ios_pool_of_56_under_64_and_an_asa_count(run: Run, tmp_path: Path) -> None:
    """/56 -> /60 under an assigned length of 64: 16 /64s, not 256 (a residual); an ASA's
    `ipv6 local pool NAME A/N 100` counts addresses (no length): it follows."""
    ios = "ipv6 local pool LAN 2001:db8:a:100::/56 64\n"
    asa = "ASA Version 9.16\nipv6 local pool VPN 2001:db8:a:100::/56 100\n"
    root = _repo(tmp_path, {"ios.cfg": ios, "asa.cfg": asa}, "2001:db8:a:100::/56: 2001:db8:a:100::/60")
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1, done.stdout + done.stderr
    assert (root / "ios.cfg").read_text() == ios
    assert (root / "asa.cfg").read_text() == asa.replace("/56", "/60")
    out = run(root, "verify", "--strict").stdout
    assert "ios.cfg:1:21: residual (tied-length): 2001:db8:a:100::/56" in out, out
    assert "hands out 256 /64 prefixes, as 2001:db8:a:100::/60 it would hand out 16" in out, out
