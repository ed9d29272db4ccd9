"""IPv6 ranges declared by two ends, and subnets a tool computes, under a network move (issue 33).

A DHCPv6 range (dnsmasq `dhcp-range=A,B,64`, ISC `range6 A B;`, a Kea pool `A - B`) follows a
network move when both ends lie in one moved network, as an IPv4 range does; one end moved alone is
a `range` residual naming the other; a shrink that cannot hold an end refuses the sweep.
`cidrsubnet("10.0.48.0/28", newbits, n)` counts its new bits from the network's length: under a
move of another length it is refused (its subnet outside the new network) or reported (its network
literal rewritten would make another subnet), never rewritten silently.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

from renamer.dns.dnsmasq import sandbox
from tests.testing.findings import networks_config as _config
from tests.testing.repos import Repo, Run
from tests.testing.said import once
from tests.testing.terraform import needs_terraform

ALLOW = 'version: 1\ncurrent: ["**"]\n'


MOVE = _config('"2001:db8:a::/48": "2001:db8:b::/48"')


def _dnsmasq_test(conf: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sandbox.dnsmasq_binary(), "--test", "-C", str(conf)], capture_output=True, text=True,
                          check=False, timeout=30)


def test_ipv6_ranges_inside_a_moved_network_follow(repo: Repo, run: Run) -> None:
    files = {
        "dnsmasq.conf": ("dhcp-range=set:lab,2001:db8:a::100,2001:db8:a::1ff,64,12h\n"
                         "dhcp-range=::100,::1ff,constructor:eth0\n"  # relative to the interface: no address
                         "dhcp-range=2001:DB8:A:0:0:0:0:200,2001:DB8:A:0:0:0:0:2FF,64\n"),
        "dhcpd6.conf": "subnet6 2001:db8:a::/64 {\n  range6 2001:db8:a::100 2001:db8:a::1ff;\n}\n",
        "kea-dhcp6.json": '{"pools": [{"pool": "2001:db8:a::100 - 2001:db8:a::1ff"}]}\n',
    }
    root = repo(files, config=MOVE, allowlist=ALLOW)
    assert _dnsmasq_test(root / "dnsmasq.conf").returncode == 0
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    assert (root / "dnsmasq.conf").read_text() == (
        "dhcp-range=set:lab,2001:db8:b::100,2001:db8:b::1ff,64,12h\n"
        "dhcp-range=::100,::1ff,constructor:eth0\n"
        "dhcp-range=2001:DB8:B:0:0:0:0:200,2001:DB8:B:0:0:0:0:2FF,64\n")
    checked = _dnsmasq_test(root / "dnsmasq.conf")
    assert checked.returncode == 0, checked.stderr
    assert (root / "dhcpd6.conf").read_text() == "subnet6 2001:db8:b::/64 {\n  range6 2001:db8:b::100 2001:db8:b::1ff;\n}\n"
    assert (root / "kea-dhcp6.json").read_text() == '{"pools": [{"pool": "2001:db8:b::100 - 2001:db8:b::1ff"}]}\n'
    assert run(root, "verify").exit_code == 0


def test_an_ipv6_range_one_move_would_split_is_left_and_said(repo: Repo, run: Run) -> None:
    """Each end followed alone before: `2001:db8:b::100,2001:db8:c::1ff`, a range across two sites."""
    files = {
        "dnsmasq.conf": "dhcp-range=set:v6,2001:db8:a::100,2001:db8:c::1ff,64,12h\n",
        "dhcpd6.conf": "range6 2001:db8:a::100 2001:db8:c::1ff;\n",
        "kea-dhcp6.json": '{"pools": [{"pool": "2001:db8:c::100 - 2001:db8:a::1ff"}]}\n',
        "pools.yaml": "pool: 2001:db8:a::10-2001:db8:c::20\n",
    }
    root = repo(files, config=MOVE, allowlist=ALLOW)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1, done.stdout + done.stderr
    for rel, text in files.items():
        assert (root / rel).read_text() == text, rel
    checked = run(root, "verify")
    assert checked.exit_code == 1
    once(checked.stdout, "dnsmasq.conf:1:19: residual (range): 2001:db8:a::100 -> 2001:db8:b::100",
         "2001:db8:a::100 is in 2001:db8:a::/48, the range's other end 2001:db8:c::1ff in no moved network")
    for where in ("dhcpd6.conf:1:8: residual (range): 2001:db8:a::100",
                  "kea-dhcp6.json:1:40: residual (range): 2001:db8:a::1ff",
                  "pools.yaml:1:7: residual (range): 2001:db8:a::10"):
        assert where in checked.stdout, (where, checked.stdout)


def test_an_ipv6_range_a_shrink_cannot_hold_is_refused(repo: Repo, run: Run) -> None:
    config = _config('"2001:db8:a::/48": "2001:db8:a::/56"')
    files = {"dnsmasq.conf": "dhcp-range=2001:db8:a::100,2001:db8:a:ff00::1ff,64,12h\n"}
    root = repo(files, config=config, allowlist=ALLOW)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 3
    assert (root / "dnsmasq.conf").read_text() == files["dnsmasq.conf"]
    assert "dnsmasq.conf:1: outside the new, smaller network: 2001:db8:a:ff00::1ff lies" in done.stderr, done.stderr


def _console(expression: str, cwd: Path) -> str:
    done = subprocess.run(["terraform", "console", "-no-color"], input=expression + "\n", capture_output=True,
                          text=True, cwd=cwd, check=True, timeout=60)
    return done.stdout.strip()


@needs_terraform
def test_a_computed_subnet_under_a_resize_is_refused_or_said(repo: Repo, run: Run, tmp_path: Path) -> None:
    """terraform itself: cidrsubnet("10.0.48.0/28", 1, 1) is 10.0.48.8/29, outside 10.0.48.0/29; and
    cidrsubnet("10.0.48.0/28", 2, 0) is 10.0.48.0/30 where the same call on /29 makes 10.0.48.0/31."""
    assert _console('cidrsubnet("10.0.48.0/28", 1, 1)', tmp_path) == '"10.0.48.8/29"'
    assert _console('cidrsubnet("10.0.48.0/28", 2, 0)', tmp_path) == '"10.0.48.0/30"'
    assert _console('cidrsubnet("10.0.48.0/29", 2, 0)', tmp_path) == '"10.0.48.0/31"'
    shrink = _config("10.0.48.0/28: 10.0.48.0/29")
    files = {"main.tf": 'locals {\n  a = cidrsubnet("10.0.48.0/28", 1, 1)\n}\n',
             "other.tf": 'locals {\n  b = cidrsubnet("10.0.48.0/28", 2, 0)\n}\n'}
    root = repo(files, config=shrink, allowlist=ALLOW)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 3
    assert ('main.tf:2: outside the new, smaller network: `cidrsubnet("10.0.48.0/28", 1, 1)` is 10.0.48.8/29: '
            "10.0.48.8 lies 8 addresses into 10.0.48.0/28") in done.stderr, done.stderr
    assert (root / "main.tf").read_text() == files["main.tf"]
    (root / "main.tf").unlink()
    subprocess.run(["git", "-C", str(root), "commit", "-qam", "drop main.tf"], check=True, capture_output=True)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1, done.stdout + done.stderr
    assert (root / "other.tf").read_text() == files["other.tf"]
    checked = run(root, "verify")
    assert ('other.tf:2:19: residual (composed-address): 10.0.48.0/28 -> 10.0.48.0/29: `cidrsubnet("10.0.48.0/28", '
            "2, 0)` is 10.0.48.0/30, which the move makes 10.0.48.0/30; with its network literal rewritten to the "
            "new length it would make another subnet") in checked.stdout, checked.stdout


@needs_terraform
def test_a_computed_subnet_under_a_grow_is_said(repo: Repo, run: Run, tmp_path: Path) -> None:
    assert _console('cidrsubnet("10.0.48.0/29", 1, 1)', tmp_path) == '"10.0.48.4/30"'
    assert _console('cidrsubnet("10.0.48.0/28", 1, 1)', tmp_path) == '"10.0.48.8/29"'
    files = {"main.tf": 'locals {\n  a = cidrsubnet("10.0.48.0/29", 1, 1)\n  c = cidrhost("10.0.48.0/29", 3)\n}\n'}
    root = repo(files, config=_config("10.0.48.0/29: 10.0.48.0/28"), allowlist=ALLOW)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1, done.stdout + done.stderr
    assert (root / "main.tf").read_text() == ('locals {\n  a = cidrsubnet("10.0.48.0/29", 1, 1)\n'
                                              '  c = cidrhost("10.0.48.0/28", 3)\n}\n')
    assert _console('cidrhost("10.0.48.0/28", 3)', tmp_path) == '"10.0.48.3"'
    checked = run(root, "verify")
    assert "main.tf:2:19: residual (composed-address): 10.0.48.0/29" in checked.stdout, checked.stdout


def test_two_whole_addresses_a_dash_joins_are_a_range_in_any_file(repo: Repo, run: Run) -> None:
    """No range word: `10.1.0.10-10.3.0.20` and `2001:db8:a::10-2001:db8:c::20` had their moved end
    rewritten alone; a range inside one moved network follows whole."""
    config = _config('"2001:db8:a::/48": "2001:db8:b::/48", 10.1.0.0/24: 10.2.0.0/24')
    files = {"notes.txt": ("split 10.1.0.10-10.3.0.20\nsplit6 2001:db8:a::10-2001:db8:c::20\n"
                           "whole 10.1.0.10-10.1.0.20\nwhole6 2001:db8:a::10-2001:db8:a::20\n")}
    root = repo(files, config=config, allowlist=ALLOW)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1, done.stdout + done.stderr
    assert (root / "notes.txt").read_text() == ("split 10.1.0.10-10.3.0.20\nsplit6 2001:db8:a::10-2001:db8:c::20\n"
                                                "whole 10.2.0.10-10.2.0.20\nwhole6 2001:db8:b::10-2001:db8:b::20\n")
    checked = run(root, "verify")
    assert ("notes.txt:1:7: residual (range): 10.1.0.10 -> 10.2.0.10: 10.1.0.10 is in 10.1.0.0/24, the range's "
            "other end 10.3.0.20 in no moved network") in checked.stdout, checked.stdout
    assert "notes.txt:2:8: residual (range): 2001:db8:a::10 -> 2001:db8:b::10" in checked.stdout
