"""Prefix-length ranges in OpenBGPD, the GoBGP CLI, Calico BGPFilter, IOS-XR prefix-sets and `eq`
(t32-33 finding 04; length_ranges.py, decided as FRR's bounds by prefix_lists.py), end to end on real
git repos. Before: under /24 -> /26 each network became /26 keeping 25-28 (eq 25), sweep 0, verify OK;
the EOS/FRR twin was refused. None of these daemons is installed: the rule (every bound at least the
network's length; FRR's vtysh says the same of its own syntax) is checked in Python on what is written.
"""

from __future__ import annotations

import ipaddress
import re
import tempfile
from pathlib import Path

import pytest
import yaml

from tests.testing.repos import Run, make_repo, snapshot

ALLOW = 'version: 1\ncurrent: ["**"]\n'
BGPD = ("allow from any prefix 10.0.48.0/24 prefixlen 25 - 28\ndeny from any prefix 10.0.48.0/24 prefixlen >= 25\n"
        "allow from any prefix 10.0.48.0/24 maxlen 28\n")
GOBGP = "gobgp policy prefix add ps0 10.0.48.0/24 25..28\n"
CALICO = ("apiVersion: projectcalico.org/v3\nkind: BGPFilter\nmetadata:\n  name: lan\nspec:\n  exportV4:\n"
          "    - action: Accept\n      matchOperator: In\n      cidr: 10.0.48.0/24\n      prefixLength:\n"
          "        min: 25\n        max: 28\n    - action: Reject\n      matchOperator: In\n      cidr: 10.9.0.0/16\n")
CALICO_FLOW = ("spec:\n  importV4:\n  - {action: Accept, matchOperator: In, cidr: 10.0.48.0/24, "
               "prefixLength: {min: 25, max: 28}}\n")
NXOS = "ip prefix-list LAN5 seq 5 permit 10.0.48.0/24 eq 25\n"
XR = "prefix-set LAN\n  10.0.48.0/24 ge 25 le 28,\n  10.0.48.0/24 eq 25\nend-set\n"
FILES = {"bgpd.conf": BGPD, "gobgp.sh": GOBGP, "bgpfilter.yaml": CALICO, "flow.yaml": CALICO_FLOW,
         "nxos.cfg": NXOS, "xr.cfg": XR}
REFUSED = ["bgpd.conf:1: tool-refuses: `10.0.48.0/24`: its prefixlen 25 - 28 are prefix lengths of their own, "
           "and 10.0.48.0/26's length 26 passes /25", "bgpd.conf:2: tool-refuses", "gobgp.sh:1: tool-refuses",
           "bgpfilter.yaml:9: tool-refuses: `10.0.48.0/24`: its prefixLength min: 25, max: 28",
           "flow.yaml:3: tool-refuses", "nxos.cfg:1: tool-refuses: `10.0.48.0/24`: its eq 25 are prefix lengths "
           "of their own, and 10.0.48.0/26's length 26 passes /25: ", "xr.cfg:2: tool-refuses",
           "xr.cfg:3: tool-refuses"]


def _repo(tmp: Path, files: dict[str, str], networks: str) -> Path:
    config = f"version: 1\nrenames:\n  networks: {{{networks}}}\nallowlist: allow.yaml\n"
    return make_repo(Path(tempfile.mkdtemp(dir=tmp)) / "repo", files, config=config, allowlist=ALLOW)


@pytest.mark.parametrize("new", ["10.0.48.0/26", "10.0.48.0/28"])
def test_a_bound_the_new_length_passes_refuses(run: Run, tmp_path: Path, new: str) -> None:
    root = _repo(tmp_path, FILES, f"10.0.48.0/24: {new}")
    before = snapshot(root)
    assert run(root, "sweep", "--dry-run", "--strict").exit_code == 3
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 3, done.stdout + done.stderr
    assert snapshot(root) == before
    for text in REFUSED:
        assert text.replace("10.0.48.0/26's length 26", f"{new}'s length {new[-2:]}") in done.stderr, (text, done.stderr)
    assert "bgpfilter.yaml:15" not in done.stderr  # the other rule's cidr is no moved network
    assert run(root, "verify", "--strict").exit_code == 1
    # the rule the refusal stands for: a bound below the new length
    assert ipaddress.ip_network(new).prefixlen > 25


def test_bounds_a_shrink_leaves_valid_are_residuals(run: Run, tmp_path: Path) -> None:
    """/24 -> /25: 25-28 still >= 25, but selects other prefixes than before: each entry is left whole."""
    root = _repo(tmp_path, FILES, "10.0.48.0/24: 10.0.48.0/25")
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1, done.stdout + done.stderr
    for name, text in FILES.items():
        assert (root / name).read_text() == text, name
    out = run(root, "verify", "--strict").stdout
    for where in ("bgpd.conf:1:23", "bgpd.conf:2:22", "bgpd.conf:3:23", "gobgp.sh:1:29", "bgpfilter.yaml:9:13",
                  "flow.yaml:3:47", "nxos.cfg:1:34", "xr.cfg:2:3", "xr.cfg:3:3"):
        assert f"{where}: residual (tied-length): 10.0.48.0/24" in out, (where, out)
    spec = yaml.safe_load((root / "bgpfilter.yaml").read_text())["spec"]["exportV4"][0]
    assert spec["cidr"] == "10.0.48.0/24" and spec["prefixLength"] == {"min": 25, "max": 28}


