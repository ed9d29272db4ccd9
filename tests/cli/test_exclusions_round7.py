"""Denies that win over an allow, a shrink making them cover the whole allowed network (outside pass
round 7, issue 33: host firewalls, Kubernetes policies, named objects, DHCP exclusions), end to end on
real git repos through the CLI. Each failed on main before: sweep 0, every host of the new network
denied (or no address left to lease), verify OK. ufw, firewalld, Windows, the routers and a cluster
are not here (kubectl cannot read a CRD without a server): the rules are read in Python, first match
or deny-wins, the way each tool's documentation says it reads them."""

from __future__ import annotations

import ipaddress
import re
import tempfile
from pathlib import Path

import yaml

from tests.testing.repos import Run, make_repo, snapshot
from tests.testing.said import once

ALLOW = 'version: 1\ncurrent: ["**"]\n'


def _repo(tmp: Path, files: dict[str, str], networks: str) -> Path:
    config = f"version: 1\nrenames:\n  networks: {{{networks}}}\nallowlist: allow.yaml\n"
    return make_repo(Path(tempfile.mkdtemp(dir=tmp)) / "repo", files, config=config, allowlist=ALLOW)


def _mask(net: str) -> str:
    n = ipaddress.ip_network(net)
    return f"{n.network_address} {n.netmask}"


