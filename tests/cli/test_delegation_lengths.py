"""Delegation lengths tied to a resized IPv6 pool outside Kea (t31-33 findings 14, 20), flannel's
SubnetLen (13), size-tailed length keys (10), RA prefixes with the autonomous flag off (17) and
dnsmasq's auth-* lines in the dry run (16), end to end on real git repos through the CLI. Each failed
on main before (sweep 0 with the length left, verify OK; `auth-zone=****`; a SLAAC residual).
RouterOS, VyOS, netifd and flannel are not installed: their rules are checked in Python (ipaddress);
dnsmasq's own `--test` reads the unmasked file.
"""

from __future__ import annotations

import ipaddress
import json
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

import yaml

from tests.testing.repos import Run, make_repo, snapshot

ALLOW = 'version: 1\ncurrent: ["**"]\n'


def _repo(tmp: Path, files: dict[str, str], networks: str) -> Path:
    config = f"version: 1\nrenames:\n  networks: {{{networks}}}\nallowlist: allow.yaml\n"
    return make_repo(Path(tempfile.mkdtemp(dir=tmp)) / "repo", files, config=config, allowlist=ALLOW)


# -- 14: RouterOS and VyOS prefix delegation -------------------------------------------------------

ROUTEROS = "/ipv6 pool\nadd name=pd prefix=2001:db8:a::/48 prefix-length=56\n"
VYOS_SET = ("set service dhcpv6-server shared-network-name LAN subnet 2001:db8:a::/48 prefix-delegation "
            "start 2001:db8:a:: prefix-length 56\n")
VYOS_BOOT = ("service {\n    dhcpv6-server {\n        shared-network-name LAN {\n"
             "            subnet 2001:db8:a::/48 {\n                prefix-delegation {\n"
             "                    start 2001:db8:a:: {\n                        prefix-length 56\n"
             "                        stop 2001:db8:a:ff::\n                    }\n                }\n"
             "            }\n        }\n    }\n}\n")
PD = {"r.rsc": ROUTEROS, "vyos.conf": VYOS_SET, "config.boot": VYOS_BOOT}


def test_a_delegation_length_wider_than_the_new_pool_refuses_the_sweep(run: Run, tmp_path: Path) -> None:
    """/48 -> /58 (and /48 -> /60 of another pool length): RouterOS's prefix-length=56 and VyOS's
    prefix-length 56 (set command and config.boot block) cannot hand out one /56 from a /58: refused,
    nothing written. Before: the pool became /58, 56 stayed, sweep 0, verify OK."""
    for new in ("2001:db8:a::/58", "2001:db8:a::/60"):
        root = _repo(tmp_path, PD, f"2001:db8:a::/48: {new}")
        before = snapshot(root)
        dry = run(root, "sweep", "--dry-run", "--strict")
        assert dry.exit_code == 3, dry.stdout + dry.stderr
        done = run(root, "sweep", "--commit")
        assert done.exit_code == 3, done.stdout + done.stderr
        assert snapshot(root) == before
        err = done.stderr
        assert f"r.rsc:2: tool-refuses: RouterOS's pool prefix-length 56 is tied to the pool 2001:db8:a::/48, " \
               f"which becomes {new}: no /56 fits" in err, err
        assert "vyos.conf:1: tool-refuses: VyOS's prefix-delegation prefix-length 56" in err, err
        assert "config.boot:7: tool-refuses: VyOS's prefix-delegation prefix-length 56" in err, err
        assert ipaddress.ip_network(new).prefixlen > 56  # the rule the refusal stands for


