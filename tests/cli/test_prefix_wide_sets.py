"""Wider networks a network move leaves or lands inside (t36-33, findings 04, 05, 20).

04: an access rule or a route naming a network wider than the moved one that holds the old network
and not the new one (`allow 192.168.0.0/16;`, Postfix `mynetworks`, Apache `Require ip 192.168`,
hosts.allow `192.168.`, `trusted_proxies`, IOS `ip route 192.168.0.0 255.255.0.0`, IPv6 `allow
2001:db8::/32;`) was silent, verify OK: it is a residual `wide-set` now, never rewritten. 05: a wider
network in use (a VLAN /20, a pod CIDR, a route) that the new network lands inside is a collision
(`verify --strict` fails). 20: what a grow swallows that another move of the same config moves away
is no collision.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.testing.findings import networks_config as _config
from tests.testing.repos import Repo, Run

ALLOW = 'version: 1\ncurrent: ["**"]\n'

RULES = {
    "nginx.conf": "location /admin {\n    allow 192.168.0.0/16;\n    deny all;\n}\n",
    "main.cf": "mynetworks = 127.0.0.0/8 192.168.0.0/16\n",
    "apache.conf": "<Location /admin>\n  Require ip 192.168\n</Location>\n",
    "hosts.allow": "sshd: 127.0.0.1, 192.168.\n",
    "traefik.yml": "trusted_proxies:\n  - 192.168.0.0/16\n",
    "edge.ios": "ip route 192.168.0.0 255.255.0.0 Tunnel0\n",
    "fw.sh": "iptables -A INPUT -s 192.168.32.0/19 -j ACCEPT\n",  # a /19 holding 192.168.40.0/24
    "acl.ios": "access-list 10 permit 192.168.0.0 0.0.255.255\n",
    "service.sh": "set service ntp allow-client address '192.168.0.0/16'\n",  # VyOS (bjw-s/vyos-config)
    "netpol.yaml": "egress:\n  - to:\n      - ipBlock:\n          cidr: 192.168.0.0/16\n",
}


def _residuals(run: Run, root: Path) -> dict[str, list[dict[str, object]]]:
    checked = run(root, "verify", "--format", "json")
    out: dict[str, list[dict[str, object]]] = {}
    for finding in json.loads(checked.stdout)["findings"]:
        out.setdefault(str(finding["path"]), []).append(finding)
    return out


@pytest.mark.parametrize("move", ["192.168.40.0/24: 10.20.0.0/22", "192.168.40.0/24: 172.16.8.0/24"])
def test_a_wider_access_set_or_route_the_move_leaves_is_a_residual(repo: Repo, run: Run, move: str) -> None:
    root = repo({**RULES, "app.conf": "upstream 192.168.40.10:8080\n"}, config=_config(move), allowlist=ALLOW)
    found = _residuals(run, root)
    assert set(found) == set(RULES) | {"app.conf"}, sorted(found)
    for path in RULES:
        assert [(f["status"], f["reason"]) for f in found[path]] == [("residual", "wide-set")], found[path]
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1, done.stdout + done.stderr  # left for a decision
    for path, text in RULES.items():
        assert (root / path).read_text() == text  # nothing of a rule rewritten
    assert (root / "app.conf").read_text() == "upstream 10.20.0.10:8080\n" or "172.16.8.10" in (
        root / "app.conf").read_text()
    checked = run(root, "verify")
    assert checked.exit_code == 1 and "wide-set" in checked.stdout


def test_a_wider_set_holding_the_new_network_too_and_other_contexts_are_left(repo: Repo, run: Run) -> None:
    files = {
        "nginx.conf": "allow 192.168.0.0/16;\nallow 10.0.0.0/8;\n",  # holds 192.168.50.0/24 too
        "iface.conf": "address 10.9.0.0/16\n",  # no rule, no route
        "notes.md": "the office is 192.168.0.0/16\n",
        "other.conf": "allow 192.169.0.0/16;\nRequire ip 192.1680\n",
    }
    root = repo({**files, "app.conf": "upstream 192.168.40.10\n"}, config=_config("192.168.40.0/24: 192.168.50.0/24"),
                allowlist=ALLOW)
    found = _residuals(run, root)
    assert set(found) == {"app.conf"}, found


def test_an_ipv6_wider_set_or_route_the_move_leaves_is_a_residual(repo: Repo, run: Run) -> None:
    files = {
        "nginx.conf": "allow 2001:db8::/32;\nallow 2001:db8:a::/48;\n",
        "edge.ios": "ipv6 route 2001:db8::/32 Tunnel0\n",
        "wide.conf": "allow 2001:db8::/36;\n",  # holds the /48
        "spelled.conf": "allow 2001:db8:a::/40;\n",  # from the old network's own address: a supernet
    }
    root = repo(files, config=_config('"2001:db8:a::/48": "2a01:4f8:c0c::/48"'), allowlist=ALLOW)
    found = _residuals(run, root)
    assert [f["reason"] for f in found["edge.ios"]] == ["wide-set"]
    assert [f["reason"] for f in found["wide.conf"]] == ["wide-set"]
    assert [f["reason"] for f in found["spelled.conf"]] == ["supernet"]
    assert "wide-set" in [f["reason"] for f in found["nginx.conf"]]
    run(root, "sweep", "--commit")
    assert (root / "nginx.conf").read_text() == "allow 2001:db8::/32;\nallow 2a01:4f8:c0c::/48;\n"


def _collisions(run: Run, root: Path, *flags: str) -> list[str]:
    done = run(root, "sweep", "--dry-run", "--format", "json", *flags)
    return sorted(str(c["value"]) for c in json.loads(done.stdout)["collisions"])


def test_a_wider_network_in_use_the_new_network_lands_inside_is_a_collision(repo: Repo, run: Run) -> None:
    files = {
        "lan.yml": "lan: 10.42.0.0/21\ngw: 10.42.0.1\n",
        "vlans.yml": "vlans:\n  iot:\n    cidr: 10.60.0.0/20\n",
        "kubeadm.yml": 'networking:\n  podSubnet: "10.60.0.0/16"\n',
        "edge.ios": "ip route 10.60.0.0 255.255.240.0 192.0.2.2\n",
        "route.sh": "route add -net 10.60.8.0 netmask 255.255.252.0 gw 192.0.2.3\n",  # a /22 inside: landed
        "fw.sh": "iptables -A INPUT -s 10.60.0.0/16 -j ACCEPT\n",  # an access set admits it: none
        "aggregate.yml": "private: 10.0.0.0/8\n",  # an aggregate: none
        "interfaces": "iface vlan20 inet static\n  address 10.60.0.1/20\n",  # the VLAN's gateway
    }
    root = repo(files, config=_config("10.42.0.0/21: 10.60.8.0/21"), allowlist=ALLOW)
    assert _collisions(run, root) == ["10.60.0.0/16", "10.60.0.0/20", "10.60.0.0/20", "10.60.0.0/20", "10.60.8.0"]
    assert run(root, "sweep", "--dry-run", "--strict").exit_code == 1
    run(root, "sweep", "--commit")
    checked = run(root, "verify", "--strict")
    assert checked.exit_code == 1
    assert "kubeadm.yml:2:15: error: collision: 10.60.0.0/16 is already here: a network in use" in checked.stdout


def test_what_a_grow_swallows_that_the_same_config_moves_away_is_no_collision(repo: Repo, run: Run) -> None:
    files = {"n.yml": "lan: 10.1.0.0/24\ngw: 10.1.0.1\niot: 10.1.1.0/24\niot_gw: 10.1.1.1\nprinter: 10.1.1.9\n",
             "db.txt": "10.1.0.77 nas\n"}
    root = repo(files, config=_config("10.1.0.0/24: 10.1.0.0/23, 10.1.1.0/24: 10.9.0.0/24"), allowlist=ALLOW)
    assert _collisions(run, root) == []
    assert run(root, "sweep", "--dry-run", "--strict").exit_code == 0
    # without the second move, what the grow swallows is one
    other = repo(files, config=_config("10.1.0.0/24: 10.1.0.0/23"), allowlist=ALLOW)
    assert _collisions(run, other) == ["10.1.1.0", "10.1.1.1", "10.1.1.9"]