def _files(lan: str, part: str) -> dict[str, str]:
    """Each theme's file: `part` denied before (or over) the allow of `lan`. Keys: name -> text."""
    v6 = ":" in lan
    family = "ipv6" if v6 else "ipv4"
    files = {
        "ufw.sh": f"#!/bin/sh\nufw default deny incoming\nufw deny from {part}\nufw allow from {lan}\n",
        "ufw-insert.sh": f"ufw allow from {lan} to any port 443 proto tcp\nufw insert 1 deny from {part}\n",
        "ansible/ufw.yml": (f"- hosts: all\n  tasks:\n    - name: printers out\n      community.general.ufw:\n"
                            f"        rule: reject\n        src: '{part}'\n    - name: lan in\n"
                            f"      community.general.ufw:\n        rule: allow\n        src: '{lan}'\n"
                            f"        port: '22'\n        proto: tcp\n"),
        "firewalld/public.xml": (f'<?xml version="1.0" encoding="utf-8"?>\n<zone>\n  <rule family="{family}">\n'
                                 f'    <source address="{lan}"/>\n    <accept/>\n  </rule>\n'
                                 f'  <rule family="{family}" priority="-5">\n    <source address="{part}"/>\n'
                                 f'    <reject/>\n  </rule>\n</zone>\n'),
        "firewalld/rich.sh": (f"firewall-cmd --permanent --zone=public --add-rich-rule='rule family=\"{family}\" "
                              f"source address=\"{lan}\" service name=\"ssh\" accept'\n"
                              f"firewall-cmd --permanent --zone=public --add-rich-rule='rule family=\"{family}\" "
                              f"source address=\"{part}\" drop'\n"),
        "firewalld/zones.sh": (f"firewall-cmd --permanent --zone=trusted --add-source={lan}\n"
                               f"firewall-cmd --permanent --zone=drop --add-source={part}\n"),
        "win/fw.ps1": (f'New-NetFirewallRule -DisplayName "LAN" -Direction Inbound -Protocol TCP -LocalPort 3389 `\n'
                       f'    -RemoteAddress {lan} -Action Allow\n'
                       f'New-NetFirewallRule -DisplayName "Printers" -Direction Inbound -RemoteAddress {part} '
                       f'-Action Block\n'),
        "win/fw.cmd": (f'netsh advfirewall firewall add rule name="LAN" dir=in action=allow remoteip={lan}\n'
                       f'netsh advfirewall firewall add rule name="Printers" dir=in action=block remoteip={part}\n'),
        "k8s/ingress.yaml": ("apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata:\n  name: app\n"
                             "  annotations:\n"
                             f'    nginx.ingress.kubernetes.io/allowlist-source-range: "192.0.2.0/24,{lan}"\n'
                             f'    nginx.ingress.kubernetes.io/denylist-source-range: "{part}"\nspec: {{}}\n'),
        "k8s/anp.yaml": ("apiVersion: policy.networking.k8s.io/v1alpha1\nkind: AdminNetworkPolicy\nmetadata:\n"
                         "  name: lan\nspec:\n  priority: 10\n  subject:\n    namespaces: {}\n  egress:\n"
                         "  - name: printers\n    action: Pass\n    to:\n    - networks:\n"
                         f"      - {part}\n  - name: lan\n    action: Allow\n    to:\n    - networks: [\"{lan}\"]\n"),
        "k8s/cilium.yaml": ("apiVersion: cilium.io/v2\nkind: CiliumNetworkPolicy\nmetadata:\n  name: lan\nspec:\n"
                            f"  endpointSelector: {{}}\n  egress:\n  - toCIDR:\n    - {lan}\n  ingress:\n"
                            f"  - fromCIDRSet:\n    - cidr: {lan}\n  ingressDeny:\n  - fromCIDR: [\"{part}\"]\n"),
        "junos/policies.set": (f"set security address-book global address printers {part}\n"
                               f"set security address-book global address lan {lan}\n"
                               "set security address-book global address-set inside address lan\n"
                               "set security policies from-zone trust to-zone untrust policy p1 match "
                               "source-address printers\n"
                               "set security policies from-zone trust to-zone untrust policy p1 match "
                               "destination-address any\n"
                               "set security policies from-zone trust to-zone untrust policy p1 then reject\n"
                               "set security policies from-zone trust to-zone untrust policy p2 match "
                               "source-address inside\n"
                               "set security policies from-zone trust to-zone untrust policy p2 match "
                               "application junos-https\n"
                               "set security policies from-zone trust to-zone untrust policy p2 then permit\n"),
    }
    if not v6:
        files["asa.cfg"] = (f"object network PRINTERS\n subnet {_mask(part)}\nobject-group network INSIDE\n"
                            f" network-object {_mask(lan)}\n"
                            "access-list OUT extended deny ip object PRINTERS any\n"
                            "access-list OUT extended permit tcp object-group INSIDE any eq https\n")
        files["forti.conf"] = ('config firewall address\n    edit "printers"\n'
                               f'        set subnet {_mask(part)}\n    next\n    edit "lan"\n'
                               f'        set subnet {lan}\n    next\nend\nconfig firewall policy\n'
                               '    edit 7\n        set srcintf "port1"\n        set dstintf "wan1"\n'
                               '        set srcaddr "printers"\n        set dstaddr "all"\n'
                               '        set service "ALL"\n    next\n    edit 3\n        set srcintf "port1"\n'
                               '        set dstintf "wan1"\n        set srcaddr "lan"\n        set dstaddr "all"\n'
                               '        set action accept\n        set service "HTTPS"\n    next\nend\n')
        files["pfsense/config.xml"] = (
            "<?xml version=\"1.0\"?>\n<pfsense>\n  <aliases>\n    <alias>\n      <name>PRINTERS</name>\n"
            f"      <type>network</type>\n      <address>{part}</address>\n    </alias>\n    <alias>\n"
            f"      <name>LAN_NET</name>\n      <type>network</type>\n      <address>{lan}</address>\n"
            "    </alias>\n  </aliases>\n  <filter>\n    <rule>\n      <type>reject</type>\n"
            "      <interface>lan</interface>\n      <source>\n        <address>PRINTERS</address>\n"
            "      </source>\n      <destination>\n        <any/>\n      </destination>\n    </rule>\n"
            "    <rule>\n      <type>pass</type>\n      <interface>lan</interface>\n      <source>\n"
            "        <address>LAN_NET</address>\n      </source>\n      <destination>\n        <any/>\n"
            "      </destination>\n    </rule>\n  </filter>\n</pfsense>\n")
    return files


# where each file's refusal stands (its deny's network, or the object defining it)
PLACES = {"ufw.sh": 3, "ufw-insert.sh": 2, "ansible/ufw.yml": 6, "firewalld/public.xml": 8,
          "firewalld/rich.sh": 2, "firewalld/zones.sh": 2, "win/fw.ps1": 3, "win/fw.cmd": 2,
          "k8s/ingress.yaml": 7, "k8s/anp.yaml": 14, "k8s/cilium.yaml": 14, "junos/policies.set": 1,
          "asa.cfg": 2, "forti.conf": 3, "pfsense/config.xml": 7}


