"""A network moved to another of any prefix length, end to end (issue 33, items 1, 2 and 5).

`renames.networks: {10.0.48.0/29: 10.0.48.0/28, 192.168.40.0/24: 192.168.40.0/22, ...}`: every
address keeps its host offset, the old length after a moved address follows, the broadcast address
follows where its line says so; a shrink that leaves an address in use (in a current-state file)
outside the new network is refused before anything is written, naming each file:line.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

from renamer.dns.dnsmasq import sandbox
from tests.testing.findings import networks_config as _config
from tests.testing.repos import Repo, Run, make_repo, snapshot
from tests.testing.said import once
from tests.testing.terraform import needs_terraform

ALLOW = ('version: 1\ncurrent: ["**"]\nrecords:\n'
         '  - {name: notes, paths: ["notes/**"], reason: dated notes}\n')


GROW = _config('10.0.48.0/29: 10.0.48.0/28, 192.168.40.0/24: 192.168.40.0/22, '
               '"2001:db8:a::/48": "2001:db8:b::/56", 10.9.0.0/24: 10.10.0.0/23')


def test_a_grown_network_moves_lengths_and_broadcasts(repo: Repo, run: Run) -> None:
    files = {
        "interfaces": ("iface eth0 inet static\n    address 10.0.48.3/29\n    broadcast 10.0.48.7\n"
                       "    gateway 10.0.48.1\n"),
        "net.yaml": ("lan: 192.168.40.0/24\nrouter: 192.168.40.1\nbroadcast: 192.168.40.255\n"
                     "v6: 2001:db8:a::10/48\nold_site: 10.9.0.0/24\nold_host: 10.9.0.200\n"),
        "10-lan.network": "[Network]\nAddress=192.168.40.2/24\n",
        "nft.conf": "ip saddr 10.0.48.0/29 accept\nip6 saddr 2001:db8:a::/48 accept\n",
        "notes/2026-01-01.md": "lan was 192.168.40.0/24, router 192.168.40.1, broadcast 10.0.48.7\n",
    }
    root = repo(files, config=GROW, allowlist=ALLOW)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    assert (root / "interfaces").read_text() == ("iface eth0 inet static\n    address 10.0.48.3/28\n"
                                                 "    broadcast 10.0.48.15\n    gateway 10.0.48.1\n")
    assert (root / "net.yaml").read_text() == ("lan: 192.168.40.0/22\nrouter: 192.168.40.1\n"
                                               "broadcast: 192.168.43.255\nv6: 2001:db8:b::10/56\n"
                                               "old_site: 10.10.0.0/23\nold_host: 10.10.0.200\n")
    assert (root / "10-lan.network").read_text() == "[Network]\nAddress=192.168.40.2/22\n"
    assert (root / "nft.conf").read_text() == "ip saddr 10.0.48.0/28 accept\nip6 saddr 2001:db8:b::/56 accept\n"
    assert (root / "notes/2026-01-01.md").read_text() == files["notes/2026-01-01.md"]  # a record keeps it
    checked = run(root, "verify")
    assert checked.exit_code == 0, checked.stdout
    again = run(root, "sweep", "--dry-run")
    assert again.exit_code == 0 and "would change 0 files" in again.stdout, again.stdout


def test_a_broadcast_address_no_word_names_is_left_and_said(repo: Repo, run: Run) -> None:
    """10.0.48.7 of a /29 is no host's; of the /28 it names a host: neither reading is certain."""
    root = repo({"peers.txt": "peer 10.0.48.7\n"}, config=GROW, allowlist=ALLOW)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1, done.stdout + done.stderr  # left for a decision
    assert (root / "peers.txt").read_text() == "peer 10.0.48.7\n"
    checked = run(root, "verify")
    assert checked.exit_code == 1
    assert ("peers.txt:1:6: residual (broadcast): 10.0.48.7 -> 10.0.48.15: 10.0.48.7 is the broadcast "
            "address of 10.0.48.0/29, which becomes 10.0.48.0/28, and its line does not say `broadcast`") \
        in checked.stdout


SHRINK = _config("10.0.48.0/28: 10.0.48.0/29, 10.1.0.0/24: 10.2.0.0/25")


