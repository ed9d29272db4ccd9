"""OpenVPN `ifconfig-pool A B M` is a range, and a mask beside a held range is held with it (t36-33 07).

Under `192.168.40.0/24: 10.20.0.0/22`, `ifconfig-pool 192.168.40.1 192.168.40.254 255.255.255.0` (a
pool over every host) became `10.20.0.1 10.20.0.254 255.255.252.0` with no word, and where a range
was held back (`dhcp-range=`, ASA `ip local pool`), its mask was still rewritten: the old range
under the new mask.
"""

from __future__ import annotations

from tests.testing.findings import networks_config, reasons
from tests.testing.repos import Repo, Run

ALLOW = 'version: 1\ncurrent: ["**"]\n'
GROW = networks_config("192.168.40.0/24: 10.20.0.0/22")

HELD = {
    "server.conf": "ifconfig-pool 192.168.40.1 192.168.40.254 255.255.255.0\n",
    "dnsmasq.conf": "dhcp-range=192.168.40.1,192.168.40.254,255.255.255.0,12h\n",
    "asa.cfg": "ip local pool VPN 192.168.40.1 192.168.40.254 mask 255.255.255.0\n",
}


def test_a_range_over_every_host_holds_its_mask_with_it(repo: Repo, run: Run) -> None:
    root = repo(dict(HELD), config=GROW, allowlist=ALLOW)
    found = reasons(root, run)
    for name in HELD:
        line = [r for p, _, r in found if p == name]
        assert sorted(line) == ["mask", "range", "range"], (name, found)
    assert run(root, "sweep", "--commit").exit_code != 0
    for name, text in HELD.items():
        assert (root / name).read_text() == text  # nothing half-written


def test_a_pool_inside_the_network_moves_with_its_mask(repo: Repo, run: Run) -> None:
    root = repo({"server.conf": "ifconfig-pool 192.168.40.100 192.168.40.199 255.255.255.0\n",
                 "pool.txt": "pool: 10.0.0.1, 10.0.0.2, 10.0.0.3\n"}, config=GROW, allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 0
    assert (root / "server.conf").read_text() == "ifconfig-pool 10.20.0.100 10.20.0.199 255.255.252.0\n"
    assert run(root, "verify").exit_code == 0
