"""Ranges with a dash beyond ASCII (t32-33 finding 12) and non-contiguous wildcards and masks
(findings 10, 11, 20) under a resize, end to end on real git repos through the CLI. Each failed on
main before (sweep 0, the rule or range meaning something else, verify OK). Cisco IOS and iptables
are not installed: a wildcard's and a mask's meaning is checked with their documented rule in
Python (ipaddress); nftables' own `nft -c` reads the files it is given."""

from __future__ import annotations

import ipaddress
import re
import subprocess
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


# -- 10, 20: non-contiguous Cisco wildcards over a sub-block, or reaching above the network ----------

def _matches(base: str, wildcard: str, address: str) -> bool:
    """Cisco's rule: an address matches where it equals the base on every zero bit of the wildcard."""
    b, w, a = (int(ipaddress.IPv4Address(v)) for v in (base, wildcard, address))
    return (a & ~w) == (b & ~w)


def _hits(base: str, wildcard: str, within: str) -> list[int]:
    net = ipaddress.IPv4Network(within)
    return [i for i in range(net.num_addresses) if _matches(base, wildcard, str(net[i]))]


def _acl(root: Path, name: str) -> list[tuple[str, str]]:
    return [(x.group(1), x.group(2)) for x in re.finditer(r"permit ip (\S+) (\S+) any", (root / name).read_text())]


ACL = ("access-list 110 permit ip 10.0.48.0 0.0.0.14 any\naccess-list 112 permit ip 10.0.48.128 0.0.0.126 any\n"
       "access-list 113 permit ip 10.0.48.0 0.0.0.254 any\n")


def test_a_wildcard_pattern_over_a_sub_block_keeps_its_bits_under_a_grow(run: Run, tmp_path: Path) -> None:
    """Under 10.0.48.0/24 -> 10.0.60.0/22 (and /23 -> /22 in place for a /24's pattern): `0.0.0.14`
    (even hosts of the first 16) and `0.0.0.126` over the upper half keep their bits, their base moved
    by its offset: the same hosts at the same offsets (8 and 64, not 32 and 256); `0.0.0.254` over
    the whole /24 still frees the grown bits (`0.0.3.254`). Verify OK after."""
    root = _repo(tmp_path, {"ios.cfg": ACL}, "10.0.48.0/24: 10.0.60.0/22")
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    assert _acl(root, "ios.cfg") == [("10.0.60.0", "0.0.0.14"), ("10.0.60.128", "0.0.0.126"),
                                     ("10.0.60.0", "0.0.3.254")]
    before = [_hits(b, w, "10.0.48.0/24") for b, w in _acl_of(ACL)]
    after = [_hits(b, w, "10.0.60.0/22") for b, w in _acl(root, "ios.cfg")]
    assert after[0] == before[0] and len(after[0]) == 8
    assert after[1] == before[1] and len(after[1]) == 64
    assert len(after[2]) == 4 * len(before[2])
    assert run(root, "verify", "--strict").exit_code == 0
    root = _repo(tmp_path, {"ios.cfg": "access-list 114 permit ip 10.0.49.0 0.0.0.254 any\n"},
                 "10.0.48.0/23: 10.0.48.0/22")
    assert run(root, "sweep", "--commit").exit_code == 0
    assert _acl(root, "ios.cfg") == [("10.0.49.0", "0.0.0.254")]  # odd /24 of the /23: kept


def _acl_of(text: str) -> list[tuple[str, str]]:
    return [(x.group(1), x.group(2)) for x in re.finditer(r"permit ip (\S+) (\S+) any", text)]


def test_a_wildcard_pattern_reaching_above_the_network_is_a_supernet_residual(run: Run, tmp_path: Path) -> None:
    """`10.0.48.0 0.0.1.254` (even hosts of 10.0.48.0/23: the moved /24 and 10.0.49.0/24, which stays)
    and `0.0.3.254` under 10.0.48.0/24 -> 10.0.60.0/22: a `supernet` residual as the contiguous
    `0.0.1.255` is, the file left as it was (exit 1); verify fails."""
    text = "access-list 131 permit ip 10.0.48.0 0.0.1.254 any\naccess-list 132 permit ip 10.0.48.0 0.0.3.254 any\n"
    root = _repo(tmp_path, {"ios.cfg": text}, "10.0.48.0/24: 10.0.60.0/22")
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1, done.stdout + done.stderr
    assert (root / "ios.cfg").read_text() == text
    checked = run(root, "verify", "--strict")
    assert checked.exit_code == 1
    for line in (1, 2):
        assert f"ios.cfg:{line}:27: residual (supernet): 10.0.48.0" in checked.stdout, (line, checked.stdout)