def test_a_shrink_that_cannot_place_an_address_is_refused(repo: Repo, run: Run) -> None:
    files = {
        "hosts.yaml": "a: 10.0.48.3\nb: 10.0.48.12\nnet: 10.0.48.0/28\n",
        "site.env": "GW=10.1.0.1\nLAST=10.1.0.127\nDB=10.1.0.200\n",
        "notes/2025.md": "10.0.48.14 was the printer\n",  # a record: no address in use
    }
    root = repo(files, config=SHRINK, allowlist=ALLOW)
    before = snapshot(root)
    shown = run(root, "sweep", "--dry-run")
    assert "3 addresses in use would fall outside a shrunk network" in shown.stdout, shown.stdout
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 3
    assert snapshot(root) == before
    error = done.stderr.strip()
    assert error.startswith("renamer: error: a network move shrinks past 3 addresses in use: "), error
    assert "hosts.yaml:2: outside the new, smaller network: 10.0.48.12 lies 12 addresses into 10.0.48.0/28, " \
        "and 10.0.48.0/29 holds 8" in error
    # offset 127 of the /25 is its broadcast address: no place for a host
    assert "site.env:2: outside the new, smaller network: 10.1.0.127 lies 127 addresses into 10.1.0.0/24, " \
        "the place of 10.2.0.0/25's broadcast address" in error
    assert "site.env:3: outside the new, smaller network: 10.1.0.200" in error
    assert "notes/" not in error and "\n" not in error


def test_a_shrink_that_fits_is_written(repo: Repo, run: Run) -> None:
    files = {
        "hosts.yaml": "a: 10.0.48.3\nnet: 10.0.48.0/28\nbroadcast: 10.0.48.15\n",
        "site.env": "GW=10.1.0.1\nDB=10.1.0.100\n",
        "notes/2025.md": "10.0.48.14 was the printer\n",  # a record outside: does not count
    }
    root = repo(files, config=SHRINK, allowlist=ALLOW)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    assert (root / "hosts.yaml").read_text() == "a: 10.0.48.3\nnet: 10.0.48.0/29\nbroadcast: 10.0.48.7\n"
    assert (root / "site.env").read_text() == "GW=10.2.0.1\nDB=10.2.0.100\n"
    assert run(root, "verify").exit_code == 0


def test_any_length_at_load(tmp_path: Path, run: Run) -> None:
    """Growing and shrinking moves load, in place or not; an overlap that is no resize in place
    does not (exit 2, one line naming the key)."""
    for i, networks in enumerate(["10.0.48.0/24: 10.0.48.0/23", "10.0.48.0/24: 10.0.48.0/26",
                                  "10.0.48.0/24: 10.7.0.0/16", '"2001:db8:a::/48": "fd00:100::/40"']):
        root = make_repo(tmp_path / f"ok{i}", {"a.txt": "10.0.48.3\n"}, config=_config(networks), allowlist=ALLOW)
        assert run(root, "sweep", "--dry-run").exit_code == 0, networks
    root = make_repo(tmp_path / "overlap", {"a.txt": "10.0.48.3\n"}, config=_config("10.0.48.0/24: 10.0.48.128/25"),
                     allowlist=ALLOW)
    done = run(root, "sweep", "--dry-run")
    assert done.exit_code == 2
    assert done.stderr.startswith("renamer: error: renamer.yaml:3: renames.networks.10.0.48.0/24: "
                                  "10.0.48.128/25 overlaps 10.0.48.0/24")
    assert done.stderr.count("\n") == 1


LENGTHS = _config("10.0.48.0/29: 10.0.48.0/28, 192.168.40.0/24: 192.168.40.0/22")


