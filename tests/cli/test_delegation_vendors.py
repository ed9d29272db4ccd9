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


# -- t33-33 finding 15: WIDE dhcp6c's sla-len -------------------------------------------------------

DHCP6C = """\
interface wan0 {
  send ia-pd 0;
};
id-assoc pd 0 {
  prefix 2001:db8:a::/56 infinity;
  prefix-interface lan0 {
    sla-id 1;
    sla-len 8;
  };
  prefix-interface lan1 {
    sla-id 2;
    sla-len 8;
  };
};
"""


@pytest.mark.parametrize("new, now", [("2001:db8:a::/60", 68), ("2001:db8::/52", 60)])
def test_dhcp6c_sla_len_beside_a_resized_prefix_refuses(run: Run, tmp_path: Path, new: str, now: int) -> None:
    """dhcp6c.conf(5): each prefix-interface gets the delegated prefix's length plus sla-len bits, a
    /64 (SLAAC) here; kept at 8 under any resize it would get a /68 (a shrink) or a /60 (a grow)."""
    root = _repo(tmp_path, {"dhcp6c.conf": DHCP6C}, f"2001:db8:a::/56: {new}")
    before = snapshot(root)
    assert run(root, "sweep", "--dry-run", "--strict").exit_code == 3
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 3, done.stdout + done.stderr
    assert snapshot(root) == before
    fix = 64 - ipaddress.ip_network(new).prefixlen
    for line, name in ((8, "lan0"), (12, "lan1")):
        assert f"dhcp6c.conf:{line}: tool-refuses: dhcp6c's sla-len 8 is tied to the delegated prefix " \
               f"2001:db8:a::/56 (its id-assoc pd), which becomes {new}: the interface {name} would get a " \
               f"/{now} instead of a /64 (no SLAAC on a prefix other than a /64): set it to {fix} by hand" \
               in done.stderr, done.stderr
    assert "Traceback" not in done.stderr
    assert run(root, "verify", "--strict").exit_code == 1
    # the same file, set by hand: the prefix at its new length with sla-len set to keep a /64
    fixed = DHCP6C.replace("2001:db8:a::/56", new).replace("sla-len 8", f"sla-len {fix}")
    (root / "dhcp6c.conf").write_text(fixed)
    assert run(root, "verify", "--strict").exit_code == 0
    prefix = ipaddress.ip_network(new)
    assert prefix.prefixlen + fix == 64 and 2 ** fix > 2  # dhcp6c's rule: sla-id 1 and 2 fit in sla-len bits


# -- t33-33 finding 19: a RouterOS routing filter is no IPv6 pool -------------------------------------

ROS_FILTER = "/routing filter\nadd chain=bgp-in prefix=2001:db8:a::/48 prefix-length=56-64 action=accept\n"


def test_routeros_routing_filter_is_refused_once_in_its_own_words(run: Run, tmp_path: Path) -> None:
    root = _repo(tmp_path, {"ros6.rsc": ROS_FILTER}, "2001:db8:a::/48: 2001:db8:a::/60")
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 3, done.stdout + done.stderr
    assert done.stderr.count("ros6.rsc:2: tool-refuses:") == 1, done.stderr
    assert "prefix-length=56-64 are prefix lengths of their own" in done.stderr
    assert "pool" not in done.stderr.split("ros6.rsc:2:", 1)[1].split(";")[0], done.stderr
    assert "1 file would no longer parse" in done.stderr, done.stderr
    root = _repo(tmp_path, {"ros6.rsc": ROS_FILTER}, "2001:db8:a::/48: 2001:db8:a::/52")
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1, done.stdout + done.stderr
    out = run(root, "verify", "--strict").stdout
    assert out.count("ros6.rsc:2:") == 1, out
    assert "prefix-length=56-64 are lengths of their own, not counted from the network's" in out, out
    assert "hands out" not in out and "count from no length" not in out, out