# -- 11: non-contiguous netmasks (nft's `& M ==`, iptables' `A/M`) -------------------------------------

NFT = ("table inet f {\n  chain input {\n    type filter hook input priority 0;\n"
       "    ip saddr & 255.255.255.1 == 10.0.48.0 accept\n    ip saddr & 255.255.255.3 == 10.0.48.1 accept\n"
       "  }\n}\n")
IPT = "*filter\n-A INPUT -s 10.0.48.0/255.255.255.1 -j ACCEPT\nCOMMIT\n"


def _masked(base: str, mask: str, address: str) -> bool:
    """nft's and iptables' rule: an address matches where it equals the base on every one bit."""
    b, m, a = (int(ipaddress.IPv4Address(v)) for v in (base, mask, address))
    return (a & m) == (b & m)


def _nft_reads(path: Path) -> None:
    checked = subprocess.run(["unshare", "-rn", "nft", "-c", "-f", str(path)], capture_output=True, text=True)
    assert checked.returncode == 0, checked.stderr


def test_a_non_contiguous_netmask_follows_a_grow(run: Run, tmp_path: Path) -> None:
    """Under 10.0.48.0/24 -> 10.0.60.0/22: `255.255.255.1` becomes `255.255.252.1` (even hosts of
    the whole /22, as the Cisco twin `0.0.3.254`), `255.255.255.3` `255.255.252.3`; nft -c reads the
    result; verify OK. Before: the mask stayed, a quarter of the network matched."""
    root = _repo(tmp_path, {"even.nft": NFT, "rules.v4": IPT}, "10.0.48.0/24: 10.0.60.0/22")
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    text = (root / "even.nft").read_text()
    assert "ip saddr & 255.255.252.1 == 10.0.60.0 accept" in text, text
    assert "ip saddr & 255.255.252.3 == 10.0.60.1 accept" in text, text
    assert "-A INPUT -s 10.0.60.0/255.255.252.1 -j ACCEPT" in (root / "rules.v4").read_text()
    _nft_reads(root / "even.nft")
    new = ipaddress.IPv4Network("10.0.60.0/22")
    hits = [a for a in new if _masked("10.0.60.0", "255.255.252.1", str(a))]
    assert len(hits) == 512 and all(int(a) % 2 == 0 for a in hits)
    assert not any(_masked("10.0.60.0", "255.255.252.1", str(a)) for a in ipaddress.IPv4Network("10.0.64.0/24"))
    assert run(root, "verify", "--strict").exit_code == 0


def test_a_non_contiguous_netmask_a_shrink_leaves_matching_outside_refuses(run: Run, tmp_path: Path) -> None:
    """Under /24 -> /25 in place, `255.255.255.1` (even hosts of the /24: .128-.254 too) would match
    outside the new network: refused `outside-prefix`, nothing written; `255.255.255.129` (even
    hosts of the lower half) stays inside: left as it is."""
    root = _repo(tmp_path, {"even.nft": NFT, "rules.v4": IPT}, "10.0.48.0/24: 10.0.48.0/25")
    before = snapshot(root)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 3, done.stdout + done.stderr
    assert snapshot(root) == before
    assert "even.nft:4: outside the new, smaller network: the netmask 255.255.255.1" in done.stderr, done.stderr
    assert "rules.v4:2: outside the new, smaller network: the netmask 255.255.255.1" in done.stderr, done.stderr
    inside = IPT.replace("255.255.255.1", "255.255.255.129")
    root = _repo(tmp_path, {"rules.v4": inside}, "10.0.48.0/24: 10.0.48.0/25")
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    assert (root / "rules.v4").read_text() == inside