def test_a_shrink_making_a_winning_deny_cover_the_allowed_network_refuses(run: Run, tmp_path: Path) -> None:
    """/24 -> /25 in place (the finding), /23 -> /24, a shrink with a move (the deny lands on
    10.0.60.0/25 by its offset) and IPv6 /48 -> /56: every theme refused at its deny's line (the object's
    definition for named objects), exit 3, nothing written; the dry run says the same on stderr."""
    for old, new, part in (("10.0.48.0/24", "10.0.48.0/25", "10.0.48.0/25"),
                           ("10.0.48.0/23", "10.0.48.0/24", "10.0.48.0/24"),
                           ("10.0.48.0/24", "10.0.60.0/25", "10.0.48.0/25"),
                           ("2001:db8:a::/48", "2001:db8:a::/56", "2001:db8:a::/56")):
        files = _files(old, part)
        root = _repo(tmp_path, files, f"{old}: {new}")
        before = snapshot(root)
        dry = run(root, "sweep", "--dry-run")
        done = run(root, "sweep", "--commit")
        assert done.exit_code == 3, (old, new, done.stdout + done.stderr)
        assert snapshot(root) == before
        for name in files:
            assert f"{name}:{PLACES[name]}: tool-refuses: the exclusion " in done.stderr, (name, old, new, done.stderr)
            assert f"{name}:{PLACES[name]}: tool-refuses" in dry.stderr, (name, dry.stderr)


def _ufw_first_match(text: str, address: str) -> str:
    """ufw's rules as added: `insert 1` first, then in order; the first whose source holds it."""
    rules: list[tuple[str, str]] = []
    for line in text.splitlines():
        m = re.match(r"ufw (insert 1 )?(allow|deny|reject) from (\S+)", line)
        if m:
            rules.insert(0, (m[2], m[3])) if m[1] else rules.append((m[2], m[3]))
    here = ipaddress.ip_address(address)
    return next((action for action, net in rules if here in ipaddress.ip_network(net)), "none")


def test_a_grow_follows_and_the_deny_keeps_its_hosts_out(run: Run, tmp_path: Path) -> None:
    """/24 -> /22 in place and a move with a grow (-> 10.0.60.0/22, the deny lands on 10.0.60.0/25):
    written, exit 0, verify OK; ufw's first match denies the deny's hosts and allows the rest of the new
    network; Cilium's deny is the /25 inside the new /22; the DHCP exclusions keep their offsets."""
    for old, new, part_after in (("10.0.48.0/24", "10.0.48.0/22", "10.0.48.0/25"),
                                 ("10.0.48.0/24", "10.0.60.0/22", "10.0.60.0/25")):
        files = {**_files(old, "10.0.48.0/25"), "dhcp.cfg": DHCP_IOS.replace("FIRST", "10.0.48.1")
                 .replace("LAST", "10.0.48.126")}
        root = _repo(tmp_path, files, f"{old}: {new}")
        done = run(root, "sweep", "--commit")
        assert done.exit_code == 0, done.stdout + done.stderr
        net = ipaddress.ip_network(new)
        ufw = (root / "ufw.sh").read_text()
        assert _ufw_first_match(ufw, str(net.network_address + 5)) == "deny", ufw
        assert _ufw_first_match(ufw, str(net.network_address + 600)) == "allow", ufw
        cilium = yaml.safe_load((root / "k8s/cilium.yaml").read_text())["spec"]
        assert cilium["ingressDeny"][0]["fromCIDR"] == [part_after]
        assert cilium["ingress"][0]["fromCIDRSet"][0]["cidr"] == new
        dhcp = (root / "dhcp.cfg").read_text()
        offset = str(net.network_address)[:-1]
        assert f"ip dhcp excluded-address {offset}1 {offset}126" in dhcp, dhcp
        assert run(root, "verify", "--strict").exit_code == 0


