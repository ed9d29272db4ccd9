"""More silent wrong answers of a network move that break-it round 20p found (issue 33):
composed addresses a shrink leaves outside, length keys known by their name only, hex netmasks,
RFC 3442 route lists, a grow over networks in use. Each end to end: what the sweep writes or
refuses, and what verify says of what it leaves.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from renamer.dns.dnsmasq import sandbox
from tests.testing.findings import networks_config as _config
from tests.testing.repos import Repo, Run, make_repo, snapshot

ALLOW = ('version: 1\ncurrent: ["**"]\nrecords:\n'
         '  - {name: notes, paths: ["notes/**"], reason: dated notes}\n')


COMPOSED = {
    "s.sh": "for i in 9 10 11; do ping -c1 10.0.48.$i; done\nfor j in 3 4; do ping 10.0.48.$j; done\n"
            "for k in 200 201; do ping 10.0.48.$k; done\n",
    ".env": "LAB_PREFIX=10.0.48\nLAST=13\n",
    "run.sh": "HOST=${LAB_PREFIX}.12\nB=\"${LAB_PREFIX}.${LAST}\"\n",
    "gw.yml": "- hosts: all\n  vars:\n    last: 12\n    addr: \"10.0.48.{{ last }}\"\n",
    "p.yml": "- command: ping 10.0.48.{{ item }}\n  with_items: [9, 10]\n",
}


def test_a_composed_address_a_shrink_leaves_outside_refuses_the_sweep(repo: Repo, run: Run) -> None:
    """finding 4: `10.0.48.$i` over 9..11, `${LAB_PREFIX}.12` over .env, `10.0.48.{{ last }}` under
    `10.0.48.0/28: 10.0.49.0/29` were dropped (they map to no new address): each is refused with
    its file:line, as the literal is; values that fit stay composed-address residuals."""
    root = repo(COMPOSED, config=_config("10.0.48.0/28: 10.0.49.0/29"), allowlist=ALLOW)
    before = snapshot(root)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 3, done.stdout + done.stderr
    assert snapshot(root) == before
    error = done.stderr
    assert error.startswith("renamer: error: a network move shrinks past 5 addresses in use: "), error
    for where in ("s.sh:1: outside the new, smaller network: 10.0.48.$i is 10.0.48.9: 10.0.48.9 lies 9 "
                  "addresses into 10.0.48.0/28, and 10.0.49.0/29 holds 8",
                  "run.sh:1: outside the new, smaller network: ${LAB_PREFIX}.12 is 10.0.48.12",
                  "run.sh:2: outside the new, smaller network: ${LAB_PREFIX}.${LAST} is 10.0.48.13",
                  "gw.yml:4: outside the new, smaller network: 10.0.48.{{ last }} is 10.0.48.12",
                  "p.yml:1: outside the new, smaller network: 10.0.48.{{ item }} is 10.0.48.9"):
        assert where in error, (where, error)
    out = run(root, "verify").stdout
    assert "s.sh:2:23: residual (composed-address): 10.0.48.3 -> 10.0.49.3" in out, out
    assert "s.sh:3" not in out, out  # 200 and 201 lie outside the old network: nothing to say


def test_composed_addresses_under_an_equal_length_move_and_a_grow_are_residuals(repo: Repo, run: Run) -> None:
    """The same words under a move of the same length and a grow: residuals, nothing refused; a
    grow in place keeps every address, so nothing to say."""
    for networks in ("10.0.48.0/28: 10.0.49.0/28", "10.0.48.0/28: 10.0.64.0/27"):
        root = repo(COMPOSED, config=_config(networks), allowlist=ALLOW)
        done = run(root, "sweep", "--commit")
        assert done.exit_code == 1, (networks, done.stdout + done.stderr)
        out = run(root, "verify").stdout
        for where in ("s.sh:1:31: residual (composed-address): 10.0.48.9", "s.sh:2:23: residual (composed-address)",
                      "run.sh:1:6: residual (composed-address): 10.0.48.12",
                      "run.sh:2:4: residual (composed-address): 10.0.48.13",
                      "gw.yml:4:12: residual (composed-address): 10.0.48.12",
                      "p.yml:1:17: residual (composed-address): 10.0.48.9"):
            assert where in out, (networks, where, out)
        assert "s.sh:3" not in out, out
    root = repo(COMPOSED, config=_config("10.0.48.0/28: 10.0.48.0/27"), allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 0
    assert run(root, "verify").exit_code == 0


RESIZE = _config("10.9.0.0/24: 10.10.0.0/23")


def test_length_keys_known_by_their_name_follow_or_are_said(repo: Repo, run: Run) -> None:
    """finding 6: `lan_cidr: 24` beside `lan_network: 10.9.0.0`, vSphere's `ipv4_netmask = 24`
    beside `ipv4_address`, were neither rewritten nor a residual (verify OK). A length or mask key
    whose name ends in a length word follows the address key of the same name; another network's
    stays; one no key of its name ties is a `mask` residual."""
    files = {
        "group_vars/all.yml": ("lan_network: 10.9.0.0\nlan_cidr: 24\nlan_netmask: 255.255.255.0\n"
                               "wan_network: 192.168.1.0\nwan_cidr: 24\nvlanNetwork: 10.9.0.0\nvlanPrefixLength: 24\n"),
        "group_vars/r.yml": "vlans:\n  - id: 20\n    network: 10.9.0.0\n    prefixlen: 24\n",
        "vars.json": '{"lan_address": "10.9.0.1", "lan_cidr": "24"}\n',
        "main.tf": ('resource "vsphere_virtual_machine" "vm" {\n  clone {\n    customize {\n'
                    '      network_interface {\n        ipv4_address = "10.9.0.5"\n        ipv4_netmask = 24\n'
                    '      }\n      ipv4_gateway = "10.9.0.1"\n    }\n  }\n}\n'),
        "host_vars/h.yml": "dns: 10.9.0.53\nlan_prefix: 24\n",
        "other.yml": "lan_cidr: 24\n",  # names no moved network: another's
        # a group_vars file longer than a stanza: the keys at one indentation
        "group_vars/long.yml": "lan_network: 10.9.0.0\n" + "".join(f"v{i}: x\n" for i in range(50)) + "lan_cidr: 24\n",
    }
    root = repo(files, config=RESIZE, allowlist=ALLOW)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1, done.stdout + done.stderr
    assert (root / "group_vars/all.yml").read_text() == (
        "lan_network: 10.10.0.0\nlan_cidr: 23\nlan_netmask: 255.255.254.0\n"
        "wan_network: 192.168.1.0\nwan_cidr: 24\nvlanNetwork: 10.10.0.0\nvlanPrefixLength: 23\n")
    assert (root / "group_vars/r.yml").read_text() == "vlans:\n  - id: 20\n    network: 10.10.0.0\n    prefixlen: 23\n"
    assert (root / "vars.json").read_text() == '{"lan_address": "10.10.0.1", "lan_cidr": "23"}\n'
    assert '        ipv4_address = "10.10.0.5"\n        ipv4_netmask = 23\n' in (root / "main.tf").read_text()
    assert (root / "host_vars/h.yml").read_text() == "dns: 10.10.0.53\nlan_prefix: 24\n"
    assert (root / "other.yml").read_text() == files["other.yml"]
    long = (root / "group_vars/long.yml").read_text()
    assert long.startswith("lan_network: 10.10.0.0\n") and long.endswith("lan_cidr: 23\n"), long
    checked = run(root, "verify")
    assert checked.exit_code == 1
    out = checked.stdout
    assert "host_vars/h.yml:2:13: residual (mask): 24 -> 23 [lan_prefix]: 24 spells the old length" in out, out
    assert "verify: FAILED: 1 residual" in out, out


def test_a_mask_residual_verify_reports_before_the_sweep_it_reports_after(repo: Repo, run: Run) -> None:
    """A `mask` residual stays one once the sweep has moved every address of its file (the file
    then names the new network only; verify once read no such file and said OK), and one whose
    line or stanza names two networks (the moved one then spelled new; a stanza naming two was
    silent even before)."""
    files = {
        "h.yml": "dns: 10.9.0.53\nlan_prefix: 24\n",
        "dhcp.yml": "route:\n  to: '{{ net }}'\n  gateway: 10.9.0.1\n  netmask: 255.255.255.0\n",
        "grow.yml": "dns: 10.0.48.3\nmask: 255.255.255.248\n",  # a grow in place: the same addresses
        "pair.conf": "pair 10.9.0.4 10.8.0.4 mask 255.255.255.0\n",  # two networks before it on its line
        "two.yml": "lan:\n  address: 10.9.0.1\n  network: 192.168.1.0\n  netmask: 255.255.255.0\n",  # in its stanza
    }
    root = repo(files, config=_config("10.9.0.0/24: 10.10.0.0/23, 10.0.48.0/29: 10.0.48.0/28"), allowlist=ALLOW)
    residuals = ["h.yml:2:13: residual (mask): 24", "dhcp.yml:4:12: residual (mask): 255.255.255.0",
                 "grow.yml:2:7: residual (mask): 255.255.255.248", "two.yml:4:12: residual (mask): 255.255.255.0",
                 "residual (mask): 255.255.255.0: 255.255.255.0 follows addresses of more than one"]
    before = run(root, "verify").stdout
    for where in residuals:
        assert where in before, (where, before)
    assert run(root, "sweep", "--commit").exit_code == 1
    assert (root / "h.yml").read_text() == "dns: 10.10.0.53\nlan_prefix: 24\n"
    after = run(root, "verify")
    assert after.exit_code == 1
    for where in residuals:
        assert where in after.stdout, (where, after.stdout)
    assert "verify: FAILED: 5 residual" in after.stdout, after.stdout


def test_hex_netmasks_follow_like_dotted_ones(repo: Repo, run: Run) -> None:
    """finding 8: FreeBSD rc.conf's `netmask 0xffffff00`, OpenBSD hostname.if's `inet A 0xffffff00
    NONE`, BSD ifconfig output: the hex mask follows its address (case and width kept); another
    network's stays; one nothing ties is a `mask` residual; a shorter one is a supernet."""
    files = {
        "etc/rc.conf": ('ifconfig_em0="inet 10.9.0.5 netmask 0xffffff00"\n'
                        'ifconfig_em1="inet 192.168.1.5 netmask 0xffffff00"\n'
                        'ifconfig_em2="inet 10.9.0.9 netmask 0XFFFFFF00"\n'),
        "etc/hostname.em0": "inet 10.9.0.7 0xffffff00 NONE\ninet alias 10.9.0.8 255.255.255.0\n",
        "ifconfig.txt": "\tinet 10.9.0.5 netmask 0xffffff00 broadcast 10.9.0.255\n",
        "lone.conf": "gw=10.9.0.1\n\nmask=0xffffff00\n",
        "super.conf": "net 10.9.0.0 netmask 0xffff0000\n",
    }
    root = repo(files, config=RESIZE, allowlist=ALLOW)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1, done.stdout + done.stderr
    assert (root / "etc/rc.conf").read_text() == ('ifconfig_em0="inet 10.10.0.5 netmask 0xfffffe00"\n'
                                                 'ifconfig_em1="inet 192.168.1.5 netmask 0xffffff00"\n'
                                                 'ifconfig_em2="inet 10.10.0.9 netmask 0XFFFFFE00"\n')
    assert (root / "etc/hostname.em0").read_text() == "inet 10.10.0.7 0xfffffe00 NONE\ninet alias 10.10.0.8 255.255.254.0\n"
    assert (root / "ifconfig.txt").read_text() == "\tinet 10.10.0.5 netmask 0xfffffe00 broadcast 10.10.1.255\n"
    assert (root / "lone.conf").read_text() == "gw=10.10.0.1\n\nmask=0xffffff00\n"
    assert (root / "super.conf").read_text() == files["super.conf"]
    out = run(root, "verify").stdout
    assert "lone.conf:3:6: residual (mask): 0xffffff00" in out, out
    assert "super.conf:1:5: residual (supernet): 10.9.0.0" in out, out
    assert "verify: FAILED: 2 residual" in out, out


