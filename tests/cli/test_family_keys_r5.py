"""Issue 33, outside pass round 5 (t32-33) finding 22, end to end on real git repos: length and
address keys with a family word before them (SaltStack network.managed's `ipv6ipaddr` +
`ipv6netmask`, also `ipv6mask`, `ipv6prefixlen`, `ipv6_netmask`, `ip6_prefix`, `ipv4prefixlen`).
Before: the address moved into the /60, `ipv6netmask: 64` stayed (sweep 0, verify OK), and
`ipv6_netmask` & co. beside `ipv6ipaddr` were "nothing ties it" residuals. What each stanza means
after the sweep is read back with PyYAML and Python's ipaddress.
"""

from __future__ import annotations

import ipaddress
import tempfile
from pathlib import Path

import yaml

from tests.testing.repos import Run, make_repo

ALLOW = 'version: 1\ncurrent: ["**"]\n'
MOVES = ('10.0.48.0/24: 10.0.60.0/22, "2001:db8:a:10::/64": "2001:db8:b:20::/60", '
         '"2001:db8:c::/48": "2001:db8:c::/56", 10.0.70.0/29: 10.0.70.0/28')
PILLAR = """network:
  lan:
    ipaddr: 10.0.48.5
    netmask: 255.255.255.0
    ipv6ipaddr: 2001:db8:a:10::5
    ipv6netmask: 64
  a:
    ipv6ipaddr: 2001:db8:a:10::6
    ipv6mask: 64
  b:
    ipv6ipaddr: 2001:db8:c::7
    ipv6prefixlen: 48
  c:
    ipv6_address: 2001:db8:c::8
    ipv6_netmask: 48
  d:
    ip6_address: 2001:db8:a:10::9
    ip6_prefix: 64
  e:
    ipv4ipaddr: 10.0.70.3
    ipv4prefixlen: 29
"""
NEW = {"lan": ["10.0.60.0/22", "2001:db8:b:20::/60"], "a": ["2001:db8:b:20::/60"], "b": ["2001:db8:c::/56"],
       "c": ["2001:db8:c::/56"], "d": ["2001:db8:b:20::/60"], "e": ["10.0.70.0/28"]}


def _repo(tmp: Path, files: dict[str, str]) -> Path:
    config = f"version: 1\nrenames:\n  networks: {{{MOVES}}}\nallowlist: allow.yaml\n"
    return make_repo(Path(tempfile.mkdtemp(dir=tmp)) / "repo", files, config=config, allowlist=ALLOW)


PAIRS = {"lan": [("ipaddr", "netmask"), ("ipv6ipaddr", "ipv6netmask")], "a": [("ipv6ipaddr", "ipv6mask")],
         "b": [("ipv6ipaddr", "ipv6prefixlen")], "c": [("ipv6_address", "ipv6_netmask")],
         "d": [("ip6_address", "ip6_prefix")], "e": [("ipv4ipaddr", "ipv4prefixlen")]}


def _networks(name: str, stanza: dict[str, object]) -> list[str]:
    """The network each address key's interface lies in, with its length key (how Salt reads them)."""
    return sorted(str(ipaddress.ip_interface(f"{stanza[a]}/{stanza[n]}").network) for a, n in PAIRS[name])


def test_family_keys_follow_their_address(run: Run, tmp_path: Path) -> None:
    root = _repo(tmp_path, {"pillar.sls": PILLAR})
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    after = yaml.safe_load((root / "pillar.sls").read_text())["network"]
    assert {name: _networks(name, stanza) for name, stanza in after.items()} == {k: sorted(v) for k, v in NEW.items()}
    assert after["lan"]["ipv6netmask"] == 60 and after["b"]["ipv6prefixlen"] == 56
    assert run(root, "verify", "--strict").exit_code == 0


def test_a_family_key_a_sweep_left_fails_verify(run: Run, tmp_path: Path) -> None:
    """The file as the sweep wrote it before: the address moved, `ipv6netmask: 64` left."""
    written = PILLAR.replace("2001:db8:a:10::5", "2001:db8:b:20::5")
    root = _repo(tmp_path, {"pillar.sls": written})
    checked = run(root, "verify", "--strict")
    assert checked.exit_code == 1, checked.stdout
    assert "pillar.sls:6:" in checked.stdout, checked.stdout