NOT_EXCLUSIONS = {
    "ufw.sh": "ufw deny from PART to any port 22\nufw allow from LAN\n",  # ssh alone
    "ufw-late.sh": "ufw allow from LAN\nufw deny from PART\n",  # the allow decides first
    "win/fw.ps1": ("New-NetFirewallRule -Direction Outbound -RemoteAddress PART -Action Block\n"
                   "New-NetFirewallRule -Direction Inbound -RemoteAddress LAN -Action Allow\n"),
    "win/fw.cmd": ('netsh advfirewall firewall add rule name="a" dir=in action=block remoteip=PART localport=22 '
                   'protocol=tcp\nnetsh advfirewall firewall add rule name="b" dir=in action=allow remoteip=LAN\n'),
    "firewalld/rich.sh": ("firewall-cmd --zone=public --add-rich-rule='rule priority=\"-5\" family=\"ipv4\" "
                          "source address=\"LAN\" accept'\n"
                          "firewall-cmd --zone=public --add-rich-rule='rule family=\"ipv4\" source "
                          "address=\"PART\" drop'\n"),  # the allow's lower priority decides first
    "k8s/anp.yaml": ("apiVersion: policy.networking.k8s.io/v1alpha1\nkind: AdminNetworkPolicy\nmetadata:\n"
                     "  name: lan\nspec:\n  priority: 10\n  subject:\n    namespaces: {}\n  egress:\n"
                     "  - name: lan\n    action: Allow\n    to:\n    - networks: [LAN]\n"
                     "  - name: printers\n    action: Deny\n    to:\n    - networks: [PART]\n"),
    "k8s/cilium.yaml": ("apiVersion: cilium.io/v2\nkind: CiliumNetworkPolicy\nmetadata:\n  name: lan\nspec:\n"
                        "  endpointSelector: {}\n  egress:\n  - toCIDR: [LAN]\n  egressDeny:\n"
                        "  - toCIDR: [PART]\n    toPorts:\n    - ports:\n      - port: '22'\n"),
    "forti.conf": ('config firewall address\n    edit "p"\n        set subnet PART\n    next\n'
                   '    edit "l"\n        set subnet LAN\n    next\nend\nconfig firewall policy\n'
                   '    edit 1\n        set srcaddr "p"\n        set dstaddr "all"\n        set action deny\n'
                   '        set service "SSH"\n    next\n    edit 2\n        set srcaddr "l"\n'
                   '        set dstaddr "all"\n        set action accept\n        set service "ALL"\n'
                   '    next\nend\n'),
}


def test_denies_that_do_not_win_or_match_less_are_no_exclusions(run: Run, tmp_path: Path) -> None:
    """A deny of ssh alone, a deny after the allow (first match), an outbound block beside an inbound
    allow, a lower-priority allow, an ANP Deny after its Allow, a Cilium deny of one port, a FortiGate
    deny of SSH only: under /24 -> /25 in place, no refusal; exit 0."""
    files = {name: text.replace("PART", "10.0.48.0/25").replace("LAN", "10.0.48.0/24")
             for name, text in NOT_EXCLUSIONS.items()}
    root = _repo(tmp_path, files, "10.0.48.0/24: 10.0.48.0/25")
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    assert "tool-refuses" not in done.stdout + done.stderr
    assert "10.0.48.0/24" not in (root / "ufw.sh").read_text()


def test_a_deny_left_strictly_inside_follows(run: Run, tmp_path: Path) -> None:
    """Deny /26 under /24 -> /25 in place: every theme written, exit 0, verify OK; the allowed /25 keeps
    hosts the /26 does not deny (10.0.48.64-127)."""
    root = _repo(tmp_path, _files("10.0.48.0/24", "10.0.48.0/26"), "10.0.48.0/24: 10.0.48.0/25")
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    ufw = (root / "ufw.sh").read_text()
    assert _ufw_first_match(ufw, "10.0.48.5") == "deny"
    assert _ufw_first_match(ufw, "10.0.48.100") == "allow"
    assert run(root, "verify", "--strict").exit_code == 0