def test_every_prefix_inside_follows_a_grow_and_v6(run: Run, tmp_path: Path) -> None:
    """A range from the network's own length to the family's longest follows (`24..32` -> `22..32`,
    `prefixlen 24 - 32` -> `22 - 32`, IOS-XR `le 128`); an IPv6 /48 -> /56 under `prefixlen 48 - 64`
    (48 below the new length) refuses; /64 -> /60 under `ge 64 le 64` is a residual."""
    files = {"gobgp.sh": "gobgp policy prefix add ps0 10.0.48.0/24 24..32\n",
             "bgpd.conf": "allow from any prefix 10.0.48.0/24 prefixlen 24 - 32\n",
             "xr.cfg": "prefix-set LAN6\n  2001:db8:a:10::/64 le 128\nend-set\n"}
    root = _repo(tmp_path, files, "10.0.48.0/24: 10.0.60.0/22, 2001:db8:a:10::/64: 2001:db8:b:20::/60")
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    assert (root / "gobgp.sh").read_text() == "gobgp policy prefix add ps0 10.0.60.0/22 22..32\n"
    assert (root / "bgpd.conf").read_text() == "allow from any prefix 10.0.60.0/22 prefixlen 22 - 32\n"
    assert "2001:db8:b:20::/60 le 128" in (root / "xr.cfg").read_text()
    for name in ("gobgp.sh", "bgpd.conf"):
        found = re.search(r"(\S+/\d+) (?:prefixlen )?(\d+)", (root / name).read_text())
        assert found is not None and ipaddress.ip_network(found.group(1)).prefixlen == int(found.group(2))
    assert run(root, "verify", "--strict").exit_code == 0
    v6 = {"bgpd.conf": "allow from any prefix 2001:db8:a::/48 prefixlen 48 - 64\n",
          "xr.cfg": "prefix-set P\n  2001:db8:a:10::/64 ge 64 le 64\nend-set\n"}
    root = _repo(tmp_path, {"bgpd.conf": v6["bgpd.conf"]}, "2001:db8:a::/48: 2001:db8:a::/56")
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 3 and "bgpd.conf:1: tool-refuses" in done.stderr, done.stderr
    root = _repo(tmp_path, {"xr.cfg": v6["xr.cfg"]}, "2001:db8:a:10::/64: 2001:db8:b:20::/60")
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1, done.stdout + done.stderr
    assert "xr.cfg:2:3: residual (tied-length): 2001:db8:a:10::/64" in run(root, "verify").stdout


OTHERS = {"huawei.cfg": "ip ip-prefix LAN index 10 permit 10.0.48.0 24 greater-equal 25 less-equal 28\n",
          "sros.cfg": ('        prefix-list "LAN"\n            prefix 10.0.48.0/24 prefix-length-range 25-28\n'
                       "            prefix 10.0.48.0/24 through 28\n        exit\n"),
          "nvue.sh": ("nv set router policy prefix-list LAN rule 10 match 10.0.48.0/24 max-prefix-len 28\n"
                      "nv set router policy prefix-list LAN rule 20 match 10.0.48.0/24 min-prefix-len 25 max-prefix-len 28\n")}


def test_other_routers_length_ranges(run: Run, tmp_path: Path) -> None:
    """The class: Huawei's greater-equal/less-equal (the length after a blank), Nokia SR OS's
    prefix-length-range and through, Cumulus NVUE's min/max-prefix-len. /24 -> /26: a low bound of 25
    refuses; `through 28` / `max-prefix-len 28` alone stay valid but select other prefixes: residuals."""
    root = _repo(tmp_path, OTHERS, "10.0.48.0/24: 10.0.48.0/26")
    before = snapshot(root)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 3, done.stdout + done.stderr
    assert snapshot(root) == before
    for text in ("huawei.cfg:1: tool-refuses: `10.0.48.0 24`: its greater-equal 25 less-equal 28",
                 "sros.cfg:2: tool-refuses: `10.0.48.0/24`: its prefix-length-range 25-28",
                 "nvue.sh:2: tool-refuses: `10.0.48.0/24`: its min-prefix-len 25 max-prefix-len 28"):
        assert text in done.stderr, (text, done.stderr)
    out = run(root, "verify", "--strict")
    assert out.exit_code == 1
    assert "sros.cfg:3:20: residual (tied-length): 10.0.48.0/24 through 28" in out.stdout, out.stdout
    assert "nvue.sh:1:52: residual (tied-length): 10.0.48.0/24 max-prefix-len 28" in out.stdout, out.stdout
