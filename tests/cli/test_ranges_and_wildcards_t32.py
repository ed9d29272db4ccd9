"""Ranges with a dash beyond ASCII (t32-33 finding 12) and non-contiguous wildcards and masks
(findings 10, 11, 20) under a resize, end to end on real git repos through the CLI. Each failed on
main before (sweep 0, the rule or range meaning something else, verify OK). Cisco IOS and iptables
are not installed: a wildcard's and a mask's meaning is checked with their documented rule in
Python (ipaddress); nftables' own `nft -c` reads the files it is given."""

from __future__ import annotations

import ipaddress
import re
import tempfile
from pathlib import Path

from tests.testing.repos import Run, make_repo, snapshot

ALLOW = 'version: 1\ncurrent: ["**"]\n'


def _repo(tmp: Path, files: dict[str, str], networks: str) -> Path:
    config = f"version: 1\nrenames:\n  networks: {{{networks}}}\nallowlist: allow.yaml\n"
    return make_repo(Path(tempfile.mkdtemp(dir=tmp)) / "repo", files, config=config, allowlist=ALLOW)


# -- 12: an en dash (em dash, minus sign) joins a range ----------------------------------------------

EN, EM, MINUS = "\u2013", "\u2014", "\u2212"
POOLS = (f"| LAN | DHCP pool |\n| --- | --- |\n| 10.0.48.0/24 | 10.0.48.100{EN}200 |\n"
         f"| scan | 10.0.48.10 {EM} .100 |\n| guests | 10.0.48.150{MINUS}10.0.48.160 |\n")


def _ends(text: str) -> tuple[ipaddress.IPv4Address, ipaddress.IPv4Address]:
    first, last = re.split(f"[ ]*[-{EN}{EM}{MINUS}][ ]*", text)
    last = last.lstrip(".")
    last = last if "." in last else f"{first.rsplit('.', 1)[0]}.{last}"
    return ipaddress.IPv4Address(first), ipaddress.IPv4Address(last)


def test_a_range_with_an_en_dash_a_shrink_leaves_half_outside_refuses(run: Run, tmp_path: Path) -> None:
    """/24 -> /25 in place (the finding) and /24 -> /26: each range's other end lies outside the new
    network: refused `outside-prefix`, nothing written, as the hyphen's twin is."""
    for new in ("10.0.48.0/25", "10.0.48.0/26"):
        root = _repo(tmp_path, {"pool.md": POOLS}, f"10.0.48.0/24: {new}")
        before = snapshot(root)
        done = run(root, "sweep", "--commit")
        assert done.exit_code == 3, done.stdout + done.stderr
        assert snapshot(root) == before
        assert "pool.md:3: outside the new, smaller network: " in done.stderr, done.stderr
    root = _repo(tmp_path, {"pool.md": POOLS}, "10.0.48.0/24: 10.0.48.0/25")
    done = run(root, "sweep", "--dry-run", "--strict")
    assert done.exit_code == 3
    assert f"pool.md:3: outside the new, smaller network: `10.0.48.100{EN}200`" in done.stdout + done.stderr
    for line in (3, 5):
        assert f"pool.md:{line}: outside" in done.stdout + done.stderr, (line, done.stdout + done.stderr)
    assert "pool.md:4: outside" not in done.stdout + done.stderr  # .10-.100: inside the /25


def test_the_whole_network_with_an_en_dash_becomes_the_whole_new_one(run: Run, tmp_path: Path) -> None:
    """`10.0.48.0{EN}255`, `10.0.48.0 {EM} .255` and `10.0.48.0{EN}10.0.48.255` under a grow to
    10.0.60.0/22 (and /23 -> /24 in place): the whole new network, the dash kept; hosts inside keep
    their offsets; verify OK after."""
    text = (f"all: 10.0.48.0{EN}255\nall: 10.0.48.0 {EM} .255\nall: 10.0.48.0{EN}10.0.48.255\n"
            f"pool: 10.0.48.100{EN}200\n")
    root = _repo(tmp_path, {"lan.md": text}, "10.0.48.0/24: 10.0.60.0/22")
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    lines = (root / "lan.md").read_text(encoding="utf-8").splitlines()
    assert lines == [f"all: 10.0.60.0{EN}10.0.63.255", f"all: 10.0.60.0 {EM} 10.0.63.255",
                     f"all: 10.0.60.0{EN}10.0.63.255", f"pool: 10.0.60.100{EN}200"]
    new = ipaddress.IPv4Network("10.0.60.0/22")
    for line in lines[:3]:
        assert _ends(line.split(": ")[1]) == (new.network_address, new.broadcast_address)
    assert run(root, "verify", "--strict").exit_code == 0
    root = _repo(tmp_path, {"lan.md": f"all: 10.0.48.0{EN}10.0.49.255\n"}, "10.0.48.0/23: 10.0.48.0/24")
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    assert (root / "lan.md").read_text(encoding="utf-8") == f"all: 10.0.48.0{EN}10.0.48.255\n"