def test_a_shrink_leaving_fewer_delegations_is_a_residual_and_a_grow_follows(run: Run, tmp_path: Path) -> None:
    """/48 -> /52: each pool still delegates /56s, 16 instead of 256: the pool literal is a
    tied-length residual (exit 1, left as written), verify fails. /48 -> /44 (a grow): written, exit
    0, the lengths still fit (ipaddress: 56 >= 44), verify OK."""
    root = _repo(tmp_path, PD, "2001:db8:a::/48: 2001:db8:a::/52")
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1, done.stdout + done.stderr
    out = run(root, "verify", "--strict")
    assert out.exit_code == 1
    for where in ("r.rsc:2:20", "vyos.conf:1:58", "config.boot:4:20"):
        assert f"{where}: residual (tied-length): 2001:db8:a::/48" in out.stdout, out.stdout
    assert "which hands out 256 /56 prefixes, as 2001:db8:a::/52 it would hand out 16" in out.stdout
    assert "prefix=2001:db8:a::/48 prefix-length=56" in (root / "r.rsc").read_text()
    root = _repo(tmp_path, PD, "2001:db8:a::/48: 2001:db8:10::/44")
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    ros = (root / "r.rsc").read_text()
    assert "prefix=2001:db8:10::/44 prefix-length=56" in ros, ros
    pool = ipaddress.ip_network(re.search(r"prefix=(\S+)", ros).group(1))  # type: ignore[union-attr]
    assert pool.prefixlen <= 56 and len(list(pool.subnets(new_prefix=56))) == 4096
    assert "subnet 2001:db8:10::/44 {" in (root / "config.boot").read_text()
    assert run(root, "verify", "--strict").exit_code == 0


# -- 20: OpenWrt ip6assign beside ula_prefix ------------------------------------------------------

UCI = ("config globals 'globals'\n\toption ula_prefix 'fd12:3456:789a::/48'\n\n"
       "config interface 'lan'\n\toption device 'br-lan'\n\toption proto 'static'\n"
       "\toption ip6assign '60'\n\toption ip6hint '10'\n")


def test_ip6assign_beside_a_ula_prefix_a_shrink_passes(run: Run, tmp_path: Path) -> None:
    """/48 -> /62 (and /48 -> /61): the lan asks netifd for a /60 of a /62: refused. /48 -> /56:
    16 /60s instead of 4096, a tied-length residual on the ula_prefix. Before: sweep 0, verify OK."""
    for new in ("fd12:3456:789a::/62", "fd12:3456:789a::/61"):
        root = _repo(tmp_path, {"etc/config/network": UCI}, f"fd12:3456:789a::/48: {new}")
        before = snapshot(root)
        done = run(root, "sweep", "--commit")
        assert done.exit_code == 3, done.stdout + done.stderr
        assert snapshot(root) == before
        assert f"etc/config/network:7: tool-refuses: OpenWrt's ip6assign 60 is tied to the pool " \
               f"fd12:3456:789a::/48, which becomes {new}: no /60 fits" in done.stderr, done.stderr
    root = _repo(tmp_path, {"etc/config/network": UCI}, "fd12:3456:789a::/48: fd12:3456:789a::/56")
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1, done.stdout + done.stderr
    out = run(root, "verify", "--strict")
    assert out.exit_code == 1
    assert "etc/config/network:2:21: residual (tied-length): fd12:3456:789a::/48" in out.stdout, out.stdout
    assert "hands out 4096 /60 prefixes, as fd12:3456:789a::/56 it would hand out 16" in out.stdout


# -- 13: flannel's SubnetLen -------------------------------------------------------------------------

FLANNEL = ("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: kube-flannel-cfg\ndata:\n"
           "  net-conf.json: |\n    {\n      \"Network\": \"10.42.0.0/16\",\n      \"SubnetLen\": 24,\n"
           "      \"EnableIPv6\": true,\n      \"IPv6Network\": \"2001:db8:42::/56\",\n"
           "      \"IPv6SubnetLen\": 64,\n      \"Backend\": { \"Type\": \"vxlan\" }\n    }\n")


def _flannel(root: Path) -> dict[str, object]:
    conf: dict[str, object] = json.loads(yaml.safe_load((root / "kube-flannel.yml").read_text())
                                         ["data"]["net-conf.json"])
    return conf