def test_a_file_already_written_fails_verify(run: Run, tmp_path: Path) -> None:
    """Each theme as main's sweep wrote it under /24 -> /25 (the allow at the new /25, the deny /25):
    verify fails with a tool-refuses residual at the deny."""
    files = _files("10.0.48.0/25", "10.0.48.0/25")
    root = _repo(tmp_path, files, "10.0.48.0/24: 10.0.48.0/25")
    checked = run(root, "verify", "--strict")
    assert checked.exit_code == 1, checked.stdout
    for name in files:
        assert re.search(rf"^{re.escape(name)}:{PLACES[name]}:\d+: residual \(tool-refuses\)", checked.stdout, re.M), \
            (name, checked.stdout)


# -- DHCP exclusions ----------------------------------------------------------------------------------

DHCP_IOS = ("ip dhcp excluded-address FIRST LAST\nip dhcp excluded-address 10.0.48.60\n!\nip dhcp pool LAN\n"
            " network 10.0.48.0 255.255.255.0\n default-router 10.0.48.1\n!\n")
DHCP_JUNOS = ("set access address-assignment pool lan family inet network 10.0.48.0/24\n"
              "set access address-assignment pool lan family inet excluded-range ex low FIRST\n"
              "set access address-assignment pool lan family inet excluded-range ex high LAST\n"
              "set access address-assignment pool lan family inet excluded-address 10.0.48.60\n")


def _leasable(config: str) -> int:
    """Host addresses of the IOS pool's network not excluded (as IOS reads it)."""
    net = re.search(r"network (\S+) (\S+)", config)
    assert net is not None
    pool = ipaddress.ip_network(f"{net[1]}/{net[2]}")
    out = set(pool.hosts())
    for m in re.finditer(r"excluded-address (\S+)(?: (\S+))?", config):
        low, high = ipaddress.ip_address(m[1]), ipaddress.ip_address(m[2] or m[1])
        out = {a for a in out if not low <= a <= high}
    return len(out)


def test_dhcp_exclusions_a_shrink_makes_cover_the_pool_refuse(run: Run, tmp_path: Path) -> None:
    """IOS `ip dhcp excluded-address 10.0.48.1 10.0.48.126` (+ .127) beside `network 10.0.48.0
    255.255.255.0`, and a JunOS pool's excluded-range, under /24 -> /25 in place and -> 10.0.60.0/25:
    the pool would lease nothing: refused at the first exclusion, nothing written. Under /24 -> /22 and
    with exclusions that leave hosts (.1-.50): written, the pool leases more than before."""
    for new in ("10.0.48.0/25", "10.0.60.0/25"):
        files = {"dhcp.cfg": DHCP_IOS.replace("FIRST", "10.0.48.1").replace("LAST", "10.0.48.126"),
                 "pool.set": DHCP_JUNOS.replace("FIRST", "10.0.48.1").replace("LAST", "10.0.48.126")}
        root = _repo(tmp_path, files, f"10.0.48.0/24: {new}")
        before = snapshot(root)
        done = run(root, "sweep", "--commit")
        assert done.exit_code == 3, done.stdout + done.stderr
        assert snapshot(root) == before
        assert "dhcp.cfg:1: tool-refuses: the excluded addresses of the DHCP pool 10.0.48.0/24" in done.stderr
        assert "pool.set:2: tool-refuses: the excluded addresses" in done.stderr, done.stderr
    for new, last in (("10.0.48.0/22", "10.0.48.126"), ("10.0.48.0/25", "10.0.48.50")):
        config = DHCP_IOS.replace("FIRST", "10.0.48.1").replace("LAST", last)
        root = _repo(tmp_path, {"dhcp.cfg": config, "pool.set": DHCP_JUNOS.replace("FIRST", "10.0.48.1")
                                .replace("LAST", last)}, f"10.0.48.0/24: {new}")
        done = run(root, "sweep", "--commit")
        assert done.exit_code == 0, done.stdout + done.stderr
        assert _leasable((root / "dhcp.cfg").read_text()) > 0
        assert run(root, "verify", "--strict").exit_code == 0
    written = DHCP_IOS.replace("FIRST", "10.0.48.1").replace("LAST", "10.0.48.126").replace(
        "255.255.255.0", "255.255.255.128")
    assert _leasable(written) == 0
    root = _repo(tmp_path, {"dhcp.cfg": written}, "10.0.48.0/24: 10.0.48.0/25")
    checked = run(root, "verify", "--strict")
    assert checked.exit_code == 1 and "dhcp.cfg:1:26: residual (tool-refuses)" in checked.stdout, checked.stdout


