"""A wider network that still holds a moved network is left alone, not a `supernet` residual (the
lead's trial on a public Salt tree: `10.80.0.0/16` in three firewall lists, three residuals with
nothing to decide under `10.80.0.0/24: 10.80.0.0/23`). One the move leaves, or a host written with
a wide length, stays a residual. End to end: what the sweep writes, what verify says after."""

from __future__ import annotations

import ipaddress

import pytest

from tests.testing.findings import networks_config as _config
from tests.testing.repos import Repo, Run

ALLOW = 'version: 1\ncurrent: ["**"]\n'

WIDE = {
    "pillar/fw.sls": "block:\n  - '10.80.0.0/16'\n  - 10.0.0.0/8\n  - '10.80.0.0/24'\n",
    "routes.cfg": "ip route 10.80.0.0 255.255.0.0 Null0\nip route 10.80.0.0 255.255.255.0 10.80.0.1\n",
    "site.yml": "summary:\n  network: 10.80.0.0\n  prefix: 16\n",
}


@pytest.mark.parametrize("move", ["10.80.0.0/24: 10.80.0.0/23", "10.80.0.0/24: 10.80.0.0/22",
                                  "10.80.0.0/24: 10.80.4.0/24", "10.80.0.0/24: 10.80.8.0/21"])
def test_a_wider_network_that_holds_the_new_one_is_left_alone(repo: Repo, run: Run, move: str) -> None:
    old, new = (ipaddress.ip_network(n.strip()) for n in move.split(": "))
    root = repo(WIDE, config=_config(move), allowlist=ALLOW)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    assert "supernet" not in done.stdout + done.stderr
    fw = (root / "pillar/fw.sls").read_text()
    assert fw == WIDE["pillar/fw.sls"].replace("'10.80.0.0/24'", f"'{new}'"), fw
    assert (root / "site.yml").read_text() == WIDE["site.yml"]
    routes = (root / "routes.cfg").read_text().splitlines()
    assert routes[0] == "ip route 10.80.0.0 255.255.0.0 Null0"
    assert routes[1] == f"ip route {new.network_address} {new.netmask} {new.network_address + 1}", routes
    assert all(n.subnet_of(ipaddress.ip_network("10.80.0.0/16")) for n in (old, new))
    checked = run(root, "verify", "--strict")
    assert checked.exit_code == 0, checked.stdout + checked.stderr


def test_a_wider_network_the_move_leaves_is_still_a_residual(repo: Repo, run: Run) -> None:
    """`10.80.0.0/16` under a move to 10.90.0.0/24: the /16 no longer holds it; decide by hand."""
    root = repo(WIDE, config=_config("10.80.0.0/24: 10.90.0.0/24"), allowlist=ALLOW)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1, done.stdout + done.stderr
    out = run(root, "verify").stdout
    for where in ("pillar/fw.sls:2:6", "routes.cfg:1:10", "site.yml:2:12"):
        assert f"{where}: residual (supernet): 10.80.0.0" in out, (where, out)
    assert "10.0.0.0/8" in (root / "pillar/fw.sls").read_text()


def test_a_host_written_with_a_wide_length_is_still_a_residual(repo: Repo, run: Run) -> None:
    """`10.80.0.5/16`: an interface's address whose network is wider; which one is meant is not
    proved by the move (the /16 holds both), so it stays a residual as before."""
    files = {"eth0.network": "[Network]\nAddress=10.80.0.5/16\n"}
    root = repo(files, config=_config("10.80.0.0/24: 10.80.4.0/24"), allowlist=ALLOW)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1, done.stdout + done.stderr
    assert "eth0.network:2:9: residual (supernet): 10.80.0.5" in run(root, "verify").stdout
    assert (root / "eth0.network").read_text() == files["eth0.network"]