def test_flannel_subnet_len_is_tied_to_its_network(run: Run, tmp_path: Path) -> None:
    """/16 -> /25 and /56 -> /66: a per-node SubnetLen (24, 64) shorter than the network, which flannel
    refuses: refused, nothing written. /16 -> /22, /56 -> /62: four /24s, four /64s: tied-length
    residuals on both networks (round 7: /16 -> /23 leaves two, which flannel refuses). /16 -> 10.44.0.0/14 (grow): written, SubnetLen still fits (checked on the
    parsed net-conf.json)."""
    root = _repo(tmp_path, {"kube-flannel.yml": FLANNEL},
                 "10.42.0.0/16: 10.42.0.0/25, 2001:db8:42::/56: 2001:db8:42::/66")
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 3, done.stdout + done.stderr
    assert "kube-flannel.yml:9: tool-refuses: flannel's SubnetLen 24 is tied to the pool 10.42.0.0/16" in done.stderr
    assert "kube-flannel.yml:12: tool-refuses: flannel's IPv6SubnetLen 64 is tied to the pool 2001:db8:42::/56" \
        in done.stderr, done.stderr
    assert (root / "kube-flannel.yml").read_text() == FLANNEL
    root = _repo(tmp_path, {"kube-flannel.yml": FLANNEL},
                 "10.42.0.0/16: 10.42.0.0/22, 2001:db8:42::/56: 2001:db8:42::/62")
    assert run(root, "sweep", "--commit").exit_code == 1
    out = run(root, "verify", "--strict").stdout
    assert "kube-flannel.yml:8:19: residual (tied-length): 10.42.0.0/16" in out, out
    assert "kube-flannel.yml:11:23: residual (tied-length): 2001:db8:42::/56" in out, out
    assert "holds 256 /24 subnets, as 10.42.0.0/22 it would hold 4" in out, out
    root = _repo(tmp_path, {"kube-flannel.yml": FLANNEL}, "10.42.0.0/16: 10.44.0.0/14")
    assert run(root, "sweep", "--commit").exit_code == 0
    conf = _flannel(root)
    assert conf["Network"] == "10.44.0.0/14" and conf["SubnetLen"] == 24
    assert ipaddress.ip_network(str(conf["Network"])).prefixlen <= int(str(conf["SubnetLen"]))


# -- 10: length keys with a `size` tail --------------------------------------------------------------

def test_size_tailed_length_keys_follow_their_network(run: Run, tmp_path: Path) -> None:
    """`prefix_size`, `prefixSize`, `cidr_size`, `cidr_block_size`, `mask_size`, `netmask-size` beside
    `network:`: under /24 -> /22 and /64 -> /60 (grow) and /23 -> /24 (shrink) each length follows,
    as `prefix_len` does (yaml + ipaddress read the new network). `subnet_size: 24` and `size: 24`
    (a count, not a length word) are left. Before: the address moved, the length stayed, verify OK."""
    keys = ("prefix_size", "prefixSize", "cidr_size", "cidr_block_size", "mask_size", "netmask-size")
    for old, new, addr in (("10.0.48.0/24", "10.0.60.0/22", "10.0.48.0"), ("10.0.48.0/23", "10.0.48.0/24",
                                                                            "10.0.48.0"),
                           ("2001:db8:a:10::/64", "2001:db8:b:20::/60", "2001:db8:a:10::")):
        length = ipaddress.ip_network(old).prefixlen
        text = "".join(f"n_{k}:\n  network: \"{addr}\"\n  {k}: {length}\n\n" for k in keys)
        text += f"other:\n  network: \"{addr}\"\n  subnet_size: {length}\n  disk:\n    size: {length}\n"
        root = _repo(tmp_path, {"k.yml": text}, f"{old}: {new}")
        done = run(root, "sweep", "--commit")
        assert done.exit_code == 0, done.stdout + done.stderr
        data = yaml.safe_load((root / "k.yml").read_text())
        for k in keys:
            stanza = data[f"n_{k}"]
            assert ipaddress.ip_network(f"{stanza['network']}/{stanza[k]}") == ipaddress.ip_network(new), k
        assert data["other"]["subnet_size"] == length and data["other"]["disk"]["size"] == length
        assert run(root, "verify", "--strict").exit_code == 0


# -- 17: an RA prefix with the autonomous flag off --------------------------------------------------

RA = {"ios.cfg": "interface Vlan10\n ipv6 address 2001:db8:a:10::1/64\n ipv6 nd prefix 2001:db8:a:10::/64 "
                 "no-autoconfig\n",
      "radvd.conf": "interface eth1 {\n  AdvSendAdvert on;\n  prefix 2001:db8:a:10::/64 {\n    AdvOnLink on;\n"
                    "    AdvAutonomous off;\n  };\n};\n",
      "lan.network": "[IPv6Prefix]\nPrefix=2001:db8:a:10::/64\nAddressAutoconfiguration=no\n",
      "bird.conf": "protocol radv {\n  interface \"eth1\" {\n    prefix 2001:db8:a:10::/64 {\n"
                   "      autonomous no;\n    };\n  };\n}\n",
      "vyos.boot": "router-advert {\n  interface eth1 {\n    prefix 2001:db8:a:10::/64 {\n"
                   "      no-autonomous-flag\n    }\n  }\n}\n"}
