"""Issue 33, outside pass round 5 (t32-33) finding 15, end to end on real git repos: a route's own
netmask read into the interface's stanza. cloud-init network v1 nests `routes:` (a list of
mappings) under a subnet: the subnet's `netmask:` beside its only address was a "more than one
network" residual because the route's `network: 10.0.49.0` was read as its stanza's; RHEL's
`route-eth0` `NETMASK0` belongs to `ADDRESS0` by its number, and was a mask residual beside
`GATEWAY0`. What each file means after the sweep is read back with PyYAML and Python's ipaddress.
"""

from __future__ import annotations

import ipaddress
import tempfile
from pathlib import Path

import yaml

from tests.testing.repos import Run, make_repo

ALLOW = 'version: 1\ncurrent: ["**"]\n'
CLOUD = """network:
  version: 1
  config:
    - type: physical
      name: eth0
      subnets:
        - type: static
          address: 10.0.48.5
          netmask: 255.255.255.0
          routes:
            - network: 10.0.49.0
              netmask: 255.255.255.0
              gateway: 10.0.48.2
            - network: 10.0.48.128
              netmask: 255.255.255.128
              gateway: 10.0.48.3
        - type: static
          address: 10.0.70.3
          netmask: 255.255.255.248
"""
ROUTE = "ADDRESS0=10.0.49.0\nNETMASK0=255.255.255.0\nGATEWAY0=10.0.48.2\nADDRESS1=10.0.48.0\nNETMASK1=255.255.255.0\n" \
        "GATEWAY1=10.0.50.1\n"
IFCFG = "DEVICE=eth0\nIPADDR0=10.0.48.5\nPREFIX0=24\nIPADDR1=10.0.50.5\nPREFIX1=24\n"
MOVES = "10.0.48.0/24: 10.0.60.0/22, 10.0.70.0/29: 10.0.70.0/28"


def _repo(tmp: Path, files: dict[str, str]) -> Path:
    config = f"version: 1\nrenames:\n  networks: {{{MOVES}}}\nallowlist: allow.yaml\n"
    return make_repo(Path(tempfile.mkdtemp(dir=tmp)) / "repo", files, config=config, allowlist=ALLOW)


def _net(address: str, mask: str) -> str:
    return str(ipaddress.ip_interface(f"{address}/{mask}").network)


def test_a_nested_routes_netmask_is_its_own_and_the_subnets_follows(run: Run, tmp_path: Path) -> None:
    """The subnet's netmask follows its address (/22, and /28 under /29 -> /28); the route to
    10.0.49.0/24 (not moved) keeps its netmask; the route to 10.0.48.128/25 (a sub-block of the moved
    network) keeps its own length at its offset. Before: cloud.yaml:9 a residual, --strict exit 1."""
    root = _repo(tmp_path, {"cloud.yaml": CLOUD, "route-eth0": ROUTE, "ifcfg-eth0": IFCFG})
    dry = run(root, "sweep", "--dry-run", "--strict")
    assert dry.exit_code == 0, dry.stdout + dry.stderr
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    subnets = yaml.safe_load((root / "cloud.yaml").read_text())["network"]["config"][0]["subnets"]
    assert _net(subnets[0]["address"], subnets[0]["netmask"]) == "10.0.60.0/22"
    assert [(_net(r["network"], r["netmask"]), r["gateway"]) for r in subnets[0]["routes"]] == [
        ("10.0.49.0/24", "10.0.60.2"), ("10.0.60.128/25", "10.0.60.3")]
    assert _net(subnets[1]["address"], subnets[1]["netmask"]) == "10.0.70.0/28"
    route = dict(line.split("=") for line in (root / "route-eth0").read_text().splitlines())
    assert _net(route["ADDRESS0"], route["NETMASK0"]) == "10.0.49.0/24" and route["GATEWAY0"] == "10.0.60.2"
    assert _net(route["ADDRESS1"], route["NETMASK1"]) == "10.0.60.0/22"
    ifcfg = dict(line.split("=") for line in (root / "ifcfg-eth0").read_text().splitlines())
    assert _net(ifcfg["IPADDR0"], ifcfg["PREFIX0"]) == "10.0.60.0/22"
    assert _net(ifcfg["IPADDR1"], ifcfg["PREFIX1"]) == "10.0.50.0/24"
    assert run(root, "verify", "--strict").exit_code == 0