def test_masks_wildcards_and_prefix_keys_follow_the_length(repo: Repo, run: Run) -> None:
    files = {
        "interfaces": ("auto eth0\niface eth0 inet static\n    address 10.0.48.3\n    netmask 255.255.255.248\n"
                       "    broadcast 10.0.48.7\n\niface eth1 inet static\n    address 203.0.113.5\n"
                       "    netmask 255.255.255.248\n"),
        "router.cfg": ("interface Gi0/1\n ip address 10.0.48.1 255.255.255.248\n!\nrouter ospf 1\n"
                       " network 10.0.48.0 0.0.0.7 area 0\n network 172.16.0.0 0.0.0.7 area 0\n!\n"
                       "access-list 10 permit 10.0.48.0 0.0.0.7\n"),
        "rules.v4": "-A INPUT -s 192.168.40.0/255.255.255.0 -j ACCEPT\n-A INPUT -s 198.51.100.0/255.255.255.0 -j DROP\n",
        "hosts.yaml": ("lan:\n  address: 192.168.40.2\n  netmask: 255.255.255.0\n  prefix: 24\n"
                       "wan:\n  address: 203.0.113.5\n  netmask: 255.255.255.0\n  prefix: 24\n"),
        "site.ini": "[lan]\naddress=192.168.40.2\nprefix=24\n[wan]\naddress=203.0.113.5\nprefix=24\n",
        "unrelated.conf": "mask 255.255.255.0\nprefix: 24\n",
    }
    root = repo(files, config=LENGTHS, allowlist=ALLOW)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    assert (root / "interfaces").read_text() == (
        "auto eth0\niface eth0 inet static\n    address 10.0.48.3\n    netmask 255.255.255.240\n"
        "    broadcast 10.0.48.15\n\niface eth1 inet static\n    address 203.0.113.5\n    netmask 255.255.255.248\n")
    assert (root / "router.cfg").read_text() == (
        "interface Gi0/1\n ip address 10.0.48.1 255.255.255.240\n!\nrouter ospf 1\n"
        " network 10.0.48.0 0.0.0.15 area 0\n network 172.16.0.0 0.0.0.7 area 0\n!\n"
        "access-list 10 permit 10.0.48.0 0.0.0.15\n")
    assert (root / "rules.v4").read_text() == ("-A INPUT -s 192.168.40.0/255.255.252.0 -j ACCEPT\n"
                                               "-A INPUT -s 198.51.100.0/255.255.255.0 -j DROP\n")
    assert (root / "hosts.yaml").read_text() == (
        "lan:\n  address: 192.168.40.2\n  netmask: 255.255.252.0\n  prefix: 22\n"
        "wan:\n  address: 203.0.113.5\n  netmask: 255.255.255.0\n  prefix: 24\n")
    assert (root / "site.ini").read_text() == "[lan]\naddress=192.168.40.2\nprefix=22\n[wan]\naddress=203.0.113.5\nprefix=24\n"
    assert (root / "unrelated.conf").read_text() == files["unrelated.conf"]
    assert run(root, "verify").exit_code == 0
    again = run(root, "sweep", "--dry-run")
    assert "would change 0 files" in again.stdout, again.stdout


def test_a_mask_nothing_ties_to_the_moved_network_is_a_residual(repo: Repo, run: Run) -> None:
    root = repo({"lan.yaml": "router: 192.168.40.1\n\nmask: 255.255.255.0\n"}, config=LENGTHS, allowlist=ALLOW)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1, done.stdout + done.stderr
    assert (root / "lan.yaml").read_text() == "router: 192.168.40.1\n\nmask: 255.255.255.0\n"
    checked = run(root, "verify")
    assert checked.exit_code == 1
    assert ("lan.yaml:3:7: residual (mask): 255.255.255.0 -> 255.255.252.0 [mask]: 255.255.255.0 spells the old "
            "length of a network this file names, but no address on its line, nor an address key of its "
            "stanza, ties it to that network") in checked.stdout


DHCP = _config("10.0.48.0/29: 10.0.48.0/28, 10.9.0.0/24: 10.10.0.0/23, 10.7.0.0/24: 10.8.0.0/24")


def _dnsmasq_test(conf: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sandbox.dnsmasq_binary(), "--test", "-C", str(conf)], capture_output=True, text=True,
                          check=False, timeout=30)