SLAAC = {"radvd-slaac.conf": "interface eth2 {\n  prefix 2001:db8:a:10::/64 {\n    AdvAutonomous on;\n  };\n};\n",
         "slaac.network": "[IPv6Prefix]\nPrefix=2001:db8:a:10::/64\n\n[Network]\nIPv6AcceptRA=no\n"
                          "AddressAutoconfiguration=no\n"}


def test_an_on_link_only_ra_prefix_follows_a_slaac_one_stays(run: Run, tmp_path: Path) -> None:
    """/64 -> /60 and /64 -> /56: an RA prefix whose autonomous flag is off (IOS no-autoconfig, radvd
    AdvAutonomous off, networkd AddressAutoconfiguration=no in its [IPv6Prefix], BIRD autonomous no,
    VyOS no-autonomous-flag) follows the move as the interface address does: written, exit 0. A
    SLAAC prefix (AdvAutonomous on; a `no` in another section) stays a SLAAC mask residual.
    Before: all five were SLAAC residuals (exit 1, verify failed)."""
    for new in ("2001:db8:a:10::/60", "2001:db8:b::/56"):
        root = _repo(tmp_path, RA, f"2001:db8:a:10::/64: {new}")
        done = run(root, "sweep", "--commit")
        assert done.exit_code == 0, done.stdout + done.stderr
        for name in RA:
            assert new in (root / name).read_text(), (name, (root / name).read_text())
            assert "2001:db8:a:10::/64" not in (root / name).read_text(), name
        assert run(root, "verify", "--strict").exit_code == 0
        root = _repo(tmp_path, {**RA, **SLAAC}, f"2001:db8:a:10::/64: {new}")
        done = run(root, "sweep", "--commit")
        assert done.exit_code == 1, done.stdout + done.stderr
        out = run(root, "verify", "--strict").stdout
        assert "radvd-slaac.conf:2:10: residual (mask): 2001:db8:a:10::/64" in out, out
        assert "slaac.network:2:8: residual (mask): 2001:db8:a:10::/64" in out, out
        assert "ios.cfg" not in out and "radvd.conf" not in out, out


# -- 16: dnsmasq's auth-zone in the dry run --------------------------------------------------------

def test_dnsmasq_auth_lines_are_shown_in_the_dry_run(run: Run, tmp_path: Path) -> None:
    """`auth-zone=lab,10.0.48.0/24` and `auth-sec-servers=` show their change (no `****`), under a grow
    and a shrink; a password beside them stays masked; dnsmasq --test accepts the written file."""
    conf = ("auth-server=ns.lab,lo\nauth-zone=lab,10.0.48.0/24\nauth-peer=10.0.48.9\n"
            "rev-server=10.0.48.0/24,10.0.1.1\n")
    for new in ("10.0.60.0/22", "10.0.48.0/25"):
        root = _repo(tmp_path, {"dnsmasq.conf": conf, "app.env": "DB_PASSWORD=hunter2-10.0.48.9\n"},
                     f"10.0.48.0/24: {new}")
        dry = run(root, "sweep", "--dry-run")
        assert f"+auth-zone=lab,{new}" in dry.stdout, dry.stdout
        assert "-auth-zone=lab,10.0.48.0/24" in dry.stdout, dry.stdout
        assert "auth-zone=****" not in dry.stdout and "hunter2" not in dry.stdout, dry.stdout
        assert run(root, "sweep", "--commit").exit_code == 0
        assert f"auth-zone=lab,{new}\n" in (root / "dnsmasq.conf").read_text()
        dnsmasq = shutil.which("dnsmasq") or "/usr/sbin/dnsmasq"
        checked = subprocess.run([dnsmasq, "--test", f"--conf-file={root / 'dnsmasq.conf'}"],
                                 capture_output=True, text=True, check=False)
        assert checked.returncode == 0, checked.stderr


# -- 18: an except a shrink makes cover its whole cidr ---------------------------------------------

