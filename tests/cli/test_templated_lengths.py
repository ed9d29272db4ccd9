"""A prefix length right after a templated address, beside a resized network (the lead's trial on
khaddict/homelab), end to end.

`qm set .. -ipconfig0 ip=<% ctx().ip_addr %>/24,gw=192.168.0.254` under `192.168.0.0/24:
10.20.0.0/22`: the gateway followed, the `/24` stayed, sweep 0 and verify OK (a VM with a /24 in a
/22). Now a `mask` residual naming /22, before the sweep and after it (beside the new gateway);
the length itself is never rewritten (the template's value is unknown).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.testing.findings import networks_config as _config
from tests.testing.findings import places
from tests.testing.repos import Repo, Run

ALLOW = 'version: 1\ncurrent: ["**"]\n'
GROW = "192.168.0.0/24: 10.20.0.0/22"


def _masks(run: Run, root: Path) -> list[tuple[str, int]]:
    return places(root, run, "mask")


SPELLINGS = [
    pytest.param("wf.yaml", "cmd: qm set 100 -ipconfig0 ip=<% ctx().ip_addr %>/24,gw=192.168.0.254\n",
                 "gw=10.20.0.254", id="stackstorm"),
    pytest.param("vm.yml", "cmd: qm set 100 -ipconfig0 ip={{ ip_addr }}/24,gw=192.168.0.254\n",
                 "gw=10.20.0.254", id="jinja"),
    pytest.param("main.tf", 'resource "x" "vm" {\n  ipconfig0 = "ip=${var.ip}/24,gw=192.168.0.254"\n}\n',
                 "gw=10.20.0.254", id="terraform"),
    pytest.param("net.sh", 'nmcli con mod eth0 ipv4.addresses "${IP}/24" ipv4.gateway 192.168.0.254\n',
                 "ipv4.gateway 10.20.0.254", id="nmcli"),
    pytest.param("up.sh", 'ip addr add $IP/24 dev eth0 && ip route add default via 192.168.0.254\n',
                 "via 10.20.0.254", id="shell-var"),
    pytest.param("up.cmd", "netsh interface ip set address eth0 static %IP%/24 192.168.0.254\n",
                 "static %IP%/24 10.20.0.254", id="batch-var"),
]


@pytest.mark.parametrize(("name", "text", "followed"), SPELLINGS)
def test_a_templated_address_length_beside_a_resized_gateway_is_a_residual_before_and_after(
        repo: Repo, run: Run, name: str, text: str, followed: str) -> None:
    root = repo({name: text}, config=_config(GROW), allowlist=ALLOW)
    before = _masks(run, root)
    assert before == [(name, text.count("\n", 0, text.index("/24")) + 1)], before
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1, done.stdout + done.stderr
    assert "write /22" in done.stdout
    swept = (root / name).read_text()
    assert followed in swept and "/24" in swept and "/22" not in swept  # the length itself never rewritten
    assert _masks(run, root) == before  # after the sweep, beside the new gateway: still said
    assert run(root, "verify", "--strict").exit_code == 1


def test_netplan_addresses_under_a_template_beside_the_stanzas_gateway(repo: Repo, run: Run) -> None:
    netplan = ("network:\n  version: 2\n  ethernets:\n    eth0:\n      addresses:\n"
               '        - "{{ ansible_host }}/24"\n      gateway4: 192.168.0.254\n'
               "      nameservers:\n        addresses: [192.168.0.53]\n")
    root = repo({"templates/50-netplan.yaml.j2": netplan}, config=_config(GROW), allowlist=ALLOW)
    assert _masks(run, root) == [("templates/50-netplan.yaml.j2", 6)]


def test_ipv6_a_templated_64_beside_a_moved_gateway_under_a_60(repo: Repo, run: Run) -> None:
    text = "ip -6 addr add {{ ip6 }}/64 dev eth0 && ip -6 route add default via 2001:db8:a:10::1\n"
    root = repo({"up.sh.j2": text}, config=_config("2001:db8:a:10::/64: 2001:db8:b:10::/60"),
                allowlist=ALLOW)
    assert _masks(run, root) == [("up.sh.j2", 1)]
    assert run(root, "sweep", "--commit").exit_code == 1
    assert "via 2001:db8:b:10::1" in (root / "up.sh.j2").read_text()
    assert _masks(run, root) == [("up.sh.j2", 1)]


@pytest.mark.parametrize(("networks", "text"), [
    pytest.param("192.168.0.0/24: 10.20.0.0/24", "qm set 1 -ipconfig0 ip={{ ip }}/24,gw=192.168.0.254\n",
                 id="same-length-move"),
    pytest.param(GROW, "qm set 1 -ipconfig0 ip={{ ip }}/24,gw=192.168.7.254\n", id="another-networks-gateway"),
    pytest.param(GROW, "qm set 1 -ipconfig0 ip={{ ip }}/16,gw=192.168.0.254\n", id="another-length"),
    pytest.param(GROW, "url: https://{{ host }}/24\ngw: 192.168.0.254\n", id="a-path-not-a-length"),
])
def test_no_residual_where_the_length_is_not_the_resized_networks(repo: Repo, run: Run, networks: str,
                                                                 text: str) -> None:
    root = repo({"vm.yml": text, "net.yml": "gw: 192.168.0.254\n"}, config=_config(networks), allowlist=ALLOW)
    assert _masks(run, root) == []