def test_a_pool_that_leased_nothing_before_is_its_author_s(run: Run, tmp_path: Path) -> None:
    """Exclusions covering every host of the old /24 already, under /24 -> /22: no refusal of this
    rule (the range over the whole old network is the `range` residual it was before)."""
    config = DHCP_IOS.replace("FIRST", "10.0.48.1").replace("LAST", "10.0.48.254")
    root = _repo(tmp_path, {"dhcp.cfg": config}, "10.0.48.0/24: 10.0.48.0/22")
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1, done.stdout + done.stderr
    assert "tool-refuses" not in done.stdout + done.stderr
    once(done.stdout, "dhcp.cfg:1:26: 10.0.48.1 (range", "the range 10.0.48.1-10.0.48.254 runs over every host")


# -- a move of one length into a network a winning deny covers ------------------------------------------

INTO = {
    "ufw.sh": "ufw deny from 10.9.0.0/16\nufw allow from 10.0.48.0/24\n",
    "rules.v4": "-A INPUT -s 10.9.0.0/16 -j DROP\n-A INPUT -s 10.0.48.0/24 -j ACCEPT\n",
    "win/fw.ps1": ("New-NetFirewallRule -RemoteAddress 10.9.0.0/16 -Action Block\n"
                   "New-NetFirewallRule -RemoteAddress 10.0.48.0/24 -Action Allow\n"),
    "asa.cfg": ("object network GUESTS\n subnet 10.9.0.0 255.255.0.0\nobject network LAN\n"
                " subnet 10.0.48.0 255.255.255.0\naccess-list OUT extended deny ip object GUESTS any\n"
                "access-list OUT extended permit ip object LAN any\n"),
    "k8s/anp.yaml": ("apiVersion: policy.networking.k8s.io/v1alpha1\nkind: AdminNetworkPolicy\nmetadata:\n"
                     "  name: lan\nspec:\n  priority: 10\n  subject:\n    namespaces: {}\n  egress:\n"
                     "  - name: guests\n    action: Deny\n    to:\n    - networks: [10.9.0.0/16]\n"
                     "  - name: lan\n    action: Allow\n    to:\n    - networks: [10.0.48.0/24]\n"),
}
INTO_PLACES = {"ufw.sh": 1, "rules.v4": 1, "win/fw.ps1": 1, "asa.cfg": 2, "k8s/anp.yaml": 13}


def test_a_move_of_one_length_into_a_denied_network_refuses(run: Run, tmp_path: Path) -> None:
    """`10.0.48.0/24: 10.9.0.0/24` where a deny of 10.9.0.0/16 wins over the allow of the /24 (ufw,
    iptables, Windows, an ASA object, an AdminNetworkPolicy): the rule would admit nothing of the moved
    network: refused at the deny, nothing written; a file already written fails verify; a move outside
    the deny (-> 10.1.0.0/24) is written, and the first match then allows the new network."""
    root = _repo(tmp_path, INTO, "10.0.48.0/24: 10.9.0.0/24")
    before = snapshot(root)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 3, done.stdout + done.stderr
    assert snapshot(root) == before
    for name, line in INTO_PLACES.items():
        assert f"{name}:{line}: tool-refuses: the exclusion " in done.stderr, (name, done.stderr)
        assert "covers 10.9.0.0/24, where 10.0.48.0/24 moves" in done.stderr
    written = {name: text.replace("10.0.48.0", "10.9.0.0") for name, text in INTO.items()}
    root = _repo(tmp_path, written, "10.0.48.0/24: 10.9.0.0/24")
    checked = run(root, "verify", "--strict")
    assert checked.exit_code == 1, checked.stdout
    for name, line in INTO_PLACES.items():
        assert re.search(rf"^{re.escape(name)}:{line}:\d+: residual \(tool-refuses\)", checked.stdout, re.M), \
            (name, checked.stdout)
    root = _repo(tmp_path, INTO, "10.0.48.0/24: 10.1.0.0/24")
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    assert _ufw_first_match((root / "ufw.sh").read_text(), "10.1.0.7") == "allow"
    assert run(root, "verify", "--strict").exit_code == 0