DHCPD = ("option rfc3442-classless-static-routes code 121 = array of integer 8;\n"
         "option ms-classless-static-routes code 249 = array of integer 8;\n"
         "subnet 10.9.0.0 netmask 255.255.255.0 {\n"
         "  option routers 10.9.0.1;\n"
         "  option rfc3442-classless-static-routes 24, 10, 9, 0, 10, 9, 0, 1, 16, 172, 16, 10, 9, 0, 1;\n"
         "  option ms-classless-static-routes 25,10,9,0,128,10,9,0,1;\n"
         "  option rfc3442-classless-static-routes 8, 10, 192, 168, 1, 1, 0, 10, 9, 0, 1;\n"
         "}\n")


def test_rfc3442_route_bytes_follow_or_are_said(repo: Repo, run: Run, tmp_path: Path) -> None:
    """finding 8b: ISC dhcpd's classless static routes spell each route as bytes (length,
    destination octets, gateway); none was read under a resize, an equal-length move or an
    `addresses` rename of the gateway. Decoded, each destination and gateway decided as the dotted
    text it stands for; the list rewritten in its own spelling, else a residual naming why."""
    cases = [
        (RESIZE, "24, 10, 9, 0, 10, 9, 0, 1, 16, 172, 16, 10, 9, 0, 1", "23, 10, 10, 0, 10, 10, 0, 1, 16, 172, 16, 10, 10, 0, 1",
         "25,10,10,0,128,10,10,0,1", "8, 10, 192, 168, 1, 1, 0, 10, 10, 0, 1"),
        (_config("10.9.0.0/24: 10.20.0.0/24"), "24, 10, 9, 0, 10, 9, 0, 1, 16, 172, 16, 10, 9, 0, 1",
         "24, 10, 20, 0, 10, 20, 0, 1, 16, 172, 16, 10, 20, 0, 1", "25,10,20,0,128,10,20,0,1",
         "8, 10, 192, 168, 1, 1, 0, 10, 20, 0, 1"),
        ("version: 1\nrenames:\n  addresses: {10.9.0.1: 10.9.0.254}\nallowlist: allow.yaml\n",
         "24, 10, 9, 0, 10, 9, 0, 1, 16, 172, 16, 10, 9, 0, 1", "24, 10, 9, 0, 10, 9, 0, 254, 16, 172, 16, 10, 9, 0, 254",
         "25,10,9,0,128,10,9,0,254", "8, 10, 192, 168, 1, 1, 0, 10, 9, 0, 254"),
    ]
    for i, (config, old, new, ms, default) in enumerate(cases):
        root = make_repo(tmp_path / f"r{i}", {"dhcpd.conf": DHCPD}, config=config, allowlist=ALLOW)
        done = run(root, "sweep", "--commit")
        assert done.exit_code == 0, (config, done.stdout + done.stderr)
        text = (root / "dhcpd.conf").read_text()
        assert f"  option rfc3442-classless-static-routes {new};\n" in text, (config, text)
        assert f"  option ms-classless-static-routes {ms};\n" in text, (config, text)
        assert f"  option rfc3442-classless-static-routes {default};\n" in text, (config, text)
        assert old not in text
        checked = run(root, "verify")
        assert checked.exit_code == 0, checked.stdout
    # colon hex and MikroTik's one hex string; a list that does not decode; a shrink past the gateway
    files = {
        "dhcpd.conf": "option classless-static-routes 18:0A:09:00:0A:09:00:01;\n",
        "mikrotik.rsc": "/ip dhcp-server option add code=121 name=routes value=0x180a09000a090001\n",
        "bad.conf": "option rfc3442-classless-static-routes 24, 10, 9, 0, 10, 9;\n",
    }
    root = repo(files, config=RESIZE, allowlist=ALLOW)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1, done.stdout + done.stderr
    assert (root / "dhcpd.conf").read_text() == "option classless-static-routes 17:0A:0A:00:0A:0A:00:01;\n"
    assert (root / "mikrotik.rsc").read_text() == \
        "/ip dhcp-server option add code=121 name=routes value=0x170a0a000a0a0001\n"
    assert (root / "bad.conf").read_text() == files["bad.conf"]
    out = run(root, "verify").stdout
    assert "bad.conf:1:40: residual (mask): 24, 10, 9, 0, 10, 9: an RFC 3442 route list" in out, out
    root = make_repo(tmp_path / "shrink", {"dhcpd.conf": "option rfc3442-classless-static-routes 24, 10, 9, 0, 10, 9, 0, 200;\n"},
                     config=_config("10.9.0.0/24: 10.9.0.0/25"), allowlist=ALLOW)
    before = snapshot(root)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 3, done.stdout + done.stderr
    assert snapshot(root) == before
    assert "dhcpd.conf:1: outside the new, smaller network: an RFC 3442 route list" in done.stderr, done.stderr