def test_dhcp_ranges_inside_a_moved_network_follow(repo: Repo, run: Run) -> None:
    files = {
        "dnsmasq.d/dhcp.conf": ("dhcp-range=set:lab,10.0.48.2,10.0.48.6,255.255.255.248,12h\n"
                                "dhcp-range=set:site,10.9.0.100,10.9.0.200,255.255.255.0,12h\n"
                                "dhcp-option=tag:site,option:router,10.9.0.1\n"),
        "dhcpd.conf": ("subnet 10.9.0.0 netmask 255.255.255.0 {\n  range 10.9.0.100 10.9.0.200;\n"
                       "  option broadcast-address 10.9.0.255;\n  option subnet-mask 255.255.255.0;\n}\n"),
        "kea-dhcp4.json": ('{"Dhcp4": {"subnet4": [{"subnet": "10.9.0.0/24",\n'
                           '  "pools": [{"pool": "10.9.0.100 - 10.9.0.200"}]}]}}\n'),
    }
    root = repo(files, config=DHCP, allowlist=ALLOW)
    assert _dnsmasq_test(root / "dnsmasq.d/dhcp.conf").returncode == 0
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    assert (root / "dnsmasq.d/dhcp.conf").read_text() == (
        "dhcp-range=set:lab,10.0.48.2,10.0.48.6,255.255.255.240,12h\n"
        "dhcp-range=set:site,10.10.0.100,10.10.0.200,255.255.254.0,12h\n"
        "dhcp-option=tag:site,option:router,10.10.0.1\n")
    checked = _dnsmasq_test(root / "dnsmasq.d/dhcp.conf")
    assert checked.returncode == 0, checked.stderr
    assert (root / "dhcpd.conf").read_text() == (
        "subnet 10.10.0.0 netmask 255.255.254.0 {\n  range 10.10.0.100 10.10.0.200;\n"
        "  option broadcast-address 10.10.1.255;\n  option subnet-mask 255.255.254.0;\n}\n")
    assert (root / "kea-dhcp4.json").read_text() == (
        '{"Dhcp4": {"subnet4": [{"subnet": "10.10.0.0/23",\n  "pools": [{"pool": "10.10.0.100 - 10.10.0.200"}]}]}}\n')
    assert run(root, "verify").exit_code == 0


def test_a_dhcp_range_one_move_would_split_is_left_and_said(repo: Repo, run: Run) -> None:
    files = {
        "dnsmasq.conf": ("dhcp-range=10.9.0.100,10.9.1.50,12h\n"  # the other end in no moved network
                         "dhcp-range=10.9.0.10,10.7.0.20,12h\n"),  # the other end in another moved network
        "dhcpd.conf": "range 10.9.0.100 10.9.1.50;\n",
    }
    root = repo(files, config=DHCP, allowlist=ALLOW)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1, done.stdout + done.stderr
    assert (root / "dnsmasq.conf").read_text() == files["dnsmasq.conf"]
    assert (root / "dhcpd.conf").read_text() == files["dhcpd.conf"]
    checked = run(root, "verify")
    assert checked.exit_code == 1
    once(checked.stdout, "dnsmasq.conf:1:12: residual (range): 10.9.0.100 -> 10.10.0.100",
         "10.9.0.100 is in 10.9.0.0/24, the range's other end 10.9.1.50 in no moved network")
    assert "dnsmasq.conf:2:22: residual (range): 10.7.0.20 -> 10.8.0.20: 10.7.0.20 is in 10.7.0.0/24" in checked.stdout


def test_a_dhcp_range_a_shrink_cannot_hold_is_refused(repo: Repo, run: Run) -> None:
    config = _config("10.9.0.0/24: 10.9.0.0/25")
    files = {"dnsmasq.conf": "dhcp-range=10.9.0.100,10.9.0.200,255.255.255.0,12h\n"}
    root = repo(files, config=config, allowlist=ALLOW)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 3
    assert (root / "dnsmasq.conf").read_text() == files["dnsmasq.conf"]
    assert "dnsmasq.conf:1: outside the new, smaller network: 10.9.0.200 lies 200 addresses into 10.9.0.0/24" \
        in done.stderr


def _console(expression: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["terraform", "console", "-no-color"], input=expression + "\n", capture_output=True,
                          text=True, cwd=cwd, check=False, timeout=60)


@needs_terraform
def test_an_address_a_tool_computes_is_held_to_the_shrink(repo: Repo, run: Run, tmp_path: Path) -> None:
    """`cidrhost("10.0.48.0/28", 12)` with its network rewritten to /29 would make terraform fail
    (no host 12 in a /29); an IPv4-mapped address in hex is an address in use too."""
    assert "does not accommodate a host\nnumbered 12" in _console('cidrhost("10.0.48.0/29", 12)', tmp_path).stderr
    files = {
        "main.tf": 'output "a" { value = cidrhost("10.0.48.0/28", 12) }\noutput "b" { value = cidrhost("10.0.48.0/28", 3) }\n',
        "v6.yaml": "mapped: ::ffff:0a00:300c\n",
    }
    root = repo(files, config=SHRINK, allowlist=ALLOW)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 3
    assert (root / "main.tf").read_text() == files["main.tf"]
    assert ('main.tf:1: outside the new, smaller network: `cidrhost("10.0.48.0/28", 12)`: 10.0.48.12 lies 12 '
            "addresses into 10.0.48.0/28") in done.stderr
    assert "v6.yaml:1: outside the new, smaller network: ::ffff:0a00:300c is 10.0.48.12: " in done.stderr


