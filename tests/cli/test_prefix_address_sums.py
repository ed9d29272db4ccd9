"""Hosts made by adding to an address under a shrink (t36-33 finding 09), end to end on real git
repos: Python's `GW + 200` (GW bound to `ip_address(...)`), `NET.network_address + i for i in
range(150, 200)`, `ip_address("...") + i` in a loop, Node's `ip.fromLong(ip.toLong("...") + 200)`,
PHP's `long2ip(ip2long('...') + 200)`, Ruby's `IPAddr.new("...") + 200`: each sum the new, smaller
network cannot hold refuses the sweep (exit 3, nothing written), naming the expression and the
address; Python itself, run on the files, makes the addresses said. Sums the new network holds,
and an equal-length move (the literal moves, the sum follows), are no refusal.
"""

from __future__ import annotations

import ipaddress
import subprocess
import sys
import tempfile
from pathlib import Path

from tests.testing.findings import networks_config as _config
from tests.testing.repos import Run, make_repo, snapshot

ALLOW = 'version: 1\ncurrent: ["**"]\n'
PY = ('import ipaddress\nGW = ipaddress.ip_address("192.168.40.1")\nVIP = GW + 200\n'
      'NET = ipaddress.ip_network("192.168.40.0/24")\nPOOL = [NET.network_address + i for i in range(150, 200)]\n'
      'EDGE = []\nfor n in range(120, 131):\n    EDGE.append(ipaddress.ip_address("192.168.40.0") + n)\n')
JS = 'const ip = require("ip");\nconst vip = ip.fromLong(ip.toLong("192.168.40.1") + 200);\n'
PHP = "<?php\n$vip = long2ip(ip2long('192.168.40.1') + 200);\n"
RB = 'require "ipaddr"\nVIP = IPAddr.new("192.168.40.1") + 200\n'


def _repo(tmp: Path, files: dict[str, str], networks: str) -> Path:
    return make_repo(Path(tempfile.mkdtemp(dir=tmp)) / "repo", files, config=_config(networks), allowlist=ALLOW)


def test_sums_a_shrink_cannot_place_refuse_the_sweep(run: Run, tmp_path: Path) -> None:
    files = {"gen.py": PY, "gen.js": JS, "gen.php": PHP, "gen.rb": RB}
    made: dict[str, object] = {}
    exec(compile(PY, "gen.py", "exec"), made)  # what Python makes of the file as written
    assert str(made["VIP"]) == "192.168.40.201" and str(made["POOL"][-1]) == "192.168.40.199"  # type: ignore[index]
    assert str(made["EDGE"][-1]) == "192.168.40.130"  # type: ignore[index]
    root = _repo(tmp_path, files, "192.168.40.0/24: 192.168.40.0/25")
    before = snapshot(root)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 3, done.stdout + done.stderr
    assert snapshot(root) == before
    for said in ("gen.py:3: outside the new, smaller network: `GW + 200`: 192.168.40.201",
                 "gen.py:5: outside the new, smaller network: `NET.network_address + i`: 192.168.40.199",
                 "gen.py:8: outside the new, smaller network: `ip_address(\"192.168.40.0\") + n`: 192.168.40.130",
                 "gen.js:2: outside the new, smaller network: `toLong(\"192.168.40.1\") + 200`: 192.168.40.201",
                 "gen.php:2: outside the new, smaller network: `ip2long('192.168.40.1') + 200`: 192.168.40.201",
                 "gen.rb:2: outside the new, smaller network: `IPAddr.new(\"192.168.40.1\") + 200`: 192.168.40.201"):
        assert said in done.stderr, (said, done.stderr)


def test_sums_the_new_network_holds_or_that_follow_are_no_refusal(run: Run, tmp_path: Path) -> None:
    inside = {"gen.py": PY.replace("+ 200", "+ 20").replace("range(150, 200)", "range(50, 100)")
              .replace("range(120, 131)", "range(100, 127)"),
              "gen.js": JS.replace("+ 200", "+ 20")}
    root = _repo(tmp_path, inside, "192.168.40.0/24: 192.168.40.0/25")
    done = run(root, "sweep", "--commit")
    assert done.exit_code in (0, 1), done.stdout + done.stderr
    assert "outside the new, smaller network" not in done.stdout + done.stderr
    # an equal-length move: the literal address moves, the sum follows it (a literal address plus a
    # loop variable is held as a residual, never written half: a known gap, docs/reliability.md)
    root = _repo(tmp_path, {"gen.py": PY}, "192.168.40.0/24: 10.9.8.0/24")
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1, done.stdout + done.stderr
    assert "Residual, left for you (1):\n  gen.py:8:39: 192.168.40.0 (composed-address" in done.stdout, done.stdout
    written = (root / "gen.py").read_text()
    assert '"10.9.8.1"' in written and written.count("192.168.40") == 1, written
    made = subprocess.run([sys.executable, "-c", written + "\nprint(VIP, POOL[-1])"], capture_output=True,
                          text=True, check=True).stdout.split()
    assert [ipaddress.ip_address(a) in ipaddress.ip_network("10.9.8.0/24") for a in made] == [True, True]
