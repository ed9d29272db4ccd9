"""A stanza's mask tied by its gateway (the lead's trial on khaddict/homelab), end to end.

`data/main.json`'s `"network": {"gateway": "192.168.0.254", "netmask": "255.255.255.0"}` under
`192.168.0.0/24: 10.20.0.0/22` was a `mask` residual ("nothing ties it"): a gateway is on the link,
so where no address key stands in the stanza and every address there is the moved network's, its
mask follows. A route's stanza, whose `destination` is another network, keeps the residual.
"""

from __future__ import annotations

import json
from pathlib import Path

from tests.testing.findings import places
from tests.testing.repos import Repo, Run

ALLOW = 'version: 1\ncurrent: ["**"]\n'
CONFIG = "version: 1\nrenames:\n  networks: {192.168.0.0/24: 10.20.0.0/22}\nallowlist: allow.yaml\n"

NET = """\
{
  "network": {
    "dns": {"recursor": "192.168.0.167"},
    "gateway": "192.168.0.254",
    "netmask": "255.255.255.0",
    "domain": "homelab.lan"
  },
  "route": {
    "destination": "10.5.0.0",
    "netmask": "255.255.255.0",
    "gateway": "192.168.0.254"
  },
  "wan": {
    "gateway": "203.0.113.1",
    "netmask": "255.255.255.0"
  }
}
"""


def _masks(run: Run, root: Path) -> list[tuple[str, int]]:
    return places(root, run, "mask")


def test_the_gateway_ties_its_stanzas_mask_and_a_routes_mask_stays_a_residual(repo: Repo, run: Run) -> None:
    root = repo({"data/main.json": NET, "ifcfg.yml": "eth0:\n  default_gw: 192.168.0.254\n  mask: 255.255.255.0\n"},
                config=CONFIG, allowlist=ALLOW)
    assert _masks(run, root) == [("data/main.json", 10)]
    assert run(root, "sweep", "--commit").exit_code == 1  # the route's residual
    swept = json.loads((root / "data/main.json").read_text())
    assert swept["network"] == {"dns": {"recursor": "10.20.0.167"}, "gateway": "10.20.0.254",
                                "netmask": "255.255.252.0", "domain": "homelab.lan"}
    assert swept["route"] == {"destination": "10.5.0.0", "netmask": "255.255.255.0", "gateway": "10.20.0.254"}
    assert swept["wan"] == {"gateway": "203.0.113.1", "netmask": "255.255.255.0"}
    assert (root / "ifcfg.yml").read_text() == "eth0:\n  default_gw: 10.20.0.254\n  mask: 255.255.252.0\n"
    assert _masks(run, root) == [("data/main.json", 10)]