@needs_terraform
def test_an_address_a_tool_computes_follows_a_grow(tmp_path: Path, run: Run) -> None:
    files = {"main.tf": 'output "b" { value = cidrhost("10.0.48.0/29", 3) }\n', "v6.yaml": "m: ::ffff:0a00:3003\n"}
    root = make_repo(tmp_path / "grow", files, config=GROW, allowlist=ALLOW)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    assert (root / "main.tf").read_text() == 'output "b" { value = cidrhost("10.0.48.0/28", 3) }\n'
    assert (root / "v6.yaml").read_text() == files["v6.yaml"]  # 10.0.48.3 stays where it is
    assert _console('cidrhost("10.0.48.0/28", 3)', tmp_path).stdout.strip() == '"10.0.48.3"'
    assert run(root, "verify").exit_code == 0


def _in_own_network(script: Path) -> str:
    """Run `script` in a network namespace of its own (a user namespace's: loopback only, no packet
    leaves it), then list its addresses and routes as iproute2 reads them."""
    done = subprocess.run(["unshare", "-rn", "sh", "-ec", f". {script}; ip -o addr show dev lo; ip route show; "
                           "ip -6 route show"], capture_output=True, text=True, check=False, timeout=30)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_rewritten_prefixes_parse_in_ip(repo: Repo, run: Run, tmp_path: Path) -> None:
    """iproute2 takes the rewritten lengths, broadcast address and IPv6 prefix, in a namespace."""
    script = ("ip link set lo up\nip addr add 10.0.48.3/29 brd 10.0.48.7 dev lo\n"
              "ip route add 192.168.40.0/24 dev lo\nip -6 route add 2001:db8:a::/48 dev lo\n"
              "ip -6 addr add 2001:db8:a::10/48 dev lo nodad\n")
    root = repo({"net.sh": script}, config=GROW, allowlist=ALLOW)
    before = _in_own_network(root / "net.sh")
    assert "inet 10.0.48.3/29 brd 10.0.48.7" in before and "192.168.40.0/24 dev lo" in before
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    after = _in_own_network(root / "net.sh")
    assert "inet 10.0.48.3/28 brd 10.0.48.15" in after
    assert "192.168.40.0/22 dev lo" in after
    assert "2001:db8:b::/56 dev lo" in after and "inet6 2001:db8:b::10/56" in after


def test_a_shrink_that_cannot_place_an_inventory_host_is_refused(repo: Repo, run: Run) -> None:
    """The DNS inventory's hosts are addresses in use too (never swept as text, moved by `renamer dns`)."""
    site = ("site: lab\ndomain: lab.lan\nnetwork: 10.1.0.0/24\nhosts:\n"
            "  - {name: gw, address: 10.1.0.1}\n  - {name: db, address: 10.1.0.200}\n")
    root = repo({"site.env": "GW=10.1.0.1\n", "dns/sites/lab.yaml": site}, config=SHRINK, allowlist=ALLOW)
    before = snapshot(root)
    shown = run(root, "sweep", "--dry-run")
    assert "  dns/sites/lab.yaml: outside the new, smaller network: hosts[db]: 10.1.0.200 lies 200 addresses " \
        "into 10.1.0.0/24, and 10.2.0.0/25 holds 128" in shown.stdout, shown.stdout
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 3
    assert "dns/sites/lab.yaml: outside the new, smaller network: hosts[db]" in done.stderr
    assert snapshot(root) == before