def test_a_grow_over_networks_in_use_is_a_collision(repo: Repo, run: Run) -> None:
    """finding 9: `10.0.48.0/28: 10.0.48.0/27` beside `iot: 10.0.48.16/28, gw 10.0.48.17`, and
    `10.9.0.0/24: 10.10.0.0/23` beside a VLAN `10.10.1.1/24` in the same netplan file, swallowed
    networks in use, nothing said. Each address or network inside the new network but outside
    where the old one lands is a collision with file:line (dry run, verify; `--strict` fails)."""
    site = ("site: lab\ndomain: lab.lan\nnetwork: 10.10.0.0/23\nhosts:\n"
            "  - {name: cam, address: 10.10.1.20}\n  - {name: nas, address: 10.10.0.9}\n")
    files = {
        "net.yaml": "lan:\n  subnet: 10.0.48.0/28\n  gw: 10.0.48.1\niot:\n  subnet: 10.0.48.16/28\n  gw: 10.0.48.17\n",
        "netplan/01.yaml": ("network:\n  version: 2\n  ethernets:\n    eth0: {addresses: [10.9.0.5/24]}\n"
                            "  vlans:\n    vlan20: {id: 20, link: eth0, addresses: [10.10.1.1/24]}\n"),
        "other.conf": "summary 10.0.0.0/8\nbcast 10.0.48.31\nlan 10.10.0.0/23\n",  # a supernet, the new broadcast
        "notes/old.md": "10.0.48.20 was the camera\n",  # a record: no collision
        "dns/sites/lab.yaml": site,
    }
    root = repo(files, config=_config("10.0.48.0/28: 10.0.48.0/27, 10.9.0.0/24: 10.10.0.0/23"), allowlist=ALLOW)
    dry = run(root, "sweep", "--dry-run", "--format", "summary")
    out = dry.stdout
    for where in ("net.yaml:5:11 [iot.subnet]: warning: collision: 10.0.48.16 is already here, inside 10.0.48.0/27, "
                  "which 10.0.48.0/28 grows into, outside 10.0.48.0-10.0.48.15 where 10.0.48.0/28 lands",
                  "net.yaml:6:7 [iot.gw]: warning: collision: 10.0.48.17 is already here",
                  "netplan/01.yaml:6:46 [network.vlans.vlan20.addresses[0]]: warning: collision: 10.10.1.1 is already "
                  "here, inside 10.10.0.0/23, which 10.9.0.0/24 grows into, outside 10.10.0.0-10.10.0.255",
                  "dns/sites/lab.yaml [hosts[cam]]: warning: collision: 10.10.1.20 is already here",
                  # where 10.9.0.0/24 lands, no address of it moving onto it (g31-gaps33: t31-33 finding 09's
                  # inventory twin; it was exempt)
                  "dns/sites/lab.yaml [hosts[nas]]: warning: collision: 10.10.0.9 is already here, inside "
                  "10.10.0.0/23, where 10.9.0.0/24 lands (10.10.0.0-10.10.0.255)"):
        assert where in out, (where, out)
    assert "other.conf" not in out and "notes/" not in out, out
    assert run(root, "sweep", "--commit").exit_code == 0
    checked = run(root, "verify")  # after the sweep, the networks overlap: said again
    assert checked.exit_code == 0, checked.stdout
    assert "net.yaml:5:11 [iot.subnet]: warning: collision: 10.0.48.16" in checked.stdout, checked.stdout
    assert "netplan/01.yaml:6:46 [network.vlans.vlan20.addresses[0]]: warning: collision: 10.10.1.1" \
        in checked.stdout, checked.stdout
    strict = run(root, "verify", "--strict")
    assert strict.exit_code == 1, strict.stdout
    assert "error: collision: 10.0.48.16" in strict.stdout, strict.stdout
    # a shrink and an equal-length move swallow nothing (the repo keeps dns/sites/lab.yaml, whose nas
    # stands where the equal-length move lands, g31-gaps33; and other.conf's `lan 10.10.0.0/23`, a
    # network in use the equal-length move lands inside: t36-33 finding 05)
    for networks, landed in (("10.0.48.0/28: 10.0.48.0/29", []),
                             ("10.9.0.0/24: 10.10.0.0/24", ["10.10.0.0/23", "10.10.0.9"])):
        root = repo({"net.yaml": files["net.yaml"], "netplan/01.yaml": files["netplan/01.yaml"]},
                    config=_config(networks), allowlist=ALLOW)
        found = json.loads(run(root, "sweep", "--dry-run", "--format", "json").stdout)["collisions"]
        assert [c["value"] for c in found] == landed, (networks, found)
        assert "grows into" not in run(root, "sweep", "--dry-run").stdout, networks


