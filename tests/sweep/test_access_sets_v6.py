"""IPv6 ranges and access sets in every dress (t31 round 24, finding 23): under `fd00::70 ->
fd00::1:70`, a DHCP range whose one end is the renamed address (dnsmasq `dhcp-range=A,B,64`, dhcpd6
`range6 A B;`) is a `range` residual as its IPv4 twin is, nothing of it rewritten (one end moved
alone runs the range backwards), and an access rule's IPv6 network literal holding it (`allow
fd00::70/126;`, ip6tables `-s`) an `access-set` residual; an interface's `Address=fd00::70/64` and
an address merely inside a range follow as before."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from tests.conftest import Result

ALLOW = 'version: 1\ncurrent: ["**"]\n'
CONFIG = ('version: 1\nrenames:\n  addresses: {"fd00::70": "fd00::1:70", "fd00::72": "fd00::1:72"}\n'
          'allowlist: allow.yaml\n')
HELD = {
    "dnsmasq.conf": "dhcp-range=fd00::70,fd00::74,64\n",  # report
    "dhcpd6.conf": "subnet6 fd00::/64 {\r\n  range6 fd00::70 fd00::74;\r\n}\r\n",  # report, CRLF
    "dnsmasq.d/lan.conf": "dhcp-range=set:lan,FD00:0:0:0::70,fd00::74,slaac,64\n",  # variant: tag, case, spelling
    "access.conf": "allow fd00::70/126;\n",  # report
    "fw.sh": "ip6tables -A INPUT -s fd00::70/126 -j ACCEPT\n",  # variant: iptables -s
}


def test_ipv6_range_ends_and_access_sets_are_residuals(repo: Callable[..., Path],
                                                       run: Callable[..., Result]) -> None:
    files = {**HELD, "lan.network": "[Network]\nAddress=fd00::70/64\n",
             "pool.conf": "dhcp-range=fd00::60,fd00::80,64\nhost web03 fd00::72\n"}
    root = repo(files, config=CONFIG, allowlist=ALLOW)
    swept = run(root, "sweep", "--commit")
    assert swept.exit_code == 1, swept.stdout + swept.stderr  # written, residuals left for a decision
    for rel, text in HELD.items():
        assert (root / rel).read_bytes() == text.encode(), rel  # before: one end or the set rewritten
    assert (root / "lan.network").read_text() == "[Network]\nAddress=fd00::1:70/64\n"
    assert (root / "pool.conf").read_text() == "dhcp-range=fd00::60,fd00::80,64\nhost web03 fd00::1:72\n"
    verify = run(root, "verify")
    assert verify.exit_code == 1, verify.stdout
    for where in ("dnsmasq.conf:1:12: residual (range)", "dhcpd6.conf:2:10: residual (range)",
                  "dnsmasq.d/lan.conf:1:20: residual (range)", "access.conf:1:7: residual (access-set)",
                  "fw.sh:1:23: residual (access-set)"):
        assert where in verify.stdout, (where, verify.stdout)


def test_an_ipv6_network_holding_old_and_new_admits_the_host_as_before(repo: Callable[..., Path],
                                                                      run: Callable[..., Result]) -> None:
    root = repo({"access.conf": "allow fd00::/48;\nhost fd00::70\n"}, config=CONFIG, allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 0
    assert (root / "access.conf").read_text() == "allow fd00::/48;\nhost fd00::1:70\n"
    assert run(root, "verify").exit_code == 0