def test_explain_names_each_length_rule(repo: Repo, run: Run) -> None:
    files = {"interfaces": "iface x\n    address 10.0.48.3/29\n    netmask 255.255.255.248\n    broadcast 10.0.48.7\n",
             "router.cfg": " ip address 10.0.48.1 255.255.255.248\n"}
    root = repo(files, config=LENGTHS, allowlist=ALLOW)
    shown = run(root, "explain", "interfaces").stdout + run(root, "explain", "router.cfg").stdout
    assert ("10.0.48.3/29 -> 10.0.48.3/28: rewritten: current-state file, an address of 10.0.48.0/29 with its "
            "length: the move to 10.0.48.0/28 sets both") in shown
    assert ("255.255.255.248 -> 255.255.255.240: rewritten: current-state file, the length of its stanza's "
            "network, 10.0.48.0/29, which becomes 10.0.48.0/28") in shown
    assert ("10.0.48.7 -> 10.0.48.15: rewritten: current-state file, the broadcast address of 10.0.48.0/29 (its "
            "line says so) becomes 10.0.48.0/28's") in shown
    assert ("255.255.255.248 -> 255.255.255.240: rewritten: current-state file, the length of 10.0.48.1's network "
            "on its line, 10.0.48.0/29, which becomes 10.0.48.0/28") in shown


def test_a_reverse_zone_a_shrink_cannot_carry_is_left_and_said(repo: Repo, run: Run) -> None:
    """`0.1.10.in-addr.arpa` moved with 10.1.0.0/24 to 10.2.0.0/25 would answer for 10.2.0.128/25,
    another network's addresses: a residual, the zone statement as it is."""
    conf = 'zone "0.1.10.in-addr.arpa" { type master; file "/etc/bind/db.10.1.0"; };\n'
    root = repo({"named.conf.local": conf, "site.env": "GW=10.1.0.1\n"}, config=SHRINK, allowlist=ALLOW)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1, done.stdout + done.stderr
    assert (root / "named.conf.local").read_text() == conf
    assert (root / "site.env").read_text() == "GW=10.2.0.1\n"
    checked = run(root, "verify")
    assert ("named.conf.local:1:7: residual (reverse-zone): 0.1.10.in-addr.arpa: the "
            "reverse zone of 10.1.0.0/24, inside 10.1.0.0/24, cannot follow its move to 10.2.0.0/25: a zone for "
            "10.2.0.0/24 would answer for addresses outside the new network") in checked.stdout


def test_a_relative_ptr_owner_a_shrink_cannot_place_refuses_the_sweep(repo: Repo, run: Run) -> None:
    """`200 IN PTR db.lab.` under `$ORIGIN 0.1.10.in-addr.arpa.` is 10.1.0.200, an address in use."""
    zone = ("$TTL 3600\n$ORIGIN 0.1.10.in-addr.arpa.\n@ IN SOA ns1.lab. admin.lab. 1 3600 600 86400 300\n"
            "@ IN NS ns1.lab.\n5 IN PTR gw.lab.\n200 IN PTR db.lab.\n")
    root = repo({"db.10.1.0": zone}, config=SHRINK, allowlist=ALLOW)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 3
    assert "db.10.1.0:6: outside the new, smaller network: 10.1.0.200 lies 200 addresses into 10.1.0.0/24" \
        in done.stderr
    assert (root / "db.10.1.0").read_text() == zone


def test_a_set_that_expands_to_moved_addresses_fails_verify(repo: Repo, run: Run) -> None:
    """bash expands `10.1.0.{100..102}` to three addresses of the moved network: left as it was
    (no text edit knows the set), it must not pass as done."""
    config = _config("10.1.0.0/24: 10.3.0.0/24")
    files = {"inv.yaml": "web: 10.1.0.{100..102}\nh: 10.1.0.[5:6]\ngw: 10.1.0.1\n"}
    root = repo(files, config=config, allowlist=ALLOW)
    assert subprocess.run(["bash", "-c", "echo 10.1.0.{100..102}"], capture_output=True, text=True,
                          check=True).stdout == "10.1.0.100 10.1.0.101 10.1.0.102\n"
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1, done.stdout + done.stderr
    assert (root / "inv.yaml").read_text() == "web: 10.1.0.{100..102}\nh: 10.1.0.[5:6]\ngw: 10.3.0.1\n"
    checked = run(root, "verify")
    assert checked.exit_code == 1
    assert "inv.yaml:1:6: residual (range): 10.1.0.{100..102}" in checked.stdout
    assert "inv.yaml:2:4: residual (range): 10.1.0.[5:6]" in checked.stdout