SOA = "$TTL 3600\n@ IN SOA ns1.lab. admin.lab. ( 1 3600 600 86400 3600 )\n@ IN NS ns1.lab.\n"


def _checkzone(origin: str, path: Path) -> None:
    done = subprocess.run(["named-checkzone", origin, str(path)], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout + done.stderr


def test_an_ipv6_zone_renamed_whole_is_reported_as_a_rename(repo: Repo, run: Run) -> None:
    """finding 10: `2001:db8:a::/48: 2001:db8:b:100::/56` renames the /48's zone to the /56's (the
    sweep writes it, named-checkzone loads it), but the report said `add` one and `remove` the other."""
    for new, zone in (("2001:db8:b:100::/56", "1.0.b.0.0.0.8.b.d.0.1.0.0.2.ip6.arpa"),
                      ("2001:db8:b:10::/60", "1.0.0.b.0.0.0.8.b.d.0.1.0.0.2.ip6.arpa")):
        files = {"bind/named.conf.local": 'zone "a.0.0.0.8.b.d.0.1.0.0.2.ip6.arpa" { type master; file "db.v6"; };\n',
                 "bind/db.v6": SOA + "0.1.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0 IN PTR pug.lab.\n"}
        root = repo(files, config=_config(f'"2001:db8:a::/48": "{new}"'), allowlist=ALLOW)
        dry = json.loads(run(root, "sweep", "--dry-run", "--format", "json").stdout)
        [change] = dry["reverse_zones"]
        assert change["renamed"] == [{"from": "a.0.0.0.8.b.d.0.1.0.0.2.ip6.arpa", "to": zone}], change
        assert change["add"] == [] and change["remove"] == [], change
        text = run(root, "sweep", "--dry-run").stdout
        assert f"rename a.0.0.0.8.b.d.0.1.0.0.2.ip6.arpa -> {zone}" in text, text
        assert run(root, "sweep", "--commit").exit_code == 0
        assert f'zone "{zone}"' in (root / "bind/named.conf.local").read_text()
        _checkzone(zone, root / "bind/db.v6")
        assert run(root, "verify").exit_code == 0


def test_a_vyos_range_split_over_two_lines_names_its_own_other_end(repo: Repo, run: Run) -> None:
    """finding 11: `range 0 start A` and `range 0 stop B` on two lines: the start's residual named
    the `stop` of the line before (another range's)."""
    vyos = ("set service dhcp-server shared-network-name LAN subnet 10.30.0.0/24 start 10.30.0.100 stop 10.30.1.50\n"
            "set service dhcp-server shared-network-name LAN subnet 10.30.0.0/24 range 0 start 10.30.0.100\n"
            "set service dhcp-server shared-network-name LAN subnet 10.30.0.0/24 range 0 stop 10.30.2.60\n")
    root = repo({"vyos.cfg": vyos}, config=_config("10.30.0.0/24: 10.31.0.0/23"), allowlist=ALLOW)
    out = run(root, "verify").stdout
    lines = {line.split(" ", 1)[0]: line for line in out.splitlines() if line.startswith("vyos.cfg:")}
    assert "the range's other end 10.30.1.50 in no moved network" in lines["vyos.cfg:1:75:"], out
    assert "the range's other end 10.30.2.60 in no moved network" in lines["vyos.cfg:2:83:"], out


def test_generate_lines_of_a_zone_renamed_whole_follow(repo: Repo, run: Run) -> None:
    """finding 12: `$GENERATE 100-120 $ IN PTR dhcp-$.lab.` in 0.9.10.in-addr.arpa, which
    `10.9.0.0/23: 10.20.2.0/24` renames 2.20.10.in-addr.arpa whole: its relative owners follow the
    rename; it was a `range` residual. An absolute owner, or an A record the iterator makes, stays one."""
    files = {
        "bind/named.conf.local": 'zone "0.9.10.in-addr.arpa" { type master; file "/etc/bind/db.10.9.0"; };\n',
        "bind/db.10.9.0": SOA + "$GENERATE 100-120 $ IN PTR dhcp-$.lab.\n",
        "bind/db.lab": SOA + "$GENERATE 100-120 dhcp-$ IN A 10.9.0.$\n",
    }
    root = repo(files, config=_config("10.9.0.0/23: 10.20.2.0/24"), allowlist=ALLOW)
    _checkzone("0.9.10.in-addr.arpa", root / "bind/db.10.9.0")
    before = run(root, "verify").stdout
    assert "bind/db.10.9.0:" not in before, before  # it was `bind/db.10.9.0:4:1: residual (range)`
    assert "bind/db.lab:4:1: residual (range)" in before, before
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1, done.stdout + done.stderr
    assert 'zone "2.20.10.in-addr.arpa"' in (root / "bind/named.conf.local").read_text()
    assert "$GENERATE 100-120 $ IN PTR dhcp-$.lab.\n" in (root / "bind/db.10.9.0").read_text()
    _checkzone("2.20.10.in-addr.arpa", root / "bind/db.10.9.0")
    out = run(root, "verify").stdout
    assert "bind/db.10.9.0" not in out, out
    assert "bind/db.lab:4:1: residual (range)" in out, out


def test_what_a_syntax_ties_follows_without_a_word(repo: Repo, run: Run) -> None:
    """finding 13: dnsmasq's broadcast field after the netmask and `dhcp-option=28,...` were `broadcast`
    residuals; OpenWrt's `option ipaddr` + `option netmask` and a `config route`'s target and netmask
    were `mask` residuals. They follow; a route to another network keeps its mask; option 3 (the
    router) on the broadcast address stays a residual."""
    files = {
        "dnsmasq.conf": ("dhcp-range=10.9.0.100,10.9.0.200,255.255.255.0,10.9.0.255,1h\n"
                         "dhcp-option=28,10.9.0.255\ndhcp-option=tag:lan,28,10.9.0.255\n"),
        "router.conf": "dhcp-option=3,10.9.0.255\n",
        "etc/config/network": ("config interface 'lan'\n\toption proto 'static'\n\toption ipaddr '10.9.0.1'\n"
                               "\toption netmask '255.255.255.0'\n\n"
                               "config route\n\toption interface 'lan'\n\toption target '10.5.0.0'\n"
                               "\toption netmask '255.255.255.0'\n\toption gateway '10.9.0.1'\n\n"
                               "config route\n\toption interface 'lan'\n\toption target '10.9.0.0'\n"
                               "\toption netmask '255.255.255.0'\n\toption gateway '192.168.1.1'\n"),
    }
    root = repo(files, config=RESIZE, allowlist=ALLOW)
    for conf in ("dnsmasq.conf", "router.conf"):
        assert subprocess.run([sandbox.dnsmasq_binary(), "--test", "-C", str(root / conf)], capture_output=True,
                              check=False, timeout=30).returncode == 0
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1, done.stdout + done.stderr
    assert (root / "dnsmasq.conf").read_text() == (
        "dhcp-range=10.10.0.100,10.10.0.200,255.255.254.0,10.10.1.255,1h\n"
        "dhcp-option=28,10.10.1.255\ndhcp-option=tag:lan,28,10.10.1.255\n")
    assert subprocess.run([sandbox.dnsmasq_binary(), "--test", "-C", str(root / "dnsmasq.conf")], capture_output=True,
                          check=False, timeout=30).returncode == 0
    assert (root / "etc/config/network").read_text() == (
        "config interface 'lan'\n\toption proto 'static'\n\toption ipaddr '10.10.0.1'\n"
        "\toption netmask '255.255.254.0'\n\n"
        "config route\n\toption interface 'lan'\n\toption target '10.5.0.0'\n"
        "\toption netmask '255.255.255.0'\n\toption gateway '10.10.0.1'\n\n"
        "config route\n\toption interface 'lan'\n\toption target '10.10.0.0'\n"
        "\toption netmask '255.255.254.0'\n\toption gateway '192.168.1.1'\n")
    out = run(root, "verify").stdout
    assert "router.conf:1:15: residual (broadcast): 10.9.0.255" in out, out
    assert "verify: FAILED: 1 residual" in out, out


def test_an_ipv6_shrink_refusal_names_subnets(repo: Repo, run: Run) -> None:
    """finding 14: an IPv6 shrink's refusal said `lies 4722366482869645213697 addresses into
    2001:db8:a::/48, and 2001:db8:b::/56 holds 4722366482869645213696`; it names subnets now."""
    files = {"h.yml": "a: 2001:db8:a:100::1\nb: 2001:db8:a::5\nc: 2001:db8:a:ff::1\n"}
    root = repo(files, config=_config('"2001:db8:a::/48": "2001:db8:b::/56"'), allowlist=ALLOW)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 3
    assert ("h.yml:1: outside the new, smaller network: 2001:db8:a:100::1 lies in 2001:db8:a:100::/56, outside "
            "2001:db8:a::/56, the part of 2001:db8:a::/48 that 2001:db8:b::/56 holds") in done.stderr, done.stderr
    assert "h.yml:2" not in done.stderr and "h.yml:3" not in done.stderr
    assert not any(len(word) > 12 and word.isdigit() for word in done.stderr.split()), done.stderr