NETPOL = ("apiVersion: networking.k8s.io/v1\nkind: NetworkPolicy\nmetadata:\n  name: lan\nspec:\n"
          "  podSelector: {}\n  ingress:\n    - from:\n        - ipBlock:\n            cidr: CIDR\n"
          "            except:\n              - EXCEPT\n")
CILIUM = ("apiVersion: cilium.io/v2\nkind: CiliumNetworkPolicy\nmetadata:\n  name: lan\nspec:\n"
          "  endpointSelector: {}\n  ingress:\n    - fromCIDRSet:\n        - cidr: CIDR\n"
          "          except: [\"EXCEPT\"]\n")


def _policies(cidr: str, excepted: str) -> dict[str, str]:
    return {name: text.replace("CIDR", cidr).replace("EXCEPT", excepted)
            for name, text in (("np.yaml", NETPOL), ("cnp.yaml", CILIUM))}


def _valid_block(root: Path) -> bool:
    """Kubernetes' ValidateIPBlock: each except strictly inside the cidr."""
    block = yaml.safe_load((root / "np.yaml").read_text())["spec"]["ingress"][0]["from"][0]["ipBlock"]
    cidr = ipaddress.ip_network(block["cidr"])
    return all(ipaddress.ip_network(e).subnet_of(cidr) and ipaddress.ip_network(e) != cidr  # type: ignore[arg-type]
               for e in block["except"])


def test_a_shrink_onto_a_policy_except_refuses(run: Run, tmp_path: Path) -> None:
    """/24 -> /25 in place with except /25 (the finding), /23 -> /24 in place with except /24, a
    shrink with a move (10.0.48.0/24 -> 10.0.60.0/25: the except lands on the new cidr) and IPv6
    /64 -> /65 with except /65: each except would be the whole new cidr: refused, nothing written.
    Before: written, sweep 0, verify OK, an ipBlock Kubernetes rejects."""
    for old, new, excepted in (("10.0.48.0/24", "10.0.48.0/25", "10.0.48.0/25"),
                               ("10.0.48.0/23", "10.0.48.0/24", "10.0.48.0/24"),
                               ("10.0.48.0/24", "10.0.60.0/25", "10.0.48.0/25"),
                               ("2001:db8:a:10::/64", "2001:db8:a:10::/65", "2001:db8:a:10::/65")):
        files = _policies(old, excepted)
        root = _repo(tmp_path, files, f"{old}: {new}")
        before = snapshot(root)
        done = run(root, "sweep", "--commit")
        assert done.exit_code == 3, (old, new, done.stdout + done.stderr)
        assert snapshot(root) == before
        assert f"np.yaml:12: tool-refuses: the except entry {excepted} of the cidr {old}, which becomes {new}, " \
               "would cover the whole new cidr" in done.stderr, done.stderr
        assert "cnp.yaml:10: tool-refuses: the except entry" in done.stderr, done.stderr


def test_an_except_left_strictly_inside_follows_and_a_written_one_fails_verify(run: Run, tmp_path: Path) -> None:
    """/24 -> /25 in place with except /26: still strictly inside: written, exit 0, a valid ipBlock
    (checked as Kubernetes does). A grow (/24 -> /22) with except /25: written, valid. A repo already
    written by hand (cidr 10.0.48.0/25 except 10.0.48.0/25): verify fails with the refusal."""
    for old, new, excepted in (("10.0.48.0/24", "10.0.48.0/25", "10.0.48.0/26"),
                               ("10.0.48.0/24", "10.0.48.0/22", "10.0.48.0/25")):
        root = _repo(tmp_path, _policies(old, excepted), f"{old}: {new}")
        done = run(root, "sweep", "--commit")
        assert done.exit_code == 0, done.stdout + done.stderr
        assert f"cidr: {new}" in (root / "np.yaml").read_text()
        assert _valid_block(root)
        assert run(root, "verify", "--strict").exit_code == 0
    root = _repo(tmp_path, _policies("10.0.48.0/25", "10.0.48.0/25"), "10.0.48.0/24: 10.0.48.0/25")
    checked = run(root, "verify", "--strict")
    assert checked.exit_code == 1, checked.stdout
    assert "np.yaml:12:17: residual (tool-refuses): 10.0.48.0/25" in checked.stdout, checked.stdout
    assert not _valid_block(root)
